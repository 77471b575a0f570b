package golang

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"strings"

	"github.com/ripple-dev/ripple/internal/model"
)

// narrowedPassedOn says when a field whose type changed from an empty
// interface to a concrete type is passed on, as an argument, to an
// interface parameter of a function of the repository: the call
// compiles, but the callee now always gets the new type where it got
// whatever was stored before, and a callee that tells dynamic types
// apart (a type switch) may take another branch (gorm a16db07945:
// join.On interface{} -> *clause.Where, passed to BuildCondition's
// ...interface{}, which switched on *DB). Only callees of the
// repository whose body has a type switch or assertion: the standard
// library's (fmt, log) and the others only pass it on or print it.
func (tv *typeVerdicts) narrowedPassedOn(r *ref) string {
	if r.t.ch.Label != model.MF || r.kind != rkValue || r.id == nil || r.t.old == nil || r.t.new == nil {
		return ""
	}
	of, _ := r.t.old.Data.(*fieldInfo)
	nf, _ := r.t.new.Data.(*fieldInfo)
	if of == nil || nf == nil || !emptyIface(of.Type) || !notInterface(nf.Type) {
		return ""
	}
	n := len(r.stack)
	if n < 3 {
		return ""
	}
	sel, ok := r.stack[n-2].(*ast.SelectorExpr)
	if !ok || sel.Sel != r.id {
		return ""
	}
	var arg ast.Node = sel
	i := n - 3
	for i >= 0 {
		if _, ok := r.stack[i].(*ast.ParenExpr); !ok {
			break
		}
		arg = r.stack[i]
		i--
	}
	if i < 0 {
		return ""
	}
	call, ok := r.stack[i].(*ast.CallExpr)
	if !ok {
		return ""
	}
	at := -1
	for j, a := range call.Args {
		if a == arg {
			at = j
		}
	}
	if at < 0 {
		return ""
	}
	for _, u := range tv.byFile[r.f.path] {
		sig, ok := u.info.TypeOf(call.Fun).(*types.Signature)
		if !ok {
			continue
		}
		var pt types.Type
		np := sig.Params().Len()
		switch {
		case sig.Variadic() && at >= np-1 && !call.Ellipsis.IsValid():
			if sl, ok := sig.Params().At(np - 1).Type().(*types.Slice); ok {
				pt = sl.Elem()
			}
		case at < np:
			pt = sig.Params().At(at).Type()
		}
		if pt == nil || !types.IsInterface(pt) {
			return ""
		}
		var callee types.Object
		switch fn := ast.Unparen(call.Fun).(type) {
		case *ast.Ident:
			callee = u.info.Uses[fn]
		case *ast.SelectorExpr:
			callee = u.info.Uses[fn.Sel]
		}
		if callee == nil || callee.Pkg() == nil || !tv.a.ix.mods.inRepo(callee.Pkg().Path()) || !tv.tellsTypesApart(callee) {
			return ""
		}
		return fmt.Sprintf("passes %s on to %s as an interface value: the call compiles, but %s tells dynamic types apart and now always gets a %s (it was %s)", r.t.decl().Display, callee.Name(), callee.Name(), nf.Type, of.Type)
	}
	return ""
}

// tellsTypesApart reports whether the declaration of function fn has a
// type switch or a type assertion in its body. A body the index parsed
// stripped (it names none of the change's words) is read from the
// file's source, parsed whole once more.
func (tv *typeVerdicts) tellsTypesApart(fn types.Object) bool {
	pos := tv.a.ix.fset.PositionFor(fn.Pos(), false)
	pf := tv.a.ix.parsedFile(pos.Filename)
	if pf == nil || pf.ast == nil {
		return false
	}
	file, fset := pf.ast, tv.a.ix.fset
	if len(pf.stripped) > 0 {
		fset = token.NewFileSet()
		f, err := parser.ParseFile(fset, pf.path, pf.src, parser.SkipObjectResolution)
		if f == nil || err != nil {
			return false
		}
		file = f
	}
	for _, d := range file.Decls {
		fd, ok := d.(*ast.FuncDecl)
		// the checker may have read another parse of the file: the
		// declaration is matched by name and line
		if !ok || fd.Name.Name != fn.Name() || fd.Body == nil || fset.PositionFor(fd.Name.Pos(), false).Line != pos.Line {
			continue
		}
		found := false
		ast.Inspect(fd.Body, func(n ast.Node) bool {
			switch n.(type) {
			case *ast.TypeSwitchStmt, *ast.TypeAssertExpr:
				found = true
			}
			return !found
		})
		return found
	}
	return false
}

// emptyIface reports the empty interface's spellings.
func emptyIface(typ string) bool {
	switch strings.ReplaceAll(typ, " ", "") {
	case "interface{}", "any":
		return true
	}
	return false
}
