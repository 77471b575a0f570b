package typescript

import (
	"testing"

	"github.com/ripple-dev/ripple/internal/lang"
	"github.com/ripple-dev/ripple/internal/lang/treesit"
)

var _ lang.Quoter = (*Frontend)(nil)

func TestQuote(t *testing.T) {
	if !treesit.Available {
		t.Skip("built without cgo")
	}
	fe := New()
	src := `import React from 'react';
import { a, b as bee, unused } from './ab';
import type { Opts } from './opts';
import * as path from 'node:path';
const fs = require('fs');

export class C {
  m(o: Opts): string {
    // a and React only in a comment
    return path.join(bee(o.a), fs.readFileSync('x'), "unused");
  }
}

export function f(): number {
  return a;
}
`
	ds, _ := fe.Decls("src/c.ts", []byte(src))
	by := map[string]*lang.Decl{}
	for _, d := range ds {
		by[d.Display] = d
	}
	var m, f *lang.Decl
	for _, d := range ds {
		switch d.Name {
		case "m":
			m = d
		case "f":
			f = d
		}
	}
	if m == nil || f == nil {
		t.Fatalf("no C.m or f among %v", ds)
	}
	got, err := fe.Quote("src/c.ts", []byte(src), []*lang.Decl{m})
	if err != nil {
		t.Fatal(err)
	}
	want := "import { b as bee } from './ab';\nimport type { Opts } from './opts';\nimport * as path from 'node:path';\n\n" +
		"  m(o: Opts): string {\n    // a and React only in a comment\n    return path.join(bee(o.a), fs.readFileSync('x'), \"unused\");\n  }\n"
	if got != want {
		t.Errorf("Quote(C.m) =\n%s\nwant\n%s", got, want)
	}
	imps, block, err := fe.SplitImports(got)
	if err != nil || len(imps) != 3 || block != want[len(want)-len(block):] || block[:4] != "  m(" {
		t.Errorf("SplitImports(Quote) = %q, %q, %v", imps, block, err)
	}
	// names of one module in one declaration, in the order bound
	got, err = fe.Quote("src/c.ts", []byte(src), []*lang.Decl{f, m})
	if err != nil {
		t.Fatal(err)
	}
	if want := "import { a, b as bee } from './ab';\nimport type { Opts } from './opts';\nimport * as path from 'node:path';\n\n"; got[:len(want)] != want {
		t.Errorf("Quote(f, C.m) =\n%s\nwant it to open with\n%s", got, want)
	}
}
