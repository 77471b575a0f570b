package python

import (
	"strings"

	"github.com/ripple-dev/ripple/internal/lang/treesit"
)

// block records the bindings of a statement list (a module, a block) in
// scope s, recursing into compound statements but not into nested
// function or class bodies, which get their own scopes.
func (b *builder) block(s *scope, n *treesit.Node) {
	for _, st := range n.Kids {
		b.stmt(s, st)
	}
}

// stmt binds the names statement st declares in scope s and walks its
// expressions and nested blocks.
func (b *builder) stmt(s *scope, st *treesit.Node) {
	switch st.Kind {
	case "decorated_definition":
		b.decorated(s, st)
	case "function_definition":
		b.funcDef(s, st, st, nil)
	case "class_definition":
		b.classDef(s, st, st, nil)
	case "expression_statement":
		for _, e := range st.NamedKids() {
			b.expr(s, e, st)
		}
	case "import_statement":
		b.importStmt(s, st)
	case "import_from_statement", "future_import_statement":
		b.importFrom(s, st)
	case "global_statement", "nonlocal_statement":
		m := &s.globals
		if st.Kind == "nonlocal_statement" {
			m = &s.nonlocals
		}
		if *m == nil {
			*m = map[string]bool{}
		}
		for _, k := range st.NamedKids() {
			if k.Kind == "identifier" {
				(*m)[b.text(k)] = true
			}
		}
	case "for_statement":
		b.loopTargets(s, st.Child("left"), st.Child("right"), st)
		b.expr(s, st.Child("right"), st)
		b.blocks(s, st)
	case "with_statement":
		b.withStmt(s, st)
		b.blocks(s, st)
	case "try_statement":
		b.exceptAliases(s, st)
		b.blocks(s, st)
	case "match_statement":
		b.expr(s, st.Child("subject"), st)
		b.casePatterns(s, st)
		b.blocks(s, st)
	case "type_alias_statement":
		b.typeAlias(s, st)
	case "if_statement", "while_statement", "elif_clause", "else_clause", "finally_clause", "block", "except_clause", "case_clause":
		for _, k := range st.Kids {
			if k.Field == "condition" {
				b.expr(s, k, st)
			}
		}
		b.blocks(s, st)
	case "return_statement", "delete_statement", "raise_statement", "assert_statement":
		for _, e := range st.NamedKids() {
			b.expr(s, e, st)
		}
	}
}

// decorated binds a decorated function or class definition, passing on
// its decorator expressions.
func (b *builder) decorated(s *scope, st *treesit.Node) {
	def := st.Child("definition")
	if def == nil {
		return
	}
	var decos []*treesit.Node
	for _, k := range st.Kids {
		if k.Kind == "decorator" {
			if e := k.NamedKids(); len(e) > 0 {
				decos = append(decos, e[0])
			}
		}
	}
	switch def.Kind {
	case "function_definition":
		b.funcDef(s, def, st, decos)
	case "class_definition":
		b.classDef(s, def, st, decos)
	}
}

// importStmt binds the names an import statement declares: the first
// component of import a.b, or the alias of import a.b as c.
func (b *builder) importStmt(s *scope, st *treesit.Node) {
	for _, k := range st.Children("name") {
		switch k.Kind {
		case "dotted_name":
			full := b.text(k)
			first, _, _ := strings.Cut(full, ".")
			// import a.b binds a; a.b is then reached as a submodule
			s.bind(&binding{kind: bImport, name: first, at: k, module: first, stmt: st})
		case "aliased_import":
			al := k.Child("alias")
			if al != nil {
				s.bind(&binding{kind: bImport, name: b.text(al), at: al, module: b.text(k.Child("name")), stmt: st})
			}
		}
	}
}

// importFrom binds the names a from-import declares, each under its alias
// if it has one; a module-level star import is recorded on the file
// (stars), as what it binds is only known from the imported module.
func (b *builder) importFrom(s *scope, st *treesit.Node) {
	mod := b.text(st.Child("module_name"))
	if st.Kind == "future_import_statement" {
		mod = "__future__"
	}
	if st.FirstOf("wildcard_import") != nil {
		if s.kind == scModule {
			b.f.stars = append(b.f.stars, st)
		}
		return
	}
	for _, k := range st.Children("name") {
		switch k.Kind {
		case "dotted_name":
			s.bind(&binding{kind: bFrom, name: b.text(k), at: k, module: mod, member: b.text(k), stmt: st})
		case "aliased_import":
			if al := k.Child("alias"); al != nil {
				s.bind(&binding{kind: bFrom, name: b.text(al), at: al, module: mod, member: b.text(k.Child("name")), stmt: st})
			}
		}
	}
}

