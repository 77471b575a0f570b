//go:build cgo

package python

import (
	"sort"
	"strings"
	"testing"
)

func declMap(t *testing.T, src string) map[string]string {
	t.Helper()
	fe := New()
	ds, diag := fe.Decls("pkg/mod.py", []byte(src))
	if diag != nil {
		t.Fatalf("diagnostic: %v", diag)
	}
	out := map[string]string{}
	for _, d := range ds {
		out[d.Key()] = string(d.Kind) + " | " + d.Display + " | " + d.Sig + " | " + d.Body
	}
	return out
}

func TestDecls(t *testing.T) {
	src := `"""module doc"""
import os.path as osp
from .helpers import url_for as uf, other
from . import sibling

__all__ = ["Flask", "run"]
LIMIT: int = 10
name = "x"


class Flask(Base, metaclass=Meta):
    """doc"""
    default_config = {}
    debug: bool

    def __init__(self, import_name, *, static=None):
        self.import_name = import_name

    @property
    def name(self):
        return self.import_name

    @name.setter
    def name(self, v):
        pass

    @staticmethod
    def helper(x, /, y=1, *args, **kw):
        def inner():
            pass

    @classmethod
    def make(cls): ...


@dataclass(frozen=True)
class Point:
    x: int
    y: int = 0
    z: ClassVar[int] = 3


async def run[T](a: T) -> T:
    return a
`
	got := declMap(t, src)
	want := map[string]string{
		"import osp":           "import",
		"import uf":            "import",
		"import other":         "import",
		"import sibling":       "import",
		"__all__":              "var",
		"LIMIT":                "const",
		"name":                 "var",
		"Flask":                "type",
		"Flask.default_config": "field",
		"Flask.debug":          "field",
		"Flask.import_name":    "field",
		"Flask.__init__":       "constructor",
		"Flask.name":           "method",
		"Flask.helper":         "method",
		"Flask.helper.inner":   "func",
		"Flask.make":           "method",
		"Point":                "type",
		"Point.x":              "field",
		"Point.y":              "field",
		"Point.z":              "field",
		"run":                  "func",
	}
	var keys []string
	for k := range got {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for k, kind := range want {
		if v, ok := got[k]; !ok || !strings.HasPrefix(v, kind+" |") {
			t.Errorf("%s: got %q, want kind %s (all: %v)", k, v, kind, keys)
		}
	}
	if len(got) != len(want) {
		t.Errorf("got %d declarations, want %d: %v", len(got), len(want), keys)
	}
	for k, frag := range map[string]string{
		"Flask.name":     "settable",
		"Flask.helper":   "def(/x, y = 1, *args, **kw)",
		"Flask.__init__": "def(self, import_name, kw:static = None)",
		"Point.x":        "int positional-or-keyword",
		"Point.y":        "int positional-or-keyword = default",
		"Point.z":        "(not in the constructor)",
		"run":            "async def[T](a: T) -> T",
		"__all__":        "__all__ Flask run",
		"Flask":          "class class (Base, metaclass = Meta)",
		"Point":          "class dataclass",
	} {
		if !strings.Contains(got[k], frag) {
			t.Errorf("%s: %q does not contain %q", k, got[k], frag)
		}
	}
	if strings.Contains(got["Flask"], "doc") {
		t.Errorf("docstrings are not part of a body: %q", got["Flask"])
	}
}

// TestDeclsLayout checks that comments, layout and docstrings never
// change a fingerprint.
func TestDeclsLayout(t *testing.T) {
	a := declMap(t, "def f(a, b=1):\n    \"\"\"doc\"\"\"\n    return a + b\n")
	b := declMap(t, "def f(\n    a,  # first\n    b = 1,\n):\n    '''other doc'''\n    # a comment\n    return a+b\n")
	if a["f"] != b["f"] {
		t.Errorf("layout changed the fingerprint:\n%s\n%s", a["f"], b["f"])
	}
}

// A finding inside a function names its block as the declaration does:
// the fix engine plans the block by that name, and a property method
// named "def C.p" in findings but "property C.p" in the declarations
// was two blocks to it, one of which the replay could not find.
func TestEnclosingNamesDecl(t *testing.T) {
	src := `class C:
    @property
    def p(self):
        return 1

    async def m(self):
        return 2

    def plain(self):
        def inner():
            return 3
        return inner()


async def top():
    return 4
`
	f := summarize("m.py", grammar.Parse([]byte(src)))
	display := map[string]string{}
	for _, d := range decls(f) {
		display[d.Key()] = d.Display
	}
	n := 0
	for _, fn := range f.funcs {
		body := fn.node.Child("body")
		if body == nil || len(body.NamedKids()) == 0 {
			t.Fatalf("%s: no body", fn.qual)
		}
		enc := enclosing(f, body.NamedKids()[0])
		want := display[fn.qual]
		if enc == nil || want == "" || enc.display != want {
			t.Errorf("%s: a finding's block is %v, its declaration %q", fn.qual, enc, want)
		}
		n++
	}
	if n != 5 || display["C.p"] != "property C.p" || display["C.m"] != "async def C.m" || display["C.plain.inner"] != "def C.plain.inner" {
		t.Errorf("%d functions; declarations %v", n, display)
	}
}
