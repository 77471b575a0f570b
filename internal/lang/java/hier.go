package java

import (
	"context"
	"strings"

	"github.com/ripple-dev/ripple/internal/lang"
	"github.com/ripple-dev/ripple/internal/lang/treesit"
	"github.com/ripple-dev/ripple/internal/model"
)

// overrideMatch reports whether m has the parameter types of base, as
// an override must (type variables match any type: the syntax does not
// substitute a generic supertype's arguments).
func overrideMatch(m, base *jmethod) bool {
	if m.ctor || m.name != base.name || len(m.params) != len(base.params) || m.has("static") {
		return false
	}
	for i := range m.params {
		x, y := baseName(m.params[i].typ), baseName(base.params[i].typ)
		if x != y && simpleName(x) != simpleName(y) && !isTypeParam(base, y) && !isTypeParam(m, x) {
			return false
		}
	}
	return true
}

// subtypes returns the repository's types (anonymous classes included)
// that derive from base, directly or not, found by searching for the
// names of the types found so far.
func (a *analyzer) subtypes(ctx context.Context, base *jtype) ([]*jtype, error) {
	if subs, ok := a.subs[base]; ok {
		return subs, nil
	}
	var out []*jtype
	seen := map[*jtype]bool{base: true}
	frontier := []*jtype{base}
	for round := 0; len(frontier) > 0 && round < 8 && len(out) < 2000; round++ {
		var words []string
		for _, t := range frontier {
			words = append(words, t.name)
		}
		files, err := a.search(ctx, words...)
		if err != nil {
			return nil, err
		}
		var next []*jtype
		for _, f := range files {
			for _, t := range append(append([]*jtype(nil), f.types...), anonymousTypes(f)...) {
				if seen[t] {
					continue
				}
				for _, s := range a.ix.supertypes(t) {
					if containsType(frontier, s) {
						seen[t] = true
						out = append(out, t)
						next = append(next, t)
						break
					}
				}
			}
		}
		frontier = next
	}
	a.subs[base] = out
	return out, nil
}

func containsType(ts []*jtype, t *jtype) bool {
	for _, x := range ts {
		if x == t {
			return true
		}
	}
	return false
}

// anonymousTypes reads the anonymous classes of a file (new T() {...})
// as types whose supertype is T, with their methods.
func anonymousTypes(f *jfile) []*jtype {
	var out []*jtype
	treesit.Walk(f.t.Root, func(n *treesit.Node) bool {
		if n.Bad {
			return false
		}
		if n.Kind != "object_creation_expression" {
			return true
		}
		body := n.FirstOf("class_body")
		if body == nil {
			return true
		}
		out = append(out, anonymousType(f, n))
		return true
	})
	return out
}

// anonymousType reads one anonymous class (new T() {...}) as a type
// whose supertype is T, with its methods.
func anonymousType(f *jfile, n *treesit.Node) *jtype {
	scope, _ := enclosingType(f, n)
	t := &jtype{file: f, name: "", qual: "anonymous " + typeText(n.Child("type")), kind: "class", node: n, outer: scope, super: n.Child("type")}
	for _, m := range n.FirstOf("class_body").NamedKids() {
		if m.Kind == "method_declaration" && !inErr(m) {
			t.methods = append(t.methods, f.method(t, m))
		}
	}
	return t
}

// overriders judges the methods that override or implement a method
// whose signature changed or that was deleted.
func (a hierJudge) overriders(ctx context.Context, t *target) ([]*lang.Ref, error) {
	om := t.od.meth
	base := t.cls
	if base == nil || om.has("static") || om.has("private") || om.has("final") {
		return nil, nil
	}
	var nm *jmethod
	if t.nd != nil && t.ch.Label == model.MMS {
		nm = t.nd.meth
	}
	subs, err := a.subtypes(ctx, base)
	if err != nil {
		return nil, err
	}
	display := om.owner.qual + "." + om.name
	var out []*lang.Ref
	for _, s := range subs {
		for _, m := range s.methods {
			if !overrideMatch(m, om) {
				continue
			}
			if r := a.overrideVerdict(t, s, m, nm, display); r != nil {
				out = append(out, r)
			}
		}
	}
	return out, nil
}

