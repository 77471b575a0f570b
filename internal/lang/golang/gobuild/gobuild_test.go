package gobuild

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ripple-dev/ripple/internal/oracle/oracletest"

	"github.com/ripple-dev/ripple/internal/oracle"
	"github.com/ripple-dev/ripple/internal/testrepo"
)

// TestParseGolden parses captured output of the real go build, go vet
// and go test.
func TestParseGolden(t *testing.T) {
	oracletest.Golden(t, "testdata/*.out", func(name string, data []byte) ([]oracle.Diagnostic, error) {
		if tool, _, _ := strings.Cut(name, "_"); tool != "test" {
			return Parse(string(data), tool, "/tmp/orc"), nil
		}
		return ParseTest(string(data), "/tmp/orc"), nil
	})
}

// TestGoOracle runs the real oracle on a broken module and on the fixed
// one, and checks that it leaves the tree exactly as it found it.
func TestGoOracle(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("go not installed")
	}
	testrepo.Hermetic(t)
	dir := t.TempDir()
	testrepo.Init(t, dir)
	testrepo.WriteFiles(t, dir, map[string]string{
		"go.mod":       "module example.com/m\n\ngo 1.22\n",
		"p/p.go":       "package p\n\nfunc Sum(a, b, c int) int { return a + b + c }\n",
		"q/q.go":       "package q\n\nimport \"example.com/m/p\"\n\nfunc Use() int { return p.Sum(1, 2) }\n",
		"cmd/app/m.go": "package main\n\nimport \"example.com/m/q\"\n\nfunc main() { println(q.Use()) }\n",
	})
	testrepo.CommitAll(t, dir, "broken")
	o := &Oracle{Env: []string{"GOFLAGS=-mod=mod", "GOPROXY=off"}}
	res, err := o.Check(context.Background(), dir, oracle.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if res.Pass {
		t.Fatal("broken module passed the oracle")
	}
	found := false
	for _, d := range res.Diagnostics {
		if d.Path == "q/q.go" && d.Line == 5 && strings.Contains(d.Message, "not enough arguments") && d.Tool == "build" {
			found = true
		}
	}
	if !found {
		t.Errorf("no build diagnostic at q/q.go:5: %v", res.Diagnostics)
	}
	if st := testrepo.Git(t, dir, "status", "--porcelain", "--ignored"); st != "" {
		t.Errorf("the oracle changed the tree:\n%s", st)
	}

	testrepo.WriteFiles(t, dir, map[string]string{"q/q.go": "package q\n\nimport \"example.com/m/p\"\n\nfunc Use() int { return p.Sum(1, 2, 3) }\n"})
	testrepo.CommitAll(t, dir, "fixed")
	res, err = o.Check(context.Background(), dir, oracle.Options{Tests: true})
	if err != nil {
		t.Fatal(err)
	}
	if !res.Pass {
		t.Errorf("fixed module failed: %v", res.Diagnostics)
	}
	if st := testrepo.Git(t, dir, "status", "--porcelain", "--ignored"); st != "" {
		t.Errorf("the oracle changed the tree (a binary written into it?):\n%s", st)
	}
}

// TestOracleTimeout: a deadline that has passed is an error naming the
// tool, not a verdict.
func TestOracleTimeout(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("go not installed")
	}
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module m\n"), 0o644)
	ctx, cancel := context.WithTimeout(context.Background(), 1)
	defer cancel()
	_, err := (&Oracle{}).Check(ctx, dir, oracle.Options{})
	if err == nil || !strings.Contains(err.Error(), "out of time") {
		t.Errorf("got %v, want an out-of-time error", err)
	}
}

// TestOracleCacheAcrossWorktrees: the fix engine judges each state in a
// scratch worktree at a new path; a second worktree of the same state is
// served from the build cache (-trimpath: the cache keys a package by its
// directory otherwise), so the cache does not grow.
func TestOracleCacheAcrossWorktrees(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("go not installed")
	}
	files := map[string]string{"go.mod": "module example.com/m\n\ngo 1.22\n"}
	for i := range 6 {
		files[fmt.Sprintf("p%d/p.go", i)] = fmt.Sprintf("package p%d\n\n// F is %d.\nfunc F() int { return %d }\n", i, i, i)
	}
	cache := t.TempDir()
	o := &Oracle{Env: []string{"GOCACHE=" + cache, "GOPROXY=off"}}
	grown := make([]int, 2)
	for i := range grown {
		dir := t.TempDir()
		testrepo.WriteFiles(t, dir, files)
		before := countFiles(t, cache)
		res, err := o.Check(context.Background(), dir, oracle.Options{})
		if err != nil || !res.Pass {
			t.Fatalf("worktree %d: %+v %v", i, res, err)
		}
		grown[i] = countFiles(t, cache) - before
	}
	// the first run also fills the cache with the standard library; the
	// second adds a few files for each package it compiles again
	if grown[1] >= 6 {
		t.Errorf("the build cache grew by %d files for the first worktree and %d for the second: its 6 packages were built again", grown[0], grown[1])
	}
}

// TestVetReplayAcrossWorktrees: go vet's output is cached, and under
// -trimpath a copy of a package in another tree replays the first tree's
// output, naming its files (the base state's preexisting problem then
// named a removed scratch worktree, and was counted as new). Each tree's
// diagnostic names its own file.
func TestVetReplayAcrossWorktrees(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("go not installed")
	}
	files := map[string]string{
		"go.mod":   "module example.com/m\n\ngo 1.22\n",
		"q/say.go": "package q\n\nimport \"fmt\"\n\nfunc Say() {\n\tfmt.Printf(\"%d\", \"x\")\n}\n",
	}
	o := &Oracle{Env: []string{"GOPROXY=off"}} // the process's build cache, shared as a user's is
	for i := range 2 {
		dir := t.TempDir()
		testrepo.WriteFiles(t, dir, files)
		res, err := o.Check(context.Background(), dir, oracle.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Diagnostics) != 1 || res.Diagnostics[0].Path != "q/say.go" || res.Diagnostics[0].Line != 6 || res.Diagnostics[0].Source == "" {
			t.Errorf("worktree %d: %+v, want vet's one problem in q/say.go:6", i, res.Diagnostics)
		}
	}
}

func countFiles(t *testing.T, dir string) int {
	n := 0
	filepath.WalkDir(dir, func(_ string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			n++
		}
		return nil
	})
	return n
}
