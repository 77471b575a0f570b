package typescript

import (
	"fmt"
	"strings"

	"github.com/ripple-dev/ripple/internal/lang"
	"github.com/ripple-dev/ripple/internal/lang/treesit"
	"github.com/ripple-dev/ripple/internal/model"
)

// Sub-interfaces and aliases. A member of an interface is a member of
// every interface that extends it and of every type alias that is the
// interface under another name, unless they declare it themselves:
//
//	interface Options extends KyOptions { ... }        // Options.prefixUrl is KyOptions.prefixUrl
//	type AnyBuilder = ProcedureBuilder<any, any>       // a generic instantiation
//	type Internal = Required<Omit<Options, 'hooks'>> & { headers: H }
//
// Values annotated with such a name, literals written for it and classes
// implementing it depend on the member as the interface's own do: each
// is judged as a target of its own (the container renamed, in the file
// that declares it), found as the file is judged, so that chains of them
// across files are followed. A sub-interface that redeclares a member
// whose type changed, with the old type, is reported (it may have to
// follow, as an override keeping an old signature).

// subtype is an interface or alias of a file that is the target's
// container under another name.
type subtype struct {
	name string
	node *treesit.Node
}

// mappedKeep are the standard mapped types that keep every member and
// its requiredness (Required makes optional ones required).
var mappedKeep = map[string]bool{"Readonly": true, "Required": true, "NonNullable": true}

// subtypeRules find the file's interfaces and type aliases that are the
// target's container under another name, or extend it (subtypes), and
// judge their redeclarations of the member. They work through the judge
// they extend, whose target, file and findings they share.
type subtypeRules struct{ *judge }

// subtypes finds the top-level interfaces and type aliases of the file
// that extend or alias one of the local names of the target's container
// and do not declare the target's member themselves. A sub-interface
// that redeclares a retyped member with its old type is reported.
func (j subtypeRules) subtypes(locals map[string]bool) []subtype {
	t := j.t
	var out []subtype
	for _, st := range j.f.t.Root.Kids {
		x := st
		if x.Kind == "export_statement" {
			if d := x.Child("declaration"); d != nil {
				x = d
			}
		}
		name := x.Child("name").Text()
		if name == "" || x.Bad || locals[name] {
			continue
		}
		switch x.Kind {
		case "interface_declaration":
			ext := false
			for _, k := range x.NamedKids() {
				if k.Kind != "extends_type_clause" {
					continue
				}
				for _, b := range k.NamedKids() {
					if locals[typeName(b.Text())] && !j.f.userType(typeName(b.Text()), locals) {
						ext = true
					}
				}
			}
			if !ext {
				continue
			}
			if m := bodyMember(x.Child("body"), t.name); m != nil {
				j.redeclared(name, m)
				continue // it declares the member itself
			}
			out = append(out, subtype{name, x})
		case "type_alias_declaration":
			v := x.Child("value")
			if v == nil {
				continue
			}
			if j.aliases(treesit.Compact(v), locals) {
				out = append(out, subtype{name, x})
			}
		}
	}
	return out
}

// redeclared judges a sub-interface's own declaration of the target's
// member. It is not broken, but it may have to follow its base, as an
// override keeping an old signature or overriding a deleted method may:
// one that keeps the old type of a retyped member, or declares a member
// the base lost, is a warning, and the member it declares becomes a
// derived change (tentative: its own users are reached one rung lower,
// literals written for the sub-interface writing it, reads through it).
func (j subtypeRules) redeclared(sub string, m *treesit.Node) {
	t := j.t
	at := m.Child("name")
	if at == nil {
		at = m
	}
	var label model.Label
	switch {
	case t.kind == tRetyped && t.od != nil && memberTypeText(m) == oldMemberText(t):
		j.emit(at, model.EmbeddedBy, model.MayBeImpacted, model.PrecisionSyntax,
			fmt.Sprintf("%s redeclares %s with its old type; the base's changed: %s", sub, t.name, strings.Join(t.ch.Details, "; ")))
		label = model.MF
	case t.kind == tGone && !t.ch.Derived:
		base := t.ch.Old.Container // the changed interface (t.container may be a sub-interface of it)
		what := "was deleted from its base " + base
		if t.ch.Renamed() {
			what = "its base " + base + " renamed to " + t.ch.New.Name
		}
		j.emit(at, model.EmbeddedBy, model.MayBeImpacted, model.PrecisionSyntax,
			fmt.Sprintf("%s redeclares %s, which %s: it may have to follow", sub, t.name, what))
		if !t.ch.Renamed() {
			label = model.DF
		}
	default:
		return
	}
	if label == "" {
		return
	}
	for _, d := range j.f.decls {
		if d.node == m && d.kind == dIMember {
			if decl := declOf(j.f, d); decl != nil {
				j.out[len(j.out)-1].Follow = &lang.Follow{Decl: decl, Label: label,
					Details: []string{fmt.Sprintf("redeclares %s of %s, which %s", t.name, t.ch.Block().Container, j.change())}}
			}
			return
		}
	}
}

