package golang

import (
	"go/ast"
	"go/token"
)

// binding is a declaration an identifier of a file denotes, as far as
// the file alone can tell.
type binding struct {
	// decl is the declaring node: *ast.Field (a parameter, result,
	// receiver, type parameter, struct field or interface method),
	// *ast.ValueSpec (var, const), *ast.TypeSpec, *ast.FuncDecl (a
	// package-level function), *ast.AssignStmt (a := declaration, or the
	// guard of a type switch: switch x := v.(type)) or *ast.RangeStmt
	// (for k, v := range).
	decl ast.Node
	// top says the binding is the file's package-level declaration of
	// its name: not a local one, and not a blank or repeated top-level
	// name, which no identifier can refer to.
	top bool
}

// scopes says what the identifiers of one file denote: the result of a
// scope walk over the file (resolveFile), in place of the parser's
// deprecated object resolution (ast.Ident.Obj), with the same answers:
//
//   - a declaring identifier denotes its own binding (a "_" too);
//   - a use denotes the innermost binding of its name in scope at that
//     point: block scopes, function parameters, results and receivers,
//     type parameters, :=, var, const and type declarations, range and
//     type switch bindings; and else the file's package-level
//     declaration of the name, wherever it is in the file;
//   - nothing (nil) for what the file does not declare: a name of
//     another file of the package, of an import, of the universe (int,
//     len, nil), a field or method after a dot, a label, "_" as a use,
//     and a composite literal key that names no binding in scope
//     where it is written (a key is most often a field name).
//
// A := redeclaring a name of its own scope denotes the earlier binding
// (a function's parameters and the top-level statements of its body
// share one scope). Receiver type parameters (func (T[P]) m()) hide
// outer names but denote nothing.
//
// A nil *scopes is a file whose identifiers were not resolved (a file
// parsed for its declarations only): every identifier denotes nothing.
type scopes struct {
	of map[*ast.Ident]*binding
}

// lookup is the binding id denotes, nil when the file declares none.
func (s *scopes) lookup(id *ast.Ident) *binding {
	if s == nil {
		return nil
	}
	return s.of[id]
}

// local reports whether id denotes a binding of the file other than a
// package-level declaration: a parameter, a local variable, constant or
// type, a type parameter.
func (s *scopes) local(id *ast.Ident) bool {
	b := s.lookup(id)
	return b != nil && !b.top
}

// unresolved reports whether id denotes nothing the file declares (a
// name of another file of the package, an import, the universe).
func (s *scopes) unresolved(id *ast.Ident) bool { return s.lookup(id) == nil }

// topOrUnresolved reports whether an unqualified id may denote a
// package-level declaration: of this file, or of another.
func (s *scopes) topOrUnresolved(id *ast.Ident) bool {
	b := s.lookup(id)
	return b == nil || b.top
}

// resolveFile walks f's declarations and binds each identifier to what
// it denotes (see scopes).
func resolveFile(f *ast.File) *scopes {
	r := newResolver()
	for _, d := range f.Decls {
		ast.Walk(r, d)
	}
	return r.finish()
}

// resolveFunc is resolveFile for the identifiers of fd, a function of f,
// alone (the bindings of f's other identifiers are left out): f's other
// declarations are declared in their place, not walked.
func resolveFunc(f *ast.File, fd *ast.FuncDecl) *scopes {
	r := newResolver()
	walked := false
	for _, d := range f.Decls {
		if d == fd {
			ast.Walk(r, d)
			walked = true
			continue
		}
		switch d := d.(type) {
		case *ast.GenDecl:
			for _, spec := range d.Specs {
				switch s := spec.(type) {
				case *ast.ValueSpec:
					r.declare(s, s.Names...)
				case *ast.TypeSpec:
					r.declare(s, s.Name)
				}
			}
		case *ast.FuncDecl:
			if d.Recv == nil && d.Name.Name != "init" {
				r.declare(d, d.Name)
			}
		}
	}
	if !walked {
		ast.Walk(r, fd)
	}
	return r.finish()
}

