package python

import (
	"context"
	"fmt"
	"os"
	"path"
	"sort"
	"strings"
	"time"

	"github.com/ripple-dev/ripple/internal/lang"
	"github.com/ripple-dev/ripple/internal/lang/treesit"
	"github.com/ripple-dev/ripple/internal/model"
)

// analyzer answers impact queries for one check.
type analyzer struct {
	fe  *Frontend
	env *lang.Env
	ix  *index
	r   *resolver
	// mods finds the importers of the modules the change removed
	// (modseeds.go)
	mods *moduleSeeds
	// what the new-code judge judged (newcode.go), for the trace
	newImports, newCalls int
	static, fixedMemo    map[*pfile]bool        // staticModule, fixed
	patched              map[*treesit.Node]bool // lazyOrPatched, by top-level statement
	// tier is pyright's type tier (pyrighttier.go)
	tier tier
}

func (a *analyzer) Stats() (int, int) { return a.ix.Count(), a.tier.runs }

// tkind is what a target's dependents are.
type tkind int

const (
	tSymbol      tkind = iota // uses of a declaration's name
	tCtor                     // instantiations of a class
	tAll                      // star-importers of a name dropped from __all__
	tImportCheck              // an added or changed import, which must resolve
)

// target is a changed declaration whose dependents are searched.
type target struct {
	ch       *model.Change
	kind     tkind
	old, new *model.Block
	od, nd   *declData
	name     string // the name dependents write: the old name of a renamed declaration
	path     string // the file that declares it
	qual     string // qualified name within the file
	cqual    string // the class of a member or constructor
	dkind    model.Kind
	member   bool
	deleted  bool // no longer reachable under name (deleted or renamed)
	fixture  bool
	// cls is the head-state class of a member or constructor target.
	cls *classInfo
	// oldCls is a constructor target's class as the base state declared
	// it, when a change carries it; addedFields the fields added to it
	// (when no change carries the old class).
	oldCls      *classInfo
	addedFields []string
}

// display names the target as dependents know it: the old declaration
// of a deleted or renamed one.
func (t *target) display() string {
	if t.deleted && t.ch.Old != nil {
		return t.ch.Old.Display
	}
	return t.ch.Block().Display
}

// The Python front-end's finders (lang.Finder): which labels it
// searches for and along which relations. The core's table decides
// which of them run on a change (Query.Relations); their targets are
// searched together (one search, one parse and one judge of each file).
var (
	// moduleFinder: the importers of a module the diff deleted
	// (modseeds.go).
	moduleFinder = lang.Finder{Name: "deleted modules",
		Labels:    []model.Label{model.DM, model.DF, model.DC, model.DI},
		Relations: []model.Relation{model.ImportedBy}}
	// importFinder: an added or changed import, which must resolve.
	importFinder = lang.Finder{Name: "imports",
		Labels:    []model.Label{model.AI, model.MI},
		Relations: []model.Relation{model.ImportedBy}}
	// starFinder: the star-importers of a name dropped from __all__.
	starFinder = lang.Finder{Name: "star imports",
		Labels:    []model.Label{model.MF},
		Relations: []model.Relation{model.UsedBy}}
	// ctorFinder: the instantiations of a class whose constructor, fields
	// or kind changed (the calls its __init__ binds).
	ctorFinder = lang.Finder{Name: "instantiations",
		Labels:    []model.Label{model.MMS, model.MCC, model.ACC, model.DCC, model.AF, model.MF, model.MC, model.DF},
		Relations: []model.Relation{model.InstantiatedBy, model.CalledBy}}
	// coverFinder: the code reading every field of a class that gained
	// one (coverage.go).
	coverFinder = lang.Finder{Name: "field coverage",
		Labels:    []model.Label{model.AF},
		Relations: []model.Relation{model.UsedBy}}
	// symbolFinder: the uses of a changed or deleted declaration's name:
	// calls, overrides, attribute reads, imports.
	symbolFinder = lang.Finder{Name: "references",
		Labels: []model.Label{model.AM, model.MMB, model.MMS, model.MF, model.DM, model.DC, model.DF, model.DI},
		Relations: []model.Relation{model.CalledBy, model.OverriddenBy, model.Overrides, model.UsedBy,
			model.InstantiatedBy, model.ReferencedBy, model.EmbeddedBy, model.ImportedBy}}
	finders = []lang.Finder{moduleFinder, importFinder, starFinder, ctorFinder, coverFinder, symbolFinder}
)

