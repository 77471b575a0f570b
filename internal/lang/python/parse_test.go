//go:build cgo

package python

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ripple-dev/ripple/internal/gitio"
	"github.com/ripple-dev/ripple/internal/lang/treesit"
	"github.com/ripple-dev/ripple/internal/lang/treesit/treesittest"
)

// TestParse312 checks that the grammar reads Python 3.12 syntax (a file a
// construct in testdata/grammar) without errors, and that a syntax error
// is located.
func TestParse312(t *testing.T) {
	parse := func(_ string, src []byte) *treesit.Tree { return grammar.Parse(src) }
	treesittest.CleanDir(t, parse, "testdata/grammar")
	tr := treesittest.Broken(t, parse, "x.py", "def ok():\n    pass\n\ndef broken(:\n    pass\n", 4)
	f := summarize("x.py", tr)
	if len(f.funcs) == 0 || f.funcs[0].name != "ok" {
		t.Errorf("the declarations before the error are lost: %v", f.funcs)
	}
}

// BenchmarkParseCorpus measures parse throughput on a directory of
// Python files (PYROOT): tree-sitter's parse alone (raw) and parse plus
// the copy into Go nodes that the analysis uses (copy). It is how the
// figures in doc.go were obtained:
//
//	PYROOT=/path/to/python/sources go test -run XXX -bench ParseCorpus ./internal/lang/python/
func BenchmarkParseCorpus(b *testing.B) {
	root := os.Getenv("PYROOT")
	if root == "" {
		b.Skip("set PYROOT to a directory of Python sources")
	}
	var files [][]byte
	total := 0
	filepath.Walk(root, func(p string, info os.FileInfo, err error) error {
		if err == nil && !info.IsDir() && strings.HasSuffix(p, ".py") && info.Size() < maxFileSize {
			data, _ := os.ReadFile(p)
			files = append(files, data)
			total += len(data)
		}
		return nil
	})
	if len(files) == 0 {
		b.Fatalf("no Python sources under %s", root)
	}
	b.Run("raw", func(b *testing.B) {
		b.SetBytes(int64(total))
		for range b.N {
			for _, f := range files {
				grammar.RawParse(f)
			}
		}
	})
	b.Run("copy", func(b *testing.B) {
		b.SetBytes(int64(total))
		nodes, bad := 0, 0
		for range b.N {
			nodes, bad = 0, 0
			for _, f := range files {
				tr := grammar.Parse(f)
				treesit.Walk(tr.Root, func(*treesit.Node) bool { nodes++; return true })
				if tr.Errors > 0 {
					bad++
				}
			}
		}
		b.ReportMetric(float64(nodes), "nodes")
		b.ReportMetric(float64(bad), "files-with-errors")
	})
}

// BenchmarkParse parses a mid-sized module repeatedly.
func BenchmarkParse(b *testing.B) {
	var sb strings.Builder
	for i := 0; i < 200; i++ {
		sb.WriteString("class C" + strings.Repeat("x", i%7) + ":\n    def m(self, a, b=1, *args, **kw):\n        return self.n(a, b=b) + [x for x in args if x]\n\n")
	}
	src := []byte(sb.String())
	b.SetBytes(int64(len(src)))
	for i := 0; i < b.N; i++ {
		grammar.Parse(src)
	}
}

// TestDeclsCorpus reads every file under PYROOT into declarations and
// resolves every name and attribute of it: nothing may panic, whatever
// the input (Python 2 files and files with syntax errors included).
func TestDeclsCorpus(t *testing.T) {
	root := os.Getenv("PYROOT")
	if root == "" {
		t.Skip("set PYROOT to a directory of Python sources")
	}
	var paths []string
	filepath.Walk(root, func(p string, info os.FileInfo, err error) error {
		if err == nil && !info.IsDir() && strings.HasSuffix(p, ".py") && info.Size() < maxFileSize {
			paths = append(paths, p)
		}
		return nil
	})
	tree := gitio.MemTree{}
	for _, p := range paths {
		tree[p], _ = os.ReadFile(p)
	}
	ix, err := newIndex(context.Background(), tree, nil, nil, newMemo())
	if err != nil {
		t.Fatal(err)
	}
	r := newResolver(ix)
	decls, names := 0, 0
	files, err := ix.Parse(context.Background(), paths)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		decls += len(fileDecls(f))
		treesit.Walk(f.t.Root, func(n *treesit.Node) bool {
			switch n.Kind {
			case "identifier":
				if isLoad(n) {
					r.nameSyms(f.scopeAt(n), n.Text())
					names++
				}
			case "attribute":
				r.expr(n, f.scopeAt(n))
				names++
			}
			return true
		})
	}
	t.Logf("%d files, %d declarations, %d names resolved", len(paths), decls, names)
}

func fileDecls(f *pfile) []any {
	var out []any
	for _, d := range decls(f) {
		out = append(out, d)
	}
	return out
}
