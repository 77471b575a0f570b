package python

import (
	"strings"
)

// block records the bindings of a statement list (a module, a block) in
// scope s, recursing into compound statements but not into nested
// function or class bodies, which get their own scopes.
func (b *builder) block(s *scope, n *node) {
	for _, st := range n.kids {
		b.stmt(s, st)
	}
}

func (b *builder) stmt(s *scope, st *node) {
	switch st.kind {
	case "decorated_definition":
		def := st.child("definition")
		if def == nil {
			return
		}
		var decos []*node
		for _, k := range st.kids {
			if k.kind == "decorator" {
				if e := k.namedKids(); len(e) > 0 {
					decos = append(decos, e[0])
				}
			}
		}
		switch def.kind {
		case "function_definition":
			b.funcDef(s, def, st, decos)
		case "class_definition":
			b.classDef(s, def, st, decos)
		}
	case "function_definition":
		b.funcDef(s, st, st, nil)
	case "class_definition":
		b.classDef(s, st, st, nil)
	case "expression_statement":
		for _, e := range st.namedKids() {
			b.expr(s, e, st)
		}
	case "import_statement":
		for _, k := range st.children("name") {
			switch k.kind {
			case "dotted_name":
				full := b.text(k)
				first, _, _ := strings.Cut(full, ".")
				// import a.b binds a; a.b is then reached as a submodule
				s.bind(&binding{kind: bImport, name: first, at: k, module: first, stmt: st})
			case "aliased_import":
				al := k.child("alias")
				if al != nil {
					s.bind(&binding{kind: bImport, name: b.text(al), at: al, module: b.text(k.child("name")), stmt: st})
				}
			}
		}
	case "import_from_statement", "future_import_statement":
		mod := b.text(st.child("module_name"))
		if st.kind == "future_import_statement" {
			mod = "__future__"
		}
		if st.firstOf("wildcard_import") != nil {
			if s.kind == scModule {
				b.f.stars = append(b.f.stars, st)
			}
			return
		}
		for _, k := range st.children("name") {
			switch k.kind {
			case "dotted_name":
				s.bind(&binding{kind: bFrom, name: b.text(k), at: k, module: mod, member: b.text(k), stmt: st})
			case "aliased_import":
				if al := k.child("alias"); al != nil {
					s.bind(&binding{kind: bFrom, name: b.text(al), at: al, module: mod, member: b.text(k.child("name")), stmt: st})
				}
			}
		}
	case "global_statement", "nonlocal_statement":
		m := &s.globals
		if st.kind == "nonlocal_statement" {
			m = &s.nonlocals
		}
		if *m == nil {
			*m = map[string]bool{}
		}
		for _, k := range st.namedKids() {
			if k.kind == "identifier" {
				(*m)[b.text(k)] = true
			}
		}
	case "for_statement":
		b.loopTargets(s, st.child("left"), st.child("right"), st)
		b.expr(s, st.child("right"), st)
		b.blocks(s, st)
	case "with_statement":
		for _, cl := range st.kids {
			if cl.kind != "with_clause" {
				continue
			}
			for _, it := range cl.kids {
				if it.kind != "with_item" {
					continue
				}
				v := it.child("value")
				if v != nil && v.kind == "as_pattern" {
					vs := v.namedKids()
					for _, al := range v.kids {
						if al.field != "alias" {
							continue
						}
						// with cm as x: x is what cm.__enter__ returns
						if id := al.namedKids(); len(id) == 1 && id[0].kind == "identifier" && len(vs) > 0 {
							s.bind(&binding{kind: bWith, name: b.text(id[0]), at: id[0], value: vs[0], stmt: st, async: st.hasToken("async")})
						} else {
							b.targets(s, al, st, nil, nil)
						}
					}
					if len(vs) > 0 {
						b.expr(s, vs[0], st)
					}
				} else {
					b.expr(s, v, st)
				}
			}
		}
		b.blocks(s, st)
	case "try_statement":
		for _, k := range st.kids {
			if k.kind == "except_clause" || k.kind == "except_group_clause" {
				for _, e := range k.namedKids() {
					if e.kind == "as_pattern" {
						for _, al := range e.kids {
							if al.field == "alias" {
								b.targets(s, al, k, nil, nil)
							}
						}
					}
				}
			}
		}
		b.blocks(s, st)
	case "match_statement":
		b.expr(s, st.child("subject"), st)
		walk(st, func(n *node) bool {
			if n.kind == "case_pattern" || n.kind == "as_pattern" || n.kind == "keyword_pattern" {
				walk(n, func(m *node) bool {
					if m.kind == "identifier" && m.parent != nil && (m.parent.kind == "case_pattern" || m.field == "alias" || m.parent.kind == "splat_pattern") {
						s.bind(&binding{kind: bOther, name: b.text(m), at: m, stmt: st})
					}
					return true
				})
			}
			return true
		})
		b.blocks(s, st)
	case "type_alias_statement":
		if l := st.child("left"); l != nil {
			id := l
			if id.kind == "type" && len(id.namedKids()) > 0 {
				id = id.namedKids()[0]
			}
			if id.kind == "generic_type" {
				id = id.namedKids()[0]
			}
			if id.kind == "identifier" {
				s.bind(&binding{kind: bAssign, name: b.text(id), at: id, value: st.child("right"), stmt: st})
			}
		}
	case "if_statement", "while_statement", "elif_clause", "else_clause", "finally_clause", "block", "except_clause", "case_clause":
		for _, k := range st.kids {
			if k.field == "condition" {
				b.expr(s, k, st)
			}
		}
		b.blocks(s, st)
	case "return_statement", "delete_statement", "raise_statement", "assert_statement":
		for _, e := range st.namedKids() {
			b.expr(s, e, st)
		}
	}
}