// targets turns the changes of the queries the finders serve into the
// declarations whose dependents are searched.
func (a *analyzer) targets(qs []lang.Query) []*target {
	s := &targetSet{a: a, ctorSeen: map[string]*target{}, deletedClasses: map[string]bool{}, renames: map[string]*model.Change{}}
	for _, q := range qs {
		if c := q.Change; c.Label == model.DC && c.Old != nil {
			s.deletedClasses[c.Old.Path+"\x00"+qualOf(c.Old)] = true
		}
		if c := q.Change; (c.Label == model.DM || c.Label == model.DC) && c.Renamed() && c.Old.Container == "" {
			s.renames[renameKey(c.Bump, c.Old.Name)] = c
		}
	}
	for _, q := range qs {
		s.add(q)
	}
	return s.ts
}

// targetSet collects the targets of one query set: a class's constructor
// target is made once and shared by every change that reaches its
// signature (ctorSeen), and the members of a deleted class are covered
// by the class's own change (deletedClasses).
type targetSet struct {
	a              *analyzer
	ts             []*target
	ctorSeen       map[string]*target
	deletedClasses map[string]bool
	// renames are the module-level renames of the queries, by bump
	// and old name (reExportRename)
	renames map[string]*model.Change
}

func renameKey(b *model.Bump, name string) string {
	if b == nil {
		return "\x00" + name
	}
	return b.String() + "\x00" + name
}

// reExportRename is the rename a deleted re-export stands for: a
// package's import of a name that the same diff (or bump) renamed,
// where the package now binds the new name. Its importers follow the
// rename through the package, and their edit is the new name.
func (s *targetSet) reExportRename(c *model.Change, path, name string) *model.Change {
	rc := s.renames[renameKey(c.Bump, name)]
	if rc == nil {
		return nil
	}
	f := s.a.ix.file(path)
	if f == nil || len(f.top.names[rc.New.Name]) == 0 {
		return nil
	}
	return rc
}

// addCtor adds (once) the constructor target of class cqual in path,
// when the query's finder serves constructors and the class is still
// there, and records what this change says of the class's fields.
func (s *targetSet) addCtor(q lang.Query, path, cqual string, od, nd *declData) {
	k := path + "\x00" + cqual
	if s.deletedClasses[k] || !ctorFinder.Serves(q) {
		return
	}
	c := q.Change
	t := s.ctorSeen[k]
	if t == nil {
		t = &target{ch: c, kind: tCtor, path: path, cqual: cqual, name: lastPart(cqual), od: od, nd: nd,
			old: c.Old, new: c.New}
		t.cls = s.a.headClass(path, cqual)
		if t.cls == nil {
			return
		}
		s.ctorSeen[k] = t
		s.ts = append(s.ts, t)
	}
	// the class's base-state fields, for what calls bound to before
	switch {
	case od != nil && od.cls != nil && od.cls.qual == cqual:
		t.oldCls = od.cls
	case od != nil && od.attr != nil && od.owner != nil && t.oldCls == nil:
		t.oldCls = od.owner
	case od == nil && nd != nil && nd.attr != nil:
		t.addedFields = append(t.addedFields, nd.attr.name)
	}
}

