package javac

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
)

// discoverMaven reads the root pom and its modules, recursively, then
// resolves each module's dependencies (the repository's own modules
// first known, so that a dependency on one is a Deps entry, not a jar).
func (p *Project) discoverMaven(r *Resolver) error {
	models := map[*Module]*model{}
	inRepo := map[string]*Module{}
	var visit func(rel string, depth int) error
	visit = func(rel string, depth int) error {
		path := filepath.Join(p.Dir, filepath.FromSlash(rel), "pom.xml")
		md, err := loadModel(path, r)
		if err != nil {
			return err
		}
		m := &Module{Name: filepath.ToSlash(filepath.Clean(rel)), Build: "maven", Coord: md.pom.group() + ":" + strings.TrimSpace(md.pom.ArtifactID), Notes: md.notes}
		cc := md.compiler()
		m.Release, m.Source, m.TestRelease, m.TestSource, m.Encoding = cc.Release, cc.Source, cc.TestRelease, cc.TestSource, cc.Encoding
		m.Excludes, m.TestExcludes = cc.Excludes, cc.TestExcludes
		main, test := md.expand(md.pom.Build.SourceDirectory), md.expand(md.pom.Build.TestSourceDirectory)
		if main == "" {
			main = "src/main/java"
		}
		if test == "" {
			test = "src/test/java"
		}
		// templating-maven-plugin's folder: Java sources with ${...}
		// placeholders in literals, which compile as they are
		for _, root := range []string{main, "src/main/java-templates", test} {
			if filepath.IsAbs(root) {
				rr, err := filepath.Rel(p.Dir, root)
				if err != nil || strings.HasPrefix(rr, "..") {
					continue
				}
				root = rr
			} else {
				root = filepath.Join(rel, root)
			}
			if p.addRoot(m, root) && root == filepath.Join(rel, test) {
				m.Tests = append(m.Tests, filepath.ToSlash(filepath.Clean(root)))
			}
		}
		p.Modules = append(p.Modules, m)
		models[m] = md
		inRepo[m.Coord] = m
		for _, sub := range md.pom.Modules {
			subRel := filepath.ToSlash(filepath.Join(rel, sub))
			if strings.HasSuffix(subRel, ".xml") {
				subRel = filepath.ToSlash(filepath.Dir(subRel))
			}
			if !exists(filepath.Join(p.Dir, filepath.FromSlash(subRel), "pom.xml")) {
				m.Notes = append(m.Notes, fmt.Sprintf("module %s has no pom.xml", subRel))
				continue
			}
			if depth > 20 {
				return fmt.Errorf("javac: Maven modules nest deeper than 20 levels at %s", subRel)
			}
			if err := visit(subRel, depth+1); err != nil {
				return err
			}
		}
		return nil
	}
	if err := visit(".", 0); err != nil {
		return err
	}
	for m, md := range models {
		r.resolveMaven(m, md, inRepo)
		m.Classpath = appendNew(m.Classpath, localJars(filepath.Join(p.Dir, filepath.FromSlash(m.Name)))...)
	}
	return nil
}

var (
	includeRE  = regexp.MustCompile(`(?m)^\s*include\b(.*)$`)
	quotedRE   = regexp.MustCompile(`['"]([^'"]+)['"]`)
	projDepRE  = regexp.MustCompile(`project\s*\(\s*(?:path\s*[:=]\s*)?['"]([^'"]+)['"]`)
	gradleDep  = regexp.MustCompile(`(?m)^\s*(api|implementation|compileOnly|compileOnlyApi|compile|testImplementation|testCompileOnly|testCompile|runtimeOnly|testRuntimeOnly)\b[\s(]*['"]([^'":\s]+):([^'":\s]+):([^'"@\s]+)['"]`)
	catalogRef = regexp.MustCompile(`(?m)^\s*(?:api|implementation|compileOnly|testImplementation)\b[\s(]*libs\.`)
)

// discoverGradle reads settings.gradle(.kts)'s included projects (the
// root project always) and each project's build file: its source sets
// (src/*/java), the projects it depends on and the group:name:version
// dependencies it declares, found in the local caches.
func (p *Project) discoverGradle(r *Resolver) {
	dirs := []string{"."}
	for _, s := range []string{"settings.gradle", "settings.gradle.kts"} {
		b, err := os.ReadFile(filepath.Join(p.Dir, s))
		if err != nil {
			continue
		}
		for _, inc := range includeRE.FindAllStringSubmatch(string(b), -1) {
			for _, q := range quotedRE.FindAllStringSubmatch(inc[1], -1) {
				dirs = append(dirs, gradleDir(q[1]))
			}
		}
	}
	for _, d := range dirs {
		m := &Module{Name: d, Build: "gradle", Encoding: "UTF-8"}
		srcs, _ := filepath.Glob(filepath.Join(p.Dir, filepath.FromSlash(d), "src", "*", "java"))
		sort.Slice(srcs, func(i, j int) bool { return gradleRank(srcs[i]) < gradleRank(srcs[j]) })
		for _, s := range srcs {
			rel, _ := filepath.Rel(p.Dir, s)
			if p.addRoot(m, rel) && filepath.Base(filepath.Dir(s)) != "main" {
				m.Tests = append(m.Tests, filepath.ToSlash(rel))
			}
		}
		p.gradleDeps(m, r)
		m.Classpath = appendNew(m.Classpath, localJars(filepath.Join(p.Dir, filepath.FromSlash(d)))...)
		p.Modules = append(p.Modules, m)
	}
}

// gradleDir is the folder of a Gradle project path (":a:b" is a/b).
func gradleDir(path string) string {
	d := strings.ReplaceAll(strings.TrimPrefix(path, ":"), ":", "/")
	if d == "" {
		return "."
	}
	return d
}

// gradleRank puts the main source set first, then test, then the rest.
func gradleRank(p string) string {
	switch filepath.Base(filepath.Dir(p)) {
	case "main":
		return "0"
	case "test":
		return "1"
	}
	return "2" + p
}

// gradleDeps reads a project's build file for its dependencies.
func (p *Project) gradleDeps(m *Module, r *Resolver) {
	var src string
	for _, f := range []string{"build.gradle", "build.gradle.kts"} {
		if b, err := os.ReadFile(filepath.Join(p.Dir, filepath.FromSlash(m.Name), f)); err == nil {
			src += string(b) + "\n"
		}
	}
	for _, pd := range projDepRE.FindAllStringSubmatch(src, -1) {
		if d := gradleDir(pd[1]); d != m.Name {
			m.Deps = append(m.Deps, d)
		}
	}
	for _, g := range gradleDep.FindAllStringSubmatch(src, -1) {
		d := pomDep{GroupID: g[2], ArtifactID: g[3], Version: g[4]}
		if strings.Contains(d.Version, "$") {
			m.Missing = append(m.Missing, Missing{Coord: d.GroupID + ":" + d.ArtifactID, Module: m.Name, Why: "its version is a Gradle variable (" + d.Version + ")"})
			continue
		}
		if jar := r.file(d.GroupID, d.ArtifactID, d.Version, "", "jar"); jar != "" {
			m.Classpath = append(m.Classpath, jar)
		} else {
			m.Missing = append(m.Missing, Missing{Coord: coord(d), Module: m.Name, Why: r.where()})
		}
	}
	if catalogRef.MatchString(src) {
		m.Notes = append(m.Notes, "dependencies from a version catalog (libs.*) are not resolved")
	}
}
