package python

import (
	"strings"
)

// pfile is one parsed Python file with its scopes, classes and functions.
// Both front-end jobs read it: Decls turns it into declarations, the
// analyzer resolves names through it.
type pfile struct {
	path    string
	t       *tree
	top     *scope
	scopes  map[*node]*scope // function, lambda, class or comprehension node -> its scope
	classes []*classInfo     // every class, nested ones included, in source order
	funcs   []*funcInfo      // every function and method, in source order
	classAt map[*node]*classInfo
	funcAt  map[*node]*funcInfo
	// all is the literal value of __all__ (hasAll when it is one).
	all    []string
	hasAll bool
	allAt  *node
	// stars are the module-level `from x import *` statements.
	stars []*node
	// dynamic is set when the module defines __getattr__ (PEP 562): a
	// missing attribute may still be found at run time.
	dynamic bool
}

// scopeKind is what introduces a scope.
type scopeKind int

const (
	scModule scopeKind = iota
	scClass
	scFunc
	scComp // lambda or comprehension
)

// scope is one Python namespace. Names are looked up LEGB: a function
// scope's parent chain skips class scopes, as in Python.
type scope struct {
	kind      scopeKind
	node      *node
	parent    *scope
	names     map[string][]*binding
	globals   map[string]bool
	nonlocals map[string]bool
	cls       *classInfo // class scopes
	fn        *funcInfo  // function scopes
	file      *pfile
}

// bindKind is what binds a name.
type bindKind int

const (
	bDef      bindKind = iota // def
	bClass                    // class
	bImport                   // import a.b.c (binds a) / import a.b as x (binds x)
	bFrom                     // from m import n [as x]
	bAssign                   // x = value / x: T = value
	bParam                    // a function parameter
	bOther                    // for targets, with ... as, except ... as, match captures: type unknown
)

// binding is one place that binds a name in a scope.
type binding struct {
	kind  bindKind
	name  string
	at    *node // the identifier bound (or the statement)
	fn    *funcInfo
	cls   *classInfo
	value *node // bAssign: the assigned expression
	annot *node // bAssign, bParam: the annotation
	param int   // bParam: index in fn.params
	// imports: module is the dotted module as written (relative imports
	// keep their dots), member the imported name ("" for import a.b),
	// full the dotted path bound by `import a.b as x` or `import a.b`.
	module, member string
	stmt           *node
}

// pkind is a parameter's kind, as in inspect.Parameter.
type pkind int

const (
	posOnly pkind = iota
	posKw
	varArgs
	kwOnly
	varKw
)

func (k pkind) String() string {
	switch k {
	case posOnly:
		return "positional-only"
	case posKw:
		return "positional-or-keyword"
	case varArgs:
		return "*args"
	case kwOnly:
		return "keyword-only"
	}
	return "**kwargs"
}

// param is one parameter of a function, with texts only (no syntax), so
// that signatures of the base and head states compare directly.
type param struct {
	name    string
	kind    pkind
	hasDef  bool
	def     string // default value source, canonical tokens
	annot   string // annotation source, canonical tokens
	annotAt *node  // annotation node (in the file the function was read from)
}

// funcInfo is one def.
type funcInfo struct {
	file       *pfile
	node       *node // function_definition
	outer      *node // decorated_definition when decorated, else node
	name, qual string
	cls        *classInfo // enclosing class, for methods
	parentFn   *funcInfo  // enclosing function, for nested functions
	decorators []*node    // decorator expressions
	decoNames  []string   // their callee texts without arguments ("functools.wraps")
	params     []param
	returns    *node
	async      bool
	static     bool
	classm     bool
	property   bool // property, cached_property, or a setter/deleter of one
	overload   bool
	fixture    bool // a pytest fixture
	scope      *scope
	typeParams string
}

// classInfo is one class statement.
type classInfo struct {
	file       *pfile
	node       *node
	outer      *node
	name, qual string
	parentCls  *classInfo
	bases      []*node // positional superclass expressions
	keywords   []*node // keyword_argument nodes of the class header (metaclass=...)
	decorators []*node
	decoNames  []string
	methods    map[string]*funcInfo
	attrs      map[string]*attrInfo
	attrOrder  []*attrInfo // class-level annotated or assigned names, in order
	scope      *scope
	typeParams string
}

// attrInfo is a class attribute: a class-level assignment or annotation,
// or an attribute assigned through self in a method.
type attrInfo struct {
	name     string
	at       *node // the name (identifier, or the attribute's name)
	stmt     *node // the assignment or expression statement
	annot    *node
	value    *node
	instance bool // assigned through self in a method
	scope    *scope
	order    int
}

// summarize builds the summary of a parsed file.
func summarize(path string, t *tree) *pfile {
	f := &pfile{path: path, t: t, scopes: map[*node]*scope{}, classAt: map[*node]*classInfo{}, funcAt: map[*node]*funcInfo{}}
	f.top = f.newScope(scModule, t.root, nil)
	b := &builder{f: f, t: t}
	b.block(f.top, t.root)
	for _, c := range f.classes {
		b.selfAttrs(c)
	}
	return f
}

func (f *pfile) newScope(k scopeKind, n *node, parent *scope) *scope {
	s := &scope{kind: k, node: n, parent: parent, names: map[string][]*binding{}, file: f}
	f.scopes[n] = s
	return s
}

func (s *scope) bind(b *binding) {
	s.names[b.name] = append(s.names[b.name], b)
}

type builder struct {
	f *pfile
	t *tree
}

func (b *builder) text(n *node) string { return b.t.text(n) }

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
		b.targets(s, st.child("left"), st, nil, nil)
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
					for _, al := range v.kids {
						if al.field == "alias" {
							b.targets(s, al, st, nil, nil)
						}
					}
					if vs := v.namedKids(); len(vs) > 0 {
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
					b.targets(cs, k.child("left"), stmt, nil, nil)
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
			b.f.allAt = stmt
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
		fi.typeParams = b.t.tokens(tp, nil)
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
	s.bind(&binding{kind: bDef, name: fi.name, at: nameN, fn: fi, stmt: outer})
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
		c.typeParams = b.t.tokens(tp, nil)
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
				p.annot, p.annotAt = t.tokens(ty, nil), ty
			}
		case "default_parameter", "typed_default_parameter":
			p.name = t.text(k.child("name"))
			p.hasDef = true
			p.def = t.tokens(k.child("value"), nil)
			if ty := k.child("type"); ty != nil {
				p.annot, p.annotAt = t.tokens(ty, nil), ty
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

// scopeAt returns the innermost scope that contains node n (n itself
// excluded when it is a scope node: its header belongs outside).
func (f *pfile) scopeAt(n *node) *scope {
	for p := n.parent; p != nil; p = p.parent {
		if s, ok := f.scopes[p]; ok {
			// a def's decorators, defaults and annotations belong to the
			// enclosing scope; only its body is inside
			if p.kind == "function_definition" || p.kind == "class_definition" {
				if !within(n, p.child("body")) {
					continue
				}
			}
			return s
		}
	}
	return f.top
}

func within(n, anc *node) bool {
	if anc == nil {
		return false
	}
	return n.start >= anc.start && n.end <= anc.end
}
