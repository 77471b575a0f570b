package typescript

import (
	"strings"

	"github.com/ripple-dev/ripple/internal/lang"
	"github.com/ripple-dev/ripple/internal/model"
)

// param is one parameter of a function-like declaration.
type param struct {
	name     string // the identifier, or the pattern's text
	optional bool   // `?` or a default value
	def      string // the default value's text
	rest     bool   // `...name`
	typ      string // the annotation's text, "" when none
	prop     string // a parameter property's modifiers ("private readonly")
}

// sig is the callable part of a declaration.
type sig struct {
	params     []param
	typeParams string
	ret        string
	async      bool
	node       *node // the declaration (for the header text)
}

// required is the number of arguments a call must pass.
func (s *sig) required() int {
	n := 0
	for i, p := range s.params {
		if !p.optional && !p.rest {
			n = i + 1
		}
	}
	return n
}

// max is the number of arguments a call may pass, -1 with a rest
// parameter.
func (s *sig) max() int {
	for _, p := range s.params {
		if p.rest {
			return -1
		}
	}
	return len(s.params)
}

// text is the canonical form of what callers rely on: kinds, types and
// order of the parameters, the type parameters, the result.
func (s *sig) text() string {
	var b strings.Builder
	b.WriteString(s.typeParams)
	b.WriteByte('(')
	for i, p := range s.params {
		if i > 0 {
			b.WriteString(", ")
		}
		if p.rest {
			b.WriteString("...")
		}
		if p.typ == "" {
			// callers pass by position: a typed parameter's name is
			// invisible to them, an untyped one's is all there is to
			// tell a reorder
			b.WriteString(p.name)
		}
		if p.optional {
			b.WriteByte('?')
		}
		if p.typ != "" {
			b.WriteString(": " + p.typ)
		}
		if p.prop != "" {
			b.WriteString(" [" + p.prop + "]")
		}
	}
	b.WriteByte(')')
	if s.ret != "" {
		b.WriteString(": " + s.ret)
	}
	if s.async {
		b.WriteString(" async")
	}
	return b.String()
}

// dkind is what a declaration is, in TypeScript terms.
type dkind int

const (
	dFunc       dkind = iota // function, const arrow or function expression
	dClass                   // class
	dMethod                  // class method (or arrow-function property)
	dCtor                    // class constructor
	dField                   // class property
	dInterface               // interface, or an object type alias
	dIMember                 // interface or object type member
	dType                    // other type alias
	dEnum                    // enum
	dEnumMember              // enum member
	dVar                     // other module variable
)

// declData is the TypeScript part of a declaration (lang.Decl.Data).
type declData struct {
	file      *tsfile
	node      *node
	kind      dkind
	fn        *sig   // functions, methods, constructors, interface methods
	overloads []*sig // the other signatures of an overloaded function
	exported  bool   // exported from its module (ES or CommonJS)
	exportAs  string // the export name when it differs ("default")
	optional  bool   // an optional interface member or class property
	static    bool
	private   bool     // #name or the private modifier
	heritage  []string // class: names after extends and implements
	typ       string   // a property's or variable's annotation
}

// params reads a formal_parameters node.
func params(n *node) []param {
	var out []param
	for _, k := range n.namedKids() {
		var p param
		switch k.kind {
		case "required_parameter", "optional_parameter":
			pat := k.child("pattern")
			if pat != nil && pat.kind == "rest_pattern" {
				p.rest = true
				if ks := pat.namedKids(); len(ks) > 0 {
					pat = ks[0]
				}
			}
			if pat != nil && pat.kind == "this" {
				continue // `this: T` is no argument
			}
			p.name = compact(pat)
			p.optional = k.kind == "optional_parameter"
			if v := k.child("value"); v != nil {
				p.optional, p.def = true, compact(v)
			}
			if t := k.child("type"); t != nil {
				p.typ = strings.TrimSpace(strings.TrimPrefix(compact(t), ":"))
			}
			var mods []string
			for _, m := range k.kids {
				if m.kind == "accessibility_modifier" || m.kind == "readonly" || m.kind == "override_modifier" {
					mods = append(mods, m.text())
				}
			}
			p.prop = strings.Join(mods, " ")
		case "comment":
			continue
		default: // a JavaScript parameter the grammar left bare
			p.name = compact(k)
			switch k.kind {
			case "assignment_pattern":
				p.optional = true
				p.name = compact(k.child("left"))
				p.def = compact(k.child("right"))
			case "rest_pattern":
				p.rest = true
				if ks := k.namedKids(); len(ks) > 0 {
					p.name = compact(ks[0])
				}
			}
		}
		out = append(out, p)
	}
	return out
}

