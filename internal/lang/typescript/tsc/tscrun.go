package tsc

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"
)

// Run is one `tsc --noEmit` of one project.
type Run struct {
	Project *Project
	// Diagnostics are tsc's, with paths absolute.
	Diagnostics []Diagnostic
	// Unresolved lists, once each and sorted, what the program lacked:
	// modules and type libraries not found (not installed: no
	// node_modules), global names nothing declares, configuration parts
	// missing or dropped. Types that come from them are `any` to tsc,
	// which then reports nothing about the code using them: its silence
	// is no evidence there.
	Unresolved []string
	// UnresolvedIn maps a file (absolute) to what it imports that was
	// not found.
	UnresolvedIn map[string][]string
	// Dropped names the type libraries of compilerOptions.types that are
	// not installed and were left out (tsc checks nothing otherwise). A
	// program that used their globals shows it by errors about names it
	// could not find (then in Unresolved); one that did not lacked
	// nothing.
	Dropped []string
	// Configured says the configuration could not be made acceptable to
	// tsc; then tsc checked nothing and Diagnostics hold only why.
	Configured bool
	Took       time.Duration
	Cmd        string
	// Roots counts the files given to tsc (it reads what they import too).
	Roots int
}

// RunOptions tunes a run.
type RunOptions struct {
	// Paths are added to compilerOptions.paths (absolute targets) where
	// the project has no entry of that pattern: the checker maps the
	// repository's workspace packages to their sources, which node_modules
	// would link (and does not hold in a fresh checkout).
	Paths map[string][]string
	// Roots, when set, are the only files of the project checked (with
	// the files they import, and the project's ambient declarations:
	// declaration files and files declaring globals or modules, which
	// the code of any file may rely on). Default: every file.
	Roots []string
	// Checkers is tsc's --checkers, the type checkers working in
	// parallel (0: tsc's default, 4). Each checker resolves the types it
	// meets on its own, the default library's included: on 2 cores, a
	// program of a few files checked with one took 15% less time and 20%
	// less CPU than with four (playwright, bench/tsc.sh's sites).
	Checkers int
	// TempDir is where the run's configuration is written (default: a
	// new temporary directory, removed afterwards). The checked
	// directory itself is never written.
	TempDir string
}

// wrapperPrefix names the configurations a run writes.
const wrapperPrefix = "tsconfig.ripple-"

// Run type-checks a project with `tsc --noEmit --pretty false`, in dir
// (the directory tsc prints paths relative to). The project's
// configuration is flattened into one of Ripple's own, written outside
// the project: compiler options from `tsc --showConfig`, the project's
// files as roots, no project references (imports of referenced projects
// are then checked from their sources), emit options dropped, and the
// options TypeScript 7 removed replaced by their successors (node10 and
// classic module resolution by bundler, baseUrl by paths, ES5 by
// ES2015, ...) so that an older project is still checked rather than
// refused; type libraries that are not installed are dropped and named
// in Unresolved. An option tsc still refuses is dropped and the run
// repeated (at most three times).
func (t *Compiler) Run(ctx context.Context, bin, dir string, p *Project, o RunOptions) (*Run, error) {
	start := time.Now()
	tmp := o.TempDir
	if tmp == "" {
		d, err := os.MkdirTemp("", "ripple-tsc-")
		if err != nil {
			return nil, err
		}
		defer os.RemoveAll(d)
		tmp = d
	}
	run := &Run{Project: p, UnresolvedIn: map[string][]string{}}
	opts, dropped := tscOptions(p, o.Paths)
	unresolved := map[string]bool{}
	for _, m := range p.Missing {
		unresolved[m] = true
	}
	run.Dropped = dropped
	cfg, err := os.CreateTemp(tmp, wrapperPrefix+"*.json")
	if err != nil {
		return nil, err
	}
	cfg.Close()
	roots := append([]string(nil), p.Files...)
	if len(o.Roots) > 0 {
		roots = append(append([]string(nil), o.Roots...), ambient(p.Files, o.Roots)...)
	}
	sort.Strings(roots)
	run.Roots = len(roots)
	if _, set := opts["allowJs"]; !set && slices.ContainsFunc(roots, isJS) {
		// a JavaScript file governed by no configuration that allows
		// JavaScript (a repository without tsconfig.json): without
		// allowJs tsc refuses the file (TS6504) and checks nothing
		opts["allowJs"] = true
	}
	for attempt := 0; ; attempt++ {
		b, err := json.MarshalIndent(map[string]any{"compilerOptions": opts, "files": roots}, "", " ")
		if err != nil {
			return nil, err
		}
		if err := os.WriteFile(cfg.Name(), b, 0o644); err != nil {
			return nil, err
		}
		run.Cmd = "tsc --noEmit --pretty false -p " + p.Name(dir)
		args := []string{"--noEmit", "--pretty", "false", "-p", cfg.Name()}
		if o.Checkers > 0 {
			args = append(args, "--checkers", strconv.Itoa(o.Checkers))
		}
		out, err := runTSC(ctx, bin, dir, args...)
		if err != nil {
			return nil, err
		}
		ds := Parse(out)
		var bad []Diagnostic
		for i := range ds {
			if ds[i].Path != "" && !filepath.IsAbs(ds[i].Path) {
				ds[i].Path = filepath.Join(dir, filepath.FromSlash(ds[i].Path))
			}
			if ds[i].Path == cfg.Name() || ds[i].Path == "" && (ds[i].Code >= 5000 && ds[i].Code < 7000) {
				bad = append(bad, ds[i])
			}
		}
		if len(bad) == 0 {
			run.Diagnostics = ds
			break
		}
		// an option tsc refuses: drop it and run again
		fixed := false
		for _, d := range bad {
			if name := refusedOption(d.Message); name != "" {
				if _, ok := opts[name]; ok {
					delete(opts, name)
					unresolved["the compiler option "+name+" (refused by TypeScript 7)"] = true
					fixed = true
				}
			}
		}
		if !fixed || attempt >= 2 {
			run.Configured = true
			for _, d := range bad {
				d.Path = relOr(p.Config, dir)
				run.Diagnostics = append(run.Diagnostics, d)
				unresolved["the configuration ("+d.Message+")"] = true
			}
			break
		}
	}
	for _, d := range run.Diagnostics {
		what := tscUnresolved(d)
		if what == "" {
			continue
		}
		unresolved[what] = true
		if d.Path != "" && !slices.Contains(run.UnresolvedIn[d.Path], what) {
			run.UnresolvedIn[d.Path] = append(run.UnresolvedIn[d.Path], what)
		}
	}
	for u := range unresolved {
		run.Unresolved = append(run.Unresolved, u)
	}
	sort.Strings(run.Unresolved)
	run.Took = time.Since(start)
	return run, nil
}

