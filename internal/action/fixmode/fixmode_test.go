package fixmode

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"

	"github.com/ripple-dev/ripple/internal/action/findings"
	"github.com/ripple-dev/ripple/internal/fix"
	"github.com/ripple-dev/ripple/internal/languages"
	"github.com/ripple-dev/ripple/internal/model"
	"github.com/ripple-dev/ripple/internal/oracle"
	"github.com/ripple-dev/ripple/internal/testrepo"
)

// head is the head state of the tests' repository: the developer
// changed Sum and Old (seed changes, in p/p.go); a/a.go and b/b.go hold
// the dependents the fix edits.
const head = `
-- old/go.mod --
module example.com/m

go 1.22
-- old/p/p.go --
package p

func Sum(a, b int) int { return a + b }

func Old() int { return 1 }
-- old/a/a.go --
package a

import "example.com/m/p"

func F() int {
	return p.Sum(1, 2)
}

func G() int {
	return p.Old()
}

func Both() int {
	return p.Sum(1, 2) + p.Old()
}
-- old/b/b.go --
package b

func H() int {
	return 1
}

func K() int {
	return 2
}
-- new/p/p.go --
package p

func Sum(a, b, c int) int { return a + b + c }

func New() int { return 1 }
`

// fixed is the state the (imagined) engine proved: F and Both follow Sum,
// G and Both follow the rename, a/a.go gains an import, H follows G's
// edit (an obligation whose own change is no seed: its Parent is G's),
// and K was edited for an oracle diagnostic alone.
var fixed = map[string]string{
	"a/a.go": `package a

import (
	"strconv"

	"example.com/m/p"
)

func F() int {
	return p.Sum(1, 2, 0)
}

func G() int {
	n, _ := strconv.Atoi("1")
	return p.New() * n
}

func Both() int {
	return p.Sum(1, 2, 0) + p.New()
}
`,
	"b/b.go": `package b

func H() int {
	// G's result is checked now
	return 1
}

func K() int {
	return 3
}
`,
}

type fixture struct {
	dir  string
	git  *Git
	res  *fix.Result
	want string // the fixed tree
}

