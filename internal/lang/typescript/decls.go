package typescript

import (
	"strings"

	"github.com/ripple-dev/ripple/internal/lang"
	"github.com/ripple-dev/ripple/internal/lang/treesit"
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
	node       *treesit.Node // the declaration (for the header text)
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
	node      *treesit.Node
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
func params(n *treesit.Node) []param {
	var out []param
	for _, k := range n.NamedKids() {
		var p param
		switch k.Kind {
		case "required_parameter", "optional_parameter":
			pat := k.Child("pattern")
			if pat != nil && pat.Kind == "rest_pattern" {
				p.rest = true
				if ks := pat.NamedKids(); len(ks) > 0 {
					pat = ks[0]
				}
			}
			if pat != nil && pat.Kind == "this" {
				continue // `this: T` is no argument
			}
			p.name = treesit.Compact(pat)
			p.optional = k.Kind == "optional_parameter"
			if v := k.Child("value"); v != nil {
				p.optional, p.def = true, treesit.Compact(v)
			}
			if t := k.Child("type"); t != nil {
				p.typ = strings.TrimSpace(strings.TrimPrefix(treesit.Compact(t), ":"))
			}
			var mods []string
			for _, m := range k.Kids {
				if m.Kind == "accessibility_modifier" || m.Kind == "readonly" || m.Kind == "override_modifier" {
					mods = append(mods, m.Text())
				}
			}
			p.prop = strings.Join(mods, " ")
		case "comment":
			continue
		default: // a JavaScript parameter the grammar left bare
			p.name = treesit.Compact(k)
			switch k.Kind {
			case "assignment_pattern":
				p.optional = true
				p.name = treesit.Compact(k.Child("left"))
				p.def = treesit.Compact(k.Child("right"))
			case "rest_pattern":
				p.rest = true
				if ks := k.NamedKids(); len(ks) > 0 {
					p.name = treesit.Compact(ks[0])
				}
			}
		}
		out = append(out, p)
	}
	return out
}

// sigOf reads the callable part of a function-like node (function
// declarations and expressions, arrows, methods, signatures).
func sigOf(n *treesit.Node) *sig {
	s := &sig{node: n}
	if ps := n.Child("parameters"); ps != nil {
		s.params = params(ps)
	} else if p := n.Child("parameter"); p != nil { // x => ...
		s.params = []param{{name: p.Text()}}
	}
	if tp := n.Child("type_parameters"); tp != nil {
		s.typeParams = treesit.Compact(tp)
	}
	if r := n.Child("return_type"); r != nil {
		s.ret = strings.TrimSpace(strings.TrimPrefix(treesit.Compact(r), ":"))
	}
	s.async = n.HasToken("async")
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
			if d.node.Kind == "function_signature" || d.node.Kind == "method_signature" || d.node.Kind == "abstract_method_signature" {
				pd.overloads = append(pd.overloads, d.fn)
			} else {
				pd.overloads = append(pd.overloads, pd.fn)
				pd.fn, pd.node = d.fn, d.node
			}
			prev.Sig = sigText(pd)
			prev.Body += " " + f.t.Tokens(bodyOf(d.node), nil)
			prev.Span.EndLine = max(prev.Span.EndLine, int(d.node.EndLine))
			return
		}
		if d.kind == pd.kind {
			prev.Sig += " & " + sigText(d)
			prev.Body += " " + f.t.Tokens(bodyOf(d.node), nil)
			return
		}
		key += "#" + kindWord(d.kind) // a class and a namespace of one name
		name += "#" + kindWord(d.kind)
	}
	outer := d.node
	if p := outer.Parent; p != nil && (p.Kind == "export_statement" || p.Kind == "ambient_declaration") {
		outer = p
	}
	for outer.Parent != nil && (outer.Parent.Kind == "lexical_declaration" || outer.Parent.Kind == "variable_declaration" || outer.Parent.Kind == "expression_statement" || outer.Parent.Kind == "export_statement") {
		outer = outer.Parent
	}
	nameNode := d.node.Child("name")
	if nameNode == nil {
		nameNode = d.node
	}
	ld := &lang.Decl{
		Block: model.Block{
			Lang: "typescript", Kind: modelKind(d.kind), Path: f.path, Package: moduleOf(f.path),
			Container: container, Name: name, Display: display(d, name, container),
			Signature: header(f.t, d.node),
			Span:      model.Span{StartLine: int(outer.Line), EndLine: int(outer.EndLine)},
			NameLine:  int(nameNode.Line),
			Data:      d,
		},
		Sig:  sigText(d),
		Body: f.t.Tokens(bodyOf(d.node), nil),
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
func (d *declData) owner() *treesit.Node {
	for p := d.node.Parent; p != nil; p = p.Parent {
		switch p.Kind {
		case "class_declaration", "abstract_class_declaration", "class", "interface_declaration", "type_alias_declaration", "enum_declaration":
			return p
		}
	}
	return nil
}

// declName is the name a declaration node declares. A CommonJS export
// (exports.x = ...) is named by its property; an anonymous default export
// is "default".
func declName(n *treesit.Node) string {
	if n == nil {
		return ""
	}
	if nm := n.Child("name"); nm != nil {
		return nm.Text()
	}
	switch n.Kind {
	case "enum_body", "property_identifier":
		return n.Text()
	}
	if p := n.Parent; p != nil {
		switch p.Kind {
		case "variable_declarator", "public_field_definition":
			return p.Child("name").Text()
		case "assignment_expression":
			if l := p.Child("left"); l != nil && l.Kind == "member_expression" {
				if l.Text() == "module.exports" {
					return "default"
				}
				return l.Child("property").Text()
			}
		case "pair":
			return strings.Trim(p.Child("key").Text(), `"'`)
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
		if p := d.node.Parent; p != nil && p.Child("kind") != nil {
			return p.Child("kind").Text() + " " + name
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
		b.WriteString(" = " + d.file.t.Tokens(d.node.Child("value"), nil))
	case dEnumMember:
		if v := d.node.Child("value"); v != nil {
			b.WriteString(" = " + treesit.Compact(v))
		}
	}
	return b.String()
}

// bodyOf is the part of a declaration that is not its signature.
func bodyOf(n *treesit.Node) *treesit.Node {
	if n == nil {
		return nil
	}
	if b := n.Child("body"); b != nil {
		switch n.Kind {
		case "class_declaration", "abstract_class_declaration", "class", "interface_declaration", "enum_declaration":
			return nil // members are declarations of their own
		}
		return b
	}
	if v := n.Child("value"); v != nil {
		return v
	}
	return nil
}

// header is a declaration's text up to its body, layout collapsed.
func header(t *treesit.Tree, n *treesit.Node) string {
	end := n.End
	if b := n.Child("body"); b != nil {
		end = b.Start
	}
	s := n.Start
	if p := n.Parent; p != nil && p.Kind == "variable_declarator" {
		s = p.Start
	}
	if end < s || int(end) > len(t.Src) {
		return ""
	}
	h := strings.Join(strings.Fields(string(t.Src[s:end])), " ")
	if len(h) > 200 {
		h = h[:200] + "…"
	}
	return h
}
