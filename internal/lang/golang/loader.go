package golang

import (
	"bytes"
	"go/ast"
	"go/build"
	"go/build/constraint"
	"go/parser"
	"go/token"
	"go/types"
	"io"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"

	"golang.org/x/mod/module"
)

// buildCtx is one build configuration under which a package's files are
// selected: GOOS, GOARCH and custom tags.
type buildCtx struct {
	goos, goarch string
	tags         []string
}

func (b buildCtx) key() string { return b.goos + "/" + b.goarch + "+" + strings.Join(b.tags, ",") }

func (b buildCtx) String() string {
	s := b.goos + "/" + b.goarch
	if len(b.tags) > 0 {
		s += " tags " + strings.Join(b.tags, ",")
	}
	return s
}

// platforms are tried in order until every file holding a dependent is
// covered: the host's usual target first, then the others a developer's
// compiler never sees.
var platforms = []buildCtx{
	{goos: "linux", goarch: "amd64"}, {goos: "darwin", goarch: "arm64"}, {goos: "windows", goarch: "amd64"},
	{goos: "freebsd", goarch: "amd64"}, {goos: "linux", goarch: "arm"}, {goos: "js", goarch: "wasm"},
	{goos: "wasip1", goarch: "wasm"}, {goos: "plan9", goarch: "amd64"}, {goos: "openbsd", goarch: "amd64"},
	{goos: "solaris", goarch: "amd64"}, {goos: "aix", goarch: "ppc64"},
}

// goEnv is the toolchain's view of where sources live.
type goEnv struct {
	goroot, modcache, version string
}

var (
	goEnvOnce sync.Once
	goEnvVal  goEnv
)

// toolchainEnv finds the Go installation's sources and the module cache
// without running the go command (an exec of `go env` costs 10-20 ms and
// may write telemetry from inside a hook): GOROOT from $GOROOT or from
// the go binary on PATH, the version from $GOROOT/VERSION, the module
// cache from $GOMODCACHE, else the first entry of $GOPATH, else
// $HOME/go. The go command's own answer is used only when that fails.
func toolchainEnv() goEnv {
	goEnvOnce.Do(func() {
		goEnvVal = findToolchain()
		if goEnvVal.goroot != "" {
			return
		}
		cmd := exec.Command("go", "env", "GOROOT", "GOMODCACHE", "GOVERSION")
		cmd.Env = append(os.Environ(), "GOTOOLCHAIN=local")
		out, err := cmd.Output()
		if err != nil {
			return
		}
		f := strings.Split(strings.TrimSpace(string(out)), "\n")
		if len(f) == 3 {
			goEnvVal = goEnv{goroot: f[0], modcache: f[1], version: f[2]}
		}
	})
	return goEnvVal
}

func findToolchain() goEnv {
	var e goEnv
	root := os.Getenv("GOROOT")
	if root == "" {
		if bin, err := exec.LookPath("go"); err == nil {
			if real, err := filepath.EvalSymlinks(bin); err == nil {
				root = filepath.Dir(filepath.Dir(real))
			}
		}
	}
	v, err := os.ReadFile(filepath.Join(root, "VERSION"))
	if root == "" || err != nil || !isDir(filepath.Join(root, "src", "runtime")) {
		return goEnv{}
	}
	e.goroot = root
	e.version, _, _ = strings.Cut(strings.TrimSpace(string(v)), "\n")
	switch {
	case os.Getenv("GOMODCACHE") != "":
		e.modcache = os.Getenv("GOMODCACHE")
	case os.Getenv("GOPATH") != "":
		first, _, _ := strings.Cut(os.Getenv("GOPATH"), string(os.PathListSeparator))
		e.modcache = filepath.Join(first, "pkg", "mod")
	default:
		if home, err := os.UserHomeDir(); err == nil {
			e.modcache = filepath.Join(home, "go", "pkg", "mod")
		}
	}
	return e
}

// location is where a package's sources are: a directory of the head
// state (repo) or of the disk (GOROOT, module cache).
type location struct {
	repo      bool
	dir       string
	std       bool // in GOROOT
	withTests bool // include the package's in-package _test.go files
	modDir    string
}