// add adds the targets of one query's change: per label, a symbol target
// (the declaration's own dependents), an import check, the names a
// module's __all__ no longer exports, or the constructor of the class
// whose signature the change reaches.
func (s *targetSet) add(q lang.Query) {
	a := s.a
	c := q.Change
	old, new := c.Old, c.New
	d := c.Known()
	if d == nil {
		return
	}
	od, _ := dataOf(old)
	nd, _ := dataOf(new)
	if hp := a.fe.headPath(d.Path); hp != d.Path {
		// a dependency's declaration (bump.go): looked for where the
		// repository's imports of its package now resolve
		hd := *d
		hd.Path = hp
		d = &hd
	}
	dd := od
	if dd == nil {
		dd = nd
	}
	t := &target{ch: c, old: old, new: new, od: od, nd: nd, name: d.Name, path: d.Path, qual: qualOf(d), dkind: d.Kind}
	t.member = d.Kind == model.KindMethod || d.Kind == model.KindField || d.Kind == model.KindConstructor
	if t.member {
		t.cqual = d.Container
		if s.deletedClasses[d.Path+"\x00"+d.Container] {
			return // the class's own change covers its members
		}
	}
	switch c.Label {
	case model.AC:
		return
	case model.AI, model.MI:
		if nd != nil && nd.bind != nil && importFinder.Serves(q) {
			s.ts = append(s.ts, &target{ch: c, kind: tImportCheck, old: old, new: new, od: od, nd: nd, name: strings.TrimPrefix(d.Name, "import "), path: d.Path})
		}
		return
	case model.AM:
		if d.Kind != model.KindMethod {
			return
		}
	case model.MMB:
		if dd.fn == nil && d.Kind != model.KindVar && d.Kind != model.KindConst {
			return
		}
	case model.MMS:
		if d.Kind == model.KindConstructor {
			s.addCtor(q, d.Path, d.Container, od, nd)
			return
		}
	case model.MCC, model.ACC, model.DCC:
		s.addCtor(q, d.Path, d.Container, od, nd)
		return
	case model.AF:
		if nd != nil && nd.attr != nil && fieldOf(nd.attr, a.fieldKind(nd, d), false) != nil {
			s.addCtor(q, d.Path, d.Container, od, nd)
		}
		return
	case model.MF:
		if !s.modifiedField(q, d, od, nd) {
			return
		}
	case model.MC:
		if od != nil && nd != nil && od.cls != nil && nd.cls != nil {
			if kindFromText(od.cls.decorators, od.cls.bases) != kindFromText(nd.cls.decorators, nd.cls.bases) || strings.Join(texts(od.cls.decorators), ",") != strings.Join(texts(nd.cls.decorators), ",") {
				s.addCtor(q, d.Path, qualOf(d), od, nd)
			}
		}
		return
	case model.DM, model.DC, model.DF, model.DI:
		t.deleted = true
		if d.Kind == model.KindImport {
			t.name = strings.TrimPrefix(d.Name, "import ")
			t.qual = t.name
			if rc := s.reExportRename(c, t.path, t.name); rc != nil {
				t.ch = rc
			}
		}
		if od != nil && od.fn != nil && od.fn.fixture {
			t.fixture = true
		}
		if c.Label == model.DF && od != nil && od.attr != nil && fieldOf(od.attr, a.fieldKind(od, d), false) != nil {
			s.addCtor(q, d.Path, d.Container, od, nd)
		}
	}
	if t.member {
		t.cls = a.headClass(t.path, t.cqual)
		if t.cls == nil {
			return // the class is gone: its own change covers it
		}
	}
	if symbolFinder.Serves(q) {
		s.ts = append(s.ts, t)
	}
}

// modifiedField adds the targets of a modified field (MF): the names a
// module's __all__ no longer lists, and the constructor of a class whose
// field changed. It reports whether the field's own uses are searched
// too, which they are when it moved between class and instance
// attribute (its uses through the class).
func (s *targetSet) modifiedField(q lang.Query, d *model.Block, od, nd *declData) bool {
	c := q.Change
	if od != nil && nd != nil && (od.all != nil || nd.all != nil) {
		for _, n := range od.all {
			if !contains(nd.all, n) && starFinder.Serves(q) {
				s.ts = append(s.ts, &target{ch: c, kind: tAll, name: n, path: d.Path, qual: n, old: c.Old, new: c.New, od: od, nd: nd})
			}
		}
		return false
	}
	if od != nil && nd != nil && od.attr != nil && nd.attr != nil {
		of, nf := fieldOf(od.attr, s.a.fieldKind(od, d), false), fieldOf(nd.attr, s.a.fieldKind(nd, d), false)
		if of != nil || nf != nil {
			s.addCtor(q, d.Path, d.Container, od, nd)
		}
		// class attribute <-> instance attribute: uses through the class
		return od.attr.instance != nd.attr.instance
	}
	return false
}

