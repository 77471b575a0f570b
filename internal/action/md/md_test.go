package md

import (
	"strings"
	"testing"

	"github.com/ripple-dev/ripple/internal/action/md/mdtest"
)

func TestText(t *testing.T) {
	for in, want := range map[string]string{
		"call to p.Sum":            "call to p.Sum",
		"@octo/team please":        "@\u200docto/team please",
		"<script>x</script>":       "&lt;script&gt;x&lt;/script&gt;",
		"[a](b) *c* _d_ | e":       `\[a\]\(b\) \*c\* \_d\_ \| e`,
		"two\nlines\r\nthree\x00!": `two lines  three \!`,
	} {
		if got := Text(in); got != want {
			t.Errorf("Text(%q) = %q, want %q", in, got, want)
		}
	}
	if got := Text(strings.Repeat("x", 400)); len([]rune(got)) != MaxInline+1 || !strings.HasSuffix(got, "…") {
		t.Errorf("long text not cut: %d runes", len([]rune(got)))
	}
}

func TestCode(t *testing.T) {
	for in, want := range map[string]string{
		"x := 1":     "`x := 1`",
		"a `b` c":    "``a `b` c``",
		"`edge`":     "`` `edge` ``",
		"  ":         "",
		"a\nb":       "`a b`",
		"x ``` y":    "````x ``` y````",
		"p | q":      "`p | q`",
		"@mention`s": "``@mention`s``",
	} {
		if got := Code(in); got != want {
			t.Errorf("Code(%q) = %q, want %q", in, got, want)
		}
	}
	if got := Cell(Code("p | q")); got != "`p \\| q`" {
		t.Errorf("Cell = %q", got)
	}
}

func TestFence(t *testing.T) {
	for in, want := range map[string]string{"x": "```", "a ``` b": "````", "`````": "``````"} {
		if got := Fence(in); got != want {
			t.Errorf("Fence(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestTruncate(t *testing.T) {
	s := "line one\nline two\nline three\n"
	if got := Truncate(s, 100, "!"); got != s {
		t.Errorf("fits: %q", got)
	}
	if got := Truncate(s, 22, "…\n"); got != "line one\nline two\n…\n" {
		t.Errorf("cut: %q", got)
	}
}

// TestTruncateMarkdown: a cut document stays within its limit and well
// formed as a CommonMark parser reads it: a code block the cut leaves
// open is closed before the tail, so that the marker a caller appends
// after it is still HTML, and <details> left open are closed. Each case
// breaks with the plain Truncate.
func TestTruncateMarkdown(t *testing.T) {
	const marker = "<!-- ripple:fp=0123 -->"
	long := strings.Repeat("x := `a` + \"```\"\n", 400)
	cases := []struct {
		name, doc string
		n         int
		fences    int // fenced code blocks left
	}{
		{"inside a suggestion", "**Ripple**\n\nSuggested change:\n\n````suggestion\n" + long + "````\n", 3000, 1},
		{"inside a tilde fence", "intro\n\n~~~go\n" + long + "~~~\n", 2000, 1},
		{"inside details and a fence", "<details><summary>The patch</summary>\n\n```diff\n" + strings.Repeat("+x\n", 5000) + "```\n\n</details>\n", 4000, 1},
		{"inside nested details", "<details><summary>a</summary>\n\n<details><summary>b</summary>\n\n" + strings.Repeat("- item\n", 2000) + "\n</details>\n\n</details>\n", 3000, 0},
		{"after a closed fence", "```\ncode\n```\n\n" + strings.Repeat("- item `x`\n", 2000), 3000, 1},
		{"a fence of eight backticks", "````````suggestion\n" + strings.Repeat("a ``````` b\n", 2000) + "````````\n", 1500, 1},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := TruncateMarkdown(c.doc, c.n, "\n…cut\n") + "\n" + marker
			if len(got) > c.n+1+len(marker) {
				t.Errorf("%d bytes, over %d", len(got)-1-len(marker), c.n)
			}
			if p := mdtest.Problems(got, marker); len(p) > 0 {
				t.Errorf("not well formed: %v\n%s", p, got[max(0, len(got)-400):])
			}
			d := mdtest.Parse(got)
			if len(d.Fences) != c.fences {
				t.Errorf("%d fenced code blocks, want %d", len(d.Fences), c.fences)
			}
			for _, f := range d.Fences {
				if strings.Contains(f.Content, "…cut") {
					t.Errorf("the tail is inside a code block")
				}
			}
		})
	}
	if s := "short\n"; TruncateMarkdown(s, 10, "!") != s {
		t.Error("a document that fits is cut")
	}
	if got := TruncateMarkdown("```\n"+long, 2, "!"); len(got) > 2 {
		t.Errorf("tiny limit: %q", got)
	}
}
