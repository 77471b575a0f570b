package golang

import (
	"context"
	"fmt"
	"go/ast"
	"os"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/ripple-dev/ripple/internal/config"

	"github.com/ripple-dev/ripple/internal/lang"
	"github.com/ripple-dev/ripple/internal/model"
)

// analyzer answers impact queries for one check.
type analyzer struct {
	fe     *Frontend
	env    *lang.Env
	ix     *index
	syms   *symbols
	typed  int
	loader *loader // shared by the rounds of a walk
	// ctx is the check's: the analyzer lives for one check, and helpers
	// deep in the syntactic tier (package names, fixes) read files too.
	ctx context.Context
	// impls finds the types that implement an interface (implSearch)
	impls *implSearch
	// lint reads the repository's golangci-lint configuration (errcheck.go)
	lint *lintConfigs
	// additions are the structs of this round that gained fields (copies.go)
	additions map[tref]*addedFields
	// cold: type checking stopped at the time budget after loading
	// imported packages from source (the export-data cache lacked them)
	cold bool
	// bodyByName counts the calls of changed method bodies matched by
	// name only that were left out (judge)
	bodyByName int
}

func (a *analyzer) Stats() (int, int) { return a.ix.Count(), a.typed }

func (a *analyzer) Cold() bool { return a.cold }

// pkgKeyOf is the package key of a block: its import path, with "_test"
// for an external test package.
func (a *analyzer) pkgKeyOf(b *model.Block) string {
	k := a.ix.mods.importPath(b.Package)
	if strings.HasSuffix(b.Unit, "_test") {
		k += "_test"
	}
	return k
}

// The Go front-end's finders (lang.Finder): which labels it searches
// for and along which relations. The core's table decides which of them
// run on a change (Query.Relations); they share one index, and the
// reference finder searches all its targets at once (one word search,
// one walk of each candidate file, one type check).
var (
	// importFinder: the uses of a deleted or changed import in its file,
	// and the importers of a package whose files were all deleted
	// (imports.go).
	importFinder = lang.Finder{Name: "imports",
		Labels:    []model.Label{model.DI, model.MI, model.DM, model.DC, model.DF},
		Relations: []model.Relation{model.ImportedBy}}
	// tagFinder: the struct-tag readers of a changed or deleted field
	// (imports.go).
	tagFinder = lang.Finder{Name: "struct tags",
		Labels:    []model.Label{model.MF, model.DF},
		Relations: []model.Relation{model.UsedBy}}
	// referenceFinder: the references to a changed declaration's name,
	// judged by syntax and the type checker: calls, implementations,
	// uses, literals, embeddings, variants.
	referenceFinder = lang.Finder{Name: "references",
		Labels: []model.Label{model.MMB, model.MMS, model.MF, model.MC, model.MCC, model.AM, model.AF, model.DM, model.DF, model.DC, model.DCC},
		Relations: []model.Relation{model.CalledBy, model.OverriddenBy, model.Overrides, model.UsedBy,
			model.InstantiatedBy, model.EmbeddedBy, model.ReferencedBy, model.VariantOf}}
	finders = []lang.Finder{importFinder, tagFinder, referenceFinder}
)

// targets turns the reference finder's changes into the declarations
// whose dependents are searched. An added method leads somewhere only
// in an interface, an added field only in a struct.
func (a *analyzer) targets(changes []*model.Change) []*target {
	// the walk asks nothing of a body change that does not escape nor of
	// the members of a type the diff adds (propagate.Relations,
	// propagate.MembersOfAdded): the policy is the core's
	var ts []*target
	for _, c := range changes {
		old, new := c.Old, c.New
		d := c.Known()
		if d == nil {
			continue
		}
		t := &target{ch: c, old: old, new: new, name: d.Name, kind: d.Kind, pkgKey: a.pkgKeyOf(d), container: d.Container}
		t.member = d.Kind == model.KindMethod || d.Kind == model.KindIfaceMethod || d.Kind == model.KindField
		t.iface = d.Kind == model.KindIfaceMethod || d.Kind == model.KindInterface
		switch c.Label {
		case model.AM:
			if d.Kind != model.KindIfaceMethod {
				continue
			}
			// a method added to an interface: its implementations must add
			// it where they are used as the interface (the type checker
			// says where); the interface's name leads to those uses
			t.name, t.member, t.kind = d.Container, false, model.KindInterface
		case model.AF:
			if d.Kind != model.KindField {
				continue
			}
		}
		ts = append(ts, t)
	}
	return ts
}

