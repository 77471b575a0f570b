package python

import (
	"fmt"
	"sort"
	"strings"

	"github.com/ripple-dev/ripple/internal/lang"
	"github.com/ripple-dev/ripple/internal/lang/treesit"
)

// Details explains a change between two states of one declaration.
func (*Frontend) Details(old, new *lang.Decl) []string {
	od, nd, ok := lang.DataOf[*declData](old, new)
	if !ok {
		return nil
	}
	switch {
	case od.fn != nil && nd.fn != nil:
		out := funcDetails(od.fn, nd.fn)
		if len(od.overloads) != len(nd.overloads) {
			out = append(out, fmt.Sprintf("overloads %d → %d", len(od.overloads), len(nd.overloads)))
		} else {
			for i := range od.overloads {
				if funcSig(od.overloads[i]) != funcSig(nd.overloads[i]) {
					out = append(out, fmt.Sprintf("overload %d changed", i+1))
				}
			}
		}
		if od.setter != nd.setter {
			if nd.setter {
				out = append(out, "property now settable")
			} else {
				out = append(out, "property setter removed")
			}
		}
		return out
	case od.cls != nil && nd.cls != nil:
		return classDetails(od.cls, nd.cls)
	case od.attr != nil && nd.attr != nil:
		return attrDetails(old, new, od, nd)
	case od.all != nil || nd.all != nil:
		return allDetails(od.all, nd.all)
	case od.bind != nil && nd.bind != nil:
		if old.Kind == "import" {
			return []string{fmt.Sprintf("now imports %s (was %s)", new.Sig, old.Sig)}
		}
		return []string{fmt.Sprintf("annotation %s → %s", orNone(old.Sig), orNone(new.Sig))}
	}
	if old.Sig != new.Sig {
		return []string{"declaration changed kind"}
	}
	return nil
}

func orNone(s string) string {
	if s == "" {
		return "(none)"
	}
	return s
}

// funcDetails describes how a function's calling convention changed.
func funcDetails(o, n *funcInfo) []string {
	var out []string
	flag := func(was, is bool, what string) {
		switch {
		case !was && is:
			out = append(out, "now "+what)
		case was && !is:
			out = append(out, "no longer "+what)
		}
	}
	flag(o.async, n.async, "async")
	flag(o.static, n.static, "a staticmethod")
	flag(o.classm && o.name != "__new__", n.classm && n.name != "__new__", "a classmethod")
	flag(o.property, n.property, "a property")
	od, nd := decoSet(o), decoSet(n)
	for _, d := range nd {
		if !contains(od, d) && !isConventionDeco(d) {
			out = append(out, "decorator @"+d+" added")
		}
	}
	for _, d := range od {
		if !contains(nd, d) && !isConventionDeco(d) {
			out = append(out, "decorator @"+d+" removed")
		}
	}
	if o.typeParams != n.typeParams {
		out = append(out, fmt.Sprintf("type parameters %s → %s", orNone(o.typeParams), orNone(n.typeParams)))
	}
	out = append(out, paramDetails(callParams(o), callParams(n))...)
	ot, nt := "", ""
	if o.returns != nil {
		ot = treesit.Compact(o.returns)
	}
	if n.returns != nil {
		nt = treesit.Compact(n.returns)
	}
	if ot != nt {
		out = append(out, fmt.Sprintf("return annotation %s → %s", orNone(ot), orNone(nt)))
	}
	return out
}

func isConventionDeco(d string) bool {
	switch lastPart(d) {
	case "staticmethod", "classmethod", "property", "cached_property":
		return true
	}
	return false
}

func decoSet(fn *funcInfo) []string {
	var out []string
	for _, d := range fn.decorators {
		out = append(out, treesit.Compact(d))
	}
	return out
}

func contains(ss []string, s string) bool {
	for _, x := range ss {
		if x == s {
			return true
		}
	}
	return false
}

// callParams are the parameters a caller supplies: without self or cls.
func callParams(fn *funcInfo) []param {
	if fn.cls != nil {
		return dropFirst(fn)
	}
	return fn.params
}

