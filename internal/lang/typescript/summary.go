package typescript

import (
	"strings"
)

// tsfile is one parsed file with what the analysis reads of it.
type tsfile struct {
	path  string
	t     *tree
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
	classes map[string]*node
}

// binding is an imported local name.
type binding struct {
	local string
	spec  string // the module specifier as written
	name  string // the imported export name; "*" for a namespace, "default"
	node  *node  // the import or require statement
	typ   bool   // a type-only import
}

// reexport is `export {a as b} from 'x'` (name a, as b) or
// `export * from 'x'` (name "*").
type reexport struct {
	spec, name, as string
	node           *node
}

// summarize reads a file's declarations, imports and exports.
func summarize(path string, t *tree) *tsfile {
	f := &tsfile{path: path, t: t, imports: map[string]*binding{}, exports: map[string]string{}, classes: map[string]*node{}}
	for _, st := range t.root.kids {
		f.statement(st, false)
	}
	return f
}

func (f *tsfile) statement(st *node, exported bool) {
	if st.bad {
		return
	}
	switch st.kind {
	case "export_statement":
		f.exportStatement(st)
	case "import_statement":
		f.importStatement(st)
	case "ambient_declaration":
		for _, k := range st.namedKids() {
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
		f.members(st.child("body"), st)
	case "type_alias_declaration":
		v := st.child("value")
		if v != nil && v.kind == "object_type" {
			f.add(&declData{node: st, kind: dInterface, exported: exported})
			f.members(v, st)
		} else {
			f.add(&declData{node: st, kind: dType, exported: exported})
		}
	case "enum_declaration":
		f.add(&declData{node: st, kind: dEnum, exported: exported})
		for _, m := range st.child("body").namedKids() {
			switch m.kind {
			case "property_identifier", "string":
				f.add(&declData{node: m, kind: dEnumMember, exported: exported})
			case "enum_assignment":
				f.add(&declData{node: m, kind: dEnumMember, exported: exported})
			}
		}
	case "lexical_declaration", "variable_declaration":
		for _, vd := range st.namedKids() {
			if vd.kind != "variable_declarator" {
				continue
			}
			name, val := vd.child("name"), unparen(vd.child("value"))
			if name == nil {
				continue
			}
			if name.kind == "identifier" && val != nil && functionLike(val.kind) {
				f.add(&declData{node: val, kind: dFunc, fn: sigOf(val), exported: exported})
				continue
			}
			if val != nil && val.kind == "class" && name.kind == "identifier" {
				f.class(val, exported)
				continue
			}
			f.require(vd, name, val)
			if name.kind == "identifier" && (exported || f.t.root == st.parent) {
				d := &declData{node: vd, kind: dVar, exported: exported}
				if t := vd.child("type"); t != nil {
					d.typ = strings.TrimSpace(strings.TrimPrefix(compact(t), ":"))
				}
				if exported {
					f.add(d)
				}
			}
		}
	case "expression_statement":
		for _, e := range st.namedKids() {
			if e.kind == "assignment_expression" {
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

func heritage(n *node) []string {
	var out []string
	var walkH func(*node)
	walkH = func(x *node) {
		for _, k := range x.kids {
			switch k.kind {
			case "class_heritage", "extends_clause", "implements_clause", "extends_type_clause":
				walkH(k)
			case "identifier", "type_identifier", "member_expression", "generic_type", "nested_type_identifier", "call_expression":
				out = append(out, compact(k))
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

func (f *tsfile) class(n *node, exported bool) {
	d := &declData{node: n, kind: dClass, exported: exported, heritage: heritage(n)}
	f.add(d)
	if nm := n.child("name"); nm != nil {
		f.classes[nm.text()] = n
	} else if p := n.parent; p != nil && p.kind == "variable_declarator" {
		f.classes[p.child("name").text()] = n
	}
	for _, m := range n.child("body").namedKids() {
		if m.bad {
			continue
		}
		md := &declData{node: m, exported: exported}
		for _, k := range m.kids {
			switch {
			case k.kind == "static":
				md.static = true
			case k.kind == "accessibility_modifier" && k.text() == "private":
				md.private = true
			case k.kind == "?":
				md.optional = true
			}
		}
		if nm := m.child("name"); nm != nil && nm.kind == "private_property_identifier" {
			md.private = true
		}
		switch m.kind {
		case "method_definition", "method_signature", "abstract_method_signature":
			md.kind, md.fn = dMethod, sigOf(m)
			if declName(m) == "constructor" {
				md.kind = dCtor
			}
			if m.hasToken("get") || m.hasToken("set") {
				md.kind, md.fn = dField, nil // an accessor is read as a property
				if f.hasMember(m.parent, declName(m), m) {
					continue // the other half of a get/set pair
				}
			}
		case "public_field_definition":
			v := unparen(m.child("value"))
			if v != nil && (v.kind == "arrow_function" || v.kind == "function_expression") {
				md.node, md.kind, md.fn = v, dMethod, sigOf(v)
				break
			}
			md.kind = dField
			if t := m.child("type"); t != nil {
				md.typ = strings.TrimSpace(strings.TrimPrefix(compact(t), ":"))
			}
		default:
			continue
		}
		f.add(md)
	}
}

// hasMember reports whether a class body declares name before node m.
func (f *tsfile) hasMember(body *node, name string, m *node) bool {
	for _, k := range body.namedKids() {
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
func (f *tsfile) members(body *node, owner *node) {
	if body == nil {
		return
	}
	exported := false
	for _, d := range f.decls {
		if d.node == owner {
			exported = d.exported
		}
	}
	for _, m := range body.namedKids() {
		if m.bad {
			continue
		}
		md := &declData{node: m, kind: dIMember, exported: exported, optional: m.hasToken("?")}
		switch m.kind {
		case "property_signature":
			if t := m.child("type"); t != nil {
				md.typ = strings.TrimSpace(strings.TrimPrefix(compact(t), ":"))
			}
		case "method_signature":
			md.fn = sigOf(m)
		default:
			continue // call, construct and index signatures
		}
		f.add(md)
	}
}

func (f *tsfile) exportStatement(st *node) {
	src := st.child("source")
	if d := st.child("declaration"); d != nil {
		f.statement(d, true)
		return
	}
	isDefault := st.hasToken("default")
	if isDefault {
		v := st.child("value")
		if v == nil {
			for _, k := range st.namedKids() {
				if k.kind != "comment" && k.kind != "decorator" {
					v = k
				}
			}
		}
		if v == nil {
			return
		}
		switch {
		case v.kind == "function_declaration" || v.kind == "generator_function_declaration" || functionLike(v.kind):
			d := &declData{node: v, kind: dFunc, fn: sigOf(v), exported: true}
			if v.child("name") == nil {
				d.exportAs = ""
			} else {
				d.exportAs = "default"
			}
			f.add(d)
			if v.child("name") == nil {
				f.exports["default"] = "default"
			}
		case v.kind == "class_declaration" || v.kind == "class" || v.kind == "abstract_class_declaration":
			f.class(v, true)
			f.exports["default"] = declName(v)
		case v.kind == "identifier":
			f.exports["default"] = v.text()
			f.markExported(v.text())
		}
		return
	}
	clause := st.firstOf("export_clause")
	if src != nil {
		spec := stringValue(src)
		if clause == nil {
			as := "*"
			if ns := st.firstOf("namespace_export"); ns != nil {
				if ks := ns.namedKids(); len(ks) > 0 {
					as = ks[0].text()
				}
			}
			f.reexports = append(f.reexports, &reexport{spec: spec, name: "*", as: as, node: st})
			return
		}
		for _, s := range clause.namedKids() {
			if s.kind != "export_specifier" {
				continue
			}
			name := s.child("name").text()
			as := name
			if a := s.child("alias"); a != nil {
				as = a.text()
			}
			f.reexports = append(f.reexports, &reexport{spec: spec, name: name, as: as, node: s})
		}
		return
	}
	if clause == nil {
		return
	}
	for _, s := range clause.namedKids() {
		if s.kind != "export_specifier" {
			continue
		}
		name := s.child("name").text()
		as := name
		if a := s.child("alias"); a != nil {
			as = a.text()
		}
		f.exports[as] = name
		f.markExported(name)
	}
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

func (f *tsfile) importStatement(st *node) {
	src := st.child("source")
	if src == nil {
		return
	}
	spec := stringValue(src)
	typ := st.hasToken("type")
	clause := st.firstOf("import_clause")
	if clause == nil {
		if r := st.firstOf("import_require_clause"); r != nil { // import x = require('y')
			if id := r.firstOf("identifier"); id != nil {
				f.imports[id.text()] = &binding{local: id.text(), spec: spec, name: "*", node: st}
			}
		}
		return
	}
	for _, k := range clause.namedKids() {
		switch k.kind {
		case "identifier":
			f.imports[k.text()] = &binding{local: k.text(), spec: spec, name: "default", node: st, typ: typ}
		case "namespace_import":
			if id := k.firstOf("identifier"); id != nil {
				f.imports[id.text()] = &binding{local: id.text(), spec: spec, name: "*", node: st, typ: typ}
			}
		case "named_imports":
			for _, s := range k.namedKids() {
				if s.kind != "import_specifier" {
					continue
				}
				name := s.child("name").text()
				local := name
				if a := s.child("alias"); a != nil {
					local = a.text()
				}
				f.imports[local] = &binding{local: local, spec: spec, name: name, node: s, typ: typ || s.hasToken("type")}
			}
		}
	}
}

// require reads `const x = require('m')` and `const {a, b: c} =
// require('m')`.
func (f *tsfile) require(vd, name, val *node) {
	spec, ok := requireSpec(val)
	if !ok {
		return
	}
	switch name.kind {
	case "identifier":
		f.imports[name.text()] = &binding{local: name.text(), spec: spec, name: "*", node: vd}
	case "object_pattern":
		for _, k := range name.namedKids() {
			switch k.kind {
			case "shorthand_property_identifier_pattern":
				f.imports[k.text()] = &binding{local: k.text(), spec: spec, name: k.text(), node: k}
			case "pair_pattern":
				key, v := k.child("key"), k.child("value")
				if v != nil && v.kind == "identifier" {
					f.imports[v.text()] = &binding{local: v.text(), spec: spec, name: strings.Trim(key.text(), `"'`), node: k}
				}
			}
		}
	}
}

// requireSpec reads require('m') (also require('m').x is not a module).
func requireSpec(n *node) (string, bool) {
	n = unparen(n)
	if n == nil || n.kind != "call_expression" {
		return "", false
	}
	fn := n.child("function")
	if fn == nil || fn.text() != "require" {
		return "", false
	}
	args := n.child("arguments").namedKids()
	if len(args) != 1 || args[0].kind != "string" {
		return "", false
	}
	return stringValue(args[0]), true
}

// commonJS reads module.exports = ..., exports.x = ... and
// module.exports.x = ....
func (f *tsfile) commonJS(e *node) {
	l, r := e.child("left"), unparen(e.child("right"))
	if l == nil || r == nil || l.kind != "member_expression" {
		return
	}
	obj, prop := l.child("object"), l.child("property").text()
	switch {
	case obj.text() == "module" && prop == "exports":
		f.cjs = true
		switch {
		case r.kind == "object":
			for _, k := range r.namedKids() {
				switch k.kind {
				case "shorthand_property_identifier":
					f.exports[k.text()] = k.text()
					f.markExported(k.text())
				case "pair":
					key, v := strings.Trim(k.child("key").text(), `"'`), unparen(k.child("value"))
					if v != nil && functionLike(v.kind) {
						f.add(&declData{node: v, kind: dFunc, fn: sigOf(v), exported: true})
					} else if v != nil && v.kind == "identifier" {
						f.exports[key] = v.text()
						f.markExported(v.text())
					}
				case "method_definition":
					f.add(&declData{node: k, kind: dFunc, fn: sigOf(k), exported: true})
				}
			}
		case r.kind == "identifier":
			f.exports["default"] = r.text()
			f.markExported(r.text())
		case functionLike(r.kind):
			f.add(&declData{node: r, kind: dFunc, fn: sigOf(r), exported: true, exportAs: "default"})
		case r.kind == "class":
			f.class(r, true)
		}
	case obj.text() == "exports" || obj.text() == "module.exports":
		f.cjs = true
		switch {
		case functionLike(r.kind):
			f.add(&declData{node: r, kind: dFunc, fn: sigOf(r), exported: true})
		case r.kind == "identifier":
			f.exports[prop] = r.text()
			f.markExported(r.text())
		}
	}
}

// stringValue is a string literal's content.
func stringValue(n *node) string {
	s := n.text()
	if len(s) >= 2 {
		return s[1 : len(s)-1]
	}
	return s
}
