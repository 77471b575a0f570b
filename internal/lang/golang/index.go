package golang

import (
	"bytes"
	"context"
	"go/ast"
	"go/build/constraint"
	"go/parser"
	"go/token"
	"path"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/ripple-dev/ripple/internal/corpus"
	"github.com/ripple-dev/ripple/internal/gitio"
	"github.com/ripple-dev/ripple/internal/model"
)

// pfile is one parsed Go file of the head state.
type pfile struct {
	path    string
	dir     string
	src     []byte
	ast     *ast.File
	pkgName string
	pkgKey  string // import path, with "_test" for external test packages
	// imports maps the name an import binds in this file to its path;
	// dot imports are listed separately.
	imports    map[string]string
	dotImports []string
	scopes     *scopes // what its identifiers denote (resolveFile)
	generated  bool
	build      constraint.Expr // the //go:build line, nil if none
	parseErr   bool
	// stripped are the functions parsed without their bodies, which name
	// none of the words keptFor (partial.go); both nil for a file parsed
	// whole
	stripped []*ast.FuncDecl
	keptFor  map[string]bool
}

// index holds the head state's Go files: the list of all of them (the
// package layout), and the corpus that searches and parses them.
type index struct {
	tree gitio.Tree
	mods *modules
	fset *token.FileSet
	*corpus.Corpus[*pfile]
	// bare holds files parsed without their function bodies: the
	// packages the type checker imports from the repository, and the
	// files of a checked package that hold no reference (the grep found
	// none of the words in them).
	bare *corpus.Corpus[*pfile]
	// heads holds the headers of the files of imported repository
	// packages (repocache.go)
	heads *corpus.Corpus[*fileHead]

	all    []string            // every .go file of the head state
	byDir  map[string][]string // dir -> files
	dirSet map[string]bool

	mu      sync.Mutex
	pkgName map[string]string // dir -> package name of its non-test files
	// dirOfMemo: repoDir's answers, by from-directory and import path
	dirOfMemo sync.Map
	// completeMu serializes the completion of files parsed in part
	completeMu sync.Mutex
	diag       func(model.Diagnostic)
}

// usable is the Go front-end's own exclusion: testdata folders hold
// inputs of tests, not code of the module.
func usable(p string) bool {
	return strings.HasSuffix(p, ".go") && !strings.Contains("/"+p, "/testdata/")
}

func newIndex(ctx context.Context, t gitio.Tree, ignored func(string) bool, diag func(model.Diagnostic)) (*index, error) {
	mods, err := loadModules(ctx, t)
	if err != nil {
		return nil, err
	}
	ix := &index{tree: t, mods: mods, fset: token.NewFileSet(), byDir: map[string][]string{}, dirSet: map[string]bool{},
		pkgName: map[string]string{}, diag: diag}
	ix.Corpus = corpus.New(corpus.Config[*pfile]{
		Tree: t, Pathspecs: []string{"*.go"}, Unsearched: []string{"vendor"}, Diag: diag,
		Usable: func(p string) bool { return usable(p) && (ignored == nil || !ignored(p)) },
		Parse: func(p string, src []byte) (*pfile, bool, *model.Diagnostic) {
			f := ix.parseOne(ctx, p, src)
			return f, f != nil, nil
		},
	})
	ix.bare = corpus.New(corpus.Config[*pfile]{
		Tree: t, Pathspecs: []string{"*.go"}, Diag: diag,
		Usable: func(p string) bool { return usable(p) && (ignored == nil || !ignored(p)) },
		Parse: func(p string, src []byte) (*pfile, bool, *model.Diagnostic) {
			f := ix.parseStripped(p, src)
			return f, f != nil, nil
		},
	})
	ix.heads = corpus.New(corpus.Config[*fileHead]{
		Tree: t, Pathspecs: []string{"*.go"},
		Usable: func(p string) bool { return usable(p) && (ignored == nil || !ignored(p)) },
		Parse: func(p string, src []byte) (*fileHead, bool, *model.Diagnostic) {
			h := parseHead(p, src)
			return h, h != nil, nil
		},
	})
	all, err := ix.All(ctx)
	if err != nil {
		return nil, err
	}
	for _, p := range all {
		ix.all = append(ix.all, p)
		d := dirOf(p)
		ix.byDir[d] = append(ix.byDir[d], p)
		ix.dirSet[d] = true
	}
	return ix, nil
}

func dirOf(p string) string {
	d := path.Dir(p)
	if d == "." {
		return ""
	}
	return d
}

