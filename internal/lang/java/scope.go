package java

import (
	"strings"

	"github.com/ripple-dev/ripple/internal/lang/treesit"
)

// typeOf resolves the type of an expression of file f as the syntax
// declares it: a local variable, parameter or field's declared type, a
// type name (a static receiver), this and super, an instantiation, a
// cast, or a call of a repository method (a builder chain).
func (ix *index) typeOf(f *jfile, n *treesit.Node, depth int) rtype {
	n = treesit.Unparen(n)
	if n == nil || depth > 12 {
		return rtype{why: "the receiver's type is not known"}
	}
	scope, anon := enclosingType(f, n)
	switch n.Kind {
	case "this":
		if anon != nil {
			return rtype{why: "the receiver is an anonymous class"}
		}
		if scope == nil {
			return rtype{why: "this outside a type"}
		}
		return rtype{state: known, t: scope}
	case "super":
		if scope == nil {
			return rtype{why: "super outside a type"}
		}
		return ix.superOf(scope)
	case "identifier":
		return ix.identType(f, n, scope, depth)
	case "field_access":
		return ix.fieldAccessType(f, n, scope, depth)
	case "scoped_identifier", "type_identifier", "scoped_type_identifier":
		return ix.staticType(f, scope, compactName(n))
	case "object_creation_expression":
		if n.FirstOf("class_body") != nil {
			return rtype{why: "the receiver is an anonymous class"}
		}
		return ix.resolveType(f, scope, typeText(n.Child("type")))
	case "cast_expression":
		return ix.resolveType(f, scope, typeText(n.Child("type")))
	case "method_invocation":
		return ix.callType(f, n, depth)
	case "string_literal", "decimal_integer_literal", "true", "false", "character_literal", "array_creation_expression", "class_literal":
		return rtype{state: outside}
	}
	return rtype{why: "the receiver's type is not known (" + n.Kind + ")"}
}

// superOf is the superclass of t as a receiver.
func (ix *index) superOf(t *jtype) rtype {
	if t.super == nil {
		return rtype{state: outside} // java.lang.Object
	}
	if s := ix.resolveNoInherit(t.file, t, typeText(t.super)); s != nil {
		return rtype{state: known, t: s}
	}
	return rtype{state: outside}
}

// staticType resolves a name written as a receiver that is a type.
func (ix *index) staticType(f *jfile, scope *jtype, name string) rtype {
	r := ix.resolveType(f, scope, name)
	r.static = true
	return r
}

// identType is the type of a name: a variable in scope, a field of the
// enclosing types, else a type name.
func (ix *index) identType(f *jfile, n *treesit.Node, scope *jtype, depth int) rtype {
	name := n.Text()
	if typ, init, ok := localDecl(n, name); ok {
		if typ == "var" || typ == "" {
			if init != nil {
				return ix.typeOf(f, init, depth+1)
			}
			return rtype{why: "the type of " + name + " is inferred"}
		}
		return ix.declaredType(f, n, scope, typ)
	}
	for s := scope; s != nil; s = s.outer {
		if fd, owner := ix.fieldOf(s, name); fd != nil {
			return ix.fieldType(owner, fd)
		}
	}
	if r := ix.resolveType(f, scope, name); r.state == known {
		r.static = true
		return r
	}
	if isUpper(name) {
		return rtype{state: outside, static: true} // a type of the JDK or a dependency
	}
	if scope != nil && ix.openAncestry(scope) {
		return rtype{why: "the receiver " + name + " may be a field inherited from outside the repository"}
	}
	return rtype{why: "the receiver " + name + " is not declared in scope"}
}

func isUpper(s string) bool { return s != "" && s[0] >= 'A' && s[0] <= 'Z' }

// fieldAccessType is the type of obj.name: a field of obj's type, or a
// qualified type name (com.x.Calc, Outer.Inner).
func (ix *index) fieldAccessType(f *jfile, n *treesit.Node, scope *jtype, depth int) rtype {
	obj, name := n.Child("object"), n.Child("field").Text()
	if name == "this" { // Outer.this
		r := ix.staticType(f, scope, compactName(obj))
		r.static = false
		return r
	}
	r := ix.typeOf(f, obj, depth+1)
	if r.state == known {
		if fd, owner := ix.fieldOf(r.t, name); fd != nil && !(r.static && !hasMod(fd.mods, "static")) {
			return ix.fieldType(owner, fd)
		}
		if r.static {
			if t := r.t.file.typeByQual(r.t.qual + "." + name); t != nil {
				return rtype{state: known, t: t, static: true}
			}
		}
		return rtype{why: "the type of " + n.Text() + " is not known"}
	}
	if x := ix.staticType(f, scope, compactName(n)); x.state == known {
		return x
	}
	return r
}

// callType is the return type of a call of a repository method, when
// its receiver and its overload are resolved.
func (ix *index) callType(f *jfile, n *treesit.Node, depth int) rtype {
	name := n.Child("name").Text()
	nargs := len(n.Child("arguments").NamedKids())
	var owner *jtype
	if obj := n.Child("object"); obj != nil {
		r := ix.typeOf(f, obj, depth+1)
		switch r.state {
		case outside:
			return rtype{why: "the return type of " + name + ", a method of a type outside the repository, is not known"}
		case unknown:
			return r
		}
		owner = r.t
	} else if owner, _ = enclosingType(f, n); owner == nil {
		return rtype{why: "the call's receiver is not known"}
	}
	var hit *jmethod
	for _, a := range ix.ancestors(owner) {
		for _, m := range a.methods {
			if !m.ctor && m.name == name && m.accepts(nargs) {
				if hit != nil && hit.ret != m.ret {
					return rtype{why: "the overload of " + name + " is ambiguous"}
				}
				hit = m
			}
		}
		if hit != nil {
			break
		}
	}
	if hit == nil {
		return rtype{why: "the return type of " + name + " is not known"}
	}
	if isTypeParam(hit, hit.ret) {
		return rtype{why: "the return type of " + name + " is a type parameter"}
	}
	return ix.resolveType(hit.owner.file, hit.owner, hit.ret)
}

