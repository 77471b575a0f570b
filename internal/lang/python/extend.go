package python

import (
	"github.com/ripple-dev/ripple/internal/lang/treesit"
)

// falsyDefaults are the defaults under which `if p:` does not run.
var falsyDefaults = map[string]bool{"False": true, "None": true, "0": true, "''": true, `""`: true, "()": true, "[]": true, "{}": true}

// extendsBase reports whether a method fn added over base behaves as
// base for a call that leaves defaulted the parameters base lacks: fn
// takes base's parameters with base's defaults, and its body (docstring
// aside) is one call of super().name forwarding them unchanged (returned,
// or a statement where base returns nothing) and statements guarded by
// `if p:` or `if p is not None:` on a parameter base lacks whose
// default does not run them, which the call leaves to that default.
// (poetry 57fa499a2f: InstalledRepository.add_package(package, *,
// is_system_site=False) calls super().add_package(package) and records
// the package only when is_system_site is set.)
func extendsBase(fn, base *funcInfo, defaulted []string) bool {
	if fn == nil || base == nil || fn.node == nil || base.node == nil || fn.async != base.async ||
		fn.static != base.static || fn.classm != base.classm || fn.property || base.property {
		return false
	}
	fps, bps := callParams(fn), callParams(base)
	inBase := map[string]param{}
	for _, p := range bps {
		inBase[p.name] = p
	}
	left := map[string]bool{}
	for _, d := range defaulted {
		left[d] = true
	}
	extra := map[string]param{}
	for _, p := range fps {
		b, ok := inBase[p.name]
		switch {
		case ok:
			if b.kind != p.kind || b.hasDef != p.hasDef || b.def != p.def {
				return false
			}
		case p.kind == varArgs || p.kind == varKw || !p.hasDef || !falsyDefaults[p.def] || !left[p.name]:
			return false
		default:
			extra[p.name] = p
		}
	}
	if len(fps)-len(extra) != len(bps) {
		return false // base takes parameters fn does not
	}
	body := fn.node.Child("body")
	if body == nil {
		return false
	}
	doc := docstring(body)
	forwards := 0
	for _, st := range body.NamedKids() {
		if st == doc || st.Kind == "comment" || st.Kind == "pass_statement" {
			continue
		}
		switch st.Kind {
		case "if_statement":
			if !guardedBy(st, extra) {
				return false
			}
		case "expression_statement", "return_statement":
			es := st.NamedKids()
			if len(es) != 1 || !forwardsTo(es[0], fn, fps, inBase) {
				return false
			}
			if st.Kind == "expression_statement" && returnsValue(base) {
				return false
			}
			forwards++
		default:
			return false
		}
	}
	return forwards == 1
}

// guardedBy reports an if statement without elif or else whose condition
// is `p` or `p is not None` for a parameter p of extra (left to a default
// under which the condition is false).
func guardedBy(st *treesit.Node, extra map[string]param) bool {
	for _, k := range st.Kids {
		if k.Kind == "elif_clause" || k.Kind == "else_clause" {
			return false
		}
	}
	c := treesit.Unparen(st.Child("condition"))
	if c == nil {
		return false
	}
	if c.Kind == "identifier" {
		_, ok := extra[c.Text()]
		return ok
	}
	if c.Kind == "comparison_operator" {
		var id *treesit.Node
		isNot, none, n := false, false, 0
		for _, k := range c.Kids {
			switch k.Kind {
			case "identifier":
				id = k
				n++
			case "none":
				none = true
				n++
			case "is not":
				isNot = true
			default:
				n++
			}
		}
		if id != nil && isNot && none && n == 2 {
			p, ok := extra[id.Text()]
			return ok && p.def == "None"
		}
	}
	return false
}

// forwardsTo reports whether e is super().NAME(...) (awaited or not)
// passing each of base's parameters as fn received it.
func forwardsTo(e *treesit.Node, fn *funcInfo, fps []param, inBase map[string]param) bool {
	if e.Kind == "await" {
		if ks := e.NamedKids(); len(ks) == 1 {
			e = ks[0]
		}
	}
	if e.Kind != "call" {
		return false
	}
	f := e.Child("function")
	if f == nil || f.Kind != "attribute" || f.Child("attribute").Text() != fn.name {
		return false
	}
	obj := f.Child("object")
	if obj == nil || obj.Kind != "call" || obj.Child("function").Text() != "super" {
		return false
	}
	var positional []string
	for _, p := range fps {
		if _, ok := inBase[p.name]; ok && (p.kind == posOnly || p.kind == posKw) {
			positional = append(positional, p.name)
		}
	}
	seen := map[string]bool{}
	i := 0
	args := e.Child("arguments")
	if args == nil {
		return false
	}
	for _, a := range args.NamedKids() {
		switch a.Kind {
		case "identifier":
			if i >= len(positional) || a.Text() != positional[i] {
				return false
			}
			seen[a.Text()] = true
			i++
		case "keyword_argument":
			n, v := a.Child("name").Text(), a.Child("value")
			if v == nil || v.Kind != "identifier" || v.Text() != n {
				return false
			}
			if _, ok := inBase[n]; !ok {
				return false
			}
			seen[n] = true
		case "list_splat", "dictionary_splat":
			ks := a.NamedKids()
			if len(ks) != 1 || ks[0].Kind != "identifier" {
				return false
			}
			p, ok := inBase[ks[0].Text()]
			if !ok || a.Kind == "list_splat" && p.kind != varArgs || a.Kind == "dictionary_splat" && p.kind != varKw {
				return false
			}
			seen[p.name] = true
		default:
			return false
		}
	}
	for n := range inBase {
		if !seen[n] {
			return false
		}
	}
	return true
}

// returnsValue reports whether a function's own body returns a value or
// yields (nested functions and classes aside).
func returnsValue(fn *funcInfo) bool {
	found := false
	body := fn.node.Child("body")
	treesit.Walk(body, func(n *treesit.Node) bool {
		switch n.Kind {
		case "function_definition", "class_definition", "lambda":
			return false
		case "return_statement":
			if len(n.NamedKids()) > 0 {
				found = true
			}
		case "yield":
			found = true
		}
		return !found
	})
	return found
}
