//go:build !cgo

package java

import "unsafe"

// loadGrammar is nil: the grammar is C, and this binary was built with
// CGO_ENABLED=0 (treesit.Available is false). Every Java file then
// yields one diagnostic and no declarations; other languages are
// unaffected.
var loadGrammar func() unsafe.Pointer
