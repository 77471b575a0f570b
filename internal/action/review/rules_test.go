package review

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/ripple-dev/ripple/internal/action/fakegh"
	"github.com/ripple-dev/ripple/internal/action/findings"
	"github.com/ripple-dev/ripple/internal/action/md/mdtest"
)

// The rules GitHub enforces on review comments beyond what its REST
// description says (docs/action.md, "What is validated"). Each test is a
// table against the diff mapper and the planner; where a request is
// sent, fakegh checks it again with its own, independent reading of the
// diff (a line outside it is a violation, which fails the test).

var links = findings.Links{Server: "https://github.com", Repo: "octo/demo"}

// postPlan sends the review of rep, planned on diff, to a fake whose
// pull request has that diff, and returns the create-review request as
// sent.
func postPlan(t *testing.T, diff string, rep *findings.Report, o Options) reviewRequest {
	t.Helper()
	srv := fakeServer(t)
	if err := srv.SetPR(fakegh.PR{Number: 4, Base: strings.Repeat("0", 40), Head: head}, diff, nil); err != nil {
		t.Fatal(err)
	}
	dm, err := ParseGitDiff([]byte(diff))
	if err != nil {
		t.Fatal(err)
	}
	out := Run(context.Background(), newAPI(t, srv), Target{Number: 4, HeadSHA: head}, rep, dm, o)
	if out.State != Posted || out.BodyOnly {
		t.Fatalf("outcome %+v", out)
	}
	for _, e := range srv.Log() {
		if e.Method == "POST" && strings.HasSuffix(e.Path, "/reviews") {
			var req reviewRequest
			if err := json.Unmarshal(e.Body, &req); err != nil {
				t.Fatal(err)
			}
			return req
		}
	}
	t.Fatal("no review was posted")
	return reviewRequest{}
}

// reviewRequest is the JSON of POST .../pulls/{n}/reviews as sent.
type reviewRequest struct {
	CommitID string `json:"commit_id"`
	Body     string `json:"body"`
	Event    string `json:"event"`
	Comments []struct {
		Path      string `json:"path"`
		Body      string `json:"body"`
		Line      int    `json:"line"`
		Side      string `json:"side"`
		StartLine int    `json:"start_line"`
		StartSide string `json:"start_side"`
		Position  *int   `json:"position"`
	} `json:"comments"`
}

// Rule: a review comment sits only on a line the pull request's diff
// shows on its right side: an added or a context line of a hunk of the
// new file. Deleted files, deleted lines and lines between hunks take
// none.
func TestRuleLinesInDiff(t *testing.T) {
	const noNewline = "diff --git a/e.go b/e.go\n--- a/e.go\n+++ b/e.go\n@@ -1,2 +1,2 @@\n package e\n-var x = 1\n+var x = 2\n\\ No newline at end of file\n"
	const pureDelete = "diff --git a/d.go b/d.go\n--- a/d.go\n+++ b/d.go\n@@ -1,3 +1,3 @@\n package d\n-var a = 1\n+var a = 2\n \n@@ -8,2 +7,0 @@\n-var b = 1\n-var c = 1\n"
	const renamed = "diff --git a/old.go b/moved.go\nsimilarity index 80%\nrename from old.go\nrename to moved.go\n--- a/old.go\n+++ b/moved.go\n@@ -1,2 +1,2 @@\n package p\n-var o = 1\n+var o = 2\n"
	cases := []struct {
		name string
		diff string
		in   map[string][]int // path → commentable lines
		out  map[string][]int // path → lines outside the diff
	}{
		{"two hunks of a modified file", gitDiff,
			map[string][]int{"p.go": {1, 2, 3, 4, 7, 20, 22, 24}, "new.go": {1, 3}},
			map[string][]int{"p.go": {0, 8, 12, 19, 25}, "new.go": {4}, "gone.go": {1}, "other.go": {1}}},
		{"no newline at end of file", noNewline,
			map[string][]int{"e.go": {1, 2}}, map[string][]int{"e.go": {3}}},
		{"a hunk that only deletes", pureDelete,
			map[string][]int{"d.go": {1, 2, 3}}, map[string][]int{"d.go": {4, 7, 8}}},
		{"a renamed file", renamed,
			map[string][]int{"moved.go": {1, 2}}, map[string][]int{"old.go": {1, 2}}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dm, err := ParseGitDiff([]byte(c.diff))
			if err != nil {
				t.Fatal(err)
			}
			var fs []findings.Finding
			inline := map[string]bool{}
			for want, set := range map[bool]map[string][]int{true: c.in, false: c.out} {
				for path, lines := range set {
					for _, l := range lines {
						if got := dm.Commentable(path, l); got != want {
							t.Errorf("Commentable(%s, %d) = %v, want %v", path, l, got, want)
						}
						fp := fmt.Sprintf("%064x", len(fs)+1)
						fs = append(fs, findings.Finding{Path: path, Line: l, Message: "m", Fingerprint: fp})
						inline[fp] = want
					}
				}
			}
			rep := report(fs...)
			p := MakePlan(rep, dm, nil, nil, Options{MaxComments: MaxCommentsLimit}, true)
			for _, cm := range p.Comments {
				if !inline[cm.Finding.Fingerprint] {
					t.Errorf("%s:%d is commented on, but it is outside the diff", cm.Path, cm.Line)
				}
			}
			for _, f := range p.InBody {
				if inline[f.Fingerprint] {
					t.Errorf("%s:%d is in the body, but the diff shows it", f.Path, f.Line)
				}
			}
			// the fake reads the diff on its own and refuses a line
			// outside it (a violation fails the test)
			req := postPlan(t, c.diff, rep, Options{MaxComments: MaxCommentsLimit})
			if len(req.Comments) != len(p.Comments) {
				t.Errorf("%d comments sent, %d planned", len(req.Comments), len(p.Comments))
			}
			for _, cm := range req.Comments {
				if cm.Side != "RIGHT" || cm.Position != nil {
					t.Errorf("comment %s:%d: side %q, position %v; want RIGHT and no position", cm.Path, cm.Line, cm.Side, cm.Position)
				}
			}
		})
	}
}

