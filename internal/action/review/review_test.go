package review

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/ripple-dev/ripple/internal/action/fakegh"
	"github.com/ripple-dev/ripple/internal/action/findings"
	"github.com/ripple-dev/ripple/internal/action/ghapi"
)

const head = "1111111111111111111111111111111111111111"

// fp makes a fingerprint of the report's shape (64 hex digits).
func fp(s string) string { return strings.Repeat(s, 32) }

// gitDiff has two hunks in p.go (right lines 1-7 and 20-24) and an added
// file.
const gitDiff = `diff --git a/p.go b/p.go
index 1..2 100644
--- a/p.go
+++ b/p.go
@@ -1,6 +1,7 @@
 package p
 
-func A() {}
+func A(x int) {}
+func B() {}
 
 func C() {}
 func D() {}
@@ -19,5 +20,5 @@ func E() {
 	a()
 	b()
-	c()
+	c(1)
 	d()
 }
diff --git a/new.go b/new.go
new file mode 100644
index 0000000..3
--- /dev/null
+++ b/new.go
@@ -0,0 +1,3 @@
+package p
+
+func N() { A() }
diff --git a/gone.go b/gone.go
deleted file mode 100644
--- a/gone.go
+++ /dev/null
@@ -1,1 +0,0 @@
-package p
`

func TestDiffMap(t *testing.T) {
	m, err := ParseGitDiff([]byte(gitDiff))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		path string
		line int
		want bool
	}{
		{"p.go", 1, true}, {"p.go", 3, true}, {"p.go", 4, true}, {"p.go", 7, true},
		{"p.go", 8, false}, {"p.go", 19, false}, {"p.go", 20, true}, {"p.go", 22, true},
		{"p.go", 24, true}, {"p.go", 25, false}, {"new.go", 3, true}, {"new.go", 4, false},
		{"gone.go", 1, false}, {"other.go", 1, false},
	} {
		if got := m.Commentable(c.path, c.line); got != c.want {
			t.Errorf("Commentable(%s, %d) = %v, want %v", c.path, c.line, got, c.want)
		}
	}
	if !m.InOneHunk("p.go", 3, 5) || m.InOneHunk("p.go", 6, 20) || m.InOneHunk("p.go", 5, 3) {
		t.Error("InOneHunk: want 3-5 in one hunk, 6-20 across hunks and 5-3 invalid")
	}
	// the REST API's patch field: the same hunks without file headers
	api := NewDiffMap()
	patch := gitDiff[strings.Index(gitDiff, "@@"):strings.Index(gitDiff, "diff --git a/new.go")]
	if err := api.AddPatch("p.go", patch); err != nil {
		t.Fatal(err)
	}
	for l := 1; l <= 30; l++ {
		if api.Commentable("p.go", l) != m.Commentable("p.go", l) {
			t.Errorf("line %d: the API patch and the git diff disagree", l)
		}
	}
}

// suggestion is a fix that replaces lines start..end with repl.
func suggestion(start, end int, repl string) *findings.Fix {
	return &findings.Fix{StartLine: start, EndLine: end, Replacement: &repl}
}

// noted is fx with fix mode's note.
func noted(fx *findings.Fix, note string) *findings.Fix {
	fx.Note = note
	return fx
}

func report(fs ...findings.Finding) *findings.Report {
	zero := 0
	r := &findings.Report{Base: strings.Repeat("0", 40), Head: head,
		Changes: []findings.Change{{ID: 0, Label: "MMS", Summary: "func A: parameter x int added", Display: "func A", Path: "p.go", Line: 3, Side: "head"}}}
	for i := range fs {
		fs[i].Change = &zero
		if fs[i].Level == "" {
			fs[i].Level, fs[i].Verdict = "error", "inconsistent"
		}
		fs[i].Trail = []findings.Step{{Display: "func A"}, {Relation: "CalledBy", Display: "func N"}}
	}
	r.Findings = fs
	return r
}

