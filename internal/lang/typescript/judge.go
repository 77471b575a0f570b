package typescript

import (
	"fmt"
	"strings"

	"github.com/ripple-dev/ripple/internal/lang"
	"github.com/ripple-dev/ripple/internal/lang/treesit"
	"github.com/ripple-dev/ripple/internal/model"
)

// judge finds and judges the references of one target in one file.
type judge struct {
	a   *analyzer
	t   *target
	f   *tsfile
	out []*lang.Ref
	// at holds the node each ref of out stands on, for the type checker
	at []*treesit.Node
	// subs are subclasses of the file that inherit a changed constructor
	subs []string
	// subIfaces are the file's interfaces and aliases that are an
	// interface member's container under another name (subtypes.go)
	subIfaces []string
	// comps are the file's components whose props are an interface
	// member's container (jsx.go)
	comps []component
	// fx makes the mechanical fixes of the judge's sites (fixes.go)
	fx *fixer
	// ctr caches containerImport's bindings of the member's class
	ctr map[string]bool
}

func (j *judge) run() {
	t := j.t
	switch {
	case t.comp != "":
		jsxRules{j}.jsxElements()
	case !t.member:
		locals, nss := j.bindings(t.name)
		j.topLevel(locals, nss)
		dynamicRules{j}.dynamicImports(j.exportNames(t.name))
	case t.d.kind == dCtor:
		memberRules{j}.ctor()
	case t.d.kind == dEnumMember:
		memberRules{j}.enumMember()
	case t.d.kind == dIMember:
		memberRules{j}.ifaceMember()
	default:
		memberRules{j}.classMember()
	}
}

// exportNames are the names the declaring module exported a top-level
// declaration under, in the state dependents know.
func (j *judge) exportNames(name string) []string {
	var out []string
	d := j.t.d
	if j.t.member {
		d = nil
		file := j.t.d.file
		if j.t.comp != "" {
			if file = j.a.file(j.t.path); file == nil {
				return []string{name}
			}
		}
		for _, x := range file.decls {
			if n, c := x.names(); c == "" && n == name {
				d = x
			}
		}
		if d == nil {
			return []string{name}
		}
	}
	for as, local := range d.file.exports {
		if local == name {
			out = append(out, as)
		}
	}
	if d.exportAs != "" && !contains(out, d.exportAs) {
		out = append(out, d.exportAs) // export default function f
	}
	if len(out) == 0 && d.exported {
		out = append(out, name)
	}
	return out
}

// bindings returns the local names of this file bound to the top-level
// declaration name of the target's file, and the local names bound to
// that module as a namespace. Imports of a declaration that is gone are
// reported on the way.
func (j *judge) bindings(name string) (locals map[string]bool, nss map[string]bool) {
	t := j.t
	locals, nss = map[string]bool{}, map[string]bool{}
	gone := t.kind == tGone && !t.member
	if j.f.path == t.path {
		if !gone || !j.f.declares(name) && j.f.imports[name] == nil {
			locals[name] = true
		}
	}
	exps := j.exportNames(name)
	for _, b := range j.f.imports {
		mod := j.a.resolve(j.f.path, b.spec)
		if mod == "" || !j.a.mayReach(mod, t.path) {
			continue
		}
		if b.name == "*" {
			if mod == t.path || j.reaches(mod, exps) {
				nss[b.local] = true
			}
			continue
		}
		o, last, ok := j.a.exportOf(mod, b.name, 0)
		switch {
		case ok && o.path == t.path && o.local == name:
			locals[b.local] = true
		case !ok && gone && j.lost(mod, last) && contains(exps, b.name):
			locals[b.local] = true
			what := b.name
			if what == "default" {
				what = "the default export"
			}
			j.emit(b.node, model.ImportedBy, model.Inconsistent, model.PrecisionSyntax,
				fmt.Sprintf("imports %s from %s, which no longer exports it (%s %s)", what, b.spec, t.display(), j.what()))
			j.withFix(j.fx.importFix(b))
		}
	}
	if gone {
		for _, r := range j.f.reexports {
			if r.name == "*" || !contains(exps, r.name) {
				continue
			}
			mod := j.a.resolve(j.f.path, r.spec)
			if !j.a.mayReach(mod, t.path) {
				continue
			}
			if _, last, ok := j.a.exportOf(mod, r.name, 0); !ok && j.lost(mod, last) {
				j.emit(r.node, model.ImportedBy, model.Inconsistent, model.PrecisionSyntax,
					fmt.Sprintf("re-exports %s from %s, which no longer exports it (%s %s)", r.name, r.spec, t.display(), j.what()))
				j.withFix(j.fx.reexportFix(r))
			}
		}
	}
	return locals, nss
}

