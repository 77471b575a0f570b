package typescript

import (
	"fmt"
	"strings"

	"github.com/ripple-dev/ripple/internal/lang/treesit"
)

// Object-literal members. The methods of an object a module declares
// (`export const visitor = { Identifier(node) {...} }`, a plugin's
// hooks under `export default { setup() {...} }`, `module.exports = {
// run: function () {...} }`) are blocks of their own for the fix
// engine, named by the declaration that holds the object:
// "method visitor.Identifier", "method default.setup". A site inside
// one is reported with that block (enclosing), and a reply for it is
// judged as that member (CheckBlock). An object that no top-level
// declaration holds (one a function returns) is part of its function.

// objectOwner is the name of the top-level declaration whose value is
// the object literal holding member m (a method_definition, or a pair
// whose value is a function): the variable's name, or "default" for a
// default export or module.exports; ok is false for any other object.
func objectOwner(m *treesit.Node) (string, bool) {
	if m == nil || m.Kind != "method_definition" && !(m.Kind == "pair" && functionLike(treesit.Unparen(m.Child("value")).KindOr())) {
		return "", false
	}
	obj := m.Parent
	if obj == nil || obj.Kind != "object" {
		return "", false
	}
	p := obj.Parent
	for p != nil && (p.Kind == "as_expression" || p.Kind == "satisfies_expression" || p.Kind == "parenthesized_expression") {
		p = p.Parent
	}
	if p == nil {
		return "", false
	}
	switch p.Kind {
	case "variable_declarator":
		st := p.Parent // lexical_declaration, variable_declaration
		if st == nil || p.Child("name").KindOr() != "identifier" {
			return "", false
		}
		if top := st.Parent; top != nil && (top.Kind == "program" || top.Kind == "export_statement" && top.Parent != nil && top.Parent.Kind == "program") {
			return p.Child("name").Text(), true
		}
	case "export_statement":
		if p.Parent != nil && p.Parent.Kind == "program" {
			return "default", true
		}
	case "assignment_expression":
		st := p.Parent
		if l := p.Child("left"); l != nil && l.Text() == "module.exports" && st != nil && st.Kind == "expression_statement" && st.Parent != nil && st.Parent.Kind == "program" {
			return "default", true
		}
	}
	return "", false
}

// memberName is an object member's name: a method's, or a pair's key.
func memberName(m *treesit.Node) string {
	if m.Kind == "pair" {
		return strings.Trim(m.Child("key").Text(), `"'`)
	}
	return declName(m)
}

// objectMemberBlock is the block name of an object-literal member, ""
// when no top-level declaration holds its object.
func objectMemberBlock(m *treesit.Node) string {
	owner, ok := objectOwner(m)
	if !ok {
		return ""
	}
	return "method " + owner + "." + memberName(m)
}

// objectMembers are the members of the top-level objects of a file
// that have a block name (objectMemberBlock), in order.
func objectMembers(root *treesit.Node) []*treesit.Node {
	var out []*treesit.Node
	treesit.Walk(root, func(n *treesit.Node) bool {
		switch n.Kind {
		case "function_declaration", "generator_function_declaration", "class_declaration", "abstract_class_declaration", "class", "arrow_function", "function_expression", "function":
			return false // a function's objects are its own
		case "method_definition", "pair":
			if objectMemberBlock(n) != "" {
				out = append(out, n)
				return false
			}
		}
		return true
	})
	return out
}

// checkObjectMember judges a block replacement of an object-literal
// member: lines [from, to] hold that member whole and no other member
// of a top-level object.
func checkObjectMember(root *treesit.Node, block string, from, to int) (bool, error) {
	var hit *treesit.Node
	known := false
	for _, m := range objectMembers(root) {
		s, e := int(m.Line), int(m.EndLine)
		name := objectMemberBlock(m)
		known = known || name == block
		if e < from || s > to {
			continue
		}
		if s < from || e > to {
			return true, fmt.Errorf("a member (lines %d-%d) crosses the edges of the edited lines %d-%d", s, e, from, to)
		}
		if name != block || hit != nil {
			return true, fmt.Errorf("the new block (lines %d-%d) holds %s at line %d, want exactly %s", from, to, name, s, block)
		}
		hit = m
	}
	if hit == nil {
		if !known {
			return false, nil // not an object member's block
		}
		return true, fmt.Errorf("the new block (lines %d-%d) holds no %s", from, to, block)
	}
	return true, nil
}
