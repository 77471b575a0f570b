package typescript

import (
	"fmt"
	"strings"

	"github.com/ripple-dev/ripple/internal/lang/treesit"
	"github.com/ripple-dev/ripple/internal/model"
)

// JSX props. An element `<Button label="x" {...rest} />` passes its
// attributes as one object of the component's props type, and TypeScript
// checks it as it checks an object literal written for that type: a
// required member missing is an error, an attribute the type does not
// declare is an error (the excess-property check), an attribute whose
// member changed type may no longer fit.
//
// A component is a top-level declaration whose props the container of a
// changed interface member types:
//
//	function Button(props: Props)             function Button({ a, b }: Props)
//	const Button = (props: Props) => ...      const Button: React.FC<Props> = (...) => ...
//	const Button = forwardRef<Ref, Props>(...) const Button = memo((p: Props) => ...)
//	class Button extends React.Component<Props, State>
//
// (and the same with Readonly<Props>, PropsWithChildren<Props> or an
// intersection with an inline object type). The file that declares one
// is found while the member's users are judged (ifaceMember); the
// component then becomes a target of its own (target.comp), searched for
// by its name, so that elements in files that never name the props type
// are judged, whatever the imports between them (barrels, workspaces).
// Inside the component, a removed or retyped member read from its props
// (destructured in the parameter, props.x, this.props.x) is judged too.

// component is a React component of a file whose props are typed by the
// target's container.
type component struct {
	name  string        // the top-level name elements import; "default" for an anonymous default export
	fn    *treesit.Node // the function receiving the props, or the class
	param *treesit.Node // the props parameter (nil for a class)
	// exact is false when the props type is an intersection with a type
	// the analysis does not read: an attribute the container lost may be
	// declared there
	exact bool
}

// wrapperProps are the calls that wrap a component (React's forwardRef
// and memo, MobX's observer) and the index of the props among their
// type arguments.
var wrapperProps = map[string]int{"forwardRef": 1, "memo": 0, "observer": 0}

// componentTypes are the annotations that type a component value, and
// the index of the props among their type arguments.
var componentTypes = map[string]int{
	"FC": 0, "FunctionComponent": 0, "VFC": 0, "VoidFunctionComponent": 0, "SFC": 0, "StatelessComponent": 0,
	"ComponentType": 0, "ComponentClass": 0, "NextPage": 0, "ForwardRefRenderFunction": 1, "ForwardRefExoticComponent": 0,
}

// propsWrappers are the generic types that keep every member of their
// argument (React's props helpers, Readonly).
var propsWrappers = map[string]bool{"PropsWithChildren": true, "PropsWithoutRef": true, "PropsWithRef": true, "Readonly": true}

// jsxRules are the judge's rules for React components: which of the
// file's components take the target's container as props (components),
// and the JSX elements and inline calls that render them (jsxElements,
// element, inlineElement). They judge through the judge they extend,
// whose target, file and findings they share.
type jsxRules struct{ *judge }

// components finds the file's top-level components typed by one of the
// local names of the target's container.
func (j jsxRules) components(locals map[string]bool) []component {
	var out []component
	for _, st := range j.f.t.Root.Kids {
		if st.Bad {
			continue
		}
		x, def := st, false
		if x.Kind == "export_statement" {
			def = x.HasToken("default")
			if d := x.Child("declaration"); d != nil {
				x = d
			} else if v := x.Child("value"); v != nil {
				x = v
			} else {
				for _, k := range x.NamedKids() {
					if k.Kind != "comment" && k.Kind != "decorator" {
						x = k
					}
				}
			}
		}
		switch x.Kind {
		case "lexical_declaration", "variable_declaration":
			for _, vd := range x.NamedKids() {
				if vd.Kind != "variable_declarator" || vd.Child("name").KindOr() != "identifier" {
					continue
				}
				if c, ok := j.componentValue(treesit.Unparen(vd.Child("value")), vd.Child("type"), locals); ok {
					c.name = vd.Child("name").Text()
					out = append(out, c)
				}
			}
		case "class_declaration", "abstract_class_declaration", "class":
			if c, ok := j.classComponent(x, locals); ok {
				c.name = className(x)
				if c.name == "" || def && x.Kind == "class" {
					c.name = "default"
				}
				out = append(out, c)
			}
		default:
			if c, ok := j.componentValue(x, nil, locals); ok {
				c.name = x.Child("name").Text()
				if def || c.name == "" {
					c.name = "default"
					if nm := x.Child("name"); nm != nil && j.f.exports["default"] == nm.Text() {
						c.name = nm.Text()
					}
				}
				if c.name != "" {
					out = append(out, c)
				}
			}
		}
	}
	var kept []component
	for _, c := range out {
		// an element names a component with a capital (a lower-case tag
		// is an intrinsic element); a default export is named by its
		// importers
		if c.name == "default" || c.name[0] >= 'A' && c.name[0] <= 'Z' {
			kept = append(kept, c)
		}
	}
	return kept
}

