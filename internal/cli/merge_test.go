package cli

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/ripple-dev/ripple/internal/gitio"
	"github.com/ripple-dev/ripple/internal/testrepo"
)

// TestStaleness: a remote-tracking branch written (its reflog's newest
// entry, dated by the hermetic 2026-01-01) less than StaleAfter ago is
// not stale; more than that, one line says since when; a local branch
// is never stale (the merge check sees what it holds now).
func TestStaleness(t *testing.T) {
	testrepo.Hermetic(t)
	dir := t.TempDir()
	testrepo.Init(t, dir)
	testrepo.CommitAll(t, dir, "one")
	testrepo.Git(t, dir, "update-ref", "refs/remotes/origin/main", "HEAD")
	ctx := context.Background()
	repo, err := gitio.Open(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	defer repo.Close()
	written := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	at := func(d time.Duration) func() time.Time { return func() time.Time { return written.Add(d) } }

	if s := (&mergeRun{repo: repo, now: at(2 * 24 * time.Hour)}).staleness(ctx, "origin/main"); s != "" {
		t.Errorf("2 days after the fetch: %q, want nothing", s)
	}
	s := (&mergeRun{repo: repo, now: at(19 * 24 * time.Hour)}).staleness(ctx, "origin/main")
	if !strings.Contains(s, "origin/main was last updated 19 days ago (2026-01-01)") || !strings.Contains(s, "git fetch origin") {
		t.Errorf("19 days after the fetch: %q", s)
	}
	if s := (&mergeRun{repo: repo, now: at(90 * 24 * time.Hour)}).staleness(ctx, "main"); s != "" {
		t.Errorf("a local branch: %q, want nothing", s)
	}
}