// isTypeParam reports a type written as one of the method's or its
// class's type parameters.
func isTypeParam(m *jmethod, typ string) bool {
	b := baseName(typ)
	for _, tp := range []string{m.tparams, m.owner.tparams} {
		for _, w := range splitWords(tp) {
			if w == b {
				return true
			}
		}
	}
	return false
}

func splitWords(s string) []string {
	var out []string
	start := -1
	for i := 0; i <= len(s); i++ {
		word := i < len(s) && (s[i] == '_' || s[i] == '$' || s[i] >= '0' && s[i] <= '9' || s[i] >= 'a' && s[i] <= 'z' || s[i] >= 'A' && s[i] <= 'Z')
		switch {
		case word && start < 0:
			start = i
		case !word && start >= 0:
			out = append(out, s[start:i])
			start = -1
		}
	}
	return out
}

// fieldOf finds a field of t or of its repository supertypes.
func (ix *index) fieldOf(t *jtype, name string) (*jfield, *jtype) {
	for _, a := range ix.ancestors(t) {
		for _, fd := range a.fields {
			if fd.name == name {
				return fd, a
			}
		}
	}
	return nil, nil
}

// localDecl finds the declaration of a local variable or parameter named
// name visible at n: its type text and initializer.
func localDecl(n *treesit.Node, name string) (typ string, init *treesit.Node, ok bool) {
	child := n
	for p := n.Parent; p != nil; child, p = p, p.Parent {
		for _, k := range p.Kids {
			if k == child && p.Kind != "for_statement" {
				break // only declarations before n
			}
			if typ, init, ok := declares(k, name); ok {
				return typ, init, true
			}
		}
		switch p.Kind {
		case "class_body", "interface_body", "enum_body":
			// an anonymous or local class sees the locals around it
			if q := p.Parent; q == nil || q.Kind != "object_creation_expression" && (q.Parent == nil || !localClass(q)) {
				return "", nil, false
			}
		case "program":
			return "", nil, false
		}
		if p.Kind == "lambda_expression" {
			if ps := p.Child("parameters"); ps != nil && (ps.Kind == "identifier" && ps.Text() == name) {
				return "", nil, true
			}
		}
	}
	return "", nil, false
}

// localClass reports a type declared in a block (a local class).
func localClass(n *treesit.Node) bool {
	_, isType := typeKinds[n.Kind]
	return isType && n.Parent != nil && (n.Parent.Kind == "block" || n.Parent.Kind == "constructor_body" || n.Parent.Kind == "switch_block_statement_group")
}

// declares reports a node that declares a local named name.
func declares(k *treesit.Node, name string) (typ string, init *treesit.Node, ok bool) {
	switch k.Kind {
	case "local_variable_declaration", "resource":
		for _, d := range k.Children("declarator") {
			if d.Child("name").Text() == name {
				return typeText(k.Child("type")), d.Child("value"), true
			}
		}
		if k.Kind == "resource" && k.Child("name").Text() == name {
			return typeText(k.Child("type")), k.Child("value"), true
		}
	case "formal_parameters", "inferred_parameters":
		for _, p := range k.NamedKids() {
			if typ, init, ok := declares(p, name); ok {
				return typ, init, ok
			}
		}
	case "formal_parameter", "catch_formal_parameter":
		if k.Child("name").Text() == name {
			if k.Kind == "catch_formal_parameter" {
				if ct := k.FirstOf("catch_type"); ct != nil && len(ct.NamedKids()) == 1 {
					return typeText(ct.NamedKids()[0]), nil, true
				}
				return "", nil, true
			}
			return typeText(k.Child("type")), nil, true
		}
	case "spread_parameter":
		if d := k.FirstOf("variable_declarator"); d != nil && d.Child("name").Text() == name {
			return "", nil, true // an array of the element type
		}
	case "identifier":
		if k.Parent != nil && k.Parent.Kind == "inferred_parameters" && k.Text() == name {
			return "", nil, true
		}
	}
	if k.Field == "name" && k.Text() == name && k.Parent != nil && k.Parent.Kind == "enhanced_for_statement" {
		return typeText(k.Parent.Child("type")), nil, true
	}
	return "", nil, false
}

// declaredType resolves a variable's declared type written at n: an
// array is no repository type, and a type variable is unknown.
func (ix *index) declaredType(f *jfile, n *treesit.Node, scope *jtype, typ string) rtype {
	if strings.HasSuffix(typ, "]") || strings.HasSuffix(typ, "...") {
		return rtype{state: outside}
	}
	if typeParamInScope(n, baseName(typ)) {
		return rtype{why: "the type of " + n.Text() + " is a type variable"}
	}
	return ix.resolveType(f, scope, typ)
}

// fieldType resolves a field's declared type: an array is no repository
// type, and a type variable of its class is unknown.
func (ix *index) fieldType(owner *jtype, fd *jfield) rtype {
	if strings.HasSuffix(fd.typ, "]") {
		return rtype{state: outside}
	}
	for t := owner; t != nil; t = t.outer {
		for _, w := range splitWords(t.tparams) {
			if w == baseName(fd.typ) {
				return rtype{why: "the type of " + fd.name + " is a type variable"}
			}
		}
	}
	return ix.resolveType(owner.file, owner, fd.typ)
}
