package java

import (
	"strings"

	"github.com/ripple-dev/ripple/internal/lang/treesit"
)

// jfile is one parsed Java file: its package, imports and declarations
// (every type, nested ones included, with its members).
type jfile struct {
	path    string
	t       *treesit.Tree
	pkg     string // "" for the default package
	imports []*jimport
	types   []*jtype // in source order, nested types after their outer
}

// jimport is one import declaration.
type jimport struct {
	name     string // the dotted name, without ".*"
	static   bool
	wildcard bool
	node     *treesit.Node
}

// last is the simple name a single-type or single-static import binds.
func (im *jimport) last() string { return im.name[strings.LastIndexByte(im.name, '.')+1:] }

// jtype is a class, interface, record, enum or annotation type.
type jtype struct {
	file    *jfile
	name    string
	qual    string // the qualified name within the file: Outer.Inner
	kind    string // class, interface, record, enum, annotation
	node    *treesit.Node
	outer   *jtype
	mods    []string
	annots  []string
	tparams string
	super   *treesit.Node   // the superclass's type node, or nil
	ifaces  []*treesit.Node // implemented (or, of an interface, extended) types
	comps   []param         // a record's components
	methods []*jmethod      // methods and constructors, in order
	fields  []*jfield
}

// fqn is the type's fully qualified name.
func (t *jtype) fqn() string { return qualify(t.file.pkg, t.qual) }

func qualify(pkg, qual string) string {
	if pkg == "" {
		return qual
	}
	return pkg + "." + qual
}

func (t *jtype) has(mod string) bool { return hasMod(t.mods, mod) }

// abstract reports a type whose instances cannot be made as written: an
// abstract class or an interface.
func (t *jtype) abstract() bool {
	return t.kind == "interface" || t.kind == "annotation" || t.has("abstract")
}

// jmethod is a method or a constructor.
type jmethod struct {
	owner   *jtype
	name    string
	ctor    bool
	mods    []string
	annots  []string
	tparams string
	params  []param
	ret     string
	throws  []string
	node    *treesit.Node
	body    *treesit.Node // nil for an abstract or interface method
	// implicit marks a record's canonical constructor that the source
	// does not write.
	implicit bool
}

func (m *jmethod) has(mod string) bool { return hasMod(m.mods, mod) }

// abstract reports a method an implementer must declare.
func (m *jmethod) abstract() bool {
	if m.ctor || m.has("static") || m.has("default") || m.has("private") {
		return false
	}
	return m.body == nil && (m.owner.kind == "interface" || m.has("abstract"))
}

// accepts reports whether a call with n arguments can bind to m.
func (m *jmethod) accepts(n int) bool {
	k := len(m.params)
	if k > 0 && m.params[k-1].varargs {
		return n >= k-1
	}
	return n == k
}

// paramTypes is the method's parameter types, erased of generics' layout
// only (the canonical text).
func (m *jmethod) paramTypes() []string {
	out := make([]string, len(m.params))
	for i, p := range m.params {
		out[i] = p.typ
	}
	return out
}

// param is one formal parameter (or record component).
type param struct {
	typ     string // canonical type text; a varargs parameter's element type + "..."
	name    string
	varargs bool
}

// jfield is one field (one declarator of a field declaration), or an
// enum constant, or a record component.
type jfield struct {
	owner  *jtype
	name   string
	typ    string
	mods   []string
	node   *treesit.Node // the whole declaration
	at     *treesit.Node // the declared name
	value  *treesit.Node
	enum   bool // an enum constant
	record bool // a record component
}

func hasMod(mods []string, mod string) bool {
	for _, m := range mods {
		if m == mod {
			return true
		}
	}
	return false
}

// typeKinds maps a declaration node kind to the kind of type it declares.
var typeKinds = map[string]string{
	"class_declaration":           "class",
	"interface_declaration":       "interface",
	"record_declaration":          "record",
	"enum_declaration":            "enum",
	"annotation_type_declaration": "annotation",
}

// summarize reads a parsed file's package, imports and declarations.
func summarize(path string, t *treesit.Tree) *jfile {
	f := &jfile{path: path, t: t}
	for _, n := range t.Root.NamedKids() {
		switch n.Kind {
		case "package_declaration":
			for _, k := range n.NamedKids() {
				if k.Kind == "scoped_identifier" || k.Kind == "identifier" {
					f.pkg = compactName(k)
				}
			}
		case "import_declaration":
			f.imports = append(f.imports, readImport(n))
		default:
			if _, ok := typeKinds[n.Kind]; ok {
				f.typeDecl(n, nil)
			}
		}
	}
	return f
}

