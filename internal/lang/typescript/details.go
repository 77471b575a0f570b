package typescript

import (
	"fmt"
	"strings"

	"github.com/ripple-dev/ripple/internal/lang"
	"github.com/ripple-dev/ripple/internal/lang/treesit"
)

// Details explains a change between two states of a declaration in
// TypeScript terms.
func (*Frontend) Details(old, new *lang.Decl) []string {
	od, nd, ok := lang.DataOf[*declData](old, new)
	if !ok {
		return nil
	}
	var out []string
	if od.kind != nd.kind {
		out = append(out, fmt.Sprintf("now %s (was %s)", article(kindWord(nd.kind)), article(kindWord(od.kind))))
	}
	if od.exported && !nd.exported {
		out = append(out, "no longer exported")
	}
	if od.optional != nd.optional {
		if nd.optional {
			out = append(out, "now optional")
		} else {
			out = append(out, "now required")
		}
	}
	if od.static != nd.static {
		if nd.static {
			out = append(out, "now static")
		} else {
			out = append(out, "no longer static")
		}
	}
	if !od.private && nd.private {
		out = append(out, "now private")
	}
	if od.fn != nil && nd.fn != nil {
		out = append(out, sigDetails(od.fn, nd.fn)...)
		if len(od.overloads) != len(nd.overloads) {
			out = append(out, fmt.Sprintf("overloads %d → %d", len(od.overloads)+1, len(nd.overloads)+1))
		}
	}
	if od.typ != nd.typ && (od.kind == dField || od.kind == dIMember || od.kind == dVar || od.kind == dFunc) {
		out = append(out, fmt.Sprintf("type %s → %s", orNone(od.typ), orNone(nd.typ)))
	}
	if strings.Join(od.heritage, ",") != strings.Join(nd.heritage, ",") {
		out = append(out, fmt.Sprintf("heritage %s → %s", orNone(strings.Join(od.heritage, ", ")), orNone(strings.Join(nd.heritage, ", "))))
	}
	if len(out) == 0 && od.kind == dType {
		out = append(out, "type changed")
	}
	if len(out) == 0 && od.kind == dEnumMember {
		out = append(out, "value changed")
	}
	return out
}

func orNone(s string) string {
	if s == "" {
		return "none"
	}
	return s
}

// paramMap pairs the parameters of two signatures: by name, and a
// parameter renamed in place (same position, neither name on the other
// side) with itself.
func paramMap(o, n *sig) (newOf map[int]int) {
	newOf = map[int]int{}
	on, nn := map[string]int{}, map[string]int{}
	for i, p := range o.params {
		on[p.name] = i
	}
	for i, p := range n.params {
		nn[p.name] = i
	}
	for i, p := range o.params {
		if j, ok := nn[p.name]; ok {
			newOf[i] = j
		} else if i < len(n.params) {
			if _, taken := on[n.params[i].name]; !taken && n.params[i].rest == p.rest {
				newOf[i] = i // renamed in place
			}
		}
	}
	return newOf
}

// sigDetails lists what changed between two signatures.
func sigDetails(o, n *sig) []string {
	var out []string
	newOf := paramMap(o, n)
	oldOf := map[int]int{}
	for i, j := range newOf {
		oldOf[j] = i
	}
	for i, p := range o.params {
		if _, ok := newOf[i]; !ok {
			out = append(out, "parameter "+p.name+" removed")
		}
	}
	for j, p := range n.params {
		i, ok := oldOf[j]
		if !ok {
			switch {
			case p.rest:
				out = append(out, "rest parameter "+p.name+" added")
			case p.optional:
				out = append(out, "optional parameter "+p.name+" added")
			default:
				out = append(out, "required parameter "+p.name+" added")
			}
			continue
		}
		op := o.params[i]
		if op.optional && !p.optional && !p.rest {
			out = append(out, "parameter "+p.name+" now required")
		}
		if !op.optional && p.optional {
			out = append(out, "parameter "+p.name+" now optional")
		}
		if op.rest != p.rest {
			if p.rest {
				out = append(out, "parameter "+p.name+" now a rest parameter")
			} else {
				out = append(out, "parameter "+p.name+" no longer a rest parameter")
			}
		}
		if op.typ != p.typ {
			out = append(out, fmt.Sprintf("type of %s: %s → %s", p.name, orNone(op.typ), orNone(p.typ)))
		}
		if op.def != p.def && op.def != "" && p.def != "" {
			out = append(out, fmt.Sprintf("default of %s: %s → %s", p.name, op.def, p.def))
		}
		if op.prop != p.prop {
			out = append(out, fmt.Sprintf("parameter property %s: %s → %s", p.name, orNone(op.prop), orNone(p.prop)))
		}
	}
	if reordered(o, n, newOf) {
		out = append(out, "parameters reordered")
	}
	if o.ret != n.ret {
		out = append(out, fmt.Sprintf("return type %s → %s", orNone(o.ret), orNone(n.ret)))
	}
	if o.typeParams != n.typeParams {
		out = append(out, fmt.Sprintf("type parameters %s → %s", orNone(o.typeParams), orNone(n.typeParams)))
	}
	if o.async != n.async {
		if n.async {
			out = append(out, "now async")
		} else {
			out = append(out, "no longer async")
		}
	}
	return out
}

// reordered reports kept parameters whose relative order changed.
func reordered(o, n *sig, newOf map[int]int) bool {
	last := -1
	for i := range o.params {
		j, ok := newOf[i]
		if !ok {
			continue
		}
		if j < last {
			return true
		}
		last = j
	}
	return false
}

// Escapes says how a body change reaches callers: TypeScript has no
// checked exceptions and a body is opaque to a syntactic reading, so a
// changed return statement or throw is what callers may see.
func (*Frontend) Escapes(old, new *lang.Decl, oldChanged, newChanged func(from, to int) bool) []string {
	nd, _ := new.Data.(*declData)
	if nd == nil || nd.fn == nil {
		return nil
	}
	set := map[string]bool{}
	body := bodyOf(nd.node)
	treesit.Walk(body, func(n *treesit.Node) bool {
		if n != body && functionLike(n.Kind) {
			return false
		}
		switch n.Kind {
		case "return_statement":
			if newChanged(int(n.Line), int(n.EndLine)) {
				set["return values"] = true
			}
		case "throw_statement":
			if newChanged(int(n.Line), int(n.EndLine)) {
				set["errors"] = true
			}
		}
		return true
	})
	if body != nil && body.Kind != "statement_block" && newChanged(int(body.Line), int(body.EndLine)) {
		set["return values"] = true // an expression-bodied arrow
	}
	var out []string
	for _, k := range []string{"return values", "errors"} {
		if set[k] {
			out = append(out, k)
		}
	}
	return out
}

// article puts "a" or "an" before a word.
func article(w string) string {
	if w != "" && strings.ContainsRune("aeiou", rune(w[0])) {
		return "an " + w
	}
	return "a " + w
}
