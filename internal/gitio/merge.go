package gitio

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// Scratch returns the repository with a scratch object store: objects
// git writes through the returned Repo (a merged tree, MergeTree) go to
// a temporary directory, and every object of the repository stays
// readable through it (GIT_OBJECT_DIRECTORY on the temporary directory,
// GIT_ALTERNATE_OBJECT_DIRECTORIES on the repository's own store, and
// on any alternates the environment already names). Nothing is written
// to the repository: discard closes the Repo's helper processes and
// removes the directory, and what was written there is gone.
func (r *Repo) Scratch(ctx context.Context) (scratch *Repo, discard func(), err error) {
	out, err := r.Git(ctx, "rev-parse", "--path-format=absolute", "--git-path", "objects")
	if err != nil {
		return nil, nil, fmt.Errorf("locating the object store: %w", err)
	}
	objects := strings.TrimSpace(string(out))
	if !filepath.IsAbs(objects) { // git before 2.31 ignores --path-format
		objects = filepath.Join(r.Top, objects)
	}
	dir, err := os.MkdirTemp("", "ripple-objects-")
	if err != nil {
		return nil, nil, fmt.Errorf("a scratch object store: %w", err)
	}
	alternates := objects
	if prev := os.Getenv("GIT_ALTERNATE_OBJECT_DIRECTORIES"); prev != "" {
		alternates += string(os.PathListSeparator) + prev
	}
	env := append(append([]string(nil), r.env...),
		"GIT_OBJECT_DIRECTORY="+dir,
		"GIT_ALTERNATE_OBJECT_DIRECTORIES="+alternates)
	s := &Repo{Top: r.Top, GitDir: r.GitDir, Shallow: r.Shallow, env: env, Words: r.Words} // blob ids name contents in any object store
	return s, func() {
		s.Close()
		os.RemoveAll(dir)
	}, nil
}

// ErrUnrelated is MergeTree's error for histories without a common
// commit.
var ErrUnrelated = errors.New("no common history")

// MergeTree merges two commits without a work tree or an index (git
// merge-tree --write-tree, git 2.38 or later) and returns the merged
// tree, whose objects it writes to the object store (use a Scratch
// repository to leave nothing behind). When the merge has textual
// conflicts, tree is still written (with conflict markers) and conflicts
// lists the conflicted paths.
func (r *Repo) MergeTree(ctx context.Context, ours, theirs string) (tree string, conflicts []string, err error) {
	out, err := r.Git(ctx, "merge-tree", "--write-tree", "--name-only", "--no-messages", "-z", ours, theirs)
	if err != nil {
		var ee *ExitError
		switch {
		case errors.As(err, &ee) && ee.Code == 1 && len(out) > 0:
			// conflicts: the tree, then each conflicted path
		case errors.As(err, &ee) && strings.Contains(ee.Stderr, "unrelated histories"):
			return "", nil, fmt.Errorf("merging %s and %s: %w", short(ours), short(theirs), ErrUnrelated)
		case errors.As(err, &ee) && (strings.Contains(ee.Stderr, "unknown option") || strings.Contains(ee.Stderr, "usage: git merge-tree")):
			return "", nil, fmt.Errorf("git merge-tree --write-tree needs git 2.38 or later: %w", err)
		default:
			return "", nil, err
		}
	}
	fields := splitZ(out)
	if len(fields) == 0 {
		return "", nil, fmt.Errorf("git merge-tree: no tree in its output")
	}
	tree = strings.TrimSpace(fields[0])
	seen := map[string]bool{}
	for _, p := range fields[1:] {
		if p = strings.TrimSpace(p); p != "" && !seen[p] {
			seen[p] = true
			conflicts = append(conflicts, p)
		}
	}
	return tree, conflicts, nil
}

// ResolveState turns a revision into what a check may compare: a commit,
// or a tree (a merged tree, `HEAD^{tree}`). tree says which. An unknown
// revision is an error as Resolve's.
func (r *Repo) ResolveState(ctx context.Context, rev string) (sha string, tree bool, err error) {
	sha, err = r.Resolve(ctx, rev)
	if err == nil {
		return sha, false, nil
	}
	if strings.HasPrefix(rev, "-") {
		return "", false, err
	}
	out, terr := r.Git(ctx, "cat-file", "-t", "--end-of-options", rev)
	if terr != nil || strings.TrimSpace(string(out)) != "tree" {
		return "", false, err
	}
	out, terr = r.Git(ctx, "rev-parse", "--verify", "--quiet", "--end-of-options", rev+"^{tree}")
	if terr != nil {
		return "", false, err
	}
	return strings.TrimSpace(string(out)), true, nil
}

// RefUpdated returns when ref (a remote-tracking ref) was last written:
// by its reflog's newest entry (a fetch, or a push that moved it), else
// by when the repository last fetched (FETCH_HEAD). ok is false when
// neither says.
func (r *Repo) RefUpdated(ctx context.Context, ref string) (t time.Time, ok bool) {
	out, err := r.Git(ctx, "reflog", "show", "-n", "1", "--format=%gd", "--date=unix", "--end-of-options", ref)
	if err == nil {
		// refs/remotes/origin/main@{1767225600}
		s := strings.TrimSpace(string(out))
		if i := strings.LastIndex(s, "@{"); i >= 0 && strings.HasSuffix(s, "}") {
			if sec, err := strconv.ParseInt(s[i+2:len(s)-1], 10, 64); err == nil {
				return time.Unix(sec, 0), true
			}
		}
	}
	if out, err := r.Git(ctx, "rev-parse", "--path-format=absolute", "--git-path", "FETCH_HEAD"); err == nil {
		if st, err := os.Stat(strings.TrimSpace(string(out))); err == nil {
			return st.ModTime(), true
		}
	}
	return time.Time{}, false
}