// loader type-checks imported packages from source, declarations only,
// once per build configuration. It holds two universes of packages:
// this one, where each package is loaded complete, with its imports
// (from source or whole from the export-data cache), and the checked
// units' (lazy.go), read lazily from export data. What it cannot find, or finds too late,
// becomes an empty stub: expressions using it are untyped and the checker
// stays silent about them, so precision drops but nothing false is said.
type loader struct {
	a        *analyzer
	fset     *token.FileSet
	deadline time.Time
	env      goEnv

	mu      sync.Mutex
	pkgs    map[string]*types.Package
	loading map[string]bool
	stubbed map[string]bool
	// loadMu serializes the imports of units checked in parallel (see
	// lazyImporter)
	loadMu sync.Mutex
	// the units' universe (lazy.go), guarded by loadMu: per build
	// configuration, its packages by import path; the packages returned
	// by location; the keys known without loading; how many packages
	// were read from the cache into it
	lazy     map[string]map[string]*types.Package
	lazyPkgs map[string]*types.Package
	keys     map[string]string
	read     int
	// absent are the stubbed packages that were not found at all (not in
	// the module cache, or not in the repository), as opposed to those
	// stubbed for the time budget or an import cycle
	absent map[string]bool
	loaded int
	// lateMissing counts imports past the deadline that the export-data
	// cache did not hold either (coldCache)
	lateMissing int
	cached      int // repository packages read from the export-data cache
	// dirty records loaded packages whose types depend on something not
	// reproducible from disk (a stub, a package of the repository): they
	// are not cached by directory, only by content key (repocache.go).
	dirty map[string]bool
	// shared holds, per build configuration, every package loaded from
	// disk by import path: the export-data reader resolves dependencies
	// through it, so each package exists once.
	shared map[string]map[string]*types.Package
	cache  *exportCache
	// ckey is the cache key of each loaded package whose declarations
	// are reproducible (see repocache.go)
	ckey map[*types.Package]string
	// locations remembers locate's answers
	locations sync.Map
	// inTests: whether a directory has in-package test files
	inTests map[string]bool
	// names: the package name of each import path outside the
	// repository, as importName read it (its own lock: l.mu is held
	// while export data is read)
	namesMu sync.Mutex
	names   map[string]string
}

func newLoader(a *analyzer, deadline time.Time) *loader {
	env := toolchainEnv()
	return &loader{a: a, fset: a.ix.fset, deadline: deadline, env: env,
		pkgs: map[string]*types.Package{}, loading: map[string]bool{}, stubbed: map[string]bool{}, absent: map[string]bool{},
		dirty: map[string]bool{}, shared: map[string]map[string]*types.Package{}, cache: openExportCache(env.version),
		ckey: map[*types.Package]string{}, inTests: map[string]bool{}, names: map[string]string{},
		lazy: map[string]map[string]*types.Package{}, lazyPkgs: map[string]*types.Package{}, keys: map[string]string{}}
}

func (l *loader) late() bool { return !l.deadline.IsZero() && time.Now().After(l.deadline) }

// coldCache reports a check that met an unprepared export-data cache:
// it loaded imports from source, or imports it reached past the
// deadline were not in the cache either, or the cache holds no entry at
// all (on a loaded machine the deadline can pass before the first
// import is read: the budget went elsewhere, but a warm-up is still what
// the next check needs).
func (l *loader) coldCache() bool {
	if l.loaded > 0 || l.lateMissing > 0 {
		return true
	}
	if l.cache == nil {
		return false
	}
	d, err := os.Open(l.cache.dir)
	if err != nil {
		return true
	}
	defer d.Close()
	names, _ := d.Readdirnames(3)
	for _, n := range names {
		if n != filepath.Base(l.cache.heads.path) {
			return false // an entry (the heads store is not one)
		}
	}
	return true
}

// importer resolves the imports of a package loaded from source at loc
// under bc (the checked units import through lazyImporter).
type importer struct {
	l    *loader
	from location
	bc   buildCtx
	// dirty is set when an import could not be reproduced from disk.
	dirty bool
}

func (im *importer) Import(p string) (*types.Package, error) {
	return im.ImportFrom(p, "", 0)
}

func (im *importer) ImportFrom(p, _ string, _ types.ImportMode) (*types.Package, error) {
	if p == "unsafe" {
		return types.Unsafe, nil
	}
	loc, ok := im.l.locate(p, im.from)
	if !ok {
		im.dirty = true
		return im.l.absentStub(p), nil
	}
	pkg, dirty := im.l.load(p, loc, im.bc)
	if dirty || loc.repo {
		im.dirty = true
	}
	return pkg, nil
}

