package oracle

import (
	"bytes"
	"context"
	"fmt"
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
	// Source is the text of the line the diagnostic stands at, spaces
	// trimmed (AddSources): the baseline tells an old diagnostic from a
	// new one of the same message by it.
	Source string `json:"source,omitempty"`
	// Lacks says what the diagnostic shows the checker lacked ("module
	// react", "the JSX types"), "" when it shows nothing missing: such a
	// diagnostic judges the environment, not the code, and the baseline
	// excuses it where the state before lacked the same.
	Lacks string `json:"lacks,omitempty"`
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

// FilesWith returns the files with an extension, and their directories.
func FilesWith(files []string, ext string) (match, dirs []string) {
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

// Dedupe drops diagnostics already reported (vet repeats the build's
// type errors).
func Dedupe(have, add []Diagnostic) []Diagnostic {
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

// LastLine is the last line of a tool's output, for an error that says
// why it failed.
func LastLine(b []byte) string {
	lines := bytes.Split(bytes.TrimSpace(b), []byte("\n"))
	return string(lines[len(lines)-1])
}

// RelPath makes a path a tool printed relative to dir, slash-separated.
func RelPath(p, dir string) string {
	if filepath.IsAbs(p) && dir != "" {
		if r, err := filepath.Rel(dir, p); err == nil && !strings.HasPrefix(r, "..") {
			p = r
		}
	}
	return strings.TrimPrefix(filepath.ToSlash(p), "./")
}
