package tsc

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/ripple-dev/ripple/internal/oracle"
	"github.com/ripple-dev/ripple/internal/testrepo"
)

// needTSC returns TypeScript 7's compiler, or skips the test saying why
// it cannot run here (found on PATH or in the user cache, else installed
// there with npm; .ci/run installs it beforehand where it can).
func needTSC(t *testing.T) string {
	t.Helper()
	testrepo.UseTools(t, testrepo.TypeScriptTool)
	bin, err := (&Compiler{}).Locate(context.Background())
	if err != nil {
		t.Skipf("TypeScript 7's compiler cannot run here: %v", err)
	}
	return bin
}

func writeTree(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, src := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// TestTSCOracle runs the real tsc on a broken and a fixed project, and
// checks that the tree is left as it was found.
func TestTSCOracle(t *testing.T) {
	needTSC(t)
	testrepo.Hermetic(t)
	dir := t.TempDir()
	testrepo.Init(t, dir)
	writeTree(t, dir, map[string]string{
		// TypeScript 7 removed node10 resolution and baseUrl: the
		// oracle still checks such a project
		"tsconfig.json": `{
  // comments and trailing commas, as tsconfig.json allows
  "compilerOptions": { "strict": true, "moduleResolution": "node", "baseUrl": ".", "outDir": "out", },
  "include": ["src"],
}`,
		"src/lib.ts":   "export function scale(x: number, y: number): number {\n  return x * y;\n}\n",
		"src/use.ts":   "import { scale } from 'src/lib';\n\nexport function use(): number {\n  return scale(2);\n}\n",
		"src/other.ts": "export const other: string = 'x';\n",
	})
	testrepo.CommitAll(t, dir, "broken")
	o := &Compiler{}
	res, err := o.Check(context.Background(), dir, oracle.Options{Files: []string{"src/lib.ts", "README.md"}})
	if err != nil {
		t.Fatal(err)
	}
	if res.Pass || len(res.Diagnostics) != 1 {
		t.Fatalf("got %+v", res)
	}
	d := res.Diagnostics[0]
	if d.Path != "src/use.ts" || d.Line != 4 || d.Tool != "tsc" || d.Message != "Expected 2 arguments, but got 1. (TS2554)" {
		t.Errorf("got %+v", d)
	}
	writeTree(t, dir, map[string]string{"src/use.ts": "import { scale } from 'src/lib';\n\nexport function use(): number {\n  return scale(2, 3);\n}\n"})
	testrepo.CommitAll(t, dir, "fixed")
	if res, err = o.Check(context.Background(), dir, oracle.Options{Files: []string{"src/use.ts"}}); err != nil || !res.Pass {
		t.Fatalf("fixed project: %+v %v", res, err)
	}
	if st := testrepo.Git(t, dir, "status", "--porcelain", "--ignored"); st != "" {
		t.Errorf("the oracle changed the tree:\n%s", st)
	}
	// a change without TypeScript or JavaScript is not tsc's business
	if res, err = o.Check(context.Background(), dir, oracle.Options{Files: []string{"main.go"}}); err != nil || !res.Pass || len(res.Ran) != 0 {
		t.Fatalf("Go-only change: %+v %v", res, err)
	}
}

// TestTSCJavaScript: JavaScript in a repository without tsconfig.json is
// checked (allowJs), a broken call in a file that asks for checking
// (// @ts-check) is an error, and a file tsc does not type-check leaves
// the state unanalysed, never proven.
func TestTSCJavaScript(t *testing.T) {
	needTSC(t)
	testrepo.Hermetic(t)
	dir := t.TempDir()
	testrepo.Init(t, dir)
	writeTree(t, dir, map[string]string{
		"lib.js":     "/** @param {number} x @param {number} y */\nexport function scale(x, y) {\n  return x * y;\n}\n",
		"checked.js": "// @ts-check\nimport { scale } from './lib.js';\n\nexport const a = scale(2);\n",
		"plain.js":   "import { scale } from './lib.js';\n\nexport const b = scale(2);\n",
	})
	testrepo.CommitAll(t, dir, "js")
	o := &Compiler{}
	res, err := o.Check(context.Background(), dir, oracle.Options{Files: []string{"lib.js", "checked.js"}})
	if err != nil {
		t.Fatal(err)
	}
	if res.Pass || len(res.Diagnostics) != 1 || res.Diagnostics[0].Path != "checked.js" || !strings.Contains(res.Diagnostics[0].Message, "TS2554") {
		t.Fatalf("want one TS2554 in checked.js, got %+v", res)
	}
	if d := res.Diagnostics[0]; d.Source != "export const a = scale(2);" {
		t.Errorf("source of the diagnostic's line: %q", d.Source)
	}
	if !strings.Contains(res.Unanalysed, "lib.js") || strings.Contains(res.Unanalysed, "checked.js") {
		t.Errorf("unanalysed %q: want lib.js (no // @ts-check) and not checked.js", res.Unanalysed)
	}
	res, err = o.Check(context.Background(), dir, oracle.Options{Files: []string{"plain.js"}})
	if err != nil {
		t.Fatal(err)
	}
	if !res.Pass || res.Unanalysed == "" {
		t.Errorf("an unchecked JavaScript file passes as proven: %+v", res)
	}
}

// TestTSCProjects: a file belongs to the first configuration that
// includes it, from its directory up: a solution-style tsconfig.json's
// references, a tsconfig.spec.json beside a build configuration that
// excludes tests, a package's own configuration; a file no configuration
// includes is an inferred project with the nearest one's options.
func TestTSCProjects(t *testing.T) {
	bin := needTSC(t)
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{
		"tsconfig.json":       `{"files": [], "references": [{"path": "./tsconfig.build.json"}, {"path": "./tsconfig.spec.json"}]}`,
		"tsconfig.base.json":  `{"compilerOptions": {"strict": true}}`,
		"tsconfig.build.json": `{"extends": "./tsconfig.base.json", "include": ["src"], "exclude": ["src/**/*.test.ts"]}`,
		"tsconfig.spec.json":  `{"extends": "./tsconfig.base.json", "compilerOptions": {"types": ["vitest/globals"]}, "include": ["src/**/*.test.ts"]}`,
		"src/a.ts":            "export const a = 1;\n",
		"src/a.test.ts":       "import { a } from './a';\n",
		"pkg/tsconfig.json":   `{"extends": "@tsconfig/node20/tsconfig.json", "compilerOptions": {"paths": {"#x/*": ["./x/*"]}}, "include": ["lib"]}`,
		"pkg/lib/b.ts":        "export const b = 1;\n",
		"scripts/c.ts":        "export const c = 1;\n",
	})
	ps := NewProjects(bin, dir)
	name := func(f string) string {
		return ps.For(context.Background(), filepath.Join(dir, f)).Name(dir)
	}
	for f, want := range map[string]string{
		"src/a.ts":      "tsconfig.build.json",
		"src/a.test.ts": "tsconfig.spec.json",
		"pkg/lib/b.ts":  "pkg/tsconfig.json",
		"scripts/c.ts":  "the files no tsconfig includes, with the options of tsconfig.json",
	} {
		if got := name(f); got != want {
			t.Errorf("%s: project %q, want %q", f, got, want)
		}
	}
	pkg := ps.For(context.Background(), filepath.Join(dir, "pkg/lib/b.ts"))
	if want := []string{"the configuration @tsconfig/node20/tsconfig.json that tsconfig.json extends"}; !reflect.DeepEqual(pkg.Missing, want) {
		t.Errorf("missing %q, want %q", pkg.Missing, want)
	}
	opts, dropped := tscOptions(pkg, map[string][]string{"@w/x": {"/abs/x/src/index.ts"}})
	paths, _ := opts["paths"].(map[string]any)
	if got := paths["#x/*"]; !reflect.DeepEqual(got, []any{filepath.Join(dir, "pkg", "x", "*")}) {
		t.Errorf("paths #x/*: %v", got)
	}
	if got := paths["@w/x"]; !reflect.DeepEqual(got, []any{"/abs/x/src/index.ts"}) {
		t.Errorf("paths @w/x: %v", got)
	}
	if len(dropped) != 0 {
		t.Errorf("dropped %v", dropped)
	}
	spec := ps.For(context.Background(), filepath.Join(dir, "src/a.test.ts"))
	if _, dropped := tscOptions(spec, nil); !reflect.DeepEqual(dropped, []string{"type library vitest/globals"}) {
		t.Errorf("spec dropped %v", dropped)
	}
	if ps.Ran > 6 {
		t.Errorf("%d configurations read for 4 files", ps.Ran)
	}
}