// Rule: the diff the mapper trusts is the one GitHub shows. A hunk's
// right side is what its header says, and its body must agree: an empty
// line (a context line whose space an editor or a mail client stripped)
// still counts, and a body that disagrees with its header is refused
// rather than guessed at.
func TestRuleHunkHeaders(t *testing.T) {
	stripped := "@@ -1,4 +1,5 @@\n package p\n\n-var a = 1\n+var a = 2\n+var b = 2\n func F() {}\n"
	m := NewDiffMap()
	if err := m.AddPatch("p.go", stripped); err != nil {
		t.Fatal(err)
	}
	for l := 1; l <= 6; l++ {
		if got, want := m.Commentable("p.go", l), l <= 5; got != want {
			t.Errorf("line %d: Commentable = %v, want %v (the empty line is line 2)", l, got, want)
		}
	}
	for _, bad := range []string{
		"@@ -1,2 +1,3 @@\n a\n+b\n",         // header says 3 lines, body 2
		"@@ -1,2 +1,2 @@\n a\n+b\n+c\n",     // header says 2, body 3
		"@@ -1,2 +1,2 @@\n a\n*b\n",         // not a diff line
		"@@ -1,1 +1,2 @@\n a\n+b\n c\n d\n", // trailing lines past the hunk
	} {
		if err := NewDiffMap().AddPatch("p.go", bad); err == nil {
			t.Errorf("AddPatch accepted %q", bad)
		}
	}
	if _, err := ParseGitDiff([]byte("diff --git a/p.go b/p.go\n--- a/p.go\n+++ b/p.go\n@@ -1,2 +1,3 @@\n a\n+b\n")); err == nil {
		t.Error("ParseGitDiff accepted a hunk shorter than its header")
	}
}

