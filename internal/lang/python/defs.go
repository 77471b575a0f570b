package python

import (
	"strings"
)

func decoratorName(t *tree, d *node) string {
	if d.kind == "call" {
		d = d.child("function")
	}
	return t.text(d)
}

func lastPart(s string) string {
	if i := strings.LastIndexByte(s, '.'); i >= 0 {
		return s[i+1:]
	}
	return s
}

func (b *builder) funcDef(s *scope, def, outer *node, decos []*node) {
	nameN := def.child("name")
	if nameN == nil {
		return
	}
	fi := &funcInfo{file: b.f, node: def, outer: outer, name: b.text(nameN), decorators: decos, returns: def.child("return_type")}
	fi.async = def.hasToken("async")
	if tp := def.child("type_parameters"); tp != nil {
		fi.typeParams = compact(tp)
	}
	switch s.kind {
	case scClass:
		fi.cls = s.cls
		fi.qual = s.cls.qual + "." + fi.name
	case scFunc:
		fi.parentFn = s.fn
		fi.qual = s.fn.qual + "." + fi.name
	default:
		fi.qual = fi.name
	}
	for _, d := range decos {
		dn := decoratorName(b.t, d)
		fi.decoNames = append(fi.decoNames, dn)
		switch lastPart(dn) {
		case "staticmethod":
			fi.static = true
		case "classmethod":
			fi.classm = true
		case "property", "cached_property", "setter", "getter", "deleter", "abstractproperty":
			fi.property = true
		case "overload":
			fi.overload = true
		case "fixture", "yield_fixture":
			fi.fixture = true
		}
	}
	if fi.cls != nil && (fi.name == "__new__" || fi.name == "__init_subclass__" || fi.name == "__class_getitem__") {
		fi.classm = true
	}
	if ps := def.child("parameters"); ps != nil {
		fi.params = parseParams(b.t, ps)
	}
	if fi.cls != nil {
		// __name is mangled inside a class body (_Class__name): no call
		// can pass it by keyword
		for i, p := range fi.params {
			if p.kind == posKw && strings.HasPrefix(p.name, "__") && !strings.HasSuffix(p.name, "__") {
				fi.params[i].kind = posOnly
			}
		}
	}
	s.bind(&binding{kind: bDef, name: fi.name, at: nameN, fn: fi, stmt: outer})
	if s.kind == scModule && fi.name == "__getattr__" {
		b.f.dynamic = true // PEP 562: any missing attribute may exist
	}
	if s.kind == scClass {
		if prev, ok := s.cls.methods[fi.name]; ok && (fi.overload || prev.property && fi.property && !isGetter(fi)) {
			// an overload stub after the implementation, or a setter of
			// a property: the first definition stays the method
		} else if !(ok && fi.overload && !prev.overload) {
			s.cls.methods[fi.name] = fi
		}
	}
	b.f.funcs = append(b.f.funcs, fi)
	b.f.funcAt[def] = fi
	fs := b.f.newScope(scFunc, def, s)
	fs.fn = fi
	fi.scope = fs
	for i, p := range fi.params {
		fs.bind(&binding{kind: bParam, name: p.name, at: def, fn: fi, param: i, annot: p.annotAt})
	}
	// defaults and decorators are evaluated in the enclosing scope
	for _, d := range decos {
		b.expr(s, d, outer)
	}
	if body := def.child("body"); body != nil {
		b.block(fs, body)
	}
}

func isGetter(fi *funcInfo) bool {
	for _, d := range fi.decoNames {
		switch lastPart(d) {
		case "property", "cached_property", "abstractproperty":
			return true
		}
	}
	return false
}

func (b *builder) classDef(s *scope, def, outer *node, decos []*node) {
	nameN := def.child("name")
	if nameN == nil {
		return
	}
	c := &classInfo{file: b.f, node: def, outer: outer, name: b.text(nameN), decorators: decos,
		methods: map[string]*funcInfo{}, attrs: map[string]*attrInfo{}}
	switch s.kind {
	case scClass:
		c.parentCls = s.cls
		c.qual = s.cls.qual + "." + c.name
	case scFunc:
		c.qual = s.fn.qual + "." + c.name
	default:
		c.qual = c.name
	}
	if tp := def.child("type_parameters"); tp != nil {
		c.typeParams = compact(tp)
	}
	for _, d := range decos {
		c.decoNames = append(c.decoNames, decoratorName(b.t, d))
	}
	if sup := def.child("superclasses"); sup != nil {
		for _, k := range sup.namedKids() {
			if k.kind == "keyword_argument" {
				c.keywords = append(c.keywords, k)
			} else if k.kind != "list_splat" && k.kind != "dictionary_splat" {
				c.bases = append(c.bases, k)
			}
		}
	}
	s.bind(&binding{kind: bClass, name: c.name, at: nameN, cls: c, stmt: outer})
	b.f.classes = append(b.f.classes, c)
	b.f.classAt[def] = c
	cs := b.f.newScope(scClass, def, s)
	cs.cls = c
	c.scope = cs
	if body := def.child("body"); body != nil {
		b.block(cs, body) // bare annotations (x: int) become fields too
	}
}