func readImport(n *treesit.Node) *jimport {
	im := &jimport{node: n, static: n.HasToken("static")}
	for _, k := range n.NamedKids() {
		switch k.Kind {
		case "scoped_identifier", "identifier":
			im.name = compactName(k)
		case "asterisk":
			im.wildcard = true
		}
	}
	return im
}

// compactName is a dotted name without layout.
func compactName(n *treesit.Node) string {
	return strings.Join(strings.Fields(n.Text()), "")
}

// typeDecl reads a type declaration and its members.
func (f *jfile) typeDecl(n *treesit.Node, outer *jtype) {
	if inErr(n) {
		return
	}
	name := n.Child("name").Text()
	if name == "" {
		return
	}
	t := &jtype{file: f, name: name, qual: name, kind: typeKinds[n.Kind], node: n, outer: outer}
	if outer != nil {
		t.qual = outer.qual + "." + name
	}
	t.mods, t.annots = modifiers(n.FirstOf("modifiers"))
	if outer != nil && (outer.kind == "interface" || outer.kind == "annotation") && !t.has("private") {
		t.mods = addMod(t.mods, "public")
	}
	if outer != nil && (t.kind != "class" || outer.kind == "interface" || outer.kind == "annotation") {
		t.mods = addMod(t.mods, "static") // implicitly static
	}
	if tp := n.Child("type_parameters"); tp != nil {
		t.tparams = typeText(tp)
	}
	if sc := n.Child("superclass"); sc != nil {
		if ks := sc.NamedKids(); len(ks) > 0 {
			t.super = ks[0]
		}
	}
	ifs := n.Child("interfaces")
	if ifs == nil {
		ifs = n.FirstOf("extends_interfaces")
	}
	if tl := ifs.FirstOf("type_list"); tl != nil {
		t.ifaces = tl.NamedKids()
	}
	if t.kind == "record" {
		t.comps = params(n.Child("parameters"))
	}
	f.types = append(f.types, t)
	f.members(t, n.Child("body"))
}

// members reads the declarations of a type's body.
func (f *jfile) members(t *jtype, body *treesit.Node) {
	for _, m := range body.NamedKids() {
		if inErr(m) {
			continue
		}
		switch m.Kind {
		case "enum_constant":
			if nm := m.Child("name"); nm != nil {
				t.fields = append(t.fields, &jfield{owner: t, name: nm.Text(), typ: t.name, mods: []string{"public", "static", "final"}, node: m, at: nm, value: m.Child("arguments"), enum: true})
			}
		case "enum_body_declarations":
			f.members(t, m)
		case "field_declaration", "constant_declaration":
			f.field(t, m)
		case "method_declaration", "constructor_declaration", "compact_constructor_declaration", "annotation_type_element_declaration":
			t.methods = append(t.methods, f.method(t, m))
		default:
			if _, ok := typeKinds[m.Kind]; ok {
				f.typeDecl(m, t)
			}
		}
	}
	if t.kind == "record" {
		f.recordMembers(t)
	}
}

// recordMembers adds a record's components as fields and, when the
// source does not write it, its canonical constructor.
func (f *jfile) recordMembers(t *jtype) {
	pn := t.node.Child("parameters")
	for i, p := range t.comps {
		var at *treesit.Node
		if ks := pn.NamedKids(); i < len(ks) {
			at = ks[i]
		}
		t.fields = append(t.fields, &jfield{owner: t, name: p.name, typ: p.typ, mods: []string{"private", "final"}, node: at, at: at, record: true})
	}
	for _, m := range t.methods {
		if m.ctor && (m.node.Kind == "compact_constructor_declaration" || len(m.params) == len(t.comps) && sameTypes(m.params, t.comps)) {
			m.params = t.comps
			return
		}
	}
	t.methods = append(t.methods, &jmethod{owner: t, name: t.name, ctor: true, mods: []string{"public"}, params: t.comps, node: pn, implicit: true})
}

func sameTypes(a, b []param) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].typ != b[i].typ {
			return false
		}
	}
	return true
}

func (f *jfile) field(t *jtype, n *treesit.Node) {
	mods, _ := modifiers(n.FirstOf("modifiers"))
	if t.kind == "interface" || t.kind == "annotation" {
		mods = addMod(addMod(addMod(mods, "public"), "static"), "final")
	}
	typ := typeText(n.Child("type"))
	for _, d := range n.Children("declarator") {
		nm := d.Child("name")
		if nm == nil {
			continue
		}
		ft := typ
		if dims := d.Child("dimensions"); dims != nil {
			ft += compactName(dims)
		}
		t.fields = append(t.fields, &jfield{owner: t, name: nm.Text(), typ: ft, mods: mods, node: n, at: nm, value: d.Child("value")})
	}
}

