package javac

import (
	"bufio"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
)

// Project is what Discover found in a work tree: its modules, in
// dependency order (a module after the modules it depends on), and the
// packages its sources declare.
type Project struct {
	// Dir is the work tree, absolute.
	Dir     string
	Modules []*Module
	// packages are the packages the repository's sources declare (every
	// prefix of one too): a package javac cannot find that is not one of
	// them is a dependency's.
	packages map[string]bool
	// types are the files each top-level type name may be declared in
	// (the files named after it), repository-relative.
	types map[string][]string
}

// Module is one unit of compilation: a Maven module, a Gradle project,
// or the plain folders of Java files no build file claims.
type Module struct {
	// Name is the module's folder, repository-relative ("." for the
	// root); "(plain)" for the plain folders.
	Name string
	// Build is "maven", "gradle" or "plain".
	Build string
	// Coord is the Maven module's groupId:artifactId.
	Coord string
	// Roots are the source roots, repository-relative; Tests are those of
	// them that hold tests (compiled apart, at the test level, with the
	// main roots on the source path, as Maven's testCompile does).
	Roots, Tests []string
	// Deps are the names of the repository's modules this one depends on.
	Deps []string
	// Classpath holds the jars its dependencies resolved to, absolute.
	Classpath []string
	// Missing are its dependencies without a jar on this machine.
	Missing []Missing
	// Release and Source are the Java level the build asks for
	// (maven.compiler.release / source, and testRelease / testSource for
	// the tests), Encoding its source encoding.
	Release, Source, TestRelease, TestSource, Encoding string
	// Excludes and TestExcludes are the compiler plugin's exclusion
	// patterns (Ant globs, relative to a root).
	Excludes, TestExcludes []string
	// Notes say what discovery could not read (a parent pom that is not
	// present, a version catalog).
	Notes []string
}

// Missing is a dependency javac has no jar for.
type Missing struct {
	// Coord is group:artifact:version (group:artifact when no version
	// could be found).
	Coord string `json:"coord"`
	// Module is the module that declares it (or pulls it in).
	Module string `json:"module"`
	// Why says what was looked for.
	Why string `json:"why"`
}

func (m Missing) String() string { return m.Coord + " (" + m.Why + ")" }

// skipDir are folders that hold no sources of the repository.
var skipDir = map[string]bool{"target": true, "build": true, "out": true, "node_modules": true, "bin": true}

// Discover reads the build of the work tree dir: Maven (pom.xml and its
// modules), else Gradle (settings.gradle(.kts) and its included
// projects, or a single build.gradle(.kts)), and plain folders for the
// Java files no module's source roots hold. Resolver finds the jars.
func Discover(dir string, r *Resolver) (*Project, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	if st, err := os.Stat(abs); err != nil || !st.IsDir() {
		return nil, fmt.Errorf("javac: %s is not a directory", dir)
	}
	if r == nil {
		r = &Resolver{}
	}
	p := &Project{Dir: abs, packages: map[string]bool{}, types: map[string][]string{}}
	switch {
	case exists(filepath.Join(abs, "pom.xml")):
		if err := p.discoverMaven(r); err != nil {
			return nil, err
		}
	case exists(filepath.Join(abs, "settings.gradle")) || exists(filepath.Join(abs, "settings.gradle.kts")) ||
		exists(filepath.Join(abs, "build.gradle")) || exists(filepath.Join(abs, "build.gradle.kts")):
		p.discoverGradle(r)
	}
	p.discoverPlain(r)
	p.order()
	return p, nil
}

func exists(p string) bool { _, err := os.Stat(p); return err == nil }

// addRoot records a source root (repository-relative) of m when it is
// there, and the packages under it; it reports whether it added one.
func (p *Project) addRoot(m *Module, root string) bool {
	root = filepath.ToSlash(filepath.Clean(root))
	full := filepath.Join(p.Dir, filepath.FromSlash(root))
	if st, err := os.Stat(full); err != nil || !st.IsDir() {
		return false
	}
	for _, r := range m.Roots {
		if r == root {
			return false
		}
	}
	m.Roots = append(m.Roots, root)
	_ = filepath.WalkDir(full, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if !d.IsDir() {
			if name, ok := strings.CutSuffix(d.Name(), ".java"); ok {
				if rel, err := filepath.Rel(p.Dir, path); err == nil {
					p.types[name] = append(p.types[name], filepath.ToSlash(rel))
				}
			}
			return nil
		}
		if path != full && strings.HasPrefix(d.Name(), ".") {
			return filepath.SkipDir
		}
		if rel, err := filepath.Rel(full, path); err == nil && rel != "." {
			p.packages[strings.ReplaceAll(filepath.ToSlash(rel), "/", ".")] = true
		}
		return nil
	})
	return true
}

