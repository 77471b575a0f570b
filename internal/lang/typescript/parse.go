package typescript

import "github.com/ripple-dev/ripple/internal/lang/treesit"

// The two grammars of tree-sitter-typescript: the TypeScript one (which
// reads plain JavaScript too) and TSX (TypeScript with JSX, for .tsx and
// .jsx).
var (
	noCgo      = treesit.NoCgoMessage("TypeScript/JavaScript file", "the parser")
	grammarTS  = &treesit.Grammar{Name: "tree-sitter-typescript", Root: "program", Label: "TypeScript", NoCgo: noCgo, Load: loadTS}
	grammarTSX = &treesit.Grammar{Name: "tree-sitter-typescript", Root: "program", Label: "TSX", NoCgo: noCgo, Load: loadTSX}
)

// grammarOf is the grammar a file's extension calls for.
func grammarOf(p string) *treesit.Grammar {
	if jsx(p) {
		return grammarTSX
	}
	return grammarTS
}

// parse parses one file with the grammar its extension calls for. It
// never fails: tree-sitter recovers from syntax errors with ERROR and
// MISSING nodes, which are counted. Variance annotations are blanked
// first (variance.go); offsets are unchanged, so the tree keeps the
// file's own source.
func parse(p string, src []byte) *treesit.Tree {
	t := grammarOf(p).Parse(blankVariance(src))
	t.Src = src
	return t
}
