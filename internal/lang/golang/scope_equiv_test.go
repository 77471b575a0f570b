package golang

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// TestResolveMatchesParser: on real Go files, resolveFile answers what
// the parser's object resolution (ast.Ident.Obj, deprecated) answered,
// which the front-end read before: for every identifier, whether it
// denotes a declaration of the file, whether that is a package-level
// one, which declaring node, and which identifiers denote the same
// declaration; resolveFunc answers the same for each function's
// identifiers. Labels and import names, which ours leaves unbound, are
// left out, and so are files with a grouped type declaration in which a
// generic type is followed by another (genericTypeGroup).
//
// The files: this module's, and go/... of the Go installation (the
// parser's own test files hold its corner cases). RESOLVE_ROOT=dir
// checks every .go file under dir instead (GOROOT/src and a module
// cache, about 16,000 files, agree).
func TestResolveMatchesParser(t *testing.T) {
	roots := []string{"../../..", filepath.Join(runtime.GOROOT(), "src", "go")}
	if r := os.Getenv("RESOLVE_ROOT"); r != "" {
		roots = []string{r}
	}
	files, skipped := 0, 0
	for _, root := range roots {
		err := filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.HasSuffix(p, ".go") {
				return err
			}
			src, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			switch compareWithParser(t, p, src) {
			case compared:
				files++
			case skippedFile:
				skipped++
			}
			if t.Failed() {
				return filepath.SkipAll
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if files < 100 {
		t.Fatalf("only %d files compared", files)
	}
	t.Logf("%d files agree (%d left out)", files, skipped)
}

const (
	compared = iota
	skippedFile
	unparsed
)

// compareWithParser parses src twice, with the parser's object
// resolution and without, and reports where resolveFile and resolveFunc
// disagree with the parser.
func compareWithParser(t *testing.T, name string, src []byte) int {
	t.Helper()
	withObj, err1 := parser.ParseFile(token.NewFileSet(), name, src, parser.ParseComments|parser.AllErrors)
	plain, err2 := parser.ParseFile(token.NewFileSet(), name, src, parseMode)
	if withObj == nil || plain == nil || (err1 == nil) != (err2 == nil) {
		return unparsed
	}
	if genericTypeGroup(plain) {
		return skippedFile
	}
	ids1, ids2 := idents(withObj), idents(plain)
	if len(ids1) != len(ids2) {
		t.Fatalf("%s: %d and %d identifiers", name, len(ids1), len(ids2))
	}
	skip := map[*ast.Ident]bool{}
	for _, im := range withObj.Imports {
		if im.Name != nil {
			skip[im.Name] = true
		}
	}
	top := map[*ast.Object]bool{}
	for _, o := range withObj.Scope.Objects {
		top[o] = true
	}
	fset := token.NewFileSet()
	fset.AddFile(name, -1, len(src)).SetLinesForContent(src)
	at := func(id *ast.Ident) string { return fset.Position(id.Pos()).String() + " " + id.Name }

	sc := resolveFile(plain)
	// the scopes of each function's identifiers, by resolveFunc
	ofFunc := map[*ast.Ident]*scopes{}
	for _, d := range plain.Decls {
		if fd, ok := d.(*ast.FuncDecl); ok {
			fs := resolveFunc(plain, fd)
			for _, id := range idents(fd) {
				ofFunc[id] = fs
			}
		}
	}
	objOf := map[*binding]*ast.Object{}
	bindingOf := map[*ast.Object]*binding{}
	for i, id := range ids1 {
		o, b := id.Obj, sc.lookup(ids2[i])
		if skip[id] || o != nil && o.Kind == ast.Lbl {
			continue
		}
		if fs := ofFunc[ids2[i]]; fs != nil {
			if fb := fs.lookup(ids2[i]); (fb == nil) != (b == nil) || fb != nil && (fb.top != b.top || fb.decl != b.decl) {
				t.Errorf("%s: resolveFunc %+v, resolveFile %+v", at(ids2[i]), fb, b)
			}
		}
		switch {
		case (o == nil) != (b == nil):
			t.Errorf("%s: parser %v, ours %v", at(ids2[i]), o, b)
		case o == nil:
		case top[o] != b.top:
			t.Errorf("%s: package-level: parser %v, ours %v", at(ids2[i]), top[o], b.top)
		case objOf[b] != nil && objOf[b] != o || bindingOf[o] != nil && bindingOf[o] != b:
			t.Errorf("%s: the identifiers that denote the same declaration differ", at(ids2[i]))
		default:
			objOf[b], bindingOf[o] = o, b
			if !sameDecl(o.Decl.(ast.Node), b.decl) {
				t.Errorf("%s: declared by %T at %d (parser), %T at %d (ours)", at(ids2[i]), o.Decl, o.Decl.(ast.Node).Pos(), b.decl, b.decl.Pos())
			}
		}
		if t.Failed() {
			break
		}
	}
	return compared
}

// sameDecl reports whether the parser's declaring node and ours are the
// same node of the two parses: of the same type at the same position,
// or the parser's stand-in for a range clause.
func sameDecl(parsers, ours ast.Node) bool {
	if rs, ok := ours.(*ast.RangeStmt); ok {
		as, ok := parsers.(*ast.AssignStmt)
		return ok && as.TokPos == rs.TokPos
	}
	kind := func(n ast.Node) string {
		switch n.(type) {
		case *ast.Field:
			return "field"
		case *ast.ValueSpec:
			return "value"
		case *ast.TypeSpec:
			return "type"
		case *ast.FuncDecl:
			return "func"
		case *ast.AssignStmt:
			return "assign"
		}
		return "other"
	}
	return kind(parsers) == kind(ours) && kind(ours) != "other" && parsers.Pos() == ours.Pos()
}

// idents lists the identifiers under n in source order.
func idents(n ast.Node) []*ast.Ident {
	var out []*ast.Ident
	ast.Inspect(n, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok {
			out = append(out, id)
		}
		return true
	})
	return out
}

// genericTypeGroup reports whether f has a grouped type declaration in
// which a generic type is followed by another: the parser declares the
// types after it in the generic type's parameter scope (a defer in a
// loop), so that they are neither package-level nor visible after the
// group. Ours declares each where it is written.
func genericTypeGroup(f *ast.File) bool {
	found := false
	ast.Inspect(f, func(n ast.Node) bool {
		if g, ok := n.(*ast.GenDecl); ok && g.Tok == token.TYPE {
			for _, s := range g.Specs[:max(0, len(g.Specs)-1)] {
				if ts, ok := s.(*ast.TypeSpec); ok && ts.TypeParams != nil {
					found = true
				}
			}
		}
		return !found
	})
	return found
}
