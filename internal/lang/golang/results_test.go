package golang

import (
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"strings"
	"testing"

	"github.com/ripple-dev/ripple/internal/lang"
)

// TestResultMisfit holds ResultMisfit to the type checker's own words:
// each line marked "// want NAME" (or "// want -") is where go/types
// reports an error, and ResultMisfit names the callee NAME from it (or
// none: an argument's misfit may be the parameter's).
func TestResultMisfit(t *testing.T) {
	const src = `package p

type T struct{}

func (T) two() (int, int) { return 1, 2 }

func one() int { return 1 }

func pair() (int, error) { return 1, nil }

func take(s string) {}

func f(t T) (int, int, error) {
	a, b := one() // want one
	var c string = one() // want one
	take(one()) // want -
	x := t.two() // want t.two
	_, _, _ = a, b, c
	_ = x
	return pair() // want pair
}

func g() string {
	return one() // want one
}
`
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "p.go", src, parser.ParseComments)
	if err != nil {
		t.Fatal(err)
	}
	msgs := map[int]string{}
	conf := types.Config{Error: func(err error) {
		te := err.(types.Error)
		line := fset.Position(te.Pos).Line
		if _, ok := msgs[line]; !ok {
			msgs[line] = te.Msg
		}
	}}
	conf.Check("p", fset, []*ast.File{f}, nil)
	lines := strings.Split(src, "\n")
	fe := &Frontend{}
	for i, l := range lines {
		_, want, ok := strings.Cut(l, "// want ")
		if !ok {
			continue
		}
		line := i + 1
		msg, ok := msgs[line]
		if !ok {
			t.Errorf("line %d: the type checker reports nothing", line)
			continue
		}
		m, ok := fe.ResultMisfit("p.go", []byte(src), line, msg)
		got := "-"
		if ok {
			got = m.Name
			if m.Qualifier != "" {
				got = m.Qualifier + "." + m.Name
			}
		}
		if got != want {
			t.Errorf("line %d (%s): callee %q, want %q", line, msg, got, want)
		}
	}
	var _ lang.ResultReader = fe
}
