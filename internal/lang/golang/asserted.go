package golang

import (
	"go/ast"
	"go/token"
	"go/types"
	"strings"
)

// assertError reports whether a call's single result is type-asserted (or
// type-switched on) while the result's new type is not an interface: a
// pointer, slice, array, map, channel, function, struct or basic type
// by its syntax, or a named type that the index declares as one of
// those (testify 3ebf1ddaeb: T() TestingT -> T() *testing.T, and
// `s.T().(mock.TestingT)` no longer compiles). Aliases and types
// defined on other named types are left to the type checker.
func (a syntaxRules) assertError(r *ref, of, nf *funcInfo) bool {
	if len(of.Results) != 1 || len(nf.Results) != 1 || of.Results[0].Type == nf.Results[0].Type ||
		!a.notInterfaceIn(nf) {
		return false
	}
	i := len(r.stack) - 1
	for i >= 0 && r.stack[i] != r.call {
		i--
	}
	for i > 0 {
		if _, ok := r.stack[i-1].(*ast.ParenExpr); !ok {
			break
		}
		i--
	}
	if i <= 0 {
		return false
	}
	ta, ok := r.stack[i-1].(*ast.TypeAssertExpr)
	return ok && ta.X == r.stack[i]
}

// notInterfaceIn reports whether the single result of function fi is
// known not to be an interface: by its syntax, or as a named type the
// declaring file resolves to a non-interface type declaration.
func (a syntaxRules) notInterfaceIn(fi *funcInfo) bool {
	typ := fi.Results[0].Type
	if notInterface(typ) {
		return true
	}
	if fi.File == nil || fi.Fset == nil {
		return false
	}
	pf := a.ix.parsedFile(fi.Fset.PositionFor(fi.File.Pos(), false).Filename)
	if pf == nil {
		return false
	}
	var t *tref
	if q, n, ok := strings.Cut(typ, "."); ok {
		if ip, ok := pf.imports[q]; ok && token.IsIdentifier(n) {
			t = &tref{ip, n}
		}
	} else if token.IsIdentifier(typ) && types.Universe.Lookup(typ) == nil {
		t = &tref{pf.pkgKey, typ}
	}
	ts := a.syms.lookupAny(t)
	if t == nil || ts == nil || ts.spec == nil || ts.spec.Assign.IsValid() {
		return false
	}
	switch ts.spec.Type.(type) {
	case *ast.StructType, *ast.ArrayType, *ast.MapType, *ast.ChanType, *ast.FuncType, *ast.StarExpr:
		return true
	}
	return false
}

// notInterface reports a type expression that no interface can be: a
// composite type literal or a basic type's name.
func notInterface(typ string) bool {
	for _, p := range []string{"*", "[", "map[", "chan ", "chan<-", "<-chan", "func(", "struct{", "struct {"} {
		if strings.HasPrefix(typ, p) {
			return true
		}
	}
	switch typ {
	case "bool", "string", "int", "int8", "int16", "int32", "int64", "uint", "uint8", "uint16", "uint32", "uint64",
		"uintptr", "byte", "rune", "float32", "float64", "complex64", "complex128":
		return true
	}
	return false
}