// sigOf reads the callable part of a function-like node (function
// declarations and expressions, arrows, methods, signatures).
func sigOf(n *node) *sig {
	s := &sig{node: n}
	if ps := n.child("parameters"); ps != nil {
		s.params = params(ps)
	} else if p := n.child("parameter"); p != nil { // x => ...
		s.params = []param{{name: p.text()}}
	}
	if tp := n.child("type_parameters"); tp != nil {
		s.typeParams = compact(tp)
	}
	if r := n.child("return_type"); r != nil {
		s.ret = strings.TrimSpace(strings.TrimPrefix(compact(r), ":"))
	}
	s.async = n.hasToken("async")
	return s
}

// functionLike reports a node kind that is a function value.
func functionLike(kind string) bool {
	switch kind {
	case "arrow_function", "function_expression", "function", "generator_function",
		"function_declaration", "generator_function_declaration", "function_signature":
		return true
	}
	return false
}

// declBuilder collects the declarations of one file state.
type declBuilder struct {
	f     *tsfile
	out   []*lang.Decl
	byKey map[string]*lang.Decl
}

// decls turns a parsed file into declarations.
func decls(f *tsfile) []*lang.Decl {
	b := &declBuilder{f: f, byKey: map[string]*lang.Decl{}}
	for _, d := range f.decls {
		b.add(d)
	}
	return b.out
}

func (b *declBuilder) add(d *declData) {
	f := b.f
	name, container := d.names()
	key := name
	if container != "" {
		key = container + "." + name
	}
	if prev := b.byKey[key]; prev != nil {
		// an overload, or a declaration merged with another (an
		// interface declared twice): one declaration, all signatures
		pd := prev.Data.(*declData)
		if d.fn != nil && pd.fn != nil {
			if d.node.kind == "function_signature" || d.node.kind == "method_signature" || d.node.kind == "abstract_method_signature" {
				pd.overloads = append(pd.overloads, d.fn)
			} else {
				pd.overloads = append(pd.overloads, pd.fn)
				pd.fn, pd.node = d.fn, d.node
			}
			prev.Sig = sigText(pd)
			prev.Body += " " + f.t.tokens(bodyOf(d.node), nil)
			prev.Span.EndLine = max(prev.Span.EndLine, int(d.node.eline))
			return
		}
		if d.kind == pd.kind {
			prev.Sig += " & " + sigText(d)
			prev.Body += " " + f.t.tokens(bodyOf(d.node), nil)
			return
		}
		key += "#" + kindWord(d.kind) // a class and a namespace of one name
		name += "#" + kindWord(d.kind)
	}
	outer := d.node
	if p := outer.parent; p != nil && (p.kind == "export_statement" || p.kind == "ambient_declaration") {
		outer = p
	}
	for outer.parent != nil && (outer.parent.kind == "lexical_declaration" || outer.parent.kind == "variable_declaration" || outer.parent.kind == "expression_statement" || outer.parent.kind == "export_statement") {
		outer = outer.parent
	}
	nameNode := d.node.child("name")
	if nameNode == nil {
		nameNode = d.node
	}
	ld := &lang.Decl{
		Block: model.Block{
			Lang: "typescript", Kind: modelKind(d.kind), Path: f.path, Package: moduleOf(f.path),
			Container: container, Name: name, Display: display(d, name, container),
			Signature: header(f.t, d.node),
			Span:      model.Span{StartLine: int(outer.line), EndLine: int(outer.eline)},
			NameLine:  int(nameNode.line),
			Data:      d,
		},
		Sig:  sigText(d),
		Body: f.t.tokens(bodyOf(d.node), nil),
	}
	b.byKey[key] = ld
	b.out = append(b.out, ld)
}

// names returns a declaration's name and container.
func (d *declData) names() (name, container string) {
	n := d.node
	name = declName(n)
	switch d.kind {
	case dMethod, dCtor, dField, dIMember, dEnumMember:
		container = declName(d.owner())
	}
	if d.kind == dCtor {
		name = "constructor"
	}
	return name, container
}

