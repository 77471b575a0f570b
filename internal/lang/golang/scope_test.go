package golang

import (
	"go/ast"
	"go/parser"
	"go/token"
	"testing"
)

// scopeCase is a file resolved by resolveFile, with its identifiers
// found by name and occurrence.
type scopeCase struct {
	t    *testing.T
	fset *token.FileSet
	f    *ast.File
	sc   *scopes
}

func resolved(t *testing.T, src string) *scopeCase {
	t.Helper()
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "p.go", src, parseMode)
	if err != nil {
		t.Fatal(err)
	}
	return &scopeCase{t: t, fset: fset, f: f, sc: resolveFile(f)}
}

// id is the i-th identifier named name (from 0, in source order).
func (c *scopeCase) id(name string, i int) *ast.Ident {
	c.t.Helper()
	n := 0
	for _, id := range idents(c.f) {
		if id.Name == name {
			if n == i {
				return id
			}
			n++
		}
	}
	c.t.Fatalf("no identifier %s #%d", name, i)
	return nil
}

func (c *scopeCase) where(name string, i int) string {
	return c.fset.Position(c.id(name, i).Pos()).String() + " " + name
}

// same: name #i and name #j denote one binding.
func (c *scopeCase) same(name string, i, j int) {
	c.t.Helper()
	a, b := c.sc.lookup(c.id(name, i)), c.sc.lookup(c.id(name, j))
	if a == nil || a != b {
		c.t.Errorf("%s and #%d: want one binding, got %+v and %+v", c.where(name, i), j, a, b)
	}
}

// differ: name #i and name #j denote different bindings.
func (c *scopeCase) differ(name string, i, j int) {
	c.t.Helper()
	a, b := c.sc.lookup(c.id(name, i)), c.sc.lookup(c.id(name, j))
	if a == b {
		c.t.Errorf("%s and #%d: want different bindings, both %+v", c.where(name, i), j, a)
	}
}

// is: name #i is local, top (package-level) or unresolved, and, when
// bound, declared by a node of decl's type.
func (c *scopeCase) is(name string, i int, want string, decl ast.Node) {
	c.t.Helper()
	id := c.id(name, i)
	got := "unresolved"
	switch {
	case c.sc.local(id):
		got = "local"
	case !c.sc.unresolved(id):
		got = "top"
	}
	if got != want {
		c.t.Errorf("%s: %s, want %s", c.where(name, i), got, want)
		return
	}
	if b := c.sc.lookup(id); b != nil && decl != nil && typeOf(b.decl) != typeOf(decl) {
		c.t.Errorf("%s: declared by %T, want %T", c.where(name, i), b.decl, decl)
	}
	if c.sc.topOrUnresolved(id) != (got != "local") {
		c.t.Errorf("%s: topOrUnresolved disagrees with %s", c.where(name, i), got)
	}
}

func typeOf(n ast.Node) string {
	switch n.(type) {
	case *ast.Field:
		return "Field"
	case *ast.ValueSpec:
		return "ValueSpec"
	case *ast.TypeSpec:
		return "TypeSpec"
	case *ast.FuncDecl:
		return "FuncDecl"
	case *ast.AssignStmt:
		return "AssignStmt"
	case *ast.RangeStmt:
		return "RangeStmt"
	}
	return "?"
}

var (
	field  = &ast.Field{}
	value  = &ast.ValueSpec{}
	tspec  = &ast.TypeSpec{}
	fdecl  = &ast.FuncDecl{}
	assign = &ast.AssignStmt{}
	rng    = &ast.RangeStmt{}
)

