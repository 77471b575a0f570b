package golang

import (
	"bytes"
	"context"
	"go/ast"
	"go/token"
	"go/types"
	"runtime"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"
)

// The units of the precise tier: which packages are type-checked
// (checkUnitsOf), with which bodies (slim), in parallel (checkUnits),
// under which build configurations (checkUnit).

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

// unitChecker prepares and type-checks the units (checkUnits): it reads
// the index's files and the check's context, and nothing else of the
// analyzer; the imports come from the loader each call is given.
type unitChecker struct {
	ctx context.Context
	ix  *index
}

// checkUnitsOf groups the files holding refs, and the extra files
// checked whole, into the units to type-check, and returns them with
// their keys, sorted.
func checkUnitsOf(ts []*target, refs []*ref, extra []*pfile) (map[string]*checkUnit, []string) {
	units := map[string]*checkUnit{}
	files := make([]*pfile, 0, len(refs)+len(extra))
	for _, r := range refs {
		files = append(files, r.f)
	}
	files = append(files, extra...)
	for i, f := range files {
		k := f.dir + "\x00" + f.pkgName
		u := units[k]
		if u == nil {
			u = &checkUnit{dir: f.dir, name: f.pkgName, refFiles: map[string]bool{}, at: map[string][]token.Pos{}, whole: map[string]bool{}}
			units[k] = u
		}
		u.refFiles[f.path] = true
		if i < len(refs) {
			u.at[f.path] = append(u.at[f.path], refs[i].pos())
		} else {
			u.whole[f.path] = true
		}
	}
	for _, u := range units {
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
	keys := make([]string, 0, len(units))
	for k := range units {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return units, keys
}

// checkUnits checks the units of keys in parallel (words as in slim),
// the largest first, in two phases: the units are prepared in parallel
// (their files parsed and slimmed, their build configurations chosen),
// their imports read one unit at a time as each is ready (lazy.go), and
// then they are type-checked in parallel, with every import already
// read: reading a package may complete one that a checker reaches
// through the imports of its imports (go/types walks them to qualify
// names in its messages). The results are in key order; a unit skipped
// for the context or the time budget has none.
func (uc *unitChecker) checkUnits(ctx context.Context, l *loader, units map[string]*checkUnit, keys []string, words []string) (results [][]*unitResult, checked, skipped int) {
	results = make([][]*unitResult, len(keys))
	order := make([]int, len(keys))
	for i := range order {
		order[i] = i
	}
	size := func(i int) int { return len(uc.ix.byDir[units[keys[i]].dir]) }
	sort.SliceStable(order, func(x, y int) bool { return size(order[x]) > size(order[y]) })
	if words == nil {
		// every body is checked: the files parsed in part are completed
		// now, before the units are prepared in parallel (completing
		// changes their syntax trees)
		for _, k := range keys {
			uc.ix.parse(ctx, uc.ix.byDir[units[k].dir])
		}
	}
	workers := min(runtime.GOMAXPROCS(0), len(keys))
	t0 := time.Now()
	jobs := make([][]*unitJob, len(keys))
	next := make(chan int)
	ready := make(chan int, len(keys))
	imported := make(chan struct{})
	go func() {
		defer close(imported)
		for i := range ready {
			for _, j := range jobs[i] {
				for _, p := range importPaths(j.files) {
					j.im.ImportFrom(p, j.im.from.dir, 0)
				}
			}
		}
	}()
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				if ctx.Err() != nil || l.late() {
					continue
				}
				jobs[i] = uc.prepareUnit(units[keys[i]], l, words)
				ready <- i
			}
		}()
	}
	for _, i := range order {
		next <- i
	}
	close(next)
	wg.Wait()
	t1 := time.Now()
	close(ready)
	<-imported
	trace("%d units prepared in %v, their imports read %v later", len(keys), t1.Sub(t0), time.Since(t1))

	done := make([]bool, len(keys))
	next = make(chan int)
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				if jobs[i] == nil || ctx.Err() != nil || l.late() {
					continue
				}
				results[i] = uc.checkJobs(jobs[i], l)
				done[i] = true
			}
		}()
	}
	for _, i := range order {
		next <- i
	}
	close(next)
	wg.Wait()
	for i := range keys {
		if done[i] {
			checked++
		} else {
			skipped++
		}
	}
	return results, checked, skipped
}

// unitJob is one type check of a unit: its files as one build
// configuration selects them, slimmed.
type unitJob struct {
	u     *checkUnit
	res   *unitResult
	files []*ast.File
	im    *lazyImporter
}

