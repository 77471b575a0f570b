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
// import, "cannot find symbol: class Bar" (or "variable Bar", used as a
// qualifier) where Bar is used, and, around the unknown type, errors
// that may be its: members its subclasses inherit from it (in their
// files and in their subclasses'), a static import's members called
// unqualified, @Override of its methods, lambdas given to its methods,
// case labels of a switch over its enum. Those are not the change's
// doing and prove nothing either way: classify sets them apart, with
// what javac could not find, so that the oracle calls the proof
// incomplete instead of the state broken.
//
// What is set apart is kept narrow, so that a stale call is still the
// change's error in a file that also lacks a jar (every test, when
// JUnit's is not here): a member missing from a type javac knew whole
// (the JDK's, a present jar's, or the repository's, declared in a file
// whose type headers have no missing jar's error and whose supertypes
// are whole too) counts. On gson with no jar present, a renamed
// JsonElement method's 16 stale callers, in main and test sources of
// three modules, are all reported, and of the unchanged state's 7,448
// errors all are set apart but 6 (protoc-generated classes: generated
// sources are not compiled).
//
// Only a unit whose build's dependencies are not all present is
// classified: when every jar is there, javac had what the build has and
// each error is the code's.

var (
	noPackageRE = regexp.MustCompile(`^package ([\w.]+) does not exist`)
	symClassRE  = regexp.MustCompile(`; symbol: class (\w+)`)
	symVarRE    = regexp.MustCompile(`; symbol: variable (\w+)`)
	caseLabelRE = regexp.MustCompile(`^\s*case\s+\w+\s*(?::|->|,)`)
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
	typeDecl  = regexp.MustCompile(`\b(?:class|interface|enum|record)\s+\w+`)
)

