package typescript

import (
	"fmt"
	"strings"

	"github.com/ripple-dev/ripple/internal/lang/treesit"
	"github.com/ripple-dev/ripple/internal/model"
)

// Interface bases and records keyed by an interface's keys.
//
// A member deleted from an interface is still one of its members when a
// base it extends in the head state declares it (the member moved up:
// trpc's '~types' went to TypeHelper): nothing that uses it is broken.
//
// An object literal written for Record<keyof I, V> (or Partial<...>, or
// a union of keyof types, or an alias of one) has I's member names as
// its keys: one writing the key of a member I lost specifies an unknown
// property (an error, unless another part of the key union still has
// it), and one lacking the key of a member I gained lacks a required
// property of a Record (not of a Partial one).

// ifaceNode finds the interface declaration a name denotes in file f:
// declared there, or imported from a repository module.
func (a *analyzer) ifaceNode(f *tsfile, name string) (*tsfile, *treesit.Node) {
	o, ok := a.declOrigin(f, name)
	if !ok {
		return nil, nil
	}
	of := a.file(o.path)
	if of == nil {
		return nil, nil
	}
	for _, st := range of.t.Root.Kids {
		x := st
		if x.Kind == "export_statement" {
			if d := x.Child("declaration"); d != nil {
				x = d
			}
		}
		if x.Kind == "interface_declaration" && x.Child("name").Text() == o.local {
			return of, x
		}
	}
	return nil, nil
}

// ifaceHas says whether interface name of file f has member: declared
// in its body or in one of its bases (extends, followed through the
// repository). known is false when a base could not be read.
func (a *analyzer) ifaceHas(f *tsfile, name, member string, depth int) (has, known bool) {
	if depth > 8 {
		return false, false
	}
	of, n := a.ifaceNode(f, name)
	if n == nil {
		return false, false
	}
	if bodyMember(n.Child("body"), member) != nil {
		return true, true
	}
	known = true
	for _, b := range extendedTypes(n) {
		h, ok := a.baseHas(of, b, member, depth+1)
		if h {
			return true, true
		}
		known = known && ok
	}
	return false, known
}

// extendedTypes are the types an interface declaration extends.
func extendedTypes(n *treesit.Node) []*treesit.Node {
	var out []*treesit.Node
	for _, k := range n.NamedKids() {
		if k.Kind == "extends_type_clause" {
			out = append(out, k.NamedKids()...)
		}
	}
	return out
}

// baseHas says whether the type an interface extends, written as b in
// file f, has member: an interface of the repository (ifaceHas), or one
// seen through the utility types that keep or pick its members
// (Required, Partial, Readonly, NonNullable: every member; Pick and Omit
// with literal keys: those picked, those not omitted). known is false
// for any other type (a mapped or conditional type, an intersection, a
// package's), whose members the syntax cannot list.
func (a *analyzer) baseHas(f *tsfile, b *treesit.Node, member string, depth int) (has, known bool) {
	if depth > 8 {
		return false, false
	}
	if b.Kind != "generic_type" {
		return a.ifaceHas(f, typeName(b.Text()), member, depth)
	}
	var args []*treesit.Node
	if ta := b.Child("type_arguments"); ta != nil {
		args = ta.NamedKids()
	}
	name := ""
	if nm := b.Child("name"); nm != nil {
		name = nm.Text()
	}
	switch {
	case len(args) == 1 && (name == "Required" || name == "Partial" || name == "Readonly" || name == "NonNullable"):
		return a.baseHas(f, args[0], member, depth+1)
	case len(args) == 2 && (name == "Pick" || name == "Omit"):
		keys, ok := literalKeys(args[1])
		if !ok {
			return false, false
		}
		if keys[member] != (name == "Pick") {
			return false, true // not picked, or omitted
		}
		return a.baseHas(f, args[0], member, depth+1)
	}
	return false, false
}

// literalKeys reads a union of string literal types ('a' | "b"); ok is
// false for anything else (keyof T, a type parameter).
func literalKeys(n *treesit.Node) (map[string]bool, bool) {
	keys := map[string]bool{}
	var read func(x *treesit.Node) bool
	read = func(x *treesit.Node) bool {
		switch x.Kind {
		case "union_type", "parenthesized_type":
			for _, k := range x.NamedKids() {
				if !read(k) {
					return false
				}
			}
			return true
		case "literal_type":
			if s := x.FirstOf("string"); s != nil {
				keys[strings.Trim(s.Text(), `"'`)] = true
				return true
			}
		}
		return false
	}
	return keys, read(n)
}

// stillInherited reports a member deleted from an interface (not
// renamed) that a base of the interface declares in the head state.
func (j *judge) stillInherited() bool {
	t := j.t
	c := t.ch
	if t.kind != tGone || c.Derived || c.Old == nil || c.Old.Container == "" {
		return false
	}
	if v, ok := j.a.inherits[c]; ok {
		return v
	}
	v := false
	if f := j.a.file(t.path); f != nil {
		if _, n := j.a.ifaceNode(f, c.Old.Container); n != nil {
			for _, b := range extendedTypes(n) {
				if h, _ := j.a.baseHas(f, b, t.name, 1); h {
					v = true
				}
			}
		}
	}
	if j.a.inherits == nil {
		j.a.inherits = map[*model.Change]bool{}
	}
	j.a.inherits[c] = v
	return v
}

