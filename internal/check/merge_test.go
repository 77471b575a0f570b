package check_test

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"

	"github.com/ripple-dev/ripple/internal/check"
	"github.com/ripple-dev/ripple/internal/config"
	"github.com/ripple-dev/ripple/internal/gitio"
	"github.com/ripple-dev/ripple/internal/testrepo"
)

// TestMergeScenarios runs every testdata/merge/*.txtar: base/ is the
// fork point, main/ what branch main did after it and branch/ what the
// branch (checked out) did, each a commit of a real repository (a file
// holding only DELETE is deleted). The ordinary check of the branch
// (merge-base..head) runs, then the merge check with main, and every
// reported finding of the two must be wanted by a comment line:
//
//	want: LEVEL PATH:LINE WHERE "REGEXP"
//
// WHERE is plain (a finding of the ordinary check), head (a finding of
// the merge check on the head's lines) or main (one on lines only main
// has, Site.Rev its tip); the message must match REGEXP. A line
// `skipped: REGEXP` wants the merge check skipped for that reason. In
// every scenario the repository's objects, refs, index and work tree
// must be as they were.
func TestMergeScenarios(t *testing.T) {
	files, err := filepath.Glob("testdata/merge/*.txtar")
	if err != nil || len(files) == 0 {
		t.Fatalf("no merge scenarios: %v", err)
	}
	testrepo.Hermetic(t)
	t.Setenv("RIPPLE_CACHE", t.TempDir())
	for _, file := range files {
		t.Run(strings.TrimSuffix(filepath.Base(file), ".txtar"), func(t *testing.T) {
			runMergeScenario(t, file)
		})
	}
}

var mergeWantRE = regexp.MustCompile(`^want:\s+(\w+)\s+(\S+):(\d+)\s+(plain|head|main)\s+"(.*)"\s*$`)

type mergeWant struct {
	level, path, where string
	line               int
	re                 *regexp.Regexp
	matched            bool
}