func TestScopeShadowing(t *testing.T) {
	c := resolved(t, `package p

var x int

func f(y int) int {
	_ = x
	x := y
	{
		x := "s"
		_ = x
		var y = x
		_ = y
	}
	_ = x
	_ = y
	return z
}

var z = x
`)
	c.is("x", 0, "top", value)        // var x
	c.is("x", 1, "top", value)        // _ = x, before the local x
	c.is("x", 2, "local", assign)     // x := y
	c.is("y", 1, "local", field)      // := y: the parameter
	c.differ("x", 2, 3)               // x := "s" in a block: a new x
	c.same("x", 3, 4)                 // _ = x in the block
	c.is("y", 2, "local", value)      // var y = x in the block
	c.same("x", 4, 5)                 // = x: the block's x
	c.same("y", 2, 3)                 // _ = y in the block
	c.same("x", 2, 6)                 // _ = x after the block: f's x
	c.same("y", 0, 4)                 // _ = y after the block: the parameter
	c.is("z", 0, "top", value)        // used before its declaration
	c.same("z", 0, 1)                 // and its declaration
	c.same("x", 0, 7)                 // var z = x: the package's
	c.is("f", 0, "top", fdecl)        // a function
	c.is("int", 0, "unresolved", nil) // the universe
}

func TestScopeClosures(t *testing.T) {
	c := resolved(t, `package p

func f(a int) func(int) int {
	g := func(b int) int {
		c := a + b
		return c + later
	}
	later := 2
	_ = b
	return g
}
`)
	c.is("a", 1, "local", field) // a in the literal: f's parameter
	c.same("a", 0, 1)
	c.is("b", 1, "local", field) // the literal's parameter
	c.same("b", 0, 1)
	c.is("c", 0, "local", assign)
	c.same("c", 0, 1)
	c.is("later", 0, "unresolved", nil) // declared after the literal: not that local
	c.is("later", 1, "local", assign)
	c.is("b", 2, "unresolved", nil) // the literal's parameter is out of scope
	c.is("g", 1, "local", assign)
}

func TestScopeTypeSwitch(t *testing.T) {
	c := resolved(t, `package p

func f(x any) int {
	switch v := x.(type) {
	case int:
		return v
	case string:
		n := len(v)
		return n
	}
	switch y := 1; v := x.(type) {
	case bool:
		_ = v
		return y
	}
	return v
}
`)
	c.is("v", 0, "local", assign) // the guard
	c.same("v", 0, 1)             // case int
	c.same("v", 0, 2)             // case string: one binding for every clause
	c.is("n", 1, "local", assign)
	c.is("v", 3, "local", assign)
	c.differ("v", 0, 3)             // another switch's guard
	c.same("v", 3, 4)               //
	c.is("y", 1, "local", assign)   // the init's binding
	c.is("v", 5, "unresolved", nil) // after the switches
}

func TestScopeRange(t *testing.T) {
	c := resolved(t, `package p

func f(xs []int) (sum int) {
	i := -1
	for i, x := range xs {
		sum += i * x
	}
	for i = range xs {
	}
	for _, x := range xs {
		_ = x
	}
	return sum + i + x
}
`)
	c.is("i", 0, "local", assign)
	c.is("i", 1, "local", rng) // for i, x := range: new bindings
	c.differ("i", 0, 1)
	c.same("i", 1, 2)
	c.same("x", 0, 1)
	c.is("x", 0, "local", rng)
	c.same("i", 0, 3)   // for i = range: the outer i
	c.differ("x", 0, 2) // another loop's x
	c.same("x", 2, 3)
	c.is("_", 0, "local", rng) // a declared blank is bound to its own
	c.same("sum", 0, 1)        // a named result
	c.is("sum", 0, "local", field)
	c.same("i", 0, 4)               // after the loops: the first i
	c.is("x", 4, "unresolved", nil) // no x in scope
}

func TestScopeRedeclaration(t *testing.T) {
	c := resolved(t, `package p

func g() (int, error) { return 0, nil }

func f(err error) error {
	a, err := g()
	b, err := g()
	if err != nil {
		c, err := g()
		_ = c
		return err
	}
	_, _ = a, b
	return err
}
`)
	c.is("err", 0, "local", field)
	// the parameter and the body's statements share a scope: both :=
	// redeclare the parameter
	c.same("err", 0, 1)
	c.same("err", 0, 2)
	c.same("err", 0, 3) // if err != nil
	c.is("err", 4, "local", assign)
	c.differ("err", 0, 4) // := in the if's block: a new err
	c.same("err", 4, 5)
	c.same("err", 0, 6)
	c.is("a", 0, "local", assign)
	c.same("a", 0, 1)
	c.is("g", 1, "top", fdecl)
}

