package golang

import (
	"fmt"
	"go/ast"
	"sort"
	"strings"

	"github.com/ripple-dev/ripple/internal/lang"
	"github.com/ripple-dev/ripple/internal/model"
)

// Code written field by field (issue 10: a field change reaches "the
// functions that copy, compare, serialise or clone the type"). A struct
// that gains a field still compiles everywhere, but two kinds of code
// were written to cover every field and now miss one:
//
//   - a keyed literal that sets every field the struct had, copying them
//     from one value (a clone, a conversion from another type);
//   - a function that reads every field the struct had through one value
//     of it, a receiver or parameter typed T or *T (Equal, String,
//     MarshalJSON, a copy into another type).
//
// Both are may-be-impacted ("sets every field of Config but the added
// Timeout"), judged from syntax alone: the struct must have had at least
// minCovered fields, so that covering all of them is a choice and not a
// coincidence, and a block the diff edited is the developer's, consistent.
// An added cache, lock or memo (lang.Bookkeeping) is left out of such code
// on purpose.

// minCovered is the number of old fields a block must cover.
const minCovered = 3

// addedFields groups the AF targets by their struct, with the struct's
// fields before the change (the head state's, without the added ones).
type addedFields struct {
	targets []*target
	old     []string // sorted
	added   map[string]bool
}

// fieldAdditions indexes the AF targets of a round by struct.
func (a *analyzer) fieldAdditions(ts []*target) map[tref]*addedFields {
	out := map[tref]*addedFields{}
	for _, t := range ts {
		if t.ch.Label != model.AF || t.kind != model.KindField {
			continue
		}
		k := tref{t.pkgKey, t.container}
		af := out[k]
		if af == nil {
			af = &addedFields{added: map[string]bool{}}
			out[k] = af
		}
		af.added[t.name] = true
		if !lang.Bookkeeping(t.name) {
			af.targets = append(af.targets, t)
		}
	}
	for k, af := range out {
		if len(af.targets) == 0 {
			delete(out, k) // only bookkeeping was added
			continue
		}
		ts := a.syms.lookupType(&k)
		if ts == nil {
			delete(out, k)
			continue
		}
		for name := range ts.fields {
			if !af.added[name] {
				af.old = append(af.old, name)
			}
		}
		if len(af.old) < minCovered {
			delete(out, k)
			continue
		}
		sort.Strings(af.old)
	}
	return out
}

// names lists the added data fields, for messages.
func (af *addedFields) names() string {
	var ns []string
	for _, t := range af.targets {
		ns = append(ns, t.name)
	}
	sort.Strings(ns)
	return strings.Join(ns, ", ")
}

// covers reports whether seen holds every old field and no added one.
func (af *addedFields) covers(seen map[string]bool) bool {
	for _, n := range af.old {
		if !seen[n] {
			return false
		}
	}
	for n := range af.added {
		if seen[n] {
			return false
		}
	}
	return true
}

// keyedCovers reports a keyed literal that copies every old field from
// one value: it sets them all, and at least minCovered of them from
// fields of one variable (Config{Host: c.Host, Port: c.Port, ...}). A
// literal that spells out every field with constants (a theme, a table
// of defaults) chose its values, and a zero value for the new field may
// be one of them.
func (af *addedFields) keyedCovers(lit *ast.CompositeLit) bool {
	seen := map[string]bool{}
	from := map[string]int{}
	for _, e := range lit.Elts {
		kv, ok := e.(*ast.KeyValueExpr)
		if !ok {
			return false
		}
		if id, ok := kv.Key.(*ast.Ident); ok {
			seen[id.Name] = true
		}
		if sel, ok := ast.Unparen(kv.Value).(*ast.SelectorExpr); ok {
			if x, ok := sel.X.(*ast.Ident); ok {
				from[x.Name]++
			}
		}
	}
	copied := false
	for _, n := range from {
		copied = copied || n >= minCovered
	}
	return copied && af.covers(seen)
}

// copies records a function that reads every old field of a struct that
// gained fields through one receiver or parameter of that type.
func (w *walker) copies(fd *ast.FuncDecl) {
	if fd.Body == nil {
		return
	}
	type holder struct {
		name string
		af   *addedFields
		seen map[string]bool
	}
	byBinding := map[*binding]*holder{}
	var order []*holder
	consider := func(fl *ast.FieldList) {
		if fl == nil {
			return
		}
		for _, f := range fl.List {
			tr := w.syms.typeRef(f.Type, w.f)
			if tr == nil || w.added[*tr] == nil {
				continue
			}
			for _, n := range f.Names {
				if b := w.f.scopes.lookup(n); b != nil && n.Name != "_" {
					h := &holder{name: n.Name, af: w.added[*tr], seen: map[string]bool{}}
					byBinding[b] = h
					order = append(order, h)
				}
			}
		}
	}
	consider(fd.Recv)
	consider(fd.Type.Params)
	if len(byBinding) == 0 {
		return
	}
	filled := map[*addedFields]bool{} // a literal in the body sets them all: that literal is the site
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.SelectorExpr:
			if id, ok := x.X.(*ast.Ident); ok {
				if h := byBinding[w.f.scopes.lookup(id)]; h != nil {
					h.seen[x.Sel.Name] = true
				}
			}
		case *ast.CompositeLit:
			if x.Type != nil {
				if tr := w.syms.typeRef(x.Type, w.f); tr != nil && w.added[*tr] != nil && w.added[*tr].keyedCovers(x) {
					filled[w.added[*tr]] = true
				}
			}
		}
		return true
	})
	for _, h := range order {
		if h.af.covers(h.seen) && !filled[h.af] {
			filled[h.af] = true // one finding per function and struct
			w.add(&ref{t: h.af.targets[0], id: fd.Name, kind: rkCopy, decl: fd, param: h.name, prec: model.PrecisionSyntax})
		}
	}
}

// coverageVerdict judges a literal or a function that covers every old
// field of a struct that gained fields.
func (a syntaxRules) coverageVerdict(r *ref) verdict {
	af := a.additions[tref{r.t.pkgKey, r.t.container}]
	if af == nil {
		return verdict{skip: true}
	}
	var from, to ast.Node
	var v verdict
	switch r.kind {
	case rkLiteral:
		if !af.keyedCovers(r.lit) {
			return verdict{skip: true}
		}
		from, to = r.lit, r.lit
		v = verdict{rel: model.InstantiatedBy, v: model.MayBeImpacted, exactly: true,
			msg: fmt.Sprintf("copies every field of %s but the added %s: a literal written to copy them all may have to copy it too", r.t.container, af.names())}
	case rkCopy:
		from, to = r.decl, r.decl
		v = verdict{rel: model.UsedBy, v: model.MayBeImpacted, exactly: true,
			msg: fmt.Sprintf("reads every field of %s through %s but not the added %s: a copy, comparison or encoding written field by field may have to handle it", r.t.container, r.param, af.names())}
	default:
		return verdict{skip: true}
	}
	if a.env.Touched(r.f.path, a.ix.fset.PositionFor(from.Pos(), false).Line, a.ix.fset.PositionFor(to.End(), false).Line) {
		v.v, v.msg = model.Consistent, "edited in the same diff"
	}
	return v
}
