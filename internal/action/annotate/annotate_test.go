package annotate

import (
	"fmt"
	"strings"
	"testing"

	"github.com/ripple-dev/ripple/internal/action/findings"
)

func rep(levels map[string]int) *findings.Report {
	r := &findings.Report{Changes: []findings.Change{{Display: "func A", Summary: "func A: signature changed", Path: "a.go", Line: 3}}}
	zero := 0
	for _, l := range []string{"error", "warning", "note"} {
		for i := range levels[l] {
			r.Findings = append(r.Findings, findings.Finding{Change: &zero, Level: l, Verdict: "v", Path: "b.go", Line: i + 1, Message: "m" + fmt.Sprint(i),
				Trail: []findings.Step{{Display: "func A"}, {Relation: "CalledBy", Display: "func B"}}})
		}
	}
	return r
}

func count(as []Annotation) map[string]int {
	m := map[string]int{}
	for _, a := range as {
		m[a.Level]++
	}
	return m
}

func TestPlan(t *testing.T) {
	res := Plan(rep(map[string]int{"error": 25, "warning": 10, "note": 3}), GitHub)
	if c := count(res.Annotations); c["error"] != 10 || c["warning"] != 10 || c["notice"] != 3 {
		t.Fatalf("annotations per level %v, want 10 10 3", c)
	}
	if res.Shown["error"] != 9 || res.Omitted() != 16 {
		t.Errorf("shown %v, omitted %d; want 9 errors shown and 16 left out", res.Shown, res.Omitted())
	}
	last := res.Annotations[9]
	if last.File != "" || last.Message != "ripple: 16 more inconsistent sites are not annotated (GitHub shows 10 error annotations per step); the job summary lists all 25" {
		t.Errorf("overflow annotation %+v", last)
	}
	first := res.Annotations[0]
	if p := first.Properties(); p["file"] != "b.go" || p["line"] != "1" || first.Title != "ripple: v after func A" {
		t.Errorf("first annotation %+v %v", first, p)
	}
	if !strings.Contains(first.Message, "\nfunc A: signature changed (declared at a.go:3)\nrelation path: func A → called by func B") {
		t.Errorf("message %q", first.Message)
	}

	// a slot kept free for the caller's own warning
	res = Plan(rep(map[string]int{"warning": 12}), Limits{PerLevel: 10, PerJob: 49, Keep: map[string]int{"warning": 1}})
	if c := count(res.Annotations); c["warning"] != 9 || res.Shown["warning"] != 8 {
		t.Errorf("with a warning kept: %v annotations, %d shown", c, res.Shown["warning"])
	}

	// the per-job limit: 50 in all, the overflow counted in the last slot
	res = Plan(rep(map[string]int{"error": 30, "warning": 30, "note": 30}), Limits{PerLevel: 20, PerJob: 50})
	if c := count(res.Annotations); c["error"] != 20 || c["warning"] != 20 || c["notice"] != 10 || len(res.Annotations) != 50 {
		t.Fatalf("annotations per level %v", c)
	}
	if res.Omitted() != 90-19-19-9 {
		t.Errorf("omitted %d", res.Omitted())
	}
}

// TestAggregateAnnotated: an aggregated finding's annotation names its
// other sites and what its verdict lacked.
func TestAggregateAnnotated(t *testing.T) {
	r := rep(map[string]int{"warning": 1})
	r.Findings[0].Missing = "the receiver's type"
	r.Findings[0].Also = []findings.Site{{Path: "c.go", Line: 4}, {Path: "d.go", Line: 9}}
	msg := Plan(r, GitHub).Annotations[0].Message
	for _, want := range []string{"m0 (without the receiver's type)", "\nand 2 more sites for the same reason: c.go:4, d.go:9"} {
		if !strings.Contains(msg, want) {
			t.Errorf("message %q lacks %q", msg, want)
		}
	}
}
