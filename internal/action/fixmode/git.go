package fixmode

import (
	"context"
	"errors"
	"fmt"
	"os"
	"regexp"
	"strings"

	"github.com/ripple-dev/ripple/internal/gitio"
)

// Git runs git in one repository with extra environment variables (a
// temporary index, the commit identity). Output is never coloured,
// paths never quoted, no pager, no prompt for credentials.
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

// gitNoHooks keeps a repository's hooks out of the commands fix mode runs.
var gitNoHooks = []string{"-c", "core.hooksPath=" + os.DevNull}

// Run runs git with args and returns its standard output.
func (g *Git) Run(ctx context.Context, args ...string) (string, error) {
	return g.RunIn(ctx, nil, args...)
}

// RunIn is Run with standard input. It runs through internal/gitio's
// runner, with the hooks switched off and the failure's output scrubbed
// of credentials.
func (g *Git) RunIn(ctx context.Context, stdin []byte, args ...string) (string, error) {
	out, err := gitio.Run(ctx, g.Dir, g.Env, stdin, append(append([]string{}, gitNoHooks...), args...)...)
	var ee *gitio.ExitError
	if errors.As(err, &ee) {
		return string(out), &GitError{Args: args, Code: ee.Code, Stderr: Scrub(ee.Stderr + string(out))}
	}
	if err != nil {
		return "", err
	}
	return string(out), nil
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