// Answer answers the queries of one round: each finder is given the
// changes it serves, and the refs of the relations asked are kept.
func (a *analyzer) Answer(ctx context.Context, qs []lang.Query) ([]*lang.Ref, error) {
	ir := &importers{ix: a.ix, env: a.env}
	extra := append(ir.importFindings(ctx, importFinder.Serving(qs)), tagFindings(ctx, a.env, tagFinder.Serving(qs))...)
	refs, err := a.references(ctx, referenceFinder.Serving(qs))
	if err != nil {
		return nil, err
	}
	return lang.Keep(qs, outsideVendor(append(refs, extra...))), nil
}

// outsideVendor drops the sites in vendor/ directories: a vendored
// module is its authors' release, consistent as vendored (go mod vendor
// copies it whole), and a diff that bumps it changes its files together;
// the repository's own uses of what changed are the sites. On a lazygit
// bump of golang.org/x/sys, the variants of a deleted
// syscall_linux_ppc.go's functions were 75 warnings inside vendor/.
func outsideVendor(refs []*lang.Ref) []*lang.Ref {
	out := refs[:0]
	for _, r := range refs {
		if !inVendor(r.Site.Path) {
			out = append(out, r)
		}
	}
	return out
}

func inVendor(p string) bool {
	return strings.HasPrefix(p, "vendor/") || strings.Contains(p, "/vendor/")
}

// seedDeclFiles lists the files of the seed packages (seedDirs) that the
// search did not find (paths): the seed packages' declarations are
// indexed too, for resolving receivers; their files that hold none of
// the words hold no reference, so their bodies are not parsed. A package
// of more than 400 files is left out.
func (ix *index) seedDeclFiles(seedDirs map[string]bool, paths []string) []string {
	seen := map[string]bool{}
	for _, p := range paths {
		seen[p] = true
	}
	var declOnly []string
	for d := range seedDirs {
		files := ix.byDir[d]
		if len(files) > 400 {
			continue
		}
		for _, p := range files {
			if !seen[p] {
				seen[p] = true
				declOnly = append(declOnly, p)
			}
		}
	}
	return declOnly
}

// targetsByName indexes the targets for the walker: by name, and the
// added, deleted and modified fields by their struct type.
func targetsByName(ts []*target) (byName map[string][]*target, byType map[tref][]*target) {
	byName = map[string][]*target{}
	byType = map[tref][]*target{}
	for _, t := range ts {
		byName[t.name] = append(byName[t.name], t)
		if t.kind == model.KindField && (t.ch.Label == model.AF || t.ch.Label == model.DF || t.ch.Label == model.MF) {
			k := tref{t.pkgKey, t.container}
			byType[k] = append(byType[k], t)
		}
	}
	return byName, byType
}

