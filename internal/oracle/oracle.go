package oracle

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
)

// Diagnostic is one problem an oracle reported.
type Diagnostic struct {
	Path    string `json:"path,omitempty"` // repository-relative, forward slashes; empty for a whole-run problem
	Line    int    `json:"line,omitempty"`
	Col     int    `json:"col,omitempty"`
	Message string `json:"message"`
	Tool    string `json:"tool"` // "build", "vet", "test"
	Package string `json:"package,omitempty"`
}

func (d Diagnostic) String() string {
	switch {
	case d.Path != "" && d.Line > 0:
		return fmt.Sprintf("%s:%d: %s: %s", d.Path, d.Line, d.Tool, d.Message)
	case d.Path != "":
		return fmt.Sprintf("%s: %s: %s", d.Path, d.Tool, d.Message)
	}
	return d.Tool + ": " + d.Message
}

// Result is one oracle run.
type Result struct {
	Pass        bool         `json:"pass"`
	Diagnostics []Diagnostic `json:"diagnostics"`
	// Preexisting are diagnostics the state before the change had too
	// (Relative): reported, but neither blocking proof nor planned.
	Preexisting []Diagnostic  `json:"preexisting,omitempty"`
	Took        time.Duration `json:"took_ns"`
	// Ran lists the commands that ran, for reports.
	Ran []string `json:"ran"`
	// Unanalysed says what the checker was given and did not analyse
	// (its configuration excludes it): a pass then proves nothing of
	// those files, and a state whose proof rests on them is unproven.
	Unanalysed string `json:"unanalysed,omitempty"`
}

// Options selects what runs.
type Options struct {
	// Packages are the directories (repository-relative) whose packages
	// vet and test; empty means every package.
	Packages []string
	// Files are the files the change touched (repository-relative); when
	// set, each oracle judges only its own language's (the Go oracle the
	// packages of the .go files, pyright the .py files) and passes when
	// there are none.
	Files []string
	// Tests also runs the tests of the affected packages.
	Tests bool
}

// Oracle judges a state of a repository.
type Oracle interface {
	Check(ctx context.Context, dir string, o Options) (*Result, error)
}

// All runs several oracles and merges their results: the state passes
// when every one passes.
type All []Oracle

func (a All) Check(ctx context.Context, dir string, o Options) (*Result, error) {
	res := &Result{Pass: true}
	for _, or := range a {
		r, err := or.Check(ctx, dir, o)
		if err != nil {
			return nil, err
		}
		res.Pass = res.Pass && r.Pass
		res.Diagnostics = append(res.Diagnostics, r.Diagnostics...)
		res.Ran = append(res.Ran, r.Ran...)
		res.Took += r.Took
		if r.Unanalysed != "" {
			if res.Unanalysed != "" {
				res.Unanalysed += "; "
			}
			res.Unanalysed += r.Unanalysed
		}
	}
	return res, nil
}

// filesWith returns the files with an extension, and their directories.
func filesWith(files []string, ext string) (match, dirs []string) {
	seen := map[string]bool{}
	for _, f := range files {
		if filepath.Ext(f) != ext {
			continue
		}
		match = append(match, f)
		d := filepath.ToSlash(filepath.Dir(f))
		if !seen[d] {
			seen[d] = true
			dirs = append(dirs, d)
		}
	}
	return match, dirs
}

// Go is the Go oracle.
type Go struct {
	// GoCmd is the go command (default "go" on PATH).
	GoCmd string
	// Env is added to the environment of every command.
	Env []string
}

// ErrNoGo is returned when the go command is missing.
var ErrNoGo = errors.New("the go command is not installed or not on PATH (https://go.dev/dl)")

// Check runs the oracle in dir, a checkout of the state to judge.
func (g *Go) Check(ctx context.Context, dir string, o Options) (*Result, error) {
	start := time.Now()
	goCmd := g.GoCmd
	if goCmd == "" {
		goCmd = "go"
	}
	if _, err := exec.LookPath(goCmd); err != nil {
		return nil, ErrNoGo
	}
	res := &Result{}
	if o.Files != nil {
		goFiles, dirs := filesWith(o.Files, ".go")
		if len(goFiles) == 0 {
			return &Result{Pass: true}, nil // no Go in this change
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
	res.Diagnostics = append(res.Diagnostics, dedupe(res.Diagnostics, Parse(out, "vet", dir))...)

	if o.Tests {
		out, err = run("test", append([]string{"test", "-count=1"}, pkgs...)...)
		if err != nil {
			return nil, err
		}
		res.Diagnostics = append(res.Diagnostics, dedupe(res.Diagnostics, ParseTest(out, dir))...)
	}
	res.Pass = len(res.Diagnostics) == 0
	res.Took = time.Since(start)
	return res, nil
}

// goflags keeps module files read-only, or uses the vendor directory when
// the module has one.
func goflags(dir string) string {
	if st, err := os.Stat(filepath.Join(dir, "vendor", "modules.txt")); err == nil && !st.IsDir() {
		return "-mod=vendor"
	}
	return "-mod=readonly"
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

// dedupe drops diagnostics already reported (vet repeats the build's type
// errors).
func dedupe(have, add []Diagnostic) []Diagnostic {
	seen := map[string]bool{}
	for _, d := range have {
		seen[fmt.Sprintf("%s:%d:%s", d.Path, d.Line, d.Message)] = true
	}
	var out []Diagnostic
	for _, d := range add {
		k := fmt.Sprintf("%s:%d:%s", d.Path, d.Line, d.Message)
		if !seen[k] {
			seen[k] = true
			out = append(out, d)
		}
	}
	return out
}
