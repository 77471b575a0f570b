//go:build cgo

package typescript

import tsts "github.com/tree-sitter/tree-sitter-typescript/bindings/go"

// The two grammars of tree-sitter-typescript, a cgo package.
var (
	loadTS  = tsts.LanguageTypescript
	loadTSX = tsts.LanguageTSX
)