// references is the reference finder: one search for the names of every
// target, one walk of each file that holds one, the verdicts.
func (a *analyzer) references(ctx context.Context, changes []*model.Change) ([]*lang.Ref, error) {
	ts := a.targets(changes)
	if len(ts) == 0 {
		return nil, nil
	}
	words := map[string]bool{}
	seedDirs := map[string]bool{}
	// members on the farther frontier are searched where the syntax can
	// resolve their receivers (frontier below)
	far := map[string][]*target{}
	for _, t := range ts {
		if a.farMember(t) {
			far[t.name] = append(far[t.name], t)
			seedDirs[t.decl().Package] = true
			continue
		}
		if !addedField(t) {
			words[t.name] = true
		}
		if t.kind == model.KindField && t.ch.Label != model.MF {
			words[t.container] = true // struct literals of the type
		}
		seedDirs[t.decl().Package] = true
		if t.kind == model.KindIfaceMethod && t.old != nil {
			// implementations are recognised by having every method
			if it := ifaceMethods(t); it != nil {
				for _, m := range it {
					words[m] = true
				}
			}
		}
	}
	wl := make([]string, 0, len(words))
	for w := range words {
		wl = append(wl, w)
	}
	sort.Strings(wl)
	t0 := time.Now()
	paths, err := a.ix.Search(ctx, wl)
	if err == nil && len(far) > 0 {
		var more []string
		if more, err = a.frontier(ctx, far); err == nil {
			paths = append(paths, more...)
			sort.Strings(paths)
			paths = slices.Compact(paths)
			for w := range far {
				words[w] = true
				wl = append(wl, w)
			}
		}
	}
	trace("grep %d words: %d files in %v", len(wl), len(paths), time.Since(t0))
	if err != nil {
		return nil, err
	}
	declOnly := a.ix.seedDeclFiles(seedDirs, paths)
	files := a.ix.parseHits(ctx, paths, partialWords(ts, words))
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	for _, f := range a.ix.declFiles(ctx, declOnly) {
		a.syms.add(f)
	}
	for _, f := range files {
		a.syms.add(f)
	}
	byName, byType := targetsByName(ts)
	a.additions = a.fieldAdditions(ts)
	var refs []*ref
	for _, f := range files {
		if !words[""] && !fileMentions(f, words) {
			continue
		}
		w := &walker{syms: a.syms, f: f, byName: byName, byType: byType, added: a.additions}
		w.walk()
		refs = append(refs, w.refs...)
	}
	fs := a.judge(ctx, ts, refs, a.interfaceUses(ctx, refs))
	vs := &variants{ix: a.ix, env: a.env}
	return append(fs, vs.variantFindings(ctx, ts, refs)...), nil
}

// addedField reports a field a struct gained: what it reaches are the
// struct's literals (unkeyed ones break, keyed copies may miss it) and
// the functions reading every old field (copies.go), all found through
// the struct's name. Its own name leads nowhere: no code that compiled
// before selected it, so it is not searched (on a range of terraform's
// history, name-matched selectors of added fields such as Addr were 98%
// of the references sent to the type checker, for no verdict).
func addedField(t *target) bool {
	return t.ch.Label == model.AF && t.kind == model.KindField
}

// partialWords are the words a function of a file the search found must
// name for its body to be parsed (partial.go): the words searched, and
// the targets' names and containers, which the type check keeps the
// bodies naming (slim) and which a struct literal the walker matches to
// a changed field's struct names (its type, or the outer literal's whose
// elements it is, in the same function). nil when every body is read: a
// changed or removed interface method (the type check keeps every body).
func partialWords(ts []*target, words map[string]bool) map[string]bool {
	if words[""] {
		return nil
	}
	keep := map[string]bool{}
	for w := range words {
		keep[w] = true
	}
	for _, t := range ts {
		if t.iface && !isAddedMethod(t) {
			return nil
		}
		keep[t.name] = true
		if t.container != "" {
			keep[t.container] = true
		}
	}
	return keep
}

// fileMentions is a cheap check that a parsed file contains one of the words
// (the grep matched it, but seed-package files are parsed regardless).
func fileMentions(f *pfile, words map[string]bool) bool {
	found := false
	ast.Inspect(f.ast, func(n ast.Node) bool {
		if found {
			return false
		}
		if id, ok := n.(*ast.Ident); ok && words[id.Name] {
			found = true
		}
		return true
	})
	return found
}