func runMergeScenario(t *testing.T, file string) {
	ar, err := txtar.ParseFile(file)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	testrepo.Init(t, dir)
	apply := func(prefix string) (n int) {
		for _, f := range ar.Files {
			name, ok := strings.CutPrefix(f.Name, prefix)
			if !ok {
				continue
			}
			n++
			if strings.TrimSpace(string(f.Data)) == "DELETE" {
				testrepo.Git(t, dir, "rm", "-q", name)
				continue
			}
			testrepo.WriteFiles(t, dir, map[string]string{name: string(f.Data)})
		}
		return n
	}
	apply("base/")
	testrepo.CommitAll(t, dir, "base")
	testrepo.Git(t, dir, "checkout", "-q", "-b", "feature")
	apply("branch/")
	head := testrepo.CommitAll(t, dir, "branch")
	testrepo.Git(t, dir, "checkout", "-q", "main")
	if apply("main/") > 0 { // else main has not moved since the fork
		testrepo.CommitAll(t, dir, "main")
	}
	testrepo.Git(t, dir, "checkout", "-q", "feature")

	var wants []*mergeWant
	var skipped *regexp.Regexp
	for _, l := range strings.Split(string(ar.Comment), "\n") {
		l = strings.TrimSpace(l)
		if rest, ok := strings.CutPrefix(l, "skipped:"); ok {
			skipped = regexp.MustCompile(strings.TrimSpace(rest))
			continue
		}
		if !strings.HasPrefix(l, "want:") {
			continue
		}
		m := mergeWantRE.FindStringSubmatch(l)
		if m == nil {
			t.Fatalf("malformed %q", l)
		}
		w := &mergeWant{level: m[1], path: m[2], where: m[4], re: regexp.MustCompile(m[5])}
		fmt.Sscan(m[3], &w.line)
		wants = append(wants, w)
	}

	before := repoState(t, dir)
	ctx := context.Background()
	repo, err := gitio.Open(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	defer repo.Close()
	cfg := config.Default()
	res, err := check.Run(ctx, repo, check.Options{Base: testrepo.Git(t, dir, "merge-base", "main", "feature"), Head: head, Config: cfg})
	if err != nil {
		t.Fatalf("check: %v", err)
	}
	mr, err := check.Merge(ctx, repo, check.MergeOptions{Ref: "main", Config: cfg})
	if err != nil {
		t.Fatalf("merge check: %v", err)
	}
	switch {
	case skipped != nil && !skipped.MatchString(mr.Skipped):
		t.Errorf("merge check skipped for %q, want %q", mr.Skipped, skipped)
	case skipped == nil && mr.Skipped != "":
		t.Errorf("merge check skipped: %s", mr.Skipped)
	}
	mr.Into(res)
	mainTip := testrepo.Git(t, dir, "rev-parse", "main")
	for _, f := range res.Findings {
		if f.Level.Rank() == 0 {
			continue
		}
		where := "plain"
		switch {
		case f.Merged != nil && f.Site.Rev == mainTip:
			where = "main"
		case f.Merged != nil && f.Site.Rev == "":
			where = "head"
		case f.Merged != nil:
			where = "rev " + f.Site.Rev
		}
		matched := false
		for _, w := range wants {
			if w.level == string(f.Level) && w.path == f.Site.Path && w.line == f.Site.Line && w.where == where && w.re.MatchString(f.Message) {
				w.matched, matched = true, true
			}
		}
		if !matched {
			t.Errorf("unexpected %s %s:%d %s %q (change %s)", f.Level, f.Site.Path, f.Site.Line, where, f.Message, f.Change.Summary())
		}
		if f.Merged != nil && (f.Change == nil || !strings.Contains(f.Message, "once merged with main: ")) {
			t.Errorf("%s:%d: a merge finding must name the branch and have a change: %q", f.Site.Path, f.Site.Line, f.Message)
		}
	}
	var missing []string
	for _, w := range wants {
		if !w.matched {
			missing = append(missing, fmt.Sprintf("no %s %s:%d %s %q", w.level, w.path, w.line, w.where, w.re))
		}
	}
	sort.Strings(missing)
	for _, m := range missing {
		t.Error(m)
	}
	if after := repoState(t, dir); after != before {
		t.Errorf("the merge check changed the repository:\nbefore:\n%s\nafter:\n%s", before, after)
	}
	if t.Failed() {
		for _, n := range res.PrecisionNotes {
			t.Logf("note: %s", n)
		}
		for _, d := range res.Diagnostics {
			t.Logf("diagnostic: %s", d)
		}
	}
}

// repoState is what a check must never change: the objects, the refs,
// the index and the work tree.
func repoState(t *testing.T, dir string) string {
	return strings.Join([]string{
		testrepo.Git(t, dir, "count-objects", "-v"),
		testrepo.Git(t, dir, "for-each-ref"),
		testrepo.Git(t, dir, "ls-files", "-s"),
		testrepo.Git(t, dir, "status", "--porcelain", "--untracked-files=all"),
	}, "\n")
}

// TestMergeNothingOrUnrelated: a head already in the branch merged with
// has nothing to merge (said, not an error); a branch with no history in
// common with the head is an error that says so.
func TestMergeNothingOrUnrelated(t *testing.T) {
	testrepo.Hermetic(t)
	dir := t.TempDir()
	testrepo.Init(t, dir)
	testrepo.WriteFiles(t, dir, map[string]string{"go.mod": "module m\n\ngo 1.22\n", "a.go": "package m\n\nfunc A() {}\n"})
	testrepo.CommitAll(t, dir, "base")
	testrepo.Git(t, dir, "checkout", "-q", "-b", "feature")
	testrepo.WriteFiles(t, dir, map[string]string{"b.go": "package m\n\nfunc B() { A() }\n"})
	testrepo.CommitAll(t, dir, "feature")
	testrepo.Git(t, dir, "checkout", "-q", "main")
	testrepo.Git(t, dir, "merge", "-q", "--ff-only", "feature")
	testrepo.WriteFiles(t, dir, map[string]string{"c.go": "package m\n\nfunc C() {}\n"})
	testrepo.CommitAll(t, dir, "main moves on")
	testrepo.Git(t, dir, "checkout", "-q", "--orphan", "lone")
	testrepo.CommitAll(t, dir, "unrelated")
	testrepo.Git(t, dir, "checkout", "-q", "feature")

	ctx := context.Background()
	repo, err := gitio.Open(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	defer repo.Close()
	mr, err := check.Merge(ctx, repo, check.MergeOptions{Ref: "main", Config: config.Default()})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(mr.Skipped, "the head is already in main (") {
		t.Errorf("skipped %q, want the head already in main", mr.Skipped)
	}
	_, err = check.Merge(ctx, repo, check.MergeOptions{Ref: "lone", Config: config.Default()})
	if !errors.Is(err, gitio.ErrUnrelated) || !strings.Contains(err.Error(), "merge check with lone") {
		t.Errorf("unrelated histories: %v", err)
	}
}
