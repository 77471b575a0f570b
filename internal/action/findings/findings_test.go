package findings

import (
	"strings"
	"testing"

	"github.com/ripple-dev/ripple/internal/model"
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
	if got := Headline(rep); got != "1 inconsistent site in 2 changes, 1 more may be impacted" {
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
	ok := bad
	ok.Fix = &Fix{StartLine: 3, EndLine: 1}
	rep.Findings = append(rep.Findings, ok)
	if n := rep.Validate(); n != 6 {
		t.Errorf("dropped %d, want 6", n)
	}
	if len(rep.Findings) != 3 || rep.Findings[2].Fix != nil || rep.Counts.Error != 2 {
		t.Errorf("kept %d (counts %+v); an impossible fix must be dropped", len(rep.Findings), rep.Counts)
	}
}
