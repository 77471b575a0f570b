package javac

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"time"

	"github.com/ripple-dev/ripple/internal/oracle"
)

// Check is the Java oracle: javac on every module that holds one of the
// change's Java files (Options.Files; every module when Files is nil)
// and on the modules that depend on those, each module's sources at
// once with -sourcepath over its roots and its dependency modules'
// roots, against the jars its build's dependencies resolve to here.
// Errors a missing jar causes are not the state's (Result.Unanalysed
// says which jars and files, and a pass then proves nothing of them);
// every other error counts. Classes go to a scratch folder removed
// after: the work tree is never written.
func (c *Compiler) Check(ctx context.Context, dir string, o oracle.Options) (*oracle.Result, error) {
	start := time.Now()
	var files []string
	if o.Files != nil {
		files, _ = oracle.FilesWith(o.Files, ".java")
		if len(files) == 0 {
			return &oracle.Result{Pass: true}, nil // no Java in this change
		}
	}
	if _, err := c.Locate(ctx); err != nil {
		return nil, err
	}
	p, err := Discover(dir, &c.Resolver)
	if err != nil {
		return nil, err
	}
	res := &oracle.Result{}
	var acc missingAcc
	compiled := map[string]bool{}
	for _, m := range p.affected(files, o.Files == nil) {
		for _, u := range p.moduleUnits(m) {
			for _, f := range u.files {
				compiled[f] = true
			}
			r, err := c.compile(ctx, p.Dir, u)
			if err != nil {
				return nil, fmt.Errorf("javac on %s: %w", m.Name, err)
			}
			res.Ran = append(res.Ran, r.cmd)
			real, _ := acc.add(p, m, r)
			res.Diagnostics = append(res.Diagnostics, oracle.Dedupe(res.Diagnostics, real)...)
		}
	}
	oracle.AddSources(p.Dir, res.Diagnostics)
	res.Pass = len(res.Diagnostics) == 0
	res.Unanalysed = joinNotes(acc.String(), notCompiled(p.Dir, files, compiled))
	res.Took = time.Since(start)
	return res, nil
}

// notCompiled says which of the change's Java files (that exist) no
// javac compiled: under no source root (a build output folder, a hidden
// one), excluded by the compiler plugin, or a module-info.java; a pass
// proves nothing of them.
func notCompiled(dir string, files []string, compiled map[string]bool) string {
	var left []string
	for _, f := range files {
		if f = filepath.ToSlash(filepath.Clean(f)); !compiled[f] && fileExists(dir, f) {
			left = append(left, f)
		}
	}
	if len(left) == 0 {
		return ""
	}
	return fmt.Sprintf("javac compiled %d of the change's Java files: not %s (under no source root, excluded by the build, or a module descriptor)",
		len(files)-len(left), list(left, 5))
}

func joinNotes(a, b string) string {
	switch {
	case a == "":
		return b
	case b == "":
		return a
	}
	return a + "; " + b
}

// affected lists the modules to compile for the changed files: those
// whose roots hold one (or, for a deleted file, whose roots it was
// under) and every module that depends on one of them, in dependency
// order; all modules when all is set.
func (p *Project) affected(files []string, all bool) []*Module {
	hit := map[string]bool{}
	for _, f := range files {
		if m, _ := p.Module(f); m != nil {
			hit[m.Name] = true
		}
	}
	var out []*Module
	for _, m := range p.Modules { // dependency order: a dependent after its dependencies
		if !all && !hit[m.Name] {
			for _, d := range m.Deps {
				if hit[d] {
					hit[m.Name] = true
				}
			}
		}
		if all || hit[m.Name] {
			out = append(out, m)
		}
	}
	return out
}

// moduleUnits are the javac invocations that compile a module: its
// main sources, then its tests; none for a module without sources.
func (p *Project) moduleUnits(m *Module) []unit {
	var out []unit
	for _, test := range []bool{false, true} {
		u := p.unitFor(m, test)
		excl := m.Excludes
		if test {
			excl = m.TestExcludes
		}
		for _, r := range m.Roots {
			if m.isTest(r) == test {
				u.files = append(u.files, javaFiles(p.Dir, r, excl)...)
			}
		}
		if len(u.files) > 0 {
			out = append(out, u)
		}
	}
	return out
}

// isTest reports a test root of the module.
func (m *Module) isTest(root string) bool {
	for _, t := range m.Tests {
		if t == root {
			return true
		}
	}
	return false
}

