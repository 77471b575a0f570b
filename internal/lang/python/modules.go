package python

import (
	"path"
	"sort"
	"strings"
)

// modules maps Python module names to the files of one state of the
// repository. There is no configuration to read: roots are found from
// the layout. A file's root is the first directory above it that is not a
// regular package (has no __init__.py): src/flask/cli.py has root src and
// module name flask.cli; tests/test_cli.py (tests without __init__.py) has
// root tests and name test_cli. Several top-level packages and src/
// layouts come out of this rule; the repository's top is always a root
// too, so namespace packages (PEP 420) resolve from there.
//
// A root's own folders may be namespace packages of a root above it
// (src/acme/core/api.py with no src/acme/__init__.py is acme.core.api
// from src): the folders above every root are roots too, tried after the
// roots files sit in, unless they are regular packages themselves (a
// package's folder is never on the import path: pkg/_vendor/six.py, in a
// _vendor without __init__.py, does not import pkg/warnings.py as
// warnings). A name the repository declares as a third-party
// dependency (pyproject.toml, setup.cfg, requirements*.txt) or a
// standard-library module never resolves to a namespace folder
// (tests/fixtures/requests/ is not the requests package) nor, from
// another root, to a loose module at the top of a root (a fixture
// project's build.py is not the build package).
type modules struct {
	files map[string]bool // every .py and .pyi file
	dirs  map[string]bool // every directory holding one, with its ancestors
	roots []string        // import roots, most populated first, then the folders above them; "" is the top
	root  map[string]string
	// deps are the top-level names of declared third-party dependencies
	deps map[string]bool
	// depRoots are the roots of the bumped distributions' new versions
	// (bumpvirtual.go): what resolves there is the dependency itself
	depRoots map[string]bool
}

func newModules(paths []string) *modules {
	m := &modules{files: map[string]bool{}, dirs: map[string]bool{}, root: map[string]string{}}
	for _, p := range paths {
		if strings.HasSuffix(p, ".py") || strings.HasSuffix(p, ".pyi") {
			m.files[p] = true
			for d := dirOf(p); d != ""; d = dirOf(d) {
				if m.dirs[d] {
					break
				}
				m.dirs[d] = true
			}
		}
	}
	count := map[string]int{"": 0}
	for p := range m.files {
		r := m.rootOf(p)
		count[r]++
	}
	for r := range count {
		m.roots = append(m.roots, r)
	}
	sort.Slice(m.roots, func(i, j int) bool {
		a, b := m.roots[i], m.roots[j]
		if (a == "") != (b == "") {
			return b == "" // the top last: it is the fallback
		}
		if count[a] != count[b] {
			return count[a] > count[b]
		}
		return a < b
	})
	// the folders above the roots, deepest first, before the top
	have := map[string]bool{}
	for _, r := range m.roots {
		have[r] = true
	}
	var above []string
	for _, r := range m.roots {
		for d := dirOf(r); d != ""; d = dirOf(d) {
			if m.isPackage(d) {
				continue // a regular package's folder is never on the import path
			}
			if !have[d] {
				have[d] = true
				above = append(above, d)
			}
		}
	}
	sort.Slice(above, func(i, j int) bool {
		di, dj := strings.Count(above[i], "/"), strings.Count(above[j], "/")
		if di != dj {
			return di > dj
		}
		return above[i] < above[j]
	})
	top := m.roots[len(m.roots)-1]
	m.roots = append(append(m.roots[:len(m.roots)-1:len(m.roots)-1], above...), top)
	return m
}

func dirOf(p string) string {
	d := path.Dir(p)
	if d == "." || d == "/" {
		return ""
	}
	return d
}

func join(dir, name string) string {
	if dir == "" {
		return name
	}
	return dir + "/" + name
}

// isPackage reports whether dir is a regular package.
func (m *modules) isPackage(dir string) bool {
	return m.files[join(dir, "__init__.py")] || m.files[join(dir, "__init__.pyi")]
}

// rootOf returns the import root of a file.
func (m *modules) rootOf(p string) string {
	if r, ok := m.root[p]; ok {
		return r
	}
	d := dirOf(p)
	for d != "" && m.isPackage(d) {
		d = dirOf(d)
	}
	m.root[p] = d
	return d
}