// componentValue reads a component from a value (a function, a wrapper
// call) and the annotation of the variable holding it.
func (j jsxRules) componentValue(v, ann *treesit.Node, locals map[string]bool) (component, bool) {
	if ann != nil {
		typ := strings.TrimSpace(strings.TrimPrefix(treesit.Compact(ann), ":"))
		if head, args := splitGeneric(typ); head != "" {
			if i, ok := componentTypes[lastSegment(head)]; ok && j.f.reactName(head) && i < len(args) {
				found, exact := j.propsType(args[i], locals)
				if !found {
					return component{}, false
				}
				c := component{fn: v, exact: exact}
				if v != nil && functionLike(v.Kind) {
					c.param = firstParam(v)
				}
				return c, true
			}
		}
	}
	for depth := 0; v != nil && depth < 4; depth++ {
		switch {
		case functionLike(v.Kind):
			p := firstParam(v)
			if p == nil || p.Child("type") == nil {
				return component{}, false
			}
			found, exact := j.propsType(strings.TrimSpace(strings.TrimPrefix(treesit.Compact(p.Child("type")), ":")), locals)
			return component{fn: v, param: p, exact: exact}, found
		case v.Kind == "call_expression":
			callee := v.Child("function")
			idx, ok := wrapperProps[lastSegment(callee.Text())]
			if !ok || !j.f.reactName(callee.Text()) {
				return component{}, false
			}
			if ta := v.Child("type_arguments"); ta != nil {
				if args := ta.NamedKids(); idx < len(args) {
					found, exact := j.propsType(treesit.Compact(args[idx]), locals)
					c := component{fn: v, exact: exact}
					if as := v.Child("arguments").NamedKids(); len(as) > 0 && functionLike(as[0].Kind) {
						c.fn, c.param = as[0], firstParam(as[0])
					}
					return c, found
				}
			}
			as := v.Child("arguments").NamedKids()
			if len(as) == 0 {
				return component{}, false
			}
			v = treesit.Unparen(as[0])
		default:
			return component{}, false
		}
	}
	return component{}, false
}

// classComponent reads `class C extends React.Component<Props, State>`.
func (j jsxRules) classComponent(c *treesit.Node, locals map[string]bool) (component, bool) {
	var ext *treesit.Node
	treesit.Walk(c, func(n *treesit.Node) bool {
		if n.Kind == "class_body" {
			return false
		}
		if n.Kind == "extends_clause" {
			ext = n
		}
		return ext == nil
	})
	if ext == nil {
		return component{}, false
	}
	base := ext.Child("value").Text()
	if s := lastSegment(base); s != "Component" && s != "PureComponent" || !j.f.reactName(base) {
		return component{}, false
	}
	ta := ext.Child("type_arguments")
	if ta == nil {
		return component{}, false
	}
	args := ta.NamedKids()
	if len(args) == 0 {
		return component{}, false
	}
	found, exact := j.propsType(treesit.Compact(args[0]), locals)
	return component{fn: c, exact: exact}, found
}

// reactName reports whether a (possibly qualified) name of React's API
// is one: qualified (React.FC), or imported rather than declared in the
// file.
func (f *tsfile) reactName(name string) bool {
	if strings.Contains(name, ".") {
		return true
	}
	return f.imports[name] != nil && !f.declares(name)
}

// propsType reports whether a type expression is the target's container
// (through the props helpers, Readonly, the standard mapped types and
// intersections with object types that do not redeclare the member);
// exact is false when an intersection has a part the analysis cannot
// read.
func (j jsxRules) propsType(typ string, locals map[string]bool) (found, exact bool) {
	exact = true
	for _, p := range splitTop(typ, '&') {
		p = unwrapProps(strings.TrimSpace(p))
		switch {
		case strings.HasPrefix(p, "{"):
			if typeLiteralDeclares(p, j.t.name) {
				return false, false // the component declares the member itself
			}
		case subtypeRules{j.judge}.aliases(p, locals):
			found = true
		default:
			exact = false
		}
	}
	return found, exact
}