// paramDetails describes how a parameter list changed, by name.
func paramDetails(o, n []param) []string {
	var out []string
	oi, ni := map[string]int{}, map[string]int{}
	for i, p := range o {
		oi[p.name] = i
	}
	for i, p := range n {
		ni[p.name] = i
	}
	// a parameter renamed in place: same position and kind, old name gone,
	// new name new
	renamed := map[string]string{}
	for i := 0; i < len(o) && i < len(n); i++ {
		if o[i].name != n[i].name && o[i].kind == n[i].kind {
			if _, still := ni[o[i].name]; !still {
				if _, was := oi[n[i].name]; !was {
					renamed[o[i].name] = n[i].name
					out = append(out, fmt.Sprintf("parameter %s renamed to %s", o[i].name, n[i].name))
				}
			}
		}
	}
	isRenamedTo := map[string]bool{}
	for _, v := range renamed {
		isRenamedTo[v] = true
	}
	for _, p := range o {
		if _, ok := ni[p.name]; !ok && renamed[p.name] == "" {
			out = append(out, "parameter "+describe(p)+" removed")
		}
	}
	for _, p := range n {
		if _, ok := oi[p.name]; !ok && !isRenamedTo[p.name] {
			what := "parameter " + describe(p) + " added"
			if !p.hasDef && (p.kind == posOnly || p.kind == posKw || p.kind == kwOnly) {
				what = "required " + what
			}
			out = append(out, what)
		}
	}
	for _, p := range n {
		name := p.name
		for k, v := range renamed {
			if v == p.name {
				name = k
			}
		}
		i, ok := oi[name]
		if !ok {
			continue
		}
		q := o[i]
		if q.kind != p.kind {
			out = append(out, fmt.Sprintf("parameter %s now %s (was %s)", p.name, p.kind, q.kind))
		}
		switch {
		case q.hasDef && !p.hasDef:
			out = append(out, fmt.Sprintf("parameter %s made required (default %s removed)", p.name, q.def))
		case !q.hasDef && p.hasDef:
			out = append(out, fmt.Sprintf("parameter %s given default %s", p.name, p.def))
		case q.hasDef && p.hasDef && q.def != p.def:
			out = append(out, fmt.Sprintf("default of %s: %s → %s", p.name, q.def, p.def))
		}
		if q.annot != p.annot {
			out = append(out, fmt.Sprintf("annotation of %s: %s → %s", p.name, orNone(q.annot), orNone(p.annot)))
		}
	}
	if reordered(o, n, renamed) {
		out = append(out, fmt.Sprintf("positional parameters reordered: (%s) → (%s)", positionalNames(o), positionalNames(n)))
	}
	return out
}

func describe(p param) string {
	switch p.kind {
	case varArgs:
		return "*" + p.name
	case varKw:
		return "**" + p.name
	}
	return p.name
}

// reordered reports whether parameters present in both lists take
// different relative positions among the positional ones.
func reordered(o, n []param, renamed map[string]string) bool {
	var a, b []string
	inN := map[string]bool{}
	for _, p := range n {
		if p.kind <= posKw {
			inN[p.name] = true
		}
	}
	for _, p := range o {
		name := p.name
		if r := renamed[name]; r != "" {
			name = r
		}
		if p.kind <= posKw && inN[name] {
			a = append(a, name)
		}
	}
	inA := map[string]bool{}
	for _, x := range a {
		inA[x] = true
	}
	for _, p := range n {
		if p.kind <= posKw && inA[p.name] {
			b = append(b, p.name)
		}
	}
	return strings.Join(a, ",") != strings.Join(b, ",")
}

func positionalNames(ps []param) string {
	var out []string
	for _, p := range ps {
		if p.kind <= posKw {
			out = append(out, p.name)
		}
	}
	return strings.Join(out, ", ")
}

func classDetails(o, n *classInfo) []string {
	var out []string
	ob, nb := texts(o.bases), texts(n.bases)
	if strings.Join(ob, ",") != strings.Join(nb, ",") {
		out = append(out, fmt.Sprintf("bases (%s) → (%s)", strings.Join(ob, ", "), strings.Join(nb, ", ")))
	}
	ok, nk := texts(o.keywords), texts(n.keywords)
	if strings.Join(ok, ",") != strings.Join(nk, ",") {
		out = append(out, fmt.Sprintf("class keywords (%s) → (%s)", strings.Join(ok, ", "), strings.Join(nk, ", ")))
	}
	od, nd := texts(o.decorators), texts(n.decorators)
	for _, d := range nd {
		if !contains(od, d) {
			out = append(out, "decorator @"+d+" added")
		}
	}
	for _, d := range od {
		if !contains(nd, d) {
			out = append(out, "decorator @"+d+" removed")
		}
	}
	if o.typeParams != n.typeParams {
		out = append(out, fmt.Sprintf("type parameters %s → %s", orNone(o.typeParams), orNone(n.typeParams)))
	}
	if ok, nk := kindFromText(o.decorators, o.bases), kindFromText(n.decorators, n.bases); ok != nk {
		out = append(out, fmt.Sprintf("now a %s (was a %s)", nk, ok))
	}
	return out
}

func texts(ns []*treesit.Node) []string {
	out := make([]string, len(ns))
	for i, n := range ns {
		out[i] = treesit.Compact(n)
	}
	return out
}

