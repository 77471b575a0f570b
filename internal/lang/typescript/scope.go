package typescript

import (
	"strings"

	"github.com/ripple-dev/ripple/internal/lang/treesit"
)

// funcScope reports a node that opens a function scope.
func funcScope(n *treesit.Node) bool {
	switch n.Kind {
	case "method_definition", "arrow_function", "function_expression", "function", "function_declaration",
		"generator_function_declaration", "generator_function":
		return true
	}
	return false
}

// declaredIn reports whether a scope node (a function, a block, the
// program) declares name itself: a parameter, a variable, a function or
// class, a catch or loop variable.
func declaredIn(s *treesit.Node, name string) (*treesit.Node, bool) {
	if funcScope(s) {
		if ps := s.Child("parameters"); ps != nil {
			for _, p := range ps.NamedKids() {
				pat := p.Child("pattern")
				if pat == nil {
					pat = p
				}
				if patternBinds(pat, name) {
					return p, true
				}
			}
		}
		if p := s.Child("parameter"); p != nil && p.Text() == name {
			return p, true
		}
		if s.Kind == "function_expression" && s.Child("name").Text() == name {
			return s, true
		}
		return nil, false
	}
	switch s.Kind {
	case "catch_clause":
		if p := s.Child("parameter"); p != nil && patternBinds(p, name) {
			return p, true
		}
		return nil, false
	case "for_in_statement", "for_statement":
		if l := s.Child("left"); l != nil && patternBinds(l, name) {
			return l, true
		}
		if in := s.Child("initializer"); in != nil {
			for _, vd := range in.NamedKids() {
				if vd.Kind == "variable_declarator" && patternBinds(vd.Child("name"), name) {
					return vd, true
				}
			}
		}
		return nil, false
	case "statement_block", "program", "class_body", "switch_body", "switch_case":
	default:
		return nil, false
	}
	for _, st := range s.Kids {
		x := st
		if x.Kind == "export_statement" {
			if d := x.Child("declaration"); d != nil {
				x = d
			}
		}
		switch x.Kind {
		case "lexical_declaration", "variable_declaration":
			for _, vd := range x.NamedKids() {
				if vd.Kind == "variable_declarator" && patternBinds(vd.Child("name"), name) {
					return vd, true
				}
			}
		case "function_declaration", "generator_function_declaration", "class_declaration", "abstract_class_declaration", "enum_declaration":
			if s.Kind != "class_body" && x.Child("name").Text() == name {
				return x, true
			}
		}
	}
	return nil, false
}

// shadowed reports whether name at n is bound by a scope inside the
// program (a parameter or a local of that name).
func shadowed(n *treesit.Node, name string) bool {
	for p := n.Parent; p != nil && p.Kind != "program"; p = p.Parent {
		if _, ok := declaredIn(p, name); ok {
			return true
		}
	}
	return false
}

// typeShadowed reports whether a type name at n is bound by a scope
// inside the program: a type parameter of an enclosing declaration, or a
// type a block or a namespace body declares (an interface moved into
// namespace Hooks is what `extends CallbackOptions` inside Hooks names,
// not the top-level one the change deleted).
func typeShadowed(n *treesit.Node, name string) bool {
	for p := n.Parent; p != nil && p.Kind != "program"; p = p.Parent {
		if tp := p.Child("type_parameters"); tp != nil {
			for _, k := range tp.NamedKids() {
				if k.Kind == "type_parameter" && k.Child("name").Text() == name {
					return true
				}
			}
		}
		if p.Kind != "statement_block" {
			continue
		}
		for _, st := range p.Kids {
			x := st
			if x.Kind == "export_statement" {
				if d := x.Child("declaration"); d != nil {
					x = d
				}
			}
			switch x.Kind {
			case "interface_declaration", "type_alias_declaration", "class_declaration", "abstract_class_declaration", "enum_declaration":
				if x.Child("name").Text() == name {
					return true
				}
			}
		}
	}
	return false
}

