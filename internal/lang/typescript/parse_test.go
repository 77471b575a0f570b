//go:build cgo

package typescript

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

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

// BenchmarkParseCorpus measures parse throughput on a directory of
// TypeScript and JavaScript sources (TSROOT), on one goroutine:
// tree-sitter's parse alone (raw), and the parse plus the copy into Go
// nodes and the summary the analysis uses (full). It is how the figures
// in doc.go were obtained:
//
//	TSROOT=/path/to/sources go test -run XXX -bench ParseCorpus ./internal/lang/typescript/
func BenchmarkParseCorpus(b *testing.B) {
	root := os.Getenv("TSROOT")
	if root == "" {
		b.Skip("set TSROOT to a directory of TypeScript or JavaScript sources")
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
		b.Fatalf("no sources under %s", root)
	}
	b.Run("raw", func(b *testing.B) {
		b.SetBytes(int64(size))
		for range b.N {
			for _, f := range files {
				grammarOf(f.path).RawParse(f.src)
			}
		}
	})
	b.Run("full", func(b *testing.B) {
		b.SetBytes(int64(size))
		errs := 0
		for range b.N {
			errs = 0
			for _, f := range files {
				tr := parse(f.path, f.src)
				summarize(f.path, tr)
				if tr.Errors > 0 {
					errs++
				}
			}
		}
		b.ReportMetric(float64(errs), "files-with-errors")
	})
}
