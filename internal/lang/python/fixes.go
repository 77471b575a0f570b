package python

import (
	"fmt"
	"strings"

	"github.com/ripple-dev/ripple/internal/lang"
	"github.com/ripple-dev/ripple/internal/lang/treesit"
	"github.com/ripple-dev/ripple/internal/model"
)

// Mechanical fixes: the edit of a site that the seed alone decides, made
// without a model (internal/fix applies them first). Python has two:
//
//   - a renamed function, class, method or attribute: the name as written
//     at the site becomes the new name (an alias's own name is kept), and
//     an override of a renamed method is renamed with it;
//   - a call of a changed signature whose arguments still bound to the
//     old parameters: the argument list is rebuilt for the new ones. A
//     removed parameter's argument is dropped, arguments follow their
//     parameters to their new places, a parameter renamed in place takes
//     its keyword along, and an added parameter without a default gets
//     the expression the developer gave for it (param_defaults), else
//     there is no fix.
//
// A fix is offered only when the result is certain to bind the way the
// old call did: no *args or **kwargs at the call, no argument that the
// old signature's *args or **kwargs absorbed, no comment inside the
// argument list, and the whole list on one line (a multi-line call is
// left to the model rather than reflowed).

// fixFor returns the mechanical fix of a site, or nil; defaults are the
// developer's expressions for added parameters (param_defaults).
func fixFor(defaults map[string]string, t *target, x *ref, at *treesit.Node) *model.Fix {
	if t.ch == nil || t.ch.Derived {
		return nil
	}
	switch {
	case t.deleted && t.ch.Renamed():
		return renameFix(t, x, at)
	case t.ch.Label == model.MMS && x.call != nil && x.call.Kind == "call" && t.od != nil && t.nd != nil && t.od.fn != nil && t.nd.fn != nil:
		return argsFix(defaults, t, x)
	}
	return nil
}

func renameFix(t *target, x *ref, at *treesit.Node) *model.Fix {
	oldName, newName := t.ch.Old.Name, t.ch.New.Name
	switch x.kind {
	case rName, rAttr, rImport, rOverride, rClassAttr:
	default:
		return nil
	}
	if at == nil || at.Text() != oldName || x.name != x.orig && x.kind != rImport {
		return nil
	}
	return &model.Fix{
		Description: fmt.Sprintf("rename %s to %s", oldName, newName),
		Edits:       []model.TextEdit{editOf(x.f, at, newName)},
	}
}

// argsFix rewrites a call's argument list for the new signature when
// that is mechanical: each argument kept for the parameter it bound to
// (renamed in place, when its type did not change), dropped with its
// parameter, a configured default passed for a new required one, in the
// new order.
func argsFix(defaults map[string]string, t *target, x *ref) *model.Fix {
	of, nf := t.od.fn, t.nd.fn
	if of.property || nf.property || of.async != nf.async {
		return nil
	}
	bound := boundCall(t, x)
	ops, nps := paramsFor(of, bound), paramsFor(nf, bound)
	argsN := x.call.Child("arguments")
	if argsN == nil || argsN.Kind != "argument_list" || argsN.Line != argsN.EndLine || strings.Contains(argsN.Text(), "#") {
		return nil
	}
	posVals, kwVals, kwOrder, ok := argumentTexts(argsN)
	if !ok {
		return nil
	}
	a := argsOf(x.call)
	ob := bind(ops, a, shortName(t))
	if ob.err != "" {
		return nil
	}
	oldVal, ok := argsByOldParam(ops, ob, posVals, kwVals, kwOrder)
	if !ok {
		return nil
	}
	inNew := map[string]bool{}
	for _, p := range nps {
		inNew[p.name] = true
	}
	from, ok := renamedInPlace(ops, nps, oldVal, inNew)
	if !ok {
		return nil
	}
	var out []string
	positional := true // still writing positional arguments
	var added []string
	for _, p := range nps {
		src := p.name
		if o, ok := from[p.name]; ok {
			src = o
		}
		val, had := oldVal[src]
		wasPos := false
		if had {
			_, wasPos = ob.positional[src]
		}
		switch p.kind {
		case varArgs, varKw:
			continue
		}
		if !had {
			if p.hasDef {
				positional = false // later arguments must name their parameter
				continue
			}
			expr, ok := defaults[p.name]
			if !ok {
				return nil
			}
			val, wasPos = expr, p.kind != kwOnly
			added = append(added, p.name)
		}
		switch {
		case positional && wasPos && p.kind != kwOnly:
			out = append(out, val)
		case p.kind == posOnly:
			return nil // cannot be named, and cannot be placed
		default:
			positional = false
			out = append(out, p.name+"="+val)
		}
	}
	text := "(" + strings.Join(out, ", ") + ")"
	if text == argsN.Text() {
		return nil
	}
	var what []string
	for _, p := range ops {
		if _, ok := oldVal[p.name]; ok && !inNew[p.name] && !renamedTo(from, p.name) {
			what = append(what, "drop "+p.name)
		}
	}
	for _, n := range added {
		what = append(what, "pass "+n+"="+defaults[n])
	}
	if len(what) == 0 {
		what = append(what, "follow the new parameter order")
	}
	return &model.Fix{
		Description: "call " + shortName(t) + ": " + strings.Join(what, ", "),
		Edits:       []model.TextEdit{editOf(x.f, argsN, text)},
	}
}

