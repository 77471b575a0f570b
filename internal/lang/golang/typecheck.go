package golang

import (
	"bytes"
	"context"
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"regexp"
	"sort"
	"strings"
	"time"

	"github.com/ripple-dev/ripple/internal/lang"
	"github.com/ripple-dev/ripple/internal/model"
)

// unitResult is one type-checked package of the head state under one
// build configuration.
type unitResult struct {
	bc    buildCtx
	info  *types.Info
	errs  []types.Error
	files map[string]bool
}

// typeVerdicts is the type checker's view of the head state; nil when the
// precise tier did not run.
type typeVerdicts struct {
	a      *analyzer
	l      *loader
	byFile map[string][]*unitResult
	units  []*unitResult
	// fileErrs caches, per file, the errors positioned in it (see
	// fileErrors): a package with thousands of errors (imports not in
	// the module cache) is scanned once, not once per reference.
	fileErrs map[string][]types.Error
}

// checkUnit is a package to check with bodies: one directory and package
// name, with the files that hold references.
type checkUnit struct {
	dir, name string
	refFiles  map[string]bool
	// cover are the files some build configuration must include: the
	// reference files, and the seed's own files in this package (a
	// declaration changed in foo_other.go is only visible where that
	// file is selected).
	cover map[string]bool
	// at are the positions of the references, per file: the bodies of
	// the functions of reference files that hold none (and name no
	// target) are not checked (slim).
	at map[string][]token.Pos
	// whole are the files checked with every body (the files that may
	// use an implementation as a changed interface).
	whole map[string]bool
}

