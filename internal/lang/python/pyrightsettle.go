package python

import (
	"bytes"
	"fmt"
	"regexp"
	"strings"
	"unicode/utf8"

	"github.com/ripple-dev/ripple/internal/lang/python/pyright"
	"github.com/ripple-dev/ripple/internal/lang/treesit"
	"github.com/ripple-dev/ripple/internal/model"
)

// How pyright's answer settles a site (the evidence rule of this tier):
//
//   - an error of pyright within the site's reach (its statement; the
//     header of a def, class or compound statement) that concerns the
//     change (concerns) makes the site inconsistent, with precision
//     types and pyright's message: an attribute the change deleted or
//     renamed read on the changed class (or a subclass, by name), a
//     module attribute or import of a deleted name of the changed
//     module, a call of the changed signature that does not bind, or an
//     argument of the changed function's parameter that no longer fits;
//   - a site is consistent, with precision types, only where pyright
//     analysed its file, resolved every import of the file, typed every
//     expression of the site's reach (no report of an unknown type
//     there: pyright.UnknownRules), reported nothing there, and the
//     syntax's doubt was which declaration the site binds to (a name
//     matched on an unknown receiver, a deleted member's use): pyright's
//     silence says nothing of a changed default, arguments landing on
//     other parameters of the same types, or an override;
//   - otherwise the syntactic verdict stands and the site says what
//     pyright lacked (Ref.Missing).
//
// An error pyright reports on `self` or `cls` names the class as
// "Base*" (any subclass): a member deleted from a base that subclasses
// define is no error by types either, and stays a warning.

// settle judges one site with pyright's verdict of its file.
func (a *analyzer) settle(s *pysite) {
	r := s.ref
	v := a.tier.judged[r.Site.Path]
	if v == nil {
		return
	}
	src := s.x.f.t.Src
	lo, hi := pyReach(s.x.n)
	var hits, others, unknown []pyright.Diag
	var unresolved []string
	for _, d := range v.diags {
		if d.Rule == "reportMissingImports" && d.Severity == "error" {
			if m := pyImportRE.FindStringSubmatch(d.Message); m != nil {
				unresolved = append(unresolved, m[1])
			}
		}
		off := pyOffset(src, d.Line, d.Col)
		if off < lo || off >= hi {
			continue
		}
		end := pyOffset(src, d.EndLine, d.EndCol)
		if end < off {
			end = off
		}
		switch {
		case isUnknownRule(d.Rule):
			unknown = append(unknown, d)
		case d.Severity != "error":
		case a.concerns(s, d, off, end):
			hits = append(hits, d)
		default:
			others = append(others, d)
		}
	}
	line := s.x.f.t.LineText(r.Site.Line)
	switch {
	case len(hits) > 0:
		var msgs []string
		for i, d := range hits {
			if i == 2 {
				msgs = append(msgs, fmt.Sprintf("and %d more", len(hits)-2))
				break
			}
			msgs = append(msgs, "pyright: "+clip(oneLine(d.Message), 240))
		}
		r.Verdict, r.Precision, r.Message, r.Missing = model.Inconsistent, model.PrecisionTypes, strings.Join(msgs, "; "), ""
	case !v.analysed:
		a.leave([]*pysite{s}, "pyright's analysis of "+r.Site.Path+" (it analysed fewer files than it was given)")
	case len(unresolved) > 0:
		a.leave([]*pysite{s}, "types: pyright could not resolve "+someOf(dedupe(unresolved), 3)+", which "+r.Site.Path+" imports")
	case len(unknown) > 0:
		a.leave([]*pysite{s}, "types: pyright could not type the site ("+clip(oneLine(unknown[0].Message), 120)+")")
	case len(others) > 0:
		a.leave([]*pysite{s}, fmt.Sprintf("a pyright analysis without errors of other causes (pyright: %s, line %d)", clip(oneLine(others[0].Message), 160), others[0].Line))
	case strings.Contains(line, "pyright: ignore") || strings.Contains(line, "type: ignore"):
		a.leave([]*pysite{s}, "a pyright verdict of the line (a comment silences it)")
	case silenceProves(s):
		r.Verdict, r.Precision = model.Consistent, model.PrecisionTypes
		r.Message = "pyright types this site without error (" + r.Message + ")"
		r.Missing = ""
	default:
		a.leave([]*pysite{s}, "a proof beyond types (pyright accepts the site; what the syntax doubts is not a type)")
	}
}

// silenceProves reports a site whose doubt pyright's silence settles:
// which declaration a name matched on a receiver of unknown type binds
// to, or whether a deleted or renamed member is still reached. An
// override, a changed default and arguments that moved between
// parameters are not errors of types.
func silenceProves(s *pysite) bool {
	switch s.ref.Relation {
	case model.OverriddenBy, model.Overrides, model.EmbeddedBy:
		return false
	}
	if s.ref.Precision == model.PrecisionName {
		return true
	}
	switch s.ref.Change.Label {
	case model.DM, model.DF, model.DC, model.DI:
		return s.x.kind == rAttr && !selfOrCls(s.x)
	}
	return false
}

// selfOrCls reports an attribute read on self or cls: its receiver is
// any subclass, which pyright types as the enclosing class.
func selfOrCls(x *ref) bool {
	o := x.n.Child("object")
	return o != nil && (o.Text() == "self" || o.Text() == "cls")
}

