package prepush

import (
	"context"
	"errors"
	"strings"

	"github.com/ripple-dev/ripple/internal/gitio"
)

// peel returns the commit that sha names, peeling tags. typ is the type
// of the object after peeling every tag ("commit", "tree", "blob"); an
// object that is not in the repository gives typ "" and no error.
func peel(ctx context.Context, r *gitio.Repo, sha string) (commit, typ string, err error) {
	out, err := r.Git(ctx, "rev-parse", "--verify", "--quiet", "--end-of-options", sha+"^{commit}")
	if err == nil {
		return strings.TrimSpace(string(out)), "commit", nil
	}
	if !isExit(err) {
		return "", "", err
	}
	out, err = r.Git(ctx, "cat-file", "-t", sha+"^{}")
	if err != nil {
		if isExit(err) {
			return "", "", nil // missing
		}
		return "", "", err
	}
	return "", strings.TrimSpace(string(out)), nil
}

// mergeBase is gitio's MergeBase that tells "no common history" (ok
// false) from a failure.
func mergeBase(ctx context.Context, r *gitio.Repo, a, b string) (string, bool, error) {
	out, err := r.Git(ctx, "merge-base", a, b)
	if err != nil {
		var ee *gitio.ExitError
		if errors.As(err, &ee) && ee.Code == 1 {
			return "", false, nil
		}
		return "", false, err
	}
	return strings.TrimSpace(string(out)), true, nil
}

// remoteName returns the configured remote that remote designates: remote
// itself when it is a remote's name, else the remote whose url equals it,
// else "".
func remoteName(ctx context.Context, r *gitio.Repo, remote string) (string, error) {
	if remote == "" {
		return "", nil
	}
	out, err := r.Git(ctx, "remote")
	if err != nil {
		return "", err
	}
	for _, n := range strings.Split(string(out), "\n") {
		if n == remote {
			return n, nil
		}
	}
	out, err = r.Git(ctx, "config", "--get-regexp", `^remote\..*\.url$`)
	if err != nil {
		if isExit(err) {
			return "", nil // no remote has a url
		}
		return "", err
	}
	for _, l := range strings.Split(string(out), "\n") {
		key, url, ok := strings.Cut(l, " ")
		if ok && url == remote {
			return strings.TrimSuffix(strings.TrimPrefix(key, "remote."), ".url"), nil
		}
	}
	return "", nil
}

// hasRefs reports whether any ref starts with prefix.
func hasRefs(ctx context.Context, r *gitio.Repo, prefix string) (bool, error) {
	out, err := r.Git(ctx, "for-each-ref", "--count=1", "--format=%(refname)", prefix)
	if err != nil {
		return false, err
	}
	return strings.TrimSpace(string(out)) != "", nil
}

func isExit(err error) bool {
	var ee *gitio.ExitError
	return errors.As(err, &ee)
}
