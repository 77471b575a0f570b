package hookinstall

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/ripple-dev/ripple/internal/gitio"
)

// Options configure Install.
type Options struct {
	Exe   string // absolute path of the ripple binary to call (the CLI passes os.Executable())
	Force bool   // overwrite a previous ripple hook of another version without asking
}

// ErrOtherVersion is returned by Install when a Ripple hook that differs
// from the one it would write (another version, another binary path, or
// edited by hand) is installed and Options.Force is not set. The CLI may
// ask the user and call Install again with Force.
var ErrOtherVersion = errors.New("a different ripple pre-push hook is installed")

// ErrNotInstalled is returned by Uninstall when there is no Ripple hook.
var ErrNotInstalled = errors.New("no ripple pre-push hook is installed")

// HooksDir returns where git looks for hooks in this repository:
// core.hooksPath when set (a relative value is relative to the top of the
// work tree, where git runs hooks; "~/" is expanded by git), else the
// hooks directory of the common git directory, shared by linked
// worktrees. It asks git (`rev-parse --git-path hooks`) rather than
// reading the configuration itself.
func HooksDir(ctx context.Context, r *gitio.Repo) (string, error) {
	out, err := r.Git(ctx, "rev-parse", "--git-path", "hooks")
	if err != nil {
		return "", fmt.Errorf("find the hooks directory: %w", err)
	}
	p := strings.TrimSpace(string(out))
	if p == "" {
		return "", errors.New("find the hooks directory: git rev-parse --git-path hooks printed nothing")
	}
	p = filepath.FromSlash(p)
	if !filepath.IsAbs(p) {
		p = filepath.Join(r.Top, p) // relative to where the command ran
	}
	return filepath.Clean(p), nil
}

// Install writes Ripple's pre-push hook and returns a message for the
// user. An existing pre-push hook that is not Ripple's is renamed to
// pre-push.ripple-chained and run first by Ripple's hook; it is never
// overwritten. Installing the same hook twice changes nothing.
func Install(ctx context.Context, r *gitio.Repo, o Options) (string, error) {
	script, err := Script(o.Exe)
	if err != nil {
		return "", fmt.Errorf("install the pre-push hook: %w", err)
	}
	dir, err := HooksDir(ctx, r)
	if err != nil {
		return "", err
	}
	hooksPath, err := configHooksPath(ctx, r)
	if err != nil {
		return "", err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", fmt.Errorf("install the pre-push hook: %w", err)
	}
	hook := filepath.Join(dir, "pre-push")
	chained := filepath.Join(dir, ChainedName)

	var msg []string
	cur, exists, err := readHook(hook)
	if err != nil {
		return "", err
	}
	switch mark := markerOf(cur); {
	case !exists:
		if err := writeHook(hook, script); err != nil {
			return "", err
		}
		msg = append(msg, "installed the ripple pre-push hook in "+hook)
		if present(chained) {
			msg = append(msg, "the previous hook kept as "+chained+" runs first")
		}
	case mark != "" && bytes.Equal(cur, []byte(script)):
		if !executable(hook) {
			if err := os.Chmod(hook, 0o755); err != nil {
				return "", fmt.Errorf("install the pre-push hook: %w", err)
			}
			return "the ripple pre-push hook was already in " + hook + " but not executable: made it executable", nil
		}
		return "the ripple pre-push hook is already installed in " + hook + ": nothing to do", nil
	case mark != "":
		if !o.Force {
			what := "another binary path or edited by hand"
			if mark != Marker {
				what = fmt.Sprintf("%q, this is %q", strings.TrimPrefix(mark, "# "), strings.TrimPrefix(Marker, "# "))
			}
			return "", fmt.Errorf("install the pre-push hook: %s: %w (%s); run 'hook install --force' to replace it", hook, ErrOtherVersion, what)
		}
		if err := writeHook(hook, script); err != nil {
			return "", err
		}
		msg = append(msg, "replaced the ripple pre-push hook in "+hook)
	default:
		if present(chained) {
			return "", fmt.Errorf("install the pre-push hook: %s is not ripple's and %s already exists: move one of them away, then run 'hook install' again", hook, chained)
		}
		if err := os.Rename(hook, chained); err != nil {
			return "", fmt.Errorf("install the pre-push hook: keep the existing hook: %w", err)
		}
		if err := writeHook(hook, script); err != nil {
			if rerr := os.Rename(chained, hook); rerr != nil {
				err = fmt.Errorf("%w; restoring the previous hook from %s failed too: %v", err, chained, rerr)
			}
			return "", err
		}
		msg = append(msg, "installed the ripple pre-push hook in "+hook,
			"the existing pre-push hook was kept as "+ChainedName+" and runs first, with the same arguments and input; if it fails the push stops")
		if !executable(chained) {
			msg = append(msg, "note: "+ChainedName+" is not executable, so it does not run (git did not run it either)")
		}
	}
	if hooksPath != "" {
		msg = append(msg, hooksPathNote(hooksPath))
	}
	return strings.Join(msg, "\n"), nil
}

