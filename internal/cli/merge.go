package cli

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/ripple-dev/ripple/internal/check"
	"github.com/ripple-dev/ripple/internal/gitio"
	"github.com/ripple-dev/ripple/internal/model"
)

// StaleAfter is how old a remote-tracking ref may be before a merge
// check against it says so.
const StaleAfter = 7 * 24 * time.Hour

// mergeRun is one merge check the CLI runs beside an ordinary check.
type mergeRun struct {
	sess *check.Session
	repo *gitio.Repo // the session's (staleness alone needs no session)
	// ref is the branch to merge with as the user named it; "" = the
	// default branch of remote (origin/HEAD).
	ref, remote string
	head        string // the head commit
	now         func() time.Time
}

// run runs the merge check and adds its findings (or why it did not
// run) to res. stale is one line to show when the branch merged with is
// a remote-tracking ref not updated for StaleAfter ("" otherwise). An
// error is a branch the user named that does not resolve, or a failure
// of git.
func (m *mergeRun) run(ctx context.Context, res *model.Result) (stale string, err error) {
	if m.repo == nil {
		m.repo = m.sess.Repo
	}
	ref := m.ref
	if ref == "" {
		remote := m.remote
		if remote == "" || strings.ContainsAny(remote, "/:") { // a URL: no tracking refs of its own
			remote = "origin"
		}
		def := m.repo.DefaultBranch(ctx, remote)
		if def == "" {
			res.PrecisionNotes = append(res.PrecisionNotes, fmt.Sprintf("merge check: no default branch of %s (%s/HEAD, main or master) to merge with; name one with -merge REF", remote, remote))
			return "", nil
		}
		ref = strings.TrimPrefix(strings.TrimPrefix(def, "refs/remotes/"), "refs/heads/")
	}
	stale = m.staleness(ctx, ref)
	return stale, m.sess.Merge(ctx, res, check.MergeOptions{Ref: ref, Head: m.head, Now: m.now})
}

// staleness says when ref is a remote-tracking ref last updated more
// than StaleAfter ago: the merge check sees the branch as this clone
// last fetched it.
func (m *mergeRun) staleness(ctx context.Context, ref string) string {
	if strings.HasPrefix(ref, "-") {
		return ""
	}
	out, err := m.repo.Git(ctx, "rev-parse", "--symbolic-full-name", ref)
	full := strings.TrimSpace(string(out))
	if err != nil || !strings.HasPrefix(full, "refs/remotes/") {
		return ""
	}
	when, ok := m.repo.RefUpdated(ctx, full)
	if !ok {
		return ""
	}
	now := time.Now
	if m.now != nil {
		now = m.now
	}
	age := now().Sub(when)
	if age < StaleAfter {
		return ""
	}
	remote, _, _ := strings.Cut(strings.TrimPrefix(full, "refs/remotes/"), "/")
	return fmt.Sprintf("ripple: merge check: %s was last updated %d days ago (%s); `git fetch %s` to check against what it holds now",
		ref, int(age.Hours()/24), when.UTC().Format("2006-01-02"), remote)
}
