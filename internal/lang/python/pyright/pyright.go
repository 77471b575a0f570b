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
	"regexp"
	"strings"
	"time"

	"github.com/ripple-dev/ripple/internal/oracle"
	"github.com/ripple-dev/ripple/internal/usercache"
)

// Version is the version installed when pyright is missing.
const Version = "1.1.414"

// Oracle is the Python oracle: pyright's type checker, the oracle the
// CodePlan paper used for Python. It runs `pyright --outputjson` on the
// state (or on the affected files), counts its errors (warnings are not
// failures) and never writes to the tree.
type Oracle struct {
	// Bin is the pyright executable; "" finds it on PATH, then in the
	// user cache, and else installs Version there with npm.
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
	// NoInstall makes a missing pyright an error instead of an install
	// (auto precision: a pre-push check never reaches the network
	// unasked).
	NoInstall bool
}

// PythonEnv names the environment variable that points pyright at an
// interpreter (Oracle.Python).
const PythonEnv = "RIPPLE_PYTHON"

// ErrNotFound is returned when pyright is missing and cannot be
// installed.
var ErrNotFound = errors.New("pyright is not installed and npm is not available to install it: install Node.js, then `npm install -g pyright`")

// locate returns the pyright executable, installing it when needed.
// Locate finds pyright as Check does (PATH, the user cache, else an
// install with npm), for callers that must know beforehand whether the
// Python oracle can run; the error says what is missing.
func (p *Oracle) Locate(ctx context.Context) (string, error) { return p.locate(ctx) }

func (p *Oracle) locate(ctx context.Context) (string, error) {
	if p.Bin != "" {
		return p.Bin, nil
	}
	if bin, err := exec.LookPath("pyright"); err == nil {
		return bin, nil
	}
	dir := p.CacheDir
	if dir == "" {
		d, err := usercache.ToolDir("pyright")
		if err != nil {
			return "", ErrNotFound
		}
		dir = d
	}
	bin := filepath.Join(dir, "node_modules", ".bin", "pyright")
	if _, err := os.Stat(bin); err == nil {
		return bin, nil
	}
	if p.NoInstall {
		return "", errors.New("pyright is not installed (`hook tools install` installs it)")
	}
	npm, err := exec.LookPath("npm")
	if err != nil {
		return "", ErrNotFound
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	oracle.SayInstalling(ctx, "pyright", Version, dir)
	cmd := exec.CommandContext(ctx, npm, "install", "--no-audit", "--no-fund", "--prefix", dir, "pyright@"+Version)
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("installing pyright %s with npm: %v: %s", Version, err, oracle.LastLine(out))
	}
	return bin, nil
}