// lookup finds the declaration of a local name visible at n: a
// parameter or a variable declarator.
func lookup(n *treesit.Node, name string) *treesit.Node {
	for p := n.Parent; p != nil; p = p.Parent {
		if d, ok := declaredIn(p, name); ok {
			return d
		}
	}
	return nil
}

// typeName reads an annotation naming one class or interface (T, T<X>,
// ns.T, T | undefined), "" for anything else.
func typeName(ann string) string { return unqualified(qualifiedTypeName(ann)) }

// unqualified is a type's name without its qualifier: price.Item ->
// Item.
func unqualified(t string) string {
	if i := strings.LastIndexByte(t, '.'); i >= 0 {
		return t[i+1:]
	}
	return t
}

// qualifiedTypeName is typeName keeping a namespace's qualifier
// (`price.Item`, a namespace import's type), so that the type can be
// told from another of the name.
func qualifiedTypeName(ann string) string {
	ann = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(ann), ":"))
	var keep []string
	for _, alt := range splitTop(ann, '|') {
		alt = strings.TrimSpace(alt)
		if alt == "null" || alt == "undefined" || alt == "" {
			continue
		}
		keep = append(keep, alt)
	}
	if len(keep) != 1 {
		return ""
	}
	t := keep[0]
	if strings.HasPrefix(t, "Readonly<") && strings.HasSuffix(t, ">") {
		t = t[len("Readonly<") : len(t)-1]
	}
	if strings.ContainsAny(t, "[]{}()=&") && !strings.Contains(t, "<") {
		return ""
	}
	if i := strings.IndexByte(t, '<'); i >= 0 {
		t = t[:i]
	}
	if strings.ContainsAny(t, "[]{}()=& ") {
		return ""
	}
	return t
}

// splitTop splits s on sep outside brackets.
func splitTop(s string, sep byte) []string {
	var out []string
	depth, last := 0, 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '<', '(', '[', '{':
			depth++
		case '>', ')', ']', '}':
			depth--
		case sep:
			if depth == 0 {
				out = append(out, s[last:i])
				last = i + 1
			}
		}
	}
	return append(out, s[last:])
}

// enclosingClass is the class whose `this` n sees, nil when a function
// expression rebinds it or there is none.
func enclosingClass(n *treesit.Node) *treesit.Node {
	for p := n.Parent; p != nil; p = p.Parent {
		switch p.Kind {
		case "class_declaration", "abstract_class_declaration", "class":
			return p
		case "function_expression", "function_declaration", "generator_function_declaration", "function", "generator_function":
			return nil
		}
	}
	return nil
}

// className is the name of a class node (a class expression assigned to
// a variable is named by the variable).
func className(c *treesit.Node) string {
	if nm := c.Child("name"); nm != nil {
		return nm.Text()
	}
	if p := c.Parent; p != nil && p.Kind == "variable_declarator" {
		return p.Child("name").Text()
	}
	return ""
}

// classMember finds a member declaration of a class by name (methods,
// properties, accessors, constructor parameter properties).
func classMember(c *treesit.Node, name string) *treesit.Node {
	body := c.Child("body")
	for _, m := range body.NamedKids() {
		if nm := m.Child("name"); nm != nil && nm.Text() == name {
			return m
		}
		if m.Kind == "method_definition" && declName(m) == "constructor" {
			for _, p := range m.Child("parameters").NamedKids() {
				if p.FirstOf("accessibility_modifier") != nil || p.FirstOf("readonly") != nil {
					if pat := p.Child("pattern"); pat != nil && pat.Text() == name {
						return p
					}
				}
			}
		}
	}
	return nil
}

// memberType is the class a member of a class holds, from its annotation
// or a `new C()` initializer.
func memberType(m *treesit.Node) string {
	if m == nil {
		return ""
	}
	if t := m.Child("type"); t != nil {
		return typeName(t.Text())
	}
	if v := treesit.Unparen(m.Child("value")); v != nil && v.Kind == "new_expression" {
		return typeName(v.Child("constructor").Text())
	}
	return ""
}