func newResolver() *resolver {
	return &resolver{s: &scopes{of: map[*ast.Ident]*binding{}}, pkg: map[string]*binding{}}
}

// finish binds the names used before (or without) a local binding in
// scope to the file's package-level declarations, wherever they are in
// the file.
func (r *resolver) finish() *scopes {
	for _, id := range r.unresolved {
		if b := r.pkg[id.Name]; b != nil {
			r.s.of[id] = b
		}
	}
	return r.s
}

// hidden stands for a receiver type parameter in a scope: it hides
// outer bindings of its name but is bound to no identifier.
var hidden = &binding{}

type resolver struct {
	s *scopes
	// pkg is the file's package scope; locals the bindings of the open
	// local scopes, innermost last, and marks where each scope starts
	// in locals (no mark open: the package scope is the current one).
	pkg        map[string]*binding
	locals     []local
	marks      []int
	unresolved []*ast.Ident
}

type local struct {
	name string
	b    *binding
}

func (r *resolver) open() { r.marks = append(r.marks, len(r.locals)) }

func (r *resolver) close() {
	n := len(r.marks) - 1
	r.locals = r.locals[:r.marks[n]]
	r.marks = r.marks[:n]
}

// current returns the binding of name in the current scope, nil if none.
func (r *resolver) current(name string) *binding {
	if len(r.marks) == 0 {
		return r.pkg[name]
	}
	for i := len(r.locals) - 1; i >= r.marks[len(r.marks)-1]; i-- {
		if r.locals[i].name == name {
			return r.locals[i].b
		}
	}
	return nil
}

// insert adds b to the current scope unless the scope already binds
// name (the first declaration stays).
func (r *resolver) insert(name string, b *binding) bool {
	if r.current(name) != nil {
		return false
	}
	if len(r.marks) == 0 {
		r.pkg[name] = b
		b.top = true
		return true
	}
	r.locals = append(r.locals, local{name, b})
	return true
}

// declare binds each identifier to a new binding of decl, in the
// current scope.
func (r *resolver) declare(decl ast.Node, ids ...*ast.Ident) {
	for _, id := range ids {
		b := &binding{decl: decl}
		r.s.of[id] = b
		if id.Name != "_" {
			r.insert(id.Name, b)
		}
	}
}

// shortVarDecl declares the identifiers on the left of a := (decl, or
// the range statement of for k, v := range): a name the current scope
// binds already is that binding (a redeclaration).
func (r *resolver) shortVarDecl(decl ast.Node, lhs []ast.Expr) {
	for _, x := range lhs {
		id, ok := x.(*ast.Ident)
		if !ok {
			continue
		}
		b := &binding{decl: decl}
		if id.Name != "_" && !r.insert(id.Name, b) {
			b = r.current(id.Name)
		}
		r.s.of[id] = b
	}
}

// resolve binds a use of a name to the innermost binding in scope; when
// there is none, collect says whether it is looked up in the package
// scope once the whole file is walked.
func (r *resolver) resolve(id *ast.Ident, collect bool) {
	if id.Name == "_" {
		return
	}
	for i := len(r.locals) - 1; i >= 0; i-- {
		if r.locals[i].name == id.Name {
			if b := r.locals[i].b; b != hidden {
				r.s.of[id] = b
			}
			return
		}
	}
	if b := r.pkg[id.Name]; b != nil {
		r.s.of[id] = b
		return
	}
	if collect {
		r.unresolved = append(r.unresolved, id)
	}
}

func (r *resolver) walk(n ast.Node) {
	if n != nil {
		ast.Walk(r, n)
	}
}

func (r *resolver) walkExprs(list []ast.Expr) {
	for _, e := range list {
		ast.Walk(r, e)
	}
}

func (r *resolver) walkStmts(list []ast.Stmt) {
	for _, s := range list {
		ast.Walk(r, s)
	}
}

// walkTypes resolves the types of a field list (its names are declared
// separately).
func (r *resolver) walkTypes(list *ast.FieldList) {
	if list == nil {
		return
	}
	for _, f := range list.List {
		r.walk(f.Type)
	}
}