// parse returns the given files whole: parsed through the corpus (those
// not parsed yet), completed when parsed in part (partial.go); a
// cancelled check yields what was parsed before.
func (ix *index) parse(ctx context.Context, paths []string) []*pfile {
	return ix.parseHits(ctx, paths, nil)
}

func (ix *index) parseOne(ctx context.Context, p string, src []byte) *pfile {
	return ix.parseFile(ctx, p, src, nil)
}

// parseFile parses a file of the head state; with words, the bodies of
// the top-level functions whose declarations name none of them are left
// out (partial.go).
func (ix *index) parseFile(ctx context.Context, p string, src []byte, words map[string]bool) *pfile {
	if bytes.IndexByte(src[:min(len(src), 8000)], 0) >= 0 {
		return nil
	}
	src, _ = validUTF8(src)
	text, blanked := src, []int(nil)
	if words != nil {
		text, blanked = stripBodiesExcept(src, func(decl []byte) bool { return mentionsAny(decl, words) })
	}
	// comments are read from the header only (generated-file marker,
	// //go:build): nothing else reads them, and skipping them makes the
	// parse a third faster (terraform's internal/command: 175 -> 110 ms);
	// identifiers are resolved by resolveFile (scope.go)
	f, err := parser.ParseFile(ix.fset, p, text, parser.AllErrors|parser.SkipObjectResolution)
	if words != nil && (err != nil || f == nil || f.Name == nil) {
		return ix.parseFile(ctx, p, src, nil) // reported as a whole file is
	}
	if f == nil || f.Name == nil {
		if err != nil && ix.diag != nil {
			ix.diag(*parseDiag(p, err))
		}
		return nil
	}
	pf := &pfile{path: p, dir: dirOf(p), src: src, ast: f, pkgName: f.Name.Name, imports: map[string]string{}, scopes: resolveFile(f)}
	if len(blanked) > 0 {
		tf := ix.fset.File(f.Pos())
		open := map[int]bool{}
		for _, o := range blanked {
			open[o] = true
		}
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Body != nil && open[tf.Offset(fd.Body.Lbrace)] {
				pf.stripped = append(pf.stripped, fd)
			}
		}
		if len(pf.stripped) > 0 {
			pf.keptFor = words
		}
	}
	if err != nil {
		pf.parseErr = true
		if ix.diag != nil {
			ix.diag(*parseDiag(p, err))
		}
	}
	pf.pkgKey = ix.mods.importPath(pf.dir)
	if strings.HasSuffix(pf.pkgName, "_test") {
		pf.pkgKey += "_test"
	}
	ix.bindImports(ctx, pf)
	if h, _ := parser.ParseFile(token.NewFileSet(), p, src, parser.PackageClauseOnly|parser.ParseComments); h != nil {
		pf.generated = ast.IsGenerated(h)
		pf.build = buildLine(h)
	}
	return pf
}

// repoDir is mods.dirOf over the repository's directories, remembered:
// every import of every file asks it, from every directory.
func (ix *index) repoDir(ip, fromDir string) (string, bool) {
	k := fromDir + "\x00" + ip
	if v, ok := ix.dirOfMemo.Load(k); ok {
		d := v.(string)
		return d, d != "\x00"
	}
	d, ok := ix.mods.dirOf(ip, fromDir, ix.dirSet)
	if !ok {
		d = "\x00"
	}
	ix.dirOfMemo.Store(k, d)
	return d, ok
}

// importName is the name an import of ip binds by default: the package
// clause of the directory when it is in the repository, else a guess.
func (ix *index) importName(ctx context.Context, ip, fromDir string) string {
	if d, ok := ix.repoDir(ip, fromDir); ok {
		ix.mu.Lock()
		n, known := ix.pkgName[d]
		ix.mu.Unlock()
		if known {
			return n
		}
		n = ix.readPkgName(ctx, d)
		ix.mu.Lock()
		ix.pkgName[d] = n
		ix.mu.Unlock()
		return n
	}
	return defaultImportName(ip)
}

// readPkgName reads the package clause of one non-test file of dir.
func (ix *index) readPkgName(ctx context.Context, d string) string {
	for _, p := range ix.byDir[d] {
		if strings.HasSuffix(p, "_test.go") {
			continue
		}
		src, err := ix.tree.ReadFile(ctx, p)
		if err != nil {
			continue
		}
		f, err := parser.ParseFile(token.NewFileSet(), p, src, parser.PackageClauseOnly|parser.SkipObjectResolution)
		if err == nil && f.Name != nil && f.Name.Name != "documentation" {
			return f.Name.Name
		}
	}
	return path.Base(d)
}

