package typescript

import (
	"strings"

	"github.com/ripple-dev/ripple/internal/lang/treesit"
)

// tsfile is one parsed file with what the analysis reads of it.
type tsfile struct {
	path  string
	t     *treesit.Tree
	decls []*declData
	// imports maps a local name to what it is bound to in another module
	imports map[string]*binding
	// exports maps an export name to the local name it exports ("" for
	// an anonymous default); reexports are `export ... from` clauses
	exports   map[string]string
	reexports []*reexport
	// cjs is set when the file assigns module.exports or exports.x
	cjs bool
	// classes maps a class name to its node
	classes map[string]*treesit.Node
}

// binding is an imported local name.
type binding struct {
	local string
	spec  string        // the module specifier as written
	name  string        // the imported export name; "*" for a namespace, "default"
	node  *treesit.Node // the import or require statement
	typ   bool          // a type-only import
}

// reexport is `export {a as b} from 'x'` (name a, as b) or
// `export * from 'x'` (name "*").
type reexport struct {
	spec, name, as string
	node           *treesit.Node
}

// summarize reads a file's declarations, imports and exports.
func summarize(path string, t *treesit.Tree) *tsfile {
	f := &tsfile{path: path, t: t, imports: map[string]*binding{}, exports: map[string]string{}, classes: map[string]*treesit.Node{}}
	for _, st := range t.Root.Kids {
		f.statement(st, false)
	}
	return f
}

func (f *tsfile) statement(st *treesit.Node, exported bool) {
	if st.Bad {
		return
	}
	switch st.Kind {
	case "export_statement":
		f.exportStatement(st)
	case "import_statement":
		f.importStatement(st)
	case "ambient_declaration":
		for _, k := range st.NamedKids() {
			f.statement(k, exported)
		}
	case "function_declaration", "generator_function_declaration", "function_signature":
		f.add(&declData{node: st, kind: dFunc, fn: sigOf(st), exported: exported})
	case "class_declaration", "abstract_class_declaration":
		f.class(st, exported)
	case "interface_declaration":
		d := &declData{node: st, kind: dInterface, exported: exported}
		d.heritage = heritage(st)
		f.add(d)
		f.members(st.Child("body"), st)
	case "type_alias_declaration":
		v := st.Child("value")
		if v != nil && v.Kind == "object_type" {
			f.add(&declData{node: st, kind: dInterface, exported: exported})
			f.members(v, st)
		} else {
			f.add(&declData{node: st, kind: dType, exported: exported})
		}
	case "enum_declaration":
		f.add(&declData{node: st, kind: dEnum, exported: exported})
		for _, m := range st.Child("body").NamedKids() {
			switch m.Kind {
			case "property_identifier", "string":
				f.add(&declData{node: m, kind: dEnumMember, exported: exported})
			case "enum_assignment":
				f.add(&declData{node: m, kind: dEnumMember, exported: exported})
			}
		}
	case "lexical_declaration", "variable_declaration":
		for _, vd := range st.NamedKids() {
			if vd.Kind != "variable_declarator" {
				continue
			}
			name, val := vd.Child("name"), treesit.Unparen(vd.Child("value"))
			if name == nil {
				continue
			}
			if name.Kind == "identifier" && val != nil && functionLike(val.Kind) {
				d := &declData{node: val, kind: dFunc, fn: sigOf(val), exported: exported}
				if t := vd.Child("type"); t != nil {
					// `const C: React.FC<Props> = (p) => ...`: the const's
					// type is what callers (and elements) rely on
					d.typ = strings.TrimSpace(strings.TrimPrefix(treesit.Compact(t), ":"))
				}
				f.add(d)
				continue
			}
			if val != nil && val.Kind == "class" && name.Kind == "identifier" {
				f.class(val, exported)
				continue
			}
			f.require(vd, name, val)
			if name.Kind == "identifier" && (exported || f.t.Root == st.Parent) {
				d := &declData{node: vd, kind: dVar, exported: exported}
				if t := vd.Child("type"); t != nil {
					d.typ = strings.TrimSpace(strings.TrimPrefix(treesit.Compact(t), ":"))
				}
				if exported {
					f.add(d)
				}
			}
		}
	case "expression_statement":
		for _, e := range st.NamedKids() {
			if e.Kind == "assignment_expression" {
				f.commonJS(e)
			}
		}
	}
}

