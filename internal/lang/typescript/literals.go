package typescript

import (
	"fmt"
	"sort"
	"strings"

	"github.com/ripple-dev/ripple/internal/lang/treesit"
	"github.com/ripple-dev/ripple/internal/model"
)

// Object literals: the type a literal is written for (literalType: an
// annotation, an assertion, an assignment, a return type), the keys it
// writes (objectKey), what an `as` assertion of one allows
// (assertionGap), and literals typed through a generic, below.
//
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

// literalRules judge the object literals written for the target's
// container without naming it: asserted with as (assertionGap), typed
// through a generic (genericLiteral) or a record of keys (recordLiteral),
// or the value of a property of another literal's type (nestedType).
// They judge through the judge they extend, whose target, file and
// findings they share.
type literalRules struct{ *judge }

// genericLiteral judges an object literal written in a generic context
// naming the target's container (genericContext).
func (j literalRules) genericLiteral(o *treesit.Node) {
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

// assertionGap compares an asserted object literal with the target's
// container as the head declares it (its own members; a container that
// extends others is not known whole): a required member the literal
// lacks, and a key it writes that the container lacks ("" when none).
// ok is false when the literal spreads or the container is not known.
func (j literalRules) assertionGap(o *treesit.Node) (lacks, excess string, ok bool) {
	t := j.t
	owner := t.d.owner()
	if owner == nil || owner.FirstOf("extends_type_clause") != nil {
		return "", "", false
	}
	required := map[string]bool{}
	treesit.Walk(owner, func(n *treesit.Node) bool {
		switch n.Kind {
		case "property_signature", "method_signature":
			if name := declName(n); name != "" {
				required[name] = !n.HasToken("?")
			}
			return false
		case "type_parameters":
			return false
		}
		return true
	})
	switch t.kind {
	case tGone:
		delete(required, t.name) // the owner read is the base's
	case tAdded:
		required[t.name] = true
	}
	keys := map[string]bool{}
	for _, k := range o.NamedKids() {
		switch k.Kind {
		case "pair":
			if kn := k.Child("key"); kn != nil {
				name := kn.Text()
				if kn.Kind == "string" {
					name = stringValue(kn)
				}
				keys[name] = true
			}
		case "shorthand_property_identifier":
			keys[k.Text()] = true
		case "method_definition":
			keys[declName(k)] = true
		case "spread_element":
			return "", "", false
		}
	}
	var ls, es []string
	for name, req := range required {
		if req && !keys[name] {
			ls = append(ls, name)
		}
	}
	for k := range keys {
		if _, ok := required[k]; !ok {
			es = append(es, k)
		}
	}
	sort.Strings(ls)
	sort.Strings(es)
	return strings.Join(ls, ", "), strings.Join(es, ", "), true
}

// asserted reports an object literal that is the operand of a type
// assertion (`{...} as T`, `<T>{...}`): TypeScript checks no missing or
// excess member there, unlike an annotation or `satisfies`.
func asserted(o *treesit.Node) bool {
	cur := o
	p := o.Parent
	for p != nil && p.Kind == "parenthesized_expression" {
		cur, p = p, p.Parent
	}
	if p == nil {
		return false
	}
	switch p.Kind {
	case "as_expression":
		ks := p.NamedKids()
		return len(ks) == 2 && ks[0] == cur
	case "type_assertion":
		return true
	}
	return false
}

// literalType is the type an object literal is written for, from its
// context: an annotated variable, `as`/`satisfies`, an assignment to a
// variable or a field of a known type, a return statement of a function
// with a declared return type, an element pushed into an array of a
// declared element type; a property of an annotated parent is not
// followed. "" when unknown.
func literalType(o *treesit.Node) string { return unqualified(qualifiedLiteralType(o)) }

// qualifiedLiteralType is literalType with a namespace's qualifier kept
// where the type is written with one (`const fixed: price.Item = {...}`
// of `import * as price`).
func qualifiedLiteralType(o *treesit.Node) string {
	p := o.Parent
	for p != nil && p.Kind == "parenthesized_expression" {
		p = p.Parent
	}
	if p == nil {
		return ""
	}
	switch p.Kind {
	case "variable_declarator":
		if t := p.Child("type"); t != nil {
			return qualifiedTypeName(t.Text())
		}
	case "public_field_definition", "required_parameter", "optional_parameter":
		// a class property's initializer, a parameter's default value
		if t := p.Child("type"); t != nil && treesit.Unparen(p.Child("value")) == o {
			return qualifiedTypeName(t.Text())
		}
	case "satisfies_expression", "as_expression":
		ks := p.NamedKids()
		if len(ks) == 2 {
			return qualifiedTypeName(ks[1].Text())
		}
	case "assignment_expression":
		// x = {...}: the type x was declared with (or asserted to)
		if treesit.Unparen(p.Child("right")) == o {
			return exprType(p.Child("left"))
		}
	case "return_statement":
		for q := p.Parent; q != nil; q = q.Parent {
			if funcScope(q) {
				if r := q.Child("return_type"); r != nil {
					return qualifiedTypeName(r.Text())
				}
				return ""
			}
		}
	case "arrow_function":
		if r := p.Child("return_type"); r != nil && p.Child("body") == o {
			return qualifiedTypeName(r.Text())
		}
	case "arguments":
		// xs.push({...}), xs.unshift({...}): an element of the array's
		// declared element type (`items: Item[]`, `Array<price.Item>`)
		call := p.Parent
		if call == nil || call.Kind != "call_expression" {
			return ""
		}
		fn := treesit.Unparen(call.Child("function"))
		if fn == nil || fn.Kind != "member_expression" {
			return ""
		}
		if m := fn.Child("property").Text(); m != "push" && m != "unshift" {
			return ""
		}
		return qualifiedTypeName(elementType(declaredTypeText(fn.Child("object"))))
	}
	return ""
}

// declaredTypeText is the annotation an expression's value is declared
// with, as written: `this.x` of an annotated property, a variable or
// parameter annotated; "" when unknown.
func declaredTypeText(n *treesit.Node) string {
	n = treesit.Unparen(n)
	if n == nil {
		return ""
	}
	var t *treesit.Node
	switch n.Kind {
	case "member_expression":
		if o := n.Child("object"); o != nil && o.Kind == "this" {
			if c := enclosingClass(n); c != nil {
				if m := classMember(c, n.Child("property").Text()); m != nil {
					t = m.Child("type")
				}
			}
		}
	case "identifier":
		if d := lookup(n, n.Text()); d != nil {
			switch d.Kind {
			case "required_parameter", "optional_parameter":
				if pat := d.Child("pattern"); pat != nil && pat.Kind == "identifier" {
					t = d.Child("type")
				}
			case "variable_declarator":
				if d.Child("name").Kind == "identifier" {
					t = d.Child("type")
				}
			}
		}
	}
	if t == nil {
		return ""
	}
	return strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(t.Text()), ":"))
}