// Rule: a multi-line comment (start_line..line) lies within one hunk and
// on one side, RIGHT for both ends; start_line is below line, and a
// single line has no start_line. A suggestion replaces exactly its
// comment's lines, so a fix whose range breaks the rule is not suggested:
// the finding gets a plain comment on its own line when the diff shows
// it, else a line in the body.
func TestRuleMultiLineRange(t *testing.T) {
	// gitDiff: p.go's hunks are lines 1-7 and 20-24
	cases := []struct {
		name       string
		site       int
		start, end int
		// want: suggestion range, or where the plain comment goes (0:
		// the body)
		sugStart, sugEnd int
		plain            int
	}{
		{"inside the first hunk", 5, 3, 5, 3, 5, 0},
		{"one line", 4, 4, 4, 4, 4, 0},
		{"a whole hunk", 22, 20, 24, 20, 24, 0},
		{"first line of a hunk to its last", 1, 1, 7, 1, 7, 0},
		{"across two hunks", 7, 6, 20, 0, 0, 7},
		{"past a hunk's end", 6, 6, 8, 0, 0, 6},
		{"from before a hunk", 21, 19, 21, 0, 0, 21},
		{"between hunks, site outside too", 12, 10, 12, 0, 0, 0},
		{"reversed", 5, 5, 3, 0, 0, 5},
		{"line zero", 2, 0, 2, 0, 0, 2},
	}
	var fs []findings.Finding
	for i, c := range cases {
		fs = append(fs, findings.Finding{Path: "p.go", Line: c.site, Message: c.name, Fingerprint: fmt.Sprintf("%064x", i+1),
			Fix: suggestion(c.start, c.end, "x := 1\n")})
	}
	rep := report(fs...)
	p := MakePlan(rep, diffMap(t), nil, nil, Options{MaxComments: MaxCommentsLimit}, true)
	placed := map[string]Comment{}
	for _, cm := range p.Comments {
		placed[cm.Finding.Message] = cm
	}
	for _, c := range cases {
		cm, ok := placed[c.name]
		switch {
		case c.sugEnd > 0:
			wantStart := c.sugStart
			if c.sugStart == c.sugEnd {
				wantStart = 0
			}
			if !ok || cm.Suggestion == nil || cm.StartLine != wantStart || cm.Line != c.sugEnd || !strings.Contains(cm.Body, "suggestion") {
				t.Errorf("%s: %+v; want a suggestion on %d-%d", c.name, cm, c.sugStart, c.sugEnd)
			}
		case c.plain > 0:
			if !ok || cm.Suggestion != nil || cm.StartLine != 0 || cm.Line != c.plain || strings.Contains(cm.Body, "suggestion") {
				t.Errorf("%s: %+v; want a plain comment on line %d", c.name, cm, c.plain)
			}
		default:
			if ok {
				t.Errorf("%s: commented on %d-%d; want the body", c.name, cm.StartLine, cm.Line)
			}
		}
	}
	req := postPlan(t, gitDiff, rep, Options{MaxComments: MaxCommentsLimit})
	if len(req.Comments) != len(p.Comments) {
		t.Fatalf("%d comments sent, %d planned", len(req.Comments), len(p.Comments))
	}
	ranges := 0
	for _, cm := range req.Comments {
		if cm.StartLine == 0 {
			if cm.StartSide != "" {
				t.Errorf("%s:%d: start_side %q without start_line", cm.Path, cm.Line, cm.StartSide)
			}
			continue
		}
		ranges++
		if cm.StartLine >= cm.Line || cm.StartSide != "RIGHT" || cm.Side != "RIGHT" {
			t.Errorf("%s:%d-%d: start_side %q, side %q; want start_line below line, both RIGHT", cm.Path, cm.StartLine, cm.Line, cm.StartSide, cm.Side)
		}
	}
	if ranges != 3 {
		t.Errorf("%d multi-line comments sent, want 3", ranges)
	}
}

// Rule: a suggestion block is one fenced code block whose content is
// exactly the replacement, whatever backticks the code holds: its fence
// is longer than any run of backticks in it, so no line of the code
// closes it early (GitHub would then apply a part of the edit, and show
// the rest as prose).
func TestRuleSuggestionFence(t *testing.T) {
	for _, repl := range []string{
		"x := 1\n",
		"s := `raw`\n",
		"```\n",
		"doc := \"```go\"\n```\n",
		"````\ncode\n````\n",
		"   ```\n",
		"~~~\nx\n~~~\n",
		"a := \"``````````\" // ten\n",
		"`\n``\n",
		"", // deletes the lines
	} {
		t.Run(fmt.Sprintf("%q", repl), func(t *testing.T) {
			rep := report(findings.Finding{Path: "p.go", Line: 4, Message: "m", Fingerprint: fp("ab"),
				Fix: suggestion(3, 4, repl)})
			p := MakePlan(rep, diffMap(t), nil, nil, Options{}, true)
			if len(p.Comments) != 1 || p.Comments[0].Suggestion == nil {
				t.Fatalf("want one comment with a suggestion, got %+v", p.Comments)
			}
			body := p.Comments[0].Body
			d := mdtest.Parse(body)
			var sug []mdtest.Fence
			for _, f := range d.Fences {
				if f.Info == "suggestion" {
					sug = append(sug, f)
				}
			}
			if len(sug) != 1 || sug[0].Content != repl {
				t.Errorf("suggestion blocks %q, want one holding %q:\n%s", sug, repl, body)
			}
			if p := mdtest.Problems(body, fpMarker(fp("ab"))); len(p) > 0 {
				t.Errorf("%v:\n%s", p, body)
			}
		})
	}
}

