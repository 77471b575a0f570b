package hookinstall

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/ripple-dev/ripple/internal/gitio"
)

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
		"GIT_OBJECT_DIRECTORY", "GIT_ALTERNATE_OBJECT_DIRECTORIES", "GIT_NAMESPACE", "GIT_PREFIX", "RIPPLE_BIN"} {
		t.Setenv(k, "")
		os.Unsetenv(k)
	}
}

// git runs git in dir and fails the test if it fails.
func git(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %s in %s: %v\n%s", strings.Join(args, " "), dir, err, out)
	}
	return strings.TrimSpace(string(out))
}

// newRepo makes a repository with one commit on main and opens it.
func newRepo(t *testing.T) *gitio.Repo {
	t.Helper()
	hermetic(t)
	dir := filepath.Join(t.TempDir(), "repo")
	git(t, "/", "init", "-q", "-b", "main", dir)
	git(t, dir, "commit", "-q", "--allow-empty", "-m", "c1")
	return open(t, dir)
}

func open(t *testing.T, dir string) *gitio.Repo {
	t.Helper()
	r, err := gitio.Open(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close() })
	return r
}

// writeExec writes an executable sh script.
func writeExec(t *testing.T, path, body string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte("#!/bin/sh\n"+body), 0o755); err != nil {
		t.Fatal(err)
	}
}

// recorder writes a script at path that saves its arguments (one a line)
// to path.args and its standard input to path.stdin, then exits status.
func recorder(t *testing.T, path string, status int) {
	t.Helper()
	writeExec(t, path, "for a in \"$@\"; do printf '%s\\n' \"$a\"; done > "+shQuote(path+".args")+"\n"+
		"cat > "+shQuote(path+".stdin")+"\n"+
		"echo \"recorder $0 exits "+strconv.Itoa(status)+"\" >&2\n"+
		"exit "+strconv.Itoa(status)+"\n")
}

// recorded returns what a recorder saved; ran is false if it did not run.
func recorded(t *testing.T, path string) (args, stdin string, ran bool) {
	t.Helper()
	a, err := os.ReadFile(path + ".args")
	if errors.Is(err, os.ErrNotExist) {
		return "", "", false
	}
	if err != nil {
		t.Fatal(err)
	}
	in, err := os.ReadFile(path + ".stdin")
	if err != nil {
		t.Fatal(err)
	}
	return string(a), string(in), true
}

// runHook runs the hook script with sh as git would, with extra
// environment variables, and returns its exit status and stderr.
func runHook(t *testing.T, hook, stdin string, env []string, args ...string) (int, string) {
	t.Helper()
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip("no sh")
	}
	cmd := exec.Command(sh, append([]string{hook}, args...)...)
	cmd.Dir = t.TempDir()
	cmd.Env = append(os.Environ(), env...)
	cmd.Stdin = strings.NewReader(stdin)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	err = cmd.Run()
	var ee *exec.ExitError
	switch {
	case err == nil:
		return 0, stderr.String()
	case errors.As(err, &ee):
		return ee.ExitCode(), stderr.String()
	}
	t.Fatalf("run %s: %v", hook, err)
	return 0, ""
}

// toolsPath returns a PATH with only the commands the hook needs, so that
// no `hook` command of the machine is found.
func toolsPath(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	for _, tool := range []string{"sh", "mktemp", "cat", "rm"} {
		p, err := exec.LookPath(tool)
		if err != nil {
			t.Skipf("no %s on PATH", tool)
		}
		if err := os.Symlink(p, filepath.Join(dir, tool)); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}
