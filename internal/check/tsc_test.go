package check_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"

	"github.com/ripple-dev/ripple/internal/check"
	"github.com/ripple-dev/ripple/internal/config"
	"github.com/ripple-dev/ripple/internal/gitio"
	"github.com/ripple-dev/ripple/internal/langtest"
	"github.com/ripple-dev/ripple/internal/model"
	"github.com/ripple-dev/ripple/internal/testrepo"
)

// TestTSCMissing: with neither TypeScript 7 nor npm to install it, the
// syntactic tier judges every site and the check says once why types
// were not checked; in auto, tsc is never installed (a pre-push check
// does not reach the network unasked) and the note says how to get it.
func TestTSCMissing(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the user cache is moved through XDG_CACHE_HOME, read on Linux only")
	}
	gitBin, err := exec.LookPath("git")
	if err != nil {
		t.Skip("git not installed")
	}
	ar, err := txtar.ParseFile("../lang/typescript/testdata/scenarios/ts_param_retyped_syntax.txtar")
	if err != nil {
		t.Fatal(err)
	}
	sc := testrepo.FromTxtar(t, ar)
	// a PATH with git and nothing else, an empty user cache
	bin := t.TempDir()
	if err := os.Symlink(gitBin, filepath.Join(bin, "git")); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", bin)
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	for _, tc := range []struct{ precision, note string }{
		{"types", "typescript: types not checked, the syntax judged every site: tsc (TypeScript 7) is not installed and npm is not available to install it"},
		{"auto", "typescript: types not checked, the syntax judged every site: tsc (TypeScript 7) is not installed: `precision: types` installs it"},
	} {
		cfg := config.Default()
		cfg.Precision = config.Precision(tc.precision)
		ctx := context.Background()
		repo, err := gitio.Open(ctx, sc.Dir)
		if err != nil {
			t.Fatal(err)
		}
		res, err := check.Run(ctx, repo, check.Options{Base: sc.Base, Head: sc.Head, Config: cfg})
		repo.Close()
		if err != nil {
			t.Fatalf("%s: %v", tc.precision, err)
		}
		n := 0
		for _, note := range res.PrecisionNotes {
			if strings.HasPrefix(note, tc.note) {
				n++
			}
		}
		if n != 1 {
			t.Errorf("%s: %d notes %q, want one: %q", tc.precision, n, tc.note, res.PrecisionNotes)
		}
		warnings := 0
		for _, f := range res.Findings {
			if f.Precision == model.PrecisionTypes {
				t.Errorf("%s: a finding with types: %+v", tc.precision, f)
			}
			if f.Level == model.LevelWarning {
				warnings++
			}
		}
		if warnings != 3 {
			t.Errorf("%s: %d warnings, want the syntax tier's 3", tc.precision, warnings)
		}
	}
}

// TestTSCHeadNotCheckedOut: when the head state is not the work tree's
// (another commit is checked out), tsc checks the head state written
// out from git, and settles the sites as it does in the work tree.
func TestTSCHeadNotCheckedOut(t *testing.T) {
	langtest.NeedTools(t, "needs: tsc")
	ar, err := txtar.ParseFile("../lang/typescript/testdata/scenarios/ts_tsc_param_retyped.txtar")
	if err != nil {
		t.Fatal(err)
	}
	sc := testrepo.FromTxtar(t, ar)
	testrepo.Git(t, sc.Dir, "checkout", "-q", "--detach", sc.Base)
	res := langtest.Check(t, sc)
	got := map[int]string{}
	for _, f := range res.Findings {
		if f.Site.Path == "src/use.ts" {
			got[f.Site.Line] = f.Verdict.String() + " " + string(f.Precision)
		}
	}
	want := map[int]string{4: "inconsistent types", 8: "consistent types", 12: "inconsistent syntax", 16: "consistent types"}
	for line, w := range want {
		if got[line] != w {
			t.Errorf("src/use.ts:%d: %q, want %q (all: %v)", line, got[line], w, got)
		}
	}
}
