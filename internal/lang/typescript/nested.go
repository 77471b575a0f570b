package typescript

import (
	"strings"

	"github.com/ripple-dev/ripple/internal/lang/treesit"
)

// Nested literals. An object literal that is the value of a property of
// another literal is written for that property's declared type:
//
//	const t: CombinedDataTransformer = { output: { serialize, deserialize } }
//
// builds an OutputDataTransformer (CombinedDataTransformer.output's
// type), which the file need not name or import.

// nestedType is the interface a nested object literal is written for,
// found through the interfaces of the literals around it (declared in
// the repository); ok is false when it is not known.
func (j literalRules) nestedType(o *treesit.Node) (origin, bool) {
	f, iface, ok := j.nestedIface(o, 0)
	if !ok {
		return origin{}, false
	}
	return origin{f.path, iface.Child("name").Text()}, true
}

// nestedIface finds the file and the interface declaration an object
// literal is written for: its own context (literalType) at the top, the
// declared type of the property it is the value of below.
func (j literalRules) nestedIface(o *treesit.Node, depth int) (*tsfile, *treesit.Node, bool) {
	if depth > 4 {
		return nil, nil, false
	}
	p := o.Parent
	for p != nil && p.Kind == "parenthesized_expression" {
		p = p.Parent
	}
	if p == nil || p.Kind != "pair" || treesit.Unparen(p.Child("value")) != o || p.Parent.KindOr() != "object" {
		if depth == 0 {
			return nil, nil, false // not nested: literalType judges it
		}
		name := literalType(o)
		if name == "" {
			return nil, nil, false
		}
		f, n := j.a.ifaceNode(j.f, name)
		return f, n, n != nil
	}
	key := p.Child("key")
	k := key.Text()
	if key.Kind == "string" {
		k = stringValue(key)
	}
	of, outer, ok := j.nestedIface(p.Parent, depth+1)
	if !ok {
		return nil, nil, false
	}
	m := bodyMember(outer.Child("body"), k)
	if m == nil || m.Kind != "property_signature" {
		return nil, nil, false
	}
	typ := typeName(memberTypeText(m))
	if typ == "" || strings.ContainsAny(typ, "<[") {
		return nil, nil, false
	}
	f, n := j.a.ifaceNode(of, typ)
	return f, n, n != nil
}

// holders are the interfaces of the container's file that have a
// property of the container's type (or of one of its alternative names).
func (a *analyzer) holders(t *target) []string {
	f := a.file(t.path)
	if f == nil {
		return nil
	}
	var out []string
	for _, st := range f.t.Root.Kids {
		x := st
		if x.Kind == "export_statement" {
			if d := x.Child("declaration"); d != nil {
				x = d
			}
		}
		if x.Kind != "interface_declaration" {
			continue
		}
		for _, m := range x.Child("body").NamedKids() {
			if m.Kind != "property_signature" {
				continue
			}
			if n := typeName(memberTypeText(m)); n == t.container || n != "" && contains(t.alts, n) {
				out = append(out, x.Child("name").Text())
				break
			}
		}
	}
	return out
}