// ifaceMethods returns the method names of the interface that declares
// an interface-method target, from the file its declaration was read
// from (the old state when there is one).
func ifaceMethods(t *target) []string {
	var out []string
	if it := ifaceType(t); it != nil {
		for _, m := range it.Methods.List {
			for _, n := range m.Names {
				out = append(out, n.Name)
			}
		}
	}
	return out
}

// ifaceType returns the interface type of an interface target's
// container, nil when it is not found.
func ifaceType(t *target) *ast.InterfaceType { return ifaceTypeOf(t.decl(), t.container) }

// ifaceTypeOf returns the interface type named name in the file a
// block was read from, nil when it is not found.
func ifaceTypeOf(b *model.Block, name string) *ast.InterfaceType {
	if b == nil {
		return nil
	}
	fi, ok := b.Data.(*funcInfo)
	if !ok || fi.File == nil {
		return nil
	}
	for _, d := range fi.File.Decls {
		gd, ok := d.(*ast.GenDecl)
		if !ok {
			continue
		}
		for _, s := range gd.Specs {
			if ts, ok := s.(*ast.TypeSpec); ok && ts.Name.Name == name {
				if it, ok := ts.Type.(*ast.InterfaceType); ok {
					return it
				}
			}
		}
	}
	return nil
}

// judge turns references into findings: syntactic verdicts first, then
// the type checker's where it ran.
func (a *analyzer) judge(ctx context.Context, ts []*target, refs []*ref, extra []*pfile) []*lang.Ref {
	var out []*lang.Ref
	aliased := aliasedTypes(ts)
	syn, unsure := a.syntacticVerdicts(ts, refs, aliased)
	if a.bodyByName > 0 {
		a.note("go-body-by-name", fmt.Sprintf("methods whose body changed: %s matched by name only, not resolved (notes at most; precision types resolves them)",
			model.Plural(a.bodyByName, "call", "calls")))
	}
	if os.Getenv("RIPPLE_TRACE") != "" {
		by := map[string]int{}
		for _, r := range unsure {
			by[string(r.t.ch.Label)+"/"+string(r.prec)+"/"+r.t.name]++
		}
		trace("unsure %d: %v", len(unsure), by)
	}
	tv := a.typecheck(ctx, ts, unsure, extra)
	seen := map[string]bool{}
	wrapped := map[*ast.FuncDecl]bool{}
	claimed := map[tref]bool{}
	fx := &fixer{ctx: a.ctx, ix: a.ix, env: a.env}
	for i, r := range refs {
		if tv != nil && r.prec == model.PrecisionName && r.t.frontier() && tv.resolves(r) {
			// a name-matched call on the frontier that the type checker
			// resolved to the declaration: all the checker judges there
			// (the callee may change in a way not known yet)
			r.prec = model.PrecisionTypes
			syn[i] = syntaxRules{a}.syntacticVerdict(r)
		}
		v := syn[i]
		prec := r.prec
		if tv != nil && !v.exactly && !(r.t.ch.Derived && r.t.old != r.t.new) {
			if tr, ok := tv.verdictFor(r, v); ok {
				v, prec = tr, model.PrecisionTypes
			} else if tr.missing != "" {
				v.missing = tr.missing
			}
		}
		if to := aliased[tref{r.t.pkgKey, r.t.container}]; to != "" && r.t.member && prec != model.PrecisionTypes && v.v == model.Inconsistent {
			// the syntax typed the receiver as the alias: the method is
			// the aliased type's, which the type checker did not read
			v.v, v.exactly = model.MayBeImpacted, false
			v.msg += fmt.Sprintf("; but %s is now an alias of %s, which may declare it", r.t.container, to)
		}
		if r.t.ch.Label == model.AM && r.t.kind == model.KindInterface && (tv == nil || len(tv.byFile[r.f.path]) == 0) {
			// no type checker judged this use of an interface that gained
			// a method: what the syntax shows
			out = append(out, a.impls.claimedImpls(r, claimed)...)
		}
		if v.skip || v.silent {
			continue
		}
		f := a.ix.finding(r, v, prec)
		f.Fix = fx.fixFor(r, v)
		seen[siteKey(f)] = true
		out = append(out, f)
		if r.kind == rkImpl && v.v == model.Inconsistent {
			f.Follow = a.followImpl(r)
		}
		if fl := a.followWrapper(r, v, wrapped); fl != nil {
			f.Follow = fl
		}
	}
	if tv != nil {
		out = withExtra(out, tv.extraFindings(a, ts, seen))
	}
	return out
}

