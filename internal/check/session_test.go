package check_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/ripple-dev/ripple/internal/check"
	"github.com/ripple-dev/ripple/internal/model"
	"github.com/ripple-dev/ripple/internal/report"
)

// TestSessionCounts: stacked branches pushed together share a change (Sum),
// checked once per range; the second range also has a wrapper that must
// follow it (derived, Cause: the second range's copy of Sum). The merged
// result is 1 change of the developer's, in the headline and in the
// totals line alike.
func TestSessionCounts(t *testing.T) {
	sum := func() *model.Change {
		return &model.Change{Label: model.MMS, Details: []string{"parameter c int added"},
			New: &model.Block{Display: "func Sum", Path: "p/p.go", NameLine: 3}}
	}
	site := func(path string) model.Site { return model.Site{Path: path, Line: 6} }
	sum1 := sum()
	r1 := &model.Result{Changes: []*model.Change{sum1}, Findings: []*model.Finding{
		{Change: sum1, Relation: model.CalledBy, Verdict: model.Inconsistent, Level: model.LevelError, Site: site("q/q.go")},
	}}
	sum2 := sum()
	wrap := &model.Change{Label: model.MMS, Details: []string{"must follow func Sum"}, Derived: true, Cause: sum2, Via: model.CalledBy,
		New: &model.Block{Display: "func Wrap", Path: "w/w.go", NameLine: 4}}
	r2 := &model.Result{Changes: []*model.Change{sum2, wrap}, Findings: []*model.Finding{
		{Change: sum2, Relation: model.CalledBy, Verdict: model.Inconsistent, Level: model.LevelError, Site: site("q/q.go")},
		{Change: wrap, Relation: model.CalledBy, Verdict: model.Inconsistent, Level: model.LevelError, Site: site("x/x.go")},
	}}

	sess := check.NewSession(nil, nil)
	sess.Add(r1)
	sess.Add(r2)
	merged := sess.Result()
	if wrap.Cause != sum1 {
		t.Errorf("the derived change follows the duplicate of func Sum, not the change kept")
	}
	if got, want := report.Headline(merged, true), "ripple: 2 inconsistent sites in 1 change; push blocked"; got != want {
		t.Errorf("Headline = %q, want %q", got, want)
	}
	var buf bytes.Buffer
	if err := report.Text(&buf, merged, report.Options{}); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(buf.String()), "\n")
	if got, want := lines[len(lines)-1], "ripple: 2 inconsistent (1 change checked)"; got != want {
		t.Errorf("totals line = %q, want %q", got, want)
	}
}
