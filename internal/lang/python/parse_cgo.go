//go:build cgo

package python

import tspython "github.com/tree-sitter/tree-sitter-python/bindings/go"

// loadGrammar is tree-sitter-python's language, a cgo package.
var loadGrammar = tspython.Language