// TestTSCOptions: the options TypeScript 7 removed are replaced so that
// an older project is checked rather than refused, and emit options go.
func TestTSCOptions(t *testing.T) {
	p := &Project{Dir: "/r/pkg", pathsDir: "/r", options: map[string]any{
		"moduleResolution": "Node", "module": "AMD", "target": "ES5", "baseUrl": "./src",
		"paths": map[string]any{"@app/*": []any{"app/*"}}, "outDir": "dist", "declaration": true,
		"composite": true, "esModuleInterop": false, "downlevelIteration": true, "emitDecoratorMetadata": true,
		"importHelpers": true, "strict": true, "typeRoots": []any{"./types"},
	}}
	opts, _ := tscOptions(p, nil)
	var keys []string
	for k := range opts {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	if got := strings.Join(keys, " "); got != "module noEmit noUnusedLocals noUnusedParameters paths skipLibCheck strict target typeRoots" {
		t.Errorf("options %s", got)
	}
	if opts["module"] != "esnext" || opts["target"] != "es2015" {
		t.Errorf("module %v target %v", opts["module"], opts["target"])
	}
	want := map[string]any{"@app/*": []any{"/r/app/*"}, "*": []any{"/r/pkg/src/*"}}
	if !reflect.DeepEqual(opts["paths"], want) {
		t.Errorf("paths %v, want %v", opts["paths"], want)
	}
}

// TestRefusedOption reads the option a configuration diagnostic refuses.
func TestRefusedOption(t *testing.T) {
	for msg, want := range map[string]string{
		"Option 'moduleResolution=node10' has been removed. Please remove it from your configuration.": "moduleResolution",
		"Option 'baseUrl' has been removed. Please remove it from your configuration.":                 "baseUrl",
		"Unknown compiler option 'charset'.":                                                           "charset",
		"Argument for '--target' option must be: 'es6', 'es2015'.":                                     "target",
		"Cannot find type definition file for 'node'.":                                                 "",
	} {
		if got := refusedOption(msg); got != want {
			t.Errorf("%q: %q, want %q", msg, got, want)
		}
	}
}

// TestTSCRunRefused: an option tsc refuses is dropped and the run
// repeated; a configuration it cannot make acceptable is reported as
// such (Configured), never as a clean program.
func TestTSCRunRefused(t *testing.T) {
	bin := needTSC(t)
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{
		// node16 resolution wants node16 modules: dropping module (what
		// tsc names) does not help
		"tsconfig.json": `{"compilerOptions": {"moduleResolution": "node16", "module": "commonjs"}, "include": ["src"]}`,
		"src/a.ts":      "export const n: number = 'x';\n",
	})
	p := NewProjects(bin, dir).For(context.Background(), filepath.Join(dir, "src/a.ts"))
	run, err := (&Compiler{}).Run(context.Background(), bin, dir, p, RunOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if !run.Configured || len(run.Diagnostics) != 1 || !strings.Contains(run.Diagnostics[0].Message, "moduleResolution") {
		t.Fatalf("got %+v", run)
	}
	if len(run.Unresolved) != 2 || run.Unresolved[0] != "the compiler option module (refused by TypeScript 7)" || !strings.HasPrefix(run.Unresolved[1], "the configuration (Option 'module' must be set") {
		t.Errorf("unresolved %q", run.Unresolved)
	}
}
