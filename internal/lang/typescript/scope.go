package typescript

import (
	"strings"
)

// funcScope reports a node that opens a function scope.
func funcScope(n *node) bool {
	switch n.kind {
	case "method_definition", "arrow_function", "function_expression", "function", "function_declaration",
		"generator_function_declaration", "generator_function":
		return true
	}
	return false
}

// declaredIn reports whether a scope node (a function, a block, the
// program) declares name itself: a parameter, a variable, a function or
// class, a catch or loop variable.
func declaredIn(s *node, name string) (*node, bool) {
	if funcScope(s) {
		if ps := s.child("parameters"); ps != nil {
			for _, p := range ps.namedKids() {
				pat := p.child("pattern")
				if pat == nil {
					pat = p
				}
				if patternBinds(pat, name) {
					return p, true
				}
			}
		}
		if p := s.child("parameter"); p != nil && p.text() == name {
			return p, true
		}
		if s.kind == "function_expression" && s.child("name").text() == name {
			return s, true
		}
		return nil, false
	}
	switch s.kind {
	case "catch_clause":
		if p := s.child("parameter"); p != nil && patternBinds(p, name) {
			return p, true
		}
		return nil, false
	case "for_in_statement", "for_statement":
		if l := s.child("left"); l != nil && patternBinds(l, name) {
			return l, true
		}
		if in := s.child("initializer"); in != nil {
			for _, vd := range in.namedKids() {
				if vd.kind == "variable_declarator" && patternBinds(vd.child("name"), name) {
					return vd, true
				}
			}
		}
		return nil, false
	case "statement_block", "program", "class_body", "switch_body", "switch_case":
	default:
		return nil, false
	}
	for _, st := range s.kids {
		x := st
		if x.kind == "export_statement" {
			if d := x.child("declaration"); d != nil {
				x = d
			}
		}
		switch x.kind {
		case "lexical_declaration", "variable_declaration":
			for _, vd := range x.namedKids() {
				if vd.kind == "variable_declarator" && patternBinds(vd.child("name"), name) {
					return vd, true
				}
			}
		case "function_declaration", "generator_function_declaration", "class_declaration", "abstract_class_declaration", "enum_declaration":
			if s.kind != "class_body" && x.child("name").text() == name {
				return x, true
			}
		}
	}
	return nil, false
}

// shadowed reports whether name at n is bound by a scope inside the
// program (a parameter or a local of that name).
func shadowed(n *node, name string) bool {
	for p := n.parent; p != nil && p.kind != "program"; p = p.parent {
		if _, ok := declaredIn(p, name); ok {
			return true
		}
	}
	return false
}

// lookup finds the declaration of a local name visible at n: a
// parameter or a variable declarator.
func lookup(n *node, name string) *node {
	for p := n.parent; p != nil; p = p.parent {
		if d, ok := declaredIn(p, name); ok {
			return d
		}
	}
	return nil
}

// typeName reads an annotation naming one class or interface (T, T<X>,
// ns.T, T | undefined), "" for anything else.
func typeName(ann string) string {
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
	if i := strings.LastIndexByte(t, '.'); i >= 0 {
		t = t[i+1:]
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
func enclosingClass(n *node) *node {
	for p := n.parent; p != nil; p = p.parent {
		switch p.kind {
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
func className(c *node) string {
	if nm := c.child("name"); nm != nil {
		return nm.text()
	}
	if p := c.parent; p != nil && p.kind == "variable_declarator" {
		return p.child("name").text()
	}
	return ""
}

// classMember finds a member declaration of a class by name (methods,
// properties, accessors, constructor parameter properties).
func classMember(c *node, name string) *node {
	body := c.child("body")
	for _, m := range body.namedKids() {
		if nm := m.child("name"); nm != nil && nm.text() == name {
			return m
		}
		if m.kind == "method_definition" && declName(m) == "constructor" {
			for _, p := range m.child("parameters").namedKids() {
				if p.firstOf("accessibility_modifier") != nil || p.firstOf("readonly") != nil {
					if pat := p.child("pattern"); pat != nil && pat.text() == name {
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
func memberType(m *node) string {
	if m == nil {
		return ""
	}
	if t := m.child("type"); t != nil {
		return typeName(t.text())
	}
	if v := unparen(m.child("value")); v != nil && v.kind == "new_expression" {
		return typeName(v.child("constructor").text())
	}
	return ""
}

// exprType is the class or interface an expression's value is known to
// be of, from syntax: `this`, `new C()`, a variable or parameter
// annotated or initialized with one, `this.x` of an annotated property,
// `x as C`. "" when unknown.
func exprType(n *node) string {
	n = unparen(n)
	if n == nil {
		return ""
	}
	switch n.kind {
	case "this":
		if c := enclosingClass(n); c != nil {
			return className(c)
		}
	case "new_expression":
		return typeName(n.child("constructor").text())
	case "as_expression", "satisfies_expression":
		ks := n.namedKids()
		if len(ks) == 2 {
			return typeName(ks[1].text())
		}
	case "non_null_expression":
		if ks := n.namedKids(); len(ks) == 1 {
			return exprType(ks[0])
		}
	case "identifier":
		d := lookup(n, n.text())
		if d == nil {
			return ""
		}
		switch d.kind {
		case "required_parameter", "optional_parameter":
			if t := d.child("type"); t != nil && d.child("pattern").kind == "identifier" {
				return typeName(t.text())
			}
		case "variable_declarator":
			if d.child("name").kind != "identifier" {
				return ""
			}
			if t := d.child("type"); t != nil {
				return typeName(t.text())
			}
			if v := unparen(d.child("value")); v != nil && (v.kind == "new_expression" || v.kind == "as_expression") {
				return exprType(v)
			}
		}
	case "member_expression":
		if o := n.child("object"); o != nil && o.kind == "this" {
			if c := enclosingClass(n); c != nil {
				return memberType(classMember(c, n.child("property").text()))
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

func enclosing(n *node) *encl {
	for p := n.parent; p != nil; p = p.parent {
		switch p.kind {
		case "function_declaration", "generator_function_declaration":
			return &encl{"function " + p.child("name").text(), int(p.line), int(p.eline)}
		case "method_definition", "public_field_definition":
			cls := ""
			for c := p.parent; c != nil; c = c.parent {
				if c.kind == "class_declaration" || c.kind == "class" || c.kind == "abstract_class_declaration" {
					cls = className(c)
					break
				}
			}
			name := declName(p)
			if name == "constructor" {
				return &encl{"constructor " + cls, int(p.line), int(p.eline)}
			}
			if p.kind == "public_field_definition" && !functionLike(unparen(p.child("value")).kindOr()) {
				return &encl{"property " + cls + "." + name, int(p.line), int(p.eline)}
			}
			return &encl{"method " + cls + "." + name, int(p.line), int(p.eline)}
		case "variable_declarator":
			if v := unparen(p.child("value")); v != nil && functionLike(v.kind) && p.parent != nil && p.parent.parent != nil && (p.parent.parent.kind == "program" || p.parent.parent.kind == "export_statement") {
				return &encl{"function " + p.child("name").text(), int(p.line), int(p.eline)}
			}
		case "class_declaration", "abstract_class_declaration":
			return &encl{"class " + className(p), int(p.line), int(p.eline)}
		}
	}
	return nil
}

// kindOr is a node's kind, "" for nil.
func (n *node) kindOr() string {
	if n == nil {
		return ""
	}
	return n.kind
}
