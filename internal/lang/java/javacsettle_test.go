package java

import (
	"strings"
	"testing"
	"time"

	"github.com/ripple-dev/ripple/internal/lang"
	"github.com/ripple-dev/ripple/internal/lang/java/javac"
	"github.com/ripple-dev/ripple/internal/lang/treesit"
	"github.com/ripple-dev/ripple/internal/model"
	"github.com/ripple-dev/ripple/internal/oracle"
)

const settleSrc = `package kv;

class Use {
    void run(java.util.List<Store> ss, Store d) {
        ss.forEach(s -> s.put("a", "b"));
        int n = 1;
        if (d.ok("x")) { d.put("c", "d"); }
    }
}
`

// siteAt parses settleSrc and returns a site at the nth occurrence
// (0-based) of the identifier name, for a change of Store.put.
func siteAt(t *testing.T, name string, nth int) *jsite {
	t.Helper()
	needParser(t)
	f := summarize("src/main/java/kv/Use.java", grammar.Parse([]byte(settleSrc)))
	var hit *treesit.Node
	k := 0
	treesit.Walk(f.t.Root, func(n *treesit.Node) bool {
		if hit == nil && n.Kind == "identifier" && n.Text() == name {
			if k == nth {
				hit = n
			}
			k++
		}
		return hit == nil
	})
	if hit == nil {
		t.Fatalf("no %s #%d", name, nth)
	}
	ch := &model.Change{Label: model.MMS, Old: &model.Block{Name: "put"}, New: &model.Block{Name: "put"}}
	r := &lang.Ref{Change: ch, Relation: model.CalledBy, Site: model.Site{Path: f.path, Line: int(hit.Line)},
		Verdict: model.MayBeImpacted, Precision: model.PrecisionName, Message: "calls Store.put", Missing: "the type of s is inferred"}
	return &jsite{ref: r, t: &target{ch: ch, name: "put"}, f: f, n: hit}
}

func diag(line, col int, msg string) oracle.Diagnostic {
	return oracle.Diagnostic{Path: "src/main/java/kv/Use.java", Line: line, Col: col, Message: msg, Tool: javac.Tool}
}

// TestSettleNeedsJavacsErrorAtTheSite: javac's error in the site's
// statement that names the change makes the site an error; an error on
// another line, or one in the statement about something else, leaves
// the warning standing and says so; a file compiled whole makes it
// consistent; a file that lacked a package keeps the warning and names
// what javac lacked.
func TestSettleNeedsJavacsErrorAtTheSite(t *testing.T) {
	cases := []struct {
		name    string
		v       *javac.FileVerdict
		verdict model.Verdict
		prec    model.Precision
		text    string // in Message (error, consistent) or Missing
	}{
		{"error at the call", &javac.FileVerdict{Compiled: true, Errors: []oracle.Diagnostic{diag(5, 26, "method put in class Store cannot be applied to given types")}},
			model.Inconsistent, model.PrecisionTypes, "javac: method put in class Store cannot be applied"},
		{"error on another line", &javac.FileVerdict{Compiled: true, Errors: []oracle.Diagnostic{diag(6, 17, "method put in class Store cannot be applied to given types")}},
			model.MayBeImpacted, model.PrecisionName, "without errors of other causes"},
		{"unrelated error in the statement", &javac.FileVerdict{Compiled: true, Errors: []oracle.Diagnostic{diag(5, 9, "cannot find symbol; symbol: variable ss2")}},
			model.MayBeImpacted, model.PrecisionName, "without errors of other causes"},
		{"compiled whole", &javac.FileVerdict{Compiled: true},
			model.Consistent, model.PrecisionTypes, "javac compiles this file without error"},
		{"lacked a jar", &javac.FileVerdict{Compiled: true, Unresolved: []string{"package org.absent"}},
			model.MayBeImpacted, model.PrecisionName, "javac did not have package org.absent (no jar of g:a:1)"},
		{"not compiled", &javac.FileVerdict{Errors: nil},
			model.MayBeImpacted, model.PrecisionName, "no source root"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := siteAt(t, "put", 0)
			res := &javac.Sites{Files: map[string]*javac.FileVerdict{s.ref.Site.Path: c.v}, Missing: []javac.Missing{{Coord: "g:a:1"}}}
			(&analyzer{}).settle(s, res)
			r := s.ref
			if r.Verdict != c.verdict || r.Precision != c.prec {
				t.Fatalf("verdict %v %v, want %v %v (%q, missing %q)", r.Verdict, r.Precision, c.verdict, c.prec, r.Message, r.Missing)
			}
			if !strings.Contains(r.Message, c.text) && !strings.Contains(r.Missing, c.text) {
				t.Errorf("message %q, missing %q: want %q", r.Message, r.Missing, c.text)
			}
		})
	}
}