// isJS reports a JavaScript source file.
func isJS(p string) bool {
	switch filepath.Ext(p) {
	case ".js", ".jsx", ".mjs", ".cjs":
		return true
	}
	return false
}

// ambientDecl reports a declaration that reaches every file of a
// program, at the start of a line: a global augmentation, an ambient
// module or namespace (`declare global`, `export declare module 'x'`,
// `declare namespace N`).
func ambientDecl(src []byte) bool {
	if !bytes.Contains(src, []byte("declare")) {
		return false
	}
	return eachLine(src, func(i int) bool {
		if k, ok := keyword(src, i, "export"); ok && k > i+len("export") {
			i = k
		}
		k, ok := keyword(src, i, "declare")
		if !ok || k == i+len("declare") {
			return false
		}
		if _, ok := keyword(src, k, "global"); ok {
			return true
		}
		for _, w := range []string{"module", "namespace"} {
			if e, ok := keyword(src, k, w); ok && e > k+len(w) {
				return true
			}
		}
		return false
	})
}

// moduleStmt reports an import or export statement at the start of a
// line: a file with none is a script, whose top-level declarations are
// global.
func moduleStmt(src []byte) bool {
	return eachLine(src, func(i int) bool {
		_, imp := keyword(src, i, "import")
		_, exp := keyword(src, i, "export")
		return imp || exp
	})
}

// eachLine calls match at the first non-space of each line (white space
// may run over lines, as `^\s*` does in a multi-line regular
// expression) until it returns true. A scan: the regular expressions it
// replaced took 130 ms over playwright's 1,453 files each time tsc ran.
func eachLine(src []byte, match func(i int) bool) bool {
	for i := 0; i < len(src); {
		k := skipSpaces(src, i)
		if k < len(src) && match(k) {
			return true
		}
		n := bytes.IndexByte(src[k:], '\n')
		if n < 0 {
			return false
		}
		i = k + n + 1
	}
	return false
}

// keyword reports whether src holds w at offset i as a whole word (not
// followed by a letter, digit or '_'), and returns the offset after it
// and the white space that follows.
func keyword(src []byte, i int, w string) (int, bool) {
	if !bytes.HasPrefix(src[i:], []byte(w)) {
		return i, false
	}
	e := i + len(w)
	if e < len(src) && wordByte(src[e]) {
		return i, false
	}
	return skipSpaces(src, e), true
}

func skipSpaces(src []byte, i int) int {
	for i < len(src) && (src[i] == ' ' || src[i] == '\t' || src[i] == '\n' || src[i] == '\f' || src[i] == '\r') {
		i++
	}
	return i
}

