package pyright

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"time"
)

// The type tier's run (the Python front-end's pyrighttier.go): pyright on
// the files holding a check's sites, through a configuration of Ripple's
// own written outside the tree, which includes exactly those files and
// carries the repository's settings (Settings) and environment (a
// virtual environment of the tree). Every diagnostic is kept, with its
// rule and range: the tier reads errors as evidence and the reports of
// unknown types (rules this configuration turns on, UnknownRules) as
// what pyright could not type.

// Project is what one type-tier run analyses.
type Project struct {
	// Root is the folder holding the state (the work tree, or a copy of
	// the head state); Files are the files to analyse, relative to it.
	Root  string
	Files []string
	// ExtraPaths are import roots relative to Root, searched after the
	// repository's own (the front-end's roots: test folders without
	// __init__.py, src layouts).
	ExtraPaths []string
	// Settings are the repository's pyright settings (ReadSettings);
	// nil when it has none.
	Settings *Settings
	// Venv is the absolute path of a virtual environment's folder ("" none).
	Venv string
}

// Analysis is one run's answer.
type Analysis struct {
	// Diagnostics are every diagnostic pyright reported on the files,
	// paths relative to Root.
	Diagnostics []Diag
	// Analysed is the number of files pyright analysed; Complete is set
	// when it analysed every file it was given.
	Analysed int
	Complete bool
	Took     time.Duration
	Cmd      string
}

// Diag is one pyright diagnostic with its range (1-based lines, columns
// in characters from 1) and rule.
type Diag struct {
	Path                       string
	Line, Col, EndLine, EndCol int
	Severity, Rule, Message    string
}

// UnknownRules are the rules the tier's configuration turns on so that
// pyright says where it could not type an expression: a member, an
// argument or a variable whose type is unknown or partly unknown.
var UnknownRules = []string{"reportUnknownMemberType", "reportUnknownArgumentType", "reportUnknownVariableType", "reportUnknownLambdaType"}

// evidenceRules are the rules whose errors the tier reads as evidence,
// set to error whatever the repository's mode says.
var evidenceRules = []string{"reportAttributeAccessIssue", "reportCallIssue", "reportArgumentType", "reportMissingImports", "reportUndefinedVariable"}

// Analyse runs pyright on the project's files.
func (p *Oracle) Analyse(ctx context.Context, proj Project) (*Analysis, error) {
	start := time.Now()
	bin, err := p.locate(ctx)
	if err != nil {
		return nil, err
	}
	cfg, cleanup, err := tierConfig(proj)
	if err != nil {
		return nil, fmt.Errorf("pyright: %w", err)
	}
	defer cleanup()
	args := []string{"--outputjson", "--project", cfg}
	if py := p.python(); py != "" && proj.Venv == "" {
		args = append(args, "--pythonpath", py)
	}
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Dir = proj.Root
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
	ds, n, perr := parseAll(stdout.Bytes(), proj.Root)
	if perr != nil {
		return nil, fmt.Errorf("pyright: %v (%s)", perr, lastLine(stderr.Bytes()))
	}
	return &Analysis{Diagnostics: ds, Analysed: n, Complete: n >= len(proj.Files), Took: time.Since(start),
		Cmd: fmt.Sprintf("pyright on %d files", len(proj.Files))}, nil
}

func lastLine(b []byte) string {
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	return lines[len(lines)-1]
}

