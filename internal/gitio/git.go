package gitio

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"

	gogit "github.com/go-git/go-git/v5"
)

// ZeroSHA is the all-zero object name git uses for "no object" (a new or
// deleted ref in the pre-push protocol).
const ZeroSHA = "0000000000000000000000000000000000000000"

// IsZero reports whether sha is an all-zero object name (SHA-1 or SHA-256).
func IsZero(sha string) bool {
	return sha != "" && strings.Trim(sha, "0") == ""
}

// Repo is a git repository with a work tree.
type Repo struct {
	Top     string // absolute path of the work tree's top level
	GitDir  string // absolute path of the git directory
	Shallow bool

	gitOnce sync.Once
	gg      *gogit.Repository
	ggErr   error

	catMu  sync.Mutex
	cat    *catFile
	closed bool

	headOnce sync.Once
	head     string

	// Words, when set, keeps the words of the blobs searched, for the
	// searches of commits (words.go).
	Words *WordIndex

	// env is added to every git process's environment: a scratch
	// object store (Scratch) is one.
	env []string
}

// HeadCommit is the commit HEAD points to, "" when there is none (an
// unborn branch); asked once per Repo. Callers that will need it may
// start it early in a goroutine: a git process costs about 10 ms.
func (r *Repo) HeadCommit(ctx context.Context) string {
	r.headOnce.Do(func() {
		if out, err := r.Git(ctx, "rev-parse", "--verify", "--quiet", "HEAD^{commit}"); err == nil {
			r.head = strings.TrimSpace(string(out))
		}
	})
	return r.head
}

// ErrNotRepo is returned by Open outside a git work tree.
var ErrNotRepo = errors.New("not inside a git work tree")

// Open finds the repository that contains dir.
func Open(ctx context.Context, dir string) (*Repo, error) {
	if _, err := exec.LookPath("git"); err != nil {
		return nil, fmt.Errorf("git is not installed or not on PATH: %w", err)
	}
	out, err := run(ctx, dir, nil, nil, "rev-parse", "--show-toplevel", "--absolute-git-dir", "--is-shallow-repository")
	if err != nil {
		if strings.Contains(err.Error(), "not a git repository") {
			return nil, fmt.Errorf("%s: %w", dir, ErrNotRepo)
		}
		return nil, err
	}
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	if len(lines) < 3 {
		return nil, fmt.Errorf("%s: %w (bare repository?)", dir, ErrNotRepo)
	}
	return &Repo{Top: lines[0], GitDir: lines[1], Shallow: lines[2] == "true"}, nil
}

// Close stops the helper processes the repository started.
func (r *Repo) Close() error {
	r.catMu.Lock()
	defer r.catMu.Unlock()
	r.closed = true
	if r.cat != nil {
		err := r.cat.close()
		r.cat = nil
		return err
	}
	return nil
}

// goGit opens the repository with go-git, once. A repository go-git cannot
// open (extensions it does not know) yields an error and callers fall back
// to the CLI.
func (r *Repo) goGit() (*gogit.Repository, error) {
	r.gitOnce.Do(func() {
		r.gg, r.ggErr = gogit.PlainOpenWithOptions(r.Top, &gogit.PlainOpenOptions{EnableDotGitCommonDir: true})
	})
	return r.gg, r.ggErr
}

// Git runs a git command at the top level and returns its standard output.
func (r *Repo) Git(ctx context.Context, args ...string) ([]byte, error) {
	return run(ctx, r.Top, r.env, nil, args...)
}

// GitIn is Git with standard input.
func (r *Repo) GitIn(ctx context.Context, stdin []byte, args ...string) ([]byte, error) {
	return run(ctx, r.Top, r.env, stdin, args...)
}

// baseEnv makes git's output stable whatever the user's configuration.
var baseEnv = []string{"LC_ALL=C", "GIT_OPTIONAL_LOCKS=0", "GIT_TERMINAL_PROMPT=0", "GIT_PAGER=cat"}

// baseArgs are global options: no quoting of non-ASCII paths, no external
// diff drivers or text conversion.
var baseArgs = []string{"-c", "core.quotePath=false", "-c", "diff.noprefix=false", "-c", "color.ui=false"}

// ExitError is a git command that ran and failed.
type ExitError struct {
	Args   []string
	Code   int
	Stderr string
}

