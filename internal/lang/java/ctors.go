package java

import (
	"context"
	"fmt"

	"github.com/ripple-dev/ripple/internal/lang"
	"github.com/ripple-dev/ripple/internal/lang/treesit"
	"github.com/ripple-dev/ripple/internal/model"
)

// ctorSite is one place that runs a constructor of a class: `new C(...)`
// (an anonymous subclass included), `super(...)` or `this(...)`, or the
// implicit super() of a subclass constructor that calls none.
type ctorSite struct {
	f     *jfile
	at    *treesit.Node
	nargs int
	rel   model.Relation
	how   string // "instantiates", "calls super(...) of", ...
}

// ctorSites judges the instantiations and constructor calls of a class
// whose constructors changed (one changed, added or deleted).
func (a ctorJudge) ctorSites(ctx context.Context, t *target) ([]*lang.Ref, error) {
	cls := t.cls
	if cls == nil {
		return nil, nil // the class went too: its own change reports it
	}
	var om, nm *jmethod
	if t.od != nil {
		om = t.od.meth
	}
	if t.nd != nil && t.ch.Label != model.DCC {
		nm = t.nd.meth
	}
	heads := a.b.overloads(cls, "", true)
	oldAccepts := func(k int) bool {
		if om != nil {
			return om.accepts(k)
		}
		// an added constructor removes the implicit one when it is the
		// only one
		return k == 0 && len(heads) == 1 && sameMethod(heads[0], nm)
	}
	files, err := a.search(ctx, cls.name)
	if err != nil {
		return nil, err
	}
	var out []*lang.Ref
	for _, f := range files {
		for _, s := range a.ctorCalls(f, cls) {
			if r := a.ctorVerdict(t, s, heads, nm, oldAccepts); r != nil {
				out = append(out, r)
			}
		}
	}
	return out, nil
}

// ctorVerdict judges one constructor call by arity against the class's
// head constructors.
func (a ctorJudge) ctorVerdict(t *target, s *ctorSite, heads []*jmethod, nm *jmethod, oldAccepts func(int) bool) *lang.Ref {
	cls := t.cls
	accepts := func(k int) (byNew, byOther bool) {
		if len(heads) == 0 {
			return false, k == 0 // the implicit constructor
		}
		for _, m := range heads {
			if m.accepts(k) {
				if sameMethod(m, nm) {
					byNew = true
				} else {
					byOther = true
				}
			}
		}
		return byNew, byOther
	}
	byNew, byOther := accepts(s.nargs)
	if !oldAccepts(s.nargs) {
		if byNew {
			return a.ref(t, s.f, s.at, s.rel, model.Consistent, model.PrecisionSyntax, "the call binds to the new constructor of "+cls.qual, "")
		}
		return nil
	}
	switch {
	case byNew && t.ch.Label == model.MCC && !a.b.accessible(nm, s.f, s.at) && t.od != nil && a.b.accessible(t.od.meth, s.f, s.at):
		return a.ref(t, s.f, s.at, s.rel, model.Inconsistent, model.PrecisionSyntax, s.how+" "+cls.qual+" from where its constructor is no longer accessible: it became "+visibility(nm.mods), "")
	case byNew && t.ch.Label == model.MCC && t.od != nil && accessOnly(t.od.meth, nm):
		return a.ref(t, s.f, s.at, s.rel, model.Consistent, model.PrecisionSyntax, s.how+" "+cls.qual+" from where its constructor is still accessible", "")
	case byNew && t.ch.Label == model.MCC:
		return a.ref(t, s.f, s.at, s.rel, model.MayBeImpacted, model.PrecisionSyntax, s.how+" "+cls.qual+", whose constructor's signature changed: "+t.details(), "")
	case byNew || byOther:
		if t.ch.Label == model.ACC {
			return nil
		}
		return a.ref(t, s.f, s.at, s.rel, model.MayBeImpacted, model.PrecisionSyntax,
			fmt.Sprintf("%s %s with %s; the overload set is ambiguous: another constructor of that arity remains", s.how, cls.qual, args(s.nargs)), "")
	}
	var msg string
	switch {
	case t.ch.Label == model.ACC:
		msg = fmt.Sprintf("%s %s with %s, but its implicit constructor is gone: it now declares only %s", s.how, cls.qual, args(s.nargs), methodDisplay(nm))
	case nm != nil:
		msg = fmt.Sprintf("%s %s with %s; its constructor now takes %s", s.how, cls.qual, args(s.nargs), arity(nm))
	default:
		msg = fmt.Sprintf("%s %s with %s; that constructor %s", s.how, cls.qual, args(s.nargs), t.gone())
	}
	return a.ref(t, s.f, s.at, s.rel, model.Inconsistent, model.PrecisionSyntax, msg, "")
}

