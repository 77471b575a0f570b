package check_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/ripple-dev/ripple/internal/check"
	"github.com/ripple-dev/ripple/internal/config"
	"github.com/ripple-dev/ripple/internal/gitio"
	"github.com/ripple-dev/ripple/internal/testrepo"
)

// TestTypesCacheNeverChangesAVerdict runs checks whose verdicts come
// from the type checker, reading its imports through export data (the
// units' direct imports whole, c only as b's API refers to it) with
// Ripple's cache cold, warm, corrupted, and after a file of an
// imported package changed (which must change the verdict), and holds
// every run to a cold run of the same range.
func TestTypesCacheNeverChangesAVerdict(t *testing.T) {
	testrepo.Hermetic(t)
	dir := t.TempDir()
	testrepo.Init(t, dir)
	testrepo.WriteFiles(t, dir, map[string]string{
		"go.mod":     "module example.com/m\n\ngo 1.22\n",
		"c/c.go":     "package c\n\ntype T struct{ N int }\n\nfunc (T) Get() int { return 0 }\n",
		"c/c_win.go": "//go:build windows\n\npackage c\n\nfunc (T) Win() int { return 0 }\n",
		"b/b.go":     "package b\n\nimport \"example.com/m/c\"\n\nfunc Make() c.T { return c.T{} }\n",
		"lib/lib.go": "package lib\n\nfunc Use(n int) string { return \"\" }\n",
		"u/u.go": "package u\n\nimport (\n\t\"example.com/m/b\"\n\t\"example.com/m/lib\"\n)\n\n" +
			"func F() string { return lib.Use(b.Make().Get()) }\n\nfunc G() string { return lib.Use(5) }\n",
		"u/u_windows.go": "package u\n\nimport (\n\t\"example.com/m/b\"\n\t\"example.com/m/lib\"\n)\n\n" +
			"func W() string { return lib.Use(b.Make().Win()) }\n",
	})
	base := testrepo.CommitAll(t, dir, "base")
	testrepo.WriteFiles(t, dir, map[string]string{"lib/lib.go": "package lib\n\nfunc Use(n int64) string { return \"\" }\n"})
	head := testrepo.CommitAll(t, dir, "Use takes an int64")
	// then c's methods return int64: the calls through b type-check
	testrepo.WriteFiles(t, dir, map[string]string{
		"c/c.go":     "package c\n\ntype T struct{ N int }\n\nfunc (T) Get() int64 { return 0 }\n",
		"c/c_win.go": "//go:build windows\n\npackage c\n\nfunc (T) Win() int64 { return 0 }\n",
	})
	head2 := testrepo.CommitAll(t, dir, "c returns int64")

	run := func(cache, head string) string {
		t.Helper()
		t.Setenv("RIPPLE_CACHE", cache)
		ctx := context.Background()
		repo, err := gitio.Open(ctx, dir)
		if err != nil {
			t.Fatal(err)
		}
		defer repo.Close()
		cfg := config.Default()
		cfg.Precision = config.PrecisionTypes
		res, err := check.Run(ctx, repo, check.Options{Base: base, Head: head, Config: cfg})
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, f := range res.Findings {
			out = append(out, fmt.Sprintf("%s:%d %s %s %q [%s] missing %q", f.Site.Path, f.Site.Line, f.Level, f.Verdict, f.Message, f.Precision, f.Missing))
		}
		sort.Strings(out)
		return strings.Join(out, "\n")
	}
	cold := run(t.TempDir(), head)
	for _, want := range []string{"u/u.go:8 error", "u/u_windows.go:8 error", "u/u.go:10 none consistent"} {
		if !strings.Contains(cold, want) {
			t.Fatalf("cold run lacks %q:\n%s", want, cold)
		}
	}
	cache := t.TempDir()
	if got := run(cache, head); got != cold {
		t.Errorf("first run differs from cold:\n%s\nwant:\n%s", got, cold)
	}
	if got := run(cache, head); got != cold {
		t.Errorf("warm run differs from cold:\n%s\nwant:\n%s", got, cold)
	}
	entries, _ := filepath.Glob(filepath.Join(cache, "types", "v2", "*"))
	corrupted := 0
	for _, e := range entries {
		data, err := os.ReadFile(e)
		if err != nil || len(data) < 64 || filepath.Base(e) == "trimmed" || strings.HasPrefix(filepath.Base(e), "heads") {
			continue
		}
		data[len(data)/2] ^= 0x55
		if corrupted%2 == 1 {
			data = data[:len(data)*3/4]
		}
		if err := os.WriteFile(e, data, 0o644); err != nil {
			t.Fatal(err)
		}
		corrupted++
	}
	if corrupted < 3 {
		t.Fatalf("only %d cache entries to corrupt in %s", corrupted, cache)
	}
	if got := run(cache, head); got != cold {
		t.Errorf("run over %d corrupt entries differs from cold:\n%s\nwant:\n%s", corrupted, got, cold)
	}
	// the entries of b and c for the first head are there; c changed
	cold2 := run(t.TempDir(), head2)
	if strings.Contains(cold2, "u/u.go:8 error") || strings.Contains(cold2, "u/u_windows.go:8 error") {
		t.Fatalf("after c changed, the calls through b are still errors:\n%s", cold2)
	}
	if got := run(cache, head2); got != cold2 {
		t.Errorf("warm run after c changed differs from cold:\n%s\nwant:\n%s", got, cold2)
	}
}
