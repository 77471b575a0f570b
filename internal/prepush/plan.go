package prepush

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/ripple-dev/ripple/internal/gitio"
	"github.com/ripple-dev/ripple/internal/model"
)

// Range is one range of commits to check: the diff Base..Head.
type Range struct {
	Ref  string // the remote ref, e.g. refs/heads/feature; several joined with ", "
	Base string // full sha
	Head string // full sha (a commit, tags peeled)
	Why  string // one short phrase saying how Base was chosen
}

// Skip is an update that needs no check, with the reason shown to the user.
type Skip struct{ Ref, Why string }

// Plan decides what to check for the updates of one push. remote is the
// remote's name as git passed it to the hook (a URL when pushing to a
// URL). Ranges and skips keep the order of updates; two updates with the
// same Base and Head give one Range whose Ref names both (the Why of the
// first is kept). An error is a git failure or a pushed object that is
// not in the repository; every other case is a Range or a Skip (see the
// package documentation for the table).
func Plan(ctx context.Context, r *gitio.Repo, remote string, updates []Update) ([]Range, []Skip, error) {
	if r == nil {
		return nil, nil, errors.New("plan the pre-push check: no repository")
	}
	p := &planner{r: r, remote: remote}
	var ranges []Range
	var skips []Skip
	seen := map[[2]string]int{}
	for _, u := range updates {
		rg, why, err := p.plan(ctx, u)
		if err != nil {
			return nil, nil, fmt.Errorf("plan the check of %s: %w", u.RemoteRef, err)
		}
		if why != "" {
			skips = append(skips, Skip{Ref: u.RemoteRef, Why: why})
			continue
		}
		key := [2]string{rg.Base, rg.Head}
		if i, ok := seen[key]; ok {
			ranges[i].Ref += ", " + rg.Ref
			continue
		}
		seen[key] = len(ranges)
		ranges = append(ranges, rg)
	}
	return ranges, skips, nil
}

// planner holds what one push learns about the remote, computed once.
type planner struct {
	r      *gitio.Repo
	remote string // as git passed it

	loaded       bool
	name         string // configured remote name, "" when unknown
	nameHasRefs  bool   // refs/remotes/<name>/ is not empty
	anyRemoteRef bool   // refs/remotes/ is not empty
}

// plan returns the range to check for u, or the reason to skip it.
func (p *planner) plan(ctx context.Context, u Update) (Range, string, error) {
	ref := u.RemoteRef
	if gitio.IsZero(u.LocalSHA) {
		return Range{}, "deleting " + ref, nil
	}
	head, typ, err := peel(ctx, p.r, u.LocalSHA)
	if err != nil {
		return Range{}, "", err
	}
	switch {
	case typ == "":
		return Range{}, "", fmt.Errorf("the pushed object %s is not in this repository", u.LocalSHA)
	case head == "":
		return Range{}, fmt.Sprintf("%s points to a %s, not a commit: nothing to check", ref, typ), nil
	}
	if !gitio.IsZero(u.RemoteSHA) {
		old, _, err := peel(ctx, p.r, u.RemoteSHA)
		if err != nil {
			return Range{}, "", err
		}
		if old != "" {
			return p.planKnown(ctx, ref, old, head)
		}
		// the remote moved to a commit never fetched: fall through and
		// check what is not on any remote-tracking ref
	}
	return p.planNew(ctx, u, head)
}

// planKnown handles a remote ref whose current commit old is local.
func (p *planner) planKnown(ctx context.Context, ref, old, head string) (Range, string, error) {
	if old == head {
		return Range{}, fmt.Sprintf("update of %s changes no commits", ref), nil
	}
	ff, err := p.r.IsAncestor(ctx, old, head)
	if err != nil {
		return Range{}, "", err
	}
	if ff {
		return Range{Ref: ref, Base: old, Head: head, Why: "update of " + ref}, "", nil
	}
	mb, ok, err := mergeBase(ctx, p.r, old, head)
	if err != nil {
		return Range{}, "", err
	}
	if !ok {
		why := fmt.Sprintf("force push to %s: no common history with the remote's %s: nothing to compare against", ref, gitio.Short(old))
		if p.r.Shallow {
			why += " (or not in this shallow clone: fetch more history)"
		}
		return Range{}, why, nil
	}
	if mb == head {
		return Range{}, fmt.Sprintf("force push to %s only removes commits: nothing new to check", ref), nil
	}
	return Range{Ref: ref, Base: mb, Head: head, Why: fmt.Sprintf("force push to %s: from merge-base %s", ref, gitio.Short(mb))}, "", nil
}

// MaxFirstPush caps the commits checked on a first push to a remote that
// has none: the history before them is the base.
const MaxFirstPush = 50