// syntacticVerdicts is the fast tier: the syntax's verdict on each
// reference (syn, by index), and the references it is unsure of, which
// the type checker is to judge. The precise tier runs only where the fast
// tier is unsure: a syntactic proof (an argument count, a removed
// package-level name) is final, and a check whose references are all
// proven type-checks nothing. aliased are the types now aliases
// (aliasedTypes).
func (a *analyzer) syntacticVerdicts(ts []*target, refs []*ref, aliased map[tref]string) (syn []verdict, unsure []*ref) {
	syn = make([]verdict, len(refs))
	gone := goneTypes(ts, refs)
	for i, r := range refs {
		if r.prec == model.PrecisionName && r.t.member && (gone[tref{r.t.pkgKey, r.t.container}] || aliased[tref{r.t.pkgKey, r.t.container}] != "") {
			syn[i] = verdict{skip: true}
			continue
		}
		if addedField(r.t) && r.kind != rkLiteral && r.kind != rkCopy {
			// a use of a field's name: no site that compiled before
			// used the added field, and none is judged (copies.go)
			syn[i] = verdict{skip: true}
			continue
		}
		syn[i] = syntaxRules{a}.syntacticVerdict(r)
		if syn[i].binds && a.env.Precision != config.PrecisionTypes && a.editedCall(r) {
			// the developer rewrote this call in the same diff and it binds
			// to the new signature: consistent, without loading types (the
			// complete change of a signature on terraform: 1.9 s with, 0.3 s
			// without); "types" still proves the argument types
			syn[i] = verdict{rel: syn[i].rel, v: model.Consistent,
				msg: "the call binds to the new signature (its argument types were not checked)"}
			continue
		}
		if r.t.ch.Derived && r.t.old != r.t.new {
			// a signature a declaration may have to take: the code does
			// not have it yet, so the type checker cannot judge against it
			continue
		}
		if r.kind == rkCopy {
			continue // syntax only: types cannot tell what a function means to cover
		}
		if a.env.Precision != config.PrecisionTypes && frontierOnly(r) {
			// the farther frontier (notes): found by what the syntax
			// resolves; the type checker runs for what may block or warn
			continue
		}
		if r.t.ch.Label == model.MMB && !r.t.member && r.prec != model.PrecisionName {
			// a caller of a package-level function whose body changed:
			// resolved exactly, and types cannot tell behaviour
			continue
		}
		if r.t.ch.Label == model.MMB && a.env.Precision != config.PrecisionTypes && a.env.NoteOnly(model.MMB, model.CalledBy) {
			// a call of a method whose body changed, which can only be a
			// note: the type checker is spent on what can block or warn
			// (on 50 commits of terraform's history these calls were 16
			// of 18 packages checked). A receiver the syntax resolved is
			// reported as such; a call matched by the method's name only
			// is no evidence of a dependent, and is left out
			if r.prec == model.PrecisionName {
				syn[i] = verdict{skip: true}
				a.bodyByName++
			}
			continue
		}
		if !syn[i].exactly && !(syn[i].skip && !syn[i].unlessTypes && r.prec != model.PrecisionName) {
			unsure = append(unsure, r)
		}
	}
	return syn, unsure
}