// userType reports a name the file declares or imports other than as
// the target's container (a local Required shadows the standard one).
func (f *tsfile) userType(name string, locals map[string]bool) bool {
	return !locals[name] && (f.declares(name) || f.imports[name] != nil)
}

// aliases reports whether a type alias's value is the target's container
// under another name: the interface itself (generic arguments aside), a
// standard mapped type keeping its members (Readonly, Required), an Omit
// that keeps the member, a Pick that picks it, or an intersection with
// one of those whose other parts do not declare the member.
func (j subtypeRules) aliases(v string, locals map[string]bool) bool {
	t := j.t
	parts := splitTop(v, '&')
	found := false
	for _, p := range parts {
		p = strings.TrimSpace(p)
		if strings.HasPrefix(p, "{") {
			if typeLiteralDeclares(p, t.name) {
				return false
			}
			continue
		}
		if j.isContainer(p, locals, 0) {
			found = true
		}
	}
	return found
}

// isContainer reports whether a type expression denotes the container
// with the target's member (through the standard mapped types).
func (j subtypeRules) isContainer(p string, locals map[string]bool, depth int) bool {
	p = strings.TrimSpace(p)
	if depth > 4 || p == "" {
		return false
	}
	i := strings.IndexByte(p, '<')
	if i < 0 || !strings.HasSuffix(p, ">") {
		return locals[p]
	}
	head, args := strings.TrimSpace(p[:i]), splitTop(p[i+1:len(p)-1], ',')
	if locals[head] {
		return true
	}
	if j.f.userType(head, locals) || len(args) == 0 {
		return false
	}
	switch {
	case mappedKeep[head] && len(args) == 1:
		return j.isContainer(args[0], locals, depth+1)
	case head == "Partial" && len(args) == 1:
		// members optional: still read through it, no longer required
		return j.t.kind != tAdded && j.isContainer(args[0], locals, depth+1)
	case head == "Omit" && len(args) == 2:
		return !keyListHas(args[1], j.t.name) && j.isContainer(args[0], locals, depth+1)
	case head == "Pick" && len(args) == 2:
		return keyListHas(args[1], j.t.name) && j.isContainer(args[0], locals, depth+1)
	}
	return false
}

// keyListHas reports whether a union of string literal keys names key.
func keyListHas(keys, key string) bool {
	for _, k := range splitTop(keys, '|') {
		k = strings.Trim(strings.TrimSpace(k), `'"`+"`")
		if k == key {
			return true
		}
	}
	return false
}

// typeLiteralDeclares reports whether an object type literal's text
// declares member name at its top level.
func typeLiteralDeclares(lit, name string) bool {
	lit = strings.TrimSpace(lit)
	if len(lit) < 2 {
		return false
	}
	for _, part := range splitTop(lit[1:len(lit)-1], ';') {
		for _, m := range splitTop(part, ',') {
			m = strings.TrimSpace(m)
			m = strings.TrimPrefix(m, "readonly ")
			k := m
			if i := strings.IndexAny(m, ":?("); i >= 0 {
				k = m[:i]
			}
			if strings.Trim(strings.TrimSpace(k), `'"`) == name {
				return true
			}
		}
	}
	return false
}

// bodyMember finds member name of an interface body.
func bodyMember(body *treesit.Node, name string) *treesit.Node {
	if body == nil {
		return nil
	}
	for _, m := range body.NamedKids() {
		if (m.Kind == "property_signature" || m.Kind == "method_signature") && declName(m) == name {
			return m
		}
	}
	return nil
}

// memberTypeText is what an interface member declares: its annotation,
// or its method signature's text.
func memberTypeText(m *treesit.Node) string {
	switch m.Kind {
	case "property_signature":
		if t := m.Child("type"); t != nil {
			return strings.TrimSpace(strings.TrimPrefix(treesit.Compact(t), ":"))
		}
	case "method_signature":
		return "method " + sigOf(m).text()
	}
	return ""
}

// oldMemberText is memberTypeText of the target's old member.
func oldMemberText(t *target) string {
	if t.od.fn != nil {
		return "method " + t.od.fn.text()
	}
	return t.od.typ
}
