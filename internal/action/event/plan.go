package event

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/ripple-dev/ripple/internal/gitio"
)

// Options tune Plan.
type Options struct {
	// Base and Head are revisions that override the event's range.
	Base, Head string
	// Deepen lets Plan fetch missing commits and history from Remote.
	Deepen bool
	// Remote is the remote to fetch from; "" means origin.
	Remote string
	// Log receives one line per fetch Plan runs.
	Log func(string)
}

// Range is what to check.
type Range struct {
	Base, Head string // full commit names
	// Why says how the range was chosen, for the summary.
	Why string
	// Nothing, when set, says why there is nothing to check (a deleted
	// branch); Base and Head are then empty.
	Nothing string
}

// MaxDeepen is the most history, in commits per fetched tip, that Plan
// fetches looking for a merge-base.
const MaxDeepen = 3200

// deepenSteps are the successive --deepen amounts; their sum stays
// within MaxDeepen.
var deepenSteps = []int{50, 150, 400, 1000, 1600}

// Plan decides the range to check for ev, fetching what a shallow clone
// lacks when o.Deepen is set.
func Plan(ctx context.Context, repo *gitio.Repo, ev *Event, o Options) (*Range, error) {
	h := &history{repo: repo, o: o}
	if h.o.Remote == "" {
		h.o.Remote = "origin"
	}
	rg, err := h.plan(ctx, ev)
	if err != nil {
		return nil, err
	}
	if rg.Nothing != "" {
		return rg, nil
	}
	if o.Head != "" {
		if rg.Head, err = repo.Resolve(ctx, o.Head); err != nil {
			return nil, fmt.Errorf("head input: %w", err)
		}
		rg.Why += "; head from the head input"
	}
	if o.Base != "" {
		if rg.Base, err = repo.Resolve(ctx, o.Base); err != nil {
			return nil, fmt.Errorf("base input: %w", err)
		}
		rg.Why += "; base from the base input"
	}
	return rg, nil
}

func (h *history) plan(ctx context.Context, ev *Event) (*Range, error) {
	switch {
	case ev.PR != nil:
		pr := ev.PR
		if h.o.Base != "" && h.o.Head != "" {
			return &Range{Why: "pull request #" + strconv.Itoa(pr.Number)}, nil
		}
		if err := h.need(ctx, commit{pr.HeadSHA, "the pull request's head"}, commit{pr.BaseSHA, "the pull request's base"}); err != nil {
			return nil, err
		}
		mb, err := h.mergeBase(ctx, pr.BaseSHA, pr.HeadSHA)
		if err != nil {
			return nil, err
		}
		return &Range{Base: mb, Head: pr.HeadSHA,
			Why: fmt.Sprintf("pull request #%d: head %s against its merge-base with %s", pr.Number, short(pr.HeadSHA), orSHA(pr.BaseRef, pr.BaseSHA))}, nil
	case ev.Push != nil:
		return h.push(ctx, ev)
	case ev.Name == "workflow_dispatch":
		head := ev.SHA
		if head == "" {
			head = "HEAD"
		}
		if h.o.Head != "" {
			head = h.o.Head
		}
		rg := &Range{Why: "workflow_dispatch"}
		sha, err := h.repo.Resolve(ctx, head)
		if err != nil {
			return nil, fmt.Errorf("workflow_dispatch: head: %w", err)
		}
		rg.Head = sha
		if h.o.Base != "" {
			return rg, nil
		}
		mb, err := h.againstDefault(ctx, ev, sha)
		if err != nil {
			return nil, fmt.Errorf("workflow_dispatch: %w (or give the base input)", err)
		}
		if mb == sha {
			return &Range{Nothing: fmt.Sprintf("workflow_dispatch: %s is on the default branch %s; give the base input to choose what to compare with", short(sha), ev.DefaultBranch)}, nil
		}
		rg.Base = mb
		rg.Why = fmt.Sprintf("workflow_dispatch: %s against its merge-base with %s", short(sha), ev.DefaultBranch)
		return rg, nil
	case ev.Run != nil:
		return nil, fmt.Errorf("workflow_run: there is nothing to analyse in this event; give the review-from input (the handoff file of the run that analysed the pull request) to post its review")
	}
	return nil, fmt.Errorf("event %s: no range", ev.Name)
}