// lost reports whether a name a module no longer exports was lost with
// the target's file: the search ended there, or the module re-exports
// everything of that file (export * chains).
func (j *judge) lost(mod, last string) bool {
	return last == j.t.path || j.a.starReaches(mod, j.t.path, 0)
}

// reaches reports whether a module re-exports every one of the target's
// export names from the target's file (a barrel).
func (j *judge) reaches(mod string, exps []string) bool {
	for _, e := range exps {
		if o, last, ok := j.a.exportOf(mod, e, 0); ok && o.path == j.t.path || !ok && last == j.t.path {
			return true
		}
	}
	return false
}

// what says what happened to a gone target.
func (j *judge) what() string {
	c := j.t.ch
	if c.Derived {
		return mustOrMay(c) + " go with " + c.Cause.Block().Display
	}
	if c.Renamed() {
		return "was renamed to " + c.New.Name
	}
	if c.New != nil {
		return "was changed"
	}
	return "was deleted"
}

// change says what happened to the target, for a derived change's
// details: what() for a gone one, its details otherwise.
func (j *judge) change() string {
	if j.t.kind == tGone {
		return j.what()
	}
	return "changed: " + strings.Join(j.t.ch.Details, "; ")
}

func mustOrMay(c *model.Change) string {
	if c.Tentative > 0 {
		return "may have to"
	}
	return "must"
}

// refs walks the file for uses of the local names and of ns.name.
func (f *tsfile) refs(locals, nss map[string]bool, exps []string, visit func(ref *treesit.Node)) {
	if len(locals) == 0 && len(nss) == 0 {
		return
	}
	treesit.Walk(f.t.Root, func(n *treesit.Node) bool {
		if n.Bad {
			return false
		}
		switch n.Kind {
		case "import_statement":
			return false
		case "identifier", "type_identifier", "shorthand_property_identifier":
			if !locals[n.Text()] || declaration(n) || shadowed(n, n.Text()) || n.Kind == "type_identifier" && typeShadowed(n, n.Text()) {
				return true
			}
			if p := n.Parent; p != nil && (p.Kind == "member_expression" && n.Field == "property" || p.Kind == "export_specifier" || p.Kind == "nested_type_identifier" && n.Field != "module") {
				return true
			}
			if p := n.Parent; p != nil && p.Kind == "variable_declarator" && n.Field == "name" {
				return true
			}
			if intrinsicTag(n) {
				return true
			}
			visit(n)
		case "member_expression", "nested_type_identifier":
			o := n.Child("object")
			prop := n.Child("property")
			if n.Kind == "nested_type_identifier" {
				o, prop = n.Child("module"), n.Child("name")
			}
			if o != nil && prop != nil && o.Kind == "identifier" && nss[o.Text()] && contains(exps, prop.Text()) && !shadowed(n, o.Text()) {
				visit(n)
				return false
			}
		}
		return true
	})
}

// intrinsicTag reports the name of a JSX element written in lower case
// (<div>, <slugify>): an intrinsic element, not a reference to a value.
func intrinsicTag(n *treesit.Node) bool {
	switch n.Parent.KindOr() {
	case "jsx_opening_element", "jsx_self_closing_element", "jsx_closing_element":
		t := n.Text()
		return n.Field == "name" && t != "" && t[0] >= 'a' && t[0] <= 'z'
	}
	return false
}