func wordByte(c byte) bool {
	return c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

// ambient lists the files of a project, other than those given, whose
// declarations any file may see without importing them: scripts (files
// without an import or export, whose top-level declarations are
// global) and declaration files that declare globals, ambient modules or
// namespaces; a declaration file that is a module and only augments the
// global scope, when one of the given files names what it declares
// (tscglobal.go). Modules that augment the global scope besides their own
// code (`declare global` in a .ts module) are left out: they import
// much (playwright's screenshotter.ts), and code using what they
// declare shows it by an error, which no site ignores.
func ambient(files, except []string) []string {
	skip := map[string]bool{}
	for _, f := range except {
		skip[f] = true
	}
	var texts [][]byte // of the given files, read when needed
	read := false
	var out []string
	for _, f := range files {
		if skip[f] {
			continue
		}
		dts := strings.HasSuffix(f, ".d.ts") || strings.HasSuffix(f, ".d.mts") || strings.HasSuffix(f, ".d.cts")
		switch filepath.Ext(f) {
		case ".ts", ".tsx", ".mts", ".cts":
		default:
			continue
		}
		b, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		if !moduleStmt(b) {
			out = append(out, f)
			continue
		}
		if !dts || !ambientDecl(b) {
			continue
		}
		if augmentsOnly(b) {
			if names, ok := globalNames(b); ok {
				if !read {
					read = true
					for _, r := range except {
						if t, err := os.ReadFile(r); err == nil {
							texts = append(texts, t)
						}
					}
				}
				if !mentions(texts, names) {
					continue
				}
			}
		}
		out = append(out, f)
	}
	return out
}

var (
	optionRE       = regexp.MustCompile(`^Option '(\w+)(?:=[^']*)?'`)
	unknownOptRE   = regexp.MustCompile(`^Unknown compiler option '(\w+)'`)
	argumentForRE  = regexp.MustCompile(`^Argument for '--(\w+)' option must be`)
	quotedRE       = regexp.MustCompile(`'([^']+)'`)
	removedTargets = map[string]bool{"es3": true, "es5": true}
)

// refusedOption names the option a configuration diagnostic refuses.
func refusedOption(msg string) string {
	for _, re := range []*regexp.Regexp{optionRE, unknownOptRE, argumentForRE} {
		if m := re.FindStringSubmatch(msg); m != nil {
			return m[1]
		}
	}
	return ""
}

// tscUnresolved says what a diagnostic shows the program lacked, "" when
// it shows nothing missing.
func tscUnresolved(d Diagnostic) string {
	q := ""
	if m := quotedRE.FindStringSubmatch(d.Message); m != nil {
		q = m[1]
	}
	switch d.Code {
	case 2307, 2792, 7016:
		return "module " + q
	case 2688:
		return "type library " + q
	case 2580, 2591:
		return "the Node.js types (@types/node)"
	case 2582, 2593:
		return "the test runner's globals (describe, it, expect)"
	case 2867, 2868:
		return "the types of " + q
	case 2304, 2552:
		return "name " + q
	case 2503:
		return "namespace " + q
	case 2875, 7026:
		return "the JSX types"
	case 2354:
		return "module tslib"
	case 6305, 6306, 6307:
		return "the output of a referenced project"
	}
	return ""
}

// emitOptions only shape output, which --noEmit discards; some of them
// are refused beside it or check what the output would hold (a rootDir
// the imported sources of another package lie outside).
var emitOptions = []string{
	"declaration", "declarationMap", "declarationDir", "emitDeclarationOnly", "composite",
	"incremental", "tsBuildInfoFile", "sourceMap", "inlineSourceMap", "inlineSources",
	"mapRoot", "sourceRoot", "outDir", "outFile", "out", "rootDir", "importHelpers",
	"noEmitOnError", "isolatedDeclarations", "stripInternal", "removeComments", "emitBOM",
	"newLine", "noEmitHelpers", "listEmittedFiles", "listFiles", "explainFiles",
	"generateTrace", "generateCpuProfile", "diagnostics", "extendedDiagnostics", "traceResolution",
	"plugins", "build", "watch", "preserveWatchOutput", "pretty",
}

// goneOptions were removed from TypeScript 7; the check goes on without
// them.
var goneOptions = []string{
	"downlevelIteration", "importsNotUsedAsValues", "preserveValueImports", "keyofStringsOnly",
	"suppressImplicitAnyIndexErrors", "noStrictGenericChecks", "charset", "noImplicitUseStrict",
	"suppressExcessPropertyErrors", "prepend", "out",
}

// tscOptions are the compiler options of a run: the project's, with
// emit options dropped, TypeScript 7's removed options replaced, paths
// made absolute, the extra paths added and the type libraries that are
// not installed dropped (named in dropped).
func tscOptions(p *Project, extra map[string][]string) (opts map[string]any, dropped []string) {
	opts = map[string]any{}
	for k, v := range p.options {
		opts[k] = v
	}
	for _, k := range emitOptions {
		delete(opts, k)
	}
	for _, k := range goneOptions {
		delete(opts, k)
	}
	lower := func(k string) string { s, _ := opts[k].(string); return strings.ToLower(s) }
	switch lower("moduleResolution") {
	case "node", "node10", "classic":
		delete(opts, "moduleResolution")
	}
	switch lower("module") {
	case "amd", "umd", "system", "none":
		opts["module"] = "esnext"
	}
	if removedTargets[lower("target")] {
		opts["target"] = "es2015"
	}
	for _, k := range []string{"esModuleInterop", "allowSyntheticDefaultImports", "alwaysStrict"} {
		if v, ok := opts[k].(bool); ok && !v {
			delete(opts, k)
		}
	}
	if _, ok := opts["experimentalDecorators"]; !ok {
		delete(opts, "emitDecoratorMetadata")
	}
	opts["noUnusedLocals"] = false
	opts["noUnusedParameters"] = false
	opts["noEmit"] = true
	opts["skipLibCheck"] = true

	// paths: absolute targets; a baseUrl becomes a "*" mapping (it was
	// removed in TypeScript 7)
	pathsDir := p.pathsDir
	if pathsDir == "" {
		pathsDir = p.Dir
	}
	paths := map[string]any{}
	if ps, ok := opts["paths"].(map[string]any); ok {
		for pat, ts := range ps {
			var abs []any
			if l, ok := ts.([]any); ok {
				for _, x := range l {
					if s, ok := x.(string); ok {
						abs = append(abs, filepath.Join(pathsDir, filepath.FromSlash(s)))
					}
				}
			}
			paths[pat] = abs
		}
	}
	if bu, ok := opts["baseUrl"].(string); ok {
		if _, ok := paths["*"]; !ok {
			paths["*"] = []any{filepath.Join(p.Dir, filepath.FromSlash(bu), "*")}
		}
		delete(opts, "baseUrl")
	}
	for pat, ts := range extra {
		if _, ok := paths[pat]; ok {
			continue
		}
		var l []any
		for _, t := range ts {
			l = append(l, t)
		}
		paths[pat] = l
	}
	if len(paths) > 0 {
		opts["paths"] = paths
	} else {
		delete(opts, "paths")
	}
	for _, k := range []string{"typeRoots", "rootDirs"} {
		if l, ok := opts[k].([]any); ok {
			var abs []any
			for _, x := range l {
				if s, ok := x.(string); ok {
					abs = append(abs, filepath.Join(p.Dir, filepath.FromSlash(s)))
				}
			}
			opts[k] = abs
		}
	}
	// type libraries: those not installed would stop the whole check
	// (tsc reports them and checks nothing)
	if l, ok := opts["types"].([]any); ok {
		var keep []any
		for _, x := range l {
			s, _ := x.(string)
			if s != "" && typeLibraryFound(p.Dir, s, opts["typeRoots"]) {
				keep = append(keep, s)
			} else if s != "" {
				dropped = append(dropped, "type library "+s)
			}
		}
		if keep == nil {
			keep = []any{}
		}
		opts["types"] = keep
	}
	return opts, dropped
}

// typeLibraryFound reports whether a compilerOptions.types entry
// resolves: under a typeRoots directory, or as a package (or its
// @types package) in a node_modules above dir.
func typeLibraryFound(dir, name string, typeRoots any) bool {
	exists := func(p string) bool {
		for _, c := range []string{p, p + ".d.ts", filepath.Join(p, "index.d.ts"), filepath.Join(p, "package.json")} {
			if _, err := os.Stat(c); err == nil {
				return true
			}
		}
		return false
	}
	if l, ok := typeRoots.([]any); ok {
		for _, x := range l {
			if s, ok := x.(string); ok && exists(filepath.Join(s, filepath.FromSlash(name))) {
				return true
			}
		}
	}
	for d := dir; ; d = filepath.Dir(d) {
		nm := filepath.Join(d, "node_modules")
		if exists(filepath.Join(nm, filepath.FromSlash(name))) || exists(filepath.Join(nm, "@types", filepath.FromSlash(name))) {
			return true
		}
		if filepath.Dir(d) == d {
			return false
		}
	}
}

// String says what a run lacked, for a note.
func (r *Run) String() string {
	if len(r.Unresolved) == 0 {
		return fmt.Sprintf("%s: complete", r.Cmd)
	}
	return fmt.Sprintf("%s: without %s", r.Cmd, strings.Join(r.Unresolved, ", "))
}