func (h *history) push(ctx context.Context, ev *Event) (*Range, error) {
	p := ev.Push
	switch {
	case p.Deleted || gitio.IsZero(p.After):
		return &Range{Nothing: "push deleted " + p.Ref + ": nothing to check"}, nil
	case h.o.Base != "" && h.o.Head != "":
		return &Range{Why: "push to " + p.Ref}, nil
	}
	if err := h.need(ctx, commit{p.After, "the pushed commit"}); err != nil {
		return nil, err
	}
	if p.Created || gitio.IsZero(p.Before) {
		branch := strings.TrimPrefix(p.Ref, "refs/heads/")
		if ev.DefaultBranch == "" || branch == ev.DefaultBranch {
			parent, err := h.parent(ctx, p.After)
			if err != nil {
				return nil, err
			}
			if parent == "" {
				return &Range{Nothing: "push of a root commit: nothing to compare with"}, nil
			}
			return &Range{Base: parent, Head: p.After, Why: "new branch " + branch + ": its last commit"}, nil
		}
		mb, err := h.againstDefault(ctx, ev, p.After)
		if err != nil {
			return nil, fmt.Errorf("push of the new branch %s: %w", branch, err)
		}
		return &Range{Base: mb, Head: p.After, Why: fmt.Sprintf("new branch %s: %s against its merge-base with %s", branch, short(p.After), ev.DefaultBranch)}, nil
	}
	if err := h.need(ctx, commit{p.Before, "the commit before the push"}); err != nil {
		return nil, err
	}
	ok, err := h.repo.IsAncestor(ctx, p.Before, p.After)
	if err != nil {
		return nil, err
	}
	if ok {
		return &Range{Base: p.Before, Head: p.After, Why: fmt.Sprintf("push to %s: %s..%s", p.Ref, short(p.Before), short(p.After))}, nil
	}
	mb, err := h.mergeBase(ctx, p.Before, p.After)
	if err != nil {
		return nil, err
	}
	return &Range{Base: mb, Head: p.After, Why: fmt.Sprintf("force push to %s: %s against its merge-base with %s", p.Ref, short(p.After), short(p.Before))}, nil
}

// history finds and, when allowed, fetches commits.
type history struct {
	repo *gitio.Repo
	o    Options
}

type commit struct{ sha, what string }

// need makes sure the commits are present, fetching the missing ones.
func (h *history) need(ctx context.Context, cs ...commit) error {
	var missing []commit
	for _, c := range cs {
		if !h.repo.HasObject(ctx, c.sha) {
			missing = append(missing, c)
		}
	}
	if len(missing) == 0 {
		return nil
	}
	args := []string{"fetch", "--no-tags", "--no-recurse-submodules"}
	if h.repo.Shallow {
		args = append(args, "--depth="+strconv.Itoa(deepenSteps[0]))
	}
	args = append(args, h.o.Remote)
	for _, c := range missing {
		args = append(args, c.sha)
	}
	what := fmt.Sprintf("commit %s (%s) is not in this clone", short(missing[0].sha), missing[0].what)
	if !h.o.Deepen {
		return fmt.Errorf("%s: set `fetch-depth: 0` on actions/checkout, or let ripple run `git %s` (deepen: true)", what, strings.Join(args, " "))
	}
	if err := h.fetch(ctx, args); err != nil {
		return fmt.Errorf("%s and fetching it failed (%v): set `fetch-depth: 0` on actions/checkout (and keep persist-credentials, its default, so that git can fetch)", what, err)
	}
	for _, c := range missing {
		if !h.repo.HasObject(ctx, c.sha) {
			return fmt.Errorf("commit %s (%s) is not on %s even after `git %s`", short(c.sha), c.what, h.o.Remote, strings.Join(args, " "))
		}
	}
	return nil
}

