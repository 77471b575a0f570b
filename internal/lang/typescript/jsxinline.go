package typescript

import (
	"fmt"
	"sort"
	"strings"

	"github.com/ripple-dev/ripple/internal/lang/treesit"
	"github.com/ripple-dev/ripple/internal/model"
)

// Inline props. Most components declare their props where they take
// them, not as an interface of their own:
//
//	export function Provider({ children, info }: PropsWithChildren<{ info: Info }>) { ... }
//	export const ErrorView: React.FC<{ error: string; testId?: string }> = ({ error, testId }) => ...
//
// A change of such a type is a change of the component's signature
// (MMS: the first parameter's type, or the annotation of the const
// holding it). Its elements are calls of the component (CalledBy), and
// are judged member by member against the old and the new inline type,
// as jsx.go judges them against a changed interface.

// inlineMember is a member of a component's inline props type.
type inlineMember struct {
	optional bool
	typ      string
}

// inlineProps reads the members of a component's props type written
// inline (an object type, through PropsWithChildren or Readonly), from
// its first parameter's annotation or, for an arrow held by a const,
// the const's component annotation (React.FC<{...}>). ok is false when
// the props type is not written inline or admits any attribute (an
// index signature).
func inlineProps(d *declData) (map[string]inlineMember, bool) {
	if d == nil || d.fn == nil || d.fn.node == nil {
		return nil, false
	}
	var typ *treesit.Node
	if p := firstParam(d.fn.node); p != nil {
		typ = p.Child("type")
	}
	if typ == nil {
		if vd := d.node.Parent; vd != nil && vd.Kind == "variable_declarator" {
			typ = componentTypeArg(vd.Child("type"))
		}
	}
	obj := objectTypeOf(typ, 0)
	if obj == nil {
		return nil, false
	}
	out := map[string]inlineMember{}
	for _, m := range obj.NamedKids() {
		switch m.Kind {
		case "property_signature":
			t := ""
			if a := m.Child("type"); a != nil {
				t = strings.TrimSpace(strings.TrimPrefix(treesit.Compact(a), ":"))
			}
			out[strings.Trim(declName(m), `'"`)] = inlineMember{optional: m.HasToken("?"), typ: t}
		case "method_signature":
			out[strings.Trim(declName(m), `'"`)] = inlineMember{optional: m.HasToken("?"), typ: "method " + sigOf(m).text()}
		default:
			return nil, false // an index, call or construct signature
		}
	}
	return out, true
}

// componentTypeArg is the props argument of a component annotation
// (`: React.FC<{...}>`), nil when the annotation is not one.
func componentTypeArg(ann *treesit.Node) *treesit.Node {
	var g *treesit.Node
	for _, k := range ann.NamedKids() {
		if k.Kind == "generic_type" {
			g = k
		}
	}
	if g == nil {
		return nil
	}
	i, ok := componentTypes[lastSegment(g.Child("name").Text())]
	if !ok {
		return nil
	}
	if args := g.Child("type_arguments").NamedKids(); i < len(args) {
		return args[i]
	}
	return nil
}

// objectTypeOf is the object type a props type node denotes, through a
// type annotation and the wrappers that keep every member; nil for
// anything else (a named type, an intersection).
func objectTypeOf(n *treesit.Node, depth int) *treesit.Node {
	if n == nil || depth > 4 {
		return nil
	}
	switch n.Kind {
	case "type_annotation":
		if ks := n.NamedKids(); len(ks) == 1 {
			return objectTypeOf(ks[0], depth+1)
		}
	case "object_type":
		return n
	case "generic_type":
		if !propsWrappers[lastSegment(n.Child("name").Text())] {
			return nil
		}
		if args := n.Child("type_arguments").NamedKids(); len(args) == 1 {
			return objectTypeOf(args[0], depth+1)
		}
	}
	return nil
}

// inlineElement judges an element of a component whose inline props
// type changed (the target's old and new declarations).
func (j jsxRules) inlineElement(el *treesit.Node) {
	om, ok := inlineProps(j.t.od)
	if !ok {
		return
	}
	nm, ok := inlineProps(j.t.nd)
	if !ok {
		return
	}
	tag := el.Child("name").Text()
	attrs := map[string]bool{}
	spread := false
	for _, a := range el.Kids {
		switch {
		case a.Field != "attribute":
		case a.Kind == "jsx_attribute":
			if ks := a.NamedKids(); len(ks) > 0 {
				attrs[ks[0].Text()] = true
			}
		case a.Kind == "jsx_expression" && a.FirstOf("spread_element") != nil:
			spread = true
		}
	}
	if hasChildren(el) {
		attrs["children"] = true
	}
	var missing, excess, retyped, optional []string
	for name, m := range nm {
		o, had := om[name]
		switch {
		case !m.optional && (!had || o.optional) && !attrs[name]:
			missing = append(missing, name)
		case m.optional && !had && !attrs[name]:
			optional = append(optional, name)
		case had && o.typ != m.typ && attrs[name] && name != "children":
			retyped = append(retyped, fmt.Sprintf("%s (%s → %s)", name, orNone(o.typ), orNone(m.typ)))
		}
	}
	for name := range om {
		if _, kept := nm[name]; !kept && attrs[name] && name != "children" {
			excess = append(excess, name)
		}
	}
	sort.Strings(missing)
	sort.Strings(excess)
	sort.Strings(retyped)
	sort.Strings(optional)
	rel := model.CalledBy
	switch {
	case len(missing) > 0 && spread:
		j.emit(el, rel, model.MayBeImpacted, model.PrecisionSyntax,
			fmt.Sprintf("renders <%s> without %s (unless a spread attribute provides it), which its props now require", tag, strings.Join(missing, ", ")))
	case len(missing) > 0:
		j.emit(el, rel, model.Inconsistent, model.PrecisionSyntax,
			fmt.Sprintf("renders <%s> without %s, which its props now require", tag, strings.Join(missing, ", ")))
	}
	if len(excess) > 0 {
		j.emit(el, rel, model.Inconsistent, model.PrecisionSyntax,
			fmt.Sprintf("passes %s to <%s>, whose props no longer declare it (JSX attributes are checked against the props type)", strings.Join(excess, ", "), tag))
	}
	if len(retyped) > 0 {
		j.emit(el, rel, model.MayBeImpacted, model.PrecisionSyntax,
			fmt.Sprintf("passes %s to <%s>, whose props changed their type", strings.Join(retyped, ", "), tag))
	}
	if len(optional) > 0 {
		// the frontier, as a call that does not pass a new optional
		// parameter: it binds, but may have to pass it
		j.emit(el, rel, model.MayFollow, model.PrecisionSyntax,
			fmt.Sprintf("renders <%s> without %s, which its props gained as optional", tag, strings.Join(optional, ", ")))
	}
}
