package diffclassify_test

import (
	"bytes"
	"context"
	"go/format"
	"testing"

	"github.com/ripple-dev/ripple/internal/diffclassify"
	"github.com/ripple-dev/ripple/internal/gitio"
	"github.com/ripple-dev/ripple/internal/lang"
	"github.com/ripple-dev/ripple/internal/lang/golang"
	"github.com/ripple-dev/ripple/internal/model"
)

// hunk is the single hunk between two texts: the lines between their
// common prefix and common suffix.
func hunk(old, new []byte) []gitio.Hunk {
	o, n := bytes.SplitAfter(old, []byte("\n")), bytes.SplitAfter(new, []byte("\n"))
	pre := 0
	for pre < len(o) && pre < len(n) && bytes.Equal(o[pre], n[pre]) {
		pre++
	}
	suf := 0
	for suf < len(o)-pre && suf < len(n)-pre && bytes.Equal(o[len(o)-1-suf], n[len(n)-1-suf]) {
		suf++
	}
	ol, nl := len(o)-pre-suf, len(n)-pre-suf
	if ol == 0 && nl == 0 {
		return nil
	}
	h := gitio.Hunk{OldStart: pre + 1, OldLines: ol, NewStart: pre + 1, NewLines: nl}
	// git numbers a pure insertion or deletion after the line before it
	if ol == 0 {
		h.OldStart = pre
	}
	if nl == 0 {
		h.NewStart = pre
	}
	return []gitio.Hunk{h}
}

func classify(t *testing.T, old, new []byte) *diffclassify.Output {
	t.Helper()
	const path = "p/f.go"
	fc := &gitio.FileChange{Status: gitio.Modified, OldPath: path, NewPath: path, Hunks: hunk(old, new)}
	out, err := diffclassify.Classify(context.Background(), diffclassify.Input{
		Files: []*gitio.FileChange{fc},
		Base:  gitio.MemTree{path: old}, Head: gitio.MemTree{path: new},
		Frontends: lang.Set{golang.New()},
	})
	if err != nil {
		t.Fatalf("Classify: %v", err)
	}
	return out
}

// FuzzClassify: two states of one Go file, classified without git.
// Classify never fails or panics; every change is well formed (a known
// label, the blocks its label implies, a summary); and a file compared
// with itself has no change.
func FuzzClassify(f *testing.F) {
	for _, p := range [][2]string{
		{"package p\n\nfunc F(a int) int { return a }\n", "package p\n\nfunc F(a, b int) int { return a + b }\n"},
		{"package p\n\ntype T struct {\n\tA int\n\tB string `json:\"b\"`\n}\n", "package p\n\ntype T struct {\n\tA int64\n\tC string `json:\"c\"`\n}\n"},
		{"package p\n\nfunc Old() {}\n\nfunc Keep() {}\n", "package p\n\nfunc New() {}\n\nfunc Keep() {}\n"},
		{"package p\n\ntype I interface{ M() }\n", "package p\n\ntype I interface {\n\tM()\n\tN(int) error\n}\n"},
		{"package p\n\nimport \"fmt\"\n\nvar V = fmt.Sprint(1)\n", "package p\n\nvar V = 2\n"},
		{"package p\n\nfunc F() {}\n", "package p\n\nfunc F( {\n"},
		{"package p\n\nfunc (t *T) M() { t.n = 1 }\n", "package p\n\nfunc (t *T) M() {\n\tt.n = 2\n\treturn\n}\n"},
		{"", "package p\n"},
		{"\x00binary", "package p\n"},
		{"package p\nfunc F( a int ) int { x := a; return x }\ntype T struct{A int;B string}\n", "package p\n"},
	} {
		f.Add([]byte(p[0]), []byte(p[1]))
	}
	f.Fuzz(func(t *testing.T, old, new []byte) {
		for _, out := range []*diffclassify.Output{classify(t, old, new), classify(t, old, old)} {
			for _, c := range out.Changes {
				checkChange(t, c)
				if c.Block().Lang != "go" {
					t.Errorf("%s: the block's language is %q, not the front-end's", c.Summary(), c.Block().Lang)
				}
			}
		}
		if out := classify(t, old, old); len(out.Changes) != 0 {
			t.Errorf("a file compared with itself has %d changes, first: %s %s", len(out.Changes), out.Changes[0].Label, out.Changes[0].Summary())
		}
		// a gofmt-only diff changes nothing a dependent can see
		if formatted, err := format.Source(old); err == nil && !bytes.Equal(formatted, old) {
			if out := classify(t, old, formatted); len(out.Changes) != 0 {
				t.Errorf("gofmt alone makes %d changes, first: %s %s\nbefore:\n%s\nafter:\n%s", len(out.Changes), out.Changes[0].Label, out.Changes[0].Summary(), old, formatted)
			}
		}
	})
}

func checkChange(t *testing.T, c *model.Change) {
	t.Helper()
	known := false
	for _, l := range model.Labels {
		known = known || l == c.Label
	}
	if !known {
		t.Errorf("unknown label %q", c.Label)
	}
	switch c.Label[0] {
	case 'A':
		if c.Old != nil || c.New == nil {
			t.Errorf("%s %s: an addition needs New and no Old", c.Label, c.Summary())
		}
	case 'D':
		if c.Old == nil {
			t.Errorf("%s %s: a deletion needs Old", c.Label, c.Summary())
		}
	case 'M':
		if c.Old == nil || c.New == nil {
			t.Errorf("%s: a modification needs Old and New", c.Label)
		}
	}
	if c.Block() == nil || c.Summary() == "" {
		t.Errorf("%s: no block or summary", c.Label)
	}
	if c.Label == model.MMB && c.Old != nil && c.New != nil && c.Old.Key() != c.New.Key() {
		t.Errorf("%s: body change between different declarations %s and %s", c.Summary(), c.Old.Key(), c.New.Key())
	}
}
