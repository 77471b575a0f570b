package md

import (
	"strings"
	"testing"
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
