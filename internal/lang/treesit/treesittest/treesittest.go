// Package treesittest holds the checks a front-end's tests run on its
// tree-sitter grammars.
package treesittest

import (
	"testing"

	"github.com/ripple-dev/ripple/internal/lang/treesit"
)

// Parse parses one file: a front-end's choice of grammar by path.
type Parse func(path string, src []byte) *treesit.Tree

// Clean fails t for every source (by file name) that parse reads with a
// syntax error: the grammar must read the language's current syntax.
func Clean(t testing.TB, parse Parse, srcs map[string]string) {
	t.Helper()
	for name, src := range srcs {
		if tr := parse(name, []byte(src)); tr.Errors != 0 {
			t.Errorf("%s: %d syntax errors, first at line %d", name, tr.Errors, tr.ErrLine)
		}
	}
}

// Broken parses src, whose first syntax error is at line, checks that
// the tree and its diagnostic locate it, and returns the tree.
func Broken(t testing.TB, parse Parse, path, src string, line int) *treesit.Tree {
	t.Helper()
	tr := parse(path, []byte(src))
	if tr.Errors == 0 || tr.ErrLine != line {
		t.Errorf("broken file: %d errors at line %d, want an error at line %d", tr.Errors, tr.ErrLine, line)
	}
	if d := tr.Diagnostic(path); d == nil || d.Line != line || !d.Partial {
		t.Errorf("broken file: diagnostic %v", d)
	}
	return tr
}
