package tsc

import (
	"math/rand"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
)

// The regular expressions moduleStmt and ambientDecl replaced: the
// scans must say what they said.
var (
	ambientRE = regexp.MustCompile(`(?m)^\s*(?:export\s+)?declare\s+(?:global\b|module\s|namespace\s)`)
	moduleRE  = regexp.MustCompile(`(?m)^\s*(?:import|export)\b`)
)

func TestAmbientScan(t *testing.T) {
	cases := []string{
		"import x from 'y'\n", "  export const a = 1", "exports.a = 1", "const a = 1; import('x')",
		"declare global {}", "export declare module 'x' {}", "export  \n declare\nnamespace N {}",
		"declare module'x'", "declare globalThis", "declare namespace\tN", "export declare const x: 1",
		"// declare global\n", "\n\n   declare global{", "exportdeclare global", "export{}\ndeclare global {",
	}
	toks := []string{"export", "import", "declare", "global", "module", "namespace", " ", "\n", "\t", "{", "'x'", "x", "_", "//", "globalX", "\r\n"}
	r := rand.New(rand.NewSource(1))
	for n := 0; n < 30000; n++ {
		var b strings.Builder
		for k := r.Intn(10); k >= 0; k-- {
			b.WriteString(toks[r.Intn(len(toks))])
		}
		cases = append(cases, b.String())
	}
	for _, c := range cases {
		src := []byte(c)
		if got, want := moduleStmt(src), moduleRE.Match(src); got != want {
			t.Errorf("moduleStmt(%q) = %v, want %v", c, got, want)
		}
		if got, want := ambientDecl(src), ambientRE.Match(src); got != want {
			t.Errorf("ambientDecl(%q) = %v, want %v", c, got, want)
		}
	}
}

func TestGlobalNames(t *testing.T) {
	src := `import type { X } from './x';
export type Component = { a: X };
declare global {
  // a comment { with a brace
  interface Window extends Base<'}'>, Other {
    playwrightMount(component: Component): Promise<void>;
    __pw_hooks?: ((p: { hooksConfig?: string }) => void)[];
    readonly count: number;
    nested: { notAMember: string };
  }
  namespace PlaywrightTest { export interface Matchers<R> { toX(): R } }
  var __pwGlobal: string;
  function helper(a: number): void;
}
export const test: X;
`
	names, ok := globalNames([]byte(src))
	if !ok {
		t.Fatal("the block was not read")
	}
	want := "Window playwrightMount __pw_hooks count nested PlaywrightTest __pwGlobal helper"
	if got := strings.Join(names, " "); got != want {
		t.Errorf("globalNames = %q, want %q", got, want)
	}
	if !augmentsOnly([]byte(src)) {
		t.Error("augmentsOnly: the file only augments the global scope")
	}
	if augmentsOnly([]byte(src + "declare module 'y' { export const z: 1 }\n")) {
		t.Error("augmentsOnly: an ambient module is more than a global augmentation")
	}
	if _, ok := globalNames([]byte("declare global {\n interface W { a(): void\n")); ok {
		t.Error("an unclosed block must not be read")
	}
	texts := [][]byte{[]byte("window.playwrightMount(c)"), []byte("const x = notAMember")}
	if !mentions(texts[:1], names) {
		t.Error("playwrightMount is named")
	}
	if mentions(texts[1:], names) {
		t.Error("notAMember is not a member of Window")
	}
}

func TestAmbientRoots(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"site.ts":        "import { a } from './a';\nexport const b = a + 1;\n",
		"uses.ts":        "export const c = window.playwrightMount;\n",
		"test.d.ts":      "import type { T } from './big';\nexport const test: T;\ndeclare global {\n  namespace PlaywrightTest { interface M {} }\n}\n",
		"component.d.ts": "export type C = {};\ndeclare global {\n  interface Window { playwrightMount(c: C): void }\n}\n",
		"shim.d.ts":      "declare module '*.css' { const s: string; export default s }\n",
		"aug.d.ts":       "import 'express';\ndeclare module 'express' { interface Request { user: string } }\n",
		"script.ts":      "const minimumMajorNodeVersion = 20;\n",
		"plain.d.ts":     "export declare const d: number;\n",
	}
	var all []string
	for name, text := range files {
		p := dir + "/" + name
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		all = append(all, p)
	}
	sort.Strings(all)
	base := func(ps []string) string {
		var out []string
		for _, p := range ps {
			out = append(out, filepath.Base(p))
		}
		sort.Strings(out)
		return strings.Join(out, " ")
	}
	if got, want := base(ambient(all, []string{dir + "/site.ts"})), "aug.d.ts script.ts shim.d.ts"; got != want {
		t.Errorf("roots site.ts: ambient = %s, want %s", got, want)
	}
	if got, want := base(ambient(all, []string{dir + "/uses.ts"})), "aug.d.ts component.d.ts script.ts shim.d.ts"; got != want {
		t.Errorf("roots uses.ts: ambient = %s, want %s", got, want)
	}
}
