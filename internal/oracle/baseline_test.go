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
