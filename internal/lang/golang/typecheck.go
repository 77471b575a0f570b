package golang

import (
	"context"
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/ripple-dev/ripple/internal/config"

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

// typecheck runs the precise tier over the packages holding references,
// within the deadline (precision auto) or fully (precision types).
func (a *analyzer) typecheck(ctx context.Context, ts []*target, refs []*ref, extra []*pfile) *typeVerdicts {
	if a.env.Precision == config.PrecisionSyntax || len(refs) == 0 && len(extra) == 0 {
		return nil
	}
	t0 := time.Now()
	defer func() {
		if a.loader != nil {
			trace("typecheck %d references in %v: %d packages read for the units, %d loaded from source, %d repository packages whole from the cache", len(refs), time.Since(t0), a.loader.read, a.loader.loaded, a.loader.cached)
		}
	}()
	if toolchainEnv().goroot == "" {
		a.note("nogo", "type checking used no standard library sources (the go command is not on PATH): types from outside the repository are unknown")
	}
	deadline := a.env.Deadline
	if a.env.Precision == config.PrecisionTypes {
		deadline = time.Time{}
	}
	if a.loader == nil {
		a.loader = newLoader(a, deadline)
	}
	l := a.loader
	if l.cache != nil {
		defer l.cache.heads.save()
	}
	words, added := keptBodies(ts, refs)
	tv := &typeVerdicts{a: a, l: l, byFile: map[string][]*unitResult{}}
	units, keys := checkUnitsOf(ts, refs, extra)
	trace("bodies kept: those holding a reference or naming %s", someOf(append([]string(nil), words...), 12))
	var cands func() map[*target]implCands
	if added && words != nil {
		// the types that may have implemented the interface are found
		// (a search, declarations parsed) while the units are checked:
		// neither reads what the other writes
		cands = a.impls.startImplCandidates(ctx, ts)
	}
	uc := &unitChecker{ctx: a.ctx, ix: a.ix}
	results, checked, skipped := uc.checkUnits(ctx, l, units, keys, words)
	if added && words != nil {
		if open, bounded := a.impls.unsettled(ts, results, cands()); len(open) > 0 || !bounded {
			// every body, and the packages that may hold values of the
			// open types: theirs and their importers
			trace("%d implementations of the changed interface not settled by the bodies naming it: checking every body", len(open))
			units, keys = checkUnitsOf(ts, refs, append(extra, a.impls.mayConvert(ctx, open)...))
			results, checked, skipped = uc.checkUnits(ctx, l, units, keys, nil)
		}
	}
	for _, rs := range results {
		for _, res := range rs {
			tv.units = append(tv.units, res)
			for f := range res.files {
				tv.byFile[f] = append(tv.byFile[f], res)
			}
		}
	}
	a.typed += checked
	if skipped > 0 {
		l.budgetNote(ctx, units, keys, results, checked, skipped)
	}
	l.stubNotes()
	return tv
}

// keptBodies returns the words whose bodies the type checker keeps (nil:
// every body), and whether an interface gained a method. The bodies kept
// are those naming a target. When an interface changed, "does not
// implement" errors stand wherever an implementation is converted to the
// interface, in bodies that need not name it (oci.NewLiveClient() passed
// as a Client; keeping only the bodies that name an implementation lost
// 4 of 10 sites of cli ef9069a1b0). A changed or removed method: nothing
// is slimmed. An added method: the bodies naming the interface are
// checked first, and all of them only if a type that implemented the
// interface is not shown by then to be used as it or to have the method
// (settled). Only the targets of the references judged here count: a
// body change's callers, resolved without types, must not keep every
// body calling it (terraform's NewDefaultProvider: most of its tests).
func keptBodies(ts []*target, refs []*ref) (words []string, added bool) {
	judged := map[*target]bool{}
	for _, r := range refs {
		judged[r.t] = true
	}
	words = []string{} // nil: every body
	for _, t := range ts {
		if t.iface && !isAddedMethod(t) {
			words = nil
			break
		}
		added = added || t.iface
		if judged[t] || isAddedMethod(t) {
			words = append(words, t.name, t.container)
		}
	}
	return words, added
}

// budgetNote says that type checking stopped at the time budget, with
// checked of checked+skipped packages done, and why: with a cold type
// cache, what the budget went to was building the imports' types, which
// a warm-up prepares (the check is then marked cold).
func (l *loader) budgetNote(ctx context.Context, units map[string]*checkUnit, keys []string, results [][]*unitResult, checked, skipped int) {
	a := l.a
	why := "raise budget, or use precision: types"
	if !l.coldCache() {
		l.lateMissing += a.uncachedImports(ctx, l, units, keys, results)
	}
	if l.coldCache() {
		// a cold cache: what the budget went to was building the
		// imports' types, which a warm-up prepares
		a.cold = true
		what := "it was empty"
		switch {
		case l.loaded > 0:
			what = model.Plural(l.loaded, "imported package was", "imported packages were") + " loaded from source"
		case l.lateMissing > 0:
			what = fmt.Sprintf("it lacked %s", model.Plural(l.lateMissing, "imported package", "imported packages"))
		}
		why = fmt.Sprintf("the type cache was cold: %s; `hook warm` prepares it, and the hook starts it after such a push", what)
	}
	a.note("budget", fmt.Sprintf("type checking stopped at the time budget: %d of %d packages checked, the others have syntax precision (%s)", checked, checked+skipped, why))
}

// stubNotes says which imported packages were stubbed, so that the code
// using them was judged by its syntax: the repository's own (which the
// module cache never holds), those not found, and those past the time
// budget or in an import cycle.
func (l *loader) stubNotes() {
	a := l.a
	var absent, own, late []string
	l.mu.Lock()
	for p := range l.stubbed {
		switch {
		case l.absent[p] && a.ix.mods.inRepo(p):
			// a package of the repository's own modules is never in the
			// module cache: go mod download cannot bring it
			own = append(own, p)
		case l.absent[p]:
			absent = append(absent, p)
		default:
			late = append(late, p)
		}
	}
	l.mu.Unlock()
	if len(own) > 0 {
		were := "were"
		if len(own) == 1 {
			were = "was"
		}
		a.note("own", fmt.Sprintf("%s of the repository's own modules %s not loaded (under testdata, which the go tool ignores, or not in the pushed tree): the code using them was judged by its syntax: %s",
			model.Plural(len(own), "imported package", "imported packages"), were, someOf(own, 4)))
	}
	if len(absent) > 0 {
		a.note("absent", fmt.Sprintf("%s not found (not in the module cache): the code using them was judged by its syntax, and no site around them is called consistent; run `go mod download` to check it with types: %s",
			model.Plural(len(absent), "imported package was", "imported packages were"), someOf(absent, 4)))
	}
	if len(late) > 0 {
		a.note("stubs", fmt.Sprintf("%s not loaded (past the time budget, or an import cycle): the code using them was judged by its syntax: %s",
			model.Plural(len(late), "imported package was", "imported packages were"), someOf(late, 4)))
	}
}

// someOf lists at most n of names, sorted, and says how many it left out.
func someOf(names []string, n int) string {
	sort.Strings(names)
	if len(names) <= n {
		return strings.Join(names, ", ")
	}
	return strings.Join(names[:n], ", ") + fmt.Sprintf(" and %d more", len(names)-n)
}

// uncachedImports counts the imports outside the repository of the
// units the deadline left unchecked that the export-data cache does not
// hold: when the budget ran out before their imports were even asked
// for, whether a warm cache would have held them is still the question
// (coldCache).
func (a *analyzer) uncachedImports(ctx context.Context, l *loader, units map[string]*checkUnit, keys []string, results [][]*unitResult) int {
	if l.cache == nil {
		return 0
	}
	l.loadMu.Lock()
	defer l.loadMu.Unlock()
	seen, n := map[string]bool{}, 0
	for i, k := range keys {
		if results[i] != nil {
			continue
		}
		u := units[k]
		paths := make([]string, 0, len(u.refFiles))
		for f := range u.refFiles {
			paths = append(paths, f)
		}
		sort.Strings(paths)
		for _, f := range a.ix.parse(ctx, paths) {
			for _, ip := range f.imports {
				if seen[ip] {
					continue
				}
				seen[ip] = true
				loc, ok := l.locate(ip, location{repo: true, dir: u.dir})
				if ok && !loc.repo && !l.cache.has(l.cache.file(ip, loc.dir, platforms[0])) {
					n++
				}
			}
		}
	}
	return n
}

func (a *analyzer) note(key, s string) {
	if a.env.Note != nil {
		a.env.Note(key, s)
	}
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

// hasWord reports whether s holds w between characters that are not
// ASCII letters, digits or underscores (regexp's \bw\b, for an
// identifier w).
func hasWord(s, w string) bool {
	word := func(c byte) bool {
		return c == '_' || '0' <= c && c <= '9' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z'
	}
	for i := 0; w != ""; {
		j := strings.Index(s[i:], w)
		if j < 0 {
			return false
		}
		at, end := i+j, i+j+len(w)
		if (at == 0 || !word(s[at-1])) && (end == len(s) || !word(s[end])) {
			return true
		}
		i = at + 1
	}
	return false
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

// resolves reports whether the type checker resolved a reference's
// identifier to its target's declaration.
func (tv *typeVerdicts) resolves(r *ref) bool {
	obj, ok := tv.objectOf(r)
	return ok && tv.targetObj(obj, r.t)
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

// verdictFor refines a syntactic verdict with the checker's findings.
func (tv *typeVerdicts) verdictFor(r *ref, syn verdict) (verdict, bool) {
	if len(tv.byFile[r.f.path]) == 0 || r.kind == rkIfaceDcl || r.kind == rkCopy || syn.silent || r.t.ch.Derived {
		return verdict{}, false
	}
	if r.kind == rkImpl {
		return tv.implVerdict(r, syn)
	}
	rel := syn.rel
	if rel == "" {
		rel = relationOf(r)
	}
	errs := tv.guessFree(r.f, proofs(tv.relevantErrors(r)))
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
	if r.t.ch.Label == model.MMB || syn.keep {
		return syn, true // behaviour: types cannot tell
	}
	if m := tv.missingAround(r); m != "" {
		return verdict{missing: m}, false
	}
	if v, ok := (syntaxRules{tv.a}).discardVerdict(r, rel); ok {
		return v, true
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
	if m := omitsAddedVariadic(r); m != "" {
		return verdict{rel: rel, v: model.MayFollow, msg: m}, true
	}
	if m := tv.narrowedPassedOn(r); m != "" {
		return verdict{rel: rel, v: model.MayBeImpacted, msg: m}, true
	}
	return verdict{rel: rel, v: model.Consistent, msg: "type-checks against the new declaration"}, true
}

// omitsAddedVariadic says when a call binds only because the parameter
// the change added is variadic and the call passes nothing for it: Go's
// optional parameter, which the caller may have to pass (cobra
// 24ada7fe71: InitDefaultCompletionCmd(args ...string), and the caller
// passed its args). A note, the farther frontier: the call compiles.
func omitsAddedVariadic(r *ref) string {
	if r.kind != rkCall || r.call == nil || r.call.Ellipsis.IsValid() || r.t.ch.Label != model.MMS && r.t.ch.Label != model.MCC {
		return ""
	}
	of, _ := r.t.old.Data.(*funcInfo)
	nf, _ := r.t.new.Data.(*funcInfo)
	if of == nil || nf == nil || of.Variadic || !nf.Variadic || len(nf.Params) != len(of.Params)+1 || len(r.call.Args) != len(of.Params) {
		return ""
	}
	if typesOf(of.Params) != typesOf(nf.Params[:len(of.Params)]) || typesOf(of.Results) != typesOf(nf.Results) {
		return "" // more changed than the added parameter
	}
	p := nf.Params[len(nf.Params)-1]
	name := p.Name
	if name == "" || name == "_" {
		name = "..." + p.Type
	}
	return fmt.Sprintf("the call binds; %s gained variadic parameter %s, which it does not pass", r.t.new.Name, name)
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

// proofs drops the errors that follow from a type the checker could not
// resolve ("cannot index s.Items (variable with invalid type)", when the
// field's new type is declared nowhere; "missing type in composite
// literal" inside a literal of a package not loaded: nats 74ba047070):
// they say nothing of the change, whatever that type turns out to be (a
// pointer to an array can be indexed); the evidence rule then keeps the
// syntactic verdict.
func proofs(errs []types.Error) []types.Error {
	out := errs[:0:0]
	for _, e := range errs {
		if !strings.Contains(e.Msg, "invalid type") && !strings.HasPrefix(e.Msg, "missing type in composite literal") && !selfMismatch(e.Msg) {
			out = append(out, e)
		}
	}
	return out
}

// guessFree drops "undefined: X" errors in a file that imports, without
// naming it, a package that was not loaded: the name such an import
// binds was guessed from its path (kubectl's k8s.io/api/core/v1 is
// package v1, not core), and X may be that package.
func (tv *typeVerdicts) guessFree(f *pfile, errs []types.Error) []types.Error {
	if len(errs) == 0 || f == nil || f.ast == nil {
		return errs
	}
	guessed := false
	tv.l.mu.Lock()
	for _, im := range f.ast.Imports {
		if im.Name != nil {
			continue
		}
		if ip, err := strconv.Unquote(im.Path.Value); err == nil && tv.l.stubbed[ip] {
			guessed = true
		}
	}
	tv.l.mu.Unlock()
	if !guessed {
		return errs
	}
	out := errs[:0:0]
	for _, e := range errs {
		if name, ok := strings.CutPrefix(e.Msg, "undefined: "); ok && token.IsIdentifier(name) {
			continue
		}
		out = append(out, e)
	}
	return out
}

// selfMismatchRE matches a checker error that names one type on both
// sides: "zapcore.Core does not implement zapcore.Core", "cannot use x
// (variable of type p.T) as p.T value".
var selfMismatchRE = regexp.MustCompile(`(?:^|\s)(\*?[\w.]+) does not implement (\*?[\w.]+)|of (?:interface |struct )?type (\*?[\w.\[\], ]+)\) as (\*?[\w.\[\], ]+) value`)

// selfMismatch reports an error between two copies of one package: an
// external test package sees the package under test built with its
// tests while the packages it also imports were built without them
// (go test rebuilds those too; the loader does not). The types print
// alike and differ only by the copy: no build has that error (uber-go/zap
// 7c80d7b53d).
func selfMismatch(msg string) bool {
	for _, m := range selfMismatchRE.FindAllStringSubmatch(msg, -1) {
		if m[1] != "" && m[1] == m[2] || m[3] != "" && m[3] == m[4] {
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