// ctorCalls finds in f what runs a constructor of cls.
func (a ctorJudge) ctorCalls(f *jfile, cls *jtype) []*ctorSite {
	var out []*ctorSite
	treesit.Walk(f.t.Root, func(n *treesit.Node) bool {
		if n.Bad {
			return false
		}
		switch n.Kind {
		case "object_creation_expression":
			tn := n.Child("type")
			if baseName(simpleName(baseName(typeText(tn)))) != cls.name {
				return true
			}
			scope, _ := enclosingType(f, n)
			if r := a.ix.resolveType(f, scope, typeText(tn)); r.state == known && r.t == cls {
				how := "instantiates"
				if n.FirstOf("class_body") != nil {
					how = "instantiates an anonymous subclass of"
				}
				out = append(out, &ctorSite{f: f, at: tn, nargs: len(n.Child("arguments").NamedKids()), rel: model.InstantiatedBy, how: how})
			}
		case "explicit_constructor_invocation":
			if s := a.explicitCall(f, n, cls); s != nil {
				out = append(out, s)
			}
		}
		return true
	})
	// subclasses whose constructors call super() implicitly
	for _, st := range f.types {
		if st.kind != "class" || st.super == nil || a.ix.resolveNoInherit(f, st, typeText(st.super)) != cls {
			continue
		}
		ctors := 0
		for _, m := range st.methods {
			if !m.ctor {
				continue
			}
			ctors++
			if m.body != nil && !startsWithCall(m.body) {
				out = append(out, &ctorSite{f: f, at: m.node.Child("name"), nargs: 0, rel: model.CalledBy, how: "calls super() implicitly, of"})
			}
		}
		if ctors == 0 {
			out = append(out, &ctorSite{f: f, at: st.node.Child("name"), nargs: 0, rel: model.CalledBy, how: "has an implicit constructor calling super() of"})
		}
	}
	return out
}

// explicitCall is a super(...) call of cls in a subclass's constructor,
// or a this(...) call in cls's own.
func (a ctorJudge) explicitCall(f *jfile, n *treesit.Node, cls *jtype) *ctorSite {
	scope, anon := enclosingType(f, n)
	if scope == nil || anon != nil {
		return nil
	}
	kw := n.Child("constructor")
	nargs := len(n.Child("arguments").NamedKids())
	switch kw.KindOr() {
	case "this":
		if scope == cls {
			return &ctorSite{f: f, at: kw, nargs: nargs, rel: model.CalledBy, how: "calls this(...) of"}
		}
	case "super":
		if n.Child("object") == nil && scope.super != nil && a.ix.resolveNoInherit(f, scope, typeText(scope.super)) == cls {
			return &ctorSite{f: f, at: kw, nargs: nargs, rel: model.CalledBy, how: "calls super(...) of"}
		}
	}
	return nil
}

// startsWithCall reports a constructor body that opens with this(...)
// or super(...).
func startsWithCall(body *treesit.Node) bool {
	ks := body.NamedKids()
	return len(ks) > 0 && ks[0].Kind == "explicit_constructor_invocation"
}