func (f *jfile) method(t *jtype, n *treesit.Node) *jmethod {
	m := &jmethod{owner: t, name: n.Child("name").Text(), node: n, body: n.Child("body")}
	m.ctor = n.Kind == "constructor_declaration" || n.Kind == "compact_constructor_declaration"
	m.mods, m.annots = modifiers(n.FirstOf("modifiers"))
	if t.kind == "interface" || t.kind == "annotation" {
		if !m.has("private") {
			m.mods = addMod(m.mods, "public")
		}
		if m.body == nil && !m.has("static") {
			m.mods = addMod(m.mods, "abstract")
		}
	}
	if tp := n.Child("type_parameters"); tp != nil {
		m.tparams = typeText(tp)
	}
	if !m.ctor {
		m.ret = typeText(n.Child("type"))
		if dims := n.Child("dimensions"); dims != nil {
			m.ret += compactName(dims)
		}
	}
	m.params = params(n.Child("parameters"))
	if th := n.FirstOf("throws"); th != nil {
		for _, k := range th.NamedKids() {
			m.throws = append(m.throws, typeText(k))
		}
	}
	return m
}

// params reads formal parameters.
func params(n *treesit.Node) []param {
	var out []param
	for _, p := range n.NamedKids() {
		switch p.Kind {
		case "formal_parameter":
			typ := typeText(p.Child("type"))
			if dims := p.Child("dimensions"); dims != nil {
				typ += compactName(dims)
			}
			out = append(out, param{typ: typ, name: p.Child("name").Text()})
		case "spread_parameter":
			var typ, name string
			for _, k := range p.NamedKids() {
				switch k.Kind {
				case "modifiers":
				case "variable_declarator":
					name = k.Child("name").Text()
				default:
					if typ == "" {
						typ = typeText(k)
					}
				}
			}
			out = append(out, param{typ: typ + "...", name: name, varargs: true})
		}
	}
	return out
}

// typeText is a type's canonical text: its tokens, annotations dropped,
// with a space only between two words (and after a comma).
func typeText(n *treesit.Node) string {
	if n == nil {
		return ""
	}
	var sb strings.Builder
	prevWord := false
	treesit.Walk(n, func(k *treesit.Node) bool {
		if k.Kind == "marker_annotation" || k.Kind == "annotation" || k.Kind == "comment" {
			return false
		}
		if len(k.Kids) == 0 {
			tok := k.Text()
			if tok == "" {
				return true
			}
			word := isWordByte(tok[0])
			if word && prevWord || tok == "&" {
				sb.WriteByte(' ')
			}
			sb.WriteString(tok)
			if tok == "," || tok == "&" {
				sb.WriteByte(' ')
			}
			prevWord = isWordByte(tok[len(tok)-1]) || tok == "?"
		}
		return true
	})
	return sb.String()
}

func isWordByte(c byte) bool {
	return c == '_' || c == '$' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c > 127
}

// modifiers returns the keywords and the annotations of a modifiers node.
func modifiers(n *treesit.Node) (mods, annots []string) {
	if n == nil {
		return nil, nil
	}
	for _, k := range n.Kids {
		switch {
		case k.Kind == "marker_annotation" || k.Kind == "annotation":
			annots = append(annots, strings.Join(strings.Fields(k.Text()), " "))
		case !k.Named:
			mods = append(mods, k.Text())
		}
	}
	return mods, annots
}

func addMod(mods []string, m string) []string {
	if hasMod(mods, m) {
		return mods
	}
	return append(mods, m)
}

// inErr reports a node inside a syntax error.
func inErr(n *treesit.Node) bool {
	for p := n; p != nil; p = p.Parent {
		if p.Bad {
			return true
		}
	}
	return false
}

// baseName is a type's name without type arguments, array dimensions or
// qualification: what a use of the type writes last (List for
// java.util.List<String>[]).
func baseName(typ string) string {
	if i := strings.IndexByte(typ, '<'); i >= 0 {
		typ = typ[:i]
	}
	typ = strings.TrimSuffix(strings.TrimRight(typ, "[]."), "...")
	return typ
}

// simpleName is the last part of a dotted name.
func simpleName(s string) string { return s[strings.LastIndexByte(s, '.')+1:] }
