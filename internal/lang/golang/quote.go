package golang

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"slices"
	"strconv"
	"strings"

	"github.com/ripple-dev/ripple/internal/lang"
	"github.com/ripple-dev/ripple/internal/model"
)

// Quote writes declarations of a file as a reply of the fix engine's
// model gives them (lang.Quoter): each declaration's lines, a spec of a
// grouped declaration (`var ( a = 1; b = 2 )`) with the group's keyword
// so that it stands alone, in order; opened by an import declaration of
// the file's imports that they name (`name.X`), which SplitImports reads.
// An import declaration among ds is one of those imports.
func (fe *Frontend) Quote(path string, src []byte, ds []*lang.Decl) (string, error) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, path, src, parser.SkipObjectResolution)
	if err != nil {
		return "", err
	}
	lines := strings.SplitAfter(string(src), "\n")
	var body strings.Builder
	var specs []string
	var decls []*lang.Decl // the declarations quoted as they are
	for _, d := range ds {
		if d.Span.StartLine < 1 || d.Span.EndLine > len(lines) || d.Span.StartLine > d.Span.EndLine {
			return "", fmt.Errorf("%s: lines %d-%d are not in %s", d.Display, d.Span.StartLine, d.Span.EndLine, path)
		}
		if d.Kind == model.KindImport {
			spec := strconv.Quote(d.Name)
			if name := strings.TrimPrefix(d.Sig, "name "); name != "" {
				spec = name + " " + spec
			}
			specs = append(specs, spec)
			continue
		}
		if len(decls) > 0 {
			body.WriteString("\n")
		}
		decls = append(decls, d)
		text := strings.Join(lines[d.Span.StartLine-1:d.Span.EndLine], "")
		if gd := groupOf(fset, f, d.Span.StartLine, d.Span.EndLine); gd != nil {
			// a spec of a group: its own lines, with the keyword
			text = gd.Tok.String() + " " + strings.TrimLeft(text, " \t")
		}
		body.WriteString(text)
		if !strings.HasSuffix(text, "\n") {
			body.WriteString("\n")
		}
	}
	text := body.String()
	// the qualifiers of name.X within the declarations' lines
	used := map[string]bool{}
	ast.Inspect(f, func(n ast.Node) bool {
		if n == nil {
			return false
		}
		if _, ok := n.(*ast.ImportSpec); ok {
			return false
		}
		if sel, ok := n.(*ast.SelectorExpr); ok {
			if id, ok := sel.X.(*ast.Ident); ok && inSpans(decls, fset.PositionFor(id.Pos(), false).Line) {
				used[id.Name] = true
			}
		}
		return true
	})
	for _, is := range f.Imports {
		spec := is.Path.Value
		if is.Name != nil {
			spec = is.Name.Name + " " + spec
		}
		if used[importName(spec)] && !slices.Contains(specs, spec) {
			specs = append(specs, spec)
		}
	}
	if len(specs) == 0 {
		return text, nil
	}
	return "import (\n\t" + strings.Join(specs, "\n\t") + "\n)\n\n" + text, nil
}

// groupOf is the parenthesised declaration (var, const, type) that holds
// lines [from, to] without being them: they are one of its specs.
func groupOf(fset *token.FileSet, f *ast.File, from, to int) *ast.GenDecl {
	for _, d := range f.Decls {
		gd, ok := d.(*ast.GenDecl)
		if !ok || gd.Tok == token.IMPORT || !gd.Lparen.IsValid() {
			continue
		}
		s, e := fset.PositionFor(gd.Pos(), false).Line, fset.PositionFor(gd.End(), false).Line
		if s <= from && to <= e && (s != from || e != to) {
			return gd
		}
	}
	return nil
}

func inSpans(ds []*lang.Decl, line int) bool {
	for _, d := range ds {
		if d.Span.Contains(line) {
			return true
		}
	}
	return false
}