// declaration reports an identifier that is the name a declaration
// declares (not a use).
func declaration(n *treesit.Node) bool {
	p := n.Parent
	if p == nil || n.Field != "name" {
		return false
	}
	switch p.Kind {
	case "function_declaration", "generator_function_declaration", "class_declaration", "abstract_class_declaration",
		"interface_declaration", "type_alias_declaration", "enum_declaration", "function_signature", "function_expression", "class":
		return true
	}
	return false
}

// refKind is how a reference uses what it names.
type refKind int

const (
	rValue refKind = iota
	rCall
	rNew
	rType
	rExtends
	rJSX
)

func refKindOf(n *treesit.Node) (refKind, *treesit.Node) {
	p := n.Parent
	if p == nil {
		return rValue, nil
	}
	switch {
	case p.Kind == "call_expression" && p.Child("function") == n:
		return rCall, p
	case p.Kind == "new_expression" && p.Child("constructor") == n:
		return rNew, p
	case n.Kind == "type_identifier" || n.Kind == "nested_type_identifier" || p.Kind == "type_query" || p.Kind == "generic_type":
		for q := p; q != nil; q = q.Parent {
			if q.Kind == "implements_clause" || q.Kind == "extends_type_clause" {
				return rExtends, q
			}
		}
		return rType, nil
	case p.Kind == "extends_clause" || p.Kind == "class_heritage":
		return rExtends, p
	case p.Kind == "jsx_opening_element" || p.Kind == "jsx_self_closing_element":
		return rJSX, p
	}
	return rValue, nil
}

// topLevel judges the uses of a module-level declaration.
func (j *judge) topLevel(locals, nss map[string]bool) {
	t := j.t
	exps := j.exportNames(t.name)
	j.f.refs(locals, nss, exps, func(ref *treesit.Node) {
		k, call := refKindOf(ref)
		switch t.kind {
		case tGone:
			if ref.Parent.KindOr() == "jsx_closing_element" {
				return // the element's opening tag is the use (its fix renames both)
			}
			rel, verb := goneRel(t, k)
			j.emit(ref, rel, model.Inconsistent, model.PrecisionSyntax, fmt.Sprintf("%s %s, which %s", verb, ref.Text(), j.what()))
			j.withFix(j.fx.useFix(ref))
		case tCall:
			switch k {
			case rCall, rNew:
				j.call(ref, call, model.CalledBy, model.PrecisionSyntax, false)
			case rJSX:
				jsxRules{j}.inlineElement(call) // an element of a component (jsxinline.go)
			case rValue:
				if commonJSExport(ref) || ref.Parent.KindOr() == "jsx_closing_element" {
					return
				}
				j.emit(ref, model.CalledBy, model.MayBeImpacted, model.PrecisionSyntax,
					fmt.Sprintf("uses %s as a value; its signature changed: %s", ref.Text(), strings.Join(t.ch.Details, "; ")))
			}
		}
	})
}

// goneRel is the relation and verb of a use of a gone declaration.
func goneRel(t *target, k refKind) (model.Relation, string) {
	switch k {
	case rCall:
		if t.d.kind == dClass {
			return model.ReferencedBy, "calls"
		}
		return model.CalledBy, "calls"
	case rNew:
		return model.InstantiatedBy, "instantiates"
	case rType:
		return model.ReferencedBy, "names"
	case rExtends:
		return model.EmbeddedBy, "extends"
	case rJSX:
		if t.d.kind == dClass {
			return model.InstantiatedBy, "renders"
		}
		return model.CalledBy, "renders" // a function component: rendering calls it
	}
	switch t.d.kind {
	case dClass, dInterface, dType, dEnum:
		return model.ReferencedBy, "uses"
	}
	return model.UsedBy, "uses"
}

// args returns the arguments of a call or new expression, and whether
// one is spread (its count is unknown).
func args(call *treesit.Node) (out []*treesit.Node, spread bool) {
	as := call.Child("arguments")
	if as == nil {
		return nil, false
	}
	if as.Kind == "template_string" {
		return nil, true // a tagged template
	}
	for _, a := range as.NamedKids() {
		if a.Kind == "spread_element" {
			spread = true
		}
		out = append(out, a)
	}
	return out, spread
}

