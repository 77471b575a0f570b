//go:build cgo

package treesit

import (
	"strings"
	"testing"

	tspython "github.com/tree-sitter/tree-sitter-python/bindings/go"
)

// The copy is checked with one grammar the repository already links;
// the package itself names none.
var testGrammar = &Grammar{Name: "tree-sitter-python", Root: "module", Label: "Python 3.12", NoCgo: "no cgo", Load: tspython.Language}

func TestFlatCopy(t *testing.T) {
	src := "def f(a, b=1):\n    # note\n    return (a)\n"
	tr := testGrammar.Parse([]byte(src))
	if tr.Errors != 0 || tr.Diagnostic("x.py") != nil {
		t.Fatalf("%d errors", tr.Errors)
	}
	if tr.Root.Kind != "module" || tr.Root.Parent != nil || tr.Root.Tree != tr {
		t.Fatalf("root %+v", tr.Root)
	}
	fn := tr.Root.FirstOf("function_definition")
	if fn == nil || fn.Line != 1 || fn.EndLine != 3 || fn.Col != 0 || !fn.Named {
		t.Fatalf("function %+v", fn)
	}
	if name := fn.Child("name"); name.Text() != "f" || name.Field != "name" || name.Parent != fn {
		t.Errorf("name %q field %q", name.Text(), name.Field)
	}
	if got := Compact(fn.Child("parameters")); got != "(a, b=1)" {
		t.Errorf("parameters %q", got)
	}
	if !fn.HasToken("def") || fn.HasToken("async") {
		t.Errorf("tokens of the definition")
	}
	if got := tr.Tokens(fn, nil); got != "def f ( a , b = 1 ) : return ( a )" {
		t.Errorf("tokens %q", got)
	}
	if got := tr.LineText(3); got != "    return (a)" {
		t.Errorf("line 3: %q", got)
	}
	var ret *Node
	Walk(tr.Root, func(n *Node) bool {
		if n.Kind == "return_statement" {
			ret = n
		}
		return true
	})
	if ret == nil || Unparen(ret.NamedKids()[0]).Text() != "a" {
		t.Errorf("return %v", ret)
	}
	var nilNode *Node
	if nilNode.Text() != "" || nilNode.KindOr() != "" || nilNode.Child("x") != nil {
		t.Errorf("nil node")
	}
}

func TestSyntaxError(t *testing.T) {
	tr := testGrammar.Parse([]byte("def ok():\n    pass\n\ndef broken(:\n    pass\n"))
	d := tr.Diagnostic("x.py")
	if tr.Errors == 0 || tr.ErrLine != 4 || d == nil || d.Line != 4 || !d.Partial ||
		!strings.HasPrefix(d.Message, "does not parse (Python 3.12 grammar): syntax error") {
		t.Fatalf("%d errors at %d: %v", tr.Errors, tr.ErrLine, d)
	}
	bad := 0
	Walk(tr.Root, func(n *Node) bool {
		if n.Bad {
			bad++
			if n.Kind != "ERROR" {
				t.Errorf("bad node of kind %s", n.Kind)
			}
		}
		return true
	})
	if bad != tr.Errors {
		t.Errorf("%d bad nodes, %d errors", bad, tr.Errors)
	}
}

func TestConcurrentParse(t *testing.T) {
	done := make(chan string)
	for i := 0; i < 8; i++ {
		go func() {
			tr := testGrammar.Parse([]byte("x = [i for i in range(3)]\n"))
			done <- tr.Root.Kids[0].Kind
		}()
	}
	for i := 0; i < 8; i++ {
		if k := <-done; k != "expression_statement" {
			t.Errorf("first statement %s", k)
		}
	}
}