// fileInfo is what classification reads of a file that has errors.
type fileInfo struct {
	imports map[string]string // simple name -> its package, of single-type imports
	supers  []string          // the simple names it extends or implements
	headers [][2]int          // the lines of its type declarations' headers (1-based, inclusive)
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
	fi.headers = headers(fi.lines)
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

// headers are the line spans of a file's type declarations, from the
// line that names the type to the line of its opening brace.
func headers(lines []string) [][2]int {
	var out [][2]int
	for i, l := range lines {
		if !typeDecl.MatchString(l) || strings.HasPrefix(strings.TrimSpace(l), "//") || strings.HasPrefix(strings.TrimSpace(l), "*") {
			continue
		}
		end := i
		for end < len(lines)-1 && end < i+20 && !strings.Contains(lines[end], "{") {
			end++
		}
		out = append(out, [2]int{i + 1, end + 1})
	}
	return out
}

// classifier holds what one run's errors say a missing jar took away.
type classifier struct {
	p     *Project
	infos map[string]fileInfo
	// lacking are the files with an error a missing jar causes directly
	// (an import, a use of its class); static, those where it is a static
	// import (whose members the file may call unqualified)
	lacking, static map[string]bool
	// headerLines are the lines of those errors, by file
	errLines map[string]map[int]bool
	whole    map[string]bool // memo of wholeFile
}

func (c *classifier) info(f string) fileInfo {
	if fi, ok := c.infos[f]; ok {
		return fi
	}
	fi := readInfo(c.p.Dir, f)
	c.infos[f] = fi
	return fi
}

// classify returns, for each diagnostic, what javac could not find that a
// missing jar would give it ("" for an error of the code's own).
func (p *Project) classify(ds []oracle.Diagnostic) []string {
	c := &classifier{p: p, infos: map[string]fileInfo{}, lacking: map[string]bool{}, static: map[string]bool{},
		errLines: map[string]map[int]bool{}, whole: map[string]bool{}}
	why := make([]string, len(ds))
	for i, d := range ds {
		why[i] = p.direct(d, c.info)
		if why[i] == "" || d.Path == "" {
			continue
		}
		c.lacking[d.Path] = true
		if c.errLines[d.Path] == nil {
			c.errLines[d.Path] = map[int]bool{}
		}
		c.errLines[d.Path][d.Line] = true
		if lines := c.info(d.Path).lines; d.Line >= 1 && d.Line <= len(lines) && strings.HasPrefix(strings.TrimSpace(lines[d.Line-1]), "import static") {
			c.static[d.Path] = true
		}
	}
	for i, d := range ds {
		if why[i] == "" && d.Path != "" && cascadeRE.MatchString(d.Message) {
			why[i] = c.cascade(d)
		}
	}
	return why
}

// cascade is what an error around an unknown type may be the unknown
// type's, "" when javac knew all that the error is about.
func (c *classifier) cascade(d oracle.Diagnostic) string {
	const member = "a member or override that may be a class's javac could not find"
	if !strings.HasPrefix(d.Message, "cannot find symbol") {
		if c.lacking[d.Path] || !c.wholeFile(d.Path, 0) {
			return member
		}
		return ""
	}
	if symClassRE.MatchString(d.Message) {
		// a class javac cannot find: a missing wildcard import's, or a
		// member type of an unknown supertype
		if c.lacking[d.Path] && c.wildcardLacking(d.Path) || !c.wholeFile(d.Path, 0) {
			return member
		}
		return ""
	}
	if c.lacking[d.Path] && c.caseLabel(d) {
		// an enum constant of a switch over a type javac could not find
		return "a case label of a switch over a class javac could not find"
	}
	segs := locationType(d.Message)
	if segs == nil {
		// no location ("symbol: variable x" of this.x): the file's class
		return c.own(d.Path)
	}
	for _, s := range segs {
		if declares(c.info(d.Path).lines, s) {
			return c.own(d.Path)
		}
	}
	for _, s := range segs {
		if _, ok := c.p.types[s]; ok {
			if !c.wholeType(s, 0) {
				return "a member that may be inherited through " + s + ", which extends a class javac could not find"
			}
			return ""
		}
	}
	return "" // a member missing from a type of the JDK's or a present jar's
}

// caseLabel reports an error at a switch's case label.
func (c *classifier) caseLabel(d oracle.Diagnostic) bool {
	lines := c.info(d.Path).lines
	return d.Line >= 1 && d.Line <= len(lines) && caseLabelRE.MatchString(lines[d.Line-1])
}

// own is what a member looked up in the file's own type may be: an
// unqualified call a missing static import's, an inherited member a
// supertype's that javac could not read whole; "" when neither.
func (c *classifier) own(f string) string {
	if c.static[f] {
		return "a member a static import of a class javac could not find may give"
	}
	if c.wholeFile(f, 0) {
		return ""
	}
	fi := c.info(f)
	for _, s := range fi.supers {
		if !declares(fi.lines, s) && !c.wholeType(s, 0) {
			return "a member that may be inherited through " + s + ", which extends a class javac could not find"
		}
	}
	return "a member that may be inherited from a class javac could not find"
}

// wildcardLacking reports a file whose missing packages include one it
// imports with a wildcard.
func (c *classifier) wildcardLacking(f string) bool {
	for _, l := range c.info(f).lines {
		t := strings.TrimSpace(l)
		if strings.HasPrefix(t, "import ") && strings.HasSuffix(strings.TrimSuffix(t, ";"), ".*") {
			pkg := strings.TrimSuffix(strings.TrimSuffix(strings.TrimPrefix(strings.TrimPrefix(t, "import "), "static "), ";"), ".*")
			if c.p.external(strings.TrimSpace(pkg)) {
				return true
			}
		}
	}
	return false
}

// locationType is the dotted parts of the type a "cannot find symbol"
// looked the member up in ("location: class Outer.Inner", "location:
// variable v of type T"), nil when the message names none.
func locationType(msg string) []string {
	m := locTypeRE.FindStringSubmatch(msg)
	if m == nil {
		m = locVarRE.FindStringSubmatch(msg)
	}
	if m == nil {
		return nil
	}
	return strings.FieldsFunc(m[1], func(r rune) bool { return r == '.' || r == '$' })
}

// wholeFile reports a file whose types' headers have no missing jar's
// error and whose supertypes are whole: javac knew every member its
// types inherit.
func (c *classifier) wholeFile(f string, depth int) bool {
	if w, ok := c.whole[f]; ok {
		return w
	}
	if depth > 10 {
		return false
	}
	c.whole[f] = false // a cycle is not whole
	fi := c.info(f)
	ok := true
	for _, h := range fi.headers {
		for l := h[0]; l <= h[1]; l++ {
			ok = ok && !c.errLines[f][l]
		}
	}
	for _, s := range fi.supers {
		if ok && !declares(fi.lines, s) {
			ok = c.wholeType(s, depth+1)
		}
	}
	c.whole[f] = ok
	return ok
}

// wholeType reports a type javac knew whole: not the repository's (the
// JDK's or a present jar's), or declared in one file that is whole.
func (c *classifier) wholeType(name string, depth int) bool {
	files, ok := c.p.types[name]
	switch {
	case !ok:
		return true
	case len(files) != 1:
		return false
	}
	return c.wholeFile(files[0], depth)
}

var (
	locTypeRE = regexp.MustCompile(`; location: (?:class|interface|enum|record) ([\w.$]+)`)
	locVarRE  = regexp.MustCompile(`; location: variable \w+ of type ([\w.$]+)`)
)

// declares reports a file that declares a type of that name.
func declares(lines []string, name string) bool {
	re := regexp.MustCompile(`\b(?:class|interface|enum|record)\s+` + regexp.QuoteMeta(name) + `\b`)
	for _, l := range lines {
		if re.MatchString(l) {
			return true
		}
	}
	return false
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
		// a class used as a qualifier (Assert.fail()) is looked up as a
		// variable first
		cls = symVarRE.FindStringSubmatch(msg)
		if cls == nil || d.Path == "" {
			return ""
		}
		if pkg, ok := info(d.Path).imports[cls[1]]; ok && p.external(pkg) {
			return "class " + pkg + "." + cls[1]
		}
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
