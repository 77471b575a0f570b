package corpus

import (
	"context"
	"errors"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/ripple-dev/ripple/internal/gitio"
	"github.com/ripple-dev/ripple/internal/model"
)

// lossy is a tree that cannot read one of its files.
type lossy struct{ gitio.MemTree }

func (t lossy) ReadFiles(ctx context.Context, ps []string) (map[string][]byte, error) {
	out, _ := t.MemTree.ReadFiles(ctx, ps)
	if _, ok := out["b.x"]; ok {
		delete(out, "b.x")
		return out, errors.New("cannot read b.x at abc123: object corrupt")
	}
	return out, nil
}

func TestCorpus(t *testing.T) {
	tree := lossy{gitio.MemTree{
		"a.x": []byte("alpha beta"), "b.x": []byte("beta"), "c.x": []byte("gamma"),
		"skip/d.x": []byte("beta"), "e.y": []byte("beta"), "bin.x": []byte("beta\x00"),
	}}
	var parses atomic.Int32
	var diags []model.Diagnostic
	c := New(Config[string]{
		Tree: tree, Pathspecs: []string{"*.x"},
		Usable: func(p string) bool { return !strings.HasPrefix(p, "skip/") },
		Parse: func(p string, src []byte) (string, bool, *model.Diagnostic) {
			parses.Add(1)
			if strings.Contains(string(src), "\x00") {
				return "", false, nil
			}
			return p + ":" + string(src), true, nil
		},
		Diag: func(d model.Diagnostic) { diags = append(diags, d) },
	})
	ctx := context.Background()
	all, err := c.All(ctx)
	if err != nil || strings.Join(all, ",") != "a.x,b.x,bin.x,c.x" {
		t.Fatalf("All = %v, %v", all, err)
	}
	paths, err := c.Search(ctx, []string{"beta", "beta", ""})
	if err != nil || strings.Join(paths, ",") != "a.x,b.x" {
		t.Fatalf("Search = %v, %v; want the usable text files of the language with the word", paths, err)
	}
	fs, err := c.Parse(ctx, append(paths, "bin.x"))
	if err != nil || strings.Join(fs, ",") != "a.x:alpha beta" {
		t.Fatalf("Parse = %v, %v; want a.x only (b.x unreadable, bin.x rejected)", fs, err)
	}
	if len(diags) != 1 || !strings.Contains(diags[0].Message, "b.x") || !strings.Contains(diags[0].Message, "corrupt") {
		t.Errorf("diagnostics %v: want the unreadable file named with its cause", diags)
	}
	n := parses.Load()
	if fs, _ := c.Find(ctx, []string{"alpha"}); len(fs) != 1 || parses.Load() != n {
		t.Errorf("a parsed file was parsed again (%d parses, then %d)", n, parses.Load())
	}
	if f, ok := c.Get("a.x"); !ok || f != "a.x:alpha beta" || c.Count() != 1 || len(c.Files()) != 1 {
		t.Errorf("Get/Count/Files after one parsed file: %q %v %d %d", f, ok, c.Count(), len(c.Files()))
	}
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := c.Parse(cctx, []string{"c.x"}); !errors.Is(err, context.Canceled) {
		t.Errorf("Parse after cancel: %v, want context.Canceled", err)
	}
}
