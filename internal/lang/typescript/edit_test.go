package typescript

import (
	"strings"
	"testing"

	"github.com/ripple-dev/ripple/internal/lang"
	"github.com/ripple-dev/ripple/internal/lang/treesit"
)

// The front-end edits blocks for the fix engine.
var _ lang.BlockEditor = (*Frontend)(nil)

func TestCheckBlock(t *testing.T) {
	if !treesit.Available {
		t.Skip("built without cgo")
	}
	fe := New()
	src := `import { x } from './x';

export function use(a: number): number {
  return scale(a, 3);
}

export class C {
  m(): number {
    return 1;
  }

  get size(): number {
    return 2;
  }
}

export const arrow = (s: string) => s.length;
`
	for _, c := range []struct {
		block    string
		from, to int
		err      string
	}{
		{"function use", 3, 5, ""},
		{"method C.m", 8, 10, ""},
		{"method C.size", 12, 14, ""}, // an accessor: a method to the planner
		{"class C", 7, 15, ""},
		{"function arrow", 17, 17, ""},
		{"function other", 3, 5, "declares function use, not function other"},
		{"function use", 3, 10, "crosses the edges"},
		{"function use", 1, 5, "line 1 of the new block lies outside function use"},
		{"function use", 2, 6, ""}, // blank lines around it
		{"function use", 3, 7, "class C (lines 7-15) crosses the edges"},
		{"method C.m", 8, 14, "holds 2 declarations"},
	} {
		err := fe.CheckBlock("m.ts", []byte(src), c.block, c.from, c.to)
		switch {
		case c.err == "" && err != nil:
			t.Errorf("%s %d-%d: %v", c.block, c.from, c.to, err)
		case c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)):
			t.Errorf("%s %d-%d: %v, want %q", c.block, c.from, c.to, err, c.err)
		}
	}
	stray := strings.Replace(src, "  return scale(a, 3);\n}\n", "  return scale(a, 3);\n}\nuse(1);\n", 1)
	if err := fe.CheckBlock("m.ts", []byte(stray), "function use", 3, 6); err == nil || !strings.Contains(err.Error(), "line 6 of the new block lies outside function use") {
		t.Errorf("a statement beside the function: %v", err)
	}
	member := strings.Replace(src, "    return 1;\n  }\n", "    return 1;\n  }\n  extra = 2;\n", 1)
	if err := fe.CheckBlock("m.ts", []byte(member), "method C.m", 8, 11); err == nil || !strings.Contains(err.Error(), "holds 2 declarations") {
		t.Errorf("a property beside the method: %v", err)
	}
	bad := strings.Replace(src, "return scale(a, 3);", "return scale(a, 3;", 1)
	if err := fe.CheckBlock("m.ts", []byte(bad), "function use", 3, 5); err == nil || !strings.Contains(err.Error(), "inside the block") {
		t.Errorf("a syntax error in the block: %v", err)
	}
	unclosed := strings.Replace(src, "  return scale(a, 3);\n}", "  return scale(a, 3);\n", 1)
	if err := fe.CheckBlock("m.ts", []byte(unclosed), "function use", 3, 4); err == nil || !strings.Contains(err.Error(), "no longer parses") {
		t.Errorf("a block that swallows the rest of the file: %v", err)
	}
	// a syntax error the file already had outside the block (a grammar
	// gap, say) does not reject the block
	gap := src + "\nexport const broken = (;\n"
	if err := fe.CheckBlock("m.ts", []byte(gap), "function use", 3, 5); err != nil {
		t.Errorf("an error outside the block: %v", err)
	}
	jsxSrc := "export function View(p: P) {\n  return <div>{p.a}</div>;\n}\n"
	if err := fe.CheckBlock("v.tsx", []byte(jsxSrc), "function View", 1, 3); err != nil {
		t.Errorf("a TSX block: %v", err)
	}
}

func TestSplitImports(t *testing.T) {
	if !treesit.Available {
		t.Skip("built without cgo")
	}
	fe := New()
	imps, block, err := fe.SplitImports("import { a } from './a';\nimport {\n  b,\n  c as d,\n} from \"./b\";\n\nimport type { T } from './t';\nexport function f(x: T) {\n  return a(b, d, x);\n}\n")
	if err != nil || len(imps) != 3 || imps[1] != "import {\n  b,\n  c as d,\n} from \"./b\";" || !strings.HasPrefix(block, "export function f") {
		t.Fatalf("split: %q %q %v", imps, block, err)
	}
	if imps, block, _ := fe.SplitImports("function f() {}\n"); imps != nil || block != "function f() {}\n" {
		t.Errorf("no imports: %q %q", imps, block)
	}
	if _, _, err := fe.SplitImports("import { a from './a';\nfunction f() {}\n"); err == nil {
		t.Errorf("an import that does not parse was accepted")
	}
}

func TestAddImports(t *testing.T) {
	if !treesit.Available {
		t.Skip("built without cgo")
	}
	fe := New()
	src := "import { a } from './a';\nimport x from './x';\n\nexport function f() {\n  return a;\n}\n"
	for _, c := range []struct {
		name    string
		src     string
		imports []string
		want    string
		n       int
		err     string
	}{
		{"after the last import", src, []string{"import { b } from './b';"},
			"import { a } from './a';\nimport x from './x';\nimport { b } from './b';\n\nexport function f() {\n  return a;\n}\n", 1, ""},
		{"already there", src, []string{"import { a } from './a';", "import x from './x';"}, src, 0, ""},
		{"the names the file lacks", src, []string{"import { a, c as d } from './a';"},
			"import { a } from './a';\nimport x from './x';\nimport { c as d } from './a';\n\nexport function f() {\n  return a;\n}\n", 1, ""},
		{"a clash", src, []string{"import { a } from './other';"}, "", 0, "clashes"},
		{"a name the file declares", src, []string{"import { f } from './f';"}, "", 0, "clashes"},
		{"after the directives", "'use client';\n// a comment\n\nexport const v = 1;\n", []string{"import * as R from 'react';"},
			"'use client';\n// a comment\nimport * as R from 'react';\n\nexport const v = 1;\n", 1, ""},
		{"a multi-line import", "export const v = 1;\n", []string{"import {\n  a,\n  b,\n} from './a';"},
			"import {\n  a,\n  b,\n} from './a';\nexport const v = 1;\n", 4, ""},
	} {
		out, n, err := fe.AddImports([]byte(c.src), c.imports)
		switch {
		case c.err != "":
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("%s: %v, want %q", c.name, err, c.err)
			}
		case err != nil || n != c.n || string(out) != c.want:
			t.Errorf("%s: %d %v\n%s\nwant %d\n%s", c.name, n, err, out, c.n, c.want)
		}
	}
}

func TestComments(t *testing.T) {
	fe := New()
	for line, want := range map[string][2]bool{
		"  // doc":                         {true, false},
		" * @param a the first":            {true, false},
		"/** Doc. */":                      {true, false},
		"// @ts-expect-error: legacy":      {true, true},
		"// eslint-disable-next-line no-x": {true, true},
		"/* istanbul ignore next */":       {true, true},
		"/// <reference types=\"node\" />": {true, true},
		"const a = 1; // trailing":         {false, false},
	} {
		if got := [2]bool{fe.IsComment(line), fe.IsDirective(line)}; got != want {
			t.Errorf("%q: comment, directive = %v, want %v", line, got, want)
		}
	}
}
