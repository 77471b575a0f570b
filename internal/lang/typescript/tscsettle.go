package typescript

import (
	"fmt"
	"path/filepath"
	"regexp"
	"strings"
	"unicode/utf8"

	"github.com/ripple-dev/ripple/internal/lang/treesit"
	"github.com/ripple-dev/ripple/internal/lang/typescript/tsc"
	"github.com/ripple-dev/ripple/internal/model"
)

// How tsc's answer settles a site (the evidence rule of this tier):
//
//   - an error of tsc inside the site's reach (its statement; the header
//     of a declaration or of a compound statement) that concerns the
//     change (concerns) makes the site inconsistent, with precision
//     types and tsc's message;
//   - no error at all there, in a project whose program lacked nothing
//     (every module, type library and global name resolved, the
//     configuration whole), makes a site the syntax resolved exactly
//     consistent, with precision types;
//   - otherwise the syntactic verdict stands and the site says what the
//     check was without (Ref.Missing): tsc types what it cannot resolve
//     as any and is then silent, and a receiver the syntax resolved by
//     its name alone may be such an any.

// settleRun settles the sites of one project with its run.
func (a tscTier) settleRun(run *tsc.Run, tree string, sites []*tscSite) {
	byFile := map[string][]tsc.Diagnostic{}
	for _, d := range run.Diagnostics {
		if d.Path == "" || d.Category != "error" {
			continue
		}
		if r, err := filepath.Rel(tree, d.Path); err == nil {
			byFile[filepath.ToSlash(r)] = append(byFile[filepath.ToSlash(r)], d)
		}
	}
	for _, s := range sites {
		a.settle(s, run, tree, byFile[s.ref.Site.Path])
	}
}

func (a tscTier) settle(s *tscSite, run *tsc.Run, tree string, diags []tsc.Diagnostic) {
	r := s.ref
	if run.Configured {
		r.Missing = "a type check (tsc refused the configuration of " + run.Project.Name(tree) + ")"
		return
	}
	lo, hi := reach(s.n)
	if call := callOf(s.n); call != nil && !(s.t.kind == tCall && returnChanged(s.t)) {
		// a call: tsc's errors about its callee and arguments, not about
		// what the statement does with its result (which this change
		// did not retype: an error there is another cause's, such as a
		// library of another TypeScript version)
		lo, hi = int(call.Start), int(call.End)
	}
	lines := lineStarts(s.f.t.Src)
	var hits, others []tsc.Diagnostic
	for _, d := range diags {
		off := offsetOf(s.f.t.Src, lines, d.Line, d.Col)
		if off < lo || off >= hi {
			continue
		}
		if concerns(d, s.t) {
			hits = append(hits, d)
		} else {
			others = append(others, d)
		}
	}
	if len(hits) > 0 && relational(hits) && !primitiveOnly(hits) {
		// whether one type is assignable to another depends on every type
		// built into them: where the program lacked a module or the JSX
		// types, an error between types of its own (not numbers and
		// strings) may be the gap's doing (TanStack query's solid examples
		// without solid-js: every element misses its children; msw's
		// handlers' resolvers, generics over types of missing packages),
		// as an error of an invalid type is in Go
		// only what the site's file or the changed declaration's file
		// lacked can make the types on either side of the error
		// incomplete: a package missing elsewhere in the program is
		// unrelated (issue 31: the repository's own types are proof)
		what := run.UnresolvedIn[filepath.Join(tree, filepath.FromSlash(r.Site.Path))]
		if s.t.path != "" && s.t.path != r.Site.Path {
			what = append(what, lackedModules(run.UnresolvedIn[filepath.Join(tree, filepath.FromSlash(s.t.path))])...)
		}
		if len(what) > 0 {
			r.Missing = fmt.Sprintf("complete types: tsc's %s (TS%d) may follow from what it did not find, %s", clip(hits[0].Message, 160), hits[0].Code, someOf(what, 3))
			return
		}
	}
	if len(hits) > 0 {
		var msgs []string
		for i, d := range hits {
			if i == 2 {
				msgs = append(msgs, fmt.Sprintf("and %d more", len(hits)-2))
				break
			}
			msgs = append(msgs, fmt.Sprintf("%s (TS%d)", d.Message, d.Code))
		}
		r.Verdict, r.Precision, r.Message, r.Missing = model.Inconsistent, model.PrecisionTypes, strings.Join(msgs, "; "), ""
		return
	}
	switch {
	case len(others) > 0:
		// an error of another cause there: what it is about is typed as
		// an error (any) to tsc, whose silence on the change is then no
		// evidence
		r.Missing = fmt.Sprintf("a type check of the code around it without errors (tsc: %s (TS%d))", others[0].Message, others[0].Code)
	case r.Precision == model.PrecisionName:
		r.Missing = "the receiver's type (tsc is silent on a receiver typed any)"
	case len(run.Unresolved) > 0:
		what := run.UnresolvedIn[filepath.Join(tree, filepath.FromSlash(r.Site.Path))]
		if len(what) == 0 {
			what = run.Unresolved
		}
		r.Missing = "complete types: tsc did not find " + someOf(what, 3)
	default:
		r.Verdict, r.Precision = model.Consistent, model.PrecisionTypes
		r.Message = "tsc reports no error here (" + r.Message + ")"
		r.Missing = ""
	}
}