// bigDiff is a new file of n lines: every line is in the diff.
func bigDiff(n int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "diff --git a/big.go b/big.go\nnew file mode 100644\n--- /dev/null\n+++ b/big.go\n@@ -0,0 +1,%d @@\n", n)
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, "+var v%d = %d\n", i, i)
	}
	return b.String()
}

// Rule: a review carries at most MaxCommentsLimit inline comments
// (GitHub documents no number; see MaxCommentsLimit for the choice),
// whatever max-comments asks; every finding past the cap is listed in
// the review body, which says so.
func TestRuleCommentCap(t *testing.T) {
	const n = 70
	diff := bigDiff(n)
	dm, err := ParseGitDiff([]byte(diff))
	if err != nil {
		t.Fatal(err)
	}
	var fs []findings.Finding
	for i := 1; i <= n; i++ {
		fs = append(fs, findings.Finding{Path: "big.go", Line: i, Message: "m", Fingerprint: fmt.Sprintf("%064x", i)})
	}
	rep := report(fs...)
	for _, c := range []struct{ max, want int }{
		{0, DefaultMaxComments}, {10, 10}, {MaxCommentsLimit, MaxCommentsLimit}, {MaxCommentsLimit + 1, MaxCommentsLimit}, {1000, MaxCommentsLimit}, {-1, 0},
	} {
		p := MakePlan(rep, dm, nil, nil, Options{MaxComments: c.max, Links: links}, true)
		over := n - c.want
		if len(p.Comments) != c.want || p.OverCap != over || len(p.InBody) != over {
			t.Errorf("max-comments %d: %d inline, %d over the cap, %d in the body; want %d, %d, %d", c.max, len(p.Comments), p.OverCap, len(p.InBody), c.want, over, over)
			continue
		}
		if over > 0 && c.max >= 0 && !strings.Contains(p.Body, fmt.Sprintf("%d sites are past the limit of inline comments:", over)) {
			t.Errorf("max-comments %d: the body does not say why %d sites are in it:\n%s", c.max, over, p.Body)
		}
		for _, f := range p.InBody {
			if !strings.Contains(p.Body, fmt.Sprintf("[big.go:%d](", f.Line)) {
				t.Errorf("max-comments %d: big.go:%d is neither inline nor in the body", c.max, f.Line)
			}
		}
	}
	req := postPlan(t, diff, rep, Options{MaxComments: 1000})
	if len(req.Comments) != MaxCommentsLimit {
		t.Errorf("%d comments sent, want %d", len(req.Comments), MaxCommentsLimit)
	}
}

