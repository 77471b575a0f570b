package golang

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"strings"
)

// CheckBlock judges a block replacement (lang.BlockEditor): the file
// parses, and the replaced lines hold exactly one top-level declaration,
// named as the block was, so that a model may not rename, add or drop
// declarations.
func (fe *Frontend) CheckBlock(path string, src []byte, block string, from, to int) error {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, path, src, parser.ParseComments|parser.SkipObjectResolution)
	if err != nil {
		msg := err.Error()
		if i := strings.IndexByte(msg, '\n'); i >= 0 {
			msg = msg[:i]
		}
		return fmt.Errorf("the file no longer parses: %s", msg)
	}
	var inside []ast.Decl
	for _, d := range f.Decls {
		s, e := fset.PositionFor(d.Pos(), false).Line, fset.PositionFor(d.End(), false).Line
		if e < from || s > to {
			continue
		}
		if s < from || e > to {
			return fmt.Errorf("a declaration (lines %d-%d) crosses the edges of the block (lines %d-%d)", s, e, from, to)
		}
		inside = append(inside, d)
	}
	if len(inside) != 1 {
		return fmt.Errorf("the new block holds %d declarations, want exactly %s", len(inside), block)
	}
	if got := declName(inside[0]); got != block {
		return fmt.Errorf("the new block declares %s, not %s", got, block)
	}
	return nil
}
