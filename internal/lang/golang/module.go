package golang

import (
	"context"
	"path"
	"sort"
	"strings"

	"golang.org/x/mod/modfile"
	"golang.org/x/mod/module"

	"github.com/ripple-dev/ripple/internal/gitio"
)

// modules maps directories of the head state to import paths, from the
// go.mod files of the tree (several modules per repository are common;
// a vendor.mod where a directory has no go.mod).
type modules struct {
	roots []modRoot // longest dir first
	// requires of each module (for locating external sources in the
	// module cache), by module root dir
	requires map[string][]module.Version
	replaces map[string]map[string]module.Version
}

type modRoot struct {
	dir  string // "" for the repository root
	path string // module path
}

func loadModules(ctx context.Context, t gitio.Tree) (*modules, error) {
	files, err := t.List(ctx, "go.mod", "*/go.mod", "vendor.mod", "*/vendor.mod")
	if err != nil {
		return nil, err
	}
	// a vendor.mod stands for a go.mod its build scripts put beside it
	// (docker/cli and moby: module github.com/docker/cli, no go.mod in
	// the tree); a directory with a go.mod of its own keeps it
	hasGoMod := map[string]bool{}
	for _, f := range files {
		if path.Base(f) == "go.mod" {
			hasGoMod[path.Dir(f)] = true
		}
	}
	m := &modules{requires: map[string][]module.Version{}, replaces: map[string]map[string]module.Version{}}
	for _, f := range files {
		switch base := path.Base(f); {
		case base != "go.mod" && base != "vendor.mod",
			base == "vendor.mod" && hasGoMod[path.Dir(f)],
			strings.Contains("/"+f, "/vendor/") || strings.Contains("/"+f, "/testdata/"):
			continue
		}
		src, err := t.ReadFile(ctx, f)
		if err != nil {
			continue
		}
		dir := path.Dir(f)
		if dir == "." {
			dir = ""
		}
		mf, err := modfile.ParseLax(f, src, nil)
		if err != nil || mf.Module == nil {
			continue
		}
		m.roots = append(m.roots, modRoot{dir: dir, path: mf.Module.Mod.Path})
		for _, r := range mf.Require {
			m.requires[dir] = append(m.requires[dir], r.Mod)
		}
		for _, r := range mf.Replace {
			if m.replaces[dir] == nil {
				m.replaces[dir] = map[string]module.Version{}
			}
			m.replaces[dir][r.Old.Path] = r.New
		}
	}
	sort.Slice(m.roots, func(i, j int) bool { return len(m.roots[i].dir) > len(m.roots[j].dir) })
	return m, nil
}

// root returns the module containing dir, or nil.
func (m *modules) root(dir string) *modRoot {
	for i := range m.roots {
		r := &m.roots[i]
		if r.dir == "" || dir == r.dir || strings.HasPrefix(dir, r.dir+"/") {
			return r
		}
	}
	return nil
}

// importPath returns the import path of the package in dir ("" outside
// any module: the directory itself is used).
func (m *modules) importPath(dir string) string {
	if ip, ok := externalImportPath(dir); ok {
		return ip // a dependency's package read for a bump (bump.go)
	}
	if i := strings.LastIndex("/"+dir+"/", "/vendor/"); i >= 0 {
		rest := ("/" + dir + "/")[i+len("/vendor/"):]
		return strings.TrimSuffix(rest, "/")
	}
	r := m.root(dir)
	if r == nil {
		return dir
	}
	if dir == r.dir {
		return r.path
	}
	rel := dir
	if r.dir != "" {
		rel = strings.TrimPrefix(dir, r.dir+"/")
	}
	return r.path + "/" + rel
}

// inRepo reports whether an import path is of a module of the
// repository.
func (m *modules) inRepo(importPath string) bool {
	for _, r := range m.roots {
		if importPath == r.path || strings.HasPrefix(importPath, r.path+"/") {
			return true
		}
	}
	return false
}

// dirOf returns the repository directory of an import path, as seen from
// a package in fromDir (vendor directories first), and whether the path
// is inside the repository.
func (m *modules) dirOf(importPath, fromDir string, dirs map[string]bool) (string, bool) {
	// vendor directories, innermost first
	for d := fromDir; ; d = path.Dir(d) {
		if d == "." {
			d = ""
		}
		v := path.Join(d, "vendor", importPath)
		if dirs[v] {
			return v, true
		}
		if d == "" {
			break
		}
	}
	var best *modRoot
	for i := range m.roots {
		r := &m.roots[i]
		if importPath == r.path || strings.HasPrefix(importPath, r.path+"/") {
			if best == nil || len(r.path) > len(best.path) {
				best = r
			}
		}
	}
	if best == nil {
		return "", false
	}
	rel := strings.TrimPrefix(strings.TrimPrefix(importPath, best.path), "/")
	d := path.Join(best.dir, rel)
	if d == "." {
		d = ""
	}
	return d, dirs[d]
}

// defaultImportName guesses the name an import binds when the package's
// clause is unknown: the last path element without a major-version suffix
// or a gopkg.in ".vN", with the usual "go-" prefix and "-go" suffix
// removed.
func defaultImportName(p string) string {
	elems := strings.Split(p, "/")
	last := elems[len(elems)-1]
	if len(elems) > 1 && len(last) >= 2 && last[0] == 'v' && strings.Trim(last[1:], "0123456789") == "" && last != "v0" && last != "v1" {
		// a major-version suffix (v2 and up; modules v0 and v1 have
		// none): k8s.io/api/core/v1 is package v1
		last = elems[len(elems)-2]
	}
	if i := strings.Index(last, ".v"); i > 0 && strings.HasPrefix(p, "gopkg.in/") {
		last = last[:i]
	}
	last = strings.TrimPrefix(last, "go-")
	last = strings.TrimSuffix(last, "-go")
	last = strings.TrimSuffix(last, ".go")
	return strings.NewReplacer("-", "_", ".", "_").Replace(last)
}
