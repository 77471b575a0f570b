package javac

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// Resolver finds the jars of a build's dependencies on this machine,
// without a network: the local Maven repository and Gradle's cache.
type Resolver struct {
	// M2 is the local Maven repository; "" is ~/.m2/repository.
	M2 string
	// GradleCache is Gradle's module cache; "" is
	// $GRADLE_USER_HOME/caches/modules-2/files-2.1 (~/.gradle by default).
	GradleCache string
}

func (r *Resolver) m2() string {
	if r.M2 != "" {
		return r.M2
	}
	if home, err := os.UserHomeDir(); err == nil {
		return filepath.Join(home, ".m2", "repository")
	}
	return ""
}

func (r *Resolver) gradle() string {
	if r.GradleCache != "" {
		return r.GradleCache
	}
	if g := os.Getenv("GRADLE_USER_HOME"); g != "" {
		return filepath.Join(g, "caches", "modules-2", "files-2.1")
	}
	if home, err := os.UserHomeDir(); err == nil {
		return filepath.Join(home, ".gradle", "caches", "modules-2", "files-2.1")
	}
	return ""
}

// file is an artifact's file (ext "jar" or "pom") in the local Maven
// repository or Gradle's cache, "" when neither has it.
func (r *Resolver) file(group, artifact, version, classifier, ext string) string {
	if group == "" || artifact == "" || version == "" || strings.Contains(group+artifact+version, "${") {
		return ""
	}
	name := artifact + "-" + version
	if classifier != "" {
		name += "-" + classifier
	}
	name += "." + ext
	if m2 := r.m2(); m2 != "" {
		p := filepath.Join(m2, filepath.FromSlash(strings.ReplaceAll(group, ".", "/")), artifact, version, name)
		if exists(p) {
			return p
		}
	}
	if g := r.gradle(); g != "" {
		// files-2.1/GROUP/ARTIFACT/VERSION/SHA1/NAME
		if ms, _ := filepath.Glob(filepath.Join(g, group, artifact, version, "*", name)); len(ms) > 0 {
			sort.Strings(ms)
			return ms[0]
		}
	}
	return ""
}

// where names the places a jar was looked for, for Missing.Why.
func (r *Resolver) where() string {
	return "no jar in " + r.m2() + " or " + r.gradle()
}

// maxDeps bounds the dependency graph a module's resolution walks.
const maxDeps = 2000

// walkItem is a dependency on the resolution's queue with the exclusions
// of the path that reached it.
type walkItem struct {
	dep  pomDep
	excl map[string]bool
}

// resolveMaven fills the module's classpath and missing jars from its
// pom's dependencies and theirs (nearest first, as Maven picks
// versions; optional and test or provided dependencies of dependencies
// are not followed). Dependencies on the repository's own modules become
// Deps.
func (r *Resolver) resolveMaven(m *Module, md *model, inRepo map[string]*Module) {
	var queue []walkItem
	for _, d := range md.pom.Dependencies {
		d = md.subst(d)
		if mg, ok := md.manage[key(d)]; ok {
			if d.Version == "" {
				d.Version = mg.Version
			}
			if d.Scope == "" {
				d.Scope = mg.Scope
			}
		}
		if other, ok := inRepo[key(d)]; ok && other != m {
			m.Deps = append(m.Deps, other.Name)
			continue
		}
		queue = append(queue, walkItem{dep: d, excl: exclusions(d, nil)})
	}
	seen := map[string]bool{}
	for len(queue) > 0 && len(seen) < maxDeps {
		it := queue[0]
		queue = queue[1:]
		d := it.dep
		if seen[key(d)] || d.Scope == "import" {
			continue
		}
		seen[key(d)] = true
		jar, why := r.jar(d)
		if jar != "" {
			m.Classpath = append(m.Classpath, jar)
		} else if d.Type != "pom" {
			m.Missing = append(m.Missing, Missing{Coord: coord(d), Module: m.Name, Why: why})
		}
		queue = append(queue, r.transitive(m, md, d, it.excl)...)
	}
}

// jar is the file a dependency resolves to, or why there is none.
func (r *Resolver) jar(d pomDep) (string, string) {
	if d.Scope == "system" {
		if d.SystemPath != "" && exists(d.SystemPath) {
			return d.SystemPath, ""
		}
		return "", "its systemPath " + d.SystemPath + " is not there"
	}
	if d.Version == "" || strings.Contains(d.Version, "${") {
		return "", "no version: neither the pom nor a dependencyManagement present here gives one"
	}
	if strings.HasPrefix(d.Version, "[") || strings.HasPrefix(d.Version, "(") {
		return "", "a version range, which needs the remote repository's metadata"
	}
	classifier := d.Classifier
	if d.Type == "test-jar" && classifier == "" {
		classifier = "tests"
	}
	if p := r.file(d.GroupID, d.ArtifactID, d.Version, classifier, "jar"); p != "" {
		return p, ""
	}
	return "", r.where()
}

// transitive lists the dependencies of d that the compile needs, from
// d's pom when it is present; root's dependencyManagement sets their
// versions first, as Maven's does.
func (r *Resolver) transitive(m *Module, root *model, d pomDep, excl map[string]bool) []walkItem {
	path := r.file(d.GroupID, d.ArtifactID, d.Version, "", "pom")
	if path == "" {
		return nil
	}
	dm, err := loadModel(path, r)
	if err != nil {
		m.Notes = append(m.Notes, fmt.Sprintf("the pom of %s is unreadable: %v", coord(d), err))
		return nil
	}
	var out []walkItem
	for _, t := range dm.pom.Dependencies {
		t = dm.subst(t)
		if t.Optional == "true" || t.Scope == "test" || t.Scope == "provided" || t.Scope == "system" || excl[key(t)] || excl[t.GroupID+":*"] {
			continue
		}
		if mg, ok := root.manage[key(t)]; ok && mg.Version != "" {
			t.Version = mg.Version
		} else if mg, ok := dm.manage[key(t)]; ok && t.Version == "" {
			t.Version = mg.Version
		}
		t.Scope = d.Scope
		out = append(out, walkItem{dep: t, excl: exclusions(t, excl)})
	}
	return out
}

func exclusions(d pomDep, parent map[string]bool) map[string]bool {
	if len(d.Exclusions) == 0 {
		return parent
	}
	out := map[string]bool{}
	for k := range parent {
		out[k] = true
	}
	for _, e := range d.Exclusions {
		g, a := strings.TrimSpace(e.GroupID), strings.TrimSpace(e.ArtifactID)
		if a == "*" {
			out[g+":*"] = true
		}
		out[g+":"+a] = true
	}
	return out
}

func coord(d pomDep) string {
	c := d.GroupID + ":" + d.ArtifactID
	if d.Version != "" {
		c += ":" + d.Version
	}
	return c
}

// localJars adds the jars a module keeps beside its sources
// (target/dependency, lib, libs).
func localJars(dir string) []string {
	var out []string
	for _, sub := range []string{filepath.Join("target", "dependency"), "lib", "libs"} {
		out = append(out, jarsIn(filepath.Join(dir, sub))...)
	}
	return out
}