// typecheck runs the precise tier over the packages holding references,
// within the deadline (precision auto) or fully (precision types).
func (a *analyzer) typecheck(ctx context.Context, ts []*target, refs []*ref, extra []*pfile) *typeVerdicts {
	if a.env.Precision == "syntax" || len(refs) == 0 && len(extra) == 0 {
		return nil
	}
	t0 := time.Now()
	defer func() { trace("typecheck %d references in %v", len(refs), time.Since(t0)) }()
	if toolchainEnv().goroot == "" {
		a.note("nogo", "type checking used no standard library sources (the go command is not on PATH): types from outside the repository are unknown")
	}
	deadline := a.env.Deadline
	if a.env.Precision == "types" {
		deadline = time.Time{}
	}
	if a.loader == nil {
		a.loader = newLoader(a, deadline)
	}
	l := a.loader
	unitsByKey := map[string]*checkUnit{}
	files := make([]*pfile, 0, len(refs)+len(extra))
	for _, r := range refs {
		files = append(files, r.f)
	}
	files = append(files, extra...)
	for i, f := range files {
		k := f.dir + "\x00" + f.pkgName
		u := unitsByKey[k]
		if u == nil {
			u = &checkUnit{dir: f.dir, name: f.pkgName, refFiles: map[string]bool{}, at: map[string][]token.Pos{}, whole: map[string]bool{}}
			unitsByKey[k] = u
		}
		u.refFiles[f.path] = true
		if i < len(refs) {
			u.at[f.path] = append(u.at[f.path], refs[i].pos())
		} else {
			u.whole[f.path] = true
		}
	}
	// the bodies kept are those naming a target; when an interface
	// changed, none is slimmed: "does not implement" errors stand
	// wherever an implementation is converted to the interface, in bodies
	// that need not name it (oci.NewLiveClient() passed as a Client).
	// Keeping only the bodies that name an implementation lost 4 of 10
	// sites of cli ef9069a1b0.
	var words []string
	for _, t := range ts {
		words = append(words, t.name, t.container)
		if t.iface {
			words = nil
			break
		}
	}
	for _, u := range unitsByKey {
		u.cover = map[string]bool{}
		for f := range u.refFiles {
			u.cover[f] = true
		}
		for _, t := range ts {
			if t.new != nil && t.new.Package == u.dir && t.new.Unit == u.name {
				u.cover[t.new.Path] = true
			}
		}
	}
	keys := make([]string, 0, len(unitsByKey))
	for k := range unitsByKey {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	tv := &typeVerdicts{a: a, l: l, byFile: map[string][]*unitResult{}}
	checked, skipped := 0, 0
	for _, k := range keys {
		if ctx.Err() != nil || l.late() {
			skipped++
			continue
		}
		u := unitsByKey[k]
		for _, res := range a.checkUnit(u, l, words) {
			tv.units = append(tv.units, res)
			for f := range res.files {
				tv.byFile[f] = append(tv.byFile[f], res)
			}
		}
		checked++
	}
	a.typed += checked
	if skipped > 0 {
		a.note("budget", fmt.Sprintf("type checking stopped at the time budget: %d of %d packages checked, the others have syntax precision (raise budget, or use precision: types)", checked, checked+skipped))
	}
	var absent, late []string
	l.mu.Lock()
	for p := range l.stubbed {
		if l.absent[p] {
			absent = append(absent, p)
		} else {
			late = append(late, p)
		}
	}
	l.mu.Unlock()
	if len(absent) > 0 {
		a.note("absent", fmt.Sprintf("%s not found (not in the module cache): the code using them was judged by its syntax, and no site around them is called consistent; run `go mod download` to check it with types: %s",
			model.Plural(len(absent), "imported package was", "imported packages were"), someOf(absent, 4)))
	}
	if len(late) > 0 {
		a.note("stubs", fmt.Sprintf("%s not loaded (past the time budget, or an import cycle): the code using them was judged by its syntax: %s",
			model.Plural(len(late), "imported package was", "imported packages were"), someOf(late, 4)))
	}
	return tv
}

// someOf lists at most n of names, sorted, and says how many it left out.
func someOf(names []string, n int) string {
	sort.Strings(names)
	if len(names) <= n {
		return strings.Join(names, ", ")
	}
	return strings.Join(names[:n], ", ") + fmt.Sprintf(" and %d more", len(names)-n)
}

func (a *analyzer) note(key, s string) {
	if a.env.Note != nil {
		a.env.Note(key, s)
	}
}

// checkUnit type-checks a package with bodies, under as many build
// configurations as it takes to cover every file holding a reference.
func (a *analyzer) checkUnit(u *checkUnit, l *loader, words []string) []*unitResult {
	// the files that hold references were parsed whole for the syntactic
	// tier; the bodies of the others hold no reference, so no error in
	// them bears on a verdict (unless an interface changed: words is nil)
	all := a.ix.shallow(a.ctx, a.ix.byDir[u.dir])
	if words == nil {
		all = a.ix.parse(a.ctx, a.ix.byDir[u.dir])
	}
	var files []*pfile
	for _, f := range all {
		if f.pkgName == u.name {
			files = append(files, f)
		}
	}
	ctxs := append([]buildCtx(nil), platforms...)
	if tags := customTags(files); len(tags) > 0 {
		for _, p := range platforms[:3] {
			ctxs = append(ctxs, buildCtx{goos: p.goos, goarch: p.goarch, tags: tags})
		}
	}
	covered := map[string]bool{}
	var out []*unitResult
	for _, bc := range ctxs {
		if len(covered) == len(u.cover) || l.late() {
			break
		}
		var sel []*ast.File
		res := &unitResult{bc: bc, files: map[string]bool{}}
		adds := false
		for _, f := range files {
			if matchFile(bc, f) {
				sel = append(sel, a.slim(u, f, words))
				res.files[f.path] = true
				if u.cover[f.path] && !covered[f.path] {
					adds = true
				}
			}
		}
		if !adds {
			continue
		}
		for f := range res.files {
			if u.cover[f] {
				covered[f] = true
			}
		}
		ip := a.ix.mods.importPath(u.dir)
		if strings.HasSuffix(u.name, "_test") {
			ip += "_test"
		}
		res.info = &types.Info{
			Uses: map[*ast.Ident]types.Object{}, Defs: map[*ast.Ident]types.Object{},
			Selections: map[*ast.SelectorExpr]*types.Selection{}, Types: map[ast.Expr]types.TypeAndValue{},
		}
		conf := types.Config{
			Importer:    &importer{l: l, from: location{repo: true, dir: u.dir, withTests: true}, bc: bc},
			Error:       func(err error) { res.errs = append(res.errs, err.(types.Error)) },
			FakeImportC: true,
		}
		conf.Check(ip, a.ix.fset, sel, res.info)
		trace("checked %s (%s) under %s: %d files, %d errors", u.dir, u.name, bc, len(sel), len(res.errs))
		out = append(out, res)
	}
	return out
}

// errorsIn returns the errors of the units covering file whose position
// lies in [from, to]. An error seen only under another build
// configuration than the first says so in its message.
func (tv *typeVerdicts) errorsIn(file string, from, to token.Pos) []types.Error {
	errs := tv.fileErrors(file)
	i := sort.Search(len(errs), func(i int) bool { return errs[i].Pos >= from })
	var out []types.Error
	for ; i < len(errs) && errs[i].Pos <= to; i++ {
		out = append(out, errs[i])
	}
	return out
}

// fileErrors are the errors of the units covering file that lie in it,
// once each, sorted by position, without those that say nothing about
// the code (unused names, members of stubbed imports).
func (tv *typeVerdicts) fileErrors(file string) []types.Error {
	if errs, ok := tv.fileErrs[file]; ok {
		return errs
	}
	lo, hi := token.Pos(-1), token.Pos(-1)
	if f := tv.a.ix.parsedFile(file); f != nil {
		if tf := tv.a.ix.fset.File(f.ast.Pos()); tf != nil {
			lo, hi = token.Pos(tf.Base()), token.Pos(tf.Base()+tf.Size())
		}
	}
	type key struct {
		msg string
		pos token.Pos
	}
	seen := map[key]bool{}
	var out []types.Error
	for i, u := range tv.byFile[file] {
		for _, e := range u.errs {
			if lo >= 0 && (e.Pos < lo || e.Pos > hi) {
				continue
			}
			if seen[key{e.Msg, e.Pos}] {
				continue
			}
			seen[key{e.Msg, e.Pos}] = true
			if i > 0 || u.bc.key() != platforms[0].key() {
				e.Msg += " (when built for " + u.bc.String() + ")"
			}
			if e.Soft && strings.Contains(e.Msg, "declared and not used") || strings.Contains(e.Msg, "imported and not used") || tv.fromStub(file, e.Msg) || tv.incompleteRecv(u, file, e) {
				continue
			}
			out = append(out, e)
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Pos < out[j].Pos })
	if tv.fileErrs == nil {
		tv.fileErrs = map[string][]types.Error{}
	}
	tv.fileErrs[file] = out
	return out
}

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

var undefinedSelRE = regexp.MustCompile(`^undefined: (\w+)\.\w+`)

// fromStub reports an error about a member of an imported package that
// was stubbed (not loaded): it says nothing about the code.
func (tv *typeVerdicts) fromStub(file, msg string) bool {
	m := undefinedSelRE.FindStringSubmatch(msg)
	if m == nil {
		return false
	}
	f := tv.a.ix.parsedFile(file)
	if f == nil {
		return false
	}
	ip, ok := f.imports[m[1]]
	if !ok {
		return false
	}
	tv.l.mu.Lock()
	defer tv.l.mu.Unlock()
	return tv.l.stubbed[ip]
}

// cleanMsg makes a one-line message of a checker error.
func cleanMsg(s string) string {
	lines := strings.Split(s, "\n")
	for i := range lines {
		lines[i] = strings.TrimSpace(lines[i])
	}
	if len(lines) == 1 {
		return lines[0]
	}
	return lines[0] + " (" + strings.Join(lines[1:], ", ") + ")"
}

// targetObj reports whether obj is the declaration of target t in the
// head state (compared by position, since the same declaration is loaded
// once per package that imports it).
func (tv *typeVerdicts) targetObj(obj types.Object, t *target) bool {
	if obj == nil || t.new == nil || obj.Name() != t.new.Name {
		return false
	}
	p := tv.a.ix.fset.PositionFor(obj.Pos(), false)
	return p.Filename == t.new.Path && p.Line == t.new.NameLine
}

// objectOf is the object an identifier of a reference resolves to.
func (tv *typeVerdicts) objectOf(r *ref) (types.Object, bool) {
	if r.id == nil {
		return nil, false
	}
	for _, u := range tv.byFile[r.f.path] {
		if len(r.stack) >= 2 {
			if sel, ok := r.stack[len(r.stack)-2].(*ast.SelectorExpr); ok && sel.Sel == r.id {
				if s := u.info.Selections[sel]; s != nil {
					return s.Obj(), true
				}
			}
		}
		if o := u.info.Uses[r.id]; o != nil {
			return o, true
		}
	}
	return nil, false
}

// valid reports whether the checker typed an expression (it is silent
// about expressions it could not type, e.g. through a stubbed import).
func (tv *typeVerdicts) valid(file string, e ast.Expr) bool {
	for _, u := range tv.byFile[file] {
		if tv, ok := u.info.Types[e]; ok && tv.Type != nil && tv.Type != types.Typ[types.Invalid] {
			return true
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
	var untyped []ast.Expr
	for _, e := range exprs {
		if !tv.valid(r.f.path, e) && !tv.typedName(r.f.path, e) {
			untyped = append(untyped, e)
		}
	}
	if len(untyped) == 0 {
		return ""
	}
	// name the packages that were not loaded, when the untyped code
	// names them
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
	notFound := len(pkgs) > 0
	for _, p := range pkgs {
		notFound = notFound && tv.l.absent[p]
	}
	tv.l.mu.Unlock()
	if len(pkgs) > 0 {
		sort.Strings(pkgs)
		why := "not loaded in the time budget"
		if notFound {
			why = "not in the module cache"
		}
		return "the types of " + strings.Join(pkgs, ", ") + ", " + why
	}
	return "the type of " + shorten(types.ExprString(untyped[0]), 60)
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

// verdictFor refines a syntactic verdict with the checker's findings.
func (tv *typeVerdicts) verdictFor(r *ref, syn verdict) (verdict, bool) {
	if len(tv.byFile[r.f.path]) == 0 || r.kind == rkIfaceDcl || syn.silent || r.t.ch.Derived {
		return verdict{}, false
	}
	if r.kind == rkImpl {
		return tv.implVerdict(r, syn)
	}
	rel := syn.rel
	if rel == "" {
		rel = relationOf(r)
	}
	errs := tv.relevantErrors(r)
	if len(errs) > 0 {
		if syn.skip && r.prec != model.PrecisionName && !syn.unlessTypes {
			return verdict{}, false
		}
		msg := cleanMsg(errs[0].Msg)
		if r.t.ch.Renamed() {
			msg += " (renamed to " + r.t.ch.New.Name + ")"
		}
		return verdict{rel: rel, v: model.Inconsistent, msg: msg}, true
	}
	// no error: does the reference resolve, and is it fully typed? The
	// checker is silent about what it could not type, so silence is
	// evidence only where every expression around the site was typed;
	// elsewhere the syntactic verdict stands, saying what was missing.
	if r.id != nil {
		obj, ok := tv.objectOf(r)
		if !ok {
			m := tv.missingAround(r)
			if m == "" {
				m = "the type of " + r.id.Name
			}
			return verdict{missing: m}, false
		}
		if r.t.new != nil && !tv.targetObj(obj, r.t) && r.t.ch.Label != model.AM {
			if r.prec == model.PrecisionName || r.t.member {
				return verdict{skip: true}, true // a member of another type
			}
		}
	}
	if syn.skip {
		return syn, true
	}
	if r.t.ch.Label == model.MMB {
		return syn, true // behaviour: types cannot tell
	}
	if m := tv.missingAround(r); m != "" {
		return verdict{missing: m}, false
	}
	if m := discardsAdded(r); m != "" {
		return verdict{rel: rel, v: model.MayBeImpacted, msg: m}, true
	}
	switch r.t.ch.Label {
	case model.MMS, model.MCC:
		if reordered(r.t) {
			return verdict{rel: rel, v: model.MayBeImpacted, msg: syn.msg}, true
		}
	}
	if r.t.ch.Label == model.MC && r.kind == rkCall {
		// a conversion that still compiles may change meaning (int to
		// string makes a one-rune string)
		return verdict{rel: rel, v: model.MayBeImpacted, msg: fmt.Sprintf("converts to %s, whose declaration changed (%s): the conversion compiles but may mean something else", r.t.name, strings.Join(r.t.ch.Details, "; "))}, true
	}
	return verdict{rel: rel, v: model.Consistent, msg: "type-checks against the new declaration"}, true
}

// reordered reports a change that permuted parameters of one type: calls
// still compile, but may pass arguments in the old order.
func reordered(t *target) bool {
	for _, d := range t.ch.Details {
		if strings.Contains(d, "reordered") {
			return true
		}
	}
	return false
}

// relevantErrors returns the checker errors that a reference explains.
func (tv *typeVerdicts) relevantErrors(r *ref) []types.Error {
	file := r.f.path
	var out []types.Error
	switch r.kind {
	case rkCall:
		fun := types.ExprString(r.call.Fun)
		name := regexp.MustCompile(`\b` + regexp.QuoteMeta(r.id.Name) + `\b`)
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
			if !inArg(e.Pos) || strings.Contains(e.Msg, fun) || name.MatchString(e.Msg) && strings.Contains(e.Msg, "argument") {
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
	switch p := r.stack[i-1].(type) {
	case *ast.KeyValueExpr:
		if r.kind == rkKey {
			return tv.errorsIn(file, p.Value.Pos(), p.Value.End())
		}
	case *ast.AssignStmt:
		for k, l := range p.Lhs {
			if l == expr && len(p.Rhs) == len(p.Lhs) {
				return tv.errorsIn(file, p.Rhs[k].Pos(), p.Rhs[k].End())
			}
		}
		return tv.flowErrors(r, expr) // the value flows into variables
	case *ast.ValueSpec:
		return tv.flowErrors(r, expr)
	case ast.Node:
		name := regexp.MustCompile(`\b` + regexp.QuoteMeta(r.t.name) + `\b`)
		for _, e := range tv.errorsIn(file, p.Pos(), p.End()) {
			if name.MatchString(e.Msg) {
				out = append(out, e)
			}
		}
	}
	return out
}

var (
	notImplRE = regexp.MustCompile(`(\*?[\w.\[\], ]+) does not implement ([\w.\[\], ]+) \((missing method|wrong type for method|method) (\w+)(?: has pointer receiver)?\)`)
)

// implErrors are the checker's "does not implement" errors, parsed.
type implError struct {
	unit              *unitResult
	err               types.Error
	typ, iface, which string
	typQ, ifaceQ      string // package qualifiers as printed ("" = the error's own package)
}

func (tv *typeVerdicts) implErrors() []implError {
	var out []implError
	for _, u := range tv.units {
		for _, e := range u.errs {
			m := notImplRE.FindStringSubmatch(e.Msg)
			if m == nil {
				continue
			}
			out = append(out, implError{unit: u, err: e, typ: lastName(m[1]), iface: lastName(m[2]), which: m[4],
				typQ: qualOf(m[1]), ifaceQ: qualOf(m[2])})
		}
	}
	return out
}

// qualOf returns the package qualifier of a type as the checker prints
// it ("*oci.Client" -> "oci").
func qualOf(s string) string {
	s = strings.TrimPrefix(strings.TrimSpace(s), "*")
	if i := strings.IndexByte(s, '['); i >= 0 {
		s = s[:i]
	}
	if i := strings.LastIndexByte(s, '.'); i >= 0 {
		return s[:i]
	}
	return ""
}

func lastName(s string) string {
	s = strings.TrimPrefix(strings.TrimSpace(s), "*")
	if i := strings.IndexByte(s, '['); i >= 0 {
		s = s[:i]
	}
	if i := strings.LastIndexByte(s, '.'); i >= 0 {
		s = s[i+1:]
	}
	return s
}

// implVerdict: a method implementing a changed interface method is
// inconsistent when the checker says its type no longer implements the
// interface somewhere it is used as one.
//
// The checker reports only the first method a type lacks, so any "does
// not implement" error for the type and the interface proves it is used
// as one; a stale method of such a type is then broken.
func (tv *typeVerdicts) implVerdict(r *ref, syn verdict) (verdict, bool) {
	if syn.skip || syn.v != model.MayBeImpacted {
		return verdict{}, false
	}
	impl := tref{r.f.pkgKey, r.implRcv}
	for _, ie := range tv.implErrors() {
		if ie.iface != r.t.container {
			continue
		}
		used := ie.typ == r.implRcv
		if !used { // a type that embeds the implementation, its method promoted
			errFile := tv.a.ix.parsedFile(tv.a.ix.fset.PositionFor(ie.err.Pos, false).Filename)
			for _, k := range tv.a.syms.candidates(ie.typQ, errFile) {
				if tv.a.syms.embeds(&tref{k, ie.typ}, impl, 0) {
					used = true
				}
			}
		}
		if used {
			pos := tv.a.ix.fset.PositionFor(ie.err.Pos, false)
			return verdict{rel: model.OverriddenBy, v: model.Inconsistent,
				msg: fmt.Sprintf("%s (%s is used as %s at %s:%d)", syn.msg, r.implRcv, r.t.container, pos.Filename, pos.Line)}, true
		}
	}
	return verdict{}, false
}

// extraFindings reports what only the checker sees: types that no
// longer implement an interface they are used as. The site is where the
// fix belongs, never the seed itself: the implementing method (or the
// type, when the method is missing) for a changed interface, and the
// interface's method for a changed implementation (CodePlan: the
// compiler blames the override; following the relation does not revert
// the seed). The places the type is used as the interface go into the
// message.
func (tv *typeVerdicts) extraFindings(a *analyzer, ts []*target, seen map[string]bool) []*lang.Ref {
	type group struct {
		ie   implError
		uses []token.Position
	}
	groups := map[string]*group{}
	var order []string
	for _, ie := range tv.implErrors() {
		k := ie.typ + "|" + ie.iface + "|" + ie.which
		g := groups[k]
		if g == nil {
			g = &group{ie: ie}
			groups[k] = g
			order = append(order, k)
		}
		g.uses = append(g.uses, a.ix.fset.PositionFor(ie.err.Pos, false))
	}
	var out []*lang.Ref
	for _, k := range order {
		g := groups[k]
		ie := g.ie
		for _, t := range ts {
			var rel model.Relation
			var site *ast.Ident
			switch {
			case (t.kind == model.KindIfaceMethod && t.container == ie.iface && (t.name == ie.which || t.ch.Renamed() && t.ch.New.Name == ie.which)) ||
				(t.kind == model.KindInterface && t.name == ie.iface && t.ch.Label == model.AM):
				rel = model.OverriddenBy
				errPkg := a.ix.parsedFile(a.ix.fset.PositionFor(ie.err.Pos, false).Filename)
				site = a.syms.findMember(ie.typ, ie.typQ, errPkg, ie.which, false)
				if site == nil {
					site = a.syms.findType(ie.typ, ie.typQ, errPkg)
				}
			case t.kind == model.KindMethod && t.container == ie.typ && t.name == ie.which && !t.ch.Derived:
				// a derived implementation change is caused by the interface:
				// never blame the interface (the developer's seed)
				rel = model.Overrides
				errPkg := a.ix.parsedFile(a.ix.fset.PositionFor(ie.err.Pos, false).Filename)
				site = a.syms.findMember(ie.iface, ie.ifaceQ, errPkg, ie.which, true)
			default:
				continue
			}
			pos := ie.err.Pos
			if site != nil {
				pos = site.Pos()
			}
			f := a.ix.parsedFile(a.ix.fset.PositionFor(pos, false).Filename)
			if f == nil {
				continue
			}
			r := &ref{t: t, f: f, prec: model.PrecisionTypes, stack: stackAt(f.ast, pos)}
			if site != nil {
				r.id = site
			}
			msg := cleanMsg(ie.err.Msg)
			if site != nil {
				u := g.uses[0]
				msg = fmt.Sprintf("%s no longer implements %s, as it must where it is used at %s:%d", ie.typ, ie.iface, u.Filename, u.Line)
				if len(g.uses) > 1 {
					msg += fmt.Sprintf(" (and %d more places)", len(g.uses)-1)
				}
				msg += ": " + strings.TrimPrefix(cleanMsg(ie.err.Msg[strings.Index(ie.err.Msg, "does not implement"):]), "does not implement ")
			}
			fd := a.finding(r, verdict{rel: rel, v: model.Inconsistent, msg: msg}, model.PrecisionTypes)
			if rel == model.Overrides && site != nil {
				fd.Follow = a.followIface(t, f, ie.iface, ie.which)
			}
			if r.id == nil {
				line, col, text := a.ix.lineText(f, pos)
				fd.Site.Line, fd.Site.Col, fd.Site.Text = line, col, text
			}
			key := fmt.Sprintf("%s:%d:%s/%s:%s", fd.Site.Path, fd.Site.Line, fd.Change.Label, fd.Relation, fd.Change.Block().Display)
			if seen[key] {
				continue
			}
			seen[key] = true
			out = append(out, fd)
		}
	}
	return out
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

// discardsAdded describes a call that discards the results of a function
// that gained results (a statement, go or defer, or assigned to blanks
// only): it compiles, but the new result (often an error, or a cleanup
// function) is silently dropped, which is rarely what the change wants.
// "" when the call is not such a call.
func discardsAdded(r *ref) string {
	if r.call == nil || r.t.old == nil || r.t.new == nil {
		return ""
	}
	of, _ := r.t.old.Data.(*funcInfo)
	nf, _ := r.t.new.Data.(*funcInfo)
	if of == nil || nf == nil || len(nf.Results) <= len(of.Results) {
		return ""
	}
	at := -1
	for i, n := range r.stack {
		if n == ast.Node(r.call) {
			at = i
		}
	}
	if at < 1 {
		return ""
	}
	discarded := false
	switch p := r.stack[at-1].(type) {
	case *ast.ExprStmt, *ast.GoStmt, *ast.DeferStmt:
		discarded = true
	case *ast.AssignStmt:
		discarded = len(p.Rhs) == 1
		for _, l := range p.Lhs {
			if id, ok := l.(*ast.Ident); !ok || id.Name != "_" {
				discarded = false
			}
		}
	}
	if !discarded {
		return ""
	}
	var added []string
	for _, p := range nf.Results[len(of.Results):] {
		added = append(added, p.Type)
	}
	return fmt.Sprintf("discards the results of %s, which now also returns %s: the new result is dropped", r.t.name, strings.Join(added, ", "))
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
	var lhs []*ast.Ident
	switch p := r.stack[i-1].(type) {
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
	case ast.Expr:
		for _, e := range tv.errorsIn(file, p.Pos(), p.End()) {
			if !inArgs(e.Pos) {
				out = append(out, e)
			}
		}
		return out
	}
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
	var body ast.Node
	for j := i; j >= 0; j-- {
		if fd, ok := r.stack[j].(*ast.FuncDecl); ok {
			body = fd.Body
			break
		}
		if fl, ok := r.stack[j].(*ast.FuncLit); ok {
			body = fl.Body
			break
		}
	}
	if body == nil || len(objs) == 0 {
		return nil
	}
	type use struct {
		name     string
		from, to token.Pos
	}
	var uses []use
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
					uses = append(uses, use{id.Name, p.Pos(), p.End()})
					break
				}
			}
		}
		return true
	})
	for _, u := range uses {
		for _, e := range tv.errorsIn(file, u.from, u.to) {
			if regexp.MustCompile(`\b` + regexp.QuoteMeta(u.name) + `\b`).MatchString(e.Msg) {
				e.Msg += fmt.Sprintf(" (line %d, where %s is used)", tv.a.ix.fset.PositionFor(e.Pos, false).Line, u.name)
				out = append(out, e)
			}
		}
	}
	return out
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
	name := regexp.MustCompile(`\b` + regexp.QuoteMeta(r.t.name) + `\b`)
	var out []types.Error
	for _, e := range tv.errorsIn(r.f.path, d.Pos(), d.End()) {
		if name.MatchString(e.Msg) {
			out = append(out, e)
		}
	}
	return out
}

// slim is the file a unit's type check reads: a reference file without
// the bodies of its functions that hold no reference (in the body or the
// signature: a verdict reads the whole enclosing declaration) and name no
// target,
// since nothing they contain bears on a verdict (a package of 120 files
// is checked in a fraction of the time). Function signatures, types and
// package-level declarations stay: they are what the kept bodies see.
// Nothing is slimmed when an interface changed (words is nil).
// The syntax trees are not modified: a slim file is a shallow copy.
func (a *analyzer) slim(u *checkUnit, f *pfile, words []string) *ast.File {
	if u.whole[f.path] || words == nil {
		return f.ast
	}
	at := u.at[f.path]
	off := a.ix.fset.File(f.ast.Pos())
	var decls []ast.Decl
	changed := false
	for _, d := range f.ast.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok || fd.Body == nil || holds(fd, at) || off != nil && mentions(f.src, off, fd.Body, words) {
			decls = append(decls, d)
			continue
		}
		c := *fd
		c.Body = nil
		decls = append(decls, &c)
		changed = true
	}
	if !changed {
		return f.ast
	}
	c := *f.ast
	c.Decls = decls
	return &c
}

// holds reports whether one of the positions lies in n.
func holds(n ast.Node, at []token.Pos) bool {
	for _, p := range at {
		if n.Pos() <= p && p < n.End() {
			return true
		}
	}
	return false
}

// mentions reports whether the source of n contains one of the words
// (an over-approximation of naming it).
func mentions(src []byte, tf *token.File, n ast.Node, words []string) bool {
	lo, hi := tf.Offset(n.Pos()), tf.Offset(n.End())
	if lo < 0 || hi > len(src) || lo > hi {
		return true
	}
	body := src[lo:hi]
	for _, w := range words {
		if w != "" && bytes.Contains(body, []byte(w)) {
			return true
		}
	}
	return false
}

// pos is where a reference is.
func (r *ref) pos() token.Pos {
	switch {
	case r.id != nil:
		return r.id.Pos()
	case r.call != nil:
		return r.call.Pos()
	case r.lit != nil:
		return r.lit.Pos()
	case r.decl != nil:
		return r.decl.Pos()
	}
	return token.NoPos
}

// followIface is the derived change of an interface method that an
// implementation's new signature no longer fits: the interface may take
// that signature (or the implementation be changed back; the change is
// tentative), and then its other implementations and the calls through
// it are walked.
func (a *analyzer) followIface(t *target, f *pfile, iface, method string) *lang.Follow {
	nf, _ := t.new.Data.(*funcInfo)
	of, _ := t.old.Data.(*funcInfo)
	if nf == nil || of == nil || t.ch.Label != model.MMS || looseSig(of) == looseSig(nf) {
		return nil // a receiver change is the implementation's alone
	}
	decls, _ := New().Decls(f.path, f.src)
	for _, d := range decls {
		if d.Kind != model.KindIfaceMethod || d.Container != iface || d.Name != method {
			continue
		}
		to := *d
		fi := &funcInfo{Recv: iface, File: nf.File, Fset: nf.Fset, Params: nf.Params, Results: nf.Results, Variadic: nf.Variadic, TypeParams: nf.TypeParams}
		to.Block = d.Block.WithData(fi)
		return &lang.Follow{Decl: &to, From: d, Label: model.MMS, May: true,
			Details: []string{"may have to follow " + t.ch.Block().Display + ": " + strings.Join(t.ch.Details, "; ")}}
	}
	return nil
}