// prepareUnit chooses the build configurations a unit is checked under,
// as many as it takes to cover every file holding a reference, and
// makes the files of each.
func (uc *unitChecker) prepareUnit(u *checkUnit, l *loader, words []string) []*unitJob {
	// the files that hold references were parsed whole for the syntactic
	// tier; the bodies of the others hold no reference, so no error in
	// them bears on a verdict (unless an interface changed: words is nil)
	all := uc.ix.shallow(uc.ctx, uc.ix.byDir[u.dir])
	if words == nil {
		all = uc.ix.parse(uc.ctx, uc.ix.byDir[u.dir])
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
	var out []*unitJob
	for _, bc := range ctxs {
		if len(covered) == len(u.cover) {
			break
		}
		var slims []slimFile
		res := &unitResult{bc: bc, files: map[string]bool{}}
		adds := false
		for _, f := range files {
			if matchFile(bc, f) {
				slims = append(slims, uc.slim(u, f, words))
				res.files[f.path] = true
				if u.cover[f.path] && !covered[f.path] {
					adds = true
				}
			}
		}
		if !adds {
			continue
		}
		sel := slimFiles(slims, func(ip string) string { return l.importName(ip, location{repo: true, dir: u.dir}) })
		for f := range res.files {
			if u.cover[f] {
				covered[f] = true
			}
		}
		out = append(out, &unitJob{u: u, res: res, files: sel,
			im: &lazyImporter{l: l, from: location{repo: true, dir: u.dir, withTests: true}, bc: bc}})
	}
	return out
}

// checkJobs type-checks a unit's jobs, their imports read before.
func (uc *unitChecker) checkJobs(jobs []*unitJob, l *loader) []*unitResult {
	var out []*unitResult
	for _, j := range jobs {
		if l.late() {
			break
		}
		u, res := j.u, j.res
		ip := uc.ix.mods.importPath(u.dir)
		if strings.HasSuffix(u.name, "_test") {
			ip += "_test"
		}
		res.info = &types.Info{
			Uses: map[*ast.Ident]types.Object{}, Defs: map[*ast.Ident]types.Object{},
			Selections: map[*ast.SelectorExpr]*types.Selection{}, Types: map[ast.Expr]types.TypeAndValue{},
		}
		j.im.checking = true
		conf := types.Config{
			Importer:    j.im,
			Error:       func(err error) { res.errs = append(res.errs, err.(types.Error)) },
			FakeImportC: true,
		}
		t0 := time.Now()
		conf.Check(ip, uc.ix.fset, j.files, res.info)
		trace("checked %s (%s) under %s: %d files, %d errors in %v", u.dir, u.name, res.bc, len(j.files), len(res.errs), time.Since(t0).Round(time.Millisecond))
		out = append(out, res)
	}
	return out
}

// importPaths are the packages files import, as the checker reads their
// import declarations.
func importPaths(files []*ast.File) []string {
	var out []string
	for _, f := range files {
		for _, d := range f.Decls {
			g, ok := d.(*ast.GenDecl)
			if !ok || g.Tok != token.IMPORT {
				continue
			}
			for _, sp := range g.Specs {
				if p, err := strconv.Unquote(sp.(*ast.ImportSpec).Path.Value); err == nil && p != "C" {
					out = append(out, p)
				}
			}
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
// package-level declarations stay: they are what the kept bodies see
// (slimFiles then drops the functions nothing kept names).
// Nothing is slimmed when words is nil (a changed or removed interface
// method, or an added one left unsettled: see typecheck).
// The syntax trees are not modified: a slim file is a shallow copy.
func (uc *unitChecker) slim(u *checkUnit, f *pfile, words []string) slimFile {
	if u.whole[f.path] || words == nil {
		return slimFile{file: f.ast, decls: f.ast.Decls, whole: true}
	}
	at := u.at[f.path]
	off := uc.ix.fset.File(f.ast.Pos())
	var decls []ast.Decl
	changed := false
	var pinned map[ast.Decl]bool
	for _, d := range f.ast.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if ok && holds(fd, at) {
			if pinned == nil {
				pinned = map[ast.Decl]bool{}
			}
			pinned[d] = true // a function without a body holding one
		}
		if ok && fd.Body != nil && slices.Contains(f.stripped, fd) {
			// parsed without its body, which names no word: none to check
		} else if !ok || fd.Body == nil || holds(fd, at) || off != nil && mentions(f.src, off, fd.Body, words) {
			decls = append(decls, d)
			continue
		}
		c := *fd
		c.Body = nil
		decls = append(decls, &c)
		changed = true
	}
	return slimFile{file: f.ast, decls: decls, changed: changed, pinned: pinned}
}

// slimFile is a file of a unit as slim leaves it: its declarations, some
// functions without their bodies (changed); whole files keep everything.
type slimFile struct {
	file    *ast.File
	decls   []ast.Decl
	changed bool
	whole   bool
	// pinned are the declarations that hold a reference
	pinned map[ast.Decl]bool
}

// slimFiles makes the files of one type check of a unit. A function (not
// a method) whose body slim removed, and whose name no declaration kept
// mentions, is left out: no kept code can call it, and its signature is
// only more imports to load. Only kept bodies and variable declarations
// can name a function (signatures, types and constants cannot call
// one), so they are all that is read, and one pass finds them all.
// Methods stay, for the method sets. The imports only what was removed
// used are dropped.
func slimFiles(slims []slimFile, nameOf func(ip string) string) []*ast.File {
	unused := map[string][]ast.Decl{}
	for _, sf := range slims {
		for _, d := range sf.decls {
			if fd, ok := d.(*ast.FuncDecl); ok && !sf.whole && !sf.pinned[d] && fd.Recv == nil && fd.Body == nil && fd.Name.Name != "init" && fd.Name.Name != "_" {
				unused[fd.Name.Name] = append(unused[fd.Name.Name], d)
			}
		}
	}
	use := func(n ast.Node) {
		ast.Inspect(n, func(n ast.Node) bool {
			if id, ok := n.(*ast.Ident); ok {
				delete(unused, id.Name)
			}
			return len(unused) > 0
		})
	}
	for _, sf := range slims {
		for _, d := range sf.decls {
			if len(unused) == 0 {
				break
			}
			switch d := d.(type) {
			case *ast.FuncDecl:
				if d.Body != nil {
					use(d.Body)
				}
			case *ast.GenDecl:
				if d.Tok == token.VAR {
					use(d)
				}
			}
		}
	}
	drop := map[ast.Decl]bool{}
	for _, ds := range unused {
		for _, d := range ds {
			drop[d] = true
		}
	}
	out := make([]*ast.File, 0, len(slims))
	for _, sf := range slims {
		if sf.whole {
			out = append(out, sf.file)
			continue
		}
		decls := sf.decls[:0:0]
		for _, d := range sf.decls {
			if !drop[d] {
				decls = append(decls, d)
			}
		}
		if !sf.changed && len(decls) == len(sf.decls) {
			out = append(out, sf.file)
			continue
		}
		c := *sf.file
		c.Decls = slimImports(decls, nameOf)
		out = append(out, &c)
	}
	return out
}

// slimImports drops the imports that only the removed bodies used: each
// import is a package to load (its export data, its content key), and
// the slim files of a large package import most of the repository for
// bodies nothing reads (terraform's internal/command: 119 files). An
// import stays when its name (explicit, or the package's own: nameOf)
// qualifies something in what is kept; blank, dot and cgo imports stay.
func slimImports(decls []ast.Decl, nameOf func(ip string) string) []ast.Decl {
	used := map[string]bool{}
	for _, d := range decls {
		if g, ok := d.(*ast.GenDecl); ok && g.Tok == token.IMPORT {
			continue
		}
		ast.Inspect(d, func(n ast.Node) bool {
			if s, ok := n.(*ast.SelectorExpr); ok {
				if id, ok := s.X.(*ast.Ident); ok {
					used[id.Name] = true
				}
			}
			return true
		})
	}
	out := make([]ast.Decl, 0, len(decls))
	for _, d := range decls {
		g, ok := d.(*ast.GenDecl)
		if !ok || g.Tok != token.IMPORT {
			out = append(out, d)
			continue
		}
		var specs []ast.Spec
		for _, sp := range g.Specs {
			is := sp.(*ast.ImportSpec)
			ip, err := strconv.Unquote(is.Path.Value)
			var name string
			switch {
			case err != nil || ip == "C":
				name = "."
			case is.Name != nil:
				name = is.Name.Name
			default:
				name = nameOf(ip)
			}
			if name == "_" || name == "." || used[name] {
				specs = append(specs, sp)
			}
		}
		if len(specs) == len(g.Specs) {
			out = append(out, d)
			continue
		}
		if len(specs) == 0 && !g.Rparen.IsValid() {
			continue // import "x", unused: a declaration with no spec has no end
		}
		c := *g
		c.Specs = specs
		out = append(out, &c)
	}
	return out
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

// mentions reports whether the source of n contains one of the words as
// a whole identifier (an over-approximation of naming it: comments and
// strings count). A substring would not do: a field "fs" is in "refs".
func mentions(src []byte, tf *token.File, n ast.Node, words []string) bool {
	lo, hi := tf.Offset(n.Pos()), tf.Offset(n.End())
	if lo < 0 || hi > len(src) || lo > hi {
		return true
	}
	body := src[lo:hi]
	for _, w := range words {
		if w != "" && containsWord(body, w) {
			return true
		}
	}
	return false
}

// containsWord reports whether w occurs in b between non-identifier
// bytes.
func containsWord(b []byte, w string) bool {
	for i := 0; ; {
		j := bytes.Index(b[i:], []byte(w))
		if j < 0 {
			return false
		}
		at, end := i+j, i+j+len(w)
		if (at == 0 || !identByte(b[at-1])) && (end == len(b) || !identByte(b[end])) {
			return true
		}
		i = at + 1
	}
}

// identByte reports whether c may be part of an identifier (any byte of
// a multi-byte rune counts, as letters may be).
func identByte(c byte) bool {
	return c == '_' || '0' <= c && c <= '9' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || c >= 0x80
}