// locate finds the sources of import path p imported from a package at
// from. Outside the repository the answer depends only on whether from
// is in the standard library and on its module, and is remembered by
// those (the keys of a check's packages ask for every import of every
// package, and each answer costs file-system lookups).
func (l *loader) locate(p string, from location) (location, bool) {
	modDir := from.modDir
	if from.repo {
		if d, ok := l.a.ix.repoDir(p, from.dir); ok {
			return location{repo: true, dir: d, withTests: from.withTests && d == from.dir && l.inPackageTests(d)}, true
		}
		if r := l.a.ix.mods.root(from.dir); r != nil {
			modDir = r.dir
		}
	}
	k := located{p: p, std: from.std, modDir: modDir}
	if v, ok := l.locations.Load(k); ok {
		r := v.(locatedAt)
		return r.loc, r.ok
	}
	loc, ok := l.outside(p, from.std, modDir)
	l.locations.Store(k, locatedAt{loc, ok})
	return loc, ok
}

type located struct {
	p      string
	std    bool
	modDir string
}

type locatedAt struct {
	loc location
	ok  bool
}

// outside finds import path p outside the repository (or in it, through
// a directory replacement), imported from the standard library (std) or
// from the module at modDir.
func (l *loader) outside(p string, std bool, modDir string) (location, bool) {
	mods := l.a.ix.mods
	first, _, _ := strings.Cut(p, "/")
	if !strings.Contains(first, ".") {
		if l.env.goroot == "" {
			return location{}, false
		}
		if std {
			v := filepath.Join(l.env.goroot, "src", "vendor", filepath.FromSlash(p))
			if isDir(v) {
				return location{dir: v, std: true}, true
			}
		}
		d := filepath.Join(l.env.goroot, "src", filepath.FromSlash(p))
		if isDir(d) {
			return location{dir: d, std: true}, true
		}
		return location{}, false
	}
	if std {
		v := filepath.Join(l.env.goroot, "src", "vendor", filepath.FromSlash(p))
		if isDir(v) {
			return location{dir: v, std: true}, true
		}
	}
	// an external module: the requirement of the repository's module
	var best module.Version
	for _, r := range mods.requires[modDir] {
		if (p == r.Path || strings.HasPrefix(p, r.Path+"/")) && len(r.Path) > len(best.Path) {
			best = r
		}
	}
	if best.Path == "" {
		return location{}, false
	}
	rest := strings.TrimPrefix(strings.TrimPrefix(p, best.Path), "/")
	if rep, ok := mods.replaces[modDir][best.Path]; ok {
		if rep.Version == "" { // a directory replacement
			d := path.Clean(path.Join(modDir, rep.Path, rest))
			if l.a.ix.dirSet[d] {
				return location{repo: true, dir: d}, true
			}
			return location{}, false
		}
		best = rep
	}
	if l.env.modcache == "" {
		return location{}, false
	}
	ep, err1 := module.EscapePath(best.Path)
	ev, err2 := module.EscapeVersion(best.Version)
	if err1 != nil || err2 != nil {
		return location{}, false
	}
	d := filepath.Join(l.env.modcache, ep+"@"+ev, filepath.FromSlash(rest))
	if isDir(d) {
		return location{dir: d, modDir: modDir}, true
	}
	return location{}, false
}

// inPackageTests reports whether directory d of the repository has test
// files in its package (not only an external _test package). Only then
// is the package an external test imports a variant of its own: without
// such files the variant would be the same declarations as a second
// package, and the packages the external test also imports, built
// against the first, would not accept its types ("wrong type for method"
// where both name the same type).
func (l *loader) inPackageTests(d string) bool {
	l.mu.Lock()
	v, ok := l.inTests[d]
	l.mu.Unlock()
	if ok {
		return v
	}
	name := l.a.ix.importName(l.a.ctx, l.a.ix.mods.importPath(d), d)
	var tests []string
	for _, p := range l.a.ix.byDir[d] {
		if strings.HasSuffix(p, "_test.go") {
			tests = append(tests, p)
		}
	}
	for _, h := range l.repoHeads(tests) {
		if h.pkgName == name {
			v = true
			break
		}
	}
	l.mu.Lock()
	l.inTests[d] = v
	l.mu.Unlock()
	return v
}

func isDir(d string) bool {
	st, err := os.Stat(d)
	return err == nil && st.IsDir()
}

// absentStub is the stub of a package that was not found: it stands for
// the same thing in every check until the package appears, so packages
// built on it may be cached (under a key that names it absent). stub is
// the stub of a package found but not loaded (the deadline, an import
// cycle): nothing built on it is cached.
func (l *loader) absentStub(p string) *types.Package { return l.stubOf(p, true) }

func (l *loader) stub(p string) *types.Package { return l.stubOf(p, false) }