func attrDetails(old, new *lang.Decl, od, nd *declData) []string {
	var out []string
	oa, na := "", ""
	if od.attr.annot != nil {
		oa = treesit.Compact(od.attr.annot)
	}
	if nd.attr.annot != nil {
		na = treesit.Compact(nd.attr.annot)
	}
	if oa != na {
		out = append(out, fmt.Sprintf("annotation %s → %s", orNone(oa), orNone(na)))
	}
	if od.attr.instance != nd.attr.instance {
		if nd.attr.instance {
			out = append(out, "now an instance attribute (was a class attribute)")
		} else {
			out = append(out, "now a class attribute (was an instance attribute)")
		}
	}
	of, nf := fieldOf(od.attr, od.ownerKind, false), fieldOf(nd.attr, nd.ownerKind, false)
	switch {
	case of != nil && nf == nil:
		out = append(out, "no longer a constructor parameter")
	case of == nil && nf != nil:
		out = append(out, "now a constructor parameter")
	case of != nil && nf != nil:
		if of.hasDef && !nf.hasDef {
			out = append(out, "default removed: now required by the constructor")
		} else if !of.hasDef && nf.hasDef {
			out = append(out, "default added")
		}
		if of.kind != nf.kind {
			out = append(out, fmt.Sprintf("constructor parameter now %s", nf.kind))
		}
		if of.name != nf.name {
			out = append(out, fmt.Sprintf("constructor keyword %s → %s", of.name, nf.name))
		}
	}
	if len(out) == 0 && old.Sig != new.Sig {
		out = append(out, "declaration changed")
	}
	return out
}

func allDetails(o, n []string) []string {
	var out []string
	for _, x := range o {
		if !contains(n, x) {
			out = append(out, "__all__ no longer exports "+x)
		}
	}
	for _, x := range n {
		if !contains(o, x) {
			out = append(out, "__all__ now exports "+x)
		}
	}
	return out
}

// Escapes says how a body change reaches callers, from the statements on
// changed lines of both states.
func (*Frontend) Escapes(old, new *lang.Decl, oldChanged, newChanged func(from, to int) bool) []string {
	od, nd, ok := lang.DataOf[*declData](old, new)
	if !ok {
		return nil
	}
	if nd.fn == nil {
		if nd.bind != nil {
			return []string{"value"}
		}
		return nil
	}
	set := map[string]bool{}
	if od.fn != nil {
		bodyEscapes(od.fn, oldChanged, set)
	}
	bodyEscapes(nd.fn, newChanged, set)
	out := make([]string, 0, len(set))
	for k := range set {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// mutators are methods that change their receiver in place.
var mutators = map[string]bool{"append": true, "extend": true, "insert": true, "remove": true, "pop": true, "clear": true,
	"update": true, "add": true, "discard": true, "setdefault": true, "popitem": true, "sort": true, "reverse": true}

func bodyEscapes(fn *funcInfo, changed func(from, to int) bool, set map[string]bool) {
	params := map[string]bool{}
	self := ""
	for i, p := range fn.params {
		if i == 0 && fn.cls != nil && !fn.static {
			self = p.name
			continue
		}
		params[p.name] = true
	}
	globals := map[string]bool{}
	if fn.scope != nil {
		for g := range fn.scope.globals {
			globals[g] = true
		}
	}
	rootName := func(e *treesit.Node) (string, bool) {
		through := false
		for e != nil {
			switch e.Kind {
			case "identifier":
				return e.Text(), through
			case "attribute":
				e, through = e.Child("object"), true
			case "subscript":
				e, through = e.Child("value"), true
			default:
				return "", false
			}
		}
		return "", false
	}
	mutates := func(target *treesit.Node) {
		name, through := rootName(target)
		switch {
		case name == "":
		case name == self && through:
			set["receiver mutated"] = true
		case params[name] && through:
			set["arguments mutated"] = true
		case globals[name]:
			set["module state mutated"] = true
		}
	}
	treesit.Walk(fn.node.Child("body"), func(n *treesit.Node) bool {
		if !changed(int(n.Line), int(n.EndLine)) {
			return false
		}
		switch n.Kind {
		case "function_definition", "class_definition":
			return false
		case "return_statement":
			if len(n.NamedKids()) > 0 && changed(int(n.Line), int(n.EndLine)) {
				set["return values"] = true
			}
		case "yield":
			set["yielded values"] = true
		case "raise_statement":
			set["errors"] = true
		case "assignment", "augmented_assignment":
			mutates(n.Child("left"))
		case "delete_statement":
			for _, k := range n.NamedKids() {
				mutates(k)
			}
		case "call":
			if f := n.Child("function"); f != nil && f.Kind == "attribute" && mutators[f.Child("attribute").Text()] {
				if obj := f.Child("object"); obj != nil {
					mutates(wrapAttr(obj))
				}
			}
			if f := n.Child("function"); f != nil && f.Kind == "attribute" && f.Text() == "sys.exit" {
				set["exits"] = true
			}
		}
		return true
	})
}

// wrapAttr makes a synthetic attribute node over obj, so that a mutating
// call obj.append(x) counts as a write through obj.
func wrapAttr(obj *treesit.Node) *treesit.Node {
	a := &treesit.Node{Kind: "attribute", Tree: obj.Tree}
	c := *obj
	c.Field = "object"
	a.Kids = []*treesit.Node{&c}
	return a
}
