package golang

import (
	"fmt"
	"go/ast"
	"go/types"
	"sort"
	"strings"

	"github.com/ripple-dev/ripple/internal/model"
)

// The evidence rule of the precise tier. The checker is silent about
// what it could not type (code using a package that was not loaded, a
// type that did not resolve), and silence is no evidence: a site is
// judged consistent only when every expression around it was typed
// (missingAround); elsewhere its syntactic verdict stands and the finding
// names what was missing (lang.Ref.Missing). An error that only says the
// checker did not know a method set (incompleteRecv) is no proof of a
// break either. And a call that compiles may still drop what the change
// added (discardVerdict).

// incompleteRecv reports a "no field or method" error on a receiver whose
// type is incomplete: it (or its constraint, or a type it embeds) embeds
// a type that did not resolve, typically from a package that was not
// loaded. Its method set is unknown, so the missing member is no
// evidence (minio's TypedStream[Req, Resp RoundTripper] calls
// resp.UnmarshalMsg, which RoundTripper gets from msgp).
func (tv *typeVerdicts) incompleteRecv(u *unitResult, file string, e types.Error) bool {
	if !strings.Contains(e.Msg, "has no field or method") {
		return false
	}
	f := tv.a.ix.parsedFile(file)
	if f == nil {
		return false
	}
	var sel *ast.SelectorExpr
	ast.Inspect(f.ast, func(n ast.Node) bool {
		if sel != nil || n == nil || n.Pos() > e.Pos || n.End() < e.Pos {
			return false
		}
		if s, ok := n.(*ast.SelectorExpr); ok && s.Sel.Pos() == e.Pos {
			sel = s
		}
		return true
	})
	if sel == nil {
		return false
	}
	return incomplete(u.info.TypeOf(sel.X), 0)
}

// incomplete reports a type whose method set the checker could not know
// whole: an embedded type (of an interface, a constraint, a struct) that
// is invalid.
func incomplete(t types.Type, depth int) bool {
	if t == nil || depth > 6 {
		return t == nil
	}
	switch x := t.(type) {
	case *types.Pointer:
		return incomplete(x.Elem(), depth+1)
	case *types.TypeParam:
		return incomplete(x.Constraint(), depth+1)
	case *types.Named:
		return incomplete(x.Underlying(), depth+1)
	case *types.Alias:
		return incomplete(types.Unalias(x), depth+1)
	case *types.Interface:
		for i := 0; i < x.NumEmbeddeds(); i++ {
			if et := x.EmbeddedType(i); et == types.Typ[types.Invalid] || incomplete(et, depth+1) {
				return true
			}
		}
	case *types.Union:
		for i := 0; i < x.Len(); i++ {
			if incomplete(x.Term(i).Type(), depth+1) {
				return true
			}
		}
	case *types.Struct:
		for i := 0; i < x.NumFields(); i++ {
			if fl := x.Field(i); fl.Embedded() && (fl.Type() == types.Typ[types.Invalid] || incomplete(fl.Type(), depth+1)) {
				return true
			}
		}
	case *types.Basic:
		return x.Kind() == types.Invalid
	}
	return false
}

// valid reports whether the checker typed an expression (it is silent
// about expressions it could not type, e.g. through a stubbed import).
func (tv *typeVerdicts) valid(file string, e ast.Expr, deep bool) bool {
	for _, u := range tv.byFile[file] {
		if tv, ok := u.info.Types[e]; ok && tv.Type != nil && tv.Type != types.Typ[types.Invalid] && !(deep && hasInvalid(tv.Type, 0)) {
			return true
		}
	}
	return false
}

// hasInvalid reports a type that is invalid or built of one: a func
// literal whose parameter names a package that was not loaded has a
// signature, but nothing can be concluded from assigning it. Named types
// are not entered (their package was checked on its own).
func hasInvalid(t types.Type, depth int) bool {
	if depth > 8 {
		return false
	}
	switch t := t.(type) {
	case *types.Basic:
		return t.Kind() == types.Invalid
	case *types.Pointer:
		return hasInvalid(t.Elem(), depth+1)
	case *types.Slice:
		return hasInvalid(t.Elem(), depth+1)
	case *types.Array:
		return hasInvalid(t.Elem(), depth+1)
	case *types.Chan:
		return hasInvalid(t.Elem(), depth+1)
	case *types.Map:
		return hasInvalid(t.Key(), depth+1) || hasInvalid(t.Elem(), depth+1)
	case *types.Signature:
		return hasInvalid(t.Params(), depth+1) || hasInvalid(t.Results(), depth+1)
	case *types.Tuple:
		for i := 0; i < t.Len(); i++ {
			if hasInvalid(t.At(i).Type(), depth+1) {
				return true
			}
		}
	}
	return false
}