// unitFor is the javac settings of a module's main sources or of its
// tests: on the source path the module's roots (the tests' first, then
// the main ones), then its dependency modules' main roots (and, for the
// tests, their test roots last, for a test-jar dependency); on the
// classpath its jars and theirs.
func (p *Project) unitFor(m *Module, test bool) unit {
	u := unit{release: m.Release, source: m.Source, encoding: m.Encoding}
	if test {
		u.release, u.source = m.TestRelease, m.TestSource
		u.sourcepath = append(u.sourcepath, m.Tests...)
	}
	deps := p.closure(m)
	for _, mm := range append([]*Module{m}, deps...) {
		for _, r := range mm.Roots {
			if !mm.isTest(r) {
				u.sourcepath = append(u.sourcepath, r)
			}
		}
	}
	if test {
		for _, dm := range deps {
			u.sourcepath = append(u.sourcepath, dm.Tests...)
		}
	}
	seenJar := map[string]bool{}
	for _, mm := range append([]*Module{m}, deps...) {
		for _, j := range mm.Classpath {
			if !seenJar[j] {
				seenJar[j] = true
				u.classpath = append(u.classpath, j)
			}
		}
	}
	return u
}

// closure is the repository's modules m depends on, transitively.
func (p *Project) closure(m *Module) []*Module {
	var out []*Module
	seen := map[string]bool{m.Name: true}
	queue := append([]string{}, m.Deps...)
	for len(queue) > 0 {
		n := queue[0]
		queue = queue[1:]
		if seen[n] {
			continue
		}
		seen[n] = true
		if dm := p.byName(n); dm != nil {
			out = append(out, dm)
			queue = append(queue, dm.Deps...)
		}
	}
	return out
}

// missingOf is what m and the modules it depends on have no jar for.
func (p *Project) missingOf(m *Module) ([]Missing, []string) {
	miss := append([]Missing{}, m.Missing...)
	notes := append([]string{}, m.Notes...)
	for _, dm := range p.closure(m) {
		miss = append(miss, dm.Missing...)
		notes = append(notes, dm.Notes...)
	}
	return miss, notes
}

// complete reports a module whose build's dependencies are all here:
// javac then had what the build has.
func (p *Project) complete(m *Module) bool {
	miss, notes := p.missingOf(m)
	return m.Build != "plain" && len(miss) == 0 && len(notes) == 0
}

// javaFiles lists a root's Java files, repository-relative and sorted;
// module-info.java is left out (the module graph's jars are not here),
// and so are hidden folders and what the exclusion patterns match.
func javaFiles(dir, root string, excludes []string) []string {
	var excl []*regexp.Regexp
	for _, e := range excludes {
		excl = append(excl, antGlob(e))
	}
	var out []string
	full := filepath.Join(dir, filepath.FromSlash(root))
	_ = filepath.WalkDir(full, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if d.IsDir() {
			if path != full && strings.HasPrefix(d.Name(), ".") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(d.Name(), ".java") || d.Name() == "module-info.java" {
			return nil
		}
		inRoot, _ := filepath.Rel(full, path)
		for _, re := range excl {
			if re.MatchString(filepath.ToSlash(inRoot)) {
				return nil
			}
		}
		if rel, err := filepath.Rel(dir, path); err == nil {
			out = append(out, filepath.ToSlash(rel))
		}
		return nil
	})
	sort.Strings(out)
	return out
}

// exists for files given by the caller that the state may have deleted.
func fileExists(dir, rel string) bool {
	st, err := os.Stat(filepath.Join(dir, filepath.FromSlash(rel)))
	return err == nil && !st.IsDir()
}

// antGlob is an Ant pattern ("**/Java17*", "com/x/*.java") as a regular
// expression over a slash-separated path relative to a source root.
func antGlob(pat string) *regexp.Regexp {
	pat = strings.TrimPrefix(filepath.ToSlash(strings.TrimSpace(pat)), "/")
	if strings.HasSuffix(pat, "/") {
		pat += "**"
	}
	var b strings.Builder
	b.WriteString("^")
	for i := 0; i < len(pat); i++ {
		switch {
		case strings.HasPrefix(pat[i:], "**/"):
			b.WriteString("(?:.*/)?")
			i += 2
		case strings.HasPrefix(pat[i:], "**"):
			b.WriteString(".*")
			i++
		case pat[i] == '*':
			b.WriteString("[^/]*")
		case pat[i] == '?':
			b.WriteString("[^/]")
		default:
			b.WriteString(regexp.QuoteMeta(pat[i : i+1]))
		}
	}
	b.WriteString("$")
	return regexp.MustCompile(b.String())
}