func (r *resolver) declareFields(list *ast.FieldList) {
	if list == nil {
		return
	}
	for _, f := range list.List {
		r.declare(f, f.Names...)
	}
}

// funcType resolves a signature's types and declares its parameters and
// results in the current scope (type parameters are the caller's).
func (r *resolver) funcType(t *ast.FuncType) {
	r.walkTypes(t.Params)
	r.walkTypes(t.Results)
	r.declareFields(t.Params)
	r.declareFields(t.Results)
}

// typeParams declares type parameters before resolving their
// constraints, which may refer to each other.
func (r *resolver) typeParams(list *ast.FieldList) {
	r.declareFields(list)
	r.walkTypes(list)
}

// recv resolves a receiver's type; its type parameters (T[P]) are
// declared, hidden.
func (r *resolver) recv(list *ast.FieldList) {
	if list == nil || len(list.List) == 0 {
		return
	}
	typ := list.List[0].Type
	if p, ok := typ.(*ast.StarExpr); ok {
		typ = p.X
	}
	var params []ast.Expr
	switch t := typ.(type) {
	case *ast.IndexExpr:
		typ, params = t.X, []ast.Expr{t.Index}
	case *ast.IndexListExpr:
		typ, params = t.X, t.Indices
	}
	var rest []ast.Expr
	for _, p := range params {
		if id, ok := p.(*ast.Ident); ok {
			if id.Name != "_" {
				r.insert(id.Name, hidden)
			}
		} else {
			rest = append(rest, p) // invalid, resolved anyway
		}
	}
	r.walk(typ)
	r.walkExprs(rest)
	for _, f := range list.List[1:] {
		r.walk(f.Type) // an invalid second receiver, resolved anyway
	}
}

// body walks a function body's statements in the function's scope: its
// parameters and the body's top-level declarations share one scope.
func (r *resolver) body(b *ast.BlockStmt) {
	if b != nil {
		r.walkStmts(b.List)
	}
}

// Visit binds the identifiers under node: expressions and types here,
// statements in stmt, declarations in genDecl and funcDecl. It returns
// nil for a node it walked itself and r for one whose children the
// default walk may visit.
func (r *resolver) Visit(node ast.Node) ast.Visitor {
	switch n := node.(type) {
	case *ast.Ident:
		r.resolve(n, true)

	case *ast.SelectorExpr:
		r.walk(n.X) // a field or method name is not resolved

	case *ast.FuncLit:
		r.open()
		r.funcType(n.Type)
		r.body(n.Body)
		r.close()

	case *ast.FuncType:
		r.open()
		r.funcType(n)
		r.close()

	case *ast.StructType:
		r.open()
		r.walkTypes(n.Fields)
		r.declareFields(n.Fields)
		r.close()

	case *ast.InterfaceType:
		r.open()
		r.walkTypes(n.Methods)
		r.declareFields(n.Methods)
		r.close()

	case *ast.CompositeLit:
		r.compositeLit(n)

	case ast.Stmt:
		if !r.stmt(n) {
			return r
		}

	case *ast.GenDecl:
		r.genDecl(n)

	case *ast.FuncDecl:
		r.funcDecl(n)

	default:
		return r
	}
	return nil
}

// compositeLit walks a composite literal, resolving a key only where a
// binding of its name is in scope: a key is most often a field name.
func (r *resolver) compositeLit(n *ast.CompositeLit) {
	r.walk(n.Type)
	for _, e := range n.Elts {
		kv, ok := e.(*ast.KeyValueExpr)
		if !ok {
			r.walk(e)
			continue
		}
		// a key is most often a field name: bound only when a
		// binding of its name is in scope where it is written
		if id, ok := kv.Key.(*ast.Ident); ok {
			r.resolve(id, false)
		} else {
			r.walk(kv.Key)
		}
		r.walk(kv.Value)
	}
}