// bindErr says why n positional arguments do not bind to a signature
// (and to none of its overloads); "" when they bind.
func bindErr(n int, name string, s *sig, overloads []*sig) string {
	first := ""
	for _, x := range append([]*sig{s}, overloads...) {
		e := ""
		if req := x.required(); n < req {
			var miss []string
			for _, p := range x.params[n:req] {
				miss = append(miss, p.name)
			}
			word := "argument"
			if len(miss) > 1 {
				word = "arguments"
			}
			e = fmt.Sprintf("misses required %s %s of %s", word, strings.Join(miss, ", "), name)
		} else if m := x.max(); m >= 0 && n > m {
			e = fmt.Sprintf("passes %d arguments; %s now takes %s", n, name, atMost(x))
		}
		if e == "" {
			return ""
		}
		if first == "" {
			first = e
		}
	}
	return first
}

func atMost(s *sig) string {
	req, m := s.required(), s.max()
	switch {
	case m == 0:
		return "none"
	case req == m:
		return fmt.Sprint(m)
	}
	return fmt.Sprintf("%d to %d", req, m)
}

// call judges a call (or new) against the target's new signature, and
// says when the declaration around it must follow (follow.go).
func (j *judge) call(at, call *treesit.Node, rel model.Relation, prec model.Precision, byName bool) {
	if j.t.ch.Derived {
		j.derivedCall(at, call, rel, prec, byName)
		return
	}
	n := len(j.out)
	j.bindCall(at, call, rel, prec, byName)
	if len(j.out) == n && !byName {
		j.spreadForward(at, call, rel, prec)
	}
	if len(j.out) > n {
		r := j.out[len(j.out)-1]
		r.Follow = j.follow(call, r)
	}
}

