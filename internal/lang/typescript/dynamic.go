package typescript

import (
	"fmt"
	"strings"

	"github.com/ripple-dev/ripple/internal/lang/treesit"
	"github.com/ripple-dev/ripple/internal/model"
)

// Dynamic imports. `import('./m')` loads a module when the code runs: a
// changed export of it is used through the value the import resolves to
// (`const m = await import('./m'); m.f()`, `const { f } = await
// import('./m')`, `import('./m').then((m) => m.f())`). Those uses may be
// impacted: the module is loaded lazily, often behind a condition, and
// its use is not checked where the import is written, so the syntax
// reports them as warnings, never errors (tsc, where it runs, judges
// them with types). An import whose value goes elsewhere (a lazy
// component, a registry) is a note at the import.

// dynamicRules are the judge's rules for dynamic imports (import() and
// require() of the target's module) and the uses of what they bind. They
// judge through the judge they extend, whose target, file and findings
// they share.
type dynamicRules struct{ *judge }

// dynamicImports judges the dynamic imports of the file whose module may
// pass on the target's declaration (exps: its export names).
func (j dynamicRules) dynamicImports(exps []string) {
	t := j.t
	if len(exps) == 0 || t.kind != tGone && t.kind != tCall {
		return
	}
	treesit.Walk(j.f.t.Root, func(n *treesit.Node) bool {
		if n.Bad {
			return false
		}
		if n.Kind != "call_expression" || n.Child("function").KindOr() != "import" {
			return true
		}
		as := n.Child("arguments").NamedKids()
		if len(as) == 0 || as[0].Kind != "string" {
			return true
		}
		spec := stringValue(as[0])
		mod := j.a.resolve(j.f.path, spec)
		if mod == "" || !j.a.mayReach(mod, t.path) || mod != t.path && !j.reaches(mod, exps) {
			return true
		}
		if !j.dynamicUses(n, spec, exps) {
			rel := model.CalledBy
			if t.kind == tGone {
				rel = model.ImportedBy
			}
			what := "changed: " + strings.Join(t.ch.Details, "; ")
			if t.kind == tGone {
				what = j.what()
			}
			j.emit(n, rel, model.MayFollow, model.PrecisionSyntax,
				fmt.Sprintf("imports %s dynamically, whose %s %s; the value it loads is not followed", spec, t.name, what))
		}
		return true
	})
}

// dynamicUses finds the uses of the target through the value of one
// dynamic import; false when that value is not bound where they could
// be followed.
func (j dynamicRules) dynamicUses(imp *treesit.Node, spec string, exps []string) bool {
	v := imp
	for v.Parent != nil && (v.Parent.Kind == "await_expression" || v.Parent.Kind == "parenthesized_expression") {
		v = v.Parent
	}
	p := v.Parent
	if p == nil {
		return false
	}
	switch {
	case p.Kind == "variable_declarator" && p.Child("value") == v:
		name := p.Child("name")
		switch name.KindOr() {
		case "identifier":
			j.namespaceUses(scopeOf(p), name.Text(), p, spec, exps)
			return true
		case "object_pattern":
			j.patternUses(name, scopeOf(p), p, spec, exps)
			return true
		}
	case p.Kind == "member_expression" && p.Child("object") == v && p.Child("property").Text() != "then":
		if contains(exps, p.Child("property").Text()) {
			j.dynamicUse(p, spec) // (await import('./m')).f
		}
		return true
	case p.Kind == "member_expression" && p.Child("object") == v:
		call := p.Parent
		if call.KindOr() != "call_expression" {
			return false
		}
		cbs := call.Child("arguments").NamedKids()
		if len(cbs) == 0 || !funcScope(cbs[0]) {
			return false
		}
		cb := cbs[0]
		var param *treesit.Node
		if ps := cb.Child("parameters"); ps != nil && len(ps.NamedKids()) > 0 {
			param = ps.NamedKids()[0]
			if pat := param.Child("pattern"); pat != nil {
				param = pat
			}
		} else if x := cb.Child("parameter"); x != nil {
			param = x
		}
		switch param.KindOr() {
		case "identifier":
			decl := lookupIn(cb, param.Text())
			j.namespaceUses(cb, param.Text(), decl, spec, exps)
			return true
		case "object_pattern":
			j.patternUses(param, cb, lookupIn(cb, firstBound(param)), spec, exps)
			return true
		}
	}
	return false
}