func (l *loader) stubOf(p string, absent bool) *types.Package {
	l.mu.Lock()
	defer l.mu.Unlock()
	key := "stub|" + p
	if absent {
		key = "absent|" + p
	}
	if pkg, ok := l.pkgs[key]; ok {
		return pkg
	}
	pkg := types.NewPackage(p, defaultImportName(p))
	pkg.MarkComplete()
	l.pkgs[key] = pkg
	l.stubbed[p] = true
	if absent {
		l.absent[p] = true
		l.ckey[pkg] = "absent:" + p
	}
	return pkg
}

// load type-checks the package at loc (declarations only), or returns it
// from memory or from the export-data cache. Cycles and the deadline give
// stubs. dirty reports a package that depends on something not
// reproducible from disk.
func (l *loader) load(p string, loc location, bc buildCtx) (pkg *types.Package, dirty bool) {
	key := bc.key() + "|" + loc.dir + "|" + p
	if loc.withTests {
		key += "|tests"
	}
	l.mu.Lock()
	if pkg, ok := l.pkgs[key]; ok {
		d := l.dirty[key]
		l.mu.Unlock()
		return pkg, d
	}
	if l.loading[key] || l.late() {
		l.mu.Unlock()
		return l.stub(p), true
	}
	l.loading[key] = true
	shared := l.shared[bc.key()]
	if shared == nil {
		shared = map[string]*types.Package{}
		l.shared[bc.key()] = shared
	}
	l.mu.Unlock()

	if !loc.repo {
		if pkg := l.cache.read(l.fset, shared, &l.mu, p, loc.dir, bc); pkg != nil {
			l.mu.Lock()
			delete(l.loading, key)
			l.pkgs[key] = pkg
			l.ckey[pkg] = "disk:" + loc.dir
			l.mu.Unlock()
			return pkg, false
		}
	}
	ck, deps, cacheable := l.contentKey(p, loc, bc)
	if cacheable {
		l.mu.Lock()
		pkg := l.cache.readRepo(l.fset, deps, p, ck)
		if pkg != nil {
			delete(l.loading, key)
			l.pkgs[key] = pkg
			l.dirty[key] = true
			l.ckey[pkg] = ck
			if !loc.repo {
				shared[p] = pkg
			}
			l.cached++
			l.mu.Unlock()
			return pkg, true
		}
		l.mu.Unlock()
	}
	files := l.files(loc, bc)
	im := &importer{l: l, from: loc, bc: bc}
	conf := types.Config{
		Importer:         im,
		Error:            func(error) {},
		FakeImportC:      true,
		IgnoreFuncBodies: true,
	}
	pkg, _ = conf.Check(p, l.fset, files, nil)
	dirty = im.dirty || loc.repo
	l.mu.Lock()
	delete(l.loading, key)
	if pkg == nil {
		pkg = types.NewPackage(p, defaultImportName(p))
		pkg.MarkComplete()
		dirty = true
	}
	l.pkgs[key] = pkg
	l.dirty[key] = dirty
	if !loc.repo {
		shared[p] = pkg
	}
	l.loaded++
	switch {
	case !dirty:
		l.ckey[pkg] = "disk:" + loc.dir
	case cacheable:
		l.ckey[pkg] = ck
	}
	l.mu.Unlock()
	switch {
	case !dirty:
		l.cache.write(l.fset, pkg, loc.dir, bc)
	case cacheable:
		l.cache.writeRepo(l.fset, pkg, ck)
	}
	return pkg, dirty
}

// files parses the files of the package at loc selected by bc.
func (l *loader) files(loc location, bc buildCtx) []*ast.File {
	if loc.repo {
		// files parsed whole for the syntactic tier are reused; the others
		// are parsed without bodies
		var out []*ast.File
		name := l.a.ix.importName(l.a.ctx, l.a.ix.mods.importPath(loc.dir), loc.dir)
		var paths []string
		for _, p := range l.a.ix.byDir[loc.dir] {
			if loc.withTests || !strings.HasSuffix(p, "_test.go") {
				paths = append(paths, p)
			}
		}
		for _, f := range l.a.ix.shallow(l.a.ctx, paths) {
			if f.pkgName != name || !matchFile(bc, f) {
				continue
			}
			out = append(out, f.ast)
		}
		return out
	}
	ents, err := os.ReadDir(loc.dir)
	if err != nil {
		return nil
	}
	ctxt := buildContext(bc, nil)
	var out []*ast.File
	pkgName := ""
	for _, e := range ents {
		n := e.Name()
		if e.IsDir() || !strings.HasSuffix(n, ".go") || strings.HasSuffix(n, "_test.go") {
			continue
		}
		if ok, err := ctxt.MatchFile(loc.dir, n); err != nil || !ok {
			continue
		}
		src, err := os.ReadFile(filepath.Join(loc.dir, n))
		if err != nil {
			continue
		}
		f, _ := parser.ParseFile(l.fset, filepath.Join(loc.dir, n), stripBodies(src), parser.SkipObjectResolution)
		if f == nil || f.Name == nil {
			continue
		}
		if f.Name.Name == "documentation" || pkgName != "" && f.Name.Name != pkgName {
			continue
		}
		pkgName = f.Name.Name
		out = append(out, f)
	}
	return out
}