// mergeBase finds the merge-base of a and b, deepening a shallow clone
// step by step.
func (h *history) mergeBase(ctx context.Context, a, b string) (string, error) {
	mb, err := h.repo.MergeBase(ctx, a, b)
	if err == nil || !h.shallow(ctx) {
		return mb, err
	}
	total := 0
	for _, step := range deepenSteps {
		args := []string{"fetch", "--no-tags", "--no-recurse-submodules", "--deepen=" + strconv.Itoa(step), h.o.Remote, a, b}
		if !h.o.Deepen {
			return "", fmt.Errorf("no merge-base of %s and %s in this shallow clone: set `fetch-depth: 0` on actions/checkout, or let ripple run `git %s` until it finds one (deepen: true)", short(a), short(b), strings.Join(args, " "))
		}
		if err := h.fetch(ctx, args); err != nil {
			return "", fmt.Errorf("no merge-base of %s and %s in this shallow clone, and deepening it failed (%v): set `fetch-depth: 0` on actions/checkout", short(a), short(b), err)
		}
		total += step
		if mb, err = h.repo.MergeBase(ctx, a, b); err == nil {
			return mb, nil
		}
	}
	return "", fmt.Errorf("no merge-base of %s and %s within %d commits of history: set `fetch-depth: 0` on actions/checkout", short(a), short(b), total)
}

// againstDefault is the merge-base of sha with the default branch,
// fetched when it is missing.
func (h *history) againstDefault(ctx context.Context, ev *Event, sha string) (string, error) {
	if ev.DefaultBranch == "" {
		return "", fmt.Errorf("the payload names no default branch to compare with")
	}
	ref := "refs/remotes/" + h.o.Remote + "/" + ev.DefaultBranch
	tip, err := h.repo.Resolve(ctx, ref)
	if err != nil {
		args := []string{"fetch", "--no-tags", "--no-recurse-submodules"}
		if h.repo.Shallow {
			args = append(args, "--depth="+strconv.Itoa(deepenSteps[0]))
		}
		args = append(args, h.o.Remote, "+refs/heads/"+ev.DefaultBranch+":"+ref)
		if !h.o.Deepen {
			return "", fmt.Errorf("the default branch %s is not in this clone: set `fetch-depth: 0` on actions/checkout, or let ripple run `git %s` (deepen: true)", ev.DefaultBranch, strings.Join(args, " "))
		}
		if ferr := h.fetch(ctx, args); ferr != nil {
			return "", fmt.Errorf("the default branch %s is not in this clone and fetching it failed (%v): set `fetch-depth: 0` on actions/checkout", ev.DefaultBranch, ferr)
		}
		if tip, err = h.repo.Resolve(ctx, ref); err != nil {
			return "", err
		}
	}
	return h.mergeBase(ctx, tip, sha)
}

// parent returns the first parent of sha, "" for a root commit.
func (h *history) parent(ctx context.Context, sha string) (string, error) {
	for attempt := 0; ; attempt++ {
		out, err := h.repo.Git(ctx, "rev-list", "--parents", "-n", "1", sha)
		if err != nil {
			return "", err
		}
		if f := strings.Fields(string(out)); len(f) >= 2 {
			return f[1], nil
		}
		if attempt > 0 || !h.shallow(ctx) {
			return "", nil // a root commit
		}
		args := []string{"fetch", "--no-tags", "--no-recurse-submodules", "--deepen=1", h.o.Remote, sha}
		if !h.o.Deepen {
			return "", fmt.Errorf("the parent of %s is outside this shallow clone: set `fetch-depth: 2` (or 0) on actions/checkout, or let ripple run `git %s` (deepen: true)", short(sha), strings.Join(args, " "))
		}
		if err := h.fetch(ctx, args); err != nil {
			return "", fmt.Errorf("the parent of %s is outside this shallow clone and fetching it failed (%v): set `fetch-depth: 2` (or 0) on actions/checkout", short(sha), err)
		}
	}
}

// shallow asks git afresh: a fetch with --depth makes a full clone
// shallow.
func (h *history) shallow(ctx context.Context) bool {
	out, err := h.repo.Git(ctx, "rev-parse", "--is-shallow-repository")
	return err == nil && strings.TrimSpace(string(out)) == "true"
}

func (h *history) fetch(ctx context.Context, args []string) error {
	if h.o.Log != nil {
		h.o.Log("git " + strings.Join(args, " "))
	}
	_, err := h.repo.Git(ctx, args...)
	return err
}

func short(sha string) string { return gitio.Short(sha) }

func orSHA(ref, sha string) string {
	if ref != "" {
		return ref + " (" + short(sha) + ")"
	}
	return short(sha)
}