func (f *tsfile) add(d *declData) {
	d.file = f
	f.decls = append(f.decls, d)
	if d.exported {
		name, _ := d.names()
		if d.exportAs != "" {
			f.exports[d.exportAs] = name
		} else if d.kind != dMethod && d.kind != dCtor && d.kind != dField && d.kind != dIMember && d.kind != dEnumMember {
			f.exports[name] = name
		}
	}
}

func heritage(n *treesit.Node) []string {
	var out []string
	var walkH func(*treesit.Node)
	walkH = func(x *treesit.Node) {
		for _, k := range x.Kids {
			switch k.Kind {
			case "class_heritage", "extends_clause", "implements_clause", "extends_type_clause":
				walkH(k)
			case "identifier", "type_identifier", "member_expression", "generic_type", "nested_type_identifier", "call_expression":
				out = append(out, treesit.Compact(k))
			}
		}
	}
	walkH(n)
	return out
}

// baseName is a heritage entry without type arguments and qualifier.
func baseName(h string) string {
	if i := strings.IndexByte(h, '<'); i >= 0 {
		h = h[:i]
	}
	if i := strings.LastIndexByte(h, '.'); i >= 0 {
		h = h[i+1:]
	}
	return strings.TrimSpace(h)
}

func (f *tsfile) class(n *treesit.Node, exported bool) {
	d := &declData{node: n, kind: dClass, exported: exported, heritage: heritage(n)}
	f.add(d)
	if nm := n.Child("name"); nm != nil {
		f.classes[nm.Text()] = n
	} else if p := n.Parent; p != nil && p.Kind == "variable_declarator" {
		f.classes[p.Child("name").Text()] = n
	}
	for _, m := range n.Child("body").NamedKids() {
		if m.Bad {
			continue
		}
		md := &declData{node: m, exported: exported}
		for _, k := range m.Kids {
			switch {
			case k.Kind == "static":
				md.static = true
			case k.Kind == "accessibility_modifier" && k.Text() == "private":
				md.private = true
			case k.Kind == "?":
				md.optional = true
			}
		}
		if nm := m.Child("name"); nm != nil && nm.Kind == "private_property_identifier" {
			md.private = true
		}
		switch m.Kind {
		case "method_definition", "method_signature", "abstract_method_signature":
			md.kind, md.fn = dMethod, sigOf(m)
			if declName(m) == "constructor" {
				md.kind = dCtor
			}
			if m.HasToken("get") || m.HasToken("set") {
				md.kind, md.fn = dField, nil // an accessor is read as a property
				if f.hasMember(m.Parent, declName(m), m) {
					continue // the other half of a get/set pair
				}
			}
		case "public_field_definition":
			v := treesit.Unparen(m.Child("value"))
			if v != nil && (v.Kind == "arrow_function" || v.Kind == "function_expression") {
				md.node, md.kind, md.fn = v, dMethod, sigOf(v)
				break
			}
			md.kind = dField
			if t := m.Child("type"); t != nil {
				md.typ = strings.TrimSpace(strings.TrimPrefix(treesit.Compact(t), ":"))
			}
		default:
			continue
		}
		f.add(md)
	}
}

// hasMember reports whether a class body declares name before node m.
func (f *tsfile) hasMember(body *treesit.Node, name string, m *treesit.Node) bool {
	for _, k := range body.NamedKids() {
		if k == m {
			return false
		}
		if declName(k) == name {
			return true
		}
	}
	return false
}

// members reads an interface body or object type.
func (f *tsfile) members(body *treesit.Node, owner *treesit.Node) {
	if body == nil {
		return
	}
	exported := false
	for _, d := range f.decls {
		if d.node == owner {
			exported = d.exported
		}
	}
	for _, m := range body.NamedKids() {
		if m.Bad {
			continue
		}
		md := &declData{node: m, kind: dIMember, exported: exported, optional: m.HasToken("?")}
		switch m.Kind {
		case "property_signature":
			if t := m.Child("type"); t != nil {
				md.typ = strings.TrimSpace(strings.TrimPrefix(treesit.Compact(t), ":"))
			}
		case "method_signature":
			md.fn = sigOf(m)
		default:
			continue // call, construct and index signatures
		}
		f.add(md)
	}
}

// defaultDecl records `export default function f` and `export default
// class C`: the module exports them as its default, not under their
// names (which only the module itself sees).
func (f *tsfile) defaultDecl(d *treesit.Node) bool {
	switch d.Kind {
	case "function_declaration", "generator_function_declaration":
		f.add(&declData{node: d, kind: dFunc, fn: sigOf(d), exported: true, exportAs: "default"})
		return true
	case "class_declaration", "abstract_class_declaration":
		name := declName(d)
		_, had := f.exports[name]
		f.class(d, true)
		if !had {
			delete(f.exports, name)
		}
		f.exports["default"] = name
		return true
	}
	return false
}

