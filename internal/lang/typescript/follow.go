package typescript

import (
	"fmt"
	"strings"

	"github.com/ripple-dev/ripple/internal/lang"
	"github.com/ripple-dev/ripple/internal/lang/treesit"
	"github.com/ripple-dev/ripple/internal/model"
)

// Derived changes. A call site of a changed function may imply that the
// function around it must change too: a wrapper that forwards its own
// parameters to the changed function must take the new parameter list,
// and one that returns the changed function's result without declaring
// its own return type now returns the new type (TypeScript infers it).
// The analyzer says so with the site's Follow; the shared walk
// (internal/propagate) makes the derived change and asks for its
// dependents in the next round, as it does for Go and Python. Callers of
// a forwarding wrapper are the farther frontier (notes: the wrapper's
// new parameters are not known yet); callers that use the result of a
// result wrapper are in the place of the changed function's own callers
// (warnings).

// Modes of a derived change: how the wrapper passes the change on.
const (
	followForwards = "forwards its parameters"
	followReturns  = "returns its result"
)

// derivedCall judges a call of a declaration that must change with the
// change it wraps (t.ch is derived).
func (j *judge) derivedCall(at, call *treesit.Node, rel model.Relation, prec model.Precision, byName bool) {
	t := j.t
	if byName || prec == model.PrecisionName {
		return
	}
	switch t.mode {
	case followReturns:
		if call.Parent == nil || call.Parent.Kind == "expression_statement" {
			return // the result is not used
		}
		old, nw := seedResult(t.ch)
		j.emit(at, rel, model.MayBeImpacted, prec, fmt.Sprintf("uses the result of %s, which returns the result of %s, whose return type changed: %s → %s",
			t.display(), t.ch.Cause.Block().Display, orNone(old), orNone(nw)))
	default:
		j.emit(at, rel, model.MayFollow, prec, fmt.Sprintf("calls %s, which %s %s", t.display(), mustOrMayChange(t.ch), t.ch.Cause.Block().Display))
	}
	r := j.out[len(j.out)-1]
	r.Follow = j.follow(call, r)
}

// spreadForward reports a call that spreads the rest parameter of the
// function around it into the changed function (`(...args) =>
// f(...args)`), when the parameters changed: how many arguments it
// passes is unknown, so the call itself is no error, but the function
// forwards its callers' arguments and must follow (its callers are
// judged next).
func (j *judge) spreadForward(at, call *treesit.Node, rel model.Relation, prec model.Precision) {
	t := j.t
	if l := t.ch.Label; l != model.MMS && l != model.MCC || t.od == nil || t.nd == nil || paramsText(t.od.fn) == paramsText(t.nd.fn) {
		return
	}
	as, spread := args(call)
	if !spread {
		return
	}
	_, d, inner := j.a.byNode.enclosingDecl(j.f, call)
	if d == nil || d.fn == nil || !forwardsParams(call, d, inner) {
		return
	}
	name := t.name
	if t.d.kind == dCtor {
		name = t.container
	}
	j.emit(at, rel, model.MayFollow, prec, fmt.Sprintf("the call spreads %s into %s, whose %s", treesit.Compact(as[len(as)-1]), name, strings.Join(t.ch.Details, "; ")))
}

func mustOrMayChange(c *model.Change) string {
	if c.Tentative > 0 {
		return "may have to change with"
	}
	return "must change with"
}

// seedResult is the declared return type, old and new, of the change a
// derived change comes from.
func seedResult(c *model.Change) (old, nw string) {
	for c.Derived && c.Cause != nil {
		c = c.Cause
	}
	od, nd := dataOf(c.Old), dataOf(c.New)
	if od == nil || nd == nil || od.fn == nil || nd.fn == nil {
		return "", ""
	}
	return od.fn.ret, nd.fn.ret
}