// concerns reports a pyright error that is about the change at the
// site (see the evidence rule above). off and end are the error's byte
// range in the site's file.
func (a *analyzer) concerns(s *pysite, d pyright.Diag, off, end int) bool {
	t := s.t
	name := t.name
	switch d.Rule {
	case "reportAttributeAccessIssue":
		if m := pyAttrRE.FindStringSubmatch(d.Message); m != nil {
			return m[1] == name && t.member && t.cls != nil && a.isClassOf(m[2], t)
		}
		if m := pyModAttrRE.FindStringSubmatch(d.Message); m != nil {
			return m[1] == name && !t.member && sameModule(m[2], a.ix.mods.moduleName(t.path))
		}
		if m := pyImportSymRE.FindStringSubmatch(d.Message); m != nil {
			return m[1] == name && !t.member && t.deleted
		}
	case "reportCallIssue", "reportArgumentType":
		if !signature(t) || s.x.call == nil || s.x.call.Kind != "call" {
			return false
		}
		if d.Rule == "reportArgumentType" {
			m := pyInFuncRE.FindStringSubmatch(d.Message)
			if m == nil || m[1] != name && !(t.kind == tCtor && (m[1] == "__init__" || m[1] == "__new__")) {
				return false
			}
		}
		return innermostCall(s.x.call, off, end, d.Rule == "reportArgumentType" || strings.HasPrefix(d.Message, "Expected ")) == s.x.call
	}
	return false
}

// signature reports a target whose calls are bound against its
// parameters: a changed signature, a constructor.
func signature(t *target) bool {
	if t.kind == tCtor {
		return true
	}
	switch t.ch.Label {
	case model.MMS, model.MCC, model.ACC, model.DCC:
		return true
	}
	return false
}

// isClassOf reports a class name pyright printed ("C" or "type[C]")
// that is the target's class or a subclass of it the check parsed.
func (a *analyzer) isClassOf(printed string, t *target) bool {
	n := strings.TrimSuffix(strings.TrimPrefix(printed, "type["), "]")
	if n == t.cls.name {
		return true
	}
	for _, f := range a.ix.parsedFiles() {
		for _, c := range f.classes {
			if c.name == n && c != t.cls && a.r.isSubclass(c, t.cls) {
				return true
			}
		}
	}
	return false
}

// sameModule compares a module name pyright printed with the dotted name
// of the target's file, either possibly a suffix of the other (the import
// root pyright and the front-end chose may differ).
func sameModule(printed, mod string) bool {
	return printed == mod || strings.HasSuffix("."+mod, "."+printed) || strings.HasSuffix("."+printed, "."+mod)
}

// innermostCall is the deepest call in call's subtree (call included)
// holding the byte range off..end; nil when call does not hold it. When
// the range is an argument (argRange: pyright's reports of an extra
// positional argument and of an argument's type stand at the argument),
// a call that is exactly that range is the argument, not the call.
func innermostCall(call *treesit.Node, off, end int, argRange bool) *treesit.Node {
	if off < int(call.Start) || end > int(call.End) {
		return nil
	}
	best := call
	treesit.Walk(call, func(n *treesit.Node) bool {
		if off < int(n.Start) || end > int(n.End) {
			return false
		}
		if n != call && n.Kind == "call" && !(argRange && int(n.Start) == off && int(n.End) == end) {
			best = n
		}
		return true
	})
	return best
}

var (
	pyImportRE    = regexp.MustCompile(`^Import "([^"]+)" could not be resolved`)
	pyAttrRE      = regexp.MustCompile(`^Cannot access attribute "([^"]+)" for class "([^"]+)"`)
	pyModAttrRE   = regexp.MustCompile(`^"([^"]+)" is not a known attribute of module "([^"]+)"`)
	pyImportSymRE = regexp.MustCompile(`^"([^"]+)" is unknown import symbol`)
	pyInFuncRE    = regexp.MustCompile(`in function "([^"]+)"`)
)

func isUnknownRule(rule string) bool {
	for _, r := range pyright.UnknownRules {
		if r == rule {
			return true
		}
	}
	return false
}

// pyReach is the byte range of a site's code pyright's errors may stand
// in: the statement holding the reference; for a reference in the header
// of a def, a class or a compound statement (parameters, bases, an if's
// condition), that header only.
func pyReach(n *treesit.Node) (lo, hi int) {
	return treesit.Reach(n, pyReachHeaders, pyReachStatements, nil)
}

var (
	pyReachHeaders = treesit.KindSet("function_definition", "class_definition", "if_statement", "elif_clause",
		"while_statement", "for_statement", "with_statement", "match_statement", "case_clause")
	pyReachStatements = treesit.KindSet("expression_statement", "return_statement", "delete_statement", "raise_statement",
		"assert_statement", "import_statement", "import_from_statement", "future_import_statement", "decorator",
		"print_statement", "exec_statement", "type_alias_statement")
)

// pyOffset turns pyright's 1-based line and column (characters) into a
// byte offset of src; -1 when outside it.
func pyOffset(src []byte, line, col int) int {
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

func oneLine(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	return strings.TrimSpace(s)
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

func dedupe(xs []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, x := range xs {
		if !seen[x] {
			seen[x] = true
			out = append(out, x)
		}
	}
	return out
}
