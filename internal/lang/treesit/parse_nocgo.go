//go:build !cgo

package treesit

// Available is false: tree-sitter is a C library and this binary was
// built with CGO_ENABLED=0. Every file then parses to an empty tree with
// one error, whose Diagnostic says how to rebuild; the front-ends make no
// declarations and no findings of it.
const Available = false

type runtime struct{}

// Parse returns an empty tree with one error: there is no parser.
func (g *Grammar) Parse(src []byte) *Tree {
	t := &Tree{Src: src, Errors: 1, g: g}
	t.Root = &Node{Kind: g.Root, Line: 1, EndLine: 1, Tree: t}
	return t
}

// RawParse does nothing: there is no parser.
func (g *Grammar) RawParse([]byte) {}