// withStmt binds the targets of a with statement's items (with cm as x)
// and walks their context expressions.
func (b *builder) withStmt(s *scope, st *treesit.Node) {
	for _, cl := range st.Kids {
		if cl.Kind != "with_clause" {
			continue
		}
		for _, it := range cl.Kids {
			if it.Kind != "with_item" {
				continue
			}
			v := it.Child("value")
			if v != nil && v.Kind == "as_pattern" {
				vs := v.NamedKids()
				for _, al := range v.Kids {
					if al.Field != "alias" {
						continue
					}
					// with cm as x: x is what cm.__enter__ returns
					if id := al.NamedKids(); len(id) == 1 && id[0].Kind == "identifier" && len(vs) > 0 {
						s.bind(&binding{kind: bWith, name: b.text(id[0]), at: id[0], value: vs[0], stmt: st, async: st.HasToken("async")})
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
}

// exceptAliases binds the names of a try statement's except clauses
// (except E as e).
func (b *builder) exceptAliases(s *scope, st *treesit.Node) {
	for _, k := range st.Kids {
		if k.Kind == "except_clause" || k.Kind == "except_group_clause" {
			for _, e := range k.NamedKids() {
				if e.Kind == "as_pattern" {
					for _, al := range e.Kids {
						if al.Field == "alias" {
							b.targets(s, al, k, nil, nil)
						}
					}
				}
			}
		}
	}
}

// casePatterns binds the capture names of a match statement's case
// patterns (case Point(x=px), case [a, *rest], case _ as y).
func (b *builder) casePatterns(s *scope, st *treesit.Node) {
	treesit.Walk(st, func(n *treesit.Node) bool {
		if n.Kind == "case_pattern" || n.Kind == "as_pattern" || n.Kind == "keyword_pattern" {
			treesit.Walk(n, func(m *treesit.Node) bool {
				if m.Kind == "identifier" && m.Parent != nil && (m.Parent.Kind == "case_pattern" || m.Field == "alias" || m.Parent.Kind == "splat_pattern") {
					s.bind(&binding{kind: bOther, name: b.text(m), at: m, stmt: st})
				}
				return true
			})
		}
		return true
	})
}

// typeAlias binds the name a type statement declares (type T[X] = ...)
// to its right-hand side.
func (b *builder) typeAlias(s *scope, st *treesit.Node) {
	if l := st.Child("left"); l != nil {
		id := l
		if id.Kind == "type" && len(id.NamedKids()) > 0 {
			id = id.NamedKids()[0]
		}
		if id.Kind == "generic_type" {
			id = id.NamedKids()[0]
		}
		if id.Kind == "identifier" {
			s.bind(&binding{kind: bAssign, name: b.text(id), at: id, value: st.Child("right"), stmt: st})
		}
	}
}

// blocks handles the nested blocks and clauses of a compound statement.
func (b *builder) blocks(s *scope, st *treesit.Node) {
	for _, k := range st.Kids {
		switch k.Kind {
		case "block":
			b.block(s, k)
		case "elif_clause", "else_clause", "finally_clause", "except_clause", "except_group_clause", "case_clause":
			b.stmt(s, k)
		}
	}
}

// expr records the bindings an expression statement makes: assignments,
// walrus targets, and the scopes of lambdas and comprehensions in it.
func (b *builder) expr(s *scope, e *treesit.Node, stmt *treesit.Node) {
	if e == nil {
		return
	}
	switch e.Kind {
	case "assignment":
		left, right, typ := e.Child("left"), e.Child("right"), e.Child("type")
		b.targets(s, left, stmt, right, typ)
		if right != nil && right.Kind == "assignment" {
			b.expr(s, right, stmt)
			return
		}
		b.expr(s, right, stmt)
		return
	case "augmented_assignment":
		b.expr(s, e.Child("right"), stmt)
		return
	}
	treesit.Walk(e, func(n *treesit.Node) bool {
		switch n.Kind {
		case "named_expression":
			if id := n.Child("name"); id != nil {
				t := s
				for t.kind == scComp && t.parent != nil {
					t = t.parent
				}
				t.bind(&binding{kind: bAssign, name: b.text(id), at: id, value: n.Child("value"), stmt: stmt})
			}
		case "lambda":
			ls := b.f.newScope(scComp, n, s)
			if ps := n.Child("parameters"); ps != nil {
				for _, p := range parseParams(b.t, ps) {
					ls.bind(&binding{kind: bOther, name: p.name, at: n})
				}
			}
			b.expr(ls, n.Child("body"), stmt)
			return false
		case "list_comprehension", "set_comprehension", "dictionary_comprehension", "generator_expression":
			cs := b.f.newScope(scComp, n, s)
			for _, k := range n.Kids {
				if k.Kind == "for_in_clause" {
					b.loopTargets(cs, k.Child("left"), k.Child("right"), stmt)
				}
			}
			for _, k := range n.Kids {
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
func (b *builder) targets(s *scope, left, stmt, value, annot *treesit.Node) {
	if left == nil {
		return
	}
	switch left.Kind {
	case "identifier":
		name := b.text(left)
		bk := bAssign
		if value == nil && annot == nil {
			bk = bOther
		}
		if value != nil && value.Kind == "assignment" {
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
		for _, k := range left.NamedKids() {
			b.targets(s, k, stmt, nil, nil)
		}
	case "list_splat_pattern", "list_splat":
		for _, k := range left.NamedKids() {
			b.targets(s, k, stmt, nil, nil)
		}
	case "as_pattern_target":
		for _, k := range left.NamedKids() {
			b.targets(s, k, stmt, nil, nil)
		}
	}
}

// chainedValue is the value of a = b = value.
func chainedValue(n *treesit.Node) *treesit.Node {
	for n != nil && n.Kind == "assignment" {
		n = n.Child("right")
	}
	return n
}

// stringList reads a list or tuple of string literals (__all__).
func stringList(t *treesit.Tree, n *treesit.Node) ([]string, bool) {
	n = treesit.Unparen(n)
	if n == nil || n.Kind != "list" && n.Kind != "tuple" {
		return nil, false
	}
	var out []string
	for _, k := range n.NamedKids() {
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
func stringLit(t *treesit.Tree, n *treesit.Node) (string, bool) {
	if n == nil || n.Kind != "string" {
		return "", false
	}
	var sb strings.Builder
	for _, k := range n.Kids {
		switch k.Kind {
		case "interpolation":
			return "", false
		case "string_content":
			sb.WriteString(t.Text(k))
		case "string_start":
			if strings.ContainsAny(t.Text(k), "fF") {
				return "", false
			}
		}
	}
	return sb.String(), true
}

func (b *builder) classAttr(c *classInfo, name, stmt, annot, value *treesit.Node) {
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
