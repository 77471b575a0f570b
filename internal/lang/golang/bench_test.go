package golang

import (
	"fmt"
	"go/parser"
	"go/token"
	"strings"
	"testing"
)

// benchSource returns a deterministic Go file of about lines lines with
// the declarations Ripple meets in real code: struct types with tags,
// constructors, methods, interfaces, grouped constants and variables,
// generic functions and long function bodies.
func benchSource(lines int) []byte {
	var b strings.Builder
	b.WriteString("// Package sample is generated for benchmarks.\npackage sample\n\n")
	b.WriteString("import (\n\t\"context\"\n\t\"errors\"\n\t\"fmt\"\n\t\"strings\"\n)\n\n")
	b.WriteString("var errNone = errors.New(\"none\")\n\n")
	for i := 0; strings.Count(b.String(), "\n") < lines; i++ {
		fmt.Fprintf(&b, `// Item%[1]d is a record.
type Item%[1]d struct {
	ID      int               `+"`json:\"id\"`"+`
	Name    string            `+"`json:\"name\" yaml:\"name\"`"+`
	Tags    []string          `+"`json:\"tags,omitempty\"`"+`
	Labels  map[string]string `+"`json:\"labels,omitempty\"`"+`
	Parent  *Item%[1]d
	enabled bool
}

// Store%[1]d is implemented by stores of Item%[1]d.
type Store%[1]d interface {
	Get(ctx context.Context, id int) (*Item%[1]d, error)
	Put(ctx context.Context, it *Item%[1]d) error
	fmt.Stringer
}

const (
	Kind%[1]dA = iota
	Kind%[1]dB
	Kind%[1]dC
)

// NewItem%[1]d returns an enabled item.
func NewItem%[1]d(id int, name string, tags ...string) *Item%[1]d {
	return &Item%[1]d{ID: id, Name: name, Tags: tags, Labels: map[string]string{}, enabled: true}
}

// Describe returns a description.
func (it *Item%[1]d) Describe(verbose bool) (string, error) {
	if it == nil {
		return "", errNone
	}
	var sb strings.Builder
	for i, t := range it.Tags {
		if i > 0 {
			sb.WriteString(", ")
		}
		sb.WriteString(t)
	}
	if verbose {
		for k, v := range it.Labels {
			fmt.Fprintf(&sb, " %%s=%%s", k, v)
		}
	}
	return fmt.Sprintf("%%d %%s [%%s]", it.ID, it.Name, sb.String()), nil
}

// Map%[1]d applies f to xs.
func Map%[1]d[T, U any](xs []T, f func(T) U) []U {
	out := make([]U, 0, len(xs))
	for _, x := range xs {
		out = append(out, f(x))
	}
	return out
}

func process%[1]d(ctx context.Context, s Store%[1]d, ids []int) (n int, err error) {
	for _, id := range ids {
		select {
		case <-ctx.Done():
			return n, ctx.Err()
		default:
		}
		it, err := s.Get(ctx, id)
		if err != nil {
			return n, fmt.Errorf("get %%d: %%w", id, err)
		}
		it.Tags = append(it.Tags, "seen")
		if err := s.Put(ctx, it); err != nil {
			return n, err
		}
		n++
	}
	return n, nil
}

`, i)
	}
	return []byte(b.String())
}

var benchSink any

// BenchmarkDecls: parsing one state of a ~2,000-line file into
// declarations (what classifying a changed file costs per side).
func BenchmarkDecls(b *testing.B) {
	src := benchSource(2000)
	if _, err := parser.ParseFile(token.NewFileSet(), "sample.go", src, 0); err != nil {
		b.Fatalf("generated source does not parse: %v", err)
	}
	ds, diag := decls("internal/sample/sample.go", src)
	if diag != nil || len(ds) == 0 {
		b.Fatalf("decls: %d declarations, diagnostic %v", len(ds), diag)
	}
	b.ReportMetric(float64(len(ds)), "decls/op")
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		ds, _ := decls("internal/sample/sample.go", src)
		benchSink = ds
	}
}

// BenchmarkParseOnly: go/parser alone on the same file and in the mode
// decls uses, the floor BenchmarkDecls is compared with.
func BenchmarkParseOnly(b *testing.B) {
	src := benchSource(2000)
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	for b.Loop() {
		f, err := parser.ParseFile(token.NewFileSet(), "sample.go", src, parseMode)
		if err != nil {
			b.Fatal(err)
		}
		benchSink = f
	}
}

// BenchmarkParseResolve: parsing a ~2,000-line file and resolving its
// identifiers, as the index does for each file it searches: by the
// parser's object resolution (deprecated; what the front-end used
// before) and by resolveFile.
func BenchmarkParseResolve(b *testing.B) {
	src := benchSource(2000)
	b.Run("parser", func(b *testing.B) {
		b.SetBytes(int64(len(src)))
		b.ReportAllocs()
		for b.Loop() {
			f, err := parser.ParseFile(token.NewFileSet(), "sample.go", src, parser.ParseComments|parser.AllErrors)
			if err != nil {
				b.Fatal(err)
			}
			benchSink = f
		}
	})
	b.Run("resolveFile", func(b *testing.B) {
		b.SetBytes(int64(len(src)))
		b.ReportAllocs()
		for b.Loop() {
			f, err := parser.ParseFile(token.NewFileSet(), "sample.go", src, parseMode)
			if err != nil {
				b.Fatal(err)
			}
			benchSink = resolveFile(f)
		}
	})
}

// BenchmarkTokens: the canonical token form of source text, on a whole
// ~2,000-line file and on one function signature (the size it is used
// at when comparing declarations).
func BenchmarkTokens(b *testing.B) {
	file := benchSource(2000)
	sig := []byte("func (it *Item12) Describe(ctx context.Context, verbose bool, opts ...Option) (string, error)")
	for _, c := range []struct {
		name string
		src  []byte
	}{{"file", file}, {"signature", sig}} {
		b.Run(c.name, func(b *testing.B) {
			if tokens(c.src) == "" {
				b.Fatal("no tokens")
			}
			b.SetBytes(int64(len(c.src)))
			b.ReportAllocs()
			for b.Loop() {
				benchSink = tokens(c.src)
			}
		})
	}
}