// reach is the byte range of a site's code that tsc's errors may stand
// in: the statement holding the reference; for a reference in the
// header of a declaration or a compound statement (a class's heritage,
// a method's parameters, an if's condition), that header only.
func reach(n *treesit.Node) (lo, hi int) {
	return treesit.Reach(n, reachHeaders, reachStatements, wrapsOnly)
}

// wrapsOnly passes over an export statement holding the declaration n
// lies in: the declaration's own statement is nearer.
func wrapsOnly(p, n *treesit.Node) bool {
	d := p.Child("declaration")
	return p.Kind == "export_statement" && d != nil && n.Start >= d.Start
}

var (
	reachHeaders = treesit.KindSet("class_declaration", "abstract_class_declaration", "class", "interface_declaration",
		"function_declaration", "generator_function_declaration", "method_definition",
		"if_statement", "for_statement", "for_in_statement", "while_statement", "do_statement",
		"switch_statement", "try_statement", "with_statement")
	reachStatements = treesit.KindSet("expression_statement", "lexical_declaration", "variable_declaration", "return_statement",
		"throw_statement", "import_statement", "export_statement", "public_field_definition",
		"property_signature", "method_signature", "abstract_method_signature", "type_alias_declaration",
		"enum_declaration", "ambient_declaration")
)

// callOf is the call or new expression a reference is the callee of
// (directly, or as the property of a member expression), nil when it is
// not one.
func callOf(n *treesit.Node) *treesit.Node {
	c := n
	for c.Parent != nil && c.Parent.Kind == "member_expression" && c.Field == "property" {
		c = c.Parent
	}
	if p := c.Parent; p != nil && (p.Kind == "call_expression" && c.Field == "function" || p.Kind == "new_expression" && c.Field == "constructor") {
		return p
	}
	return nil
}

// returnChanged reports a changed signature whose declared return type
// changed: the statement using a call's result is then the change's
// business too.
func returnChanged(t *target) bool {
	return t.od != nil && t.nd != nil && t.od.fn != nil && t.nd.fn != nil && t.od.fn.ret != t.nd.fn.ret
}

// lineStarts are the byte offsets of each line's first byte.
func lineStarts(src []byte) []int {
	out := []int{0}
	for i, c := range src {
		if c == '\n' {
			out = append(out, i+1)
		}
	}
	return out
}

// offsetOf turns tsc's 1-based line and UTF-16 column into a byte
// offset of src; -1 when outside it.
func offsetOf(src []byte, lines []int, line, col int) int {
	if line < 1 || line > len(lines) {
		return -1
	}
	off := lines[line-1]
	for units := 1; units < col && off < len(src) && src[off] != '\n'; {
		r, size := utf8.DecodeRune(src[off:])
		off += size
		if r >= 0x10000 {
			units += 2
		} else {
			units++
		}
	}
	return off
}

// namedCodes are the errors about a named member or export: they concern
// a change only when they name its declaration or its container.
var namedCodes = map[int]bool{
	2339: true, 2551: true, 2353: true, 2561: true, 2741: true, 2739: true, 2740: true, 2576: true,
	2445: true, 2341: true, 2540: true, 2305: true, 2724: true, 2614: true, 2694: true, 2420: true,
	2416: true, 2515: true, 2654: true, 2430: true, 2559: true, 2304: true, 2552: true, 2503: true,
	2613: true, 2693: true, 2749: true, 2709: true,
}

// unrelatedCodes are errors of the state of the checkout or of the
// configuration (a module not installed, a global nothing declares in
// this program, an implicit any, an unused name, a library the target
// lacks), never of a change to a declaration of the repository.
var unrelatedCodes = map[int]bool{
	2307: true, 2792: true, 7016: true, 2688: true, 2580: true, 2582: true, 2591: true, 2593: true,
	2867: true, 2868: true, 2875: true, 2354: true, 2550: true, 2583: true, 2584: true, 2585: true,
	2300: true, 2451: true, 2564: true, 2578: true, 6133: true, 6138: true, 6192: true, 6196: true,
	6198: true, 6199: true, 6205: true,
}

