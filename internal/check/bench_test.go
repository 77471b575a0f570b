package check_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/ripple-dev/ripple/internal/check"
	"github.com/ripple-dev/ripple/internal/config"
	"github.com/ripple-dev/ripple/internal/gitio"
	"github.com/ripple-dev/ripple/internal/model"
	"github.com/ripple-dev/ripple/internal/testrepo"
)

// smallModule returns a module of 1 + pkgs*5 files (standard library
// only) whose seed function lib.Open is called from callers sites spread
// over the packages, and the seed file after a signature change (a
// context parameter added, callers not updated).
func smallModule(pkgs, callers int) (base map[string]string, seedPath, seedAfter string) {
	base = map[string]string{"go.mod": "module example.com/small\n\ngo 1.22\n"}
	seed := func(params, guard string) string {
		return "package lib\n\nimport (\n\t\"context\"\n\t\"errors\"\n)\n\n" +
			"var _ context.Context\n\n" +
			"// Conn is a connection.\ntype Conn struct {\n\tName string `json:\"name\"`\n\tOpen bool\n}\n\n" +
			"// Open opens a connection.\nfunc Open(" + params + ") (*Conn, error) {\n" + guard +
			"\tif name == \"\" {\n\t\treturn nil, errors.New(\"lib: no name\")\n\t}\n\treturn &Conn{Name: name, Open: true}, nil\n}\n\n" +
			"// Close closes c.\nfunc (c *Conn) Close() error { c.Open = false; return nil }\n"
	}
	seedPath = "lib/lib.go"
	base[seedPath] = seed("name string", "")
	seedAfter = seed("ctx context.Context, name string", "\tif err := ctx.Err(); err != nil {\n\t\treturn nil, err\n\t}\n")
	n := 0
	for p := 0; p < pkgs; p++ {
		for f := 0; f < 5; f++ {
			var b strings.Builder
			fmt.Fprintf(&b, "package p%d\n\nimport (\n\t\"fmt\"\n\t\"strings\"\n\n\t\"example.com/small/lib\"\n", p)
			if p > 0 {
				fmt.Fprintf(&b, "\t\"example.com/small/p%d\"\n", p-1)
			}
			b.WriteString(")\n\n")
			for fn := 0; fn < 6; fn++ {
				fmt.Fprintf(&b, "// F%d%d joins and opens.\nfunc F%d%d(parts []string) (string, error) {\n", f, fn, f, fn)
				b.WriteString("\ts := strings.Join(parts, \"/\")\n")
				if p > 0 {
					fmt.Fprintf(&b, "\tif v, err := p%d.F%d%d(parts); err == nil {\n\t\ts += v\n\t}\n", p-1, (f+1)%5, fn)
				}
				if n < callers && (p*30+f*6+fn)%((pkgs*30+callers-1)/callers) == 0 {
					n++
					b.WriteString("\tc, err := lib.Open(s)\n\tif err != nil {\n\t\treturn \"\", fmt.Errorf(\"open: %w\", err)\n\t}\n\tdefer c.Close()\n")
				} else {
					b.WriteString("\tc := &lib.Conn{Name: s}\n")
				}
				b.WriteString("\treturn fmt.Sprint(c.Name, len(parts)), nil\n}\n\n")
			}
			base[fmt.Sprintf("p%d/f%d.go", p, f)] = b.String()
		}
	}
	return base, seedPath, seedAfter
}

// BenchmarkCheckSmallRepo: check.Run on a real repository of 51 files
// whose seed function gained a parameter in the head commit, 20 of its
// call sites left as they were; at -precision=syntax and at the default
// (auto: the type-checked tier within the budget). The repository is
// built once; each iteration opens it and checks the range, as one hook
// run does.
func BenchmarkCheckSmallRepo(b *testing.B) {
	const pkgs, callers = 10, 20
	files, seedPath, seedAfter := smallModule(pkgs, callers)
	testrepo.Hermetic(b)
	dir := b.TempDir()
	testrepo.Init(b, dir)
	testrepo.WriteFiles(b, dir, files)
	base := testrepo.CommitAll(b, dir, "base")
	testrepo.WriteFiles(b, dir, map[string]string{seedPath: seedAfter})
	head := testrepo.CommitAll(b, dir, "seed: add a context parameter")
	ctx := context.Background()

	for _, precision := range []config.Precision{config.PrecisionSyntax, config.PrecisionAuto} {
		b.Run("precision="+string(precision), func(b *testing.B) {
			cfg := config.Default()
			cfg.Precision = precision
			run := func() *model.Result {
				repo, err := gitio.Open(ctx, dir)
				if err != nil {
					b.Fatal(err)
				}
				defer repo.Close()
				res, err := check.Run(ctx, repo, check.Options{Base: base, Head: head, Config: cfg})
				if err != nil {
					b.Fatal(err)
				}
				return res
			}
			// once untimed: the result must be right, and a first run's
			// one-time costs (caches) are not what is measured
			res := run()
			errs := 0
			for _, f := range res.Findings {
				if f.Level == model.LevelError {
					errs++
				}
			}
			if errs != callers {
				b.Fatalf("%d error findings, want %d (one per call site)", errs, callers)
			}
			b.ReportMetric(float64(errs), "errors/op")
			b.ReportAllocs()
			b.ResetTimer()
			for b.Loop() {
				run()
			}
		})
	}
}
