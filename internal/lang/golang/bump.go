package golang

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"go/ast"
	"go/build"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"golang.org/x/mod/modfile"
	"golang.org/x/mod/module"

	"github.com/ripple-dev/ripple/internal/gitio"
	"github.com/ripple-dev/ripple/internal/lang"
	"github.com/ripple-dev/ripple/internal/model"
)

// The Go front-end as a lang.Bumper: a go.mod (or go.work) whose
// requirement or replacement of a module changed version is a seed. The
// module's two versions come from the module cache, fetched through the
// user's GOPROXY when absent (go mod download); only the packages of the
// module that the repository imports (from the go.mod's own module) are
// read. Their files are given to the core under one versionless root,
// "github.com/x/y@/pkg/a.go", whose directory importPath maps to the
// package's import path: "@" never occurs in a repository's import path.

func (fe *Frontend) Manifests() []string {
	return []string{"go.mod", "*/go.mod", "go.work", "*/go.work"}
}

// API: an exported name; the methods and fields of an unexported type
// are reached through values of it (a constructor's result).
func (fe *Frontend) API(b *model.Block) bool {
	return b.Kind != model.KindImport && token.IsExported(b.Name)
}

// requirement is one module's effective source in a manifest: the
// required version, or what a replace directive puts in its place.
type requirement struct {
	path, version string // the module read (a replacement's own path)
	local         string // a directory replacement: not a version
	line          int
}

// requirements reads a go.mod or go.work state: module path to its
// effective requirement.
func requirements(name string, src []byte) (map[string]requirement, error) {
	out := map[string]requirement{}
	var reps []*modfile.Replace
	if path.Base(name) == "go.work" {
		wf, err := modfile.ParseWork(name, src, nil)
		if err != nil {
			return nil, err
		}
		reps = wf.Replace
	} else {
		mf, err := modfile.ParseLax(name, src, nil)
		if err != nil {
			return nil, err
		}
		for _, r := range mf.Require {
			out[r.Mod.Path] = requirement{path: r.Mod.Path, version: r.Mod.Version, line: lineOf(r.Syntax)}
		}
		reps = mf.Replace
	}
	for _, r := range reps {
		q := requirement{path: r.New.Path, version: r.New.Version, line: lineOf(r.Syntax)}
		if r.New.Version == "" {
			q = requirement{local: r.New.Path, line: lineOf(r.Syntax)}
		}
		if cur, ok := out[r.Old.Path]; ok && r.Old.Version != "" && cur.version != r.Old.Version {
			continue // replaces a version that is not the one required
		}
		out[r.Old.Path] = q
	}
	return out, nil
}

func lineOf(l *modfile.Line) int {
	if l == nil {
		return 0
	}
	return l.Start.Line
}

// Bumps finds the version changes of the changed manifests and reads
// the two versions of what the repository imports of each module.
func (fe *Frontend) Bumps(ctx context.Context, in lang.BumpInput) ([]*lang.Bump, error) {
	var found []*lang.Bump
	for _, fc := range in.Manifests {
		p := fc.Path()
		if strings.Contains("/"+p, "/vendor/") || strings.Contains("/"+p, "/testdata/") || fc.OldPath == "" || fc.NewPath == "" {
			continue // a manifest added or deleted changes a module, not a version
		}
		oldSrc, err1 := in.Base.ReadFile(ctx, fc.OldPath)
		newSrc, err2 := in.Head.ReadFile(ctx, fc.NewPath)
		if err := errors.Join(err1, err2); err != nil {
			return nil, err
		}
		oldReq, err1 := requirements(fc.OldPath, oldSrc)
		newReq, err2 := requirements(fc.NewPath, newSrc)
		if err1 != nil || err2 != nil {
			continue // a manifest that does not parse: the build says so
		}
		found = append(found, versionChanges(p, oldReq, newReq)...)
	}
	if len(found) == 0 {
		return nil, nil
	}
	mods, err := loadModules(ctx, in.Head)
	if err != nil {
		return nil, err
	}
	var out []*lang.Bump
	for _, b := range found {
		imported, err := importedFrom(ctx, in.Head, mods, b)
		if err != nil {
			return nil, err
		}
		b.Imported = imported
		b.Moved = moved(b)
		out = append(out, b)
	}
	var fromCache []*lang.Bump
	for _, b := range out {
		// a module the repository does not import (an indirect
		// dependency) is reported as such, and nothing is read
		if len(b.Imported) > 0 && !vendored(ctx, in.Base, in.Head, b) {
			fromCache = append(fromCache, b)
		}
	}
	readVersions(ctx, fromCache, in.Deadline)
	return out, nil
}