// argumentTexts returns the source of a call's arguments: the positional
// ones in order, and the keyword ones by name with their order. It
// reports false for a list it does not rewrite: one with a splat or a
// comment, or a positional argument after a keyword one (not valid
// Python).
func argumentTexts(argsN *treesit.Node) (posVals []string, kwVals map[string]string, kwOrder []string, ok bool) {
	kwVals = map[string]string{}
	for _, k := range argsN.NamedKids() {
		switch k.Kind {
		case "list_splat", "parenthesized_list_splat", "dictionary_splat", "comment":
			return nil, nil, nil, false
		case "keyword_argument":
			name := k.Child("name").Text()
			kwVals[name] = k.Child("value").Text()
			kwOrder = append(kwOrder, name)
		default:
			if len(kwOrder) > 0 {
				return nil, nil, nil, false // not valid Python; leave it
			}
			posVals = append(posVals, k.Text())
		}
	}
	return posVals, kwVals, kwOrder, true
}

// argsByOldParam maps each old parameter the call passed to its
// argument's source, from the call's binding to the old parameters (ob).
// It reports false when *args or **kwargs absorbed an argument, which no
// rewrite can place.
func argsByOldParam(ops []param, ob bindResult, posVals []string, kwVals map[string]string, kwOrder []string) (map[string]string, bool) {
	oldVal := map[string]string{} // old parameter -> argument source
	byOld := map[string]param{}
	for _, p := range ops {
		byOld[p.name] = p
	}
	for name, i := range ob.positional {
		oldVal[name] = posVals[i]
	}
	if len(ob.positional) != len(posVals) {
		return nil, false // *args absorbed some
	}
	for _, k := range kwOrder {
		if _, ok := byOld[k]; !ok || byOld[k].kind == varKw {
			return nil, false // **kwargs absorbed it
		}
		oldVal[k] = kwVals[k]
	}
	return oldVal, true
}

// renamedInPlace returns the parameters renamed in place (new name -> old
// name), whose arguments are kept. A parameter renamed in place keeps its
// argument, when its type did not change with its name: a value written
// for the old type is not determined to fit the new one (settings: dict
// -> config: int), and dropping it for the new parameter's default would
// change what the call does, so neither is mechanical: it reports false
// when the call passed such a parameter.
func renamedInPlace(ops, nps []param, oldVal map[string]string, inNew map[string]bool) (map[string]string, bool) {
	inOld := map[string]bool{}
	for _, p := range ops {
		inOld[p.name] = true
	}
	from := map[string]string{} // new name -> old name
	for i := 0; i < len(ops) && i < len(nps); i++ {
		if ops[i].kind == nps[i].kind && ops[i].name != nps[i].name && !inNew[ops[i].name] && !inOld[nps[i].name] {
			if ops[i].annot != nps[i].annot {
				if _, passed := oldVal[ops[i].name]; passed {
					return nil, false
				}
				continue
			}
			from[nps[i].name] = ops[i].name
		}
	}
	return from, true
}

func renamedTo(from map[string]string, old string) bool {
	for _, o := range from {
		if o == old {
			return true
		}
	}
	return false
}

// editOf replaces node n's source in file f with text.
func editOf(f *pfile, n *treesit.Node, text string) model.TextEdit {
	return lang.EditBytes(f.path, f.t.Src, int(n.Start), int(n.End), text)
}