// fieldKind is the family of an attribute's class: as its declaration
// reads, else as the head state's class inherits it from repository
// bases (a model subclassing a model of the repository).
func (a *analyzer) fieldKind(dd *declData, b *model.Block) ckind {
	if dd.ownerKind != ckPlain {
		return dd.ownerKind
	}
	if c := a.headClass(b.Path, b.Container); c != nil {
		switch k := a.r.classKind(c); k {
		case ckModel, ckTypedDict:
			return k
		}
	}
	return dd.ownerKind
}

func dataOf(d *model.Block) (*declData, bool) {
	if d == nil {
		return nil, false
	}
	dd, ok := d.Data.(*declData)
	return dd, ok
}

// qualOf is a block's qualified name within its file.
func qualOf(b *model.Block) string {
	if b.Container != "" {
		return b.Container + "." + b.Name
	}
	return b.Name
}

// headClass finds a class of the head state by file and qualified name.
func (a *analyzer) headClass(path, qual string) *classInfo {
	f := a.ix.file(path)
	if f == nil {
		return nil
	}
	for _, c := range f.classes {
		if c.qual == qual {
			return c
		}
	}
	return nil
}

// Answer answers the queries of one round: each finder is given the
// changes it serves, their targets are judged in one pass over the
// candidate files, and the refs of the relations asked are kept.
func (a *analyzer) Answer(ctx context.Context, qs []lang.Query) ([]*lang.Ref, error) {
	refs, err := a.impacted(ctx, qs)
	if err != nil {
		return nil, err
	}
	refs = lang.Keep(qs, refs)
	a.typecheck(ctx, refs)
	return refs, nil
}

func (a *analyzer) impacted(ctx context.Context, qs []lang.Query) ([]*lang.Ref, error) {
	early, err := a.mods.moduleFindings(ctx, moduleFinder.Serving(qs))
	if err != nil {
		return nil, err
	}
	ts := a.targets(qs)
	cts := a.coverTargets(coverFinder.Serving(qs))
	if len(ts) == 0 && len(cts) == 0 {
		return early, nil
	}
	for _, t := range ts {
		if t.kind == tImportCheck {
			early = append(early, a.importCheck(t)...)
		}
	}
	t0 := time.Now()
	words := map[string]bool{}
	for _, t := range ts {
		words[t.name] = true
		if t.kind == tCtor {
			words["cls"], words["__init__"], words["__new__"] = true, true, true
		}
		if t.dunderCall() {
			// its instances, called: where the class is named, or its
			// module imported (an instance from a factory of that module)
			words[t.cls.name] = true
			words[moduleWord(t.path)] = true
		}
	}
	for _, ct := range cts {
		words[ct.cls.name] = true // functions taking it, and its own file
	}
	files, err := a.ix.candidates(ctx, words, ts)
	if err != nil {
		return nil, err
	}
	trace("candidates: %d files for %d words in %v", len(files), len(words), time.Since(t0))
	// constructors are reached through subclasses that inherit them (a
	// member is always written by its name, whatever the receiver)
	for round := 0; round < 4 && wantsSubclasses(ts); round++ {
		more := map[string]bool{}
		for _, f := range files {
			for _, c := range f.classes {
				if words[c.name] {
					continue
				}
				for _, t := range ts {
					if (t.kind == tCtor || t.dunderCall()) && t.cls != nil && c != t.cls && a.r.isSubclass(c, t.cls) {
						more[c.name] = true
					}
				}
			}
		}
		if len(more) == 0 {
			break
		}
		for w := range more {
			words[w] = true
		}
		extra, err := a.ix.candidates(ctx, more, nil)
		if err != nil {
			return nil, err
		}
		files = mergeFiles(files, extra)
	}
	trace("with subclasses: %d files in %v", len(files), time.Since(t0))
	j := &judge{a: a, r: a.r, targets: ts, followOf: map[*ref]*lang.Follow{}, wrapped: map[*funcInfo]bool{}, reach: map[string]bool{}, files: files}
	wantStrings := false
	for _, t := range ts {
		if t.deleted {
			wantStrings = true
		}
	}
	for _, f := range files {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		for _, x := range collect(f, words, wantStrings) {
			j.judgeRef(x)
		}
		if hasDunderCall(ts) {
			for _, x := range instanceCalls(f) {
				j.judgeRef(x)
			}
		}
	}
	coverageRules{j}.coverageFindings(cts, files)
	overrideRules{j}.overridesFindings()
	j.dflt.gather()
	trace("judged in %v: %d findings", time.Since(t0), len(j.out))
	return append(early, j.out...), nil
}

