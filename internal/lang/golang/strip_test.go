package golang

import (
	"go/parser"
	"go/token"
	"strings"
	"testing"
)

func TestStripBodies(t *testing.T) {
	src := "package p\n\n" +
		"func A(x int) int {\n\ty := `raw\n}` + \"}\"\n\treturn x + len(y)\n}\n\n" +
		"func B() interface{ M() } { return nil }\n\n" +
		"func C() struct{ x int } { return struct{ x int }{} }\n\n" +
		"func (t *T[K]) D(f func() int) { _ = func() { _ = f() } }\n\n" +
		"func E(x int)\n\n" +
		"var V = func() int { return 1 }\n\n" +
		"type T[K comparable] struct{ k K }\n"
	got := stripBodies([]byte(src))
	if len(got) != len(src) || strings.Count(string(got), "\n") != strings.Count(src, "\n") {
		t.Fatalf("length or lines changed:\n%s", got)
	}
	f, err := parser.ParseFile(token.NewFileSet(), "p.go", got, 0)
	if err != nil {
		t.Fatalf("stripped source does not parse: %v\n%s", err, got)
	}
	if len(f.Decls) != 7 {
		t.Errorf("got %d declarations, want 7", len(f.Decls))
	}
	for _, gone := range []string{"return x", "`raw", "return nil", "_ = f()", "return 1"} {
		if strings.Contains(string(got), gone) {
			t.Errorf("body text %q survived:\n%s", gone, got)
		}
	}
	for _, kept := range []string{"interface{ M() }", "struct{ x int }", "var V = func() int {", "func E(x int)"} {
		if !strings.Contains(string(got), kept) {
			t.Errorf("declaration text %q lost:\n%s", kept, got)
		}
	}
}

func TestContainsWord(t *testing.T) {
	for _, c := range []struct {
		b, w string
		want bool
	}{
		{"x := p.fs", "fs", true},
		{"refs := 1", "fs", false},
		{"fsx", "fs", false},
		{"a.fs.Open()", "fs", true},
		{"refs, fs", "fs", true},
		{"émfs", "fs", false},
		{"Parser{}", "Parser", true},
		{"NewParser()", "Parser", false},
		{"", "fs", false},
	} {
		if got := containsWord([]byte(c.b), c.w); got != c.want {
			t.Errorf("containsWord(%q, %q) = %v, want %v", c.b, c.w, got, c.want)
		}
	}
}
