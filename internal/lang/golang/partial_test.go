package golang

import (
	"context"
	"go/ast"
	"go/parser"
	"go/token"
	"reflect"
	"testing"

	"github.com/ripple-dev/ripple/internal/gitio"
	"github.com/ripple-dev/ripple/internal/lang"
	"github.com/ripple-dev/ripple/internal/testrepo"
)

const partialSrc = `package p

import "fmt"

type T struct{ n int }

// A names Foo.
func A(x int) int {
	y := Foo(x)
	return y + 1
}

func B(s []string) (out []string) {
	for i, v := range s {
		switch w := any(v).(type) {
		case string:
			out = append(out, fmt.Sprint(i, w, T{n: i}))
		}
	}
	return
}

func (t *T) D() { Bar(func() { t.n++ }) }

func Foo(x int) int { return x }

func Bar(f func()) {
	defer f()
	if m := map[string][]int{"a": {1, 2}}; len(m) > 0 {
		_ = m["a"][1:]
	}
}
`

// positions lists the offsets of every position in n, in walk order.
func positions(tf *token.File, n ast.Node) []int {
	var out []int
	posType := reflect.TypeFor[token.Pos]()
	var walk func(v reflect.Value)
	walk = func(v reflect.Value) {
		switch v.Kind() {
		case reflect.Pointer, reflect.Interface:
			if !v.IsNil() {
				walk(v.Elem())
			}
		case reflect.Struct:
			for i := range v.NumField() {
				walk(v.Field(i))
			}
		case reflect.Slice:
			for i := range v.Len() {
				walk(v.Index(i))
			}
		default:
			if v.Type() == posType && v.Int() != 0 {
				out = append(out, tf.Offset(token.Pos(v.Int())))
			}
		}
	}
	walk(reflect.ValueOf(n))
	return out
}

// TestPartialParse parses a file for a word, then for words its
// left-out bodies do not and do hold, then whole: the completed file is
// the whole parse, position for position, with the nodes handed out
// before unchanged and every identifier resolved.
func TestPartialParse(t *testing.T) {
	testrepo.Hermetic(t)
	dir := t.TempDir()
	testrepo.Init(t, dir)
	testrepo.WriteFiles(t, dir, map[string]string{"go.mod": "module example.com/m\n\ngo 1.22\n", "p/p.go": partialSrc})
	head := testrepo.CommitAll(t, dir, "p")
	ctx := context.Background()
	repo, err := gitio.Open(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	defer repo.Close()
	an, err := New().NewAnalyzer(ctx, &lang.Env{Head: &gitio.RevTree{R: repo, SHA: head}})
	if err != nil {
		t.Fatal(err)
	}
	ix := an.(*analyzer).ix

	fs := ix.parseHits(ctx, []string{"p/p.go"}, map[string]bool{"Foo": true})
	if len(fs) != 1 {
		t.Fatal("p/p.go not parsed")
	}
	f := fs[0]
	var names []string
	for _, fd := range f.stripped {
		names = append(names, fd.Name.Name)
	}
	// A and Foo name Foo; B, D and Bar do not
	if !reflect.DeepEqual(names, []string{"B", "D", "Bar"}) {
		t.Fatalf("left out %v, want B, D, Bar", names)
	}
	a := f.ast.Decls[2].(*ast.FuncDecl)
	aBody := a.Body
	if len(aBody.List) != 2 {
		t.Fatalf("A's body was not parsed: %d statements", len(aBody.List))
	}

	// a word no left-out body holds: still in part
	ix.parseHits(ctx, []string{"p/p.go"}, map[string]bool{"Quux": true})
	if len(f.stripped) != 3 || !f.keptFor["Quux"] || !f.keptFor["Foo"] {
		t.Errorf("after Quux: %d left out, kept for %v", len(f.stripped), f.keptFor)
	}
	// Bar is named in D and Bar: completed
	ix.parseHits(ctx, []string{"p/p.go"}, map[string]bool{"Bar": true})
	if f.stripped != nil || f.keptFor != nil {
		t.Fatalf("after Bar: %d left out", len(f.stripped))
	}
	if got := ix.parse(ctx, []string{"p/p.go"}); len(got) != 1 || got[0] != f {
		t.Fatal("the completed file is not the one parse returns")
	}
	if a.Body != aBody {
		t.Error("completing the file replaced a body parsed before")
	}

	wf := token.NewFileSet()
	want, err := parser.ParseFile(wf, "p/p.go", partialSrc, parser.SkipObjectResolution)
	if err != nil {
		t.Fatal(err)
	}
	got, exp := positions(ix.fset.File(f.ast.Pos()), f.ast), positions(wf.File(want.Pos()), want)
	if !reflect.DeepEqual(got, exp) {
		t.Errorf("positions of the completed file differ from a whole parse:\n got %v\nwant %v", got, exp)
	}
	// identifiers of the completed bodies are resolved: t in D's closure,
	// w in B's type switch
	found := map[string]bool{}
	ast.Inspect(f.ast, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok && (id.Name == "t" || id.Name == "w") && f.scopes.lookup(id) != nil {
			found[id.Name] = true
		}
		return true
	})
	if !found["t"] || !found["w"] {
		t.Errorf("identifiers of completed bodies resolved: %v", found)
	}
}

func TestStripBodiesExcept(t *testing.T) {
	src := []byte(partialSrc)
	out, blanked := stripBodiesExcept(src, func(decl []byte) bool { return containsWord(decl, "Foo") })
	if len(out) != len(src) || len(blanked) != 3 {
		t.Fatalf("length %d (want %d), %d bodies blanked (want 3)", len(out), len(src), len(blanked))
	}
	all, every := stripBodiesExcept(src, nil)
	if string(all) != string(stripBodies(src)) || len(every) != 5 {
		t.Errorf("with no keep: %d bodies blanked, or not stripBodies' output", len(every))
	}
}
