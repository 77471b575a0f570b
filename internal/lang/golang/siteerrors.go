package golang

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"strings"

	"github.com/ripple-dev/ripple/internal/model"
)

// Which of the checker's errors speak of a site: those at the reference
// itself, those of the values derived from it through the statements
// around it, and those of the uses of a type.

// relevantErrors returns the checker errors that a reference explains.
func (tv *typeVerdicts) relevantErrors(r *ref) []types.Error {
	file := r.f.path
	var out []types.Error
	switch r.kind {
	case rkCall:
		fun := types.ExprString(r.call.Fun)
		name := r.id.Name
		inArg := func(p token.Pos) bool {
			for _, a := range r.call.Args {
				if a.Pos() <= p && p < a.End() {
					return true
				}
			}
			return false
		}
		for _, e := range tv.errorsIn(file, r.call.Pos(), r.call.End()) {
			// an error of the call itself (not of an argument's own
			// expression), or one that names the callee
			if !inArg(e.Pos) || strings.Contains(e.Msg, fun) || hasWord(e.Msg, name) && strings.Contains(e.Msg, "argument") {
				out = append(out, e)
			}
		}
		if resultsChanged(r.t) || r.t.ch.Label == model.MF {
			out = append(out, tv.flowErrors(r, r.call)...)
		}
		// assignment mismatch is reported on the statement
		for i := len(r.stack) - 1; i >= 0 && len(out) == 0; i-- {
			if st, ok := r.stack[i].(ast.Stmt); ok {
				for _, e := range tv.errorsIn(file, st.Pos(), st.End()) {
					if strings.Contains(e.Msg, "assignment mismatch") && strings.Contains(e.Msg, fun+"(") ||
						strings.Contains(e.Msg, "multiple-value "+fun+"(") || strings.Contains(e.Msg, fun+"() (no value) used as value") {
						out = append(out, e)
					}
				}
				break
			}
		}
	case rkLiteral:
		for _, e := range tv.errorsIn(file, r.lit.Lbrace, r.lit.Rbrace) {
			if strings.Contains(e.Msg, "struct literal") || strings.Contains(e.Msg, "too few values") || strings.Contains(e.Msg, "too many values") {
				out = append(out, e)
			}
		}
	default:
		var expr ast.Node = r.id
		start := r.id.Pos()
		if len(r.stack) >= 2 {
			if sel, ok := r.stack[len(r.stack)-2].(*ast.SelectorExpr); ok && sel.Sel == r.id {
				start, expr = sel.Pos(), sel
			}
		}
		for _, e := range tv.errorsIn(file, start, r.id.End()) {
			if e.Pos == start || e.Pos == r.id.Pos() {
				out = append(out, e)
			}
		}
		if len(out) == 0 && r.t.ch.Label == model.MC && (r.t.kind == model.KindType || r.t.kind == model.KindInterface) {
			out = tv.typeUseErrors(r)
		}
		funcValue := r.kind == rkValue && (r.t.kind == model.KindFunc || r.t.kind == model.KindMethod || r.t.kind == model.KindConstructor)
		if len(out) == 0 && (r.t.kind == model.KindField || r.t.kind == model.KindVar || r.t.kind == model.KindConst || funcValue) {
			out = tv.valueErrors(r, expr)
		}
	}
	return out
}

// valueErrors finds the errors a changed field's (or variable's) type
// causes around a use: in the value of its key in a literal, in the
// right-hand side it is assigned, or in the expression around it when
// the message names it.
func (tv *typeVerdicts) valueErrors(r *ref, expr ast.Node) []types.Error {
	file := r.f.path
	var out []types.Error
	i := len(r.stack) - 1
	for i >= 0 && r.stack[i] != expr {
		i--
	}
	if i <= 0 {
		return nil
	}
	if r.kind != rkKey {
		// the value is indexed, sliced, dereferenced, called, selected
		// from or asserted before it meets its context: what breaks is
		// that outer value (ws.origins[h] = v, w.origins[h].port)
		v := expr
		for i > 0 && derivesFrom(r.stack[i-1], v) {
			i--
			v = r.stack[i]
		}
		if v != expr {
			out = tv.errorsIn(file, v.Pos(), v.End())
			expr = v
		}
	}
	switch p := r.stack[i-1].(type) {
	case *ast.KeyValueExpr:
		if r.kind == rkKey {
			return tv.errorsIn(file, p.Value.Pos(), p.Value.End())
		}
	case *ast.AssignStmt:
		for k, l := range p.Lhs {
			if l == expr && len(p.Rhs) == len(p.Lhs) {
				return append(out, tv.errorsIn(file, p.Rhs[k].Pos(), p.Rhs[k].End())...)
			}
		}
		return append(out, tv.flowErrors(r, expr)...) // the value flows into variables
	case *ast.ValueSpec:
		return append(out, tv.flowErrors(r, expr)...)
	case *ast.RangeStmt:
		return append(out, tv.flowErrors(r, expr)...)
	case ast.Node:
		for _, e := range tv.errorsIn(file, p.Pos(), p.End()) {
			if hasWord(e.Msg, r.t.name) {
				out = append(out, e)
			}
		}
	}
	return out
}

// derivesFrom reports a parent expression whose value is derived from
// its child v's: an index, slice, dereference, address, selection,
// call of v, or a type assertion on it.
func derivesFrom(parent, v ast.Node) bool {
	switch p := parent.(type) {
	case *ast.IndexExpr:
		return p.X == v
	case *ast.SliceExpr:
		return p.X == v
	case *ast.StarExpr:
		return p.X == v
	case *ast.ParenExpr:
		return p.X == v
	case *ast.SelectorExpr:
		return p.X == v
	case *ast.CallExpr:
		return p.Fun == v
	case *ast.UnaryExpr:
		return p.X == v && p.Op == token.AND
	case *ast.TypeAssertExpr:
		return p.X == v
	}
	return false
}

