package java

import (
	"context"
	"fmt"
	"strings"

	"github.com/ripple-dev/ripple/internal/lang"
	"github.com/ripple-dev/ripple/internal/lang/treesit"
	"github.com/ripple-dev/ripple/internal/model"
)

// callSite is one call (or method reference) of a name.
type callSite struct {
	f     *jfile
	n     *treesit.Node // the invocation or reference
	at    *treesit.Node // the name written
	nargs int           // -1 for a method reference
	args  []*treesit.Node
	recv  rtype // the receiver's type, or the implicit one
	// implicit: an unqualified call
	implicit bool
	// bound: the receiver's type is the target's class or derives from
	// it, so the call binds among its overloads
	bound bool
}

// calls judges the calls and method references of a changed or deleted
// method.
func (a callJudge) calls(ctx context.Context, t *target) ([]*lang.Ref, error) {
	om, base := t.od.meth, t.cls
	if om == nil || base == nil {
		return nil, nil // the class went too: its own change reports its users
	}
	if t.ch.Label == model.MMS && !callerRelevant(om, t.nd.meth) {
		return nil, nil // what changed is no caller's concern (final, abstract)
	}
	files, sees, err := a.memberFiles(ctx, base, t.name)
	if err != nil {
		return nil, err
	}
	var out []*lang.Ref
	for _, f := range files {
		for _, cs := range a.callSites(f, t.name, base) {
			// a receiver of unknown type is judged only where the class's
			// name is written or needs not be (its package)
			if !cs.bound && !sees[f.path] && f.pkg != base.file.pkg {
				continue
			}
			if r := a.callVerdict(t, cs); r != nil {
				out = append(out, r)
			}
		}
	}
	return out, nil
}

// callSites finds the calls of name in f and resolves their receivers
// against the class base.
func (a callJudge) callSites(f *jfile, name string, base *jtype) []*callSite {
	var out []*callSite
	treesit.Walk(f.t.Root, func(n *treesit.Node) bool {
		if n.Bad {
			return false
		}
		var cs *callSite
		switch n.Kind {
		case "method_invocation":
			if nm := n.Child("name"); nm.Text() == name {
				args := n.Child("arguments").NamedKids()
				cs = &callSite{f: f, n: n, at: nm, nargs: len(args), args: args}
				if obj := n.Child("object"); obj != nil {
					cs.recv = a.ix.typeOf(f, obj, 0)
				} else {
					cs.recv, cs.implicit = a.b.implicitReceiver(f, n, name, base), true
				}
			}
		case "method_reference":
			ks := n.NamedKids()
			if len(ks) >= 2 && ks[len(ks)-1].Kind == "identifier" && ks[len(ks)-1].Text() == name {
				cs = &callSite{f: f, n: n, at: ks[len(ks)-1], nargs: -1, recv: a.ix.typeOf(f, ks[0], 0)}
			}
		}
		if cs != nil {
			if cs.recv.state == outside {
				return true // a method of a type the repository does not declare
			}
			cs.bound = cs.recv.state == known && a.ix.subtypeOf(cs.recv.t, base)
			if cs.recv.state == unknown || cs.bound {
				out = append(out, cs)
			}
		}
		return true
	})
	return out
}

// implicitReceiver is the type an unqualified call of name binds in: the
// innermost enclosing type that has a method of that name, else the type
// a static import names. base is the class that declared name in the
// base state (nil: none): an enclosing type deriving from it had the
// method there, so the call bound in it even where the head declares no
// method of the name any more (a deleted or renamed method).
func (ix binder) implicitReceiver(f *jfile, n *treesit.Node, name string, base *jtype) rtype {
	scope, anon := enclosingType(f, n)
	open := false
	if anon != nil {
		// the anonymous class's own methods and its supertype's come first
		at := anonymousType(f, anon)
		for _, m := range at.methods {
			if m.name == name {
				return rtype{state: outside} // its own method
			}
		}
		if st := ix.resolveType(f, at.outer, typeText(at.super)); st.state == known {
			if hasMethod(ix, st.t, name) || base != nil && ix.subtypeOf(st.t, base) {
				return rtype{state: known, t: st.t}
			}
			open = ix.openAncestry(st.t)
		} else {
			open = true
		}
		scope = at.outer
	}
	for s := scope; s != nil; s = s.outer {
		if hasMethod(ix, s, name) || base != nil && ix.subtypeOf(s, base) {
			if open {
				return rtype{why: "the anonymous class's supertype, outside the repository, may declare " + name}
			}
			return rtype{state: known, t: s}
		}
		open = open || ix.openAncestry(s)
	}
	if r, ok := ix.staticImport(f, name); ok {
		return r
	}
	if open {
		return rtype{why: "the enclosing class may inherit " + name + " from outside the repository"}
	}
	return rtype{state: outside}
}

