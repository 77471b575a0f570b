package oracle

import (
	"reflect"
	"testing"
)

func TestRelative(t *testing.T) {
	d := func(tool, path string, line int, msg string) Diagnostic {
		return Diagnostic{Tool: tool, Path: path, Line: line, Message: msg}
	}
	printf := d("vet", "q/say.go", 6, `fmt.Printf format %d has arg "x" of wrong type string`)
	for _, tc := range []struct {
		name          string
		before, after []Diagnostic
		pass          bool
		intro, pre    int
	}{
		{"old problem on a moved line", []Diagnostic{printf}, []Diagnostic{d("vet", "q/say.go", 9, printf.Message)}, true, 0, 1},
		{"new problem beside an old one", []Diagnostic{printf}, []Diagnostic{printf, d("build", "q/q.go", 5, "undefined: p.Old")}, false, 1, 1},
		{"one old copy excuses one new copy only", []Diagnostic{printf}, []Diagnostic{printf, d("vet", "q/say.go", 7, printf.Message)}, false, 1, 1},
		{"same message in another file is new", []Diagnostic{printf}, []Diagnostic{d("vet", "q/other.go", 6, printf.Message)}, false, 1, 0},
		{"same message from another tool is new", []Diagnostic{printf}, []Diagnostic{d("build", "q/say.go", 6, printf.Message)}, false, 1, 0},
		{"positions quoted in a message are ignored",
			[]Diagnostic{d("build", "a/a.go", 3, "x redeclared in this block\n\ta/a.go:2:6: other declaration of x")},
			[]Diagnostic{d("build", "a/a.go", 4, "x redeclared in this block\n\ta/a.go:3:6: other declaration of x")}, true, 0, 1},
		{"no baseline: everything counts", nil, []Diagnostic{printf}, false, 1, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := Relative(&Result{Diagnostics: tc.before}, &Result{Diagnostics: tc.after})
			if r.Pass != tc.pass || len(r.Diagnostics) != tc.intro || len(r.Preexisting) != tc.pre {
				t.Errorf("pass %v, %d introduced, %d preexisting; want %v, %d, %d\nintroduced %v\npreexisting %v",
					r.Pass, len(r.Diagnostics), len(r.Preexisting), tc.pass, tc.intro, tc.pre, r.Diagnostics, r.Preexisting)
			}
		})
	}
	// which copy is new: the one at a line the base did not have, though
	// the old one moved
	old := Diagnostic{Tool: "tsc", Path: "a.ts", Line: 3, Message: "Object is possibly 'undefined'. (TS2532)", Source: "x.y = 1"}
	moved, added := old, old
	moved.Line = 5
	added.Line, added.Source = 2, "z.y = 2"
	intro, pre := Compare(&Result{Diagnostics: []Diagnostic{old}}, &Result{Diagnostics: []Diagnostic{added, moved}})
	if len(intro) != 1 || intro[0].Source != added.Source || len(pre) != 1 || pre[0].Line != 5 {
		t.Errorf("introduced %v, preexisting %v: want the one at %q new and the moved one old", intro, pre, added.Source)
	}
	// a line the change rewrote keeps its old diagnostic's excuse
	rewritten := old
	rewritten.Source = "x.y = 2"
	if intro, _ := Compare(&Result{Diagnostics: []Diagnostic{old}}, &Result{Diagnostics: []Diagnostic{rewritten}}); len(intro) != 0 {
		t.Errorf("a diagnostic on a rewritten line is new: %v", intro)
	}
	// what the checker lacked at the base excuses more of the same
	jsx := func(line int, src string) Diagnostic {
		return Diagnostic{Tool: "tsc", Path: "app.tsx", Line: line, Source: src, Lacks: "the JSX types",
			Message: "JSX element implicitly has type 'any' because no interface 'JSX.IntrinsicElements' exists. (TS7026)"}
	}
	r := Relative(&Result{Diagnostics: []Diagnostic{jsx(4, "<div>")}}, &Result{Diagnostics: []Diagnostic{jsx(4, "<div>"), jsx(5, "<span/>")}})
	if !r.Pass || len(r.Preexisting) != 2 {
		t.Errorf("one more JSX element without the JSX types: pass %v, introduced %v", r.Pass, r.Diagnostics)
	}
	if r := Relative(&Result{Diagnostics: []Diagnostic{printf}}, &Result{Diagnostics: []Diagnostic{printf, jsx(5, "<span/>")}}); r.Pass {
		t.Error("a lack the base did not have is excused")
	}
	// a run that failed with no diagnostic at all (a crashed tool) is
	// never excused
	if r := Relative(&Result{}, &Result{Pass: false}); r.Pass {
		t.Error("a failed run without diagnostics passes")
	}
	// a passing run is returned as it is
	ok := &Result{Pass: true, Ran: []string{"go build ./..."}}
	if r := Relative(&Result{Diagnostics: []Diagnostic{printf}}, ok); !reflect.DeepEqual(r, ok) {
		t.Errorf("a passing run changed: %+v", r)
	}
}