// exprType is the class or interface an expression's value is known to
// be of, from syntax: `this`, `new C()`, a variable or parameter
// annotated or initialized with one, `this.x` of an annotated property,
// `x as C`. "" when unknown.
func exprType(n *treesit.Node) string {
	n = treesit.Unparen(n)
	if n == nil {
		return ""
	}
	switch n.Kind {
	case "this":
		if c := enclosingClass(n); c != nil {
			return className(c)
		}
	case "new_expression":
		return typeName(n.Child("constructor").Text())
	case "as_expression", "satisfies_expression":
		ks := n.NamedKids()
		if len(ks) == 2 {
			return typeName(ks[1].Text())
		}
	case "non_null_expression":
		if ks := n.NamedKids(); len(ks) == 1 {
			return exprType(ks[0])
		}
	case "identifier":
		d := lookup(n, n.Text())
		if d == nil {
			return ""
		}
		switch d.Kind {
		case "required_parameter", "optional_parameter":
			if t := d.Child("type"); t != nil && d.Child("pattern").Kind == "identifier" {
				return typeName(t.Text())
			}
		case "variable_declarator":
			if d.Child("name").Kind != "identifier" {
				return ""
			}
			if t := d.Child("type"); t != nil {
				return typeName(t.Text())
			}
			if v := treesit.Unparen(d.Child("value")); v != nil && (v.Kind == "new_expression" || v.Kind == "as_expression") {
				return exprType(v)
			}
		}
	case "member_expression":
		if o := n.Child("object"); o != nil && o.Kind == "this" {
			if c := enclosingClass(n); c != nil {
				return memberType(classMember(c, n.Child("property").Text()))
			}
		}
	}
	return ""
}

// encl names the innermost declaration around a site.
type encl struct {
	display    string
	start, end int
}

func enclosing(n *treesit.Node) *encl {
	for p := n.Parent; p != nil; p = p.Parent {
		switch p.Kind {
		case "function_declaration", "generator_function_declaration":
			return &encl{"function " + p.Child("name").Text(), int(p.Line), int(p.EndLine)}
		case "pair":
			if b := objectMemberBlock(p); b != "" {
				return &encl{b, int(p.Line), int(p.EndLine)}
			}
		case "method_definition", "public_field_definition":
			if p.Kind == "method_definition" && p.Parent != nil && p.Parent.Kind == "object" {
				// an object literal's method: a block when a top-level
				// declaration holds the object, else part of what does
				if b := objectMemberBlock(p); b != "" {
					return &encl{b, int(p.Line), int(p.EndLine)}
				}
				continue
			}
			cls := ""
			for c := p.Parent; c != nil; c = c.Parent {
				if c.Kind == "class_declaration" || c.Kind == "class" || c.Kind == "abstract_class_declaration" {
					cls = className(c)
					break
				}
			}
			name := declName(p)
			if name == "constructor" {
				return &encl{"constructor " + cls, int(p.Line), int(p.EndLine)}
			}
			if p.Kind == "public_field_definition" && !functionLike(treesit.Unparen(p.Child("value")).KindOr()) {
				return &encl{"property " + cls + "." + name, int(p.Line), int(p.EndLine)}
			}
			return &encl{"method " + cls + "." + name, int(p.Line), int(p.EndLine)}
		case "variable_declarator":
			if v := treesit.Unparen(p.Child("value")); v != nil && functionLike(v.Kind) && p.Parent != nil && p.Parent.Parent != nil && (p.Parent.Parent.Kind == "program" || p.Parent.Parent.Kind == "export_statement") {
				return &encl{"function " + p.Child("name").Text(), int(p.Line), int(p.EndLine)}
			}
		case "class_declaration", "abstract_class_declaration":
			return &encl{"class " + className(p), int(p.Line), int(p.EndLine)}
		}
	}
	return nil
}
