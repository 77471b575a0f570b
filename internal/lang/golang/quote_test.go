package golang

import (
	"testing"

	"github.com/ripple-dev/ripple/internal/lang"
)

func TestQuote(t *testing.T) {
	fe := New()
	var _ lang.Quoter = fe
	src := `package p

import (
	"fmt"
	"strings"
	_ "embed"
	yaml "gopkg.in/yaml.v3"
	"example.com/mod/v2"
)

var (
	limit = 3
	name  = "x"
)

type (
	// T holds things.
	T struct{ s strings.Builder }
	U int
)

const one = 1

// Show prints.
func Show(v any) string {
	out, _ := yaml.Marshal(v)
	return fmt.Sprint(mod.X, string(out), "strings.")
}

func (t *T) Len() int { return t.s.Len() }
`
	ds, _ := fe.Decls("p/p.go", []byte(src))
	by := map[string]*lang.Decl{}
	for _, d := range ds {
		by[d.Display] = d
	}
	quote := func(names ...string) string {
		t.Helper()
		var q []*lang.Decl
		for _, n := range names {
			if by[n] == nil {
				t.Fatalf("no %s among the declarations", n)
			}
			q = append(q, by[n])
		}
		s, err := fe.Quote("p/p.go", []byte(src), q)
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	// the imports named as name.X; a word inside a string is no use
	if got, want := quote("func Show"), "import (\n\t\"fmt\"\n\tyaml \"gopkg.in/yaml.v3\"\n\t\"example.com/mod/v2\"\n)\n\nfunc Show(v any) string {\n\tout, _ := yaml.Marshal(v)\n\treturn fmt.Sprint(mod.X, string(out), \"strings.\")\n}\n"; got != want {
		t.Errorf("Quote(Show) =\n%s\nwant\n%s", got, want)
	}
	// a spec of a group stands alone with its keyword; a type and its method
	if got, want := quote("var name"), "var name  = \"x\"\n"; got != want {
		t.Errorf("Quote(name) = %q, want %q", got, want)
	}
	if got, want := quote("type T", "func (*T).Len"), "import (\n\t\"strings\"\n)\n\ntype T struct{ s strings.Builder }\n\nfunc (t *T) Len() int { return t.s.Len() }\n"; got != want {
		t.Errorf("Quote(T, Len) =\n%s\nwant\n%s", got, want)
	}
	if got, want := quote("const one"), "const one = 1\n"; got != want {
		t.Errorf("Quote(one) = %q, want %q", got, want)
	}
	// an import declaration is an import of the reply
	var yaml *lang.Decl
	for _, d := range ds {
		if lang.ImportNames(d, "yaml") {
			yaml = d
		}
	}
	if yaml == nil {
		t.Fatal("no import names yaml")
	}
	if got, err := fe.Quote("p/p.go", []byte(src), []*lang.Decl{yaml}); err != nil || got != "import (\n\tyaml \"gopkg.in/yaml.v3\"\n)\n\n" {
		t.Errorf("Quote(%s) = %q, %v", yaml.Display, got, err)
	}
	// what the engine reads back
	imps, block, err := fe.SplitImports(quote("func Show"))
	if err != nil || len(imps) != 3 || imps[1] != `yaml "gopkg.in/yaml.v3"` || block[:9] != "func Show" {
		t.Errorf("SplitImports(Quote) = %q, %q, %v", imps, block, err)
	}
}
