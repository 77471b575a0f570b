package typescript

import (
	"fmt"

	"github.com/ripple-dev/ripple/internal/lang/treesit"
	"github.com/ripple-dev/ripple/internal/model"
)

// Object literals typed through a generic. A literal whose own context
// names no type may still be written for an interface that its context
// passes as a type argument:
//
//	reactive<VitestClient>({ ws, state, waitForConnection })
//	useUrlSearchParams<Params>('hash', { initialValue: { file: '', view: null } })
//	{ data: { connId: 0 } } as BunServerWebSocket<BunWebSocketData>
//
// Without a type checker which of the nested literals is the interface
// is unknown, so these are warnings: a literal that writes a deleted
// member, or that writes most of the interface's members but not one
// added as required.

// genericContext reports whether object literal o is written, directly
// or nested in other literals and arrays, as an argument of a call whose
// type arguments name one of the local names, under an `as`/`satisfies`
// or an annotation that names one inside a generic type.
func genericContext(o *treesit.Node, locals map[string]bool) bool {
	cur := o
	for depth := 0; depth < 6; depth++ {
		p := cur.Parent
		if p == nil {
			return false
		}
		switch p.Kind {
		case "parenthesized_expression", "object", "array":
			cur = p
			continue
		case "pair":
			if p.Child("value") != cur {
				return false
			}
			cur = p
			continue
		case "arguments":
			call := p.Parent
			if call == nil || call.Kind != "call_expression" && call.Kind != "new_expression" {
				return false
			}
			return namesInside(call.Child("type_arguments"), locals)
		case "as_expression", "satisfies_expression":
			ks := p.NamedKids()
			return len(ks) == 2 && ks[0] == cur && namesInside(ks[1], locals)
		case "variable_declarator":
			return p.Child("value") == cur && namesInside(p.Child("type"), locals)
		}
		return false
	}
	return false
}

// namesInside reports whether a type node mentions one of the names as a
// type argument or a part of a compound type (not as the whole type,
// which literalType reads).
func namesInside(t *treesit.Node, locals map[string]bool) bool {
	if t == nil {
		return false
	}
	found := false
	treesit.Walk(t, func(n *treesit.Node) bool {
		if n.Kind == "type_identifier" && locals[n.Text()] && n != t && !(n.Parent == t && t.Kind == "type_annotation") {
			found = true
		}
		return !found
	})
	return found
}

// ownMembers are the member names an interface or object type alias
// declares itself.
func ownMembers(owner *treesit.Node) []string {
	var out []string
	treesit.Walk(owner, func(n *treesit.Node) bool {
		switch n.Kind {
		case "property_signature", "method_signature":
			if declName(n) != "" {
				out = append(out, declName(n))
			}
			return false
		case "extends_type_clause", "type_parameters":
			return false
		}
		return true
	})
	return out
}

// genericLiteral judges an object literal written in a generic context
// naming the target's container (genericContext).
func (j *judge) genericLiteral(o *treesit.Node) {
	t := j.t
	has, spread := objectKey(o, t.name)
	switch {
	case t.kind == tGone && has:
		j.emit(o, model.InstantiatedBy, model.MayBeImpacted, model.PrecisionName,
			fmt.Sprintf("writes %s in an object literal that may be a %s (a type argument of its context); %s %s", t.name, t.container, t.display(), j.what()))
	case t.kind == tAdded && !has && !spread:
		owner := t.d.owner()
		if owner == nil {
			return
		}
		n, of := 0, 0
		for _, m := range ownMembers(owner) {
			if m == t.name {
				continue
			}
			of++
			if k, _ := objectKey(o, m); k {
				n++
			}
		}
		if of == 0 || n*2 < of || n < 2 {
			return // it does not look like one
		}
		j.emit(o, model.InstantiatedBy, model.MayBeImpacted, model.PrecisionName,
			fmt.Sprintf("builds an object like a %s (%d of its %d other members; a type argument of its context) without %s, which %s", t.container, n, of, t.name, j.addedWhat()))
	}
}
