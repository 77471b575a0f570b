package golang

import (
	"context"
	"fmt"
	"go/ast"

	"github.com/ripple-dev/ripple/internal/lang"
	"github.com/ripple-dev/ripple/internal/model"
)

// What the syntactic tier sees of a method added to an interface. The
// type checker finds every type that no longer implements it where it is
// used as one; without it (-precision syntax, a spent time budget, a
// package that could not be checked) the syntax still shows the types
// that claim to implement it: `var _ I = T{}` / `(*T)(nil)`, a variable
// of the interface's type initialised with a T, a T returned as an I, a
// T in a []I literal, a conversion I(T{}). Each such type of the
// repository whose declared methods (through embedded types the index
// knows) lack the new method is reported at its declaration: an error
// when nothing it embeds could promote the method, else a warning that
// says what the syntax could not settle.

// claimedImpls returns the findings for one use of an interface that
// gained a method: the types the use's context claims implement it.
// done holds the types already reported.
func (sr *implSearch) claimedImpls(r *ref, done map[tref]bool) []*lang.Ref {
	if r.id == nil || r.t.ch.New == nil || len(r.stack) == 0 {
		return nil
	}
	method := r.t.ch.New.Name
	iface := r.t.name
	var exprs []ast.Expr
	// the node that holds the interface's name as a type, and its parent
	i := len(r.stack) - 1
	if r.stack[i] == ast.Node(r.id) {
		i--
	}
	var typ ast.Node = r.id
	if i < 0 {
		return nil
	}
	if sel, ok := r.stack[i].(*ast.SelectorExpr); ok && sel.Sel == r.id {
		typ, i = sel, i-1
	}
	if i < 0 {
		return nil
	}
	switch p := r.stack[i].(type) {
	case *ast.ValueSpec: // var _ I = T{}
		if p.Type == typ {
			exprs = append(exprs, p.Values...)
		}
	case *ast.ArrayType: // []I{T{}, &U{}}
		if p.Elt == typ && i > 0 {
			if lit, ok := r.stack[i-1].(*ast.CompositeLit); ok && lit.Type == p {
				for _, e := range lit.Elts {
					if kv, ok := e.(*ast.KeyValueExpr); ok {
						e = kv.Value
					}
					exprs = append(exprs, e)
				}
			}
		}
	case *ast.CallExpr: // I(T{})
		if p.Fun == typ && len(p.Args) == 1 {
			exprs = append(exprs, p.Args[0])
		}
	case *ast.Field: // func f() I { return T{} }
		if i >= 2 {
			if fl, ok := r.stack[i-1].(*ast.FieldList); ok {
				if ft, ok := r.stack[i-2].(*ast.FuncType); ok && ft.Results == fl && len(fl.List) == 1 && len(p.Names) <= 1 {
					exprs = append(exprs, returned(r.stack[:i-1])...)
				}
			}
		}
	}
	var out []*lang.Ref
	for _, e := range exprs {
		tr := sr.syms.exprType(e, r.f, 0) // (*T)(nil) reads as T
		if tr == nil || done[*tr] {
			continue
		}
		ts := sr.syms.lookupType(tr)
		if ts == nil || len(ts.iface)+len(ts.ifaceEm) > 0 {
			continue // not a type of the repository, or an interface itself
		}
		sr.indexPackage(ts.file)
		if sr.syms.methodOf(tr, method, 0) != nil {
			continue
		}
		done[*tr] = true
		p := sr.ix.fset.PositionFor(e.Pos(), false)
		where := fmt.Sprintf("%s:%d", p.Filename, p.Line)
		typName, ifaceName := apart(tr.name, tr.pkg, iface, r.t.pkgKey)
		v := verdict{rel: model.OverriddenBy, v: model.Inconsistent,
			msg: fmt.Sprintf("%s no longer implements %s, as it must where it is used at %s: it declares no method %s", typName, ifaceName, where, method)}
		if open := sr.openEmbeds(tr); open != "" {
			v = verdict{rel: model.OverriddenBy, v: model.MayBeImpacted,
				msg: fmt.Sprintf("%s may no longer implement %s, as it must where it is used at %s: it declares no method %s, unless %s promotes one", typName, ifaceName, where, method, open)}
		}
		site := &ref{t: r.t, f: ts.file, id: ts.spec.Name, stack: stackAt(ts.file.ast, ts.spec.Name.Pos()), prec: model.PrecisionSyntax}
		out = append(out, sr.ix.finding(site, v, model.PrecisionSyntax))
	}
	return out
}

// returned are the values the innermost function on the stack returns.
func returned(stack []ast.Node) []ast.Expr {
	var body *ast.BlockStmt
	for j := len(stack) - 1; j >= 0 && body == nil; j-- {
		switch fn := stack[j].(type) {
		case *ast.FuncDecl:
			body = fn.Body
		case *ast.FuncLit:
			body = fn.Body
		}
	}
	if body == nil {
		return nil
	}
	var out []ast.Expr
	ast.Inspect(body, func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.ReturnStmt:
			if len(x.Results) == 1 {
				out = append(out, x.Results[0])
			}
		}
		return true
	})
	return out
}

// implSearch finds the types that implement an interface, or may have:
// the candidates of an added method (implcands.go), the types the
// syntax shows used as the interface (claimedImpls), and where an
// implementation error's fix belongs (implements.go). It completes the
// symbol index package by package as it goes (indexPackage), and reads
// nothing else of the analyzer.
type implSearch struct {
	ctx  context.Context
	ix   *index
	syms *symbols
	// indexedDirs are the package directories whose every file is in
	// syms
	indexedDirs map[string]bool
}

// indexPackage makes sure every file of f's package is in the symbol
// index, so that a method declared in another file is seen.
func (sr *implSearch) indexPackage(f *pfile) {
	if f == nil || sr.indexedDirs[f.dir] {
		return
	}
	sr.indexedDirs[f.dir] = true
	for _, g := range sr.ix.parseDecls(sr.ctx, sr.ix.byDir[f.dir]) {
		if g.pkgName == f.pkgName {
			sr.syms.add(g)
		}
	}
}

// openEmbeds names an embedded type of t (or of the types it embeds)
// whose methods the index does not know, "" when there is none.
func (sr *implSearch) openEmbeds(t *tref) string {
	var open string
	var walk func(t *tref, depth int)
	walk = func(t *tref, depth int) {
		ts := sr.syms.lookupType(t)
		if ts == nil || depth > 4 || open != "" {
			return
		}
		for _, em := range ts.embeds {
			r := sr.syms.typeRef(em.expr, em.file)
			if r == nil || sr.syms.lookupType(r) == nil {
				open = "its embedded " + exprString(em.expr)
				return
			}
			sr.indexPackage(sr.syms.lookupType(r).file)
			walk(r, depth+1)
		}
	}
	walk(t, 0)
	return open
}
