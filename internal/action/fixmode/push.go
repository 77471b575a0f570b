package fixmode

import (
	"context"
	"errors"
	"fmt"
	"strings"
)

// PushError is a push git or the remote refused.
type PushError struct {
	// MovedOn: the branch is no longer at the commit the fix was made on
	// (someone pushed meanwhile); another run will see the new head.
	MovedOn bool
	Reason  string // what git or the remote said, credentials removed
}

func (e *PushError) Error() string { return e.Reason }

// RemoteHead is the commit branch points to on remote, "" when it does
// not exist there.
func RemoteHead(ctx context.Context, g *Git, remote, branch string) (string, error) {
	out, err := g.Run(ctx, "ls-remote", "--heads", remote, "refs/heads/"+branch)
	if err != nil {
		return "", fmt.Errorf("reading %s's branch %s: %w", remote, branch, err)
	}
	for _, l := range strings.Split(out, "\n") {
		sha, ref, ok := strings.Cut(strings.TrimSpace(l), "\t")
		if ok && ref == "refs/heads/"+branch {
			return sha, nil
		}
	}
	return "", nil
}

// PushBranch fast-forwards branch on remote to sha; it never forces.
// Local pre-push hooks do not run.
func PushBranch(ctx context.Context, g *Git, remote, sha, branch string) error {
	return push(ctx, g, remote, sha+":refs/heads/"+branch)
}

// PushOwn sets Ripple's own branch (ripple/fix/N) to sha, replacing what
// an earlier run put there, but only if it still is was ("" for a branch
// that must not exist yet).
func PushOwn(ctx context.Context, g *Git, remote, sha, branch, was string) error {
	return push(ctx, g, remote, "--force-with-lease=refs/heads/"+branch+":"+was, sha+":refs/heads/"+branch)
}

func push(ctx context.Context, g *Git, remote string, args ...string) error {
	out, err := g.Run(ctx, append([]string{"push", "--no-verify", "--porcelain", remote}, args...)...)
	if err == nil {
		return nil
	}
	var ge *GitError
	if !errors.As(err, &ge) {
		return &PushError{Reason: err.Error()}
	}
	text := ge.Stderr + "\n" + out
	return &PushError{
		MovedOn: strings.Contains(text, "non-fast-forward") || strings.Contains(text, "fetch first") || strings.Contains(text, "stale info"),
		Reason:  pushReason(text),
	}
}

// pushReason keeps what explains a refused push: the remote's messages,
// the rejection and git's fatal error.
func pushReason(text string) string {
	var keep []string
	for _, l := range strings.Split(text, "\n") {
		l = strings.TrimSpace(l)
		switch {
		case strings.HasPrefix(l, "remote:"):
			if s := strings.TrimSpace(strings.TrimPrefix(l, "remote:")); s != "" {
				keep = append(keep, s)
			}
		case strings.HasPrefix(l, "!"):
			if i := strings.Index(l, "["); i >= 0 {
				keep = append(keep, l[i:])
			}
		case strings.HasPrefix(l, "fatal:"), strings.HasPrefix(l, "error:"):
			keep = append(keep, l)
		}
	}
	if len(keep) == 0 {
		return oneLine(Scrub(text))
	}
	return oneLine(Scrub(strings.Join(keep, "\n")))
}
