//go:build cgo

package typescript

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ripple-dev/ripple/internal/lang/treesit/treesittest"
)

// TestParseModern checks that the grammars read current TypeScript and
// JSX (a file a construct in testdata/grammar) without errors, and that a
// syntax error is located.
func TestParseModern(t *testing.T) {
	treesittest.CleanDir(t, parse, "testdata/grammar")
	tr := treesittest.Broken(t, parse, "x.ts", "export function ok() {}\n\nexport function broken( {\n}\n", 3)
	f := summarize("x.ts", tr)
	if len(f.decls) == 0 || declName(f.decls[0].node) != "ok" {
		t.Errorf("the declarations before the error are lost")
	}
	// a JSX file read with the TypeScript grammar would not parse: the
	// extension picks the grammar
	if tr := parse("v.ts", []byte("const v = <div>{a}</div>;\n")); tr.Errors == 0 {
		t.Errorf("JSX parsed with the TypeScript grammar: the test no longer shows the grammar split")
	}
}

// TestParseMeasure measures parse throughput on a directory of
// TypeScript and JavaScript sources (TSROOT), in wall time on one
// goroutine, best of three rounds: tree-sitter's parse alone, and the
// parse plus the copy into Go nodes and the summary the analysis uses.
// It is how the figures in doc.go were obtained:
//
//	TSROOT=/path/to/sources go test -run TestParseMeasure -v ./internal/lang/typescript/
func TestParseMeasure(t *testing.T) {
	root := os.Getenv("TSROOT")
	if root == "" {
		t.Skip("set TSROOT to a directory of TypeScript or JavaScript sources")
	}
	type file struct {
		path string
		src  []byte
	}
	var files []file
	size := 0
	filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return nil
		}
		rel, _ := filepath.Rel(root, p)
		rel = filepath.ToSlash(rel)
		if skippedPath(rel) || strings.Contains(rel, "node_modules/") {
			return nil
		}
		src, err := os.ReadFile(p)
		if err != nil || skippedContent(src) != "" {
			return nil
		}
		files = append(files, file{rel, src})
		size += len(src)
		return nil
	})
	if len(files) == 0 {
		t.Fatalf("no sources under %s", root)
	}
	best := func(f func()) time.Duration {
		var b time.Duration
		for i := 0; i < 3; i++ {
			start := time.Now()
			f()
			if d := time.Since(start); b == 0 || d < b {
				b = d
			}
		}
		return b
	}
	raw := best(func() {
		for _, f := range files {
			grammarOf(f.path).RawParse(f.src)
		}
	})
	errs := 0
	full := best(func() {
		errs = 0
		for _, f := range files {
			tr := parse(f.path, f.src)
			summarize(f.path, tr)
			if tr.Errors > 0 {
				errs++
			}
		}
	})
	mb := float64(size) / 1e6
	t.Logf("%d files, %.1f MB, %d with syntax errors: parse %.2f MB/s, parse+copy+summary %.2f MB/s", len(files), mb, errs, mb/raw.Seconds(), mb/full.Seconds())
}
