package event

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ripple-dev/ripple/internal/gitio"
	"github.com/ripple-dev/ripple/internal/testrepo"
)

func TestParse(t *testing.T) {
	sha := strings.Repeat("a", 40)
	other := strings.Repeat("b", 40)
	pr := fmt.Sprintf(`{"pull_request":{"number":3,"user":{"login":"dependabot[bot]"},"head":{"sha":%q,"repo":{"full_name":"octo/demo"}},"base":{"sha":%q,"ref":"main","repo":{"full_name":"octo/demo","default_branch":"trunk"}}},"sender":{"login":"dependabot[bot]"}}`, sha, other)
	ev, err := Parse("pull_request", []byte(pr))
	if err != nil {
		t.Fatal(err)
	}
	if ev.PR.Number != 3 || ev.PR.HeadSHA != sha || ev.DefaultBranch != "trunk" || ev.PR.FromFork() {
		t.Errorf("parsed %+v %+v", ev, ev.PR)
	}
	if why := ev.ReadOnlyReason(); !strings.Contains(why, "Dependabot") {
		t.Errorf("a Dependabot pull request has a read-only token; got %q", why)
	}
	fork := strings.Replace(pr, `"repo":{"full_name":"octo/demo"}`, `"repo":null`, 1)
	ev, err = Parse("pull_request", []byte(fork))
	if err != nil {
		t.Fatal(err)
	}
	if !ev.PR.FromFork() || !strings.Contains(ev.ReadOnlyReason(), "a deleted repository") {
		t.Errorf("a pull request from a deleted fork: %q", ev.ReadOnlyReason())
	}
	ev, _ = Parse("pull_request_target", []byte(pr))
	if ev.ReadOnlyReason() != "" {
		t.Error("pull_request_target runs with the base repository's token")
	}

	for _, c := range []struct{ name, payload, want string }{
		{"issues", `{}`, `unsupported event "issues"`},
		{"pull_request", `{`, "not valid JSON"},
		{"pull_request", `{}`, "has no pull_request object"},
		{"pull_request", `{"pull_request":{"number":1,"head":{"sha":"x"},"base":{"sha":"y"}}}`, "lacks pull_request.head.sha"},
		{"push", `{"before":"x"}`, "lacks before or after"},
		{"workflow_run", `{}`, "lacks workflow_run.head_sha"},
	} {
		if _, err := Parse(c.name, []byte(c.payload)); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Parse(%s, %s) = %v, want an error saying %q", c.name, c.payload, err, c.want)
		}
	}
}

func TestFromEnv(t *testing.T) {
	env := map[string]string{}
	get := func(k string) string { return env[k] }
	if _, err := FromEnv(get); err == nil || !strings.Contains(err.Error(), "GITHUB_EVENT_NAME is not set") {
		t.Errorf("no event name: %v", err)
	}
	env["GITHUB_EVENT_NAME"] = "push"
	if _, err := FromEnv(get); err == nil || !strings.Contains(err.Error(), "GITHUB_EVENT_PATH is not set") {
		t.Errorf("no event path: %v", err)
	}
	p := filepath.Join(t.TempDir(), "event.json")
	sha := strings.Repeat("c", 40)
	if err := os.WriteFile(p, []byte(fmt.Sprintf(`{"before":%q,"after":%q}`, sha, sha)), 0o644); err != nil {
		t.Fatal(err)
	}
	env["GITHUB_EVENT_PATH"] = p
	if _, err := FromEnv(get); err == nil || !strings.Contains(err.Error(), "GITHUB_REPOSITORY is not set") {
		t.Errorf("no repository: %v", err)
	}
	env["GITHUB_REPOSITORY"] = "octo/demo"
	env["GITHUB_SHA"] = sha
	ev, err := FromEnv(get)
	if err != nil || ev.Repo != "octo/demo" || ev.Push.After != sha || ev.SHA != sha {
		t.Fatalf("FromEnv: %+v, %v", ev, err)
	}
}

// makeHistory makes origin.git: main with n commits after the fork
// point of branch feature, which has 2 commits of its own (written with
// one git fast-import: a commit per exec is slow).
func makeHistory(t *testing.T, n int) (dir, base, mainTip, head string) {
	testrepo.Hermetic(t)
	dir = t.TempDir()
	work := filepath.Join(dir, "work")
	testrepo.Init(t, work)
	var b strings.Builder
	mark := 0
	commit := func(branch, file, content string, from int) int {
		mark++
		fmt.Fprintf(&b, "commit refs/heads/%s\nmark :%d\ncommitter T <t@example.invalid> %d +0000\ndata 1\nc\n", branch, mark, 1700000000+mark)
		if from > 0 {
			fmt.Fprintf(&b, "from :%d\n", from)
		}
		fmt.Fprintf(&b, "M 644 inline %s\ndata %d\n%s\n", file, len(content), content)
		return mark
	}
	forkMark := commit("main", "f", "0", 0)
	prev := forkMark
	for i := range 2 {
		prev = commit("feature", "g", fmt.Sprint(i), prev)
	}
	prev = forkMark
	for i := range n {
		prev = commit("main", "f", fmt.Sprint(i+1), prev)
	}
	cmd := exec.Command("git", "fast-import", "--quiet")
	cmd.Dir = work
	cmd.Stdin = strings.NewReader(b.String())
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git fast-import: %v\n%s", err, out)
	}
	base = testrepo.Git(t, work, "rev-parse", "main~"+fmt.Sprint(n))
	mainTip = testrepo.Git(t, work, "rev-parse", "main")
	head = testrepo.Git(t, work, "rev-parse", "feature")
	testrepo.Git(t, work, "checkout", "-q", "-f", "main")
	testrepo.Git(t, dir, "clone", "-q", "--bare", work, "origin.git")
	return dir, base, mainTip, head
}