// withExtra appends the type checker's extra findings to out. A method
// that implemented a removed interface method and now stands where its
// type misses the method that replaced it: the error says both, and the
// warning on the same line is dropped.
func withExtra(out, extra []*lang.Ref) []*lang.Ref {
	type line struct {
		path string
		n    int
	}
	stale := map[line]bool{}
	for _, f := range extra {
		if f.Relation == model.OverriddenBy && f.Verdict == model.Inconsistent {
			stale[line{f.Site.Path, f.Site.Line}] = true
		}
	}
	kept := out[:0]
	for _, f := range out {
		if f.Relation == model.OverriddenBy && f.Verdict == model.MayBeImpacted && f.Change.Label == model.DM &&
			stale[line{f.Site.Path, f.Site.Line}] {
			continue
		}
		kept = append(kept, f)
	}
	return append(kept, extra...)
}

// siteKey identifies a ref's site and rule, for the checker's findings
// that must not repeat a syntactic one.
func siteKey(f *lang.Ref) string {
	return fmt.Sprintf("%s:%d:%d:%s/%s:%s", f.Site.Path, f.Site.Line, f.Site.Col, f.Change.Label, f.Relation, f.Change.Block().Display)
}

// followWrapper makes the derived change of a wrapper: a function whose
// broken call of the changed function forwards its own parameters to it,
// or returns its results directly. Such a function must change its own
// signature to follow, and its callers are impacted in turn.
//
// A function whose call no longer binds because the change added a
// parameter, and a caller of a function that must follow (a chain), may
// have to take the new value from its own callers: the value is threaded
// up to an entry point, and those callers are the frontier (notes).
func (a *analyzer) followWrapper(r *ref, v verdict, done map[*ast.FuncDecl]bool) *lang.Follow {
	if r.kind != rkCall || r.call == nil || v.v == model.Consistent || v.v != model.Inconsistent && !r.t.ch.Derived {
		return nil
	}
	if l := r.t.ch.Label; l != model.MMS && l != model.MCC {
		return nil
	}
	var fd *ast.FuncDecl
	for _, n := range r.stack {
		if d, ok := n.(*ast.FuncDecl); ok {
			fd = d
		}
	}
	if fd == nil || done[fd] || fd.Name.Name == "main" || fd.Name.Name == "init" || strings.HasPrefix(fd.Name.Name, "Test") {
		return nil
	}
	if b := r.t.ch.Block(); b.Path == r.f.path && b.Name == fd.Name.Name && a.ix.fset.PositionFor(fd.Name.Pos(), false).Line == b.NameLine {
		return nil // a recursive call: the function is the change itself
	}
	why := ""
	if len(r.stack) >= 2 {
		if ret, ok := r.stack[len(r.stack)-2].(*ast.ReturnStmt); ok && len(ret.Results) == 1 && ret.Results[0] == r.call && resultsChanged(r.t) {
			why = "returns its results"
		}
	}
	of, _ := r.t.old.Data.(*funcInfo)
	nf, _ := r.t.new.Data.(*funcInfo)
	// a wrapper must grow or shrink with the callee's parameter list; a
	// retyped parameter is fixed inside the wrapper
	paramsChanged := of != nil && nf != nil && len(of.Params) != len(nf.Params)
	if why == "" && paramsChanged && len(r.call.Args) > 0 {
		params := map[*binding]bool{}
		for _, f := range fd.Type.Params.List {
			for _, n := range f.Names {
				params[r.f.scopes.lookup(n)] = true
			}
		}
		all := true
		for _, arg := range r.call.Args {
			id, ok := arg.(*ast.Ident)
			if !ok || r.f.scopes.unresolved(id) || !params[r.f.scopes.lookup(id)] {
				all = false
				break
			}
		}
		if all {
			why = "forwards its parameters"
		}
	}
	details := ""
	switch {
	case why != "":
		details = "wraps " + r.t.ch.Block().Display + " (" + why + "), whose " + strings.Join(r.t.ch.Details, "; ")
	case r.t.ch.Derived && r.t.old == r.t.new:
		details = "calls " + r.t.ch.Block().Display + ", which may change: may have to take a new value from its callers"
	case of != nil && nf != nil && len(nf.Params) > len(of.Params):
		details = "calls " + r.t.ch.Block().Display + " (" + strings.Join(r.t.ch.Details, "; ") + "): may have to take the new value from its callers"
	default:
		return nil
	}
	done[fd] = true
	fi := &funcInfo{Decl: fd, File: r.f.ast, Fset: a.ix.fset}
	fi.Params, fi.Variadic = fieldList(fd.Type.Params)
	fi.Results, _ = fieldList(fd.Type.Results)
	kind := model.KindFunc
	if fd.Recv != nil && len(fd.Recv.List) > 0 {
		fi.Recv, fi.RecvPtr = recvBase(fd.Recv.List[0].Type)
		kind = model.KindMethod
	}
	d := &lang.Decl{Block: model.Block{
		Lang: "go", Kind: kind, Path: r.f.path, Package: r.f.dir, Unit: r.f.pkgName,
		Container: fi.Recv, Name: fd.Name.Name, Display: declName(fd),
		Span:     model.Span{StartLine: a.ix.fset.PositionFor(fd.Pos(), false).Line, EndLine: a.ix.fset.PositionFor(fd.End(), false).Line},
		NameLine: a.ix.fset.PositionFor(fd.Name.Pos(), false).Line,
		Data:     fi,
	}}
	return &lang.Follow{Decl: d, Label: model.MMS, Details: []string{details}, Frontier: why == ""}
}