// unwrapProps takes off the generic wrappers that keep every member of
// their argument: PropsWithChildren<P>, React.PropsWithRef<P>,
// Readonly<P>.
func unwrapProps(p string) string {
	for depth := 0; depth < 4; depth++ {
		head, args := splitGeneric(p)
		if head == "" || !propsWrappers[lastSegment(head)] || len(args) != 1 {
			return p
		}
		p = strings.TrimSpace(args[0])
	}
	return p
}

// splitGeneric splits `A.B<X, Y>` into its head and arguments; "" when
// the type is not a generic instantiation.
func splitGeneric(t string) (head string, args []string) {
	i := strings.IndexByte(t, '<')
	if i <= 0 || !strings.HasSuffix(t, ">") {
		return "", nil
	}
	for _, a := range splitTop(t[i+1:len(t)-1], ',') {
		args = append(args, strings.TrimSpace(a))
	}
	return strings.TrimSpace(t[:i]), args
}

// lastSegment is a dotted name's last part.
func lastSegment(s string) string {
	if i := strings.LastIndexByte(s, '.'); i >= 0 {
		return s[i+1:]
	}
	return s
}

// firstParam is a function's first parameter node (required_parameter,
// optional_parameter, or a bare JavaScript pattern), nil when none.
func firstParam(fn *treesit.Node) *treesit.Node {
	if p := fn.Child("parameter"); p != nil {
		return p
	}
	for _, k := range fn.Child("parameters").NamedKids() {
		if k.Kind != "comment" {
			if pat := k.Child("pattern"); pat != nil && pat.Kind == "this" {
				continue
			}
			return k
		}
	}
	return nil
}

// jsxElements judges the elements of a component (target.comp) in the
// file: their attributes against the container's changed member.
func (j jsxRules) jsxElements() {
	t := j.t
	locals, nss := j.bindings(t.comp)
	if len(locals) == 0 && len(nss) == 0 {
		return
	}
	exps := j.exportNames(t.comp)
	treesit.Walk(j.f.t.Root, func(n *treesit.Node) bool {
		if n.Bad {
			return false
		}
		if n.Kind != "jsx_opening_element" && n.Kind != "jsx_self_closing_element" {
			return true
		}
		name := n.Child("name")
		switch {
		case name.KindOr() == "identifier" && locals[name.Text()] && !shadowed(n, name.Text()):
		case name.KindOr() == "member_expression" && name.Child("object").KindOr() == "identifier" &&
			nss[name.Child("object").Text()] && contains(exps, name.Child("property").Text()) && !shadowed(n, name.Child("object").Text()):
		default:
			return true
		}
		j.element(n, name.Text())
		return true
	})
}

// element judges one element's attributes.
func (j jsxRules) element(el *treesit.Node, tag string) {
	t := j.t
	var attr *treesit.Node
	spread := false
	for _, a := range el.Kids {
		if a.Field != "attribute" {
			continue
		}
		switch a.Kind {
		case "jsx_attribute":
			if ks := a.NamedKids(); len(ks) > 0 && ks[0].Text() == t.name {
				attr = ks[0]
			}
		case "jsx_expression":
			if a.FirstOf("spread_element") != nil {
				spread = true
			}
		}
	}
	if attr == nil && t.name == "children" && hasChildren(el) {
		attr = el
	}
	rel := model.InstantiatedBy
	switch {
	case t.kind == tAdded && attr == nil && spread:
		j.emit(el, rel, model.MayBeImpacted, model.PrecisionSyntax,
			fmt.Sprintf("renders <%s> without %s (unless a spread attribute provides it); %s %s", tag, t.name, t.display(), j.addedWhat()))
	case t.kind == tAdded && attr == nil:
		j.emit(el, rel, model.Inconsistent, model.PrecisionSyntax,
			fmt.Sprintf("renders <%s> without %s, which %s now requires", tag, t.name, t.container))
	case t.kind == tGone && attr != nil && attr != el:
		v := model.Inconsistent
		msg := fmt.Sprintf("passes %s to <%s>, which %s (JSX attributes are checked against the props type)", t.name, tag, j.what())
		if !t.compExact {
			v = model.MayBeImpacted
			msg = fmt.Sprintf("passes %s to <%s>; %s %s, unless another part of its props type declares it", t.name, tag, t.display(), j.what())
		}
		j.emit(attr, rel, v, model.PrecisionSyntax, msg)
		if v == model.Inconsistent {
			j.withFix(j.fx.renameAt(attr))
		}
	case t.kind == tRetyped && attr != nil && attr != el:
		j.emit(attr, rel, model.MayBeImpacted, model.PrecisionSyntax,
			fmt.Sprintf("passes %s to <%s>, whose type changed: %s", t.name, tag, strings.Join(t.ch.Details, "; ")))
	}
}

