package golang

import (
	"fmt"
	"go/parser"
	"go/token"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/ripple-dev/ripple/internal/lang"
)

// fuzzSeeds are small sources covering every kind of declaration.
var fuzzSeeds = []string{
	"package p\n\nfunc F(a, b int) (int, error) { return a + b, nil }\n",
	"package p\n\nimport (\n\t\"fmt\"\n\tx \"strings\"\n\t_ \"embed\"\n\t. \"os\"\n)\n\nvar _ = fmt.Sprint(x.ToLower(\"\"), Args)\n",
	"package p\n\ntype T[K comparable, V any] struct {\n\t*Base\n\tio.Reader\n\tA, B int `json:\"a,omitempty\" yaml:\"b\"`\n\tm map[K]V\n}\n\nfunc (t *T[K, V]) Get(k K) (v V, ok bool) { v, ok = t.m[k]; return }\n",
	"package p\n\ntype I interface {\n\tfmt.Stringer\n\tM(ctx context.Context, xs ...string) error\n\tN()\n\t~int | string\n}\n\ntype A = map[string]I\n",
	"package p\n\nconst (\n\tA = iota\n\tB\n\tC, D = 1, 2\n)\n\nvar x, y = f()\n\nfunc NewT(s string) (*T, error) { return &T{}, nil }\n",
	"package p\n\nfunc (Recv) M() {}\n\nfunc (r *Recv[T]) N() { r.x++; panic(\"no\") }\n",
	"package p\n\nfunc Broken( {\n",
	"package",
	"",
	"package p\n\nfunc F() { \xff }\n",
}

// FuzzDecls: decls never panics; on sources go/parser accepts, every
// declaration has a span within the file, a name line inside its span,
// and a non-empty Display.
func FuzzDecls(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add(s)
	}
	for _, name := range []string{"decls.go", "details.go", "frontend.go", "module.go"} {
		if b, err := os.ReadFile(name); err == nil {
			f.Add(string(b))
		}
	}
	f.Fuzz(func(t *testing.T, src string) {
		defer watchdog(src)()
		ds, diag := decls("p/f.go", []byte(src))
		if _, err := parser.ParseFile(token.NewFileSet(), "f.go", src, parseMode); err != nil {
			if diag == nil {
				t.Errorf("go/parser fails (%v) but decls reports no diagnostic", err)
			}
			return
		}
		if diag != nil {
			t.Errorf("go/parser accepts the source but decls reports %s", diag)
		}
		lines := strings.Count(src, "\n") + 1
		for _, d := range ds {
			b := d.Block
			if b.Display == "" || b.Name == "" {
				t.Errorf("declaration without a name or display: %+v", b)
			}
			if b.Lang != "go" || b.Path != "p/f.go" || b.Package != "p" {
				t.Errorf("%s: wrong Lang/Path/Package %q %q %q", b.Display, b.Lang, b.Path, b.Package)
			}
			if b.Span.StartLine < 1 || b.Span.EndLine < b.Span.StartLine || b.Span.EndLine > lines {
				t.Errorf("%s: span %d-%d outside the file's %d lines", b.Display, b.Span.StartLine, b.Span.EndLine, lines)
			}
			if !b.Span.Contains(b.NameLine) {
				t.Errorf("%s: name line %d outside its span %d-%d", b.Display, b.NameLine, b.Span.StartLine, b.Span.EndLine)
			}
		}
	})
}

// declsOf parses one declaration wrapped in a file of package p.
func declsOf(src string) []*lang.Decl {
	ds, _ := decls("p/f.go", []byte("package p\n\n"+src))
	return ds
}

// watchdog crashes the fuzz worker when one input takes longer than
// any source file should (the fuzzer then saves the input): a hang is a
// bug too. Call the function it returns when done.
func watchdog(inputs ...string) (stop func()) {
	t := time.AfterFunc(10*time.Second, func() {
		panic(fmt.Sprintf("input still running after 10s: %q", inputs))
	})
	return func() { t.Stop() }
}

func yes(int, int) bool { return true }
func no(int, int) bool  { return false }

// FuzzDetails: two versions of a declaration. details and escapes never
// panic, whatever the pairing (same key, or a rename candidate); two
// states of one declaration whose Sig differ have details (else the
// classifier drops the change); and a declaration compared with an
// identical copy of itself has no details and, with no line changed, no
// escapes.
func FuzzDetails(f *testing.F) {
	pairs := [][2]string{
		{"func F(a, b int) int { return a + b }", "func F(a, b, c int) int { return a + b + c }"},
		{"func F(xs ...string) {}", "func F(xs []string) {}"},
		{"func (t T) M() error { return nil }", "func (t *T) M() error { t.n++; return errors.New(\"x\") }"},
		{"func F[T any](x T) T { return x }", "func F[T comparable, U any](x T, u U) (T, U) { return x, u }"},
		{"func NewT() *T { return &T{} }", "func NewT(opts ...Option) (*T, error) { os.Exit(1); return nil, nil }"},
		{"type T struct{ A int `json:\"a\"` }", "type T struct{ A string `json:\"b,omitempty\"`; B int }"},
		{"type I interface{ M() }", "type I interface{ io.Reader; M(int) }"},
		{"type T int", "type T = string"},
		{"var V int = 1", "var V = \"x\""},
		{"const C = iota", "const C, D = 1, 2"},
		{"func F() { ch <- 1; close(ch) }", "func F() {"},
		{"func F(", "type F struct{}"},
	}
	for _, p := range pairs {
		f.Add(p[0], p[1])
	}
	f.Fuzz(func(t *testing.T, a, b string) {
		defer watchdog(a, b)()
		olds, news := declsOf(a), declsOf(b)
		for _, o := range olds {
			for _, n := range news {
				if o.Key() != n.Key() && o.Kind != n.Kind {
					continue
				}
				d := details(o, n)
				// a change of Sig without details is dropped by the
				// classifier as "nothing a dependent relies on"
				if o.Key() == n.Key() && o.Kind == n.Kind && o.Sig != n.Sig && len(d) == 0 {
					t.Errorf("%s: Sig %q -> %q but no details: the change would be dropped", o.Display, o.Sig, n.Sig)
				}
				escapes(o, n, yes, yes)
				escapes(o, n, no, yes)
			}
		}
		// identical inputs: the same source parsed twice
		again := declsOf(a)
		if len(again) != len(olds) {
			t.Fatalf("parsing %q twice gives %d and %d declarations", a, len(olds), len(again))
		}
		for i, o := range olds {
			n := again[i]
			if o.Sig != n.Sig || o.Body != n.Body {
				t.Errorf("%s: fingerprints differ between two parses of the same source", o.Display)
			}
			if d := details(o, n); len(d) != 0 {
				t.Errorf("%s: details of identical declarations: %q", o.Display, d)
			}
			if _, isFunc := o.Data.(*funcInfo); isFunc {
				if e := escapes(o, n, no, no); len(e) != 0 {
					t.Errorf("%s: escapes with no line changed: %q", o.Display, e)
				}
			}
		}
	})
}
