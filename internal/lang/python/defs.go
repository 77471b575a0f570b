package python

import (
	"strings"

	"github.com/ripple-dev/ripple/internal/lang/treesit"
)

func decoratorName(t *treesit.Tree, d *treesit.Node) string {
	if d.Kind == "call" {
		d = d.Child("function")
	}
	return t.Text(d)
}

func lastPart(s string) string {
	if i := strings.LastIndexByte(s, '.'); i >= 0 {
		return s[i+1:]
	}
	return s
}

func (b *builder) funcDef(s *scope, def, outer *treesit.Node, decos []*treesit.Node) {
	nameN := def.Child("name")
	if nameN == nil {
		return
	}
	fi := &funcInfo{file: b.f, node: def, outer: outer, name: b.text(nameN), decorators: decos, returns: def.Child("return_type")}
	fi.async = def.HasToken("async")
	if tp := def.Child("type_parameters"); tp != nil {
		fi.typeParams = treesit.Compact(tp)
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
	if ps := def.Child("parameters"); ps != nil {
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
	if body := def.Child("body"); body != nil {
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

func (b *builder) classDef(s *scope, def, outer *treesit.Node, decos []*treesit.Node) {
	nameN := def.Child("name")
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
	if tp := def.Child("type_parameters"); tp != nil {
		c.typeParams = treesit.Compact(tp)
	}
	for _, d := range decos {
		c.decoNames = append(c.decoNames, decoratorName(b.t, d))
	}
	if sup := def.Child("superclasses"); sup != nil {
		for _, k := range sup.NamedKids() {
			if k.Kind == "keyword_argument" {
				c.keywords = append(c.keywords, k)
			} else if k.Kind != "list_splat" && k.Kind != "dictionary_splat" {
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
	if body := def.Child("body"); body != nil {
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
	body := m.node.Child("body")
	treesit.Walk(body, func(n *treesit.Node) bool {
		switch n.Kind {
		case "function_definition", "class_definition", "lambda":
			return false
		case "assignment", "augmented_assignment":
			b.selfTarget(c, m, n.Child("left"), n, n.Child("type"), n.Child("right"), self)
		case "for_statement":
			b.selfTarget(c, m, n.Child("left"), n, nil, nil, self)
		case "call":
			// setattr(self, name, v), self.__dict__.update(...), vars(self):
			// attributes this class creates by computed names
			fn := n.Child("function")
			args := n.Child("arguments").NamedKids()
			switch {
			case fn == nil:
			case (fn.Text() == "setattr" || fn.Text() == "vars") && len(args) > 0 && args[0].Text() == self:
				c.dynamicAttrs = true
			case fn.Text() == self+".__dict__.update" || fn.Text() == self+".__dict__.setdefault":
				c.dynamicAttrs = true
			}
		case "subscript":
			// self.__dict__[k] = v
			if v := n.Child("value"); v != nil && v.Text() == self+".__dict__" && n.Parent != nil && n.Parent.Kind == "assignment" && n.Field == "left" {
				c.dynamicAttrs = true
			}
		}
		return true
	})
}

func (b *builder) selfTarget(c *classInfo, m *funcInfo, left, stmt, annot, value *treesit.Node, self string) {
	if left == nil {
		return
	}
	switch left.Kind {
	case "attribute":
		obj := left.Child("object")
		an := left.Child("attribute")
		if obj == nil || an == nil || obj.Kind != "identifier" || b.text(obj) != self {
			return
		}
		if stmt.Kind == "augmented_assignment" {
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
		for _, k := range left.NamedKids() {
			b.selfTarget(c, m, k, stmt, nil, nil, self)
		}
	}
}

// parseParams reads a parameters (or lambda_parameters) node.
func parseParams(t *treesit.Tree, ps *treesit.Node) []param {
	var out []param
	kind := posKw
	sawSlash := false
	for _, k := range ps.NamedKids() {
		p := param{kind: kind}
		switch k.Kind {
		case "identifier":
			p.name = t.Text(k)
		case "typed_parameter":
			inner := k.NamedKids()
			if len(inner) > 0 {
				switch inner[0].Kind {
				case "list_splat_pattern":
					p.kind = varArgs
					p.name = t.Text(firstIdent(inner[0]))
				case "dictionary_splat_pattern":
					p.kind = varKw
					p.name = t.Text(firstIdent(inner[0]))
				default:
					p.name = t.Text(inner[0])
				}
			}
			if ty := k.Child("type"); ty != nil {
				p.annot, p.annotAt = treesit.Compact(ty), ty
			}
		case "default_parameter", "typed_default_parameter":
			p.name = t.Text(k.Child("name"))
			p.hasDef = true
			p.def = treesit.Compact(k.Child("value"))
			if ty := k.Child("type"); ty != nil {
				p.annot, p.annotAt = treesit.Compact(ty), ty
			}
		case "list_splat_pattern":
			p.kind = varArgs
			p.name = t.Text(firstIdent(k))
		case "dictionary_splat_pattern":
			p.kind = varKw
			p.name = t.Text(firstIdent(k))
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
			p.name = t.Text(k) // Python 2 tuple parameter
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

func firstIdent(n *treesit.Node) *treesit.Node {
	var id *treesit.Node
	treesit.Walk(n, func(m *treesit.Node) bool {
		if id == nil && m.Kind == "identifier" {
			id = m
		}
		return id == nil
	})
	return id
}

// docstring returns the docstring statement of a body, or nil.
func docstring(body *treesit.Node) *treesit.Node {
	if body == nil {
		return nil
	}
	for _, st := range body.Kids {
		if st.Kind == "comment" {
			continue
		}
		if st.Kind == "expression_statement" {
			if e := st.NamedKids(); len(e) == 1 && (e[0].Kind == "string" || e[0].Kind == "concatenated_string") {
				return st
			}
		}
		return nil
	}
	return nil
}
