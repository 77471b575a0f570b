package treesit

import (
	"fmt"
	"unsafe"

	"github.com/ripple-dev/ripple/internal/model"
)

// Grammar is one tree-sitter grammar as a front-end uses it. Declare it
// once per grammar as a package variable; it loads its tables on first
// use and keeps a pool of parsers.
type Grammar struct {
	// Name names the grammar's module in a panic on an ABI mismatch
	// ("tree-sitter-python").
	Name string
	// Root is the kind of a tree's root ("module"), given to the empty
	// root of a file tree-sitter did not parse or of a build without cgo.
	Root string
	// Label names the grammar in a syntax error's diagnostic ("does not
	// parse (Label grammar)").
	Label string
	// NoCgo is the diagnostic of every file in a build without cgo
	// (NoCgoMessage).
	NoCgo string
	// Load returns the grammar's TSLanguage: the Language function of
	// its Go binding, which is a cgo package, so a front-end sets it in a
	// file built with cgo only and leaves it nil otherwise.
	Load func() unsafe.Pointer

	rt runtime // the loaded tables and the parser pool (cgo builds)
}

// NoCgoMessage is the diagnostic of a file the binary cannot parse for
// want of cgo: files names them ("Python file"), parser the parser ("the
// Python parser").
func NoCgoMessage(files, parser string) string {
	return files + " not analysed: this ripple binary was built with CGO_ENABLED=0 and " + parser + " (tree-sitter) needs cgo; rebuild with CGO_ENABLED=1"
}

// Diagnostic reports a file with syntax errors at path: its first error
// line and the number of others; nil when it has none. In a build without
// cgo, every file has one and this is the grammar's NoCgo message.
func (t *Tree) Diagnostic(path string) *model.Diagnostic {
	if t.Errors == 0 {
		return nil
	}
	if !Available {
		return &model.Diagnostic{Path: path, Message: t.g.NoCgo, Partial: true}
	}
	msg := fmt.Sprintf("does not parse (%s grammar): syntax error", t.g.Label)
	if t.Errors > 1 {
		msg += fmt.Sprintf(" (and %d more)", t.Errors-1)
	}
	return &model.Diagnostic{Path: path, Line: t.ErrLine, Message: msg + "; declarations and references inside the error are skipped", Partial: true}
}
