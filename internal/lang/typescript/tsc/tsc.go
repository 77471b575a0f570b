package tsc

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"sync"

	"github.com/ripple-dev/ripple/internal/oracle"
	"github.com/ripple-dev/ripple/internal/usercache"
)

// Version is the TypeScript version installed when tsc is missing:
// TypeScript 7, the compiler ported to native code. Its npm package
// `typescript` ships a Node shim (bin/tsc) and, in a platform package
// (@typescript/typescript-linux-x64, ...), the native executable, which
// Ripple runs directly: no Node process is needed once it is installed.
const Version = "7.0.2"

// Compiler finds (or installs) TypeScript 7's compiler. It is shared by the
// TypeScript oracle (Check, tscoracle.go) and the front-end's type-precise
// tier.
type Compiler struct {
	// Bin is the tsc executable; "" finds it: a TypeScript 7 `tsgo` or
	// `tsc` on PATH, then the user cache, else an npm install of
	// Version there (unless NoInstall).
	Bin string
	// CacheDir overrides the install location (default: the user cache
	// directory's ripple/typescript).
	CacheDir string
	// NoInstall finds tsc without ever running npm (a pre-push check
	// must not reach the network unasked).
	NoInstall bool

	once sync.Once
	bin  string
	err  error
}

// ErrNotFound is returned when tsc is missing and cannot be installed.
var ErrNotFound = errors.New("tsc (TypeScript 7) is not installed and npm is not available to install it: install Node.js, then `npm install -g typescript@7`")

// ErrNotInstalled is returned by a Compiler with NoInstall when no
// TypeScript 7 compiler is found.
type ErrNotInstalled struct{ Cache string }

func (e *ErrNotInstalled) Error() string {
	return fmt.Sprintf("tsc (TypeScript 7) is not installed: `precision: types` installs it, or run `npm install --prefix %s typescript@%s`", e.Cache, Version)
}

// Locate returns the tsc executable, installing it when needed and
// allowed; the error says what is missing. It is asked once per Compiler.
func (t *Compiler) Locate(ctx context.Context) (string, error) {
	t.once.Do(func() { t.bin, t.err = t.locate(ctx) })
	return t.bin, t.err
}

func (t *Compiler) cacheDir() (string, error) {
	if t.CacheDir != "" {
		return t.CacheDir, nil
	}
	return usercache.ToolDir("typescript")
}

func (t *Compiler) locate(ctx context.Context) (string, error) {
	if t.Bin != "" {
		return t.Bin, nil
	}
	for _, name := range []string{"tsgo", "tsc"} {
		if p, err := exec.LookPath(name); err == nil {
			if native := nativeBeside(p); native != "" && isTSC7(ctx, native) {
				return native, nil
			}
			if isTSC7(ctx, p) {
				return p, nil
			}
		}
	}
	dir, err := t.cacheDir()
	if err != nil {
		return "", ErrNotFound
	}
	if bin := installedIn(dir); bin != "" {
		return bin, nil
	}
	if t.NoInstall {
		return "", &ErrNotInstalled{Cache: dir}
	}
	npm, err := exec.LookPath("npm")
	if err != nil {
		return "", ErrNotFound
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	oracle.SayInstalling(ctx, "typescript", Version, dir)
	cmd := exec.CommandContext(ctx, npm, "install", "--no-audit", "--no-fund", "--prefix", dir, "typescript@"+Version)
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("installing typescript %s with npm: %v: %s", Version, err, oracle.LastLine(out))
	}
	if bin := installedIn(dir); bin != "" {
		return bin, nil
	}
	return "", fmt.Errorf("npm installed typescript %s in %s, but neither its native compiler for %s/%s nor its bin/tsc is there", Version, dir, runtime.GOOS, runtime.GOARCH)
}

// platformPackage is the npm package holding the native compiler for
// this platform, named as Node names platforms and architectures.
func platformPackage() string {
	goos := runtime.GOOS
	if goos == "windows" {
		goos = "win32"
	}
	arch := runtime.GOARCH
	switch arch {
	case "amd64":
		arch = "x64"
	case "386":
		arch = "ia32"
	}
	return "typescript-" + goos + "-" + arch
}

func exeName() string {
	if runtime.GOOS == "windows" {
		return "tsc.exe"
	}
	return "tsc"
}

// installedIn returns the compiler an npm prefix holds: the native
// executable, else the Node shim; "" when there is none.
func installedIn(prefix string) string {
	nm := filepath.Join(prefix, "node_modules")
	for _, p := range []string{
		filepath.Join(nm, "@typescript", platformPackage(), "lib", exeName()),
		filepath.Join(nm, "typescript", "node_modules", "@typescript", platformPackage(), "lib", exeName()),
		filepath.Join(nm, ".bin", "tsc"),
	} {
		if st, err := os.Stat(p); err == nil && !st.IsDir() {
			return p
		}
	}
	return ""
}