func TestScopeOther(t *testing.T) {
	c := resolved(t, `package p

import alias "strings"

type T struct{ k, v int }

type I interface{ M(k int) }

type S[E any] struct{ e E }

type (
	G[P any] struct{ p P }
	H int
)

func (s S[E]) Get(E E) E { return s.e }

func init() {}

func (T) M(k int) {}

func f[E any](x E) E {
	k := 1
	_ = T{k: k, v: v}
	_ = alias.ToUpper
	var h H
	_ = h
	return x
}

var v = 2

var _ = T{v: v}
`)
	c.is("alias", 1, "unresolved", nil) // an import
	c.is("ToUpper", 0, "unresolved", nil)
	c.is("k", 0, "local", field) // a struct field's declaration
	c.is("k", 1, "local", field) // a parameter of an interface method
	// receiver type parameters hide the package's names and denote
	// nothing
	c.is("E", 2, "unresolved", nil) // S[E] of the receiver
	c.is("E", 3, "local", field)    // the parameter named E
	// the signature's types are resolved before its parameters are
	// declared: E is the receiver's, hidden
	c.is("E", 4, "unresolved", nil)
	c.is("E", 5, "unresolved", nil)
	c.is("e", 1, "unresolved", nil) // s.e: a field after a dot
	c.is("Get", 0, "unresolved", nil)
	c.is("M", 1, "unresolved", nil) // a method
	c.is("init", 0, "unresolved", nil)
	c.is("E", 6, "local", field) // f's type parameter
	c.same("E", 6, 7)
	c.same("E", 6, 8)
	// a composite literal key is bound when a binding of its name is in
	// scope where it is written: here the local k, not v (declared
	// later), and after v's declaration, v
	c.is("k", 5, "local", assign)
	c.same("k", 4, 5)
	c.is("v", 1, "unresolved", nil)
	c.is("v", 2, "top", value) // the value v: the package's
	c.is("v", 4, "top", value) // the key, after var v
	// each type of a group is declared where it is written (the parser
	// declared H in G's type parameter scope)
	c.is("H", 0, "top", tspec)
	c.same("H", 0, 1)
	c.is("P", 1, "local", field)
}

func TestScopeFunc(t *testing.T) {
	c := resolved(t, `package p

func a(x int) int { return x + b(x) }

func b(y int) int { return y }
`)
	var fa *ast.FuncDecl
	for _, d := range c.f.Decls {
		if fd, ok := d.(*ast.FuncDecl); ok && fd.Name.Name == "a" {
			fa = fd
		}
	}
	fs := resolveFunc(c.f, fa)
	for _, id := range idents(fa) {
		fb, b := fs.lookup(id), c.sc.lookup(id)
		if (fb == nil) != (b == nil) || fb != nil && (fb.top != b.top || fb.decl != b.decl) {
			t.Errorf("%s: resolveFunc %+v, resolveFile %+v", id.Name, fb, b)
		}
	}
	if b := fs.lookup(c.id("b", 0)); b == nil || !b.top {
		t.Errorf("b, declared after a: %+v, want the package's", b)
	}
	if fs.lookup(c.id("y", 0)) != nil {
		t.Error("resolveFunc bound an identifier of another function")
	}
}

func TestScopeNil(t *testing.T) {
	var sc *scopes
	id := ast.NewIdent("x")
	if sc.lookup(id) != nil || sc.local(id) || !sc.unresolved(id) || !sc.topOrUnresolved(id) {
		t.Error("a file not resolved must leave every identifier unresolved")
	}
}