// selfAttrs records the attributes a class's methods assign through their
// first parameter (self.x = ..., self.x: T = ...).
func (b *builder) selfAttrs(c *classInfo) {
	for _, m := range c.methods {
		b.selfAttrsOf(c, m)
	}
	// methods shadowed by a later definition (property setters) too
	for _, fi := range b.f.funcs {
		if fi.cls == c && c.methods[fi.name] != fi {
			b.selfAttrsOf(c, fi)
		}
	}
}

func (b *builder) selfAttrsOf(c *classInfo, m *funcInfo) {
	if m.static || m.classm || len(m.params) == 0 || m.params[0].kind > posKw {
		return
	}
	self := m.params[0].name
	body := m.node.child("body")
	walk(body, func(n *node) bool {
		switch n.kind {
		case "function_definition", "class_definition", "lambda":
			return false
		case "assignment", "augmented_assignment":
			b.selfTarget(c, m, n.child("left"), n, n.child("type"), n.child("right"), self)
		case "for_statement":
			b.selfTarget(c, m, n.child("left"), n, nil, nil, self)
		case "call":
			// setattr(self, name, v), self.__dict__.update(...), vars(self):
			// attributes this class creates by computed names
			fn := n.child("function")
			args := n.child("arguments").namedKids()
			switch {
			case fn == nil:
			case (fn.text() == "setattr" || fn.text() == "vars") && len(args) > 0 && args[0].text() == self:
				c.dynamicAttrs = true
			case fn.text() == self+".__dict__.update" || fn.text() == self+".__dict__.setdefault":
				c.dynamicAttrs = true
			}
		case "subscript":
			// self.__dict__[k] = v
			if v := n.child("value"); v != nil && v.text() == self+".__dict__" && n.parent != nil && n.parent.kind == "assignment" && n.field == "left" {
				c.dynamicAttrs = true
			}
		}
		return true
	})
}

func (b *builder) selfTarget(c *classInfo, m *funcInfo, left, stmt, annot, value *node, self string) {
	if left == nil {
		return
	}
	switch left.kind {
	case "attribute":
		obj := left.child("object")
		an := left.child("attribute")
		if obj == nil || an == nil || obj.kind != "identifier" || b.text(obj) != self {
			return
		}
		if stmt.kind == "augmented_assignment" {
			value = nil
		}
		name := b.text(an)
		if a, ok := c.attrs[name]; ok {
			if a.annot == nil && annot != nil {
				a.annot = annot
			}
			if a.instance && a.value == nil && value != nil {
				a.value, a.scope = value, m.scope
			}
			return
		}
		if _, ok := c.methods[name]; ok {
			return
		}
		a := &attrInfo{name: name, at: an, stmt: stmt, annot: annot, value: chainedValue(value), instance: true, scope: m.scope, order: -1}
		c.attrs[name] = a
	case "pattern_list", "tuple_pattern", "list_pattern", "tuple", "list", "expression_list":
		for _, k := range left.namedKids() {
			b.selfTarget(c, m, k, stmt, nil, nil, self)
		}
	}
}

// parseParams reads a parameters (or lambda_parameters) node.
func parseParams(t *tree, ps *node) []param {
	var out []param
	kind := posKw
	sawSlash := false
	for _, k := range ps.namedKids() {
		p := param{kind: kind}
		switch k.kind {
		case "identifier":
			p.name = t.text(k)
		case "typed_parameter":
			inner := k.namedKids()
			if len(inner) > 0 {
				switch inner[0].kind {
				case "list_splat_pattern":
					p.kind = varArgs
					p.name = t.text(firstIdent(inner[0]))
				case "dictionary_splat_pattern":
					p.kind = varKw
					p.name = t.text(firstIdent(inner[0]))
				default:
					p.name = t.text(inner[0])
				}
			}
			if ty := k.child("type"); ty != nil {
				p.annot, p.annotAt = compact(ty), ty
			}
		case "default_parameter", "typed_default_parameter":
			p.name = t.text(k.child("name"))
			p.hasDef = true
			p.def = compact(k.child("value"))
			if ty := k.child("type"); ty != nil {
				p.annot, p.annotAt = compact(ty), ty
			}
		case "list_splat_pattern":
			p.kind = varArgs
			p.name = t.text(firstIdent(k))
		case "dictionary_splat_pattern":
			p.kind = varKw
			p.name = t.text(firstIdent(k))
		case "keyword_separator":
			kind = kwOnly
			continue
		case "positional_separator":
			sawSlash = true
			for i := range out {
				if out[i].kind == posKw {
					out[i].kind = posOnly
				}
			}
			continue
		case "tuple_pattern":
			p.name = t.text(k) // Python 2 tuple parameter
		default:
			continue
		}
		if p.kind == varArgs {
			kind = kwOnly
		}
		out = append(out, p)
	}
	_ = sawSlash
	return out
}

func firstIdent(n *node) *node {
	var id *node
	walk(n, func(m *node) bool {
		if id == nil && m.kind == "identifier" {
			id = m
		}
		return id == nil
	})
	return id
}

// docstring returns the docstring statement of a body, or nil.
func docstring(body *node) *node {
	if body == nil {
		return nil
	}
	for _, st := range body.kids {
		if st.kind == "comment" {
			continue
		}
		if st.kind == "expression_statement" {
			if e := st.namedKids(); len(e) == 1 && (e[0].kind == "string" || e[0].kind == "concatenated_string") {
				return st
			}
		}
		return nil
	}
	return nil
}
