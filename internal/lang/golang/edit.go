package golang

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"regexp"
	"strconv"
	"strings"
)

// CheckBlock judges a block replacement (lang.BlockEditor): the file
// parses, and the replaced lines hold exactly one top-level declaration,
// named as the block was, so that a model may not rename, add or drop
// declarations. The one exception: a type's block may be followed by
// methods of that type (a type that must gain an interface's new method;
// what Python's class blocks hold anyway).
func (fe *Frontend) CheckBlock(path string, src []byte, block string, from, to int) error {
	fset, inside, err := editedDecls(path, src, from, to)
	if err != nil {
		return err
	}
	// a type's block may be followed by new methods of the type: what a
	// type needs that must gain an interface's new method
	if tname, ok := strings.CutPrefix(block, "type "); ok && len(inside) > 1 {
		main := inside[:0:0]
		for _, d := range inside {
			n := declName(d)
			if !strings.HasPrefix(n, "func ("+tname+").") && !strings.HasPrefix(n, "func (*"+tname+").") {
				main = append(main, d)
			}
		}
		if len(main) == 1 && main[0] == inside[0] {
			inside = main
		}
	}
	if len(inside) != 1 {
		var found []string
		for _, d := range inside {
			found = append(found, fmt.Sprintf("%s at line %d", declName(d), fset.PositionFor(d.Pos(), false).Line))
		}
		return fmt.Errorf("the new block (lines %d-%d) holds %d declarations (%s), want exactly %s", from, to, len(inside), strings.Join(found, ", "), block)
	}
	if got := declName(inside[0]); got != block {
		return fmt.Errorf("the new block declares %s, not %s", got, block)
	}
	return nil
}

// editedDecls parses a file after an edit and returns the top-level
// declarations within lines [from, to]; a declaration that crosses their
// edges, or a file that no longer parses, is an error.
func editedDecls(path string, src []byte, from, to int) (*token.FileSet, []ast.Decl, error) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, path, src, parser.ParseComments|parser.SkipObjectResolution)
	if err != nil {
		msg, _, _ := strings.Cut(err.Error(), "\n")
		return nil, nil, fmt.Errorf("the file no longer parses: %s", msg)
	}
	var inside []ast.Decl
	for _, d := range f.Decls {
		s, e := fset.PositionFor(d.Pos(), false).Line, fset.PositionFor(d.End(), false).Line
		if e < from || s > to {
			continue
		}
		if s < from || e > to {
			return nil, nil, fmt.Errorf("a declaration (lines %d-%d) crosses the edges of the edited lines %d-%d", s, e, from, to)
		}
		inside = append(inside, d)
	}
	return fset, inside, nil
}

// importName is the name an import spec (`"path"` or `name "path"`)
// binds: its name, or the package's likely own name.
func importName(spec string) string {
	if name, _, ok := strings.Cut(spec, " "); ok {
		return name
	}
	p, err := strconv.Unquote(spec)
	if err != nil {
		return spec
	}
	return defaultImportName(p)
}

// SplitImports separates leading import declarations from a block
// (lang.BlockEditor). Each import is returned as its spec's source:
// `"path"` or `name "path"`.
func (fe *Frontend) SplitImports(code string) ([]string, string, error) {
	trimmed := strings.TrimLeft(code, " \t\n")
	if !strings.HasPrefix(trimmed, "import") {
		return nil, code, nil
	}
	src := "package p\n" + trimmed
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "", src, parser.ImportsOnly|parser.SkipObjectResolution)
	if err != nil || len(f.Imports) == 0 {
		return nil, code, nil // not an import declaration after all
	}
	var specs []string
	end := 0
	for _, d := range f.Decls {
		gd, ok := d.(*ast.GenDecl)
		if !ok || gd.Tok != token.IMPORT {
			break
		}
		end = fset.PositionFor(gd.End(), false).Offset
		for _, s := range gd.Specs {
			is := s.(*ast.ImportSpec)
			spec := is.Path.Value
			if is.Name != nil {
				spec = is.Name.Name + " " + spec
			}
			specs = append(specs, spec)
		}
	}
	return specs, strings.TrimLeft(src[end:], " \t\n"), nil
}