// bindCall judges a call (or new) against the target's new signature.
func (j *judge) bindCall(at, call *treesit.Node, rel model.Relation, prec model.Precision, byName bool) {
	t := j.t
	as, spread := args(call)
	name := t.name
	if t.d.kind == dCtor {
		name = t.container
	}
	od, nd := t.od, t.nd
	if spread {
		if !byName {
			j.spreadCall(at, call, as, name, rel, prec)
		}
		return // how many arguments is unknown
	}
	details := strings.Join(t.ch.Details, "; ")
	oldErr := bindErr(len(as), name, od.fn, od.overloads)
	newErr := bindErr(len(as), name, nd.fn, nd.overloads)
	if byName {
		if oldErr == "" && newErr != "" {
			j.emit(at, rel, model.MayBeImpacted, model.PrecisionName,
				fmt.Sprintf("may call %s (receiver type not resolved): the call %s", t.display(), newErr))
		} else if oldErr == "" && len(od.overloads) == 0 && len(nd.overloads) == 0 {
			if gaps := literalGaps(as, od.fn, nd.fn); len(gaps) > 0 {
				j.emit(at, rel, model.MayBeImpacted, model.PrecisionName,
					fmt.Sprintf("may call %s (receiver type not resolved): %s", t.display(), strings.Join(gaps, "; ")))
			}
		}
		return
	}
	// a call the diff itself changed was written for the new parameters:
	// where its arguments land is the author's intent, not a leftover
	touched := j.a.touched(j.f.path, call)
	if newErr != "" {
		if oldErr != "" {
			return // it did not bind before either: not this change's doing
		}
		if !isJS(t.path) {
			j.emit(at, rel, model.Inconsistent, prec, fmt.Sprintf("the call %s (%s)", newErr, details))
			j.withFix(j.fx.argsFix(call))
			return
		}
		// JavaScript does not check the count: a missing argument is
		// undefined and an extra one is ignored (tsc takes every parameter
		// of a .js file as optional). Only arguments that now land in
		// another parameter are proof.
		if bad, _ := shiftedArgs(as, od.fn, nd.fn); len(bad) == 0 || touched {
			j.emit(at, rel, model.MayBeImpacted, prec, fmt.Sprintf("the call %s (%s); JavaScript does not check argument counts, so whether %s copes is up to its body", newErr, details, name))
			j.withFix(j.fx.argsFix(call))
			return
		}
	} else if oldErr != "" {
		j.emit(at, rel, model.Consistent, prec, fmt.Sprintf("the call is written for the new signature of %s (it did not bind to the old one)", name))
		return
	}
	if len(nd.overloads) > 0 || len(od.overloads) > 0 {
		j.emit(at, rel, model.Consistent, prec, fmt.Sprintf("the call binds to an overload of %s", name))
		return
	}
	bad, warn := shiftedArgs(as, od.fn, nd.fn)
	if len(bad) > 0 && touched {
		j.emit(at, rel, model.Consistent, prec, fmt.Sprintf("the call of %s was written in this change, for its new parameters", name))
		return
	}
	oldOf := map[int]int{}
	for i, k := range paramMap(od.fn, nd.fn) {
		oldOf[k] = i
	}
	gaps := literalGaps(as, od.fn, nd.fn)
	switch {
	case len(bad) > 0:
		j.emit(at, rel, model.Inconsistent, prec, fmt.Sprintf("the call of %s binds, but %s (%s)", name, strings.Join(bad, "; "), details))
		j.withFix(j.fx.argsFix(call))
	case len(gaps) > 0 && !touched:
		// tsc's excess-property and missing-member checks on a literal
		// written where the parameter's inline type is
		j.emit(at, rel, model.Inconsistent, prec, fmt.Sprintf("the call of %s binds, but %s (%s)", name, strings.Join(gaps, "; "), details))
	case len(warn) > 0:
		j.emit(at, rel, model.MayBeImpacted, prec, fmt.Sprintf("the call of %s binds, but %s", name, strings.Join(warn, "; ")))
	case od.fn.ret != nd.fn.ret && call.Parent != nil && call.Parent.Kind != "expression_statement":
		j.emit(at, rel, model.MayBeImpacted, prec, fmt.Sprintf("uses the result of %s, whose return type changed: %s → %s", name, orNone(od.fn.ret), orNone(nd.fn.ret)))
	default:
		var opt []string
		for k := len(as); k < len(nd.fn.params); k++ {
			if _, kept := oldOf[k]; !kept && nd.fn.params[k].optional {
				opt = append(opt, nd.fn.params[k].name)
			}
		}
		if len(opt) > 0 {
			j.emit(at, rel, model.MayFollow, prec, fmt.Sprintf("the call binds; %s gained optional parameter %s, which it does not pass", name, strings.Join(opt, ", ")))
			return
		}
		j.emit(at, rel, model.Consistent, prec, fmt.Sprintf("the call binds to the new signature of %s", name))
	}
}

// shiftedArgs says, for a call whose arguments bind by count, which of
// them no longer land in the parameter they were written for (bad) and
// which land in a parameter whose type changed (warn).
func shiftedArgs(as []*treesit.Node, of, nf *sig) (bad, warn []string) {
	newOf := paramMap(of, nf)
	oldOf := map[int]int{}
	for i, k := range newOf {
		oldOf[k] = i
	}
	for i, arg := range as {
		oi, ni := paramAt(of, i), paramAt(nf, i)
		if oi < 0 || ni < 0 {
			continue
		}
		op, np := of.params[oi], nf.params[ni]
		if k, ok := newOf[oi]; ok && k == ni {
			if op.typ != np.typ && op.typ != "" && np.typ != "" {
				warn = append(warn, fmt.Sprintf("argument %d (%s) goes to %s, whose type changed: %s → %s", i+1, treesit.Compact(arg), np.name, op.typ, np.typ))
			}
			continue
		}
		if _, kept := oldOf[ni]; !kept {
			bad = append(bad, fmt.Sprintf("argument %d, written for %s, now fills the new parameter %s", i+1, op.name, np.name))
		} else if _, ok := newOf[oi]; !ok {
			bad = append(bad, fmt.Sprintf("argument %d, written for %s (removed), now fills %s", i+1, op.name, np.name))
		} else {
			bad = append(bad, fmt.Sprintf("argument %d, written for %s, now fills %s", i+1, op.name, np.name))
		}
	}
	return bad, warn
}