// TestSettleOverrideSilence: javac's silence proves no override.
func TestSettleOverrideSilence(t *testing.T) {
	s := siteAt(t, "put", 0)
	s.ref.Relation = model.OverriddenBy
	(&analyzer{}).settle(s, &javac.Sites{Files: map[string]*javac.FileVerdict{s.ref.Site.Path: {Compiled: true}}})
	if s.ref.Verdict != model.MayBeImpacted || !strings.Contains(s.ref.Missing, "overload") {
		t.Fatalf("an override judged %v by javac's silence (%q)", s.ref.Verdict, s.ref.Missing)
	}
}

// TestReach: a call inside a lambda is reached by its statement; one in
// a block of an if is reached by its own statement, not the if's
// condition; a reference in the condition by the header only.
func TestReach(t *testing.T) {
	s := siteAt(t, "put", 0)
	lo, hi := reach(s.n)
	if got := settleSrc[lo:hi]; got != `ss.forEach(s -> s.put("a", "b"));` {
		t.Errorf("reach of the lambda's call = %q", got)
	}
	s = siteAt(t, "put", 1)
	lo, hi = reach(s.n)
	if got := settleSrc[lo:hi]; got != `d.put("c", "d");` {
		t.Errorf("reach of the call in the if's block = %q", got)
	}
	s = siteAt(t, "ok", 0)
	lo, hi = reach(s.n)
	if got := settleSrc[lo:hi]; got != `if (d.ok("x")) ` {
		t.Errorf("reach of the if's condition = %q", got)
	}
}

// TestOffsetOfBadInput: positions outside the file are -1, never a
// panic; a column past the line's end stops at it.
func TestOffsetOfBadInput(t *testing.T) {
	src := []byte("ab\ncdé\n")
	for _, c := range []struct{ line, col, want int }{{0, 1, -1}, {-3, 0, -1}, {9, 1, -1}, {1, 1, 0}, {2, 3, 5}, {2, 4, 7}, {2, 99, 7}, {3, 1, 8}} {
		if got := offsetOf(src, c.line, c.col); got != c.want {
			t.Errorf("offsetOf(%d, %d) = %d, want %d", c.line, c.col, got, c.want)
		}
	}
	if got := offsetOf(nil, 1, 5); got != 0 {
		t.Errorf("offsetOf(nil) = %d", got)
	}
}

func TestJavacCostGrowsWithFiles(t *testing.T) {
	if javacCost(0) != javacStart || javacCost(10) <= javacCost(1) || javacCost(25) != javacStart+time.Second {
		t.Errorf("javacCost: %v %v %v", javacCost(0), javacCost(1), javacCost(25))
	}
}

func TestAlignParams(t *testing.T) {
	p := func(typ, name string) param { return param{typ: typ, name: name} }
	old := []param{p("String", "k"), p("String", "v")}
	if got, ok := alignParams(old, []param{p("String", "k"), p("String", "v"), p("long", "ttl")}); !ok || len(got) != 3 || got[0] != 0 || got[1] != 1 || got[2] != -1 {
		t.Errorf("added: %v %v", got, ok)
	}
	if got, ok := alignParams(old, []param{p("String", "v")}); !ok || len(got) != 1 || got[0] != 1 {
		t.Errorf("removed: %v %v", got, ok)
	}
	for name, np := range map[string][]param{
		"retyped": {p("Object", "k"), p("String", "v")},
		"swapped": {p("String", "v"), p("String", "k")},
		"varargs": {p("String", "k"), {typ: "String...", name: "v", varargs: true}},
	} {
		if got, ok := alignParams(old, np); ok {
			t.Errorf("%s: aligned %v", name, got)
		}
	}
}