// hasMethod reports a method named name that t declares or inherits
// from a repository supertype.
func hasMethod(ix binder, t *jtype, name string) bool {
	for _, x := range ix.ancestors(t) {
		for _, m := range x.methods {
			if !m.ctor && m.name == name {
				return true
			}
		}
	}
	return false
}

// staticImport is the type a static import of name binds it to: a
// single static import first, then the on-demand ones of repository
// types; ok is false when no static import may supply it.
func (ix binder) staticImport(f *jfile, name string) (rtype, bool) {
	for _, im := range f.imports {
		if im.static && !im.wildcard && im.last() == name {
			if t := ix.typeByFQN(strings.TrimSuffix(im.name, "."+name), f); t != nil {
				return rtype{state: known, t: t, static: true}, true
			}
			return rtype{state: outside}, true
		}
	}
	for _, im := range f.imports {
		if im.static && im.wildcard {
			if t := ix.typeByFQN(im.name, f); t != nil {
				for _, m := range t.methods {
					if m.name == name {
						return rtype{state: known, t: t, static: true}, true
					}
				}
				for _, fd := range t.fields {
					if fd.name == name {
						return rtype{state: known, t: t, static: true}, true
					}
				}
			}
		}
	}
	return rtype{}, false
}

// overloads are the head-state methods (or constructors) named name
// that a receiver of type recv sees, nearest type first.
func (ix binder) overloads(recv *jtype, name string, ctor bool) []*jmethod {
	var out []*jmethod
	types := []*jtype{recv}
	if !ctor {
		types = ix.ancestors(recv)
	}
	for _, x := range types {
		for _, m := range x.methods {
			if m.ctor == ctor && (ctor || m.name == name) {
				out = append(out, m)
			}
		}
	}
	return out
}

// sameMethod reports whether two methods are the same declaration in one
// state (by owner, name and parameter types).
func sameMethod(x, y *jmethod) bool {
	return x != nil && y != nil && x.owner.qual == y.owner.qual && x.owner.file.path == y.owner.file.path && x.name == y.name && sameTypes(x.params, y.params)
}