// AddImports adds the import specs src lacks (lang.BlockEditor): into
// the last parenthesised import declaration, else as a new declaration
// after the package clause. It returns the lines inserted.
func (fe *Frontend) AddImports(src []byte, imports []string) ([]byte, int, error) {
	if len(imports) == 0 {
		return src, 0, nil
	}
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "", src, parser.ImportsOnly|parser.SkipObjectResolution)
	if err != nil {
		return nil, 0, err
	}
	have := map[string]bool{}
	unnamed := map[string]bool{} // paths imported without a name
	bound := map[string]string{} // name -> the path it binds
	for _, is := range f.Imports {
		spec := is.Path.Value
		if is.Name != nil {
			spec = is.Name.Name + " " + spec
		} else {
			unnamed[spec] = true
		}
		have[spec] = true
		bound[importName(spec)] = is.Path.Value
	}
	var missing []string
	for _, spec := range imports {
		name, p, named := strings.Cut(spec, " ")
		if named && unnamed[p] && name != "_" && name != "." {
			// `v1 "…/pkg/v1"` where the file imports "…/pkg/v1": the name
			// is, most likely, the package's own, and a second import
			// would redeclare it
			continue
		}
		if have[spec] {
			continue
		}
		if !named {
			p = spec
		}
		if n := importName(spec); n != "_" && n != "." && bound[n] != "" && bound[n] != p {
			return nil, 0, fmt.Errorf("import %s would bind %s, which the file's import %s binds", spec, n, bound[n])
		}
		have[spec] = true
		bound[importName(spec)] = p
		missing = append(missing, spec)
	}
	if len(missing) == 0 {
		return src, 0, nil
	}
	var at int
	var text string
	var group *ast.GenDecl
	for _, d := range f.Decls {
		if gd, ok := d.(*ast.GenDecl); ok && gd.Tok == token.IMPORT && gd.Rparen.IsValid() {
			group = gd
		}
	}
	if group != nil {
		at = fset.PositionFor(group.Rparen, false).Offset
		text = "\t" + strings.Join(missing, "\n\t") + "\n"
	} else {
		at = fset.PositionFor(f.Name.End(), false).Offset
		text = "\n\nimport (\n\t" + strings.Join(missing, "\n\t") + "\n)"
	}
	out := append(append(append([]byte{}, src[:at]...), text...), src[at:]...)
	return out, strings.Count(text, "\n"), nil
}

// PruneImports removes the import specs of paths (lang.ImportPruner): a
// spec alone on its line of an import group loses that line, a
// single-spec import declaration loses the declaration. Anything else (a
// spec sharing its line) is left as it is.
func (fe *Frontend) PruneImports(src []byte, paths []string) ([]byte, error) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "", src, parser.ImportsOnly|parser.ParseComments|parser.SkipObjectResolution)
	if err != nil {
		return nil, err
	}
	drop := map[string]bool{}
	for _, p := range paths {
		drop[p] = true
	}
	type cut struct{ from, to int }
	var cuts []cut
	lineStart := func(off int) int {
		for off > 0 && src[off-1] != '\n' {
			off--
		}
		return off
	}
	lineEnd := func(off int) int {
		for off < len(src) && src[off] != '\n' {
			off++
		}
		if off < len(src) {
			off++
		}
		return off
	}
	alone := func(from, to int) bool { // nothing but blanks around [from, to) on its lines
		return strings.TrimSpace(string(src[lineStart(from):from])) == "" &&
			strings.TrimSpace(strings.SplitN(string(src[to:lineEnd(to)]), "//", 2)[0]) == ""
	}
	for _, d := range f.Decls {
		gd, ok := d.(*ast.GenDecl)
		if !ok || gd.Tok != token.IMPORT {
			continue
		}
		for _, sp := range gd.Specs {
			is := sp.(*ast.ImportSpec)
			p, err := strconv.Unquote(is.Path.Value)
			if err != nil || !drop[p] {
				continue
			}
			from, to := fset.PositionFor(is.Pos(), false).Offset, fset.PositionFor(is.End(), false).Offset
			if !gd.Lparen.IsValid() {
				from, to = fset.PositionFor(gd.Pos(), false).Offset, fset.PositionFor(gd.End(), false).Offset
			}
			if !alone(from, to) {
				continue
			}
			cuts = append(cuts, cut{lineStart(from), lineEnd(to)})
		}
	}
	out := append([]byte(nil), src...)
	for i := len(cuts) - 1; i >= 0; i-- {
		out = append(out[:cuts[i].from], out[cuts[i].to:]...)
	}
	return out, nil
}

// IsComment reports a line comment (lang.BlockEditor).
func (fe *Frontend) IsComment(line string) bool {
	return strings.HasPrefix(strings.TrimSpace(line), "//")
}

// directiveRE are comment lines that instruct tools (//go:noinline,
// //nolint, // +build, //export, //line).
var directiveRE = regexp.MustCompile(`^//(go:|nolint|export |line |\s*\+build)`)

// IsDirective reports a comment that instructs a tool (lang.BlockEditor).
func (fe *Frontend) IsDirective(line string) bool {
	return directiveRE.MatchString(strings.TrimSpace(line))
}

// unusedImportRE is the compiler's error for an import nothing uses.
var unusedImportRE = regexp.MustCompile(`^"([^"]+)" imported (?:as \w+ )?and not used$`)

// UnusedImport reads the compiler's unused-import error
// (lang.ImportPruner).
func (fe *Frontend) UnusedImport(msg string) (string, bool) {
	if m := unusedImportRE.FindStringSubmatch(strings.TrimSpace(msg)); m != nil {
		return m[1], true
	}
	return "", false
}