// scopeOf is the block or function a declaration's names are visible in.
func scopeOf(decl *treesit.Node) *treesit.Node {
	s := decl.Parent
	for s != nil && !funcScope(s) && s.Kind != "statement_block" && s.Kind != "program" {
		s = s.Parent
	}
	return s
}

// lookupIn is the declaration of a parameter of function fn.
func lookupIn(fn *treesit.Node, name string) *treesit.Node {
	d, _ := declaredIn(fn, name)
	return d
}

// firstBound is a name an object pattern binds (to find its parameter).
func firstBound(pat *treesit.Node) string {
	for _, k := range pat.NamedKids() {
		switch k.Kind {
		case "shorthand_property_identifier_pattern":
			return k.Text()
		case "pair_pattern":
			if v := k.Child("value"); v.KindOr() == "identifier" {
				return v.Text()
			}
		}
	}
	return ""
}

// namespaceUses reports ns.name for the target's export names, where ns
// is bound by decl.
func (j dynamicRules) namespaceUses(scope *treesit.Node, ns string, decl *treesit.Node, spec string, exps []string) {
	if scope == nil || decl == nil {
		return
	}
	treesit.Walk(scope, func(n *treesit.Node) bool {
		if n.Kind == "member_expression" {
			o := n.Child("object")
			if o.KindOr() == "identifier" && o.Text() == ns && contains(exps, n.Child("property").Text()) && lookup(o, ns) == decl {
				j.dynamicUse(n, spec)
				return false
			}
		}
		return true
	})
}

// patternUses reports the uses of the names an object pattern binds from
// the target's export names.
func (j dynamicRules) patternUses(pat, scope, decl *treesit.Node, spec string, exps []string) {
	if scope == nil || decl == nil {
		return
	}
	for _, k := range pat.NamedKids() {
		var key, local *treesit.Node
		switch k.Kind {
		case "shorthand_property_identifier_pattern":
			key, local = k, k
		case "pair_pattern":
			key, local = k.Child("key"), k.Child("value")
		}
		if key == nil || !contains(exps, key.Text()) {
			continue
		}
		if j.t.kind == tGone {
			j.dynamicUse(key, spec) // the pattern names what is gone
			continue
		}
		if local.KindOr() != "identifier" && local.Kind != "shorthand_property_identifier_pattern" {
			continue
		}
		name := local.Text()
		treesit.Walk(scope, func(n *treesit.Node) bool {
			if n.Kind == "identifier" && n.Text() == name && n != local && lookup(n, name) == decl {
				j.dynamicUse(n, spec)
			}
			return true
		})
	}
}

// dynamicUse judges one use of the target through a dynamic import: as
// a static use would be, but a warning at most.
func (j dynamicRules) dynamicUse(n *treesit.Node, spec string) {
	t := j.t
	k, call := refKindOf(n)
	start := len(j.out)
	switch t.kind {
	case tGone:
		rel, verb := goneRel(t, k)
		j.emit(n, rel, model.MayBeImpacted, model.PrecisionSyntax,
			fmt.Sprintf("%s %s of %s, imported dynamically, which %s", verb, t.name, spec, j.what()))
	case tCall:
		switch k {
		case rCall, rNew:
			j.call(n, call, model.CalledBy, model.PrecisionSyntax, false)
		case rValue:
			j.emit(n, model.CalledBy, model.MayBeImpacted, model.PrecisionSyntax,
				fmt.Sprintf("uses %s of %s, imported dynamically, as a value; its signature changed: %s", t.name, spec, strings.Join(t.ch.Details, "; ")))
		}
	}
	for _, r := range j.out[start:] {
		if r.Verdict == model.Inconsistent {
			r.Verdict = model.MayBeImpacted
			r.Message += " (imported dynamically from " + spec + ")"
		}
	}
}