// buildContext is a go/build context for bc; src, when set, serves file
// contents (the head state) instead of the disk.
func buildContext(bc buildCtx, src func(string) []byte) *build.Context {
	c := build.Default
	c.GOOS, c.GOARCH = bc.goos, bc.goarch
	c.CgoEnabled = false
	c.BuildTags = bc.tags
	c.GOROOT, c.GOPATH = "", ""
	if src != nil {
		c.JoinPath = func(elem ...string) string { return path.Join(elem...) }
		c.OpenFile = func(p string) (io.ReadCloser, error) {
			return io.NopCloser(bytes.NewReader(src(p))), nil
		}
	}
	return &c
}

// matchFile reports whether a head-state file is part of its package
// under bc (file name suffixes and //go:build lines).
func matchFile(bc buildCtx, f *pfile) bool {
	ctxt := buildContext(bc, func(string) []byte { return f.src })
	ok, err := ctxt.MatchFile(f.dir, path.Base(f.path))
	return err == nil && ok
}

// customTags lists the build tags of files that are not platforms or
// toolchain tags: the tags a second configuration turns on.
func customTags(files []*pfile) []string {
	known := map[string]bool{"cgo": true, "gc": true, "gccgo": true, "unix": true, "ignore": true}
	for _, p := range platforms {
		known[p.goos], known[p.goarch] = true, true
	}
	for _, k := range build.Default.ReleaseTags {
		known[k] = true
	}
	for _, k := range []string{"android", "ios", "illumos", "dragonfly", "netbsd", "hurd", "zos", "nacl", "386", "arm64", "mips", "mipsle", "mips64", "mips64le", "ppc64le", "riscv64", "s390x", "loong64", "wasm"} {
		known[k] = true
	}
	set := map[string]bool{}
	for _, f := range files {
		if f.build == nil {
			continue
		}
		collectTags(f.build, func(t string) {
			if !known[t] && !strings.HasPrefix(t, "go1.") && t != "ignore" {
				set[t] = true
			}
		})
	}
	out := make([]string, 0, len(set))
	for t := range set {
		out = append(out, t)
	}
	sort.Strings(out)
	return out
}

func collectTags(e constraint.Expr, fn func(string)) {
	switch x := e.(type) {
	case *constraint.TagExpr:
		fn(x.Tag)
	case *constraint.NotExpr:
		collectTags(x.X, fn)
	case *constraint.AndExpr:
		collectTags(x.X, fn)
		collectTags(x.Y, fn)
	case *constraint.OrExpr:
		collectTags(x.X, fn)
		collectTags(x.Y, fn)
	}
}

// importName is the name an import of p from a package at from binds by
// default: its package clause, read without loading it. A package not
// found binds the name its stub gets (defaultImportName), as the checker
// would see it.
func (l *loader) importName(p string, from location) string {
	if first, _, _ := strings.Cut(p, "/"); !strings.Contains(first, ".") {
		return defaultImportName(p) // the standard library's names are its paths'
	}
	if _, ok := l.a.ix.repoDir(p, from.dir); ok {
		return l.a.ix.importName(l.a.ctx, p, from.dir)
	}
	l.namesMu.Lock()
	n, ok := l.names[p]
	l.namesMu.Unlock()
	if ok {
		return n
	}
	n = defaultImportName(p)
	if loc, found := l.locate(p, from); found {
		n = packageClause(loc.dir, n)
	}
	l.namesMu.Lock()
	l.names[p] = n
	l.namesMu.Unlock()
	return n
}

// packageClause reads the package name of the first non-test Go file of
// dir that declares one (not "documentation"; "main" counts), else def.
func packageClause(dir, def string) string {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return def
	}
	for _, e := range ents {
		n := e.Name()
		if e.IsDir() || !strings.HasSuffix(n, ".go") || strings.HasSuffix(n, "_test.go") {
			continue
		}
		src, err := os.ReadFile(filepath.Join(dir, n))
		if err != nil {
			continue
		}
		f, err := parser.ParseFile(token.NewFileSet(), n, src, parser.PackageClauseOnly|parser.SkipObjectResolution)
		if err == nil && f.Name != nil && f.Name.Name != "documentation" {
			return f.Name.Name
		}
	}
	return def
}
