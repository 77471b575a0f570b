package gobuild

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/ripple-dev/ripple/internal/oracle"
)

// Oracle is the Go oracle.
type Oracle struct {
	// GoCmd is the go command (default "go" on PATH).
	GoCmd string
	// Env is added to the environment of every command.
	Env []string
}

// ErrNoGo is returned when the go command is missing.
var ErrNoGo = errors.New("the go command is not installed or not on PATH (https://go.dev/dl)")

// Check runs the oracle in dir, a checkout of the state to judge.
func (g *Oracle) Check(ctx context.Context, dir string, o oracle.Options) (*oracle.Result, error) {
	start := time.Now()
	goCmd := g.GoCmd
	if goCmd == "" {
		goCmd = "go"
	}
	if _, err := exec.LookPath(goCmd); err != nil {
		return nil, ErrNoGo
	}
	res := &oracle.Result{}
	if o.Files != nil {
		goFiles, dirs := oracle.FilesWith(o.Files, ".go")
		if len(goFiles) == 0 {
			return &oracle.Result{Pass: true}, nil // no Go in this change
		}
		o.Packages = dirs
	}
	tmp, err := os.MkdirTemp("", "ripple-oracle-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(tmp)

	env := append(os.Environ(), "GOTELEMETRY=off", "GOFLAGS="+goflags(dir))
	env = append(env, g.Env...)
	run := func(tool string, args ...string) (string, error) {
		cmd := exec.CommandContext(ctx, goCmd, args...)
		cmd.Dir = dir
		cmd.Env = env
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &out
		res.Ran = append(res.Ran, "go "+strings.Join(args, " "))
		err := cmd.Run()
		if ctx.Err() != nil {
			return out.String(), fmt.Errorf("%s: out of time after %v: %w", tool, time.Since(start).Round(time.Millisecond), ctx.Err())
		}
		var ee *exec.ExitError
		if err != nil && !errors.As(err, &ee) {
			return out.String(), fmt.Errorf("%s: %w", tool, err)
		}
		return out.String(), nil
	}

	// build: executables into tmp; a tree without main packages refuses
	// -o DIR, and then nothing is written anyway
	out, err := run("build", "build", "-o", tmp+string(filepath.Separator), "./...")
	if err != nil {
		return nil, err
	}
	if strings.Contains(out, "no main packages to build") {
		if out, err = run("build", "build", "./..."); err != nil {
			return nil, err
		}
	}
	res.Diagnostics = append(res.Diagnostics, Parse(out, "build", dir)...)

	pkgs := patterns(o.Packages)
	out, err = run("vet", append([]string{"vet"}, pkgs...)...)
	if err != nil {
		return nil, err
	}
	res.Diagnostics = append(res.Diagnostics, oracle.Dedupe(res.Diagnostics, relocate(Parse(out, "vet", dir), dir))...)

	if o.Tests {
		out, err = run("test", append([]string{"test", "-count=1"}, pkgs...)...)
		if err != nil {
			return nil, err
		}
		res.Diagnostics = append(res.Diagnostics, oracle.Dedupe(res.Diagnostics, ParseTest(out, dir))...)
	}
	oracle.AddSources(dir, res.Diagnostics)
	res.Pass = len(res.Diagnostics) == 0
	res.Took = time.Since(start)
	return res, nil
}

// relocate puts back in dir the vet diagnostics that name a file of
// another tree. The go command caches vet's output, and under -trimpath
// a package's vet action is the same in every tree holding the same
// files: a later vet of a copy replays the output of the first, naming
// the first tree's files ("../a/q/say.go", or an absolute path into a
// scratch worktree long removed). The copy holds the same file at the
// same module-relative path: the longest tail of the named path that is
// a file in dir.
func relocate(ds []oracle.Diagnostic, dir string) []oracle.Diagnostic {
	for i, d := range ds {
		p := filepath.ToSlash(d.Path)
		if p == "" || !filepath.IsAbs(d.Path) && p != ".." && !strings.HasPrefix(p, "../") {
			continue
		}
		parts := strings.Split(p, "/")
		for j := 1; j < len(parts); j++ {
			tail := strings.Join(parts[j:], "/")
			if tail == "" || strings.HasPrefix(tail, "../") {
				continue
			}
			if st, err := os.Stat(filepath.Join(dir, filepath.FromSlash(tail))); err == nil && st.Mode().IsRegular() {
				ds[i].Path = tail
				break
			}
		}
	}
	return ds
}

// goflags keeps module files read-only, or uses the vendor directory when
// the module has one, and builds with -trimpath: the fix engine judges
// each state in a scratch worktree at a new path, and the build cache
// keys a package by its directory unless paths are trimmed, so every run
// compiled and vetted the repository's packages again (go-git, a second
// worktree of the same state: go build 13.5 CPU s, 0.6 with -trimpath;
// go vet 56 CPU s, 1.2; the diagnostics read the same).
func goflags(dir string) string {
	if st, err := os.Stat(filepath.Join(dir, "vendor", "modules.txt")); err == nil && !st.IsDir() {
		return "-mod=vendor -trimpath"
	}
	return "-mod=readonly -trimpath"
}

func patterns(dirs []string) []string {
	if len(dirs) == 0 {
		return []string{"./..."}
	}
	out := make([]string, 0, len(dirs))
	seen := map[string]bool{}
	for _, d := range dirs {
		p := "./" + strings.TrimPrefix(filepath.ToSlash(d), "./")
		if d == "" || d == "." {
			p = "."
		}
		if !seen[p] {
			seen[p] = true
			out = append(out, p)
		}
	}
	return out
}