// nativeBeside finds the native executable next to a tsc found on PATH
// that is the npm package's Node shim (…/node_modules/typescript/bin/tsc,
// or a .bin link to it); "" when there is none.
func nativeBeside(p string) string {
	real, err := filepath.EvalSymlinks(p)
	if err != nil {
		return ""
	}
	pkg := filepath.Dir(filepath.Dir(real)) // …/node_modules/typescript
	if filepath.Base(pkg) != "typescript" {
		return ""
	}
	for _, c := range []string{
		filepath.Join(filepath.Dir(pkg), "@typescript", platformPackage(), "lib", exeName()),
		filepath.Join(pkg, "node_modules", "@typescript", platformPackage(), "lib", exeName()),
	} {
		if st, err := os.Stat(c); err == nil && !st.IsDir() {
			return c
		}
	}
	return ""
}

var versionRE = regexp.MustCompile(`Version (\d+)\.`)

// isTSC7 reports whether an executable is a TypeScript compiler of
// version 7 or later (an older tsc on PATH is passed over).
func isTSC7(ctx context.Context, bin string) bool {
	out, err := exec.CommandContext(ctx, bin, "--version").Output()
	if err != nil {
		return false
	}
	m := versionRE.FindSubmatch(out)
	if m == nil {
		return false
	}
	v, _ := strconv.Atoi(string(m[1]))
	return v >= 7
}

// Diagnostic is one diagnostic of `tsc --pretty false`.
type Diagnostic struct {
	Path      string // as printed (relative to tsc's working directory), "" for a global one
	Line, Col int    // 1-based; Col counts UTF-16 code units, as tsc does
	Category  string // "error", "warning", "message"
	Code      int    // 2345 for TS2345
	Message   string // the first line
	// Detail holds the lines that elaborate the message (the chain of
	// "Type X is not assignable to type Y" reasons, "The file is in
	// the program because: ..."), without their indentation.
	Detail []string
}

func (d Diagnostic) String() string {
	s := fmt.Sprintf("%s TS%d: %s", d.Category, d.Code, d.Message)
	if d.Path != "" {
		s = fmt.Sprintf("%s(%d,%d): %s", d.Path, d.Line, d.Col, s)
	}
	return s
}

var (
	tscPosRE    = regexp.MustCompile(`^(.+)\((\d+),(\d+)\): (error|warning|message) TS(\d+): (.*)$`)
	tscGlobalRE = regexp.MustCompile(`^(error|warning|message) TS(\d+): (.*)$`)
)

// Parse reads the output of `tsc --pretty false`: one line a
// diagnostic, `path(line,col): error TS2345: message` or, for a
// diagnostic of no file, `error TS2688: message`; indented lines
// elaborate the one before. Other lines (a summary) are skipped.
func Parse(out []byte) []Diagnostic {
	var ds []Diagnostic
	for _, line := range strings.Split(strings.ReplaceAll(string(out), "\r\n", "\n"), "\n") {
		if strings.TrimSpace(line) == "" {
			continue
		}
		if strings.HasPrefix(line, " ") {
			if len(ds) > 0 {
				ds[len(ds)-1].Detail = append(ds[len(ds)-1].Detail, strings.TrimSpace(line))
			}
			continue
		}
		if m := tscPosRE.FindStringSubmatch(line); m != nil {
			d := Diagnostic{Path: m[1], Category: m[4], Message: m[6]}
			d.Line, _ = strconv.Atoi(m[2])
			d.Col, _ = strconv.Atoi(m[3])
			d.Code, _ = strconv.Atoi(m[5])
			ds = append(ds, d)
			continue
		}
		if m := tscGlobalRE.FindStringSubmatch(line); m != nil {
			d := Diagnostic{Category: m[1], Message: m[3]}
			d.Code, _ = strconv.Atoi(m[2])
			ds = append(ds, d)
		}
	}
	return ds
}

// tscDiagnostics turns tsc's errors into oracle diagnostics, paths made
// relative to dir (tsc prints them relative to its working directory,
// which is dir).
func tscDiagnostics(ds []Diagnostic, dir string) []oracle.Diagnostic {
	var out []oracle.Diagnostic
	for _, d := range ds {
		if d.Category != "error" {
			continue
		}
		p := d.Path
		if p != "" {
			if !filepath.IsAbs(p) {
				p = filepath.Join(dir, p)
			}
			p = oracle.RelPath(p, dir)
		}
		// a message naming a file of the checked tree names it relative
		// to the tree: the baseline compares states checked at different
		// paths (a scratch worktree per run)
		msg := strings.ReplaceAll(d.Message, dir+string(filepath.Separator), "")
		out = append(out, oracle.Diagnostic{Path: p, Line: d.Line, Col: d.Col, Message: fmt.Sprintf("%s (TS%d)", msg, d.Code), Tool: "tsc", Lacks: tscUnresolved(d)})
	}
	return out
}

// runTSC runs tsc in dir with args; its exit status says only whether
// there were errors, so only a failure to run is an error.
func runTSC(ctx context.Context, bin, dir string, args ...string) ([]byte, error) {
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Dir = dir
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	if ctx.Err() != nil {
		return nil, fmt.Errorf("tsc: out of time: %w", ctx.Err())
	}
	var ee *exec.ExitError
	if err != nil && !errors.As(err, &ee) {
		return nil, fmt.Errorf("tsc: %w", err)
	}
	if err != nil && stdout.Len() == 0 {
		return nil, fmt.Errorf("tsc: %v: %s", err, oracle.LastLine(stderr.Bytes()))
	}
	return stdout.Bytes(), nil
}