func (f *tsfile) exportStatement(st *treesit.Node) {
	src := st.Child("source")
	isDefault := st.HasToken("default")
	if d := st.Child("declaration"); d != nil {
		if isDefault && f.defaultDecl(d) {
			return
		}
		f.statement(d, true)
		return
	}
	if isDefault {
		v := st.Child("value")
		if v == nil {
			for _, k := range st.NamedKids() {
				if k.Kind != "comment" && k.Kind != "decorator" {
					v = k
				}
			}
		}
		if v == nil {
			return
		}
		switch {
		case v.Kind == "function_declaration" || v.Kind == "generator_function_declaration" || functionLike(v.Kind):
			d := &declData{node: v, kind: dFunc, fn: sigOf(v), exported: true}
			if v.Child("name") == nil {
				d.exportAs = ""
			} else {
				d.exportAs = "default"
			}
			f.add(d)
			if v.Child("name") == nil {
				f.exports["default"] = "default"
			}
		case v.Kind == "class_declaration" || v.Kind == "class" || v.Kind == "abstract_class_declaration":
			f.class(v, true)
			f.exports["default"] = declName(v)
		case v.Kind == "identifier":
			f.exports["default"] = v.Text()
			f.markExported(v.Text())
		case v.Kind == "call_expression" && propsWrapped(v) != "":
			// export default memo(C): the component itself, with its props
			c := propsWrapped(v)
			f.exports["default"] = c
			f.markExported(c)
		default:
			// any other value (`export default ok && function () {}`, an
			// object, a call): the module has a default export, of no
			// declaration the analysis follows
			f.exports["default"] = "default"
		}
		return
	}
	clause := st.FirstOf("export_clause")
	if src != nil {
		spec := stringValue(src)
		if clause == nil {
			as := "*"
			if ns := st.FirstOf("namespace_export"); ns != nil {
				if ks := ns.NamedKids(); len(ks) > 0 {
					as = ks[0].Text()
				}
			}
			f.reexports = append(f.reexports, &reexport{spec: spec, name: "*", as: as, node: st})
			return
		}
		for _, s := range clause.NamedKids() {
			if s.Kind != "export_specifier" {
				continue
			}
			name := s.Child("name").Text()
			as := name
			if a := s.Child("alias"); a != nil {
				as = a.Text()
			}
			f.reexports = append(f.reexports, &reexport{spec: spec, name: name, as: as, node: s})
		}
		return
	}
	if clause == nil {
		return
	}
	for _, s := range clause.NamedKids() {
		if s.Kind != "export_specifier" {
			continue
		}
		name := s.Child("name").Text()
		as := name
		if a := s.Child("alias"); a != nil {
			as = a.Text()
		}
		f.exports[as] = name
		f.markExported(name)
	}
}

// componentWrappers keep the props of the component they wrap: what they
// return is rendered with the same attributes.
var componentWrappers = map[string]bool{"memo": true, "React.memo": true, "forwardRef": true, "React.forwardRef": true, "observer": true}

// propsWrapped returns the component a call of a props-keeping wrapper
// wraps (`memo(C)`, `React.memo(C, eq)`, `observer(C)`), "" for other
// calls.
func propsWrapped(call *treesit.Node) string {
	fn := call.Child("function")
	if fn == nil || !componentWrappers[fn.Text()] {
		return ""
	}
	as := call.Child("arguments").NamedKids()
	if len(as) == 0 || as[0].Kind != "identifier" {
		return ""
	}
	return as[0].Text()
}

// markExported marks the local declaration name as exported (export {a},
// module.exports = {a}).
func (f *tsfile) markExported(name string) {
	for _, d := range f.decls {
		if n, c := d.names(); n == name && c == "" {
			d.exported = true
		}
		if d.kind == dClass && declName(d.node) == name {
			for _, m := range f.decls {
				if m.owner() == d.node {
					m.exported = true
				}
			}
		}
	}
}