// planNew handles a new remote ref, or one whose remote commit is not
// local: only the commits that are not on the remote are checked.
func (p *planner) planNew(ctx context.Context, u Update, head string) (Range, string, error) {
	ref := u.RemoteRef
	lead := "new " + kind(ref) + " " + ref
	if !gitio.IsZero(u.RemoteSHA) {
		lead = fmt.Sprintf("update of %s (the remote's %s was never fetched)", ref, gitio.Short(u.RemoteSHA))
	}
	excl, scope, err := p.exclusions(ctx, head, u.LocalRef)
	if err != nil {
		return Range{}, "", err
	}
	out, err := p.r.Git(ctx, append([]string{"rev-list", "--boundary", head, "--not"}, excl...)...)
	if err != nil {
		return Range{}, "", err
	}
	n := 0
	var bounds []string
	for _, l := range strings.Split(string(out), "\n") {
		switch {
		case l == "":
		case l[0] == '-':
			bounds = append(bounds, l[1:])
		default:
			n++
		}
	}
	switch {
	case n == 0:
		return Range{}, fmt.Sprintf("%s with no new commits: all are on %s", lead, scope), nil
	case len(bounds) == 0 && p.r.Shallow:
		return Range{}, fmt.Sprintf("%s: the new commits reach the edge of this shallow clone: nothing to compare against (fetch more history)", lead), nil
	case len(bounds) == 0 && gitio.IsZero(u.RemoteSHA) && n == 1:
		return Range{}, "first push of a single commit to a remote with no commits: nothing to compare against", nil
	case len(bounds) == 0 && gitio.IsZero(u.RemoteSHA):
		// nothing of it is on the remote: check the recent history, each
		// change against the state MaxFirstPush commits back (or the root)
		k := min(n-1, MaxFirstPush)
		out, err := p.r.Git(ctx, "rev-parse", "--verify", "--quiet", fmt.Sprintf("%s~%d^{commit}", head, k))
		if err != nil {
			return Range{}, "", err
		}
		base := strings.TrimSpace(string(out))
		why := fmt.Sprintf("first push of %s to a remote with no commits: the last %s checked (from %s)", ref, model.Plural(k, "commit", "commits"), gitio.Short(base))
		if k < n-1 {
			why += fmt.Sprintf("; the %d older ones are taken as they are", n-1-k)
		}
		return Range{Ref: ref, Base: base, Head: head, Why: why}, "", nil
	case len(bounds) == 0:
		return Range{}, fmt.Sprintf("%s: none of the pushed history is on %s: nothing to compare against (run git fetch)", lead, scope), nil
	}
	base := bounds[0]
	if len(bounds) > 1 {
		if base, err = p.pickBase(ctx, head, bounds); err != nil {
			return Range{}, "", err
		}
	}
	return Range{Ref: ref, Base: base, Head: head, Why: fmt.Sprintf("%s: %s not on %s", lead, model.Plural(n, "commit", "commits"), scope)}, "", nil
}

// pickBase chooses among several boundary commits: the merge-base of head
// with the remote's default branch when there is one, else the newest
// boundary by commit date.
func (p *planner) pickBase(ctx context.Context, head string, bounds []string) (string, error) {
	if def := p.r.DefaultBranch(ctx, p.name); def != "" {
		if sha, err := p.r.Resolve(ctx, def); err == nil {
			mb, ok, err := mergeBase(ctx, p.r, sha, head)
			if err != nil {
				return "", err
			}
			if ok && mb != head {
				return mb, nil
			}
		}
	}
	out, err := p.r.Git(ctx, append([]string{"rev-list", "--no-walk", "--max-count=1"}, bounds...)...)
	if err != nil {
		return "", err
	}
	if b := strings.TrimSpace(string(out)); b != "" {
		return b, nil
	}
	return bounds[0], nil
}

// exclusions returns the rev-list arguments (to follow --not) naming what
// is already on the remote, and a phrase for messages. In order:
//
//  1. remote is a configured remote (by name, or by a URL equal to its
//     remote.<name>.url) with remote-tracking refs: --remotes=<name>;
//  2. else, when any remote-tracking ref exists: --remotes, since commits
//     already published anywhere are not the new work of this push;
//  3. else (nothing was ever fetched): the local branches that do not
//     contain head, the pushed local ref excepted. They stand for "work
//     that is not this push". Branches containing head are kept out so a
//     branch stacked on the pushed one does not hide its commits (a
//     false "nothing new"); the cost is that a pushed commit also on
//     such a branch is checked again, which is only a false positive.
func (p *planner) exclusions(ctx context.Context, head, localRef string) ([]string, string, error) {
	if err := p.load(ctx); err != nil {
		return nil, "", err
	}
	switch {
	case p.nameHasRefs:
		return []string{"--remotes=" + p.name}, p.name, nil
	case p.anyRemoteRef:
		return []string{"--remotes"}, "any remote-tracking branch", nil
	}
	out, err := p.r.Git(ctx, "for-each-ref", "--format=%(objectname) %(refname)", "--no-contains="+head, "refs/heads/")
	if err != nil {
		return nil, "", err
	}
	var shas []string
	seen := map[string]bool{}
	for _, l := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		sha, name, ok := strings.Cut(l, " ")
		if !ok || name == localRef || seen[sha] {
			continue
		}
		seen[sha] = true
		shas = append(shas, sha)
	}
	return shas, "other local branches (no remote-tracking branches)", nil
}

// load learns, once, which configured remote is pushed to and which
// remote-tracking refs exist.
func (p *planner) load(ctx context.Context) error {
	if p.loaded {
		return nil
	}
	name, err := remoteName(ctx, p.r, p.remote)
	if err != nil {
		return err
	}
	p.name = name
	if name != "" {
		if p.nameHasRefs, err = hasRefs(ctx, p.r, "refs/remotes/"+name+"/"); err != nil {
			return err
		}
	}
	if p.anyRemoteRef, err = hasRefs(ctx, p.r, "refs/remotes/"); err != nil {
		return err
	}
	p.loaded = true
	return nil
}

func kind(ref string) string {
	switch {
	case strings.HasPrefix(ref, "refs/heads/"):
		return "branch"
	case strings.HasPrefix(ref, "refs/tags/"):
		return "tag"
	}
	return "ref"
}
