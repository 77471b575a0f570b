//go:build cgo

package java

import tsjava "github.com/tree-sitter/tree-sitter-java/bindings/go"

// loadGrammar is tree-sitter-java's language, a cgo package.
var loadGrammar = tsjava.Language