// followImpl makes the derived change of an implementation that must
// follow a changed interface method: its own callers are impacted next.
func (a *analyzer) followImpl(r *ref) *lang.Follow {
	fi := &funcInfo{Decl: r.decl, File: r.f.ast, Fset: a.ix.fset, Recv: r.implRcv}
	fi.Params, fi.Variadic = fieldList(r.decl.Type.Params)
	fi.Results, _ = fieldList(r.decl.Type.Results)
	if r.decl.Recv != nil && len(r.decl.Recv.List) > 0 {
		_, fi.RecvPtr = recvBase(r.decl.Recv.List[0].Type)
	}
	d := &lang.Decl{Block: model.Block{
		Lang: "go", Kind: model.KindMethod, Path: r.f.path, Package: r.f.dir, Unit: r.f.pkgName,
		Container: r.implRcv, Name: r.decl.Name.Name, Display: declName(r.decl),
		Span:     model.Span{StartLine: a.ix.fset.PositionFor(r.decl.Pos(), false).Line, EndLine: a.ix.fset.PositionFor(r.decl.End(), false).Line},
		NameLine: a.ix.fset.PositionFor(r.decl.Name.Pos(), false).Line,
		Data:     fi,
	}}
	return &lang.Follow{Decl: d, Label: model.MMS,
		Details: []string{"must follow " + r.t.ch.Block().Display + ": " + strings.Join(r.t.ch.Details, "; ")}}
}

// finding is the lang.Ref of reference r with verdict v: its site (the
// reference's identifier, or its literal's type, and the declaration
// enclosing it) read from the index's files and positions.
func (ix *index) finding(r *ref, v verdict, prec model.Precision) *lang.Ref {
	pos := r.f.ast.Pos()
	switch {
	case r.id != nil:
		pos = r.id.Pos()
	case r.lit != nil:
		pos = r.lit.Lbrace
		if r.lit.Type != nil {
			pos = r.lit.Type.Pos()
		}
	}
	line, col, text := ix.lineText(r.f, pos)
	site := model.Site{Path: r.f.path, Line: line, Col: col, Text: text}
	if d := enclosingDecl(r.stack); d != nil {
		site.Enclosing = declName(d)
		site.EnclosingSpan = model.Span{StartLine: ix.fset.PositionFor(d.Pos(), false).Line, EndLine: ix.fset.PositionFor(d.End(), false).Line}
	}
	f := &lang.Ref{
		Change: r.t.ch, Relation: v.rel, Site: site, Verdict: v.v, Precision: prec, Message: v.msg,
		Missing: v.missing, Generated: r.f.generated,
	}
	if r.via != "" {
		f.Message += " (through " + r.via + ")"
	}
	return f
}