func (f *tsfile) importStatement(st *treesit.Node) {
	src := st.Child("source")
	if src == nil {
		return
	}
	spec := stringValue(src)
	typ := st.HasToken("type")
	clause := st.FirstOf("import_clause")
	if clause == nil {
		if r := st.FirstOf("import_require_clause"); r != nil { // import x = require('y')
			if id := r.FirstOf("identifier"); id != nil {
				f.imports[id.Text()] = &binding{local: id.Text(), spec: spec, name: "*", node: st}
			}
		}
		return
	}
	for _, k := range clause.NamedKids() {
		switch k.Kind {
		case "identifier":
			f.imports[k.Text()] = &binding{local: k.Text(), spec: spec, name: "default", node: st, typ: typ}
		case "namespace_import":
			if id := k.FirstOf("identifier"); id != nil {
				f.imports[id.Text()] = &binding{local: id.Text(), spec: spec, name: "*", node: st, typ: typ}
			}
		case "named_imports":
			for _, s := range k.NamedKids() {
				if s.Kind != "import_specifier" {
					continue
				}
				name := s.Child("name").Text()
				local := name
				if a := s.Child("alias"); a != nil {
					local = a.Text()
				}
				f.imports[local] = &binding{local: local, spec: spec, name: name, node: s, typ: typ || s.HasToken("type")}
			}
		}
	}
}

// require reads `const x = require('m')` and `const {a, b: c} =
// require('m')`.
func (f *tsfile) require(vd, name, val *treesit.Node) {
	spec, ok := requireSpec(val)
	if !ok {
		return
	}
	switch name.Kind {
	case "identifier":
		f.imports[name.Text()] = &binding{local: name.Text(), spec: spec, name: "*", node: vd}
	case "object_pattern":
		for _, k := range name.NamedKids() {
			switch k.Kind {
			case "shorthand_property_identifier_pattern":
				f.imports[k.Text()] = &binding{local: k.Text(), spec: spec, name: k.Text(), node: k}
			case "pair_pattern":
				key, v := k.Child("key"), k.Child("value")
				if v != nil && v.Kind == "identifier" {
					f.imports[v.Text()] = &binding{local: v.Text(), spec: spec, name: strings.Trim(key.Text(), `"'`), node: k}
				}
			}
		}
	}
}

// requireSpec reads require('m') (also require('m').x is not a module).
func requireSpec(n *treesit.Node) (string, bool) {
	n = treesit.Unparen(n)
	if n == nil || n.Kind != "call_expression" {
		return "", false
	}
	fn := n.Child("function")
	if fn == nil || fn.Text() != "require" {
		return "", false
	}
	args := n.Child("arguments").NamedKids()
	if len(args) != 1 || args[0].Kind != "string" {
		return "", false
	}
	return stringValue(args[0]), true
}

// commonJS reads module.exports = ..., exports.x = ... and
// module.exports.x = ....
func (f *tsfile) commonJS(e *treesit.Node) {
	l, r := e.Child("left"), treesit.Unparen(e.Child("right"))
	if l == nil || r == nil || l.Kind != "member_expression" {
		return
	}
	obj, prop := l.Child("object"), l.Child("property").Text()
	switch {
	case obj.Text() == "module" && prop == "exports":
		f.cjs = true
		switch {
		case r.Kind == "object":
			for _, k := range r.NamedKids() {
				switch k.Kind {
				case "shorthand_property_identifier":
					f.exports[k.Text()] = k.Text()
					f.markExported(k.Text())
				case "pair":
					key, v := strings.Trim(k.Child("key").Text(), `"'`), treesit.Unparen(k.Child("value"))
					if v != nil && functionLike(v.Kind) {
						f.add(&declData{node: v, kind: dFunc, fn: sigOf(v), exported: true})
					} else if v != nil && v.Kind == "identifier" {
						f.exports[key] = v.Text()
						f.markExported(v.Text())
					}
				case "method_definition":
					f.add(&declData{node: k, kind: dFunc, fn: sigOf(k), exported: true})
				}
			}
		case r.Kind == "identifier":
			f.exports["default"] = r.Text()
			f.markExported(r.Text())
		case functionLike(r.Kind):
			f.add(&declData{node: r, kind: dFunc, fn: sigOf(r), exported: true, exportAs: "default"})
		case r.Kind == "class":
			f.class(r, true)
		}
	case obj.Text() == "exports" || obj.Text() == "module.exports":
		f.cjs = true
		switch {
		case functionLike(r.Kind):
			f.add(&declData{node: r, kind: dFunc, fn: sigOf(r), exported: true})
		case r.Kind == "identifier":
			f.exports[prop] = r.Text()
			f.markExported(r.Text())
		}
	}
}

// stringValue is a string literal's content.
func stringValue(n *treesit.Node) string {
	s := n.Text()
	if len(s) >= 2 {
		return s[1 : len(s)-1]
	}
	return s
}