// owner is the class, interface, object type or enum of a member.
func (d *declData) owner() *node {
	for p := d.node.parent; p != nil; p = p.parent {
		switch p.kind {
		case "class_declaration", "abstract_class_declaration", "class", "interface_declaration", "type_alias_declaration", "enum_declaration":
			return p
		}
	}
	return nil
}

// declName is the name a declaration node declares. A CommonJS export
// (exports.x = ...) is named by its property; an anonymous default export
// is "default".
func declName(n *node) string {
	if n == nil {
		return ""
	}
	if nm := n.child("name"); nm != nil {
		return nm.text()
	}
	switch n.kind {
	case "enum_body", "property_identifier":
		return n.text()
	}
	if p := n.parent; p != nil {
		switch p.kind {
		case "variable_declarator", "public_field_definition":
			return p.child("name").text()
		case "assignment_expression":
			if l := p.child("left"); l != nil && l.kind == "member_expression" {
				if l.text() == "module.exports" {
					return "default"
				}
				return l.child("property").text()
			}
		case "pair":
			return strings.Trim(p.child("key").text(), `"'`)
		}
	}
	return "default"
}

func modelKind(k dkind) model.Kind {
	switch k {
	case dFunc:
		return model.KindFunc
	case dClass, dType, dEnum:
		return model.KindType
	case dMethod:
		return model.KindMethod
	case dCtor:
		return model.KindConstructor
	case dField, dEnumMember:
		return model.KindField
	case dInterface:
		return model.KindInterface
	case dIMember:
		return model.KindField
	case dVar:
		return model.KindVar
	}
	return model.KindVar
}

func kindWord(k dkind) string {
	switch k {
	case dFunc:
		return "function"
	case dClass:
		return "class"
	case dMethod:
		return "method"
	case dCtor:
		return "constructor"
	case dField:
		return "property"
	case dInterface:
		return "interface"
	case dIMember:
		return "member"
	case dType:
		return "type"
	case dEnum:
		return "enum"
	case dEnumMember:
		return "enum member"
	}
	return "const"
}

func display(d *declData, name, container string) string {
	switch d.kind {
	case dCtor:
		return "constructor " + container
	case dMethod, dField, dIMember, dEnumMember:
		return kindWord(d.kind) + " " + container + "." + name
	case dVar:
		if p := d.node.parent; p != nil && p.child("kind") != nil {
			return p.child("kind").text() + " " + name
		}
	}
	return kindWord(d.kind) + " " + name
}

// sigText is a declaration's Sig: what its dependents rely on.
func sigText(d *declData) string {
	var b strings.Builder
	if d.exported {
		b.WriteString("export ")
		if d.exportAs != "" {
			b.WriteString("as " + d.exportAs + " ")
		}
	}
	if d.static {
		b.WriteString("static ")
	}
	if d.private {
		b.WriteString("private ")
	}
	if d.optional {
		b.WriteString("optional ")
	}
	b.WriteString(kindWord(d.kind))
	if d.fn != nil {
		b.WriteString(" " + d.fn.text())
		for _, o := range d.overloads {
			b.WriteString(" | " + o.text())
		}
	}
	if d.typ != "" {
		b.WriteString(": " + d.typ)
	}
	if len(d.heritage) > 0 {
		b.WriteString(" " + strings.Join(d.heritage, ", "))
	}
	switch d.kind {
	case dType:
		b.WriteString(" = " + d.file.t.tokens(d.node.child("value"), nil))
	case dEnumMember:
		if v := d.node.child("value"); v != nil {
			b.WriteString(" = " + compact(v))
		}
	}
	return b.String()
}

// bodyOf is the part of a declaration that is not its signature.
func bodyOf(n *node) *node {
	if n == nil {
		return nil
	}
	if b := n.child("body"); b != nil {
		switch n.kind {
		case "class_declaration", "abstract_class_declaration", "class", "interface_declaration", "enum_declaration":
			return nil // members are declarations of their own
		}
		return b
	}
	if v := n.child("value"); v != nil {
		return v
	}
	return nil
}

// header is a declaration's text up to its body, layout collapsed.
func header(t *tree, n *node) string {
	end := n.end
	if b := n.child("body"); b != nil {
		end = b.start
	}
	s := n.start
	if p := n.parent; p != nil && p.kind == "variable_declarator" {
		s = p.start
	}
	if end < s || int(end) > len(t.src) {
		return ""
	}
	h := strings.Join(strings.Fields(string(t.src[s:end])), " ")
	if len(h) > 200 {
		h = h[:200] + "…"
	}
	return h
}