// unknownNameCodes say a name is not declared or not exported: about a
// change only when they name its declaration.
var unknownNameCodes = map[int]bool{2304: true, 2552: true, 2503: true, 2305: true, 2724: true, 2614: true, 2694: true, 2613: true}

var quotedName = regexp.MustCompile(`'([^']*)'`)

// concerns reports whether a tsc error at a site is about the change
// the site depends on: a type or arity error there, or an error naming
// the changed declaration (or its container).
func concerns(d tsc.Diagnostic, t *target) bool {
	if unrelatedCodes[d.Code] || !(d.Code >= 2000 && d.Code < 3000 || d.Code >= 18000 && d.Code < 19000 || d.Code == 1360) {
		return false
	}
	if !namedCodes[d.Code] {
		return true
	}
	if t.kind == tCall && !unknownNameCodes[d.Code] {
		// a call of a changed signature: a member error at the call is
		// about what its arguments must now be ('Pipe' does not exist
		// in the new options type)
		return true
	}
	names := map[string]bool{t.name: true}
	if t.container != "" {
		names[t.container] = true
	}
	for _, a := range t.alts {
		names[a] = true
	}
	if t.ch.New != nil {
		names[t.ch.New.Name] = true
	}
	text := d.Message + "\n" + strings.Join(d.Detail, "\n")
	for _, m := range quotedName.FindAllStringSubmatch(text, -1) {
		q := strings.Trim(m[1], `"`)
		if names[q] || names[strings.TrimSuffix(q, "()")] {
			return true
		}
		// a type named with its arguments or its module: 'Opts<T>', 'import("./a").Opts'
		if i := strings.IndexAny(q, "<("); i > 0 && names[q[:i]] {
			return true
		}
		if i := strings.LastIndexByte(q, '.'); i >= 0 && names[q[i+1:]] {
			return true
		}
	}
	// 2739/2740 list the missing members after the colon
	if d.Code == 2739 || d.Code == 2740 {
		if _, list, ok := strings.Cut(d.Message, ": "); ok {
			for _, w := range strings.FieldsFunc(list, func(r rune) bool { return r == ',' || r == ' ' || r == '.' }) {
				if names[w] {
					return true
				}
			}
		}
	}
	return false
}

// relationalCodes are tsc's errors that one type is not assignable to
// another (or matches no overload): they depend on every type involved.
var relationalCodes = map[int]bool{2322: true, 2345: true, 2741: true, 2739: true, 2740: true, 2559: true, 2769: true, 2375: true, 2379: true}

// relational reports whether every error is one of relationalCodes.
func relational(ds []tsc.Diagnostic) bool {
	for _, d := range ds {
		if !relationalCodes[d.Code] {
			return false
		}
	}
	return true
}

// clip shortens s to at most n bytes (on a rune boundary), marking the cut.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}

// lackedModules are the modules and type libraries among what a program
// lacked: an import of one is typed any, which may reach any type built
// on it (msw's ResponseResolver, through its handlers' generics).
func lackedModules(unresolved []string) []string {
	var out []string
	for _, u := range unresolved {
		if strings.HasPrefix(u, "module ") || strings.HasPrefix(u, "type library ") || strings.HasPrefix(u, "the types of ") || u == "the JSX types" {
			out = append(out, u)
		}
	}
	return out
}

var (
	quotedTypeRE = regexp.MustCompile(`'([^']*)'`)
	primitiveRE  = regexp.MustCompile(`^(?:\s|\||\[\]|[()]|"[^"]*"|-?[0-9][0-9._en]*|\b(?:number|string|boolean|bigint|symbol|null|undefined|true|false|void|never|unknown)\b)*$`)
)

// primitiveOnly reports whether every type the errors name is built of
// primitive and literal types only, which no missing declaration can
// change (a number passed for a string).
func primitiveOnly(ds []tsc.Diagnostic) bool {
	for _, d := range ds {
		msg, _, _ := strings.Cut(d.Message, "\n")
		qs := quotedTypeRE.FindAllStringSubmatch(msg, -1)
		if len(qs) == 0 {
			return false
		}
		for _, q := range qs {
			if !primitiveRE.MatchString(q[1]) {
				return false
			}
		}
	}
	return true
}
