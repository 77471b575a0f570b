package java

import (
	"strings"

	"github.com/ripple-dev/ripple/internal/lang/treesit"
)

// literalKind is the type a literal argument has, "" for any other
// expression (whose type the syntax does not give).
func literalKind(n *treesit.Node) string {
	switch treesit.Unparen(n).KindOr() {
	case "string_literal", "text_block":
		return "String"
	case "decimal_integer_literal", "hex_integer_literal", "octal_integer_literal", "binary_integer_literal":
		return "int"
	case "decimal_floating_point_literal", "hex_floating_point_literal":
		return "double"
	case "true", "false":
		return "boolean"
	case "character_literal":
		return "char"
	case "null_literal":
		return "null"
	}
	return ""
}

var numeric = map[string]bool{"int": true, "long": true, "short": true, "byte": true, "char": true, "double": true, "float": true,
	"Integer": true, "Long": true, "Short": true, "Byte": true, "Character": true, "Double": true, "Float": true, "Number": true}

var primitive = map[string]bool{"int": true, "long": true, "short": true, "byte": true, "char": true, "double": true, "float": true, "boolean": true}

// literalFits reports whether a literal of kind lit may be passed for a
// parameter of type typ: false only where Java rejects it whatever the
// context (a string for an int, a number for a String, null for a
// primitive).
func literalFits(lit, typ string) bool {
	typ = simpleName(baseName(typ))
	switch lit {
	case "", "null":
		return lit == "" || !primitive[typ]
	case "String":
		return !primitive[typ] && !numeric[typ] && typ != "Boolean"
	case "boolean":
		return !numeric[typ] && typ != "String" && typ != "CharSequence"
	case "int", "char":
		return typ != "boolean" && typ != "Boolean" && typ != "String" && typ != "CharSequence"
	case "double":
		return typ == "double" || typ == "float" || typ == "Double" || typ == "Float" || typ == "Number" || !primitive[typ] && !numeric[typ] && typ != "String" && typ != "Boolean"
	}
	return true
}

// argsFit reports whether a call's arguments may bind to m by arity and,
// where the syntax gives them, by type: a literal's, and an argument
// whose type resolves where the parameter's is a repository type (a type
// outside the repository, or a repository type that does not derive from
// it, cannot be passed for it).
func (ix binder) argsFit(m *jmethod, f *jfile, args []*treesit.Node) bool {
	if !m.accepts(len(args)) {
		return false
	}
	for i, arg := range args {
		var typ string
		switch {
		case i < len(m.params) && !m.params[i].varargs:
			typ = m.params[i].typ
		case len(m.params) > 0:
			typ = baseName(m.params[len(m.params)-1].typ) // varargs element
			if len(args) == len(m.params) {
				continue // an array may be passed
			}
		}
		if typ == "" || isTypeParam(m, typ) {
			continue
		}
		lit := literalKind(arg)
		if !literalFits(lit, typ) {
			return false
		}
		if lit != "" || primitive[typ] || strings.HasSuffix(typ, "]") {
			continue
		}
		p := ix.resolveType(m.owner.file, m.owner, typ)
		if p.state != known {
			continue
		}
		switch r := ix.typeOf(f, arg, 0); r.state {
		case outside:
			return false
		case known:
			if !r.static && !ix.subtypeOf(r.t, p.t) {
				return false
			}
		}
	}
	return true
}

// moreSpecific reports an overload x that Java prefers to y for the
// arguments, as the syntax shows it: at some position x takes a
// repository type that the argument's resolved type derives from and
// that is narrower than y's parameter (a type outside the repository,
// such as Object, or a supertype of it), and at no position is it wider.
func (ix binder) moreSpecific(x, y *jmethod, f *jfile, args []*treesit.Node) bool {
	if len(x.params) != len(args) || len(y.params) != len(args) {
		return false
	}
	strictly := false
	for i, arg := range args {
		xt, yt := x.params[i].typ, y.params[i].typ
		if xt == yt {
			continue
		}
		px := ix.resolveType(x.owner.file, x.owner, xt)
		py := ix.resolveType(y.owner.file, y.owner, yt)
		r := ix.typeOf(f, arg, 0)
		if px.state != known || r.state != known || !ix.subtypeOf(r.t, px.t) || primitive[yt] {
			return false
		}
		if py.state == known && !ix.subtypeOf(px.t, py.t) || py.state == unknown {
			return false
		}
		strictly = true
	}
	return strictly
}