// callVerdict judges one call site of a method whose signature changed
// or that was deleted: the verdict ladder of calls by arity.
func (a callJudge) callVerdict(t *target, cs *callSite) *lang.Ref {
	om := t.od.meth
	var nm *jmethod
	if t.nd != nil && t.ch.Label == model.MMS {
		nm = t.nd.meth
	}
	display := om.owner.qual + "." + om.name
	if cs.nargs < 0 {
		return a.refVerdict(t, cs, nm, display)
	}
	if !a.b.argsFit(om, cs.f, cs.args) {
		if nm != nil && a.b.argsFit(nm, cs.f, cs.args) && cs.bound {
			return a.ref(t, cs.f, cs.at, model.CalledBy, model.Consistent, model.PrecisionSyntax, "the call binds to the new signature of "+display, "")
		}
		return nil // a call of another overload, or one already broken
	}
	prec, missing := model.PrecisionSyntax, ""
	if !cs.bound {
		prec, missing = model.PrecisionName, cs.recv.why
	}
	var others []*jmethod
	newFits := false
	if cs.recv.state == known {
		for _, m := range a.b.overloads(cs.recv.t, om.name, false) {
			if !a.b.argsFit(m, cs.f, cs.args) {
				continue
			}
			if sameMethod(m, nm) {
				newFits = true
			} else {
				if a.b.moreSpecific(m, om, cs.f, cs.args) {
					return nil // the call bound, and binds, to this other overload
				}
				others = append(others, m)
			}
		}
	} else if nm != nil {
		newFits = a.b.argsFit(nm, cs.f, cs.args)
	}
	switch {
	case newFits && cs.bound && (cs.recv.static || cs.implicit && staticContext(cs.n)) && !nm.has("static") && t.od.meth.has("static"):
		return a.ref(t, cs.f, cs.at, model.CalledBy, model.Inconsistent, prec, "calls "+display+" without an instance, but it is no longer static", missing)
	case newFits && cs.bound && !a.b.accessible(nm, cs.f, cs.n) && a.b.accessible(t.od.meth, cs.f, cs.n):
		return a.ref(t, cs.f, cs.at, model.CalledBy, model.Inconsistent, prec, "calls "+display+" from where it is no longer accessible: it became "+visibility(nm.mods), missing)
	case newFits && cs.bound && callsAlike(t.od.meth, nm):
		return a.ref(t, cs.f, cs.at, model.CalledBy, model.Consistent, prec, "calls "+display+", which it may still call", "")
	case newFits:
		return a.ref(t, cs.f, cs.at, model.CalledBy, model.MayBeImpacted, prec, "calls "+display+", whose signature changed: "+t.details(), missing)
	case len(others) > 0:
		return a.ref(t, cs.f, cs.at, model.CalledBy, model.MayBeImpacted, prec,
			fmt.Sprintf("calls %s with %s, %s; the overload set is ambiguous: the call may now bind to %s", display, args(cs.nargs), a.what(t), methodDisplay(others[0])), missing)
	}
	msg := fmt.Sprintf("calls %s with %s, %s", display, args(cs.nargs), a.what(t))
	if cs.bound && a.ix.openAncestry(cs.recv.t) {
		return a.ref(t, cs.f, cs.at, model.CalledBy, model.MayBeImpacted, prec, msg, "the overloads of a supertype outside the repository")
	}
	return a.ref(t, cs.f, cs.at, model.CalledBy, model.Inconsistent, prec, msg, missing)
}

// what says what became of the target, after its name.
func (a callJudge) what(t *target) string {
	if t.ch.Label != model.MMS {
		return t.gone()
	}
	nm := t.nd.meth
	return fmt.Sprintf("which now takes %s", arity(nm))
}

// args counts arguments.
func args(n int) string {
	if n == 1 {
		return "1 argument"
	}
	return fmt.Sprintf("%d arguments", n)
}

func arity(m *jmethod) string {
	if len(m.params) == 1 {
		return "1 argument (" + m.params[0].typ + ")"
	}
	return fmt.Sprintf("%d arguments (%s)", len(m.params), strings.Join(paramTypes(m.params), ", "))
}

// refVerdict judges a method reference (Foo::bar) of a changed or
// deleted method: which functional interface it is passed as is not
// read, so a changed signature may be impacted; a deleted method that
// no overload replaces is not there to refer to.
func (a callJudge) refVerdict(t *target, cs *callSite, nm *jmethod, display string) *lang.Ref {
	prec, missing := model.PrecisionSyntax, ""
	if !cs.bound {
		prec, missing = model.PrecisionName, cs.recv.why
	}
	if nm != nil {
		return a.ref(t, cs.f, cs.at, model.CalledBy, model.MayBeImpacted, prec,
			"refers to "+display+" as a value ("+cs.n.Text()+"), whose signature changed: "+t.details()+"; the functional interface it is passed as may no longer fit", missing)
	}
	if cs.recv.state == known && len(a.b.overloads(cs.recv.t, t.od.meth.name, false)) > 0 {
		return a.ref(t, cs.f, cs.at, model.CalledBy, model.MayBeImpacted, prec, "refers to "+display+", "+t.gone()+"; another overload of the name remains", missing)
	}
	return a.ref(t, cs.f, cs.at, model.CalledBy, model.Inconsistent, prec, "refers to "+display+", "+t.gone(), missing)
}

