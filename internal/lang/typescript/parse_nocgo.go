//go:build !cgo

package typescript

import "unsafe"

// The grammars are C, and this binary was built with CGO_ENABLED=0
// (treesit.Available is false). Every TypeScript or JavaScript file then
// yields one diagnostic and no declarations; other languages are
// unaffected.
var loadTS, loadTSX func() unsafe.Pointer
