package java

import (
	"bytes"
	"fmt"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/ripple-dev/ripple/internal/lang/java/javac"
	"github.com/ripple-dev/ripple/internal/lang/treesit"
	"github.com/ripple-dev/ripple/internal/model"
	"github.com/ripple-dev/ripple/internal/oracle"
)

// How javac's answer settles a site (the evidence rule of this tier):
//
//   - an error of javac within the site's reach (its statement; the
//     header of a declaration or of a compound statement) that concerns
//     the change (concerns) makes the site inconsistent, with precision
//     types and javac's message;
//   - a site in a file javac compiled without any error and without
//     anything missing (javac.FileVerdict.Consistent) is consistent, with
//     precision types: javac resolved every type the file names;
//   - otherwise the syntactic verdict stands and the site says what the
//     check was without (Ref.Missing): a jar javac did not have, a
//     compile of the file without errors of other causes.

// javacStart and javacPerFile estimate the type tier's cost for auto:
// one javac start (the JVM with the class-data archive of javac's own
// classes, cds.go, and javac's own warm-up: 1.8 CPU s for a one-site
// check of gson, javac's doc.go and the commit that added the archive)
// and the sources javac compiles or reads through -sourcepath, about a
// block of neighbours per site file (bench_test.go's generated module).
const (
	javacStart   = 2 * time.Second
	javacPerFile = 40 * time.Millisecond
)

// javacCost is the expected time of the type tier's javac on files site
// and changed files: an estimate, made before anything runs.
func javacCost(files int) time.Duration {
	return javacStart + time.Duration(files)*javacPerFile
}

// settle judges one site with javac's verdicts.
func (a *analyzer) settle(s *jsite, res *javac.Sites) {
	r := s.ref
	v := res.Files[r.Site.Path]
	if v == nil || !v.Compiled {
		r.Missing = "a javac compile of " + r.Site.Path + " (no source root of the build holds it)"
		return
	}
	lo, hi := reach(s.n)
	var hits, others []oracle.Diagnostic
	for _, d := range v.Errors {
		off := offsetOf(s.f.t.Src, d.Line, d.Col)
		if off < lo || off >= hi {
			if d.Line >= 1 {
				others = append(others, d)
			}
			continue
		}
		if concerns(d, s.t) {
			hits = append(hits, d)
		} else {
			others = append(others, d)
		}
	}
	switch {
	case len(hits) > 0:
		var msgs []string
		for i, d := range hits {
			if i == 2 {
				msgs = append(msgs, fmt.Sprintf("and %d more", len(hits)-2))
				break
			}
			msgs = append(msgs, "javac: "+clip(d.Message, 240))
		}
		r.Verdict, r.Precision, r.Message, r.Missing = model.Inconsistent, model.PrecisionTypes, strings.Join(msgs, "; "), ""
		s.applied = len(hits) == 1 && notApplicable(hits[0], s.t)
	case v.Consistent() && silenceProves(r.Relation):
		r.Verdict, r.Precision = model.Consistent, model.PrecisionTypes
		r.Message = "javac compiles this file without error (" + r.Message + ")"
		r.Missing = ""
	case len(v.Unresolved) > 0:
		r.Missing = "complete types: javac did not have " + someOf(v.Unresolved, 3) + missingJars(res)
	case len(others) > 0:
		r.Missing = fmt.Sprintf("a javac compile of the file without errors of other causes (javac: %s, line %d)", clip(others[0].Message, 160), others[0].Line)
	case v.Consistent():
		r.Missing = "a proof of the override (javac accepts a method that stopped overriding as an overload)"
	}
}

// silenceProves reports a relation whose breakage javac always reports:
// a call, an instantiation, a use, an import or an implementation that
// no longer fits does not compile. An override that no longer matches
// its base (without @Override) compiles as an overload, so javac's
// silence on OverriddenBy and Overrides is no proof.
func silenceProves(rel model.Relation) bool {
	return rel != model.OverriddenBy && rel != model.Overrides
}

// notApplicable reports javac's error that a call of the changed method
// or constructor of the changed class cannot be applied to its arguments:
// the call binds to the changed declaration, and its argument list may
// be rebuilt mechanically (fixes.go).
func notApplicable(d oracle.Diagnostic, t *target) bool {
	if t.cls == nil || t.od == nil || t.od.meth == nil {
		return false
	}
	what := "method " + t.name + " in class " + t.cls.name
	if t.od.meth.ctor {
		what = "constructor " + t.cls.name + " in class " + t.cls.name
	}
	return strings.HasPrefix(d.Message, what+" cannot be applied to given types")
}

// missingJars names the dependencies without a jar here, for a site
// whose file lacked something.
func missingJars(res *javac.Sites) string {
	if len(res.Missing) == 0 {
		return ""
	}
	var coords []string
	for _, m := range res.Missing {
		coords = append(coords, m.Coord)
	}
	return " (no jar of " + someOf(coords, 3) + ")"
}

// concerns reports a javac error that is about the change: one naming
// the changed member, its new name or its type as a word (a call that
// "cannot be applied", a symbol not found, an access), or one about the
// values at a site of a member whose types changed (incompatible types,
// an exception no longer caught).
func concerns(d oracle.Diagnostic, t *target) bool {
	names := map[string]bool{t.name: true}
	if t.ch.New != nil {
		names[t.ch.New.Name] = true
	}
	for _, c := range []*jtype{t.cls, t.oldOwner} {
		if c != nil && c.name != "" {
			names[c.name] = true
		}
	}
	for _, w := range strings.FieldsFunc(d.Message, func(r rune) bool {
		return !(r == '_' || r == '$' || unicode.IsLetter(r) || unicode.IsDigit(r))
	}) {
		if names[w] {
			return true
		}
	}
	switch t.ch.Label {
	case model.MMS, model.MCC, model.MF:
		return strings.HasPrefix(d.Message, "incompatible types") || strings.HasPrefix(d.Message, "unreported exception")
	}
	return false
}

// reach is the byte range of a site's code javac's errors may stand in:
// the statement holding the reference; for a reference in the header of
// a declaration or a compound statement (a class's extends clause, a
// method's parameters, an if's condition), that header only.
func reach(n *treesit.Node) (lo, hi int) { return treesit.Reach(n, reachHeaders, reachStatements, nil) }

var (
	reachHeaders = treesit.KindSet("class_declaration", "interface_declaration", "enum_declaration", "record_declaration",
		"method_declaration", "constructor_declaration", "if_statement", "for_statement",
		"enhanced_for_statement", "while_statement", "do_statement", "switch_expression",
		"try_statement", "try_with_resources_statement", "synchronized_statement")
	reachStatements = treesit.KindSet("expression_statement", "local_variable_declaration", "return_statement", "throw_statement",
		"field_declaration", "constant_declaration", "explicit_constructor_invocation", "assert_statement",
		"yield_statement", "import_declaration", "enum_constant", "annotation_type_element_declaration")
)

// offsetOf turns javac's 1-based line and column (characters, from
// its caret) into a byte offset of src; -1 when outside it. A
// diagnostic without a column stands at its line's first byte.
func offsetOf(src []byte, line, col int) int {
	if line < 1 {
		return -1
	}
	off := 0
	for l := 1; l < line; l++ {
		i := bytes.IndexByte(src[off:], '\n')
		if i < 0 {
			return -1
		}
		off += i + 1
	}
	for c := 1; c < col && off < len(src) && src[off] != '\n'; c++ {
		_, size := utf8.DecodeRune(src[off:])
		off += size
	}
	return off
}

// clip shortens s to at most n bytes, at a rune boundary.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}