// moduleName is the dotted name of a file ("flask.cli", "flask" for
// src/flask/__init__.py).
func (m *modules) moduleName(p string) string {
	r := m.rootOf(p)
	rel := p
	if r != "" {
		rel = strings.TrimPrefix(p, r+"/")
	}
	rel = strings.TrimSuffix(strings.TrimSuffix(rel, ".pyi"), ".py")
	rel = strings.TrimSuffix(rel, "/__init__")
	if rel == "__init__" {
		return path.Base(r)
	}
	return strings.ReplaceAll(rel, "/", ".")
}

// moduleFile returns the file of the module at dir/rel (rel a slash
// path), or the directory with a trailing slash for a namespace package,
// or "".
func (m *modules) moduleFile(dir, rel string) string {
	base := join(dir, rel)
	if rel == "" {
		base = dir
	}
	for _, c := range []string{join(base, "__init__.py"), base + ".py", join(base, "__init__.pyi"), base + ".pyi"} {
		if rel == "" && !strings.HasSuffix(c, "__init__.py") && !strings.HasSuffix(c, "__init__.pyi") {
			continue
		}
		if m.files[c] {
			return c
		}
	}
	if base != "" && m.dirs[base] {
		return base + "/"
	}
	return ""
}

// resolveAbs finds the file of an absolute module name imported from
// file from: the importer's own root first, then the others.
func (m *modules) resolveAbs(dotted, from string) string {
	rel := strings.ReplaceAll(dotted, ".", "/")
	own := m.rootOf(from)
	if f := m.moduleFile(own, rel); f != "" && !strings.HasSuffix(f, "/") {
		return f
	}
	ns := ""
	for _, r := range m.roots {
		if f := m.moduleFile(r, rel); f != "" {
			if strings.HasSuffix(f, "/") {
				if ns == "" {
					ns = f
				}
				continue
			}
			if m.depRoots[r] {
				return f // a bumped distribution: the dependency itself
			}
			if m.external(dotted) && (m.throughNamespace(r, rel) || r != own && !m.isPackage(join(r, topName(dotted)))) {
				// a declared dependency or a standard-library module is
				// not a folder that shares its name, nor a loose module
				// of another root (a fixture project's build.py is not
				// the build package, a package's own warnings.py is not
				// the warnings its vendored modules import)
				continue
			}
			return f
		}
	}
	if m.external(dotted) {
		return "" // a declared dependency or the standard library, not a folder that happens to share its name
	}
	return ns
}

// external reports an absolute module name that names code outside the
// repository unless the repository provides it as a package: a declared
// third-party dependency, or a module of the standard library
// (stdmodules.go).
func (m *modules) external(dotted string) bool {
	top := topName(dotted)
	return m.deps[top] || stdModules[top]
}

func topName(dotted string) string {
	top, _, _ := strings.Cut(dotted, ".")
	return top
}

// throughNamespace reports whether the module rel under root r is
// reached through a folder that is not a regular package.
func (m *modules) throughNamespace(r, rel string) bool {
	d := r
	parts := strings.Split(rel, "/")
	for _, p := range parts[:len(parts)-1] {
		d = join(d, p)
		if !m.isPackage(d) {
			return true
		}
	}
	return false
}

// resolveRel finds the file of a relative import (.x, ..x.y, .) from
// file from.
func (m *modules) resolveRel(spec, from string) string {
	dots := len(spec) - len(strings.TrimLeft(spec, "."))
	rest := spec[dots:]
	dir := dirOf(from)
	for i := 1; i < dots; i++ {
		dir = dirOf(dir)
	}
	return m.moduleFile(dir, strings.ReplaceAll(rest, ".", "/"))
}

// resolve resolves a module as written in an import statement.
func (m *modules) resolve(spec, from string) string {
	if strings.HasPrefix(spec, ".") {
		return m.resolveRel(spec, from)
	}
	return m.resolveAbs(spec, from)
}

// submodule returns the file of a package's submodule name, or "". pkg
// is the package's __init__.py, or its directory with a trailing slash.
func (m *modules) submodule(pkg, name string) string {
	var dir string
	switch {
	case strings.HasSuffix(pkg, "/"):
		dir = strings.TrimSuffix(pkg, "/")
	case path.Base(pkg) == "__init__.py" || path.Base(pkg) == "__init__.pyi":
		dir = dirOf(pkg)
	default:
		return ""
	}
	return m.moduleFile(dir, name)
}
