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

// emptyDefaults are defaults that hold no element: a function that only
// tests, iterates or searches its parameter cannot tell them apart.
var emptyDefaults = map[string]bool{"[]": true, "()": true, "{}": true, "list()": true, "tuple()": true,
	"dict()": true, "set()": true, "frozenset()": true}

// sameEmptyDefaults returns old with the default of each parameter that
// went from one empty container to another (category_filter: List[str]
// = [] → Iterable[str] = ()) set to the new one, where the new function
// only reads the parameter in ways the two cannot be told apart by:
// calls relying on it behave as before (quart c6905c0abe).
func sameEmptyDefaults(old, new []param, fn *funcInfo) []param {
	var out []param
	for i, o := range old {
		for _, n := range new {
			if n.name != o.name || !o.hasDef || !n.hasDef || o.def == n.def || !emptyDefaults[o.def] || !emptyDefaults[n.def] {
				continue
			}
			if fn == nil || fn.node == nil || !onlyReadsElements(fn.node.Child("body"), n.name) {
				continue
			}
			if out == nil {
				out = append([]param(nil), old...)
			}
			out[i].def = n.def
		}
	}
	if out == nil {
		return old
	}
	return out
}

// elementReaders are the builtins whose result is the same for any empty
// container.
var elementReaders = map[string]bool{"len": true, "any": true, "all": true, "bool": true, "sorted": true,
	"list": true, "tuple": true, "set": true, "frozenset": true}

// onlyReadsElements reports whether every use of name in body tests its
// truth, iterates it, searches it (x in name) or passes it to a builtin
// that only reads its elements; nothing stores to it.
func onlyReadsElements(body *treesit.Node, name string) bool {
	ok := body != nil
	treesit.Walk(body, func(n *treesit.Node) bool {
		if !ok {
			return false
		}
		if n.Kind != "identifier" || n.Text() != name {
			return true
		}
		p := n.Parent
		if p == nil {
			ok = false
			return false
		}
		switch {
		case p.Kind == "attribute" && n.Field == "attribute", p.Kind == "keyword_argument" && n.Field == "name":
			// another object's attribute, a keyword's name
		case (p.Kind == "if_statement" || p.Kind == "elif_clause" || p.Kind == "while_statement") && n.Field == "condition":
		case p.Kind == "not_operator":
		case (p.Kind == "for_statement" || p.Kind == "for_in_clause") && n.Field == "right":
		case p.Kind == "comparison_operator" && (p.HasToken("in") || hasKid(p, "not in")) && len(p.NamedKids()) == 2 && p.NamedKids()[1] == n:
		case p.Kind == "argument_list" && len(p.NamedKids()) == 1 && p.Parent != nil && p.Parent.Kind == "call" &&
			elementReaders[p.Parent.Child("function").Text()]:
		default:
			ok = false
		}
		return false
	})
	return ok
}

func hasKid(n *treesit.Node, kind string) bool {
	for _, k := range n.Kids {
		if k.Kind == kind {
			return true
		}
	}
	return false
}
