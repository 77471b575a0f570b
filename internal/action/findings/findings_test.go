package findings

import (
	"strings"
	"testing"

	"github.com/ripple-dev/ripple/internal/model"
	"github.com/ripple-dev/ripple/internal/report"
)

// Result is a check with one change and three findings, one of them not
// reported (level none).
func Result() *model.Result {
	seed := &model.Change{Label: model.MMS, Details: []string{"parameter c int added"},
		New: &model.Block{Display: "func Sum", Path: "p/p.go", NameLine: 3}}
	gone := &model.Change{Label: model.DM, Old: &model.Block{Display: "func Old", Path: "p/old.go", NameLine: 9}}
	mk := func(c *model.Change, path string, line int, level model.Level, v model.Verdict) *model.Finding {
		return &model.Finding{Change: c, Relation: model.CalledBy, Verdict: v, Level: level, Precision: model.PrecisionTypes,
			Message: "not enough arguments", Site: model.Site{Path: path, Line: line, Enclosing: "func Use", Text: "\treturn p.Sum(1, 2)"},
			Trail: []model.Step{{Display: "func Sum", Path: "p/p.go", Line: 3}, {Relation: model.CalledBy, Display: "func Use", Path: path, Line: line - 1}}}
	}
	return &model.Result{
		Base: strings.Repeat("b", 40), Head: strings.Repeat("h", 40),
		Changes: []*model.Change{seed, gone},
		Findings: []*model.Finding{
			mk(seed, "q/q.go", 6, model.LevelError, model.Inconsistent),
			mk(seed, "q/r.go", 2, model.LevelNone, model.Consistent),
			mk(gone, "q/s.go", 4, model.LevelWarning, model.MayBeImpacted),
		},
	}
}

func TestFromResult(t *testing.T) {
	rep, err := FromResult(Result())
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Findings) != 2 || rep.Counts != (Counts{Error: 1, Warning: 1}) {
		t.Fatalf("findings %d, counts %+v; want the two reported ones", len(rep.Findings), rep.Counts)
	}
	f := &rep.Findings[0]
	if f.Text != "return p.Sum(1, 2)" || len(f.Fingerprint) != 64 || f.Rule != "ripple/MMS/CalledBy" || len(f.Trail) != 2 {
		t.Errorf("finding %+v", f)
	}
	if c := rep.ChangeOf(f); c == nil || c.Display != "func Sum" || c.Summary != "func Sum: parameter c int added" {
		t.Errorf("change %+v", c)
	}
	if g := rep.Groups(); len(g) != 2 || len(g[0].Findings) != 1 {
		t.Errorf("groups %+v", g)
	}
	if got := Headline(rep); got != "1 inconsistent site in 1 of 2 changes, 1 more may be impacted" {
		t.Errorf("headline %q", got)
	}
	l := Links{Server: "https://github.com/", Repo: "octo/demo"}
	if got := l.Site(rep, f); got != "https://github.com/octo/demo/blob/"+rep.Head+"/q/q.go#L6" {
		t.Errorf("site link %s", got)
	}
	// a deleted declaration links to the base commit
	if got := l.Seed(rep, rep.ChangeOf(&rep.Findings[1])); got != "https://github.com/octo/demo/blob/"+rep.Base+"/p/old.go#L9" {
		t.Errorf("seed link %s", got)
	}
	if got := l.Blob("abc", "dir with space/a#b.go", 0); got != "https://github.com/octo/demo/blob/abc/dir%20with%20space/a%23b.go" {
		t.Errorf("escaped link %s", got)
	}
}

func TestValidate(t *testing.T) {
	rep, err := FromResult(Result())
	if err != nil {
		t.Fatal(err)
	}
	bad := rep.Findings[0]
	for _, p := range []string{"/etc/passwd", "../x.go", "a/../../b.go", "a\x00b", ""} {
		b := bad
		b.Path = p
		rep.Findings = append(rep.Findings, b)
	}
	b := bad
	b.Line = 0
	b.Fix = &Fix{StartLine: 3, EndLine: 1}
	rep.Findings = append(rep.Findings, b)
	// a revision that is no object name would go into permalinks
	for _, rev := range []string{"main", "../../evil", "abc"} {
		b := bad
		b.Rev = rev
		rep.Findings = append(rep.Findings, b)
	}
	ok := bad
	ok.Fix = &Fix{StartLine: 3, EndLine: 1}
	rep.Findings = append(rep.Findings, ok)
	if n := rep.Validate(); n != 9 {
		t.Errorf("dropped %d, want 9", n)
	}
	if len(rep.Findings) != 3 || rep.Findings[2].Fix != nil || rep.Counts.Error != 2 {
		t.Errorf("kept %d (counts %+v); an impossible fix must be dropped", len(rep.Findings), rep.Counts)
	}
}

