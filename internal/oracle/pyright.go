package oracle

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"time"
)

// PyrightVersion is the version installed when pyright is missing.
const PyrightVersion = "1.1.414"

// Pyright is the Python oracle: pyright's type checker, the oracle the
// CodePlan paper used for Python. It runs `pyright --outputjson` on the
// state (or on the affected files), counts its errors (warnings are not
// failures) and never writes to the tree.
type Pyright struct {
	// Bin is the pyright executable; "" finds it on PATH, then in the
	// user cache, and else installs PyrightVersion there with npm.
	Bin string
	// CacheDir overrides the install location (default: the user cache
	// directory's ripple/pyright).
	CacheDir string
	// Python is the interpreter whose environment pyright resolves
	// imports in (`--pythonpath`); "" takes $RIPPLE_PYTHON, which the
	// GitHub Action sets to the virtual environment it installed the
	// project's requirements into, else pyright's own search (an active
	// virtual environment, then python on PATH).
	Python string
}

// PythonEnv names the environment variable that points pyright at an
// interpreter (Pyright.Python).
const PythonEnv = "RIPPLE_PYTHON"

// ErrNoPyright is returned when pyright is missing and cannot be
// installed.
var ErrNoPyright = errors.New("pyright is not installed and npm is not available to install it: install Node.js, then `npm install -g pyright`")

// locate returns the pyright executable, installing it when needed.
// Locate finds pyright as Check does (PATH, the user cache, else an
// install with npm), for callers that must know beforehand whether the
// Python oracle can run; the error says what is missing.
func (p *Pyright) Locate(ctx context.Context) (string, error) { return p.locate(ctx) }

func (p *Pyright) locate(ctx context.Context) (string, error) {
	if p.Bin != "" {
		return p.Bin, nil
	}
	if bin, err := exec.LookPath("pyright"); err == nil {
		return bin, nil
	}
	dir := p.CacheDir
	if dir == "" {
		base, err := os.UserCacheDir()
		if err != nil {
			return "", ErrNoPyright
		}
		dir = filepath.Join(base, "ripple", "pyright")
	}
	bin := filepath.Join(dir, "node_modules", ".bin", "pyright")
	if _, err := os.Stat(bin); err == nil {
		return bin, nil
	}
	npm, err := exec.LookPath("npm")
	if err != nil {
		return "", ErrNoPyright
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	cmd := exec.CommandContext(ctx, npm, "install", "--no-audit", "--no-fund", "--prefix", dir, "pyright@"+PyrightVersion)
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("installing pyright %s with npm: %v: %s", PyrightVersion, err, lastLine(out))
	}
	return bin, nil
}

func lastLine(b []byte) string {
	lines := bytes.Split(bytes.TrimSpace(b), []byte("\n"))
	return string(lines[len(lines)-1])
}

// Check runs pyright in dir on Options.Packages (files or directories,
// repository-relative), or on the whole project.
func (p *Pyright) Check(ctx context.Context, dir string, o Options) (*Result, error) {
	start := time.Now()
	if o.Files != nil {
		pyFiles, _ := filesWith(o.Files, ".py")
		if len(pyFiles) == 0 {
			return &Result{Pass: true}, nil // no Python in this change
		}
		o.Packages = pyFiles
	}
	bin, err := p.locate(ctx)
	if err != nil {
		return nil, err
	}
	args := []string{"--outputjson"}
	if py := p.python(); py != "" {
		args = append(args, "--pythonpath", py)
	}
	args = append(args, o.Packages...)
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Dir = dir
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err = cmd.Run()
	if ctx.Err() != nil {
		return nil, fmt.Errorf("pyright: out of time after %v: %w", time.Since(start).Round(time.Millisecond), ctx.Err())
	}
	var ee *exec.ExitError
	if err != nil && !errors.As(err, &ee) {
		return nil, fmt.Errorf("pyright: %w", err)
	}
	ds, perr := ParsePyright(stdout.Bytes(), dir)
	if perr != nil {
		return nil, fmt.Errorf("pyright: %v (%s)", perr, lastLine(stderr.Bytes()))
	}
	return &Result{Pass: len(ds) == 0, Diagnostics: ds, Took: time.Since(start), Ran: []string{"pyright " + joinArgs(args)}}, nil
}

func (p *Pyright) python() string {
	if p.Python != "" {
		return p.Python
	}
	return os.Getenv(PythonEnv)
}

func joinArgs(a []string) string {
	var b bytes.Buffer
	for i, s := range a {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(s)
	}
	return b.String()
}

// ParsePyright turns `pyright --outputjson` into diagnostics: errors
// only, lines made 1-based, paths relative to dir.
func ParsePyright(out []byte, dir string) ([]Diagnostic, error) {
	var report struct {
		GeneralDiagnostics []struct {
			File     string `json:"file"`
			Severity string `json:"severity"`
			Message  string `json:"message"`
			Rule     string `json:"rule"`
			Range    struct {
				Start struct {
					Line      int `json:"line"`
					Character int `json:"character"`
				} `json:"start"`
			} `json:"range"`
		} `json:"generalDiagnostics"`
	}
	if err := json.Unmarshal(out, &report); err != nil {
		return nil, fmt.Errorf("unreadable output: %v", err)
	}
	var ds []Diagnostic
	for _, g := range report.GeneralDiagnostics {
		if g.Severity != "error" {
			continue
		}
		msg := g.Message
		if g.Rule != "" {
			msg += " (" + g.Rule + ")"
		}
		ds = append(ds, Diagnostic{Path: rel(g.File, dir), Line: g.Range.Start.Line + 1, Col: g.Range.Start.Character + 1, Message: msg, Tool: "pyright"})
	}
	return ds, nil
}
