package python

import (
	"strings"
	"testing"

	"github.com/ripple-dev/ripple/internal/lang"
	"github.com/ripple-dev/ripple/internal/lang/treesit"
)

func TestCheckBlock(t *testing.T) {
	if !treesit.Available {
		t.Skip("built without cgo")
	}
	fe := New()
	src := "import os\n\n\ndef use():\n    return scale(2, 3)\n\n\nclass C:\n    def m(self):\n        return 1\n"
	if err := fe.CheckBlock("m.py", []byte(src), "def use", 4, 5); err != nil {
		t.Errorf("a valid function: %v", err)
	}
	if err := fe.CheckBlock("m.py", []byte(src), "def C.m", 9, 10); err != nil {
		t.Errorf("a valid method: %v", err)
	}
	if err := fe.CheckBlock("m.py", []byte(src), "def other", 4, 5); err == nil || !strings.Contains(err.Error(), "defines def use, not def other") {
		t.Errorf("a renamed block: %v", err)
	}
	if err := fe.CheckBlock("m.py", []byte(src), "def use", 4, 10); err == nil || !strings.Contains(err.Error(), "holds 2 definitions") {
		t.Errorf("two definitions: %v", err)
	}
	bad := "def use(:\n    return 1\n"
	if err := fe.CheckBlock("m.py", []byte(bad), "def use", 1, 2); err == nil || !strings.Contains(err.Error(), "no longer parses") {
		t.Errorf("a syntax error: %v", err)
	}
}

func TestImports(t *testing.T) {
	fe := New()
	imps, block, _ := fe.SplitImports("import math\nfrom os import path\n\ndef f():\n    return math.pi\n")
	if len(imps) != 2 || !strings.HasPrefix(block, "def f():") {
		t.Fatalf("split: %q %q", imps, block)
	}
	src := "\"\"\"Doc.\"\"\"\nimport os\n\n\ndef f():\n    pass\n"
	out, n, err := fe.AddImports([]byte(src), []string{"import math", "import os"})
	if err != nil || n != 1 || string(out) != "\"\"\"Doc.\"\"\"\nimport os\nimport math\n\n\ndef f():\n    pass\n" {
		t.Fatalf("add after imports: %d %q %v", n, out, err)
	}
	out, n, _ = fe.AddImports([]byte("#!/usr/bin/env python\n\"\"\"Doc\nstring.\n\"\"\"\n\ndef f():\n    pass\n"), []string{"import math"})
	if n != 1 || !strings.Contains(string(out), "string.\n\"\"\"\nimport math\n") {
		t.Fatalf("add after the docstring: %q", out)
	}
}

func TestMissingIn(t *testing.T) {
	fe := New()
	for msg, want := range map[string]lang.Missing{
		`"clamp" is not defined (reportUndefinedVariable)`:                                         {Name: "clamp"},
		"Cannot access attribute \"limit\" for class \"Config\"\n  Attribute \"limit\" is unknown": {Type: "Config", Name: "limit"},
		`Cannot access attribute "make" for class "type[Factory]"`:                                 {Type: "Factory", Name: "make"},
	} {
		if got, ok := fe.MissingIn(msg); !ok || got != want {
			t.Errorf("MissingIn(%q) = %+v, %v; want %+v", msg, got, ok, want)
		}
	}
	if _, ok := fe.MissingIn(`Argument missing for parameter "factor"`); ok {
		t.Error("a missing argument read as a missing declaration")
	}
}

func TestCheckNew(t *testing.T) {
	if !treesit.Available {
		t.Skip("built without cgo")
	}
	const head = "import os\n\n\ndef use():\n    return clamp(2)\n\n\n"
	taken := map[string]bool{"use": true, "os": true}
	for _, c := range []struct{ name, want, code, err string }{
		{"a function", "clamp", "def clamp(x):\n    return min(x, 9)\n", ""},
		{"decorated, with a constant", "clamp", "LIMIT = 9\n\n\n@staticmethod\ndef clamp(x):\n    # bounded\n    return min(x, LIMIT)\n", ""},
		{"a class", "Limits", "class Limits:\n    top = 9\n", ""},
		{"an existing name", "clamp", "def clamp(x):\n    return x\n\n\ndef use():\n    return 1\n", "use (line 12) is already declared"},
		{"a statement", "clamp", "def clamp(x):\n    return x\n\n\nprint(clamp(1))\n", "is a statement, not a declaration"},
		{"not the wanted one", "clamp", "def bound(x):\n    return x\n", "does not declare clamp"},
		{"does not parse", "clamp", "def clamp(x:\n    return x\n", "no longer parses"},
	} {
		t.Run(c.name, func(t *testing.T) {
			src := head + c.code
			from := strings.Count(head, "\n") + 1
			to := from + strings.Count(c.code, "\n") - 1
			err := New().CheckNew("m.py", []byte(src), from, to, c.want, taken)
			switch {
			case c.err == "" && err != nil:
				t.Errorf("error %v, want none", err)
			case c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)):
				t.Errorf("error %v, want one containing %q", err, c.err)
			}
		})
	}
}

// An import the file has, written another way, is not added again; one
// that binds a name to something else, or loads another submodule, is.
func TestAddImportsBound(t *testing.T) {
	if !treesit.Available {
		t.Skip("built without cgo")
	}
	fe := New()
	src := "import os.path\nfrom .config import (\n    LIMITS,\n    Proxy as P,\n)\n\nif TYPE_CHECKING:\n    from .core import Option\n\n\ndef f():\n    pass\n"
	for _, c := range []struct {
		imports []string
		added   int
	}{
		{[]string{"from .config import LIMITS"}, 0},
		{[]string{"from .config import Proxy as P", "from .config import LIMITS"}, 0},
		{[]string{"from .core import Option"}, 0}, // under a module-level if
		{[]string{"import os.path"}, 0},
		{[]string{"import os.sep"}, 1},             // another submodule
		{[]string{"from .config import Proxy"}, 1}, // binds Proxy, which the file does not
		{[]string{"from .other import LIMITS"}, 1}, // LIMITS from elsewhere
		{[]string{"from .config import LIMITS, Timeout"}, 1},
	} {
		out, n, err := fe.AddImports([]byte(src), c.imports)
		if err != nil || n != c.added {
			t.Errorf("AddImports(%q) added %d lines, want %d (%v):\n%s", c.imports, n, c.added, err, out)
		}
	}
}
