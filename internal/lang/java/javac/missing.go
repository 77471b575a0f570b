package javac

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/ripple-dev/ripple/internal/oracle"
)

// The errors a missing jar causes. javac reports a dependency it has no
// jar for as the code's error: "package org.foo does not exist" at the
// import, "cannot find symbol: class Bar" where Bar is used, and, when a
// class extends one of the jar's, "cannot find symbol" for every member
// it inherits (in its file and in its subclasses' files). Those are not
// the change's doing and prove nothing either way: classify sets them
// apart, with what javac could not find, so that the oracle calls the
// proof incomplete instead of the state broken.
//
// Only a unit whose build's dependencies are not all present is
// classified: when every jar is there, javac had what the build has and
// each error is the code's.

var (
	noPackageRE = regexp.MustCompile(`^package ([\w.]+) does not exist`)
	symClassRE  = regexp.MustCompile(`; symbol: class (\w+)`)
	locPkgRE    = regexp.MustCompile(`; location: package ([\w.]+)`)
	cantAccess  = regexp.MustCompile(`^cannot access [\w.$]+; class file for ([\w.$]+) not found`)
	moduleRE    = regexp.MustCompile(`^module not found: ([\w.]+)`)
	importRE    = regexp.MustCompile(`(?m)^\s*import\s+(?:static\s+)?([\w.]+?)(\.\*)?\s*;`)
	// cascadeRE are the errors an unknown type causes around it: a member
	// that may be inherited from it, an @Override of its method, a lambda
	// for its interface, an overload chosen by an argument of its type, an
	// exception thrown in a lambda given to its method (flow analysis
	// cannot know the lambda's interface, and calls it throw-free: gson's
	// tests, `assertThrows(..., () -> reader.next())` without JUnit's jar)
	cascadeRE = regexp.MustCompile(`^(cannot find symbol|method does not override or implement a method from a supertype|incompatible types: \w+ is not a functional interface|reference to \w+ is ambiguous|unreported exception )`)
	superRE   = regexp.MustCompile(`\b(?:extends|implements)\s+([\w.<>,\s]+?)\s*[{]`)
)

// fileInfo is what classification reads of a file that has errors.
type fileInfo struct {
	imports map[string]string // simple name -> its package, of single-type imports
	supers  []string          // the simple names it extends or implements
	lines   []string
}

func readInfo(dir, rel string) fileInfo {
	fi := fileInfo{imports: map[string]string{}}
	b, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(rel)))
	if err != nil {
		return fi
	}
	src := string(b)
	fi.lines = strings.Split(src, "\n")
	for _, m := range importRE.FindAllStringSubmatch(src, -1) {
		if m[2] == "" {
			if i := strings.LastIndex(m[1], "."); i > 0 {
				fi.imports[m[1][i+1:]] = m[1][:i]
			}
		}
	}
	for _, m := range superRE.FindAllStringSubmatch(src, -1) {
		for _, n := range strings.FieldsFunc(m[1], func(r rune) bool { return r == ',' || r == ' ' || r == '\n' || r == '\t' || r == '<' || r == '>' }) {
			if n != "implements" && n != "extends" {
				fi.supers = append(fi.supers, n[strings.LastIndex(n, ".")+1:])
			}
		}
	}
	return fi
}

// external reports a package the repository's sources do not declare.
func (p *Project) external(pkg string) bool { return !p.packages[pkg] }

// classify returns, for each diagnostic, what javac could not find that a
// missing jar would give it ("" for an error of the code's own).
func (p *Project) classify(ds []oracle.Diagnostic) []string {
	why := make([]string, len(ds))
	infos := map[string]fileInfo{}
	info := func(f string) fileInfo {
		if fi, ok := infos[f]; ok {
			return fi
		}
		fi := readInfo(p.Dir, f)
		infos[f] = fi
		return fi
	}
	incomplete := map[string]bool{} // files javac could not fully read
	for i, d := range ds {
		why[i] = p.direct(d, info)
		if why[i] != "" && d.Path != "" {
			incomplete[d.Path] = true
		}
	}
	// the errors around an unknown type (cascadeRE) in a file that misses
	// a dependency, or in a file whose class extends a class of such a
	// file, may be the unknown type's: as unknown as it
	for changed := true; changed; {
		changed = false
		tainted := map[string]bool{}
		for f := range incomplete {
			tainted[strings.TrimSuffix(filepath.Base(f), ".java")] = true
		}
		for i, d := range ds {
			if why[i] != "" || d.Path == "" || !cascadeRE.MatchString(d.Message) {
				continue
			}
			if incomplete[d.Path] {
				why[i] = "a member or override that may be a class's javac could not find"
				continue
			}
			for _, s := range info(d.Path).supers {
				if tainted[s] {
					why[i] = "a member that may be inherited through " + s + ", which extends a class javac could not find"
					incomplete[d.Path], changed = true, true
					break
				}
			}
		}
	}
	return why
}

// direct is what a diagnostic says javac could not find itself: a
// package, a class of one, a class file, a module.
func (p *Project) direct(d oracle.Diagnostic, info func(string) fileInfo) string {
	msg := d.Message
	if m := noPackageRE.FindStringSubmatch(msg); m != nil && p.external(m[1]) {
		return "package " + m[1]
	}
	if m := cantAccess.FindStringSubmatch(msg); m != nil {
		return "class " + m[1]
	}
	if m := moduleRE.FindStringSubmatch(msg); m != nil {
		return "module " + m[1]
	}
	if strings.HasPrefix(msg, "static import only from classes and interfaces") {
		return p.staticImport(d, info)
	}
	if !strings.HasPrefix(msg, "cannot find symbol") {
		return ""
	}
	cls := symClassRE.FindStringSubmatch(msg)
	if cls == nil {
		return ""
	}
	if loc := locPkgRE.FindStringSubmatch(msg); loc != nil {
		if p.external(loc[1]) {
			return "class " + loc[1] + "." + cls[1]
		}
		return ""
	}
	if d.Path == "" {
		return ""
	}
	if pkg, ok := info(d.Path).imports[cls[1]]; ok && p.external(pkg) {
		return "class " + pkg + "." + cls[1]
	}
	return ""
}

var staticImportRE = regexp.MustCompile(`^\s*import\s+static\s+([\w.]+)\.(?:\w+|\*)\s*;`)

// staticImport: javac says "static import only from classes and
// interfaces" of a static import whose class it cannot find at all.
func (p *Project) staticImport(d oracle.Diagnostic, info func(string) fileInfo) string {
	lines := info(d.Path).lines
	if d.Line < 1 || d.Line > len(lines) {
		return ""
	}
	m := staticImportRE.FindStringSubmatch(lines[d.Line-1])
	if m == nil {
		return ""
	}
	cls := m[1]
	i := strings.LastIndex(cls, ".")
	if i < 0 || !p.external(cls[:i]) {
		return ""
	}
	return "class " + cls
}