// overrideVerdict judges one override m, in type s, of the old method.
func (a hierJudge) overrideVerdict(t *target, s *jtype, m, nm *jmethod, display string) *lang.Ref {
	at := m.node.Child("name")
	f := s.file
	if nm != nil && nm.has("static") && !t.od.meth.has("static") && sameTypes(m.params, nm.params) {
		return a.ref(t, f, at, model.OverriddenBy, model.Inconsistent, model.PrecisionSyntax, "overrides "+display+", which became static: an instance method cannot override it", "")
	}
	if nm != nil && overrideMatch(m, nm) {
		om := t.od.meth
		switch {
		case nm.has("final") && !om.has("final"):
			return a.ref(t, f, at, model.OverriddenBy, model.Inconsistent, model.PrecisionSyntax, "overrides "+display+", which became final", "")
		case accessRank(m.mods) < accessRank(nm.mods) && accessRank(m.mods) >= accessRank(om.mods):
			return a.ref(t, f, at, model.OverriddenBy, model.Inconsistent, model.PrecisionSyntax, "overrides "+display+", which became "+visibility(nm.mods)+": an override may not have weaker access ("+visibility(m.mods)+")", "")
		case om.ret == nm.ret && strings.Join(om.throws, ",") == strings.Join(nm.throws, ",") && om.has("static") == nm.has("static"):
			return a.ref(t, f, at, model.OverriddenBy, model.Consistent, model.PrecisionSyntax, "overrides "+display+", which it still overrides", "")
		}
		return a.ref(t, f, at, model.OverriddenBy, model.MayBeImpacted, model.PrecisionSyntax, "overrides "+display+", whose signature changed: "+t.details(), "")
	}
	for _, x := range a.ix.ancestors(s)[1:] {
		for _, bm := range x.methods {
			if overrideMatch(m, bm) && !sameMethod(bm, nm) {
				return a.ref(t, f, at, model.OverriddenBy, model.MayBeImpacted, model.PrecisionSyntax, "overrides "+display+", which changed; it still overrides "+methodDisplay(bm), "")
			}
		}
	}
	what := "whose signature changed (" + t.details() + ")"
	if nm == nil {
		what = t.gone()
	}
	if nm != nil && nm.abstract() && !s.abstract() && !a.b.implemented(s, nm) {
		return a.ref(t, f, at, model.OverriddenBy, model.Inconsistent, model.PrecisionSyntax,
			"implements "+display+" with its old parameters, "+what+": "+s.display()+" no longer implements it", "")
	}
	if hasMod(m.annots, "@Override") {
		return a.ref(t, f, at, model.OverriddenBy, model.Inconsistent, model.PrecisionSyntax, "overrides "+display+" (@Override), "+what+": it now overrides nothing", "")
	}
	return a.ref(t, f, at, model.OverriddenBy, model.MayBeImpacted, model.PrecisionSyntax, "overrides "+display+", "+what+": it may now override nothing", "")
}

// display names a type in a message.
func (t *jtype) display() string {
	if t.name == "" {
		return "the " + t.qual
	}
	return t.qual
}

// implemented reports whether a concrete method matching m is declared
// by t or inherited from one of its repository supertypes (a default
// method counts).
func (ix binder) implemented(t *jtype, m *jmethod) bool {
	for _, x := range ix.ancestors(t) {
		for _, y := range x.methods {
			if y != m && !y.abstract() && (overrideMatch(y, m) || sameTypes(y.params, m.params) && y.name == m.name) {
				return true
			}
		}
	}
	return false
}

// overridden judges the methods a changed method overrides or
// implements: they keep the old signature.
func (a hierJudge) overridden(t *target) []*lang.Ref {
	om := t.od.meth
	if t.cls == nil || om.has("static") || om.has("private") {
		return nil
	}
	var out []*lang.Ref
	for _, x := range a.ix.ancestors(t.cls)[1:] {
		for _, bm := range x.methods {
			if overrideMatch(om, bm) && !bm.has("private") {
				out = append(out, a.ref(t, x.file, bm.node.Child("name"), model.Overrides, model.MayBeImpacted, model.PrecisionSyntax,
					"is overridden by "+om.owner.qual+"."+om.name+", whose signature changed ("+t.details()+"): it may no longer override it, or this method may have to follow", ""))
			}
		}
	}
	return out
}

// implementers judges the concrete subtypes of an interface or abstract
// class that gained an abstract method: each must declare it or inherit
// it from a repository supertype.
func (a hierJudge) implementers(ctx context.Context, t *target) ([]*lang.Ref, error) {
	nm := t.nd.meth
	base := t.cls
	if base == nil {
		return nil, nil
	}
	subs, err := a.subtypes(ctx, base)
	if err != nil {
		return nil, err
	}
	display := base.qual + "." + methodDisplayShort(nm)
	var out []*lang.Ref
	for _, s := range subs {
		if s.abstract() || s.kind == "enum" && enumConstantsHaveBodies(s) {
			continue
		}
		at := s.node.Child("name")
		if at == nil {
			at = s.node.Child("type") // an anonymous class
		}
		if a.b.implemented(s, nm) {
			out = append(out, a.ref(t, s.file, at, model.EmbeddedBy, model.Consistent, model.PrecisionSyntax, s.display()+" declares or inherits "+nm.name, ""))
			continue
		}
		if a.ix.openAncestry(s) {
			out = append(out, a.ref(t, s.file, at, model.EmbeddedBy, model.MayBeImpacted, model.PrecisionSyntax,
				s.display()+" implements "+base.qual+" and may lack "+display, "what its supertypes outside the repository declare"))
			continue
		}
		out = append(out, a.ref(t, s.file, at, model.EmbeddedBy, model.Inconsistent, model.PrecisionSyntax,
			s.display()+" implements "+base.qual+" but lacks "+display, ""))
	}
	return out, nil
}

// methodDisplayShort is name(types).
func methodDisplayShort(m *jmethod) string {
	return m.name + "(" + joinTypes(m.params) + ")"
}

// enumConstantsHaveBodies reports an enum whose constants declare class
// bodies (each may implement the method itself).
func enumConstantsHaveBodies(t *jtype) bool {
	for _, fd := range t.fields {
		if fd.enum && fd.node.Child("body") != nil {
			return true
		}
	}
	return false
}

// accessRank orders access: private < package-private < protected < public.
func accessRank(mods []string) int {
	switch visibility(mods) {
	case "private":
		return 0
	case "package-private":
		return 1
	case "protected":
		return 2
	}
	return 3
}
