package prepush

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ripple-dev/ripple/internal/gitio"
)

// fixture is a local repository with a bare remote named origin, driven
// by the git CLI with a hermetic configuration.
type fixture struct {
	t      *testing.T
	root   string // parent of local, remote and other clones
	local  string
	remote string
	tick   int // commit dates advance one minute per commit
}

// hermetic isolates git from the user's and the system's configuration
// and from a surrounding hook's environment.
func hermetic(t *testing.T) {
	t.Helper()
	home := t.TempDir()
	for k, v := range map[string]string{
		"GIT_CONFIG_NOSYSTEM": "1",
		"GIT_CONFIG_GLOBAL":   os.DevNull,
		"HOME":                home,
		"XDG_CONFIG_HOME":     home,
		"GIT_AUTHOR_NAME":     "Ripple Test",
		"GIT_AUTHOR_EMAIL":    "test@ripple.invalid",
		"GIT_COMMITTER_NAME":  "Ripple Test",
		"GIT_COMMITTER_EMAIL": "test@ripple.invalid",
		"GIT_AUTHOR_DATE":     "@1700000000 +0000",
		"GIT_COMMITTER_DATE":  "@1700000000 +0000",
		"GIT_TERMINAL_PROMPT": "0",
	} {
		t.Setenv(k, v)
	}
	for _, k := range []string{"GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE", "GIT_COMMON_DIR",
		"GIT_OBJECT_DIRECTORY", "GIT_ALTERNATE_OBJECT_DIRECTORIES", "GIT_NAMESPACE", "GIT_PREFIX"} {
		t.Setenv(k, "")
		os.Unsetenv(k)
	}
}

// newFixture makes local (branch main, remote origin) and an empty bare
// remote.
func newFixture(t *testing.T) *fixture {
	t.Helper()
	hermetic(t)
	root := t.TempDir()
	f := &fixture{t: t, root: root, local: filepath.Join(root, "local"), remote: filepath.Join(root, "remote.git")}
	f.git(root, "init", "-q", "--bare", "-b", "main", f.remote)
	f.git(root, "init", "-q", "-b", "main", f.local)
	f.git(f.local, "remote", "add", "origin", f.remote)
	return f
}

// run runs git in dir and returns its trimmed output and error.
func (f *fixture) run(dir string, args ...string) (string, error) {
	f.t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	date := fmt.Sprintf("@%d +0000", 1700000000+60*f.tick)
	cmd.Env = append(os.Environ(), "GIT_AUTHOR_DATE="+date, "GIT_COMMITTER_DATE="+date)
	out, err := cmd.CombinedOutput()
	if err != nil {
		return string(out), fmt.Errorf("git %s in %s: %v\n%s", strings.Join(args, " "), dir, err, out)
	}
	return strings.TrimSpace(string(out)), nil
}

// git runs git in dir and fails the test if it fails.
func (f *fixture) git(dir string, args ...string) string {
	f.t.Helper()
	out, err := f.run(dir, args...)
	if err != nil {
		f.t.Fatal(err)
	}
	return out
}

// lgit runs git in the local repository.
func (f *fixture) lgit(args ...string) string {
	f.t.Helper()
	return f.git(f.local, args...)
}

// commitIn adds a commit writing name.txt in dir and returns its sha.
func (f *fixture) commitIn(dir, name string) string {
	f.t.Helper()
	f.tick++
	if err := os.WriteFile(filepath.Join(dir, name+".txt"), []byte(name+"\n"), 0o644); err != nil {
		f.t.Fatal(err)
	}
	f.git(dir, "add", name+".txt")
	f.git(dir, "commit", "-q", "-m", name)
	return f.git(dir, "rev-parse", "HEAD")
}

func (f *fixture) commit(name string) string {
	f.t.Helper()
	return f.commitIn(f.local, name)
}

// push pushes from local without running hooks (setting the scene).
func (f *fixture) push(args ...string) {
	f.t.Helper()
	f.lgit(append([]string{"push", "-q", "--no-verify"}, args...)...)
}

// capture runs `git push args...` from local with a pre-push hook that
// records its first argument and its standard input and then refuses the
// push, so the repositories stay as they were when the hook ran. It
// returns the remote as git named it and the parsed updates.
func (f *fixture) capture(args ...string) (string, []Update) {
	f.t.Helper()
	dir := f.t.TempDir()
	hook := filepath.Join(f.local, ".git", "hooks", "pre-push")
	script := fmt.Sprintf("#!/bin/sh\nprintf '%%s' \"$1\" > %s\ncat > %s\nexit 1\n",
		shq(filepath.Join(dir, "remote")), shq(filepath.Join(dir, "stdin")))
	if err := os.MkdirAll(filepath.Dir(hook), 0o755); err != nil {
		f.t.Fatal(err)
	}
	if err := os.WriteFile(hook, []byte(script), 0o755); err != nil {
		f.t.Fatal(err)
	}
	defer os.Remove(hook)
	if out, err := f.run(f.local, append([]string{"push"}, args...)...); err == nil {
		f.t.Fatalf("git push %s: the recording hook did not stop it:\n%s", strings.Join(args, " "), out)
	}
	remote, err := os.ReadFile(filepath.Join(dir, "remote"))
	if err != nil {
		f.t.Fatalf("git push %s did not run the hook: %v", strings.Join(args, " "), err)
	}
	in, err := os.Open(filepath.Join(dir, "stdin"))
	if err != nil {
		f.t.Fatal(err)
	}
	defer in.Close()
	ups, err := Parse(in)
	if err != nil {
		f.t.Fatal(err)
	}
	return string(remote), ups
}

// plan opens local with gitio and plans the updates.
func (f *fixture) plan(remote string, ups []Update) ([]Range, []Skip, error) {
	f.t.Helper()
	ctx := context.Background()
	r, err := gitio.Open(ctx, f.local)
	if err != nil {
		f.t.Fatal(err)
	}
	defer r.Close()
	return Plan(ctx, r, remote, ups)
}

func shq(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

func short(sha string) string { return gitio.Short(sha) }