// stackAt returns the path of nodes from the file to the innermost node
// containing pos.
func stackAt(f *ast.File, pos token.Pos) []ast.Node {
	var stack []ast.Node
	ast.Inspect(f, func(n ast.Node) bool {
		if n == nil || pos < n.Pos() || pos >= n.End() {
			return false
		}
		stack = append(stack, n)
		return true
	})
	return stack
}

// resultsChanged reports a function change that altered its results.
func resultsChanged(t *target) bool {
	if t.old == nil || t.new == nil {
		return false
	}
	of, _ := t.old.Data.(*funcInfo)
	nf, _ := t.new.Data.(*funcInfo)
	return of != nil && nf != nil && typesOf(of.Results) != typesOf(nf.Results)
}

// flowErrors follows a call's results: errors where the results are used
// directly (f().x, f() == nil), or where the variables they are assigned
// to are used in the enclosing function.
func (tv *typeVerdicts) flowErrors(r *ref, value ast.Node) []types.Error {
	file := r.f.path
	i := len(r.stack) - 1
	for i >= 0 && r.stack[i] != value {
		i--
	}
	if i <= 0 {
		return nil
	}
	var out []types.Error
	inArgs := func(p token.Pos) bool {
		if r.call == nil {
			return false
		}
		for _, a := range r.call.Args {
			if a.Pos() <= p && p < a.End() {
				return true
			}
		}
		return false
	}
	if p, ok := r.stack[i-1].(ast.Expr); ok {
		for _, e := range tv.errorsIn(file, p.Pos(), p.End()) {
			if !inArgs(e.Pos) {
				out = append(out, e)
			}
		}
		return out
	}
	lhs := resultVars(r.stack[i-1], value)
	if len(lhs) == 0 {
		return nil
	}
	objs := map[types.Object]bool{}
	for _, u := range tv.byFile[file] {
		for _, id := range lhs {
			if o := u.info.Defs[id]; o != nil {
				objs[o] = true
			} else if o := u.info.Uses[id]; o != nil {
				objs[o] = true
			}
		}
	}
	body := enclosingBody(r.stack[:i+1])
	if body == nil || len(objs) == 0 {
		return nil
	}
	for _, u := range tv.usesIn(file, body, objs) {
		for _, e := range tv.errorsIn(file, u.from, u.to) {
			if hasWord(e.Msg, u.name) {
				e.Msg += fmt.Sprintf(" (line %d, where %s is used)", tv.a.ix.fset.PositionFor(e.Pos, false).Line, u.name)
				out = append(out, e)
			}
		}
	}
	return out
}

// resultVars are the variables the statement stmt assigns the call's
// results (value) to: the left of an assignment or declaration with one
// value, or the key and value of a range over it; "_" is no variable.
func resultVars(stmt ast.Node, value ast.Node) []*ast.Ident {
	var lhs []*ast.Ident
	switch p := stmt.(type) {
	case *ast.AssignStmt:
		if len(p.Rhs) == 1 {
			for _, l := range p.Lhs {
				if id, ok := l.(*ast.Ident); ok && id.Name != "_" {
					lhs = append(lhs, id)
				}
			}
		}
	case *ast.ValueSpec:
		if len(p.Values) == 1 {
			lhs = append(lhs, p.Names...)
		}
	case *ast.RangeStmt:
		for _, e := range []ast.Expr{p.Key, p.Value} {
			if id, ok := e.(*ast.Ident); ok && id.Name != "_" && p.X == value {
				lhs = append(lhs, id)
			}
		}
	}
	return lhs
}

// enclosingBody is the body of the innermost function (declaration or
// literal) on stack, nil when there is none.
func enclosingBody(stack []ast.Node) ast.Node {
	for j := len(stack) - 1; j >= 0; j-- {
		if fd, ok := stack[j].(*ast.FuncDecl); ok {
			return fd.Body
		}
		if fl, ok := stack[j].(*ast.FuncLit); ok {
			return fl.Body
		}
	}
	return nil
}

// varUse is a use of one of the result variables: its name and the
// extent of the node around it, where its errors stand.
type varUse struct {
	name     string
	from, to token.Pos
}

// usesIn lists the uses in body of the objects objs, in source order.
func (tv *typeVerdicts) usesIn(file string, body ast.Node, objs map[types.Object]bool) []varUse {
	var uses []varUse
	var stack []ast.Node
	ast.Inspect(body, func(n ast.Node) bool {
		if n == nil {
			stack = stack[:len(stack)-1]
			return false
		}
		stack = append(stack, n)
		if id, ok := n.(*ast.Ident); ok && len(stack) >= 2 {
			for _, u := range tv.byFile[file] {
				if objs[u.info.Uses[id]] {
					p := stack[len(stack)-2]
					uses = append(uses, varUse{id.Name, p.Pos(), p.End()})
					break
				}
			}
		}
		return true
	})
	return uses
}

// typeUseErrors finds the errors a changed type causes where its values
// are used: in the declaration that names it (a variable initialised
// with an int, a parameter converted), the checker's messages name the
// type.
func (tv *typeVerdicts) typeUseErrors(r *ref) []types.Error {
	d := enclosingDecl(r.stack)
	if d == nil {
		return nil
	}
	var out []types.Error
	for _, e := range tv.errorsIn(r.f.path, d.Pos(), d.End()) {
		if hasWord(e.Msg, r.t.name) {
			out = append(out, e)
		}
	}
	return out
}