func diffMap(t *testing.T) *DiffMap {
	m, err := ParseGitDiff([]byte(gitDiff))
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func TestPlanPlacesFindings(t *testing.T) {
	rep := report(
		findings.Finding{Path: "new.go", Line: 3, Message: "not enough arguments", Fingerprint: fp("aa"), Text: "func N() { A() }"},
		findings.Finding{Path: "far.go", Line: 40, Message: "not enough arguments", Fingerprint: fp("bb")},
		// a constructed fix inside one hunk: a suggestion over its range
		findings.Finding{Path: "p.go", Line: 5, Message: "m", Fingerprint: fp("cc"),
			Fix: suggestion(4, 5, "func B() {}\n```go\nx := \"``\"\n```")},
		// a fix across two hunks: a plain comment, no suggestion
		findings.Finding{Path: "p.go", Line: 7, Message: "m", Fingerprint: fp("dd"),
			Fix: suggestion(7, 20, "x")},
	)
	p := MakePlan(rep, diffMap(t), nil, nil, Options{}, true)
	if len(p.Comments) != 3 || len(p.InBody) != 1 || p.InBody[0].Path != "far.go" {
		t.Fatalf("comments %d, in body %v; want 3 inline and far.go in the body", len(p.Comments), p.InBody)
	}
	sug := p.Comments[1]
	if sug.Suggestion == nil || sug.StartLine != 4 || sug.Line != 5 {
		t.Fatalf("the fix in one hunk: %+v, want a suggestion on lines 4-5", sug)
	}
	if !strings.Contains(sug.Body, "\n````suggestion\nfunc B() {}\n```go\n") || !strings.Contains(sug.Body, "\n````\n") {
		t.Errorf("the suggestion's fence must be longer than the backtick runs it holds:\n%s", sug.Body)
	}
	if plain := p.Comments[2]; plain.Suggestion != nil || plain.StartLine != 0 || plain.Line != 7 || strings.Contains(plain.Body, "suggestion") {
		t.Errorf("a fix across hunks must give a plain comment on the site: %+v", plain)
	}
	if !strings.Contains(p.Body, "1 site lies outside this pull request's diff:") || !strings.Contains(p.Body, "- error far.go:40: not enough arguments") {
		t.Errorf("body:\n%s", p.Body)
	}
	if p.Skip != "" {
		t.Errorf("a first review must be posted, got skip %q", p.Skip)
	}

	capped := MakePlan(rep, diffMap(t), nil, nil, Options{MaxComments: 1}, true)
	if len(capped.Comments) != 1 || len(capped.InBody) != 3 || capped.OverCap != 2 {
		t.Errorf("cap 1: %d inline, %d in body, %d over the cap", len(capped.Comments), len(capped.InBody), capped.OverCap)
	}
	none := MakePlan(rep, diffMap(t), nil, nil, Options{MaxComments: -1}, true)
	if len(none.Comments) != 0 || len(none.InBody) != 4 {
		t.Errorf("no inline comments: %d inline, %d in body", len(none.Comments), len(none.InBody))
	}
}

// TestPlanMergedElsewhere: a merge-check finding on a line the head does
// not have (Rev: the base branch's tip) never takes an inline comment,
// even where its path and line fall in the diff: that line of the head
// holds other code. The body names it as main:p.go:5, linked in the
// base branch's commit.
func TestPlanMergedElsewhere(t *testing.T) {
	tip := strings.Repeat("e", 40)
	rep := report(findings.Finding{Path: "p.go", Line: 5, Message: "once merged with main: m", Fingerprint: fp("ee"),
		Rev: tip, Merged: &findings.Merged{Ref: "main", Commit: tip}})
	p := MakePlan(rep, diffMap(t), nil, nil, Options{Links: findings.Links{Server: "https://github.com", Repo: "o/r"}}, true)
	if len(p.Comments) != 0 || len(p.InBody) != 1 {
		t.Fatalf("comments %d, in body %d; want the site in the body only", len(p.Comments), len(p.InBody))
	}
	if !strings.Contains(p.Body, "[main:p.go:5](https://github.com/o/r/blob/"+tip+"/p.go#L5)") {
		t.Errorf("body:\n%s", p.Body)
	}
}

func TestPlanIdempotent(t *testing.T) {
	rep := report(
		findings.Finding{Path: "new.go", Line: 3, Message: "m", Fingerprint: fp("aa")},
		findings.Finding{Path: "p.go", Line: 4, Message: "m", Fingerprint: fp("bb")},
	)
	first := MakePlan(rep, diffMap(t), nil, nil, Options{}, true)
	var existing []Existing
	for i, c := range first.Comments {
		existing = append(existing, Existing{ID: int64(10 + i), Path: c.Path, Line: c.Line, Body: c.Body, Ours: true})
	}
	reviews := []ExistingReview{{ID: 5, Body: first.Body, Ours: true}}
	// a person's comment quoting a marker is not Ripple's
	existing = append(existing, Existing{ID: 99, Path: "new.go", Line: 3, Body: fpMarker(fp("cc")), Ours: false})

	again := MakePlan(rep, diffMap(t), existing, reviews, Options{}, true)
	if again.Skip == "" || len(again.Comments) != 0 || len(again.Updates) != 0 || again.Kept != 2 {
		t.Fatalf("re-run: skip %q, %d comments, %d updates, kept %d; want nothing new", again.Skip, len(again.Comments), len(again.Updates), again.Kept)
	}

	// bb fixed; aa's comment outdated by a push: a new comment for aa,
	// the old one superseded, bb's resolved, the person's untouched
	rep2 := report(findings.Finding{Path: "new.go", Line: 3, Message: "m", Fingerprint: fp("aa")})
	existing[0].Line = 0
	next := MakePlan(rep2, diffMap(t), existing, reviews, Options{}, true)
	if len(next.Comments) != 1 || next.Comments[0].Finding.Fingerprint != fp("aa") {
		t.Fatalf("want one new comment for aa, got %d", len(next.Comments))
	}
	if len(next.Updates) != 2 || next.Updates[0].ID != 10 || next.Updates[0].Why != stateSuperseded || next.Updates[1].ID != 11 || next.Updates[1].Why != stateResolved {
		t.Fatalf("updates %+v", next.Updates)
	}
	for _, u := range next.Updates {
		if parseFP(u.Body) == "" || parseState(u.Body) != u.Why {
			t.Errorf("an edited comment keeps its fingerprint and says its state:\n%s", u.Body)
		}
	}
	// once edited, they are left alone
	existing[0].Body, existing[1].Body = next.Updates[0].Body, next.Updates[1].Body
	existing = append(existing, Existing{ID: 12, Path: "new.go", Line: 3, Body: next.Comments[0].Body, Ours: true})
	reviews = append(reviews, ExistingReview{ID: 6, Body: next.Body, Ours: true})
	last := MakePlan(rep2, diffMap(t), existing, reviews, Options{}, true)
	if last.Skip == "" || len(last.Updates) != 0 || len(last.Comments) != 0 {
		t.Errorf("after the edits: skip %q, %d updates, %d comments", last.Skip, len(last.Updates), len(last.Comments))
	}
}

func TestMarkdownInUntrustedText(t *testing.T) {
	rep := report(findings.Finding{Path: "new.go", Line: 3, Fingerprint: fp("aa"),
		Message: "call to @octo/team's [link](http://x) <img src=x>", Text: "a `b` | c"})
	p := MakePlan(rep, nil, nil, nil, Options{}, true)
	for _, bad := range []string{"@octo", "[link](", "<img"} {
		if strings.Contains(p.Body, bad) {
			t.Errorf("body holds %q unescaped:\n%s", bad, p.Body)
		}
	}
	if !strings.Contains(p.Body, "``a `b` | c``") {
		t.Errorf("the source line must be one code span:\n%s", p.Body)
	}
}

func newAPI(t *testing.T, srv *fakegh.Server) *ghapi.API {
	api, err := ghapi.New(srv.URL, "tok", "octo/demo")
	if err != nil {
		t.Fatal(err)
	}
	api.WriteInterval = -1
	api.Sleep = func(context.Context, time.Duration) error { return nil }
	return api
}

func fakeServer(t *testing.T) *fakegh.Server {
	srv := fakegh.New("octo/demo")
	t.Cleanup(func() {
		srv.Close()
		if v := srv.Violations(); len(v) > 0 {
			t.Errorf("requests GitHub would not accept:\n%s", strings.Join(v, "\n"))
		}
		if u := srv.UnusedFaults(); len(u) > 0 && !t.Failed() {
			t.Logf("faults left (expected only when a test stops early): %s", strings.Join(u, "; "))
		}
	})
	srv.SetToken("tok", true)
	if err := srv.SetPR(fakegh.PR{Number: 4, Base: strings.Repeat("0", 40), Head: head}, gitDiff, nil); err != nil {
		t.Fatal(err)
	}
	return srv
}

func TestRunSuggestionShape(t *testing.T) {
	srv := fakeServer(t)
	rep := report(findings.Finding{Path: "p.go", Line: 5, Message: "m", Fingerprint: fp("cc"),
		Fix: suggestion(4, 5, "func B(y int) {}\n")})
	out := Run(context.Background(), newAPI(t, srv), Target{Number: 4, HeadSHA: head}, rep, diffMap(t), Options{})
	if out.State != Posted || out.Inline != 1 {
		t.Fatalf("outcome %+v", out)
	}
	cs := srv.Comments()
	if len(cs) != 1 || cs[0].StartLine != 4 || cs[0].Line != 5 || !strings.Contains(cs[0].Body, "```suggestion\nfunc B(y int) {}\n```") {
		t.Fatalf("comment %+v", cs)
	}
}

func TestRunFallbacks(t *testing.T) {
	rep := report(findings.Finding{Path: "new.go", Line: 3, Message: "m", Fingerprint: fp("aa")})
	t.Run("422 posts the body alone", func(t *testing.T) {
		srv := fakeServer(t)
		if err := srv.AddFault("POST", `/reviews$`, "422", 1); err != nil {
			t.Fatal(err)
		}
		out := Run(context.Background(), newAPI(t, srv), Target{Number: 4, HeadSHA: head}, rep, diffMap(t), Options{})
		if out.State != Posted || !out.BodyOnly || out.Inline != 0 || out.InBody != 1 {
			t.Fatalf("outcome %+v", out)
		}
		rs := srv.Reviews()
		if len(rs) != 1 || len(rs[0].Comments) != 0 || !strings.Contains(rs[0].Body, "GitHub refused this review's inline comments") {
			t.Fatalf("reviews %+v", rs)
		}
	})
	t.Run("404 stops", func(t *testing.T) {
		srv := fakeServer(t)
		out := Run(context.Background(), newAPI(t, srv), Target{Number: 5, HeadSHA: head}, rep, diffMap(t), Options{})
		if out.State != Failed || out.Kind != ghapi.KindNotFound || !strings.Contains(out.Reason, "does not show this pull request") {
			t.Fatalf("outcome %+v", out)
		}
	})
	t.Run("read-only token stops at the first write", func(t *testing.T) {
		srv := fakeServer(t)
		srv.SetToken("tok", false)
		out := Run(context.Background(), newAPI(t, srv), Target{Number: 4, HeadSHA: head}, rep, diffMap(t), Options{})
		if out.State != Failed || out.Kind != ghapi.KindForbidden {
			t.Fatalf("outcome %+v", out)
		}
		if n := len(srv.Log()); n != 3 {
			t.Errorf("%d requests, want 2 reads and 1 refused write", n)
		}
	})
	t.Run("rate limit past the budget gives up", func(t *testing.T) {
		srv := fakeServer(t)
		if err := srv.AddFault("POST", `/reviews$`, "secondary", 5); err != nil {
			t.Fatal(err)
		}
		api := newAPI(t, srv)
		api.MaxWait = 2 * time.Second
		out := Run(context.Background(), api, Target{Number: 4, HeadSHA: head}, rep, diffMap(t), Options{})
		if out.State != Failed || out.Kind != ghapi.KindRateLimited {
			t.Fatalf("outcome %+v", out)
		}
	})
}

// TestPlanNote: fix mode's note opens the body; a note that is news
// (commits pushed) is posted even when no finding is new, any other note
// rides along with a review that is posted anyway. A fix's provenance
// note introduces its suggestion, escaped.
func TestPlanNote(t *testing.T) {
	rep := report(findings.Finding{Path: "p.go", Line: 4, Message: "m", Fingerprint: fp("aa"),
		Fix: noted(suggestion(4, 4, "func A(x int) {}"), "Ripple's fix of func *A*")})
	first := MakePlan(rep, diffMap(t), nil, nil, Options{Note: "**Ripple fixed these sites**"}, true)
	if !strings.HasPrefix(first.Body, "### Ripple: 1 inconsistent site in 1 change\n\n**Ripple fixed these sites**\n\n1 new inline comment.") {
		t.Errorf("body:\n%s", first.Body)
	}
	if c := first.Comments[0]; !strings.Contains(c.Body, "Suggested change (Ripple's fix of func \\*A\\*):\n\n```suggestion\nfunc A(x int) {}\n```") {
		t.Errorf("comment:\n%s", c.Body)
	}
	existing := []Existing{{ID: 10, Path: "p.go", Line: 4, Body: first.Comments[0].Body, Ours: true}}
	reviews := []ExistingReview{{ID: 5, Body: first.Body, Ours: true}}
	if p := MakePlan(rep, diffMap(t), existing, reviews, Options{Note: "unproven"}, true); p.Skip == "" {
		t.Errorf("a note that is no news posted a review again")
	}
	if p := MakePlan(rep, diffMap(t), existing, reviews, Options{Note: "pushed", NoteIsNews: true}, true); p.Skip != "" || !strings.Contains(p.Body, "pushed") {
		t.Errorf("news not posted: skip %q", p.Skip)
	}
}
