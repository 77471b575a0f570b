package gitio

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
)

// CurrentBranch returns the short name of the checked-out branch, or "" on
// a detached HEAD.
func (r *Repo) CurrentBranch(ctx context.Context) string {
	if gg, err := r.goGit(); err == nil {
		ref, err := gg.Storer.Reference(plumbing.HEAD)
		if err == nil && ref.Type() == plumbing.SymbolicReference && ref.Target().IsBranch() {
			return ref.Target().Short()
		}
		if err == nil {
			return ""
		}
	}
	out, err := r.Git(ctx, "symbolic-ref", "--quiet", "--short", "HEAD")
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(out))
}

// Upstream returns the remote-tracking ref the branch follows
// ("refs/remotes/origin/main"), or "" when it has none.
func (r *Repo) Upstream(ctx context.Context, branch string) string {
	if branch == "" {
		return ""
	}
	if gg, err := r.goGit(); err == nil {
		cfg, err := gg.Config()
		if err == nil {
			b, ok := cfg.Branches[branch]
			if !ok || b.Remote == "" || b.Merge == "" {
				return ""
			}
			if b.Remote == "." { // tracks a local branch
				return b.Merge.String()
			}
			return "refs/remotes/" + b.Remote + "/" + b.Merge.Short()
		}
	}
	out, err := r.Git(ctx, "rev-parse", "--symbolic-full-name", branch+"@{upstream}")
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(out))
}

// DefaultBranch returns the remote's default branch as a ref name
// ("refs/remotes/origin/main"), trying origin/HEAD, then the usual names.
func (r *Repo) DefaultBranch(ctx context.Context, remote string) string {
	if remote == "" {
		remote = "origin"
	}
	candidates := []string{"refs/remotes/" + remote + "/main", "refs/remotes/" + remote + "/master", "refs/heads/main", "refs/heads/master"}
	if gg, err := r.goGit(); err == nil {
		if ref, err := gg.Storer.Reference(plumbing.ReferenceName("refs/remotes/" + remote + "/HEAD")); err == nil && ref.Type() == plumbing.SymbolicReference {
			return ref.Target().String()
		}
		for _, c := range candidates {
			if _, err := gg.Storer.Reference(plumbing.ReferenceName(c)); err == nil {
				return c
			}
		}
		return ""
	}
	if out, err := r.Git(ctx, "symbolic-ref", "--quiet", "refs/remotes/"+remote+"/HEAD"); err == nil {
		return strings.TrimSpace(string(out))
	}
	for _, c := range candidates {
		if _, err := r.Git(ctx, "rev-parse", "--verify", "--quiet", c); err == nil {
			return c
		}
	}
	return ""
}

// DefaultBase picks the base of a check of head when none is given: the
// merge-base of head with the branch's upstream, else with the default
// branch. The returned description says which.
func (r *Repo) DefaultBase(ctx context.Context, head string) (base, why string, err error) {
	branch := r.CurrentBranch(ctx)
	if up := r.Upstream(ctx, branch); up != "" {
		if sha, err := r.Resolve(ctx, up); err == nil {
			mb, err := r.MergeBase(ctx, sha, head)
			if err != nil {
				return "", "", err
			}
			return mb, "merge-base with " + strings.TrimPrefix(up, "refs/remotes/"), nil
		}
	}
	def := r.DefaultBranch(ctx, "origin")
	if def != "" && def != "refs/heads/"+branch {
		sha, err := r.Resolve(ctx, def)
		if err == nil {
			mb, err := r.MergeBase(ctx, sha, head)
			if err != nil {
				return "", "", err
			}
			return mb, "merge-base with " + strings.TrimPrefix(strings.TrimPrefix(def, "refs/remotes/"), "refs/heads/"), nil
		}
	}
	return "", "", errors.New("no base to compare with: the branch has no upstream and there is no default branch (origin/HEAD, main or master); pass --base REV")
}

// ShallowRoots returns the commits at the boundary of a shallow clone.
func (r *Repo) ShallowRoots() ([]string, error) {
	if !r.Shallow {
		return nil, nil
	}
	gg, err := r.goGit()
	if err != nil {
		return nil, fmt.Errorf("reading the shallow list: %w", err)
	}
	hs, err := gg.Storer.Shallow()
	if err != nil {
		return nil, err
	}
	out := make([]string, len(hs))
	for i, h := range hs {
		out[i] = h.String()
	}
	return out, nil
}