// missingAround names what the checker could not type at or around a
// reference: the expressions enclosing it up to its statement, the
// arguments of every call among them, the other side of the assignment,
// the results returned beside it. "" when everything there is typed.
// An untyped expression is usually code using a package that was not
// loaded (not in the module cache): the checker says nothing about it,
// and that silence is no evidence (require.NoError(t, f()) with testify
// absent type-checks "cleanly" whatever f returns).
func (tv *typeVerdicts) missingAround(r *ref) string {
	exprs := surrounding(r)
	// the reference itself has the type its declaration gives (which
	// may name a package that was not loaded); what surrounds it must be
	// typed through and through (a func literal whose parameter type did
	// not resolve is assignable to nothing we can tell)
	self := map[ast.Expr]bool{}
	if r.id != nil {
		self[r.id] = true
		if len(r.stack) >= 2 {
			if sel, ok := r.stack[len(r.stack)-2].(*ast.SelectorExpr); ok && sel.Sel == r.id {
				self[sel] = true
			}
		}
	}
	var untyped []ast.Expr
	for _, e := range exprs {
		if !tv.valid(r.f.path, e, !self[e]) && !tv.typedName(r.f.path, e) {
			untyped = append(untyped, e)
		}
	}
	if len(untyped) == 0 {
		return ""
	}
	if why := tv.stubbedIn(r, untyped); why != "" {
		return why
	}
	return "the type of " + shorten(types.ExprString(untyped[0]), 60)
}

// surrounding lists the expressions around a reference whose types must
// be known for the checker's silence to count: its literal, the
// expressions enclosing it up to its statement, the arguments of every
// call among them, and the other side of its assignment, declaration,
// return or send ("_" excluded).
func surrounding(r *ref) []ast.Expr {
	var exprs []ast.Expr
	add := func(es ...ast.Expr) {
		for _, e := range es {
			if id, ok := e.(*ast.Ident); ok && id.Name == "_" {
				continue
			}
			if e != nil {
				exprs = append(exprs, e)
			}
		}
	}
	if r.lit != nil {
		add(r.lit)
	}
outer:
	for i := len(r.stack) - 1; i >= 0; i-- {
		switch n := r.stack[i].(type) {
		case *ast.FuncLit, *ast.FuncDecl, *ast.GenDecl, *ast.Field, *ast.FieldList, *ast.TypeSpec, *ast.BlockStmt:
			break outer
		case *ast.CallExpr:
			add(n, n.Fun)
			add(n.Args...)
		case *ast.KeyValueExpr:
			add(n.Value)
		case ast.Expr:
			add(n)
		case *ast.AssignStmt:
			for _, l := range n.Lhs {
				if _, ok := l.(*ast.Ident); !ok {
					add(l) // identifiers on the left are definitions or plain variables
				}
			}
			add(n.Rhs...)
			break outer
		case *ast.ValueSpec:
			add(n.Values...)
			break outer
		case *ast.ReturnStmt:
			add(n.Results...)
			break outer
		case *ast.SendStmt:
			add(n.Chan, n.Value)
			break outer
		case ast.Stmt:
			break outer
		}
	}
	return exprs
}

// stubbedIn names the packages that were not loaded, when the untyped
// code names them, and why they were not (not in the module cache, the
// repository's own, or the time budget); "" when it names none.
func (tv *typeVerdicts) stubbedIn(r *ref, untyped []ast.Expr) string {
	absent := map[string]bool{}
	var pkgs []string
	tv.l.mu.Lock()
	for _, e := range untyped {
		ast.Inspect(e, func(n ast.Node) bool {
			if sel, ok := n.(*ast.SelectorExpr); ok {
				if x, ok := sel.X.(*ast.Ident); ok {
					if ip, ok := r.f.imports[x.Name]; ok && tv.l.stubbed[ip] && !absent[ip] {
						absent[ip] = true
						pkgs = append(pkgs, ip)
					}
				}
			}
			return true
		})
	}
	notFound, own := len(pkgs) > 0, len(pkgs) > 0
	for _, p := range pkgs {
		notFound = notFound && tv.l.absent[p]
		own = own && tv.a.ix.mods.inRepo(p)
	}
	tv.l.mu.Unlock()
	if len(pkgs) == 0 {
		return ""
	}
	sort.Strings(pkgs)
	why := "not loaded in the time budget"
	switch {
	case notFound && own: // never in the module cache
		why = "not loaded (the repository's own, not found in the pushed tree)"
	case notFound:
		why = "not in the module cache"
	}
	return "the types of " + strings.Join(pkgs, ", ") + ", " + why
}