// editedCall reports whether the diff changed a line of r's call: the
// call was written or rewritten in this change.
func (a *analyzer) editedCall(r *ref) bool {
	return r.call != nil && a.env.Touched(r.f.path, a.ix.fset.PositionFor(r.call.Pos(), false).Line, a.ix.fset.PositionFor(r.call.End(), false).Line)
}

func trace(format string, args ...any) {
	if os.Getenv("RIPPLE_TRACE") != "" {
		fmt.Fprintf(os.Stderr, "trace: %6.3fs "+format+"\n", append([]any{time.Since(started).Seconds()}, args...)...)
	}
}

// started is when the process started, for the trace's time stamps.
var started = time.Now()

// interfaceUses finds the files that may use an implementation of a
// changed interface method as the interface: they name the interface and
// the implementing type. Their packages are type-checked too, so that
// "does not implement" errors prove which stale implementations break.
func (a *analyzer) interfaceUses(ctx context.Context, refs []*ref) []*pfile {
	impls, ifaces := map[string]bool{}, map[string]bool{}
	for _, r := range refs {
		if r.kind == rkImpl && (syntaxRules{a}).implementsOld(r) {
			impls[r.implRcv] = true
			ifaces[r.t.container] = true
		}
	}
	if len(impls) == 0 {
		return nil
	}
	words := make([]string, 0, len(ifaces))
	for w := range ifaces {
		words = append(words, w)
	}
	sort.Strings(words)
	keep, err := a.ix.Search(ctx, words)
	if err != nil {
		return nil
	}
	var out []*pfile
	for _, f := range a.ix.parse(ctx, keep) {
		if fileMentions(f, impls) {
			out = append(out, f)
		}
	}
	return out
}

// goneTypes are the types the change deleted (not renamed) that no code
// of the head names any more, by package and name. No value can have
// such a type (a value's type comes from an expression, declaration or
// signature that names it, and the search found every file naming it),
// so a name-matched use of one of its members is another type's: hugo
// 7574e35b40 moved a Map type to another package with its methods Get,
// Set and Delete, and every `.Get(` on a value typed by a package not in
// the module cache was a warning, 60 on a correct commit.
func goneTypes(ts []*target, refs []*ref) map[tref]bool {
	gone := map[tref]bool{}
	for _, t := range ts {
		if (t.kind == model.KindType || t.kind == model.KindInterface) && t.ch.Label == model.DC && t.ch.New == nil && !t.member {
			gone[tref{t.pkgKey, t.name}] = true
		}
	}
	if len(gone) == 0 {
		return nil
	}
	for _, r := range refs {
		if !r.t.member {
			delete(gone, tref{r.t.pkgKey, r.t.name})
		}
	}
	return gone
}

// aliasedTypes are the types the change turned into aliases of another
// type (`type Buffer interface{...}` became `type Buffer =
// logtemplate.Buffer`, fiber 40c0a5279a): their methods are the aliased
// type's now, not deleted, and a name-matched use of one (a receiver
// whose type is not known, 669 calls of .Set on fiber's correct commit)
// is no evidence of anything. Uses the type checker typed are still
// judged.
func aliasedTypes(ts []*target) map[tref]string {
	var out map[tref]string
	for _, t := range ts {
		if t.member || t.old == nil || t.new == nil || t.kind != model.KindType && t.kind != model.KindInterface {
			continue
		}
		ot, _ := t.old.Data.(*typeInfo)
		nt, _ := t.new.Data.(*typeInfo)
		if ot == nil || nt == nil || ot.Alias || !nt.Alias {
			continue
		}
		if out == nil {
			out = map[tref]string{}
		}
		out[tref{t.pkgKey, t.name}] = nt.Underlying
	}
	return out
}