func setup(t *testing.T) *fixture {
	t.Helper()
	testrepo.Hermetic(t)
	sc := testrepo.FromTxtar(t, txtar.Parse([]byte(head)))
	for p, src := range fixed {
		if err := os.WriteFile(filepath.Join(sc.Dir, p), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	patch := testrepo.Git(t, sc.Dir, "diff", "--src-prefix=a/", "--dst-prefix=b/") + "\n"
	testrepo.Git(t, sc.Dir, "add", "-A")
	want := testrepo.Git(t, sc.Dir, "write-tree")
	testrepo.Git(t, sc.Dir, "reset", "-q", "--hard", sc.Head)

	sum := &model.Change{Label: model.MMS, New: &model.Block{Path: "p/p.go", Display: "func Sum"}, Details: []string{"parameter c int added"}}
	old := &model.Change{Label: model.DM, Old: &model.Block{Path: "p/p.go", Display: "func Old", Name: "Old"}, New: &model.Block{Path: "p/p.go", Display: "func New", Name: "New"}, Details: []string{"renamed to New"}}
	// later checks of the scratch state make new values of the same
	// changes: grouping must match them by what they are
	sum2, old2 := *sum, *old
	gChange := &model.Change{Label: model.MMS, New: &model.Block{Path: "a/a.go", Display: "func G"}}
	derived := &model.Change{Label: model.MMS, New: &model.Block{Path: "p/p.go", Display: "func Wrap"}, Derived: true, Cause: &sum2}
	obG := &fix.Obligation{ID: 2, Path: "a/a.go", Block: "func G", Status: fix.Done, Method: "model",
		Reasons: []fix.Reason{{Message: "calls Old", Relation: model.CalledBy, Change: &old2, Must: true}}}
	res := &fix.Result{
		Base: sc.Base, Head: sc.Head, Proven: true, Patch: patch,
		Seed: &model.Result{
			Changes: []*model.Change{sum, old},
			Findings: []*model.Finding{{Change: sum, Relation: model.CalledBy,
				Site:  model.Site{Path: "a/a.go", Line: 6, Enclosing: "func F"},
				Trail: []model.Step{{Display: "func Sum"}, {Relation: model.CalledBy, Display: "func F"}}}},
		},
		Obligations: []*fix.Obligation{
			{ID: 1, Path: "a/a.go", Block: "func F", Status: fix.Done, Method: "mechanical",
				Reasons: []fix.Reason{{Message: "not enough arguments", Relation: model.CalledBy, Change: sum, Must: true}}},
			obG,
			{ID: 3, Path: "a/a.go", Block: "func Both", Status: fix.Done, Method: "model",
				Reasons: []fix.Reason{
					{Message: "calls Old", Relation: model.CalledBy, Change: &old2, Must: true},
					{Message: "not enough arguments", Relation: model.CalledBy, Change: derived, Must: true},
				}},
			{ID: 4, Path: "b/b.go", Block: "func H", Status: fix.Done, Method: "model", Parent: obG, ParentID: 2,
				Reasons: []fix.Reason{{Message: "G's result", Relation: model.CalledBy, Change: gChange, Must: true}}},
			{ID: 5, Path: "b/b.go", Block: "func K", Status: fix.Done, Method: "model",
				Reasons: []fix.Reason{{Message: "vet: K", Oracle: &oracle.Diagnostic{Path: "b/b.go", Line: 8, Tool: "vet", Message: "K is wrong"}, Must: true}}},
			{ID: 6, Path: "b/b.go", Block: "func Gone", Status: fix.Failed, Method: "model"},
		},
	}
	return &fixture{dir: sc.Dir, git: &Git{Dir: sc.Dir}, res: res, want: want}
}

func TestSplitAndCommit(t *testing.T) {
	f := setup(t)
	ctx := context.Background()
	plan, err := Split(ctx, f.git, f.res, languages.Frontends())
	if err != nil {
		t.Fatal(err)
	}
	if plan.Unsplit != "" {
		t.Fatalf("unsplit: %s", plan.Unsplit)
	}
	var titles []string
	for _, g := range plan.Groups {
		titles = append(titles, g.Title)
	}
	if got, want := strings.Join(titles, " | "), "func Sum: parameter c int added | func Old: renamed to New | edits the oracle asked for"; got != want {
		t.Fatalf("groups %q, want %q", got, want)
	}
	commits, err := plan.Commit(ctx, f.git, DefaultAuthor, []string{"Ripple-Fix: test"})
	if err != nil {
		t.Fatal(err)
	}
	if len(commits) != 3 {
		t.Fatalf("%d commits, want 3", len(commits))
	}
	show := func(rev, path string) string { return testrepo.Git(t, f.dir, "show", rev+":"+path) }
	// commit 1 (Sum): F, Both (it follows both seeds: it goes with the
	// first) and the import (file scope goes with the first group that
	// edits the file); G still calls Old
	c1 := show(commits[0].SHA, "a/a.go")
	for _, want := range []string{"\"strconv\"", "return p.Sum(1, 2, 0)\n}", "return p.Sum(1, 2, 0) + p.New()", "return p.Old()"} {
		if !strings.Contains(c1, want) {
			t.Errorf("commit 1's a/a.go lacks %q:\n%s", want, c1)
		}
	}
	if b := show(commits[0].SHA, "b/b.go"); strings.Contains(b, "checked now") || strings.Contains(b, "return 3") {
		t.Errorf("commit 1 edits b/b.go:\n%s", b)
	}
	// commit 2 (Old): G, and H, which follows G's edit
	if c2 := show(commits[1].SHA, "a/a.go"); !strings.Contains(c2, "return p.New() * n") {
		t.Errorf("commit 2's a/a.go:\n%s", c2)
	}
	if b := show(commits[1].SHA, "b/b.go"); !strings.Contains(b, "checked now") || strings.Contains(b, "return 3") {
		t.Errorf("commit 2's b/b.go:\n%s", b)
	}
	// commit 3: what the oracle asked for; the last tree is the proven one
	if tree := testrepo.Git(t, f.dir, "rev-parse", commits[2].SHA+"^{tree}"); tree != f.want {
		t.Errorf("last tree %s, want the proven %s", tree, f.want)
	}
	if p := testrepo.Git(t, f.dir, "rev-parse", commits[0].SHA+"^"); p != f.res.Head {
		t.Errorf("first parent %s, want the head %s", p, f.res.Head)
	}
	for _, want := range []string{
		"ripple: follow func Sum: parameter c int added\n\n",
		"- a/a.go func F: func Sum → called by func F (mechanical)\n",
		"- a/a.go func Both: func New → called by func Both; func Sum → func Wrap → called by func Both (model)\n  also follows func Old: renamed to New\n",
		"- file scope (imports the edits need): a/a.go\n",
		"\nRipple-Fix: test\n",
	} {
		if !strings.Contains(commits[0].Message, want) {
			t.Errorf("message 1 lacks %q:\n%s", want, commits[0].Message)
		}
	}
	if !strings.Contains(commits[1].Message, "- b/b.go func H: func New → called by func G → called by func H (model)") {
		t.Errorf("message 2 lacks H's relation path through G:\n%s", commits[1].Message)
	}
	if !strings.Contains(commits[2].Message, "ripple: edits the oracle asked for\n\n- b/b.go func K: the oracle: b/b.go:8: vet: K is wrong (model)") {
		t.Errorf("message 3:\n%s", commits[2].Message)
	}
	if strings.Contains(commits[0].Message+commits[1].Message+commits[2].Message, "func Gone") {
		t.Errorf("a failed obligation is in a message")
	}
	who := testrepo.Git(t, f.dir, "log", "-1", "--format=%an <%ae> %cn <%ce>", commits[2].SHA)
	if want := DefaultAuthor.String() + " " + DefaultAuthor.String(); who != want {
		t.Errorf("author and committer %q, want %q", who, want)
	}
	// nothing of the repository moved: no ref, no index, no work tree
	if st := testrepo.Git(t, f.dir, "status", "--porcelain"); st != "" {
		t.Errorf("work tree or index touched:\n%s", st)
	}
	if h := testrepo.Git(t, f.dir, "rev-parse", "HEAD"); h != f.res.Head {
		t.Errorf("HEAD moved to %s", h)
	}
}

func TestSuggestions(t *testing.T) {
	f := setup(t)
	plan, err := Split(context.Background(), f.git, f.res, languages.Frontends())
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]Suggestion{}
	for _, s := range plan.Suggestions(func(path string, start, end int) bool { return path == "b/b.go" || end-start < 2 }) {
		got[s.Path+" "+s.Block] = s
	}
	// F: one changed line
	if s := got["a/a.go func F"]; s.StartLine != 6 || s.EndLine != 6 || s.Replacement != "\treturn p.Sum(1, 2, 0)" {
		t.Errorf("F: %+v", s)
	}
	// G: two lines replace one: lines 10..10
	if s := got["a/a.go func G"]; s.StartLine != 10 || s.EndLine != 10 || s.Replacement != "\tn, _ := strconv.Atoi(\"1\")\n\treturn p.New() * n" {
		t.Errorf("G: %+v", s)
	}
	// H: a pure insertion after line 3 replaces line 3 by itself and the
	// new line
	if s := got["b/b.go func H"]; s.StartLine != 3 || s.EndLine != 3 || s.Replacement != "func H() int {\n\t// G's result is checked now" {
		t.Errorf("H: %+v", s)
	}
	if s := got["b/b.go func K"]; s.StartLine != 8 || s.Replacement != "\treturn 3" || s.Method != "model" {
		t.Errorf("K: %+v", s)
	}
	// nothing outside the diff's hunks
	none := plan.Suggestions(func(string, int, int) bool { return false })
	if len(none) != 0 {
		t.Errorf("suggestions outside the diff: %+v", none)
	}
}

// TestUnsplit: a fix that adds a file cannot be cut into hunks; it is
// one commit whose tree is the proven state.
func TestUnsplit(t *testing.T) {
	f := setup(t)
	ctx := context.Background()
	if err := os.WriteFile(filepath.Join(f.dir, "b", "new.go"), []byte("package b\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for p, src := range fixed {
		os.WriteFile(filepath.Join(f.dir, p), []byte(src), 0o644)
	}
	testrepo.Git(t, f.dir, "add", "-A")
	f.res.Patch = testrepo.Git(t, f.dir, "diff", "--cached", "--src-prefix=a/", "--dst-prefix=b/") + "\n"
	want := testrepo.Git(t, f.dir, "write-tree")
	testrepo.Git(t, f.dir, "reset", "-q", "--hard", f.res.Head)
	plan, err := Split(ctx, f.git, f.res, languages.Frontends())
	if err != nil {
		t.Fatal(err)
	}
	if plan.Unsplit != "the fix adds b/new.go" || len(plan.Groups) != 1 {
		t.Fatalf("unsplit %q, %d groups", plan.Unsplit, len(plan.Groups))
	}
	commits, err := plan.Commit(ctx, f.git, DefaultAuthor, nil)
	if err != nil {
		t.Fatal(err)
	}
	if tree := testrepo.Git(t, f.dir, "rev-parse", commits[0].SHA+"^{tree}"); len(commits) != 1 || tree != want {
		t.Errorf("%d commits, tree %s, want 1 with %s", len(commits), tree, want)
	}
	if !strings.HasPrefix(commits[0].Message, "ripple: follow 2 changes\n\n- a/a.go func F:") {
		t.Errorf("message:\n%s", commits[0].Message)
	}
	if len(plan.Suggestions(func(string, int, int) bool { return true })) != 0 {
		t.Errorf("an unsplit fix makes no suggestions")
	}
}

func TestSplitRefusesABadPatch(t *testing.T) {
	f := setup(t)
	f.res.Patch = "diff --git a/a/a.go b/a/a.go\n--- a/a/a.go\n+++ b/a/a.go\n@@ -1,1 +1,1 @@\n-package nope\n+package a\n"
	if _, err := Split(context.Background(), f.git, f.res, languages.Frontends()); err == nil || !strings.Contains(err.Error(), "does not apply") {
		t.Errorf("err = %v, want the patch does not apply", err)
	}
	f.res.Patch = ""
	if _, err := Split(context.Background(), f.git, f.res, languages.Frontends()); err == nil {
		t.Errorf("an empty patch split")
	}
}

func TestParseHunks(t *testing.T) {
	diff := "diff --git a/x b/x\nindex 1..2 100644\n--- a/x\n+++ b/x\n" +
		"@@ -2 +2,2 @@ func\n-old\n+new1\n+new2\n" +
		"@@ -5,0 +7 @@\n+inserted\n" +
		"@@ -9 +11 @@\n-last\n\\ No newline at end of file\n+last!\n\\ No newline at end of file\n"
	hs, bin, err := parseHunks("x", diff)
	if err != nil || bin || len(hs) != 3 {
		t.Fatalf("%d hunks, binary %v, err %v", len(hs), bin, err)
	}
	if h := hs[0]; h.oldStart != 2 || h.oldCount != 1 || strings.Join(h.new, "") != "new1\nnew2\n" {
		t.Errorf("hunk 1: %+v", h)
	}
	if h := hs[1]; h.oldStart != 5 || h.oldCount != 0 || strings.Join(h.new, "") != "inserted\n" {
		t.Errorf("hunk 2: %+v", h)
	}
	if h := hs[2]; h.oldStart != 9 || h.oldCount != 1 || strings.Join(h.new, "") != "last!" {
		t.Errorf("hunk 3: %+v", h)
	}
	lines := splitLines("1\n2\n3\n4\n5\n6\n7\n8\nlast")
	if got := strings.Join(apply(lines, hs, 0), ""); got != "1\nnew1\nnew2\n3\n4\n5\ninserted\n6\n7\n8\nlast!" {
		t.Errorf("apply: %q", got)
	}
	if _, _, err := parseHunks("x", "@@ -1,2 +1 @@\n-a\n"); err == nil {
		t.Errorf("a short hunk parsed")
	}
	if _, bin, _ := parseHunks("x", "diff --git a/x b/x\nBinary files a/x and b/x differ\n"); !bin {
		t.Errorf("binary not seen")
	}
}

// TestPush: a fast-forward goes through; a branch that moved on is
// MovedOn; a refusal by the remote says what the remote said.
func TestPush(t *testing.T) {
	testrepo.Hermetic(t)
	ctx := context.Background()
	dir := t.TempDir()
	remote := filepath.Join(t.TempDir(), "remote.git")
	testrepo.Init(t, dir)
	testrepo.WriteFiles(t, dir, map[string]string{"f": "1\n"})
	c1 := testrepo.CommitAll(t, dir, "one")
	testrepo.Git(t, dir, "init", "-q", "--bare", remote)
	testrepo.Git(t, dir, "push", "-q", remote, "HEAD:refs/heads/feature")
	testrepo.WriteFiles(t, dir, map[string]string{"f": "2\n"})
	c2 := testrepo.CommitAll(t, dir, "two")
	g := &Git{Dir: dir}

	if sha, err := RemoteHead(ctx, g, remote, "feature"); err != nil || sha != c1 {
		t.Fatalf("RemoteHead = %q, %v; want %s", sha, err, c1)
	}
	if sha, err := RemoteHead(ctx, g, remote, "nope"); err != nil || sha != "" {
		t.Errorf("RemoteHead of a missing branch = %q, %v", sha, err)
	}
	if err := PushBranch(ctx, g, remote, c2, "feature"); err != nil {
		t.Fatal(err)
	}
	// c1 is behind: the remote refuses a non-fast-forward
	err := PushBranch(ctx, g, remote, c1, "feature")
	pe, ok := err.(*PushError)
	if !ok || !pe.MovedOn {
		t.Errorf("non-fast-forward: %v (%T), want MovedOn", err, err)
	}
	// Ripple's own branch: created when absent, replaced only when as seen
	if err := PushOwn(ctx, g, remote, c1, "ripple/fix/1", ""); err != nil {
		t.Fatal(err)
	}
	if err := PushOwn(ctx, g, remote, c2, "ripple/fix/1", c1); err != nil {
		t.Fatal(err)
	}
	if err := PushOwn(ctx, g, remote, c1, "ripple/fix/1", c1); err == nil {
		t.Errorf("a stale lease pushed")
	}
	// a protected branch
	hook := filepath.Join(remote, "hooks", "pre-receive")
	if err := os.WriteFile(hook, []byte("#!/bin/sh\necho 'error: GH006: Protected branch update failed.' >&2\nexit 1\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	testrepo.WriteFiles(t, dir, map[string]string{"f": "3\n"})
	c3 := testrepo.CommitAll(t, dir, "three")
	err = PushBranch(ctx, g, remote, c3, "feature")
	pe, ok = err.(*PushError)
	if !ok || pe.MovedOn || !strings.Contains(pe.Reason, "GH006: Protected branch update failed.") || !strings.Contains(pe.Reason, "[remote rejected]") {
		t.Errorf("refused push: %v (%T)", err, err)
	}
}

func TestAuthorAndScrub(t *testing.T) {
	a, err := ParseAuthor("Ripple Bot <bot@example.com>")
	if err != nil || a.Name != "Ripple Bot" || a.Email != "bot@example.com" {
		t.Errorf("ParseAuthor = %+v, %v", a, err)
	}
	// the input's default, as action.yml passes it: the brackets of a
	// bot's name are git's, unquoted
	if a, err := ParseAuthor(DefaultAuthor.String()); err != nil || a != DefaultAuthor {
		t.Errorf("ParseAuthor(the default) = %+v, %v", a, err)
	}
	if a, _ := ParseAuthor(" "); a != DefaultAuthor {
		t.Errorf("empty author = %+v", a)
	}
	for _, bad := range []string{"bot@example.com", "Bot <not an address>", "Bot"} {
		if _, err := ParseAuthor(bad); err == nil {
			t.Errorf("ParseAuthor(%q) accepted", bad)
		}
	}
	if s := Scrub("fatal: unable to access 'https://x-access-token:ghs_SECRET@github.com/o/r/': 403"); strings.Contains(s, "SECRET") {
		t.Errorf("Scrub left the token: %s", s)
	}
}

// TestSplitNewDeclaration: a declaration the fix appended goes into the
// commit of the seed change that uses it, not into a trailing one.
func TestSplitNewDeclaration(t *testing.T) {
	testrepo.Hermetic(t)
	sc := testrepo.FromTxtar(t, txtar.Parse([]byte(`
-- old/go.mod --
module example.com/m

go 1.22
-- old/p/p.go --
package p

func Scale(x int) int { return 2 * x }
-- new/p/p.go --
package p

func Scale(x int) int { return clamp(2 * x) }
`)))
	file := filepath.Join(sc.Dir, "p", "p.go")
	src, _ := os.ReadFile(file)
	os.WriteFile(file, append(src, []byte("\nfunc clamp(x int) int { return min(x, 9) }\n")...), 0o644)
	patch := testrepo.Git(t, sc.Dir, "diff", "--src-prefix=a/", "--dst-prefix=b/") + "\n"
	testrepo.Git(t, sc.Dir, "checkout", "-q", "--", ".")
	scale := &model.Change{Label: model.MMB, New: &model.Block{Path: "p/p.go", Display: "func Scale"}, Details: []string{"body changed"}}
	res := &fix.Result{Base: sc.Base, Head: sc.Head, Proven: true, Patch: patch,
		Seed: &model.Result{Changes: []*model.Change{scale}},
		Obligations: []*fix.Obligation{{ID: 1, Path: "p/p.go", Block: "new clamp", Declare: "clamp", Status: fix.Done, Method: "model",
			Reasons: []fix.Reason{{Message: "build: undefined: clamp", Line: 3, Change: scale, Must: true,
				Oracle: &oracle.Diagnostic{Path: "p/p.go", Line: 3, Tool: "build", Message: "undefined: clamp"}}}}},
	}
	g := &Git{Dir: sc.Dir}
	plan, err := Split(context.Background(), g, res, languages.Frontends())
	if err != nil {
		t.Fatal(err)
	}
	if len(plan.Groups) != 1 || plan.Groups[0].Seed != scale {
		var titles []string
		for _, g := range plan.Groups {
			titles = append(titles, g.Title)
		}
		t.Fatalf("groups %q, want only the one of func Scale", titles)
	}
	commits, err := plan.Commit(context.Background(), g, DefaultAuthor, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(commits) != 1 || !strings.Contains(commits[0].Message, "- p/p.go new clamp: the oracle: p/p.go:3: build: undefined: clamp (model)") {
		t.Errorf("commits %+v", commits)
	}
}

// TestSectionModelUnreachable: the summary says the model endpoint could
// not be reached (the engine stopped asking it), naming URL and cause.
func TestSectionModelUnreachable(t *testing.T) {
	res := &fix.Result{Mechanical: 1, ModelUnreachable: "model endpoint http://127.0.0.1:9/v1 unreachable: connection refused"}
	got := Section(res, &Outcome{State: Unproven, Model: "model m at http://127.0.0.1:9/v1"}, findings.Links{})
	if want := "1 block edited mechanically, 0 blocks by the model; the model endpoint http://127.0.0.1:9/v1 unreachable: connection refused, so only mechanical fixes were made."; !strings.Contains(got, want) {
		t.Errorf("section lacks\n%s\nin\n%s", want, got)
	}
}
