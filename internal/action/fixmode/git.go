package fixmode

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"strings"
)

// Git runs git in one repository with extra environment variables (a
// temporary index, the commit identity), which internal/gitio's runner
// cannot set. Output is never coloured, paths never quoted, no pager,
// no prompt for credentials.
type Git struct {
	Dir string
	Env []string
}

// GitError is a git command that failed: its arguments, exit code and
// standard error (credentials in URLs removed).
type GitError struct {
	Args   []string
	Code   int
	Stderr string
}

func (e *GitError) Error() string {
	msg := strings.TrimSpace(e.Stderr)
	if msg == "" {
		msg = fmt.Sprintf("exit status %d", e.Code)
	}
	return fmt.Sprintf("git %s: %s", strings.Join(e.Args, " "), oneLine(msg))
}

var gitBaseArgs = []string{"-c", "core.quotePath=false", "-c", "color.ui=false", "-c", "diff.noprefix=false", "-c", "core.hooksPath=" + os.DevNull}

// Run runs git with args and returns its standard output.
func (g *Git) Run(ctx context.Context, args ...string) (string, error) {
	return g.RunIn(ctx, nil, args...)
}

// RunIn is Run with standard input.
func (g *Git) RunIn(ctx context.Context, stdin []byte, args ...string) (string, error) {
	cmd := exec.CommandContext(ctx, "git", append(append([]string{}, gitBaseArgs...), args...)...)
	cmd.Dir = g.Dir
	cmd.Env = append(os.Environ(), "LC_ALL=C", "GIT_TERMINAL_PROMPT=0", "GIT_PAGER=cat", "GIT_OPTIONAL_LOCKS=0")
	cmd.Env = append(cmd.Env, g.Env...)
	if stdin != nil {
		cmd.Stdin = bytes.NewReader(stdin)
	}
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	if err == nil {
		return stdout.String(), nil
	}
	if ctx.Err() != nil {
		return "", fmt.Errorf("git %s: %w", strings.Join(args, " "), ctx.Err())
	}
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		return stdout.String(), &GitError{Args: args, Code: ee.ExitCode(), Stderr: Scrub(stderr.String() + stdout.String())}
	}
	return "", fmt.Errorf("git %s: %w", strings.Join(args, " "), err)
}

// With returns a runner with more environment variables.
func (g *Git) With(env ...string) *Git {
	return &Git{Dir: g.Dir, Env: append(append([]string{}, g.Env...), env...)}
}

var credRE = regexp.MustCompile(`(https?://)[^/@\s]+@`)

// Scrub removes credentials from URLs in a message (a remote URL of the
// form https://x-access-token:TOKEN@github.com/...).
func Scrub(s string) string { return credRE.ReplaceAllString(s, "${1}***@") }

func oneLine(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	var keep []string
	for _, l := range lines {
		l = strings.TrimSpace(l)
		if l == "" || strings.HasPrefix(l, "hint:") || strings.HasPrefix(l, "To ") {
			continue
		}
		keep = append(keep, l)
	}
	s = strings.Join(keep, " / ")
	if len(s) > 600 {
		s = s[:600] + "…"
	}
	return s
}