// blocks handles the nested blocks and clauses of a compound statement.
func (b *builder) blocks(s *scope, st *node) {
	for _, k := range st.kids {
		switch k.kind {
		case "block":
			b.block(s, k)
		case "elif_clause", "else_clause", "finally_clause", "except_clause", "except_group_clause", "case_clause":
			b.stmt(s, k)
		}
	}
}

// expr records the bindings an expression statement makes: assignments,
// walrus targets, and the scopes of lambdas and comprehensions in it.
func (b *builder) expr(s *scope, e *node, stmt *node) {
	if e == nil {
		return
	}
	switch e.kind {
	case "assignment":
		left, right, typ := e.child("left"), e.child("right"), e.child("type")
		b.targets(s, left, stmt, right, typ)
		if right != nil && right.kind == "assignment" {
			b.expr(s, right, stmt)
			return
		}
		b.expr(s, right, stmt)
		return
	case "augmented_assignment":
		b.expr(s, e.child("right"), stmt)
		return
	}
	walk(e, func(n *node) bool {
		switch n.kind {
		case "named_expression":
			if id := n.child("name"); id != nil {
				t := s
				for t.kind == scComp && t.parent != nil {
					t = t.parent
				}
				t.bind(&binding{kind: bAssign, name: b.text(id), at: id, value: n.child("value"), stmt: stmt})
			}
		case "lambda":
			ls := b.f.newScope(scComp, n, s)
			if ps := n.child("parameters"); ps != nil {
				for _, p := range parseParams(b.t, ps) {
					ls.bind(&binding{kind: bOther, name: p.name, at: n})
				}
			}
			b.expr(ls, n.child("body"), stmt)
			return false
		case "list_comprehension", "set_comprehension", "dictionary_comprehension", "generator_expression":
			cs := b.f.newScope(scComp, n, s)
			for _, k := range n.kids {
				if k.kind == "for_in_clause" {
					b.loopTargets(cs, k.child("left"), k.child("right"), stmt)
				}
			}
			for _, k := range n.kids {
				b.expr(cs, k, stmt)
			}
			return false
		}
		return true
	})
}

// targets binds the names an assignment target binds. A single name
// gets the value and annotation; unpacked names get unknown types.
// Attribute targets through self in a method become instance attributes
// later (selfAttrs).
func (b *builder) targets(s *scope, left, stmt, value, annot *node) {
	if left == nil {
		return
	}
	switch left.kind {
	case "identifier":
		name := b.text(left)
		bk := bAssign
		if value == nil && annot == nil {
			bk = bOther
		}
		if value != nil && value.kind == "assignment" {
			value = chainedValue(value)
		}
		s.bind(&binding{kind: bk, name: name, at: left, value: value, annot: annot, stmt: stmt})
		if s.kind == scClass {
			b.classAttr(s.cls, left, stmt, annot, value)
		}
		if s.kind == scModule && name == "__all__" {
			b.f.all, b.f.hasAll = stringList(b.t, value)
		}
	case "pattern_list", "tuple_pattern", "list_pattern", "tuple", "list", "expression_list", "parenthesized_expression":
		for _, k := range left.namedKids() {
			b.targets(s, k, stmt, nil, nil)
		}
	case "list_splat_pattern", "list_splat":
		for _, k := range left.namedKids() {
			b.targets(s, k, stmt, nil, nil)
		}
	case "as_pattern_target":
		for _, k := range left.namedKids() {
			b.targets(s, k, stmt, nil, nil)
		}
	}
}

// chainedValue is the value of a = b = value.
func chainedValue(n *node) *node {
	for n != nil && n.kind == "assignment" {
		n = n.child("right")
	}
	return n
}

// stringList reads a list or tuple of string literals (__all__).
func stringList(t *tree, n *node) ([]string, bool) {
	n = unparen(n)
	if n == nil || n.kind != "list" && n.kind != "tuple" {
		return nil, false
	}
	var out []string
	for _, k := range n.namedKids() {
		s, ok := stringLit(t, k)
		if !ok {
			return out, false
		}
		out = append(out, s)
	}
	return out, true
}

// stringLit returns the value of a plain string literal (no
// interpolation, no escapes of note).
func stringLit(t *tree, n *node) (string, bool) {
	if n == nil || n.kind != "string" {
		return "", false
	}
	var sb strings.Builder
	for _, k := range n.kids {
		switch k.kind {
		case "interpolation":
			return "", false
		case "string_content":
			sb.WriteString(t.text(k))
		case "string_start":
			if strings.ContainsAny(t.text(k), "fF") {
				return "", false
			}
		}
	}
	return sb.String(), true
}

func (b *builder) classAttr(c *classInfo, name, stmt, annot, value *node) {
	if c == nil {
		return
	}
	n := b.text(name)
	if a, ok := c.attrs[n]; ok {
		if a.annot == nil && annot != nil {
			a.annot = annot
		}
		if a.instance {
			// a class-level declaration wins over self.x = ...
			a.instance, a.at, a.stmt, a.value = false, name, stmt, value
		}
		return
	}
	a := &attrInfo{name: n, at: name, stmt: stmt, annot: annot, value: value, scope: c.scope, order: len(c.attrOrder)}
	c.attrs[n] = a
	c.attrOrder = append(c.attrOrder, a)
}
