package java

import (
	"fmt"
	"strings"

	"github.com/ripple-dev/ripple/internal/lang"
	"github.com/ripple-dev/ripple/internal/lang/treesit"
	"github.com/ripple-dev/ripple/internal/model"
)

// Mechanical fixes: the edit of an inconsistent site that the seed alone
// decides, made without a model (internal/fix applies them first and
// proves them with javac), as the other front-ends make them.
//
// A call of a method, a `new` of a class, or a this(...)/super(...) call
// whose arguments fit the old parameter list of a changed method or
// constructor gets its argument list rebuilt for the new one: the
// arguments of parameters kept (same name and type, in order) stay, a
// removed parameter's argument is dropped, and an added parameter gets
// the expression the developer gave for it (param_defaults); a
// parameter added without one means no fix. A fix is offered only where
// the result is certain: a site judged inconsistent by the syntax (or by
// javac's "cannot be applied to given types" of the changed method or
// constructor, at a receiver the syntax could not type), not of a
// derived change, no varargs on either side, an argument for every
// old parameter, no comment and no line break in the argument list, and
// no parameter retyped in place (its old argument is not known to fit).

// withFixes attaches the mechanical fix of each ref that has one.
func (a *analyzer) withFixes(refs []*lang.Ref) {
	for _, r := range refs {
		if s := a.sites[r]; s != nil && r.Fix == nil {
			r.Fix = a.argsFix(s)
		}
	}
}

// argsFix is the fix of one arity-broken call site, nil when there is
// none.
func (a *analyzer) argsFix(s *jsite) *model.Fix {
	r, t := s.ref, s.t
	proven := r.Precision == model.PrecisionSyntax || r.Precision == model.PrecisionTypes && s.applied
	if r.Verdict != model.Inconsistent || !proven || t.ch.Derived {
		return nil
	}
	if t.ch.Label != model.MMS && t.ch.Label != model.MCC || t.od == nil || t.nd == nil || t.od.meth == nil || t.nd.meth == nil {
		return nil
	}
	argList := argumentsOf(s.n)
	if argList == nil {
		return nil
	}
	text := argList.Text()
	if strings.Contains(text, "\n") || strings.Contains(text, "//") || strings.Contains(text, "/*") {
		return nil
	}
	args := argList.NamedKids()
	op, np := t.od.meth.params, t.nd.meth.params
	if len(args) != len(op) {
		return nil
	}
	newToOld, ok := alignParams(op, np)
	if !ok {
		return nil
	}
	var out, what []string
	for j, i := range newToOld {
		if i >= 0 {
			out = append(out, args[i].Text())
			continue
		}
		expr, ok := a.env.Defaults[np[j].name]
		if !ok || strings.TrimSpace(expr) == "" {
			return nil // an added parameter with no given value
		}
		out = append(out, expr)
		what = append(what, fmt.Sprintf("pass %s for %s", expr, np[j].name))
	}
	kept := map[int]bool{}
	for _, i := range newToOld {
		kept[i] = true
	}
	for i, p := range op {
		if !kept[i] {
			what = append(what, fmt.Sprintf("drop argument %d (%s %s)", i+1, p.typ, p.name))
		}
	}
	if len(what) == 0 {
		return nil
	}
	f := s.f
	edit := lang.EditBytes(f.path, f.t.Src, int(argList.Start)+1, int(argList.End)-1, strings.Join(out, ", "))
	return &model.Fix{Description: strings.Join(what, "; "), Edits: []model.TextEdit{edit}}
}

// argumentsOf is the argument list of the call a site's node names: the
// name of a method invocation, the type of an object creation, the
// keyword of a this(...) or super(...) call; nil for anything else (an
// implicit super(), a method reference).
func argumentsOf(n *treesit.Node) *treesit.Node {
	p := n.Parent
	if p == nil {
		return nil
	}
	switch {
	case p.Kind == "method_invocation" && n.Field == "name",
		p.Kind == "object_creation_expression" && n.Field == "type",
		p.Kind == "explicit_constructor_invocation" && n.Field == "constructor":
		if args := p.Child("arguments"); args != nil && args.Kind == "argument_list" {
			return args
		}
	}
	return nil
}

// alignParams maps each new parameter to the old one it keeps (same name
// and type, in order), -1 for an added one. ok is false when the lists
// cannot be aligned with certainty: varargs on either side, a name on
// both sides whose type or place changed.
func alignParams(op, np []param) (newToOld []int, ok bool) {
	for _, p := range append(append([]param{}, op...), np...) {
		if p.varargs || p.name == "" {
			return nil, false
		}
	}
	oldAt := map[string]int{}
	for i, p := range op {
		oldAt[p.name] = i
	}
	last := -1
	for _, p := range np {
		i, had := oldAt[p.name]
		switch {
		case !had:
			newToOld = append(newToOld, -1)
		case op[i].typ != p.typ || i < last:
			return nil, false // retyped or moved: not mechanical
		default:
			newToOld = append(newToOld, i)
			last = i
		}
	}
	return newToOld, true
}