// stmt walks a statement that opens a scope or binds names (blocks, if,
// switch, select, for and range, :=) or whose names are not resolved
// (labels, branches). It reports false for any other statement, whose
// children the default walk visits.
func (r *resolver) stmt(node ast.Stmt) bool {
	switch n := node.(type) {
	case *ast.LabeledStmt:
		r.walk(n.Stmt) // labels are not bound

	case *ast.BranchStmt:

	case *ast.AssignStmt:
		r.walkExprs(n.Rhs)
		if n.Tok == token.DEFINE {
			r.shortVarDecl(n, n.Lhs)
		} else {
			r.walkExprs(n.Lhs)
		}

	case *ast.BlockStmt:
		r.open()
		r.walkStmts(n.List)
		r.close()

	case *ast.IfStmt:
		r.open()
		r.walk(n.Init)
		r.walk(n.Cond)
		r.walk(n.Body)
		r.walk(n.Else)
		r.close()

	case *ast.CaseClause:
		r.walkExprs(n.List)
		r.open()
		r.walkStmts(n.Body)
		r.close()

	case *ast.SwitchStmt:
		r.open()
		r.walk(n.Init)
		r.walk(n.Tag)
		if n.Body != nil {
			r.walkStmts(n.Body.List)
		}
		r.close()

	case *ast.TypeSwitchStmt:
		// the guard's x (switch x := v.(type)) is one binding for every
		// clause
		r.open()
		r.walk(n.Init)
		r.open()
		r.walk(n.Assign)
		if n.Body != nil {
			r.walkStmts(n.Body.List)
		}
		r.close()
		r.close()

	case *ast.CommClause:
		r.open()
		r.walk(n.Comm)
		r.walkStmts(n.Body)
		r.close()

	case *ast.SelectStmt:
		if n.Body != nil {
			r.walkStmts(n.Body.List)
		}

	case *ast.ForStmt:
		r.open()
		r.walk(n.Init)
		r.walk(n.Cond)
		r.walk(n.Post)
		r.walk(n.Body)
		r.close()

	case *ast.RangeStmt:
		r.rangeStmt(n)

	default:
		return false
	}
	return true
}

// rangeStmt walks a range loop in a scope of its own: the ranged
// expression first, then the key and value, bound when declared with :=.
func (r *resolver) rangeStmt(n *ast.RangeStmt) {
	r.open()
	r.walk(n.X)
	var lhs []ast.Expr
	for _, e := range []ast.Expr{n.Key, n.Value} {
		if e != nil {
			lhs = append(lhs, e)
		}
	}
	if n.Tok == token.DEFINE {
		for _, e := range lhs {
			if _, ok := ast.Unparen(e).(*ast.Ident); !ok {
				r.walk(e) // invalid, resolved anyway
			}
		}
		r.shortVarDecl(n, lhs)
	} else {
		r.walkExprs(lhs)
	}
	r.walk(n.Body)
	r.close()
}

// genDecl declares a var, const or type declaration's names: a value's
// after its values and type are walked, a type's before its definition,
// in which its name is in scope.
func (r *resolver) genDecl(n *ast.GenDecl) {
	for _, spec := range n.Specs {
		switch s := spec.(type) {
		case *ast.ValueSpec:
			r.walkExprs(s.Values)
			r.walk(s.Type)
			r.declare(s, s.Names...)
		case *ast.TypeSpec:
			// the type's name is in scope in its own definition
			r.declare(s, s.Name)
			r.open()
			r.typeParams(s.TypeParams)
			r.walk(s.Type)
			r.close()
		}
		// an import's name is not resolved: the file scope of
		// imports is the caller's (pfile.imports)
	}
}

// funcDecl walks a function declaration in the scope of its receiver,
// type parameters, parameters and results, and then declares its name.
func (r *resolver) funcDecl(n *ast.FuncDecl) {
	r.open()
	r.recv(n.Recv)
	r.typeParams(n.Type.TypeParams)
	r.walkTypes(n.Type.Params)
	r.walkTypes(n.Type.Results)
	r.declareFields(n.Recv)
	r.declareFields(n.Type.Params)
	r.declareFields(n.Type.Results)
	r.body(n.Body)
	r.close()
	// a function is declared at the package level after its body (a
	// method or init not at all)
	if n.Recv == nil && n.Name.Name != "init" {
		r.declare(n, n.Name)
	}
}