// Uninstall removes Ripple's pre-push hook and puts back a hook it
// chained. A hook that is not Ripple's is never touched.
func Uninstall(ctx context.Context, r *gitio.Repo) (string, error) {
	dir, err := HooksDir(ctx, r)
	if err != nil {
		return "", err
	}
	hook := filepath.Join(dir, "pre-push")
	chained := filepath.Join(dir, ChainedName)
	cur, exists, err := readHook(hook)
	if err != nil {
		return "", err
	}
	switch {
	case !exists && present(chained):
		return "", fmt.Errorf("uninstall the pre-push hook: %w in %s, but %s is there: rename it to pre-push to restore it", ErrNotInstalled, dir, ChainedName)
	case !exists:
		return "", fmt.Errorf("uninstall the pre-push hook: %w in %s", ErrNotInstalled, dir)
	case markerOf(cur) == "":
		return "", fmt.Errorf("uninstall the pre-push hook: %w: %s is not ripple's and was left alone", ErrNotInstalled, hook)
	}
	if present(chained) {
		if err := os.Rename(chained, hook); err != nil {
			return "", fmt.Errorf("uninstall the pre-push hook: restore %s: %w", chained, err)
		}
		return "removed the ripple pre-push hook from " + dir + " and restored the previous pre-push hook", nil
	}
	if err := os.Remove(hook); err != nil {
		return "", fmt.Errorf("uninstall the pre-push hook: %w", err)
	}
	return "removed the ripple pre-push hook " + hook, nil
}

// readHook returns the content of the hook file. exists is false when
// there is no file (a dangling symbolic link exists, with no content).
func readHook(path string) (content []byte, exists bool, err error) {
	fi, err := os.Lstat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, fmt.Errorf("read the pre-push hook: %w", err)
	}
	if fi.IsDir() {
		return nil, false, fmt.Errorf("read the pre-push hook: %s is a directory", path)
	}
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, true, nil // dangling link: not ours
	}
	if err != nil {
		return nil, false, fmt.Errorf("read the pre-push hook: %w", err)
	}
	return b, true, nil
}

// writeHook replaces path with script, mode 0755, atomically.
func writeHook(path, script string) error {
	f, err := os.CreateTemp(filepath.Dir(path), ".pre-push.ripple-*")
	if err != nil {
		return fmt.Errorf("write the pre-push hook: %w", err)
	}
	tmp := f.Name()
	_, err = f.WriteString(script)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chmod(tmp, 0o755) // not subject to the umask
	}
	if err == nil {
		err = os.Rename(tmp, path)
	}
	if err != nil {
		os.Remove(tmp)
		return fmt.Errorf("write the pre-push hook %s: %w", path, err)
	}
	return nil
}

// configHooksPath returns core.hooksPath, or "" when it is not set.
func configHooksPath(ctx context.Context, r *gitio.Repo) (string, error) {
	out, err := r.Git(ctx, "config", "--get", "core.hooksPath")
	if err != nil {
		var ee *gitio.ExitError
		if errors.As(err, &ee) && ee.Code == 1 {
			return "", nil
		}
		return "", fmt.Errorf("read core.hooksPath: %w", err)
	}
	return strings.TrimSpace(string(out)), nil
}

func hooksPathNote(hooksPath string) string {
	note := fmt.Sprintf("core.hooksPath is set to %q, so the hook was installed in that directory. "+
		"husky and lefthook users may prefer the config snippets in the README: such tools regenerate their hooks directory and may overwrite this hook", hooksPath)
	if strings.Contains(filepath.ToSlash(hooksPath), ".husky") {
		note += "; husky's own pre-push wrapper finds your .husky/pre-push by its file name, so once chained under another name it does nothing: call ripple from .husky/pre-push instead"
	}
	return note
}

// present reports whether a file (or a link, even dangling) is at path.
func present(path string) bool {
	_, err := os.Lstat(path)
	return err == nil
}

func executable(path string) bool {
	fi, err := os.Stat(path)
	return err == nil && fi.Mode().IsRegular() && fi.Mode().Perm()&0o111 != 0
}
