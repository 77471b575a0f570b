package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/ripple-dev/ripple/internal/lang"
	"github.com/ripple-dev/ripple/internal/languages"
	"github.com/ripple-dev/ripple/internal/oracle"
)

// judge decides whether a state of a case passes its oracle.
//
// Go (unless -judge engine): `go build ./... && go vet ./...` on the
// whole state, as fixbench always judged Go.
//
// Otherwise the rule of the fix engine's own oracle (internal/fix,
// oracleRelative): the front-ends' oracles (lang.Provable: pyright for
// Python, tsc for TypeScript, go build+vet for Go) judge the files the
// state changed from the base; when they fail, the base is judged on
// those of the files it has, and only diagnostics the base did not
// already have count (oracle.Relative).
type judge struct {
	fes       lang.Set
	dir, base string
	full      string // the real commit
	lang      string
	baseline  map[string]*oracle.Result // by file set
}

func newJudge(fes lang.Set, dir, base, full, lang string) *judge {
	return &judge{fes: fes, dir: dir, base: base, full: full, lang: lang, baseline: map[string]*oracle.Result{}}
}

// passes checks out rev (plus a patch) in a scratch worktree and judges
// it.
func (j *judge) passes(ctx context.Context, rev, patch string) bool {
	wt, done, ok := j.worktree(rev, patch)
	if !ok {
		return false
	}
	defer done()
	if j.lang == "go" && *flagJudge != "engine" {
		pkgs := []string{"./..."}
		if !*flagVetAll {
			pkgs = touched(j.dir, j.base, j.full)
		}
		return goBuildVet(wt, pkgs)
	}
	out, err := exec.Command("git", "-C", wt, "diff", "--name-only", j.base).Output()
	if err != nil {
		return false
	}
	var files []string
	for _, f := range strings.Fields(string(out)) {
		if j.fes.For(f) != nil {
			files = append(files, f)
		}
	}
	or := languages.Oracle(j.fes, nil)
	res, err := or.Check(ctx, wt, oracle.Options{Files: files})
	if err != nil {
		return false
	}
	if res.Pass {
		return true
	}
	key := strings.Join(files, "\x00")
	base, ok := j.baseline[key]
	if !ok {
		base = j.baseResult(ctx, or, files)
		j.baseline[key] = base
	}
	if base == nil {
		return false
	}
	rel := oracle.Relative(base, res)
	if !rel.Pass && *flagVerbose {
		for i, d := range rel.Diagnostics {
			if i == 5 {
				fmt.Fprintf(os.Stderr, "    ... %d more\n", len(rel.Diagnostics)-i)
				break
			}
			fmt.Fprintf(os.Stderr, "    %s: %s\n", rev[:10], d)
		}
	}
	return rel.Pass
}

// baseResult judges the base on the files it has; nil when it cannot be
// judged.
func (j *judge) baseResult(ctx context.Context, or oracle.Oracle, files []string) *oracle.Result {
	wt, done, ok := j.worktree(j.base, "")
	if !ok {
		return nil
	}
	defer done()
	var there []string
	for _, f := range files {
		if _, err := os.Stat(filepath.Join(wt, filepath.FromSlash(f))); err == nil {
			there = append(there, f)
		}
	}
	if len(there) == 0 {
		return &oracle.Result{Pass: true}
	}
	res, err := or.Check(ctx, wt, oracle.Options{Files: there})
	if err != nil {
		return nil
	}
	return res
}

// worktree checks out rev and applies patch in a scratch worktree of the
// case repository; done removes it.
func (j *judge) worktree(rev, patch string) (string, func(), bool) {
	wt, err := os.MkdirTemp("", "fixbench-wt-")
	if err != nil {
		return "", nil, false
	}
	done := func() {
		git(j.dir, "worktree", "remove", "--force", wt)
		os.RemoveAll(wt)
	}
	os.Remove(wt)
	if err := git(j.dir, "worktree", "add", "--detach", "-q", wt, rev); err != nil {
		done()
		return "", nil, false
	}
	if patch != "" {
		// into the index too: the files the patch adds are then among
		// those `git diff --name-only base` lists
		cmd := exec.Command("git", "apply", "--index", "-")
		cmd.Dir = wt
		cmd.Stdin = strings.NewReader(patch)
		if cmd.Run() != nil {
			done()
			return "", nil, false
		}
	}
	return wt, done, true
}

// goBuildVet runs go build and go vet in a checkout.
func goBuildVet(wt string, pkgs []string) bool {
	bin, _ := os.MkdirTemp("", "fixbench-bin-")
	defer os.RemoveAll(bin)
	build := exec.Command("go", "build", "-o", bin+"/", "./...")
	build.Dir = wt
	if out, err := build.CombinedOutput(); err != nil && !strings.Contains(string(out), "no main packages") {
		return false
	}
	vet := exec.Command("go", append([]string{"vet"}, pkgs...)...)
	vet.Dir = wt
	return vet.Run() == nil
}

// touched lists the package directories the real commit changed.
func touched(dir, base, full string) []string {
	out, err := exec.Command("git", "-C", dir, "diff", "--name-only", base, full, "--", "*.go").Output()
	if err != nil {
		return []string{"./..."}
	}
	seen := map[string]bool{}
	var pkgs []string
	for _, f := range strings.Fields(string(out)) {
		d := "./" + filepath.Dir(f)
		if !seen[d] {
			seen[d] = true
			pkgs = append(pkgs, d)
		}
	}
	return pkgs
}
