package python

import (
	"strings"
	"testing"
)

func TestCheckBlock(t *testing.T) {
	if !parserAvailable {
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