// Module returns the module whose source roots hold the file
// (repository-relative), and the root; nil when none does.
func (p *Project) Module(file string) (*Module, string) {
	file = filepath.ToSlash(filepath.Clean(file))
	var best *Module
	bestRoot := ""
	for _, m := range p.Modules {
		for _, r := range m.Roots {
			if (r == "." || strings.HasPrefix(file, r+"/")) && len(r) > len(bestRoot) {
				best, bestRoot = m, r
			}
		}
	}
	return best, bestRoot
}

// byName returns the module of that name.
func (p *Project) byName(name string) *Module {
	for _, m := range p.Modules {
		if m.Name == name {
			return m
		}
	}
	return nil
}

// order sorts the modules so that each comes after those it depends on
// (a cycle keeps discovery's order).
func (p *Project) order() {
	var out []*Module
	state := map[*Module]int{}
	var visit func(m *Module)
	visit = func(m *Module) {
		if state[m] != 0 {
			return
		}
		state[m] = 1
		for _, d := range m.Deps {
			if dm := p.byName(d); dm != nil {
				visit(dm)
			}
		}
		state[m] = 2
		out = append(out, m)
	}
	for _, m := range p.Modules {
		visit(m)
	}
	p.Modules = out
}

// discoverPlain makes a module of the Java files outside every module's
// source roots: each file's root is its folder minus the folders of its
// package declaration.
func (p *Project) discoverPlain(r *Resolver) {
	m := &Module{Name: "(plain)", Build: "plain", Encoding: "UTF-8"}
	_ = filepath.WalkDir(p.Dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if d.IsDir() {
			if path != p.Dir && (strings.HasPrefix(d.Name(), ".") || skipDir[d.Name()]) {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".java") || d.Name() == "module-info.java" || d.Name() == "package-info.java" {
			return nil
		}
		rel, _ := filepath.Rel(p.Dir, path)
		rel = filepath.ToSlash(rel)
		if owner, _ := p.Module(rel); owner != nil {
			return nil
		}
		if root, ok := plainRoot(path, rel); ok {
			p.addRoot(m, root)
		}
		return nil
	})
	if len(m.Roots) == 0 {
		return
	}
	sort.Strings(m.Roots)
	for _, lib := range []string{"lib", "libs"} {
		m.Classpath = append(m.Classpath, jarsIn(filepath.Join(p.Dir, lib))...)
	}
	p.Modules = append(p.Modules, m)
}

var packageRE = regexp.MustCompile(`^\s*package\s+([\w.]+)\s*;`)

// plainRoot is the source root of a Java file (repository-relative rel,
// at path): its folder minus its package's folders. A file whose folder
// does not end in its package's folders is its own folder's root.
func plainRoot(path, rel string) (string, bool) {
	f, err := os.Open(path)
	if err != nil {
		return "", false
	}
	defer f.Close()
	pkg := ""
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64*1024), 1024*1024)
	inComment := false
	for n := 0; sc.Scan() && n < 200; n++ {
		line := sc.Text()
		if inComment {
			i := strings.Index(line, "*/")
			if i < 0 {
				continue
			}
			line, inComment = line[i+2:], false
		}
		if i := strings.Index(line, "/*"); i >= 0 && !strings.Contains(line[i:], "*/") {
			line, inComment = line[:i], true
		}
		if m := packageRE.FindStringSubmatch(line); m != nil {
			pkg = m[1]
			break
		}
		if t := strings.TrimSpace(line); strings.HasPrefix(t, "import ") || strings.Contains(t, "class ") || strings.Contains(t, "interface ") {
			break
		}
	}
	dir := filepath.ToSlash(filepath.Dir(rel))
	if pkg == "" {
		return dir, true
	}
	pdir := strings.ReplaceAll(pkg, ".", "/")
	switch {
	case dir == pdir:
		return ".", true
	case strings.HasSuffix(dir, "/"+pdir):
		return strings.TrimSuffix(dir, "/"+pdir), true
	}
	return dir, true
}

// jarsIn lists the jars in a folder, absolute and sorted.
func jarsIn(dir string) []string {
	out, _ := filepath.Glob(filepath.Join(dir, "*.jar"))
	sort.Strings(out)
	return out
}
