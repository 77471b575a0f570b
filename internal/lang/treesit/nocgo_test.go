//go:build !cgo

package treesit

import "testing"

func TestNoCgo(t *testing.T) {
	g := &Grammar{Root: "program", NoCgo: "rebuild with cgo"}
	tr := g.Parse([]byte("x"))
	d := tr.Diagnostic("a.ts")
	if Available || tr.Errors != 1 || tr.Root.Kind != "program" || d == nil || d.Message != "rebuild with cgo" || !d.Partial || d.Line != 0 {
		t.Fatalf("%+v %+v", tr, d)
	}
}