// elementType is the element type of an array type as written: Item of
// `Item[]`, `readonly Item[]`, `Array<Item>`, `ReadonlyArray<Item>`; ""
// for anything else (a union of arrays, an array of arrays is not
// followed).
func elementType(t string) string {
	t = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(t), "readonly "))
	switch {
	case strings.HasSuffix(t, "[]"):
		t = strings.TrimSpace(strings.TrimSuffix(t, "[]"))
	case strings.HasPrefix(t, "Array<") && strings.HasSuffix(t, ">"):
		t = t[len("Array<") : len(t)-1]
	case strings.HasPrefix(t, "ReadonlyArray<") && strings.HasSuffix(t, ">"):
		t = t[len("ReadonlyArray<") : len(t)-1]
	default:
		return ""
	}
	if strings.ContainsAny(t, "[]|&(){}") {
		return ""
	}
	return strings.TrimSpace(t)
}

// objectKey reports whether an object literal writes key name, and
// whether it spreads another object.
func objectKey(o *treesit.Node, name string) (has, spread bool) {
	for _, k := range o.NamedKids() {
		switch k.Kind {
		case "pair":
			kn := k.Child("key")
			if kn != nil && (kn.Text() == name || stringValue(kn) == name && kn.Kind == "string") {
				has = true
			}
		case "shorthand_property_identifier", "method_definition":
			if k.Kind == "shorthand_property_identifier" && k.Text() == name || k.Kind == "method_definition" && declName(k) == name {
				has = true
			}
		case "spread_element":
			spread = true
		}
	}
	return has, spread
}
