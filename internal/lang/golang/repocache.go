package golang

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"go/parser"
	"go/token"
	"go/types"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"golang.org/x/tools/go/gcexportdata"
)

// The repository's own packages are loaded declarations-only for every
// package that imports them, which on a large repository is most of a
// check's cost (terraform: 0.7 of 0.9 CPU-seconds of type checking for
// one changed parameter). Their declarations are kept in the export-data
// cache too, under a content key: the Go version, the build
// configuration, the import path and directory, the name and digest of
// every file selected, and the key of every import (a module-cache or
// GOROOT directory, a package not found, or another repository
// package's content key). Whatever changes what the checker would see
// changes the key, so an entry is never stale, only unused. A
// module-cache package that depends on a package not found is keyed the
// same way (its directory stands for its files, which never change), so
// a partial module cache does not make everything above it uncacheable;
// a package whose imports include one stubbed for the deadline or a
// cycle is not cached at all.

// repoCacheVersion changes when what an entry holds changes (the
// stripping of bodies, the checker's configuration).
const repoCacheVersion = "repo-v2"

// fileHead is what the loader needs of a head-state file before parsing
// it: the header go/build reads to match it to a build configuration,
// its package clause and imports, and a digest of its whole content.
type fileHead struct {
	path, dir string
	hdr       []byte
	pkgName   string
	imports   []string
	sum       [32]byte
}

func parseHead(p string, src []byte) *fileHead {
	if bytes.IndexByte(src[:min(len(src), 8000)], 0) >= 0 {
		return nil
	}
	fset := token.NewFileSet()
	f, _ := parser.ParseFile(fset, p, src, parser.ImportsOnly|parser.ParseComments|parser.SkipObjectResolution)
	if f == nil || f.Name == nil {
		return nil
	}
	h := &fileHead{path: p, dir: dirOf(p), pkgName: f.Name.Name, sum: sha256.Sum256(src)}
	// go/build reads a file up to the end of its imports; a copy of that
	// much lets the rest of the source go
	end := fset.Position(f.Name.End()).Offset
	if n := len(f.Decls); n > 0 {
		end = fset.Position(f.Decls[n-1].End()).Offset
	}
	h.hdr = append([]byte(nil), src[:min(end, len(src))]...)
	for _, im := range f.Imports {
		if ip, err := strconv.Unquote(im.Path.Value); err == nil {
			h.imports = append(h.imports, ip)
		}
	}
	return h
}

// heads returns the heads of the files at paths, in the order given.
func (ix *index) headsOf(ctx context.Context, paths []string) []*fileHead {
	hs, _ := ix.heads.Parse(ctx, paths)
	return hs
}

// matchHead reports whether a head-state file is part of its package
// under bc (file name suffixes, //go:build lines, cgo).
func matchHead(bc buildCtx, h *fileHead) bool {
	ctxt := buildContext(bc, func(string) []byte { return h.hdr })
	ok, err := ctxt.MatchFile(h.dir, path.Base(h.path))
	return err == nil && ok
}

// contentKey computes the content key of package p at loc under bc,
// loading its imports (which the check needs anyway) to learn theirs: a
// repository package's files count by digest, a module-cache package's
// by its directory, which is immutable. ok is false when the package
// cannot be cached.
func (l *loader) contentKey(p string, loc location, bc buildCtx) (key string, deps []*types.Package, ok bool) {
	key, ok = l.keyWith(p, loc, bc, func(ip string) string {
		dep, ck := l.resolve(ip, loc, bc)
		if ck != "" {
			deps = append(deps, dep)
		}
		return ck
	})
	return key, deps, ok
}