// candidates greps the head state for the words and parses the matching
// files, with the seed files (targets' own files) always included.
func (ix *index) candidates(ctx context.Context, words map[string]bool, ts []*target) ([]*pfile, error) {
	wl := make([]string, 0, len(words))
	for w := range words {
		if w != "" {
			wl = append(wl, w)
		}
	}
	sort.Strings(wl)
	use, err := ix.Search(ctx, wl)
	if err != nil {
		return nil, err
	}
	seen := map[string]bool{}
	for _, p := range use {
		seen[p] = true
	}
	for _, t := range ts {
		if !seen[t.path] && ix.mods.files[t.path] {
			seen[t.path] = true
			use = append(use, t.path)
		}
	}
	sort.Strings(use)
	return ix.Parse(ctx, use)
}

func mergeFiles(a, b []*pfile) []*pfile {
	seen := map[*pfile]bool{}
	for _, f := range a {
		seen[f] = true
	}
	for _, f := range b {
		if !seen[f] {
			seen[f] = true
			a = append(a, f)
		}
	}
	return a
}

func trace(format string, args ...any) {
	if os.Getenv("RIPPLE_TRACE") != "" {
		fmt.Fprintf(os.Stderr, "trace: python: "+format+"\n", args...)
	}
}

// importCheck reports an added or changed import of the repository that
// names something its module does not define: the import itself fails.
func (a *analyzer) importCheck(t *target) []*lang.Ref {
	b := t.nd.bind
	if b.kind != bFrom {
		return nil
	}
	f := a.ix.file(t.path)
	if f == nil {
		return nil
	}
	var out []*lang.Ref
	for _, hb := range f.top.names[t.name] {
		if hb.kind != bFrom || hb.stmt.Bad || guarded(hb.stmt, "ImportError") {
			continue // try: from x import y / except ImportError: a fallback
		}
		m := a.r.module(hb.module, f.path)
		if m.k != vModule {
			continue
		}
		ss := a.r.memberSyms(m, hb.member)
		if len(ss) == 0 || !ss[0].missing {
			continue
		}
		if mf := a.ix.file(ss[0].path); mf == nil || !fixedNames(mf) || rebound(mf, hb.member) || a.hooked(mf) {
			// the module makes names at run time (globals().update(...),
			// an import hook), a function assigns it through global, or
			// a stub beside it declares it
			continue
		}
		at := hb.at
		site := model.Site{Path: f.path, Line: int(at.Line), Col: int(at.Col) + 1, Text: f.t.LineText(int(at.Line))}
		out = append(out, &lang.Ref{Change: t.ch, Relation: model.ImportedBy, Site: site, Verdict: model.Inconsistent,
			Precision: model.PrecisionSyntax,
			Message:   fmt.Sprintf("imports %s from %s, which does not define it", hb.member, a.ix.mods.moduleName(ss[0].path))})
	}
	return out
}

// wantsSubclasses reports targets whose dependents are reached through
// subclasses that do not name the changed class: constructors they
// inherit, and the __call__ their instances dispatch to.
func wantsSubclasses(ts []*target) bool {
	for _, t := range ts {
		if t.kind == tCtor || t.dunderCall() {
			return true
		}
	}
	return false
}

func hasDunderCall(ts []*target) bool {
	for _, t := range ts {
		if t.dunderCall() {
			return true
		}
	}
	return false
}

// moduleWord is the name an import of the module at p writes last: its
// file's name, or its package's for an __init__.py.
func moduleWord(p string) string {
	base := strings.TrimSuffix(path.Base(p), ".py")
	if base == "__init__" {
		base = path.Base(path.Dir(p))
	}
	return base
}

// dunderCall reports a target that is a class's __call__: calling an
// instance of the class (or of a subclass inheriting it) calls it.
func (t *target) dunderCall() bool {
	return t.member && t.name == "__call__" && t.cls != nil && t.kind == tSymbol
}

// touched reports whether the diff changed any line of node n in the head
// state of file p.
func (a *analyzer) touched(p string, n *treesit.Node) bool {
	return n != nil && a.env.Touched(p, int(n.Line), int(n.EndLine))
}