// recordOfKeys reads the annotation of a literal written for a record
// keyed by the target container's keys: whether it is one, whether its
// keys are optional (Partial), and the other parts of its key union.
func (f *tsfile) recordOfKeys(ann string, locals map[string]bool) (ok, partial bool, others []string) {
	t := strings.TrimSpace(ann)
	for depth := 0; depth < 3; depth++ {
		head, args := splitGeneric(t)
		switch lastSegment(head) {
		case "Partial":
			partial = true
			fallthrough
		case "Readonly":
			if len(args) != 1 {
				return false, false, nil
			}
			t = strings.TrimSpace(args[0])
			continue
		case "Record":
			if len(args) != 2 {
				return false, false, nil
			}
			found := false
			for _, k := range f.keyParts(args[0], 0) {
				if strings.HasPrefix(k, "keyof ") && locals[typeName(strings.TrimPrefix(k, "keyof "))] {
					found = true
				} else {
					others = append(others, k)
				}
			}
			return found, partial, others
		}
		return false, false, nil
	}
	return false, false, nil
}

// keyParts splits a key type into its union parts, through the type
// aliases the file declares.
func (f *tsfile) keyParts(k string, depth int) []string {
	var out []string
	for _, p := range splitTop(k, '|') {
		p = strings.TrimSpace(p)
		if p == "" {
			continue
		}
		if depth < 4 && !strings.ContainsAny(p, " '\"<") {
			if v := f.aliasValue(p); v != "" {
				out = append(out, f.keyParts(v, depth+1)...)
				continue
			}
		}
		out = append(out, p)
	}
	return out
}

// aliasValue is the value of a type alias the file declares, "".
func (f *tsfile) aliasValue(name string) string {
	for _, st := range f.t.Root.Kids {
		x := st
		if x.Kind == "export_statement" {
			if d := x.Child("declaration"); d != nil {
				x = d
			}
		}
		if x.Kind == "type_alias_declaration" && x.Child("name").Text() == name {
			if v := x.Child("value"); v != nil {
				return treesit.Compact(v)
			}
		}
	}
	return ""
}

// literalAnnotation is the annotation an object literal is written for
// (a declaration's type, `as`/`satisfies`, a function's declared return
// type), as written; "" when unknown.
func literalAnnotation(o *treesit.Node) string {
	p := o.Parent
	for p != nil && p.Kind == "parenthesized_expression" {
		p = p.Parent
	}
	if p == nil {
		return ""
	}
	trim := func(n *treesit.Node) string {
		return strings.TrimSpace(strings.TrimPrefix(treesit.Compact(n), ":"))
	}
	switch p.Kind {
	case "variable_declarator":
		if t := p.Child("type"); t != nil && p.Child("value") == o {
			return trim(t)
		}
	case "satisfies_expression", "as_expression":
		if ks := p.NamedKids(); len(ks) == 2 && ks[0] == o {
			return trim(ks[1])
		}
	case "return_statement":
		for q := p.Parent; q != nil; q = q.Parent {
			if funcScope(q) {
				if r := q.Child("return_type"); r != nil {
					return trim(r)
				}
				return ""
			}
		}
	}
	return ""
}

// recordLiteral judges an object literal written for a record keyed by
// the container's keys (recordOfKeys).
func (j literalRules) recordLiteral(o *treesit.Node, ann string, partial bool, others []string) {
	t := j.t
	has, spread := objectKey(o, t.name)
	switch {
	case t.kind == tGone && has:
		// another part of the key union may still have the key
		v := model.Inconsistent
		for _, k := range others {
			switch {
			case strings.Trim(k, `'"`) == t.name:
				return
			case strings.HasPrefix(k, "keyof "):
				h, known := j.a.ifaceHas(j.f, typeName(strings.TrimPrefix(k, "keyof ")), t.name, 0)
				if h {
					return
				}
				if !known {
					v = model.MayBeImpacted
				}
			default:
				v = model.MayBeImpacted // a key type not read
			}
		}
		msg := fmt.Sprintf("writes key %s of a %s, which %s no longer has (%s %s)", t.name, ann, t.container, t.display(), j.what())
		if v == model.Inconsistent {
			msg += ": an object literal may only specify known properties"
		}
		j.emit(o, model.InstantiatedBy, v, model.PrecisionSyntax, msg)
		if v == model.Inconsistent {
			j.withFix(j.fx.renameKey(literalKey(o, t.name)))
		}
	case t.kind == tAdded && !has && !partial && !spread:
		j.emit(o, model.InstantiatedBy, model.Inconsistent, model.PrecisionSyntax,
			fmt.Sprintf("builds a %s without key %s: %s %s", ann, t.name, t.display(), j.addedWhat()))
	}
}
