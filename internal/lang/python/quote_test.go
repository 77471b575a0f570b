package python

import (
	"strings"
	"testing"

	"github.com/ripple-dev/ripple/internal/lang"
	"github.com/ripple-dev/ripple/internal/lang/treesit"
)

func TestQuote(t *testing.T) {
	if !treesit.Available {
		t.Skip("built without cgo")
	}
	fe := New()
	var _ lang.Quoter = fe
	src := `"""Module."""
import os.path
import json as j
import re
from typing import Any, Optional
from .util import helper as h, unused


class C:
    limit = 3

    def m(self, x: Any) -> str:
        # re is only mentioned here
        self.unused = "re"
        return os.path.join(h(x), j.dumps(x, re=None))


def other():
    return Optional
`
	ds, _ := fe.Decls("p/m.py", []byte(src))
	byName := map[string]*lang.Decl{}
	for _, d := range ds {
		byName[d.Display] = d
	}
	m := byName["def C.m"]
	if m == nil {
		t.Fatalf("no def C.m among %v", ds)
	}
	got, err := fe.Quote("p/m.py", []byte(src), []*lang.Decl{m})
	if err != nil {
		t.Fatal(err)
	}
	want := "import os.path\nimport json as j\nfrom typing import Any\nfrom .util import helper as h\n\n" +
		"    def m(self, x: Any) -> str:\n        # re is only mentioned here\n        self.unused = \"re\"\n        return os.path.join(h(x), j.dumps(x, re=None))\n"
	if got != want {
		t.Errorf("Quote(C.m) =\n%s\nwant\n%s", got, want)
	}
	// what the engine reads back: the imports, then the block as it is
	imps, block, err := fe.SplitImports(got)
	if err != nil || len(imps) != 4 || block != strings.SplitN(want, "\n\n", 2)[1] {
		t.Errorf("SplitImports(Quote) = %q, %q, %v", imps, block, err)
	}
	// two declarations, in order, with the imports of both
	got, err = fe.Quote("p/m.py", []byte(src), []*lang.Decl{byName["attribute C.limit"], byName["def other"]})
	if err != nil || got != "from typing import Optional\n\n    limit = 3\n\ndef other():\n    return Optional\n" {
		t.Errorf("Quote(C.limit, other) = %q, %v", got, err)
	}
	// an import declaration: the statement that binds its name alone,
	// found by the name (lang.ImportNames)
	var imp *lang.Decl
	for _, d := range ds {
		if lang.ImportNames(d, "h") {
			if imp != nil {
				t.Errorf("two imports name h: %s, %s", imp.Display, d.Display)
			}
			imp = d
		}
	}
	if imp == nil {
		t.Fatalf("no import names h among %v", ds)
	}
	got, err = fe.Quote("p/m.py", []byte(src), []*lang.Decl{imp})
	if err != nil || got != "from .util import helper as h\n\n" {
		t.Errorf("Quote(%s) = %q, %v", imp.Display, got, err)
	}
	if imps, block, _ := fe.SplitImports(got); len(imps) != 1 || strings.TrimSpace(block) != "" {
		t.Errorf("SplitImports(Quote(%s)) = %q, %q", imp.Display, imps, block)
	}
	far := *m
	far.Span.EndLine = 400
	if _, err := fe.Quote("p/m.py", []byte(src), []*lang.Decl{&far}); err == nil {
		t.Error("a span past the end of the file is quoted")
	}
}