// paramAt is the parameter the i-th argument binds to, -1 for none.
func paramAt(s *sig, i int) int {
	if i < len(s.params) {
		if s.params[i].rest {
			return -1
		}
		return i
	}
	return -1
}

// emit records a ref at node n.
func (j *judge) emit(n *treesit.Node, rel model.Relation, v model.Verdict, prec model.Precision, msg string) {
	site := model.Site{Path: j.f.path, Line: int(n.Line), Col: int(n.Col) + 1, Text: j.f.t.LineText(int(n.Line))}
	if e := enclosing(n); e != nil {
		site.Enclosing = e.display
		site.EnclosingSpan = model.Span{StartLine: e.start, EndLine: e.end}
	}
	j.at = append(j.at, n)
	j.out = append(j.out, &lang.Ref{Change: j.t.ch, Relation: rel, Site: site, Verdict: v, Precision: prec, Message: msg,
		Generated: generated(j.f.t.Src)})
}

// commonJSExport reports a use that only exports the name
// (module.exports.f = f, module.exports = { f }, exports.f = f).
func commonJSExport(ref *treesit.Node) bool {
	p := ref.Parent
	if p == nil {
		return false
	}
	if p.Kind == "object" && ref.Kind == "shorthand_property_identifier" || p.Kind == "pair" && ref.Field == "value" {
		p = p.Parent
		if p.KindOr() == "pair" {
			p = p.Parent
		}
	}
	if p.Kind != "assignment_expression" || p.Child("right") != ref && p.Child("right").KindOr() != "object" {
		return false
	}
	l := p.Child("left").Text()
	return l == "module.exports" || strings.HasPrefix(l, "module.exports.") || strings.HasPrefix(l, "exports.")
}

// spreadCall judges a call that spreads some of its arguments: how many
// it passes is unknown, but the arguments before the first spread bind
// to the parameters at their positions. One that goes to a parameter
// whose type changed, or that the change moved, and a result used of a
// function whose return type changed, may be impacted.
func (j *judge) spreadCall(at, call *treesit.Node, as []*treesit.Node, name string, rel model.Relation, prec model.Precision) {
	od, nd := j.t.od, j.t.nd
	if len(od.overloads) > 0 || len(nd.overloads) > 0 {
		return
	}
	newOf := paramMap(od.fn, nd.fn)
	var warn []string
	for i, arg := range as {
		if arg.Kind == "spread_element" {
			break
		}
		oi, ni := paramAt(od.fn, i), paramAt(nd.fn, i)
		if oi < 0 || ni < 0 {
			continue
		}
		op, np := od.fn.params[oi], nd.fn.params[ni]
		if k, ok := newOf[oi]; !ok || k != ni {
			warn = append(warn, fmt.Sprintf("argument %d (%s), written for %s, now goes to %s", i+1, treesit.Compact(arg), op.name, np.name))
		} else if op.typ != np.typ && op.typ != "" && np.typ != "" {
			warn = append(warn, fmt.Sprintf("argument %d (%s) goes to %s, whose type changed: %s → %s", i+1, treesit.Compact(arg), np.name, op.typ, np.typ))
		}
	}
	switch {
	case len(warn) > 0:
		j.emit(at, rel, model.MayBeImpacted, prec, fmt.Sprintf("the call of %s spreads its other arguments; %s", name, strings.Join(warn, "; ")))
	case od.fn.ret != nd.fn.ret && call.Parent != nil && call.Parent.Kind != "expression_statement":
		j.emit(at, rel, model.MayBeImpacted, prec, fmt.Sprintf("uses the result of %s, whose return type changed: %s → %s", name, orNone(od.fn.ret), orNone(nd.fn.ret)))
	}
}