// keyWith is the content key of package p at loc under bc given the keys
// of its imports (depKey: "" for an import that has none, which makes p
// uncacheable).
func (l *loader) keyWith(p string, loc location, bc buildCtx, depKey func(ip string) string) (string, bool) {
	if l.cache == nil || loc.withTests || loc.std {
		return "", false
	}
	h := sha256.New()
	w := func(s string) { h.Write([]byte(s)); h.Write([]byte{0}) }
	w(repoCacheVersion)
	w(l.env.version)
	w(bc.key())
	w(p)
	w(loc.dir)
	var heads []*fileHead
	if loc.repo {
		var paths []string
		for _, q := range l.a.ix.byDir[loc.dir] {
			if !strings.HasSuffix(q, "_test.go") {
				paths = append(paths, q)
			}
		}
		name := l.a.ix.importName(l.a.ctx, l.a.ix.mods.importPath(loc.dir), loc.dir)
		for _, fh := range l.repoHeads(paths) {
			if fh.pkgName == name && matchHead(bc, fh) {
				heads = append(heads, fh)
				w(fh.path)
				h.Write(fh.sum[:])
			}
		}
	} else {
		heads = diskHeads(loc.dir, bc)
	}
	imports := map[string]bool{}
	for _, fh := range heads {
		for _, ip := range fh.imports {
			imports[ip] = true
		}
	}
	ips := make([]string, 0, len(imports))
	for ip := range imports {
		ips = append(ips, ip)
	}
	sort.Strings(ips)
	for _, ip := range ips {
		if ip == "C" || ip == "unsafe" {
			w(ip)
			continue
		}
		ck := depKey(ip)
		if ck == "" {
			return "", false
		}
		w(ip + "=" + ck)
	}
	return hex.EncodeToString(h.Sum(nil)), true
}

// diskHeads reads the headers of the files of the package in directory
// dir (the module cache) that bc selects, as loader.files selects them.
func diskHeads(dir string, bc buildCtx) []*fileHead {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	ctxt := buildContext(bc, nil)
	var out []*fileHead
	pkgName := ""
	for _, e := range ents {
		n := e.Name()
		if e.IsDir() || !strings.HasSuffix(n, ".go") || strings.HasSuffix(n, "_test.go") {
			continue
		}
		if ok, err := ctxt.MatchFile(dir, n); err != nil || !ok {
			continue
		}
		src, err := os.ReadFile(filepath.Join(dir, n))
		if err != nil {
			continue
		}
		fh := parseHead(filepath.Join(dir, n), src)
		if fh == nil || fh.pkgName == "documentation" || pkgName != "" && fh.pkgName != pkgName {
			continue
		}
		pkgName = fh.pkgName
		out = append(out, fh)
	}
	return out
}

// resolve loads import p of a package at from, as the checker's
// importer does, and returns its cache key ("" when the package's
// declarations are not reproducible: a stub for the deadline or an
// import cycle, or something depending on one).
func (l *loader) resolve(p string, from location, bc buildCtx) (*types.Package, string) {
	if p == "unsafe" {
		return types.Unsafe, "unsafe"
	}
	loc, ok := l.locate(p, from)
	if !ok {
		return l.absentStub(p), "absent:" + p
	}
	pkg, _ := l.load(p, loc, bc)
	l.mu.Lock()
	defer l.mu.Unlock()
	return pkg, l.ckey[pkg]
}

// readRepo returns the cached declarations of the package under key,
// resolving what they refer to through deps and everything deps import,
// or nil.
func (c *exportCache) readRepo(fset *token.FileSet, deps []*types.Package, p, key string) *types.Package {
	if c == nil {
		return nil
	}
	f := c.keyFile(key)
	data := c.entry(f)
	if data == nil {
		return nil
	}
	imports := map[string]*types.Package{}
	var add func(*types.Package)
	add = func(q *types.Package) {
		if _, ok := imports[q.Path()]; ok {
			return
		}
		imports[q.Path()] = q
		for _, i := range q.Imports() {
			add(i)
		}
	}
	for _, d := range deps {
		add(d)
	}
	if _, ok := imports[p]; ok {
		return nil // an import cycle: leave it to the checker
	}
	pkg, err := gcexportdata.Read(exportReader(data), fset, imports, p)
	if err != nil {
		return nil
	}
	return pkg
}