func (e *ExitError) Error() string {
	msg := strings.TrimSpace(e.Stderr)
	if i := strings.IndexByte(msg, '\n'); i >= 0 {
		msg = msg[:i]
	}
	if msg == "" {
		msg = fmt.Sprintf("exit status %d", e.Code)
	}
	return fmt.Sprintf("git %s: %s", strings.Join(e.Args, " "), msg)
}

// Run runs git in dir with env added to the stable environment and
// returns its standard output; a command that ran and failed is an
// *ExitError carrying its standard output too. For the callers that need
// a runner without a Repo (the fix mode's temporary index and commit
// identity).
func Run(ctx context.Context, dir string, env []string, stdin []byte, args ...string) ([]byte, error) {
	return run(ctx, dir, env, stdin, args...)
}

func run(ctx context.Context, dir string, env []string, stdin []byte, args ...string) ([]byte, error) {
	cmd := exec.CommandContext(ctx, "git", append(append([]string{}, baseArgs...), args...)...)
	cmd.Dir = dir
	cmd.Env = append(append(os.Environ(), baseEnv...), env...)
	if stdin != nil {
		cmd.Stdin = bytes.NewReader(stdin)
	}
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	if err != nil {
		if ctx.Err() != nil {
			return nil, fmt.Errorf("git %s: %w", strings.Join(args, " "), ctx.Err())
		}
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			return stdout.Bytes(), &ExitError{Args: args, Code: ee.ExitCode(), Stderr: stderr.String()}
		}
		return nil, fmt.Errorf("git %s: %w", strings.Join(args, " "), err)
	}
	return stdout.Bytes(), nil
}

// Resolve turns a revision into a full commit name. An unknown revision is
// an error that names it; in a shallow clone the error says so.
func (r *Repo) Resolve(ctx context.Context, rev string) (string, error) {
	if rev == "" {
		return "", errors.New("empty revision")
	}
	if strings.HasPrefix(rev, "-") {
		return "", fmt.Errorf("invalid revision %q", rev)
	}
	out, err := r.Git(ctx, "rev-parse", "--verify", "--quiet", "--end-of-options", rev+"^{commit}")
	if err != nil {
		if r.Shallow {
			return "", fmt.Errorf("unknown revision %q: this is a shallow clone, the commit may be outside the fetched history (run `git fetch --unshallow`, or fetch with more depth)", rev)
		}
		return "", fmt.Errorf("unknown revision %q: no such commit in %s", rev, r.Top)
	}
	return strings.TrimSpace(string(out)), nil
}

// MergeBase returns the best common ancestor of a and b.
func (r *Repo) MergeBase(ctx context.Context, a, b string) (string, error) {
	out, err := r.Git(ctx, "merge-base", a, b)
	if err != nil {
		var ee *ExitError
		if errors.As(err, &ee) && ee.Code == 1 {
			if r.Shallow {
				return "", fmt.Errorf("no merge-base of %s and %s in this shallow clone: fetch more history (git fetch --deepen=100, or fetch-depth: 0 in actions/checkout)", short(a), short(b))
			}
			return "", fmt.Errorf("%s and %s have no common history", short(a), short(b))
		}
		return "", err
	}
	return strings.TrimSpace(string(out)), nil
}

// IsAncestor reports whether a is an ancestor of (or equal to) b.
func (r *Repo) IsAncestor(ctx context.Context, a, b string) (bool, error) {
	_, err := r.Git(ctx, "merge-base", "--is-ancestor", a, b)
	if err == nil {
		return true, nil
	}
	var ee *ExitError
	if errors.As(err, &ee) && ee.Code == 1 {
		return false, nil
	}
	return false, err
}

// HasObject reports whether the commit exists locally.
func (r *Repo) HasObject(ctx context.Context, sha string) bool {
	_, err := r.Git(ctx, "cat-file", "-e", sha+"^{commit}")
	return err == nil
}

func short(sha string) string {
	if len(sha) > 12 && !strings.ContainsAny(sha, "/.~^@") {
		return sha[:12]
	}
	return sha
}

// Short abbreviates a full object name for messages.
func Short(sha string) string { return short(sha) }

// Rel makes an absolute path inside the work tree repository-relative with
// forward slashes.
func (r *Repo) Rel(abs string) (string, error) {
	rel, err := filepath.Rel(r.Top, abs)
	if err != nil || strings.HasPrefix(rel, "..") {
		return "", fmt.Errorf("%s is outside the repository %s", abs, r.Top)
	}
	return filepath.ToSlash(rel), nil
}