// line returns the 1-based line of pos and the line's text.
func (ix *index) lineText(f *pfile, pos token.Pos) (int, int, string) {
	p := ix.fset.PositionFor(pos, false)
	start := p.Offset - (p.Column - 1)
	if start < 0 || start > len(f.src) {
		return p.Line, p.Column, ""
	}
	end := bytes.IndexByte(f.src[start:], '\n')
	if end < 0 {
		end = len(f.src) - start
	}
	return p.Line, p.Column, strings.TrimRight(string(f.src[start:start+end]), "\r")
}

// shallow returns the files at paths: those parsed whole already, the
// others without their function bodies (read in one batch, parsed in
// parallel, kept for the check).
func (ix *index) shallow(ctx context.Context, paths []string) []*pfile {
	var rest []string
	for _, p := range paths {
		if ix.parsedFile(p) == nil {
			rest = append(rest, p)
		}
	}
	if len(rest) > 0 {
		_, _ = ix.bare.Parse(ctx, rest)
	}
	out := make([]*pfile, 0, len(paths))
	for _, p := range paths {
		if f := ix.parsedFile(p); f != nil {
			out = append(out, f)
		} else if f, ok := ix.bare.Get(p); ok {
			out = append(out, f)
		}
	}
	return out
}

// bindImports records the names f's imports bind.
func (ix *index) bindImports(ctx context.Context, f *pfile) {
	for _, im := range f.ast.Imports {
		ip, _ := strconv.Unquote(im.Path.Value)
		switch {
		case im.Name == nil:
			f.imports[ix.importName(ctx, ip, f.dir)] = ip
		case im.Name.Name == ".":
			f.dotImports = append(f.dotImports, ip)
		case im.Name.Name == "_":
		default:
			f.imports[im.Name.Name] = ip
		}
	}
}

// declFiles returns files for the symbol index, which reads top-level
// declarations only: a file parsed whole earlier, else its parse without
// function bodies, given the package key, import names and scopes the
// index resolves names through.
func (ix *index) declFiles(ctx context.Context, paths []string) []*pfile {
	out := ix.shallow(ctx, paths)
	for i, f := range out {
		if f.imports != nil {
			continue // parsed whole
		}
		c := *f
		c.imports = map[string]string{}
		c.pkgKey = ix.mods.importPath(c.dir)
		if strings.HasSuffix(c.pkgName, "_test") {
			c.pkgKey += "_test"
		}
		ix.bindImports(ctx, &c)
		c.scopes = resolveFile(c.ast)
		out[i] = &c
	}
	return out
}

// exists reports whether the head state has a Go file at p.
func (ix *index) exists(p string) bool {
	return slices.Contains(ix.byDir[dirOf(p)], p)
}

// parsedFile returns a file parsed whole earlier, or nil.
func (ix *index) parsedFile(p string) *pfile {
	f, _ := ix.Get(p)
	return f
}

// parseStripped parses a file without its function bodies, for loading
// an imported package's declarations; it is not kept in the index.
func (ix *index) parseStripped(p string, src []byte) *pfile {
	if bytes.IndexByte(src[:min(len(src), 8000)], 0) >= 0 {
		return nil
	}
	src, _ = validUTF8(src)
	// comments are parsed only in the header, for the //go:build line:
	// the declarations' comments are a large part of a package's source
	f, _ := parser.ParseFile(ix.fset, p, stripBodies(src), parser.SkipObjectResolution)
	if f == nil || f.Name == nil {
		return nil
	}
	pf := &pfile{path: p, dir: dirOf(p), src: src, ast: f, pkgName: f.Name.Name}
	if h, _ := parser.ParseFile(token.NewFileSet(), p, src, parser.PackageClauseOnly|parser.ParseComments|parser.SkipObjectResolution); h != nil {
		pf.build = buildLine(h)
	}
	return pf
}

// buildLine returns the //go:build constraint of a file, nil if none.
func buildLine(f *ast.File) constraint.Expr {
	for _, cg := range f.Comments {
		if cg.Pos() > f.Package {
			break
		}
		for _, c := range cg.List {
			if constraint.IsGoBuild(c.Text) {
				if e, err := constraint.Parse(c.Text); err == nil {
					return e
				}
			}
		}
	}
	return nil
}