// staticImporters reports the static imports of a deleted method.
func (a callJudge) staticImporters(ctx context.Context, t *target) ([]*lang.Ref, error) {
	owner := t.oldOwner
	if owner == nil || t.cls == nil {
		return nil, nil // the class went too: its importers are its own change's
	}
	files, err := a.search(ctx, owner.name) // import static p.Owner.name
	if err != nil {
		return nil, err
	}
	var out []*lang.Ref
	fqn := owner.fqn() + "." + t.name
	for _, f := range files {
		for _, im := range f.imports {
			if !im.static || im.wildcard || im.name != fqn {
				continue
			}
			if t.cls != nil && (len(a.b.overloads(t.cls, t.name, false)) > 0 || fieldNamed(t.cls, t.name)) {
				continue // another member of the name is imported
			}
			out = append(out, a.ref(t, f, im.node, model.ImportedBy, model.Inconsistent, model.PrecisionSyntax, "imports "+fqn+", "+t.gone(), ""))
		}
	}
	return out, nil
}

func fieldNamed(t *jtype, name string) bool {
	for _, fd := range t.fields {
		if fd.name == name {
			return true
		}
	}
	return false
}

// topType is the top-level type that holds t.
func topType(t *jtype) *jtype {
	for t != nil && t.outer != nil {
		t = t.outer
	}
	return t
}

// topLevel is the top-level type of f that holds n, nil outside any.
func topLevel(f *jfile, n *treesit.Node) *jtype {
	for p := n; p != nil; p = p.Parent {
		if p.Parent != nil && p.Parent.Kind == "program" {
			for _, t := range f.types {
				if t.node == p {
					return t
				}
			}
		}
	}
	return nil
}

// sameType compares types by their file and qualified name (two parses
// of one file hold two copies of a type).
func sameType(x, y *jtype) bool {
	return x != nil && y != nil && x.file.path == y.file.path && x.qual == y.qual
}

// accessible reports whether code at n in f may call m, by its access
// modifier.
func (ix binder) accessible(m *jmethod, f *jfile, n *treesit.Node) bool {
	return ix.accessibleMember(m.mods, m.owner, f, n)
}

// accessibleMember reports whether code at n in f may use a member with
// modifiers mods of type owner.
func (ix binder) accessibleMember(mods []string, owner *jtype, f *jfile, n *treesit.Node) bool {
	switch visibility(mods) {
	case "private":
		return sameType(topLevel(f, n), topType(owner))
	case "package-private":
		return f.pkg == owner.file.pkg
	case "protected":
		if f.pkg == owner.file.pkg {
			return true
		}
		for s, _ := enclosingType(f, n); s != nil; s = s.outer {
			if o := ix.typeByFQN(owner.fqn(), f); o != nil && ix.subtypeOf(s, o) {
				return true
			}
		}
		return false
	}
	return true
}

// accessOnly reports two states of a method that differ only in access.
func accessOnly(o, n *jmethod) bool {
	return o != nil && n != nil && sameTypes(o.params, n.params) && o.ret == n.ret && o.tparams == n.tparams &&
		strings.Join(o.throws, ",") == strings.Join(n.throws, ",") && o.has("static") == n.has("static") && o.has("abstract") == n.has("abstract")
}

// callerRelevant reports a change of a method's signature that a call
// can see: parameters, return type, type parameters, throws, static or
// access (final, abstract, default are the overriders' concern).
func callerRelevant(o, n *jmethod) bool {
	return !sameTypes(o.params, n.params) || o.ret != n.ret || o.tparams != n.tparams ||
		strings.Join(o.throws, ",") != strings.Join(n.throws, ",") || o.has("static") != n.has("static") || visibility(o.mods) != visibility(n.mods)
}

// callsAlike reports two states of a method that a call that may still
// reach it sees alike: the same parameter, return and thrown types (a
// method that became static is called through an instance as before).
func callsAlike(o, n *jmethod) bool {
	return o != nil && n != nil && sameTypes(o.params, n.params) && o.ret == n.ret && o.tparams == n.tparams &&
		strings.Join(o.throws, ",") == strings.Join(n.throws, ",")
}

// staticContext reports code with no this: a static method, initializer
// or field.
func staticContext(n *treesit.Node) bool {
	m := enclosingMember(n)
	if m == nil {
		return false
	}
	if m.Kind == "static_initializer" {
		return true
	}
	mods, _ := modifiers(m.FirstOf("modifiers"))
	return hasMod(mods, "static") && (m.Kind == "method_declaration" || m.Kind == "field_declaration")
}