// parseAll reads every diagnostic of `pyright --outputjson` and the
// number of files analysed.
func parseAll(out []byte, root string) ([]Diag, int, error) {
	var report struct {
		GeneralDiagnostics []struct {
			File     string `json:"file"`
			Severity string `json:"severity"`
			Message  string `json:"message"`
			Rule     string `json:"rule"`
			Range    struct {
				Start struct{ Line, Character int } `json:"start"`
				End   struct{ Line, Character int } `json:"end"`
			} `json:"range"`
		} `json:"generalDiagnostics"`
		Summary *struct {
			FilesAnalyzed int `json:"filesAnalyzed"`
		} `json:"summary"`
	}
	if err := json.Unmarshal(out, &report); err != nil {
		return nil, 0, fmt.Errorf("unreadable output: %v", err)
	}
	if report.Summary == nil {
		return nil, 0, errors.New("output without a summary")
	}
	abs, _ := filepath.Abs(root)
	real, err := filepath.EvalSymlinks(abs)
	if err != nil {
		real = abs
	}
	var ds []Diag
	for _, g := range report.GeneralDiagnostics {
		rel := g.File
		for _, base := range []string{abs, real} {
			if r, err := filepath.Rel(base, g.File); err == nil && !strings.HasPrefix(r, "..") {
				rel = filepath.ToSlash(r)
				break
			}
		}
		ds = append(ds, Diag{Path: rel, Line: g.Range.Start.Line + 1, Col: g.Range.Start.Character + 1,
			EndLine: g.Range.End.Line + 1, EndCol: g.Range.End.Character + 1,
			Severity: g.Severity, Rule: g.Rule, Message: g.Message})
	}
	return ds, report.Summary.FilesAnalyzed, nil
}

// tierConfig writes the run's configuration in a folder of its own
// (pyright reads include paths relative to the configuration's folder
// only): the repository's settings, the project's files and import
// roots, and the rules the tier reads.
func tierConfig(proj Project) (string, func(), error) {
	tmp, err := os.MkdirTemp("", "ripple-pyright-")
	if err != nil {
		return "", nil, err
	}
	cleanup := func() { os.RemoveAll(tmp) }
	abs, err := filepath.Abs(proj.Root)
	if err == nil {
		abs, err = filepath.EvalSymlinks(abs)
	}
	tmpReal, err2 := filepath.EvalSymlinks(tmp)
	if err == nil {
		err = err2
	}
	relFrom := func(abs string) (string, error) {
		if r, err := filepath.EvalSymlinks(abs); err == nil {
			abs = r
		}
		r, err := filepath.Rel(tmpReal, abs)
		return filepath.ToSlash(r), err
	}
	var root string
	if err == nil {
		root, err = relFrom(abs)
	}
	if err != nil {
		cleanup()
		return "", nil, err
	}
	rel := func(p string) string { return root + "/" + filepath.ToSlash(p) }
	cfg := map[string]any{}
	if proj.Settings != nil {
		for k, v := range proj.Settings.Values {
			cfg[k] = v
		}
		for _, k := range pathKeys {
			if s, ok := cfg[k].(string); ok && !filepath.IsAbs(s) {
				cfg[k] = rel(s)
			}
		}
	}
	var extra []string
	if proj.Settings != nil {
		if ps, ok := proj.Settings.Values["extraPaths"].([]any); ok {
			for _, p := range ps {
				if s, ok := p.(string); ok {
					extra = append(extra, rel(s))
				}
			}
		}
	}
	for _, p := range proj.ExtraPaths {
		extra = append(extra, rel(p))
	}
	delete(cfg, "extraPaths")
	include := make([]string, len(proj.Files))
	for i, f := range proj.Files {
		include[i] = rel(f)
	}
	sort.Strings(include)
	cfg["include"] = include
	cfg["exclude"] = []string{}
	env := map[string]any{"root": root}
	if len(extra) > 0 {
		env["extraPaths"] = extra
	}
	cfg["executionEnvironments"] = []map[string]any{env}
	if _, ok := cfg["stubPath"]; !ok {
		cfg["stubPath"] = root + "/typings"
	}
	if proj.Venv != "" {
		if d, err := relFrom(filepath.Dir(proj.Venv)); err == nil {
			cfg["venvPath"] = d
			cfg["venv"] = filepath.Base(proj.Venv)
		}
	}
	// silence must mean analysed: every body checked, no comment hiding
	// an error (a `# type: ignore` would make a broken site look fine)
	cfg["analyzeUnannotatedFunctions"] = true
	cfg["enableTypeIgnoreComments"] = false
	for _, r := range evidenceRules {
		cfg[r] = "error"
	}
	for _, r := range UnknownRules {
		cfg[r] = "error"
	}
	b, err := json.Marshal(cfg)
	if err == nil {
		err = os.WriteFile(filepath.Join(tmp, "pyrightconfig.json"), b, 0o644)
	}
	if err != nil {
		cleanup()
		return "", nil, err
	}
	return filepath.Join(tmp, "pyrightconfig.json"), cleanup, nil
}