func open(t *testing.T, dir string) *gitio.Repo {
	r, err := gitio.Open(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close() })
	return r
}

func prEvent(base, head string) *Event {
	return &Event{Name: "pull_request", Repo: "octo/demo", DefaultBranch: "main",
		PR: &PullRequest{Number: 1, BaseSHA: base, HeadSHA: head, BaseRef: "main", BaseRepo: "octo/demo", HeadRepo: "octo/demo"}}
}

func TestPlanDeepensShallowClone(t *testing.T) {
	dir, fork, mainTip, head := makeHistory(t, 120)
	clone := filepath.Join(dir, "clone")
	testrepo.Git(t, dir, "clone", "-q", "--depth", "1", "--branch", "feature", "file://"+filepath.Join(dir, "origin.git"), clone)
	ctx := context.Background()

	var fetched []string
	rg, err := Plan(ctx, open(t, clone), prEvent(mainTip, head), Options{Deepen: true, Log: func(s string) { fetched = append(fetched, s) }})
	if err != nil {
		t.Fatal(err)
	}
	if rg.Base != fork || rg.Head != head {
		t.Errorf("range %s..%s, want the fork point %s..%s", rg.Base, rg.Head, fork, head)
	}
	// the base tip is fetched (depth 50), then deepened until the fork
	// point, 120 commits down main, appears: 50 + 150
	want := []string{
		"git fetch --no-tags --no-recurse-submodules --depth=50 origin " + mainTip,
		"git fetch --no-tags --no-recurse-submodules --deepen=50 origin " + mainTip + " " + head,
		"git fetch --no-tags --no-recurse-submodules --deepen=150 origin " + mainTip + " " + head,
	}
	if strings.Join(fetched, "\n") != strings.Join(want, "\n") {
		t.Errorf("fetched:\n%s\nwant:\n%s", strings.Join(fetched, "\n"), strings.Join(want, "\n"))
	}
}

func TestPlanWithoutDeepen(t *testing.T) {
	dir, _, mainTip, head := makeHistory(t, 3)
	clone := filepath.Join(dir, "clone")
	testrepo.Git(t, dir, "clone", "-q", "--depth", "1", "--branch", "feature", "file://"+filepath.Join(dir, "origin.git"), clone)
	_, err := Plan(context.Background(), open(t, clone), prEvent(mainTip, head), Options{})
	if err == nil || !strings.Contains(err.Error(), "set `fetch-depth: 0` on actions/checkout") || !strings.Contains(err.Error(), "git fetch --no-tags --no-recurse-submodules --depth=50 origin "+mainTip) {
		t.Fatalf("err = %v", err)
	}
	// no remote at all: the fetch fails and the error names the fix
	testrepo.Git(t, clone, "remote", "remove", "origin")
	_, err = Plan(context.Background(), open(t, clone), prEvent(mainTip, head), Options{Deepen: true})
	if err == nil || !strings.Contains(err.Error(), "fetching it failed") || !strings.Contains(err.Error(), "fetch-depth: 0") {
		t.Fatalf("err = %v", err)
	}
}

func TestPlanPush(t *testing.T) {
	dir, fork, mainTip, head := makeHistory(t, 2)
	work := filepath.Join(dir, "work")
	ctx := context.Background()
	repo := open(t, work)
	ev := &Event{Name: "push", Repo: "octo/demo", DefaultBranch: "main"}

	ev.Push = &Push{Ref: "refs/heads/main", Before: fork, After: mainTip}
	rg, err := Plan(ctx, repo, ev, Options{})
	if err != nil || rg.Base != fork || rg.Head != mainTip {
		t.Fatalf("update: %+v %v", rg, err)
	}
	// a force push from the feature branch to main's history
	ev.Push = &Push{Ref: "refs/heads/feature", Before: head, After: mainTip, Forced: true}
	rg, err = Plan(ctx, repo, ev, Options{})
	if err != nil || rg.Base != fork || !strings.HasPrefix(rg.Why, "force push") {
		t.Fatalf("force push: %+v %v", rg, err)
	}
	ev.Push = &Push{Ref: "refs/heads/gone", Before: head, After: gitio.ZeroSHA, Deleted: true}
	if rg, err = Plan(ctx, repo, ev, Options{}); err != nil || rg.Nothing == "" {
		t.Fatalf("deleted: %+v %v", rg, err)
	}
	// a new branch without origin/main: compare with its parent when it
	// is the default branch, else fail saying what is missing
	ev.Push = &Push{Ref: "refs/heads/main", Before: gitio.ZeroSHA, After: mainTip, Created: true}
	if rg, err = Plan(ctx, repo, ev, Options{}); err != nil || rg.Head != mainTip || rg.Base == "" {
		t.Fatalf("new default branch: %+v %v", rg, err)
	}
	ev.Push = &Push{Ref: "refs/heads/feature", Before: gitio.ZeroSHA, After: head, Created: true}
	if _, err = Plan(ctx, repo, ev, Options{}); err == nil || !strings.Contains(err.Error(), "the default branch main is not in this clone") {
		t.Fatalf("new branch: %v", err)
	}
	// with deepen it fetches origin's main (here: the work tree itself
	// is origin's source, so add the remote)
	testrepo.Git(t, work, "remote", "add", "origin", filepath.Join(dir, "origin.git"))
	rg, err = Plan(ctx, repo, ev, Options{Deepen: true})
	if err != nil || rg.Base != fork {
		t.Fatalf("new branch with deepen: %+v %v", rg, err)
	}
}
