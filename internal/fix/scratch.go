package fix

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sort"

	"github.com/ripple-dev/ripple/internal/gitio"
)

// scratch is a detached worktree of the head state where the plan's
// edits are made; it shares the repository's objects, creates no branch
// and is removed afterwards.
type scratch struct {
	main *gitio.Repo
	dir  string
	repo *gitio.Repo
	// written are the files the engine has edited
	written map[string]bool
}

func newScratch(ctx context.Context, main *gitio.Repo, head string) (*scratch, error) {
	parent, err := os.MkdirTemp("", "ripple-fix-")
	if err != nil {
		return nil, err
	}
	dir := filepath.Join(parent, "tree")
	// no hooks: a post-checkout hook (LFS, generators) must not run here
	if _, err := main.Git(ctx, "-c", "core.hooksPath=/dev/null", "worktree", "add", "--detach", "--quiet", dir, head); err != nil {
		os.RemoveAll(parent)
		return nil, fmt.Errorf("creating a scratch worktree: %w", err)
	}
	repo, err := gitio.Open(ctx, dir)
	if err != nil {
		main.Git(context.Background(), "worktree", "remove", "--force", dir)
		os.RemoveAll(parent)
		return nil, err
	}
	return &scratch{main: main, dir: dir, repo: repo}, nil
}

func (s *scratch) close() {
	s.repo.Close()
	s.main.Git(context.Background(), "worktree", "remove", "--force", s.dir)
	os.RemoveAll(filepath.Dir(s.dir))
	s.main.Git(context.Background(), "worktree", "prune")
}

func (s *scratch) read(path string) ([]byte, error) {
	return os.ReadFile(filepath.Join(s.dir, filepath.FromSlash(path)))
}

func (s *scratch) write(path string, data []byte) error {
	p := filepath.Join(s.dir, filepath.FromSlash(path))
	st, err := os.Stat(p)
	if err != nil {
		return err
	}
	if s.written == nil {
		s.written = map[string]bool{}
	}
	s.written[path] = true
	return os.WriteFile(p, data, st.Mode().Perm())
}

// mark records a file a tool other than the engine edited in the
// scratch work tree (a migration), so that the patch holds it.
func (s *scratch) mark(path string) {
	if s.written == nil {
		s.written = map[string]bool{}
	}
	s.written[path] = true
}

// patch is the unified diff from the head state to the scratch state of
// the files the engine wrote, and of nothing else: a checkout does not
// reproduce every file (a working-tree-encoding that cannot hold its
// text, line-end attributes on a file committed otherwise), and a tool
// the oracle ran may have touched others.
func (s *scratch) patch(ctx context.Context) (string, error) {
	if len(s.written) == 0 {
		return "", nil
	}
	args := []string{"diff", "--no-ext-diff", "--no-color", "--src-prefix=a/", "--dst-prefix=b/", "--"}
	paths := make([]string, 0, len(s.written))
	for p := range s.written {
		paths = append(paths, ":(literal)"+p)
	}
	sort.Strings(paths)
	out, err := s.repo.Git(ctx, append(args, paths...)...)
	return string(out), err
}