// shorten cuts s to at most n bytes, marking the cut.
func shorten(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n-3] + "..."
}

// typedName reports an identifier the checker resolved to an object of
// a valid type (the name of a qualified identifier is recorded as a use,
// not as an expression).
func (tv *typeVerdicts) typedName(file string, e ast.Expr) bool {
	id, ok := e.(*ast.Ident)
	if !ok {
		return false
	}
	for _, u := range tv.byFile[file] {
		if o := u.info.ObjectOf(id); o != nil && o.Type() != nil && o.Type() != types.Typ[types.Invalid] {
			return true
		}
	}
	return false
}

// discardVerdict judges a call that discards the results of a function
// that gained results (a statement, go or defer, or assigned to blanks
// only): it compiles, but the new result (often an error, or a cleanup
// function) is silently dropped, which is rarely what the change wants:
// may be impacted. Where the added result is an error and the
// repository lints with errcheck, which reports the call (errcheck.go),
// the lint fails on it: inconsistent. ok is false when the call is not
// such a call. The statement's form is syntax, so the verdict needs no
// types.
func (a syntaxRules) discardVerdict(r *ref, rel model.Relation) (verdict, bool) {
	if r.call == nil || r.t.old == nil || r.t.new == nil || r.t.old == r.t.new {
		return verdict{}, false
	}
	of, _ := r.t.old.Data.(*funcInfo)
	nf, _ := r.t.new.Data.(*funcInfo)
	if of == nil || nf == nil || len(nf.Results) <= len(of.Results) {
		return verdict{}, false
	}
	at := -1
	for i, n := range r.stack {
		if n == ast.Node(r.call) {
			at = i
		}
	}
	if at < 1 {
		return verdict{}, false
	}
	discarded, blank := false, false
	switch p := r.stack[at-1].(type) {
	case *ast.ExprStmt, *ast.GoStmt, *ast.DeferStmt:
		discarded = true
	case *ast.AssignStmt:
		discarded, blank = len(p.Rhs) == 1, true
		for _, l := range p.Lhs {
			if id, ok := l.(*ast.Ident); !ok || id.Name != "_" {
				discarded = false
			}
		}
	}
	if !discarded {
		return verdict{}, false
	}
	var added []string
	addsError := false
	for _, p := range nf.Results[len(of.Results):] {
		added = append(added, p.Type)
		addsError = addsError || p.Type == "error"
	}
	msg := fmt.Sprintf("discards the results of %s, which now also returns %s: the new result is dropped", r.t.name, strings.Join(added, ", "))
	if addsError {
		if c := a.lint.errcheck(a.ctx, r.f.dir); c.reports(a.discardOf(r, blank)) {
			return verdict{rel: rel, v: model.Inconsistent, exactly: !r.t.member && !a.declaredElsewhere(r.t),
				msg: fmt.Sprintf("discards the error %s now returns: errcheck, enabled by %s, fails on the call", r.t.name, c.file)}, true
		}
	}
	return verdict{rel: rel, v: model.MayBeImpacted, binds: true, msg: msg}, true
}

// discardOf describes a discarding call as errcheck sees it.
func (a syntaxRules) discardOf(r *ref, blank bool) discard {
	_, _, line := a.ix.lineText(r.f, r.call.Pos())
	d := discard{path: r.f.path, callee: types.ExprString(r.call.Fun), line: line, generated: r.f.generated, blank: blank}
	if fd := enclosingDecl(r.stack); fd != nil {
		if tf := a.ix.fset.File(fd.Pos()); tf != nil {
			if n := tf.Line(fd.Pos()); n > 1 {
				_, _, d.above = a.ix.lineText(r.f, tf.LineStart(n-1))
			}
		}
	}
	ip := a.ix.mods.importPath(r.t.decl().Package)
	if r.t.container != "" {
		d.qualified = []string{"(" + ip + "." + r.t.container + ")." + r.t.name}
	} else {
		d.qualified = []string{ip + "." + r.t.name}
	}
	return d
}