// Check runs pyright in dir on Options.Packages (files or directories,
// repository-relative), or on the whole project.
func (p *Oracle) Check(ctx context.Context, dir string, o oracle.Options) (*oracle.Result, error) {
	start := time.Now()
	if o.Files != nil {
		pyFiles, _ := oracle.FilesWith(o.Files, ".py")
		if len(pyFiles) == 0 {
			return &oracle.Result{Pass: true}, nil // no Python in this change
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
	if o.Files != nil && inDotFolder(o.Packages) && !hasPyrightConfig(dir) {
		// pyright's default exclude ("**/.*") drops files under dot-folders
		// (.github/scripts) even when they are named on the command line,
		// and it then analyses nothing and passes: give it a configuration
		// of its own that includes exactly the files, with the repository
		// as the root imports resolve from
		cfg, cleanup, err := pyrightConfig(dir, o.Packages)
		if err != nil {
			return nil, fmt.Errorf("pyright: %w", err)
		}
		defer cleanup()
		args = append(args, "--project", cfg)
	} else {
		args = append(args, o.Packages...)
	}
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
	ds, perr := Parse(stdout.Bytes(), dir)
	if perr != nil {
		return nil, fmt.Errorf("pyright: %v (%s)", perr, oracle.LastLine(stderr.Bytes()))
	}
	oracle.AddSources(dir, ds)
	res := &oracle.Result{Pass: len(ds) == 0, Diagnostics: ds, Took: time.Since(start), Ran: []string{"pyright " + joinArgs(args)}}
	if o.Files != nil {
		if n, ok := pyrightAnalysed(stdout.Bytes()); ok && n < len(o.Packages) {
			res.Unanalysed = fmt.Sprintf("pyright analysed %d of the %d Python files it was given: its configuration excludes the others", n, len(o.Packages))
		}
	}
	return res, nil
}

// pyrightAnalysed reads the number of files pyright analysed from its
// JSON summary.
func pyrightAnalysed(out []byte) (int, bool) {
	var report struct {
		Summary *struct {
			FilesAnalyzed int `json:"filesAnalyzed"`
		} `json:"summary"`
	}
	if json.Unmarshal(out, &report) != nil || report.Summary == nil {
		return 0, false
	}
	return report.Summary.FilesAnalyzed, true
}

// inDotFolder reports a path with a folder whose name starts with a dot.
func inDotFolder(paths []string) bool {
	for _, p := range paths {
		parts := strings.Split(filepath.ToSlash(p), "/")
		for _, d := range parts[:len(parts)-1] {
			if strings.HasPrefix(d, ".") && d != "." && d != ".." {
				return true
			}
		}
	}
	return false
}

// hasPyrightConfig reports a repository that configures pyright itself
// (pyrightconfig.json, or [tool.pyright] in pyproject.toml): its own
// include and exclude then stand, and what they exclude is unanalysed.
func hasPyrightConfig(dir string) bool {
	if _, err := os.Stat(filepath.Join(dir, "pyrightconfig.json")); err == nil {
		return true
	}
	b, err := os.ReadFile(filepath.Join(dir, "pyproject.toml"))
	return err == nil && bytes.Contains(b, []byte("[tool.pyright"))
}

// pyrightConfig writes a configuration outside dir that includes exactly
// files (repository-relative) and excludes nothing, with dir as the root
// of the one execution environment (imports resolve from it, as they do
// when pyright runs in dir). pyright reads include paths relative to the
// configuration's folder only.
func pyrightConfig(dir string, files []string) (string, func(), error) {
	tmp, err := os.MkdirTemp("", "ripple-pyright-")
	if err != nil {
		return "", nil, err
	}
	cleanup := func() { os.RemoveAll(tmp) }
	abs, err := filepath.Abs(dir)
	if err != nil {
		cleanup()
		return "", nil, err
	}
	root, err := filepath.Rel(tmp, abs)
	if err != nil {
		cleanup()
		return "", nil, err
	}
	root = filepath.ToSlash(root)
	include := make([]string, len(files))
	for i, f := range files {
		include[i] = root + "/" + filepath.ToSlash(f)
	}
	cfg := map[string]any{
		"include":               include,
		"exclude":               []string{},
		"executionEnvironments": []map[string]string{{"root": root}},
		"stubPath":              root + "/typings",
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

func (p *Oracle) python() string {
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

// Parse turns `pyright --outputjson` into diagnostics: errors
// only, lines made 1-based, paths relative to dir.
func Parse(out []byte, dir string) ([]oracle.Diagnostic, error) {
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
	var ds []oracle.Diagnostic
	for _, g := range report.GeneralDiagnostics {
		if g.Severity != "error" {
			continue
		}
		msg := g.Message
		if g.Rule != "" {
			msg += " (" + g.Rule + ")"
		}
		ds = append(ds, oracle.Diagnostic{Path: oracle.RelPath(g.File, dir), Line: g.Range.Start.Line + 1, Col: g.Range.Start.Character + 1, Message: msg, Tool: "pyright", Lacks: lacks(g.Rule, g.Message)})
	}
	return ds, nil
}

// importRE is the module an unresolved import names.
var importRE = regexp.MustCompile(`^Import "([^"]+)"`)

// lacks says what a diagnostic shows pyright lacked: a module it could
// not resolve (not installed, or its source missing), "" otherwise.
func lacks(rule, msg string) string {
	switch rule {
	case "reportMissingImports", "reportMissingModuleSource":
		if m := importRE.FindStringSubmatch(msg); m != nil {
			return "module " + m[1]
		}
	}
	return ""
}
