package javac

import (
	"strings"
	"testing"
)

// A javac stopped at the deadline is read up to its last whole
// diagnostic: the one it was printing may lack its symbol and location
// lines, which decide what the error concerns.
func TestCompleteDiagnostics(t *testing.T) {
	out := "src/A.java:3: error: incompatible types: possible lossy conversion from long to int\n" +
		"        add(r, n);\n" +
		"               ^\n" +
		"src/B.java:9: error: cannot find symbol\n" +
		"        x.gone();\n" +
		"         ^\n" +
		"  symbol:   method gone()\n" +
		"src/C.java:4: error: cannot find symbol\n" +
		"        y.go"
	got := string(completeDiagnostics([]byte(out)))
	if !strings.Contains(got, "src/B.java:9") || strings.Contains(got, "src/C.java") {
		t.Errorf("kept %q", got)
	}
	if ds := Parse([]byte(got), "/r"); len(ds) != 2 {
		t.Errorf("%d diagnostics from the whole part, want 2: %v", len(ds), ds)
	}
	if b := completeDiagnostics([]byte("src/A.java:3: error: cannot find symbol\n  x\n")); len(b) != 0 {
		t.Errorf("one diagnostic, possibly cut off, kept: %q", b)
	}
	if b := completeDiagnostics(nil); len(b) != 0 {
		t.Errorf("nothing printed: %q", b)
	}
}

// A file of a module javac was stopped in is never consistent: its
// silence was not javac's verdict.
func TestStoppedNotConsistent(t *testing.T) {
	if (&FileVerdict{Compiled: true, Stopped: true}).Consistent() {
		t.Error("a stopped file is consistent")
	}
	if !(&FileVerdict{Compiled: true}).Consistent() {
		t.Error("a compiled file without errors is not consistent")
	}
}
