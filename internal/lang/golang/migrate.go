package golang

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"sort"
	"strings"

	"github.com/ripple-dev/ripple/internal/lang"
	"github.com/ripple-dev/ripple/internal/model"
)

// Migrate applies the //go:fix inline directives of the bumped modules
// (lang.Migrator): `go fix -inline` on the packages of each manifest's
// module that import a bumped module, in dir. The go command's inline
// analyzer inlines every call of a function (and use of a constant or
// alias) marked //go:fix inline in the packages it is given, so a
// directive of another dependency those packages use is applied too;
// each inlining is equivalent code by construction, and the fix
// engine's oracle proves the result like any edit.
func (fe *Frontend) Migrate(ctx context.Context, dir string, bumps []*model.Bump) (lang.Migration, error) {
	mg := lang.Migration{How: "the //go:fix inline directives of the new versions (go fix -inline)"}
	byMod := map[string][]string{} // module directory -> bumped module paths
	for _, b := range bumps {
		if path.Base(b.Manifest) != "go.mod" {
			continue
		}
		d := path.Dir(b.Manifest)
		mod := b.Module
		if b.NewModule != "" {
			mod = b.NewModule
		}
		byMod[d] = append(byMod[d], mod)
	}
	before, err := dirty(ctx, dir)
	if err != nil {
		return mg, err
	}
	for d, mods := range byMod {
		pkgs, err := importingPackages(ctx, filepath.Join(dir, filepath.FromSlash(d)), mods)
		if err != nil {
			return mg, err
		}
		if len(pkgs) == 0 {
			continue
		}
		cmd := exec.CommandContext(ctx, "go", append([]string{"fix", "-inline"}, pkgs...)...)
		cmd.Dir = filepath.Join(dir, filepath.FromSlash(d))
		cmd.Env = goCommandEnv()
		if out, err := cmd.CombinedOutput(); err != nil && ctx.Err() == nil {
			// a package that does not type-check is left as it was; the
			// others are fixed: say it, do not fail the plan
			mg.Files = changedSince(ctx, dir, before)
			return mg, fmt.Errorf("go fix -inline in %s: %s", displayDir(d), firstLine(string(out)))
		}
	}
	mg.Files = changedSince(ctx, dir, before)
	return mg, nil
}

func displayDir(d string) string {
	if d == "." || d == "" {
		return "the repository root"
	}
	return d
}

// goCommandEnv is the environment of a go command run on the user's
// behalf: it may update go.sum (a bump's commit may lack entries of the
// new version's dependencies), never switch toolchains nor use a
// workspace the repository does not have.
func goCommandEnv() []string {
	return append(os.Environ(), "GOFLAGS=-mod=mod", "GOTOOLCHAIN=local")
}

// importingPackages lists the packages (import paths) of the module in modDir
// whose files import a package of one of mods.
func importingPackages(ctx context.Context, modDir string, mods []string) ([]string, error) {
	cmd := exec.CommandContext(ctx, "go", "list", "-e", "-f", "{{.ImportPath}} {{join .Imports \" \"}} {{join .TestImports \" \"}} {{join .XTestImports \" \"}}", "./...")
	cmd.Dir = modDir
	cmd.Env = goCommandEnv()
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("go list: %s", firstLine(stderr.String()+" "+err.Error()))
	}
	var pkgs []string
	for _, l := range strings.Split(string(out), "\n") {
		f := strings.Fields(l)
		if len(f) < 2 {
			continue
		}
		for _, ip := range f[1:] {
			if importsAny(ip, mods) {
				pkgs = append(pkgs, f[0])
				break
			}
		}
	}
	return pkgs, nil
}

func importsAny(ip string, mods []string) bool {
	for _, m := range mods {
		if ip == m || strings.HasPrefix(ip, m+"/") {
			return true
		}
	}
	return false
}

// dirty lists the files git reports changed in the work tree dir.
func dirty(ctx context.Context, dir string) (map[string]bool, error) {
	cmd := exec.CommandContext(ctx, "git", "diff", "--name-only", "-z")
	cmd.Dir = dir
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("git diff in the scratch work tree: %w", err)
	}
	m := map[string]bool{}
	for _, p := range strings.Split(string(out), "\x00") {
		if p != "" {
			m[p] = true
		}
	}
	return m, nil
}

// changedSince lists the Go files changed in dir that were not before.
func changedSince(ctx context.Context, dir string, before map[string]bool) []string {
	now, err := dirty(ctx, dir)
	if err != nil {
		return nil
	}
	var out []string
	for p := range now {
		if !before[p] && strings.HasSuffix(p, ".go") {
			out = append(out, p)
		}
	}
	sort.Strings(out)
	return out
}

var _ lang.Migrator = (*Frontend)(nil)