// versionChanges pairs the two states' requirements: a changed version
// (or replacement), and a module whose path changed major version
// (github.com/x/y -> github.com/x/y/v2) as a renamed one.
func versionChanges(manifest string, oldReq, newReq map[string]requirement) []*lang.Bump {
	var out []*lang.Bump
	add := func(oldPath, newPath string, o, n requirement) {
		if o.local != "" || n.local != "" || o.version == "" || n.version == "" {
			return // a directory replacement: its code is the repository's
		}
		// the files of both versions under the new path's root (the
		// import paths the repository uses after the bump), so that a
		// declaration meets its other state across a major version; a
		// replacement's source is read from its own module path
		b := &lang.Bump{Bump: model.Bump{Module: oldPath, From: o.version, To: n.version, Manifest: manifest, Line: n.line},
			Root: newPath + "@", OldRoot: o.path + "@" + o.version, NewRoot: n.path + "@" + n.version}
		if newPath != oldPath {
			b.NewModule = newPath
		}
		out = append(out, b)
	}
	byPrefix := map[string]string{} // a removed module's path without its major version
	for p := range oldReq {
		if _, ok := newReq[p]; !ok {
			if prefix, _, ok := module.SplitPathVersion(p); ok {
				byPrefix[prefix] = p
			}
		}
	}
	var paths []string
	for p := range newReq {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	for _, p := range paths {
		n := newReq[p]
		if o, ok := oldReq[p]; ok {
			if o.path != n.path || o.version != n.version || o.local != n.local {
				add(p, p, o, n)
			}
			continue
		}
		if prefix, _, ok := module.SplitPathVersion(p); ok {
			if old, ok := byPrefix[prefix]; ok {
				add(old, p, oldReq[old], n)
			}
		}
	}
	return out
}

// importedFrom lists the packages of the bump's module (its new path,
// and the old one of a major version change) that files of the
// manifest's own module import in the head state, less the packages of
// a longer module path the same manifest requires (a nested module).
func importedFrom(ctx context.Context, head gitio.Tree, mods *modules, b *lang.Bump) ([]string, error) {
	modDir := path.Dir(b.Manifest)
	if modDir == "." {
		modDir = ""
	}
	// a go.work's replacement applies to every module of the workspace
	work := path.Base(b.Manifest) == "go.work"
	paths := []string{b.Module}
	if b.NewModule != "" {
		paths = append(paths, b.NewModule)
	}
	var words []string
	for _, p := range paths {
		prefix, _, _ := module.SplitPathVersion(p)
		words = append(words, path.Base(prefix))
	}
	spec := "*.go"
	if modDir != "" {
		spec = modDir + "/*.go"
	}
	hits, err := head.Grep(ctx, words, spec)
	if err != nil {
		return nil, err
	}
	var files []string
	for _, h := range hits {
		if strings.Contains("/"+h, "/vendor/") || strings.Contains("/"+h, "/testdata/") {
			continue
		}
		if r := mods.root(path.Dir(h)); !work && (r == nil || r.dir != modDir) {
			continue // a nested module: its own go.mod says its versions
		}
		files = append(files, h)
	}
	srcs, _ := head.ReadFiles(ctx, files) // an unreadable file imports nothing we can see
	longer := mods.requires[modDir]
	seen := map[string]bool{}
	fset := token.NewFileSet()
	for _, f := range files {
		af, err := parser.ParseFile(fset, f, srcs[f], parser.ImportsOnly)
		if err != nil && af == nil {
			continue
		}
		for _, im := range af.Imports {
			ip, err := strconv.Unquote(im.Path.Value)
			if err != nil {
				continue
			}
			for _, p := range paths {
				if (ip == p || strings.HasPrefix(ip, p+"/")) && !inLonger(ip, p, longer) {
					seen[ip] = true
				}
			}
		}
	}
	out := make([]string, 0, len(seen))
	for ip := range seen {
		out = append(out, ip)
	}
	sort.Strings(out)
	return out, nil
}

// inLonger reports whether import path ip belongs to a required module
// whose path is longer than p's.
func inLonger(ip, p string, reqs []module.Version) bool {
	for _, r := range reqs {
		if len(r.Path) > len(p) && (ip == r.Path || strings.HasPrefix(ip, r.Path+"/")) {
			return true
		}
	}
	return false
}

// readVersions reads both versions of each bump's imported packages
// from the module cache, downloading what is absent in one go command
// (bounded by lang.FetchLimit, not by the budget: the seed is read
// whatever the budget); a bump it cannot read says why (Unread), one
// fetched past the deadline how long it took (Fetched).
func readVersions(ctx context.Context, bumps []*lang.Bump, deadline time.Time) {
	cache := toolchainEnv().modcache
	dirs := map[string]string{} // module@version -> directory
	var missing []string
	for _, b := range bumps {
		for _, mv := range []string{b.OldRoot, b.NewRoot} {
			d := cacheDir(cache, mv)
			if d != "" && isDir(d) {
				dirs[mv] = d
			} else if _, ok := dirs[mv]; !ok {
				dirs[mv] = ""
				missing = append(missing, mv)
			}
		}
	}
	start := time.Now()
	failed := download(ctx, missing, dirs)
	took := time.Since(start)
	late := len(missing) > 0 && !deadline.IsZero() && time.Now().After(deadline)
	for _, b := range bumps {
		if late && (slices.Contains(missing, b.OldRoot) || slices.Contains(missing, b.NewRoot)) {
			b.Fetched = took
		}
		od, nd := dirs[b.OldRoot], dirs[b.NewRoot]
		if od == "" || nd == "" {
			var why []string
			for _, mv := range []string{b.OldRoot, b.NewRoot} {
				if dirs[mv] == "" {
					why = append(why, mv+": "+failed[mv])
				}
			}
			b.Unread = strings.Join(why, "; ")
			continue
		}
		base, head, files := moduleStates(b, od, nd)
		b.Base, b.Head, b.Files = base, head, files
		b.Directives, b.Directive = inlineDirectives(head), "//go:fix inline"
	}
}

// moved lists the packages of the old path of a major version change
// that the repository imports, each with its new path.
func moved(b *lang.Bump) [][2]*model.Block {
	if b.NewModule == "" {
		return nil
	}
	var out [][2]*model.Block
	for _, ip := range b.Imported {
		if ip != b.Module && !strings.HasPrefix(ip, b.Module+"/") ||
			ip == b.NewModule || strings.HasPrefix(ip, b.NewModule+"/") {
			continue // a package of the new path (kit/v2 begins with kit/)
		}
		rel := strings.TrimPrefix(ip, b.Module)
		np := b.NewModule + rel
		blk := func(mod, p string) *model.Block {
			return &model.Block{Lang: "go", Kind: model.KindImport, Package: mod + "@" + rel, Name: p, Display: "import " + strconv.Quote(p)}
		}
		out = append(out, [2]*model.Block{blk(b.Module, ip), blk(b.NewModule, np)})
	}
	return out
}

// vendored reports a bump the repository vendors in both states at the
// bump's versions (vendor/modules.txt beside the manifest says so): the
// diff holds the dependency's changed files, which are classified as
// the diff's own, and the bump reads nothing more.
func vendored(ctx context.Context, base, head gitio.Tree, b *lang.Bump) bool {
	dir := path.Dir(b.Manifest)
	txt := path.Join(dir, "vendor", "modules.txt")
	oldList, err1 := base.ReadFile(ctx, txt)
	newList, err2 := head.ReadFile(ctx, txt)
	newPath := b.Module
	if b.NewModule != "" {
		newPath = b.NewModule
	}
	if err1 != nil || err2 != nil || !vendorLists(oldList, b.Module, b.From) || !vendorLists(newList, newPath, b.To) {
		return false
	}
	b.InDiff = path.Join(dir, "vendor")
	return true
}

// vendorLists reports whether a vendor/modules.txt lists module mod at
// version v ("# mod v", or "# mod v => replacement").
func vendorLists(list []byte, mod, v string) bool {
	for _, l := range strings.Split(string(list), "\n") {
		f := strings.Fields(l)
		if len(f) >= 3 && f[0] == "#" && f[1] == mod && f[2] == v {
			return true
		}
	}
	return false
}

// cacheDir is the module cache's directory of "path@version", "" when
// the path or version cannot be escaped.
func cacheDir(cache, mv string) string {
	p, v, _ := strings.Cut(mv, "@")
	ep, err1 := module.EscapePath(p)
	ev, err2 := module.EscapeVersion(v)
	if cache == "" || err1 != nil || err2 != nil {
		return ""
	}
	return filepath.Join(cache, ep+"@"+ev)
}

// download runs `go mod download -json` for the module versions absent
// from the cache (the user's GOPROXY, GOFLAGS and GONOSUMDB apply) and
// records their directories in dirs; it returns why each one it could
// not fetch failed.
func download(ctx context.Context, mvs []string, dirs map[string]string) map[string]string {
	failed := map[string]string{}
	if len(mvs) == 0 {
		return failed
	}
	ctx, cancel := context.WithTimeout(ctx, lang.FetchLimit)
	defer cancel()
	tmp, err := os.MkdirTemp("", "ripple-bump-")
	if err != nil {
		for _, mv := range mvs {
			failed[mv] = err.Error()
		}
		return failed
	}
	defer os.RemoveAll(tmp)
	cmd := exec.CommandContext(ctx, "go", append([]string{"mod", "download", "-json"}, mvs...)...)
	cmd.Dir = tmp // outside any module: only the versions named are read
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOTOOLCHAIN=local", "GOWORK=off")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, runErr := cmd.Output()
	dec := json.NewDecoder(bytes.NewReader(out))
	for {
		var m struct{ Path, Version, Dir, Error string }
		if dec.Decode(&m) != nil {
			break
		}
		mv := m.Path + "@" + m.Version
		switch {
		case m.Error != "":
			failed[mv] = strings.TrimPrefix(firstLine(m.Error), mv+": ")
		case m.Dir != "":
			dirs[mv] = m.Dir
		}
	}
	for _, mv := range mvs {
		if dirs[mv] != "" || failed[mv] != "" {
			continue
		}
		switch {
		case ctx.Err() != nil:
			failed[mv] = fmt.Sprintf("fetching it took longer than %v", lang.FetchLimit)
		case runErr != nil:
			failed[mv] = "go mod download: " + firstLine(strings.TrimSpace(stderr.String()+" "+runErr.Error()))
		default:
			failed[mv] = "go mod download did not say where it is"
		}
	}
	return failed
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(strings.TrimSpace(s), "\n")
	return s
}

// moduleStates reads the imported packages' Go files (not tests, not
// files built only with the ignore tag) of both versions from their
// module directories.
func moduleStates(b *lang.Bump, oldDir, newDir string) (base, head gitio.MemTree, files []*gitio.FileChange) {
	read := func(modDir string) map[string]map[string][]byte {
		out := map[string]map[string][]byte{}
		for _, ip := range b.Imported {
			out[ip] = packageFiles(filepath.Join(modDir, filepath.FromSlash(relOf(b, ip))))
		}
		return out
	}
	return states(b, read(oldDir), read(newDir))
}

// relOf is an imported package's directory within its module.
func relOf(b *lang.Bump, ip string) string {
	for _, p := range []string{b.NewModule, b.Module} {
		if p != "" && (ip == p || strings.HasPrefix(ip, p+"/")) {
			return strings.TrimPrefix(strings.TrimPrefix(ip, p), "/")
		}
	}
	return ""
}

// states puts both versions' files of each imported package (import
// path -> file name -> content) into trees under the bump's root, and
// the changes between them. A file equal in both versions is left out
// of the changes: its declarations did not change. The two paths of a
// package a major version moved meet under the new path's root.
func states(b *lang.Bump, olds, news map[string]map[string][]byte) (base, head gitio.MemTree, files []*gitio.FileChange) {
	base, head = gitio.MemTree{}, gitio.MemTree{}
	type pair struct{ old, new map[string][]byte }
	byRel := map[string]*pair{}
	for ip := range olds {
		rel := relOf(b, ip)
		if byRel[rel] == nil {
			byRel[rel] = &pair{}
		}
		if len(olds[ip]) > 0 && len(byRel[rel].old) == 0 {
			byRel[rel].old = olds[ip]
		}
		if len(news[ip]) > 0 && len(byRel[rel].new) == 0 {
			byRel[rel].new = news[ip]
		}
	}
	for rel, pr := range byRel {
		for name, src := range pr.old {
			base[path.Join(b.Root, rel, name)] = src
		}
		for name, src := range pr.new {
			head[path.Join(b.Root, rel, name)] = src
		}
		for name, o := range pr.old {
			p := path.Join(b.Root, rel, name)
			n, ok := pr.new[name]
			switch {
			case !ok:
				files = append(files, &gitio.FileChange{Status: gitio.Deleted, OldPath: p, Whole: true})
			case !bytes.Equal(o, n):
				files = append(files, &gitio.FileChange{Status: gitio.Modified, OldPath: p, NewPath: p, Whole: true})
			}
		}
		for name := range pr.new {
			if _, ok := pr.old[name]; !ok {
				files = append(files, &gitio.FileChange{Status: gitio.Added, NewPath: path.Join(b.Root, rel, name), Whole: true})
			}
		}
	}
	sort.Slice(files, func(i, j int) bool { return files[i].Path() < files[j].Path() })
	return base, head, files
}

// packageFiles reads a package directory's Go files that the default
// build configuration compiles (this machine's GOOS and GOARCH, as the
// type checker and the developer's build read them; tests and files of
// other systems left out: a call the repository makes on linux is not
// judged against foo_windows.go); a missing directory has none.
func packageFiles(dir string) map[string][]byte {
	out := map[string][]byte{}
	ents, err := os.ReadDir(dir)
	if err != nil {
		return out
	}
	for _, e := range ents {
		n := e.Name()
		if e.IsDir() || !strings.HasSuffix(n, ".go") || strings.HasSuffix(n, "_test.go") {
			continue
		}
		if ok, err := build.Default.MatchFile(dir, n); err != nil || !ok {
			continue
		}
		src, err := os.ReadFile(filepath.Join(dir, n))
		if err != nil {
			continue
		}
		out[n] = src
	}
	return out
}

var _ lang.Bumper = (*Frontend)(nil)

// externalImportPath maps a directory under a bump's root
// ("github.com/x/y@/pkg", or with the version after the @) to the
// package's import path; ok is false for a directory of the repository.
func externalImportPath(dir string) (string, bool) {
	at := strings.Index(dir, "@")
	if at < 0 {
		return "", false
	}
	mod, rest := dir[:at], dir[at+1:]
	if _, rel, ok := strings.Cut(rest, "/"); ok {
		return mod + "/" + rel, true
	}
	return mod, true
}

// Forwards returns the name of the function of the same package that a
// free function only forwards its parameters to, in order (a deprecated
// name kept for callers: func Elipse(s string, n int) string { return
// Ellipsis(s, n) }), or "".
func (fe *Frontend) Forwards(b *model.Block) string {
	fi, ok := b.Data.(*funcInfo)
	if !ok || fi.Decl == nil || fi.Decl.Recv != nil || fi.Decl.Body == nil || len(fi.Decl.Body.List) != 1 {
		return ""
	}
	var call *ast.CallExpr
	switch s := fi.Decl.Body.List[0].(type) {
	case *ast.ReturnStmt:
		if len(s.Results) == 1 {
			call, _ = s.Results[0].(*ast.CallExpr)
		}
	case *ast.ExprStmt:
		call, _ = s.X.(*ast.CallExpr)
	}
	if call == nil || len(call.Args) != len(fi.Params) || fi.Variadic != call.Ellipsis.IsValid() {
		return ""
	}
	fun := call.Fun
	switch f := fun.(type) {
	case *ast.IndexExpr:
		fun = f.X
	case *ast.IndexListExpr:
		fun = f.X
	}
	id, ok := fun.(*ast.Ident)
	if !ok || id.Name == b.Name {
		return ""
	}
	for i, a := range call.Args {
		if x, ok := a.(*ast.Ident); !ok || x.Name != fi.Params[i].Name || x.Name == "_" {
			return ""
		}
	}
	return id.Name
}

// inlineDirectives lists the names a version's files mark //go:fix
// inline (functions, constants, type aliases): its own migration,
// which go fix -inline applies to their uses (migrate.go).
func inlineDirectives(t gitio.MemTree) []string {
	var out []string
	fset := token.NewFileSet()
	for p, src := range t {
		if !bytes.Contains(src, []byte("//go:fix inline")) {
			continue
		}
		f, err := parser.ParseFile(fset, p, src, parser.ParseComments|parser.SkipObjectResolution)
		if err != nil {
			continue
		}
		marked := func(cg *ast.CommentGroup) bool {
			if cg == nil {
				return false
			}
			for _, c := range cg.List {
				if strings.TrimSpace(c.Text) == "//go:fix inline" {
					return true
				}
			}
			return false
		}
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				if marked(d.Doc) && d.Recv == nil {
					out = append(out, d.Name.Name)
				}
			case *ast.GenDecl:
				for _, sp := range d.Specs {
					switch sp := sp.(type) {
					case *ast.ValueSpec:
						if marked(d.Doc) || marked(sp.Doc) {
							for _, n := range sp.Names {
								out = append(out, n.Name)
							}
						}
					case *ast.TypeSpec:
						if marked(d.Doc) || marked(sp.Doc) {
							out = append(out, sp.Name.Name)
						}
					}
				}
			}
		}
	}
	sort.Strings(out)
	return slices.Compact(out)
}