// Rule: a review's body and each comment's body are at most 65,536
// characters (MaxBody bytes are written, fewer); cutting keeps the
// Markdown whole (no code block or <details> left open to swallow what
// follows) and keeps the hidden marker a re-run reads. A suggestion is
// never cut: one too long for a comment is left out and said so.
func TestRuleBodySize(t *testing.T) {
	check := func(t *testing.T, what, body string, markers ...string) {
		t.Helper()
		if len(body) > MaxBody {
			t.Errorf("%s: %d bytes, over %d", what, len(body), MaxBody)
		}
		if p := mdtest.Problems(body, markers...); len(p) > 0 {
			t.Errorf("%s: %v\n…%s", what, p, body[max(0, len(body)-300):])
		}
	}
	t.Run("review body", func(t *testing.T) {
		var fs []findings.Finding
		for i := 0; i < 3000; i++ {
			fs = append(fs, findings.Finding{Path: fmt.Sprintf("far/f%d.go", i), Line: i + 1, Message: strings.Repeat("call passes 2 arguments ", 4),
				Fingerprint: fmt.Sprintf("%064x", i+1), Text: "return p.Sum(1, 2)"})
		}
		rep := report(fs...)
		// a note with a patch: a <details> and a fence a cut may land
		// in, alone or with the list of sites
		for _, lines := range []int{3000, 8000} {
			note := "**Ripple fixed these sites**\n\n<details><summary>The patch</summary>\n\n```diff\n" + strings.Repeat("+\tx := `y`\n", lines) + "```\n\n</details>"
			p := MakePlan(rep, diffMap(t), nil, nil, Options{Links: links, Note: note}, true)
			check(t, "review body", p.Body, reviewMarker(p.Digest))
			if parseDigest(p.Body) != p.Digest || !strings.Contains(p.Body, "The review stops here") {
				t.Errorf("the cut body lost its digest or does not say it was cut")
			}
			// GitHub's limit, checked by the fake on what is sent
			postPlan(t, gitDiff, rep, Options{Links: links, Note: note})
		}
	})
	t.Run("a suggestion too long for a comment", func(t *testing.T) {
		long := strings.Repeat("\tx = append(x, `a`)\n", 4000) // 84,000 bytes
		rep := report(findings.Finding{Path: "p.go", Line: 5, Message: "m", Fingerprint: fp("cd"),
			Fix: suggestion(3, 5, long)})
		p := MakePlan(rep, diffMap(t), nil, nil, Options{Links: links}, true)
		if len(p.Comments) != 1 {
			t.Fatalf("%d comments", len(p.Comments))
		}
		c := p.Comments[0]
		check(t, "comment", c.Body, fpMarker(fp("cd")))
		if c.Suggestion != nil || strings.Contains(c.Body, "suggestion\n") || !strings.Contains(c.Body, "too long for a review comment") {
			t.Errorf("want no suggestion and a word why:\n%.600s", c.Body)
		}
		if c.StartLine != 3 || c.Line != 5 {
			t.Errorf("the comment moved: %d-%d, want 3-5", c.StartLine, c.Line)
		}
		// a shorter one still fits
		rep.Findings[0].Fix = suggestion(3, 5, long[:40000])
		if p := MakePlan(rep, diffMap(t), nil, nil, Options{Links: links}, true); p.Comments[0].Suggestion == nil {
			t.Error("a 40,000-byte suggestion was left out")
		}
	})
	t.Run("a comment naming many sites", func(t *testing.T) {
		f := findings.Finding{Path: "p.go", Line: 4, Message: "m", Fingerprint: fp("ef")}
		for i := 0; i < 5000; i++ {
			f.Also = append(f.Also, findings.Site{Path: fmt.Sprintf("dir/sub/file%d.go", i), Line: i + 1})
		}
		p := MakePlan(report(f), diffMap(t), nil, nil, Options{Links: links}, true)
		c := p.Comments[0].Body
		check(t, "comment", c, fpMarker(fp("ef")))
		if !strings.Contains(c, fmt.Sprintf("and %d more in the job summary", 5000-maxAlso)) {
			t.Errorf("the other sites are not counted:\n%.400s", c)
		}
		// a relation path of 1,000 steps, each a long name
		rep := report(findings.Finding{Path: "p.go", Line: 4, Message: "m", Fingerprint: fp("ef")})
		for i := 0; i < 1000; i++ {
			rep.Findings[0].Trail = append(rep.Findings[0].Trail, findings.Step{Relation: "CalledBy", Display: fmt.Sprintf("func F%d%s", i, strings.Repeat("x", 200))})
		}
		p = MakePlan(rep, diffMap(t), nil, nil, Options{Links: links}, true)
		check(t, "comment with a long relation path", p.Comments[0].Body, fpMarker(fp("ef")))
	})
	t.Run("an earlier comment edited to resolved or superseded", func(t *testing.T) {
		long := strings.Repeat("\ty := `z`\n", 3000) // 30,000 bytes: cut at MaxBody/4
		rep := report(findings.Finding{Path: "p.go", Line: 5, Message: "m", Fingerprint: fp("aa"),
			Fix: suggestion(3, 5, long)})
		first := MakePlan(rep, diffMap(t), nil, nil, Options{Links: links}, true)
		if first.Comments[0].Suggestion == nil {
			t.Fatal("no suggestion to start from")
		}
		earlier := []Existing{{ID: 10, Path: "p.go", Line: 5, Body: first.Comments[0].Body, Ours: true}}
		resolved := MakePlan(report(), diffMap(t), earlier, nil, Options{Links: links}, true)
		earlier[0].Line = 0 // outdated, still reported: superseded
		superseded := MakePlan(rep, diffMap(t), earlier, nil, Options{Links: links}, true)
		for _, p := range []*Plan{resolved, superseded} {
			if len(p.Updates) != 1 {
				t.Fatalf("updates %+v", p.Updates)
			}
			u := p.Updates[0]
			check(t, u.Why, u.Body, fpMarker(fp("aa")), stateMarker(u.Why))
			for _, f := range mdtest.Parse(u.Body).Fences {
				if f.Info == "suggestion" {
					t.Errorf("%s: the earlier suggestion can still be committed from the edited comment", u.Why)
				}
			}
		}
	})
}