// hasChildren reports an opening element whose element has content
// (the children prop).
func hasChildren(el *treesit.Node) bool {
	if el.Kind != "jsx_opening_element" || el.Parent == nil {
		return false
	}
	for _, k := range el.Parent.NamedKids() {
		switch k.Kind {
		case "jsx_opening_element", "jsx_closing_element", "comment":
		case "jsx_text":
			if strings.TrimSpace(k.Text()) != "" {
				return true
			}
		default:
			return true
		}
	}
	return false
}

// componentProps judges, inside a component, the reads of a removed or
// retyped member from its props: keys of a destructuring parameter,
// props.x, this.props.x, and `const {x} = props`.
func (j jsxRules) componentProps(c component) {
	t := j.t
	if t.kind != tGone && t.kind != tRetyped || c.fn == nil {
		return
	}
	report := func(at *treesit.Node, key *treesit.Node) {
		if t.kind == tRetyped {
			j.emit(at, model.UsedBy, model.MayBeImpacted, model.PrecisionSyntax,
				fmt.Sprintf("reads %s of its props (%s), whose type changed: %s", t.name, t.container, strings.Join(t.ch.Details, "; ")))
			return
		}
		v := model.Inconsistent
		msg := fmt.Sprintf("reads %s of its props (%s), which %s", t.name, t.container, j.what())
		if !c.exact {
			v = model.MayBeImpacted
			msg = fmt.Sprintf("reads %s of its props; %s %s, unless another part of its props type declares it", t.name, t.display(), j.what())
		}
		j.emit(at, model.UsedBy, v, model.PrecisionSyntax, msg)
		if v == model.Inconsistent {
			j.withFix(j.fx.renameKey(key))
		}
	}
	props := "" // the parameter's name, when it is one identifier
	if c.param != nil {
		pat := c.param.Child("pattern")
		if pat == nil {
			pat = c.param
		}
		switch pat.Kind {
		case "object_pattern":
			if k := patternKey(pat, t.name); k != nil {
				report(k, k)
			}
		case "identifier":
			props = pat.Text()
		}
	}
	isClass := c.param == nil && c.fn.Kind != "call_expression" && !functionLike(c.fn.Kind)
	isProps := func(o *treesit.Node) bool {
		o = treesit.Unparen(o)
		switch {
		case props != "" && o.Kind == "identifier" && o.Text() == props:
			return lookup(o, props) == c.param
		case isClass && o.Kind == "member_expression" && o.Child("object").KindOr() == "this" && o.Child("property").Text() == "props":
			return enclosingClass(o) == c.fn
		}
		return false
	}
	if props == "" && !isClass {
		return
	}
	body := c.fn.Child("body")
	treesit.Walk(body, func(n *treesit.Node) bool {
		if n.Bad {
			return false
		}
		switch n.Kind {
		case "member_expression":
			if prop := n.Child("property"); prop.Text() == t.name && isProps(n.Child("object")) && exprType(n.Child("object")) == "" {
				report(n, prop)
			}
		case "variable_declarator":
			if pat := n.Child("name"); pat.KindOr() == "object_pattern" && n.Child("value") != nil && isProps(n.Child("value")) {
				if k := patternKey(pat, t.name); k != nil {
					report(k, k)
				}
			}
		}
		return true
	})
}

// patternKey finds the key of an object pattern that reads member name:
// `{ name }`, `{ name = 1 }`, `{ name: local }`.
func patternKey(pat *treesit.Node, name string) *treesit.Node {
	for _, k := range pat.NamedKids() {
		switch k.Kind {
		case "shorthand_property_identifier_pattern":
			if k.Text() == name {
				return k
			}
		case "object_assignment_pattern":
			if l := k.Child("left"); l.KindOr() == "shorthand_property_identifier_pattern" && l.Text() == name {
				return l
			}
		case "pair_pattern":
			if key := k.Child("key"); key != nil && (key.Text() == name || key.Kind == "string" && stringValue(key) == name) {
				return key
			}
		}
	}
	return nil
}