// TestHeadlineCountsAsHook: the action's headline, read back from the
// JSON report, is the hook's (report.Headline): both count the
// developer's changes, a derived change as the one it follows, out of
// those checked. (The action counted every change with a reported site,
// derived ones too, and never said out of how many.)
func TestHeadlineCountsAsHook(t *testing.T) {
	block := func(name, path string) *model.Block { return &model.Block{Display: name, Path: path, NameLine: 3} }
	change := func(name string) *model.Change {
		return &model.Change{Label: model.MMS, Details: []string{"parameter added"}, New: block(name, "p/p.go")}
	}
	derived := func(name string, cause *model.Change) *model.Change {
		return &model.Change{Label: model.MMS, Details: []string{"must follow " + cause.New.Display}, Derived: true, Cause: cause, Via: model.CalledBy, New: block(name, "w/w.go")}
	}
	line := 0
	at := func(c *model.Change, level model.Level, v model.Verdict) *model.Finding {
		line++
		return &model.Finding{Change: c, Relation: model.CalledBy, Verdict: v, Level: level, Precision: model.PrecisionTypes,
			Message: "m", Site: model.Site{Path: "q/q.go", Line: line, Text: "x"}}
	}
	sum, mul, neg, extra := change("func Sum"), change("func Mul"), change("func Neg"), change("func Extra")
	wrap := derived("func Wrap", sum)
	unlisted := change("func Unlisted") // a cause the result does not list
	follows := derived("func Follows", unlisted)
	for _, tc := range []struct {
		name string
		res  *model.Result
		want string
	}{
		{"two of four changes inconsistent, one may be impacted (push_change_counts.txtar)",
			&model.Result{Changes: []*model.Change{sum, mul, neg, extra}, Findings: []*model.Finding{
				at(sum, model.LevelError, model.Inconsistent), at(mul, model.LevelError, model.Inconsistent),
				at(neg, model.LevelWarning, model.MayBeImpacted),
			}},
			"2 inconsistent sites in 2 of 4 changes, 1 more may be impacted"},
		{"a derived change counts as the change it follows",
			&model.Result{Changes: []*model.Change{sum, wrap}, Findings: []*model.Finding{
				at(sum, model.LevelError, model.Inconsistent), at(wrap, model.LevelError, model.Inconsistent),
			}},
			"2 inconsistent sites in 1 change"},
		{"a derived change whose cause is not listed",
			&model.Result{Changes: []*model.Change{follows, extra}, Findings: []*model.Finding{
				at(follows, model.LevelError, model.Inconsistent),
			}},
			"1 inconsistent site in 1 of 2 changes"},
		{"may be impacted, one reported as a note: that one is noted",
			&model.Result{Changes: []*model.Change{neg, extra}, Findings: []*model.Finding{
				at(neg, model.LevelWarning, model.MayBeImpacted), at(neg, model.LevelNote, model.MayBeImpacted),
			}},
			"1 site may be impacted in 1 of 2 changes, 1 more may have to follow"},
		{"only notes: they may have to follow, never impacted",
			&model.Result{Changes: []*model.Change{neg, extra}, Findings: []*model.Finding{
				at(neg, model.LevelNote, model.MayFollow), at(neg, model.LevelNote, model.MayFollow),
			}},
			"2 sites may have to follow in 1 of 2 changes"},
		{"inconsistent, may be impacted and notes",
			&model.Result{Changes: []*model.Change{sum, neg}, Findings: []*model.Finding{
				at(sum, model.LevelError, model.Inconsistent), at(neg, model.LevelWarning, model.MayBeImpacted), at(neg, model.LevelNote, model.MayFollow),
			}},
			"1 inconsistent site in 1 of 2 changes, 1 more may be impacted, 1 more may have to follow"},
		{"a site of no change",
			&model.Result{Changes: []*model.Change{extra}, Findings: []*model.Finding{
				at(nil, model.LevelError, model.Inconsistent),
			}},
			"1 inconsistent site"},
		{"consistent sites are not reported",
			&model.Result{Changes: []*model.Change{sum, mul}, Findings: []*model.Finding{
				at(sum, model.LevelNone, model.Consistent),
			}},
			"no inconsistent sites (2 changes checked)"},
	} {
		rep, err := FromResult(tc.res)
		if err != nil {
			t.Fatal(err)
		}
		got := Headline(rep)
		if got != tc.want {
			t.Errorf("%s: Headline = %q, want %q", tc.name, got, tc.want)
		}
		if hook := report.Headline(tc.res, false); "ripple: "+got != hook {
			t.Errorf("%s: the action says %q, the hook %q", tc.name, got, hook)
		}
	}
}

// TestHeadlineCauseLoop: a report read from untrusted data (a handoff
// file) may have a cause chain that loops or leaves the changes; the
// headline still ends, counting no change for such a finding.
func TestHeadlineCauseLoop(t *testing.T) {
	zero, one, nine := 0, 1, 9
	rep := &Report{
		Changes: []Change{{Derived: true, Cause: &one}, {Derived: true, Cause: &zero}, {Derived: true, Cause: &nine}, {}},
		Findings: []Finding{
			{Change: &zero, Verdict: "inconsistent", Level: "error"},
			{Change: new(int), Verdict: "inconsistent", Level: "error"},
		},
	}
	*rep.Findings[1].Change = 2
	if got, want := Headline(rep), "2 inconsistent sites"; got != want {
		t.Errorf("Headline = %q, want %q", got, want)
	}
}
