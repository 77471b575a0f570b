// Package treesittest holds the checks a front-end's tests run on its
// tree-sitter grammars.
package treesittest

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/ripple-dev/ripple/internal/lang/treesit"
)

// Parse parses one file: a front-end's choice of grammar by path.
type Parse func(path string, src []byte) *treesit.Tree

// CleanDir fails t for every file of dir that parse reads with a syntax
// error: the grammar must read the language's current syntax, one file a
// construct, the file's name choosing the grammar as the front-end does.
func CleanDir(t testing.TB, parse Parse, dir string) {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil || len(entries) == 0 {
		t.Fatalf("no sources in %s: %v", dir, err)
	}
	for _, e := range entries {
		src, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		if tr := parse(e.Name(), src); tr.Errors != 0 {
			t.Errorf("%s: %d syntax errors, first at line %d", e.Name(), tr.Errors, tr.ErrLine)
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