// follow returns the derived change a judged call implies for the
// declaration around it (a function, an arrow const, a method, a
// constructor), nil when it implies none.
func (j *judge) follow(call *treesit.Node, r *lang.Ref) *lang.Follow {
	t := j.t
	if r.Verdict == model.Consistent || r.Precision == model.PrecisionName {
		return nil
	}
	if l := t.ch.Label; l != model.MMS && l != model.MCC {
		return nil
	}
	fnNode, d, inner := j.a.byNode.enclosingDecl(j.f, call)
	if d == nil || d.fn == nil {
		return nil
	}
	if b := t.ch.Block(); b.Path == j.f.path && dataOf(b) != nil && dataOf(b).node.Start == d.node.Start {
		return nil // a recursive call: the declaration is the change itself
	}
	forwards, returns := false, false
	if t.ch.Derived {
		forwards = t.mode == followForwards && forwardsParams(call, d, inner)
		returns = t.mode == followReturns && returnsResult(call, fnNode) && d.fn.ret == ""
	} else {
		od, nd := t.od, t.nd
		returns = od.fn.ret != nd.fn.ret && returnsResult(call, fnNode) && d.fn.ret == ""
		forwards = forwardsParams(call, d, inner) && (r.Verdict == model.Inconsistent || paramsText(od.fn) != paramsText(nd.fn))
	}
	mode := ""
	switch {
	case forwards:
		mode = followForwards
	case returns:
		mode = followReturns
	default:
		return nil
	}
	k := followKey{t.ch, d}
	if j.a.followed[k] {
		return nil
	}
	if j.a.followed == nil {
		j.a.followed = map[followKey]bool{}
	}
	j.a.followed[k] = true
	decl := declOf(j.f, d)
	if decl == nil {
		return nil
	}
	how := "whose "
	if t.ch.Derived {
		how = "which "
	}
	if j.a.modes == nil {
		j.a.modes = map[*model.Block]string{}
	}
	j.a.modes[&decl.Block] = mode
	label := model.MMS
	if d.kind == dCtor {
		label = model.MCC
	}
	return &lang.Follow{Decl: decl, Label: label,
		Details: []string{"wraps " + t.display() + " (" + mode + "), " + how + strings.Join(t.ch.Details, "; ")}}
}

// followKey is a declaration a change was followed to.
type followKey struct {
	ch *model.Change
	d  *declData
}

// paramsText is a signature's parameter list as callers see it.
func paramsText(s *sig) string {
	t := *s
	t.ret, t.async = "", false
	return t.text()
}

// enclosingDecl returns the innermost function-like declaration of f
// around n (its node and data), looking through anonymous functions
// (callbacks), whose parameters it returns in inner.
func (dn *declNodeIndex) enclosingDecl(f *tsfile, n *treesit.Node) (*treesit.Node, *declData, map[string]bool) {
	byNode := dn.declNodes(f)
	inner := map[string]bool{}
	for p := n.Parent; p != nil; p = p.Parent {
		if !functionLike(p.Kind) && p.Kind != "method_definition" {
			continue
		}
		if d := byNode[p]; d != nil {
			return p, d, inner
		}
		for _, q := range sigOf(p).params {
			inner[q.name] = true
		}
	}
	return nil, nil, nil
}

// declNodeIndex maps, per file, the nodes of its function-like
// declarations to their data (declNodes), built on first use.
type declNodeIndex map[*tsfile]map[*treesit.Node]*declData

// declNodes maps the nodes of a file's function-like declarations to
// their data, once per file.
func (dn *declNodeIndex) declNodes(f *tsfile) map[*treesit.Node]*declData {
	if m, ok := (*dn)[f]; ok {
		return m
	}
	m := map[*treesit.Node]*declData{}
	for _, d := range f.decls {
		if d.fn != nil && (d.kind == dFunc || d.kind == dMethod || d.kind == dCtor) {
			m[d.node] = d
		}
	}
	if *dn == nil {
		*dn = map[*tsfile]map[*treesit.Node]*declData{}
	}
	(*dn)[f] = m
	return m
}

// declOf returns the declaration (head state) holding d.
func declOf(f *tsfile, d *declData) *lang.Decl {
	for _, x := range decls(f) {
		xd := x.Data.(*declData)
		if xd == d || xd.node == d.node {
			return x
		}
	}
	return nil
}

// forwardsParams reports a call whose every argument is one of the
// declaration's own parameters (or a spread of its rest parameter), not
// one of an anonymous function's in between.
func forwardsParams(call *treesit.Node, d *declData, inner map[string]bool) bool {
	as, _ := args(call)
	if len(as) == 0 {
		return false
	}
	params := map[string]bool{}
	for _, p := range d.fn.params {
		params[p.name] = true
	}
	for _, a := range as {
		if a.Kind == "spread_element" {
			if ks := a.NamedKids(); len(ks) == 1 {
				a = ks[0]
			}
		}
		if a.Kind != "identifier" || !params[a.Text()] || inner[a.Text()] {
			return false
		}
	}
	return true
}

// returnsResult reports a call whose value the function fn returns as it
// is (`return f(x)`, `return await f(x)`, `=> f(x)`).
func returnsResult(call, fn *treesit.Node) bool {
	n := call
	for n.Parent != nil {
		switch n.Parent.Kind {
		case "await_expression", "parenthesized_expression", "non_null_expression":
			n = n.Parent
			continue
		}
		break
	}
	p := n.Parent
	switch {
	case p == nil:
		return false
	case p == fn:
		return fn.Kind == "arrow_function" && fn.Child("body") == n
	case p.Kind != "return_statement":
		return false
	}
	for q := p.Parent; q != nil; q = q.Parent {
		if functionLike(q.Kind) || q.Kind == "method_definition" {
			return q == fn
		}
	}
	return false
}
