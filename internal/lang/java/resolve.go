package java

import (
	"strings"

	"github.com/ripple-dev/ripple/internal/lang/treesit"
)

// rstate is how far a name or an expression's type was resolved.
type rstate int

const (
	// unknown: the syntax does not say (a lambda parameter, var, a
	// call's result outside what the index knows).
	unknown rstate = iota
	// outside: a type that the repository does not declare (the JDK, a
	// dependency): it cannot be, nor derive from, a repository type.
	outside
	// known: a type of the repository.
	known
)

// rtype is a resolved type: the repository's type when known, and
// whether the expression names the type itself (a static receiver)
// rather than a value of it.
type rtype struct {
	state  rstate
	t      *jtype
	static bool
	why    string // what was not established, for unknown
}

// resolveType resolves a type name written in file f inside type scope
// (nil: at top level).
func (ix *index) resolveType(f *jfile, scope *jtype, name string) rtype {
	name = baseName(name)
	if name == "" || name == "var" {
		return rtype{state: unknown, why: "the type is inferred"}
	}
	first, rest, dotted := strings.Cut(name, ".")
	t := ix.resolveSimple(f, scope, first)
	if t == nil {
		if !dotted {
			return rtype{state: outside}
		}
		// a qualified name: package.Type...
		if t := ix.typeByFQN(name, f); t != nil {
			return rtype{state: known, t: t}
		}
		return rtype{state: outside}
	}
	if dotted {
		if t = t.file.typeByQual(t.qual + "." + rest); t == nil {
			return rtype{state: outside}
		}
	}
	return rtype{state: known, t: t}
}

// resolveSimple finds the repository type a simple type name means in f:
// a type of the file visible from scope (nested in scope or an enclosing
// type, or top-level), a single-type import, the file's package, or a
// wildcard import, in Java's order; nil when the repository has none.
func (ix *index) resolveSimple(f *jfile, scope *jtype, name string) *jtype {
	for s := scope; s != nil; s = s.outer {
		if s.name == name {
			return s
		}
		if t := f.typeByQual(s.qual + "." + name); t != nil {
			return t
		}
		if t := ix.inheritedMember(s, name, 0); t != nil {
			return t
		}
	}
	if t := f.typeByQual(name); t != nil {
		return t
	}
	return ix.resolveImported(f, name)
}

// inheritedMember finds a member type named name that t inherits from a
// repository supertype.
func (ix *index) inheritedMember(t *jtype, name string, depth int) *jtype {
	if depth > 8 {
		return nil
	}
	for _, s := range ix.supertypes(t) {
		if m := s.file.typeByQual(s.qual + "." + name); m != nil {
			return m
		}
		if m := ix.inheritedMember(s, name, depth+1); m != nil {
			return m
		}
	}
	return nil
}

// supertypes returns t's direct supertypes that the repository declares.
func (ix *index) supertypes(t *jtype) []*jtype {
	var out []*jtype
	nodes := t.ifaces
	if t.super != nil {
		nodes = append([]*treesit.Node{t.super}, nodes...)
	}
	for _, n := range nodes {
		// a supertype's name is resolved from the enclosing scope
		if s := ix.resolveNoInherit(t.file, t, typeText(n)); s != nil && s != t {
			out = append(out, s)
		}
	}
	return out
}

// resolveNoInherit resolves a supertype's name written in the header of
// scope: from the enclosing types outward, without looking at scope's
// own inherited member types (which would loop through the supertypes
// being resolved); an enclosing type's inherited member types are seen
// (class T extends Base { static class X extends Helper {} }, where
// Helper is a member type of Base).
func (ix *index) resolveNoInherit(f *jfile, scope *jtype, name string) *jtype {
	name = baseName(name)
	first, rest, dotted := strings.Cut(name, ".")
	var t *jtype
	for s := scope.outer; s != nil && t == nil; s = s.outer {
		if s.name == first {
			t = s
		} else if t = f.typeByQual(s.qual + "." + first); t == nil && !ix.resolving[s] {
			ix.resolving[s] = true
			t = ix.inheritedMember(s, first, 0)
			delete(ix.resolving, s)
		}
	}
	if t == nil {
		if t = f.typeByQual(first); t == nil {
			t = ix.resolveImported(f, first)
		}
	}
	switch {
	case t == nil && dotted:
		return ix.typeByFQN(name, f)
	case t != nil && dotted:
		return t.file.typeByQual(t.qual + "." + rest)
	}
	return t
}

// resolveImported resolves a simple name through imports and the package.
func (ix *index) resolveImported(f *jfile, name string) *jtype {
	for _, im := range f.imports {
		if !im.wildcard && !im.static && im.last() == name {
			return ix.typeByFQN(im.name, f)
		}
	}
	if t := ix.typeByFQN(qualify(f.pkg, name), f); t != nil {
		return t
	}
	for _, im := range f.imports {
		if im.wildcard && !im.static {
			if t := ix.typeByFQN(im.name+"."+name, f); t != nil {
				return t
			}
		}
	}
	return nil
}

// subtypeOf reports whether t is base or derives from it through
// repository types.
func (ix *index) subtypeOf(t, base *jtype) bool {
	seen := map[*jtype]bool{}
	var walk func(x *jtype) bool
	walk = func(x *jtype) bool {
		if x == base {
			return true
		}
		if seen[x] || len(seen) > 64 {
			return false
		}
		seen[x] = true
		for _, s := range ix.supertypes(x) {
			if walk(s) {
				return true
			}
		}
		return false
	}
	return walk(t)
}

// ancestors returns t and its repository supertypes, nearest first.
func (ix *index) ancestors(t *jtype) []*jtype {
	out := []*jtype{t}
	seen := map[*jtype]bool{t: true}
	for i := 0; i < len(out) && len(out) < 64; i++ {
		for _, s := range ix.supertypes(out[i]) {
			if !seen[s] {
				seen[s] = true
				out = append(out, s)
			}
		}
	}
	return out
}

// openAncestry reports whether some supertype of t (or of its repository
// supertypes) is not the repository's: members may come from it.
func (ix *index) openAncestry(t *jtype) bool {
	for _, a := range ix.ancestors(t) {
		n := len(a.ifaces)
		if a.super != nil {
			n++
		}
		if len(ix.supertypes(a)) < n {
			return true
		}
	}
	return false
}

// enclosingType is the type whose body holds n (nil at top level, or
// when the innermost body is an anonymous class's: anon is then set).
func enclosingType(f *jfile, n *treesit.Node) (t *jtype, anon *treesit.Node) {
	for p := n.Parent; p != nil; p = p.Parent {
		if p.Kind == "class_body" && p.Parent != nil && p.Parent.Kind == "object_creation_expression" {
			return nil, p.Parent
		}
		if _, ok := typeKinds[p.Kind]; ok {
			for _, x := range f.types {
				if x.node == p {
					return x, nil
				}
			}
			return nil, nil
		}
	}
	return nil, nil
}

// enclosingMember is the method, constructor or field declaration that
// holds n, and its type.
func enclosingMember(n *treesit.Node) *treesit.Node {
	for p := n; p != nil; p = p.Parent {
		switch p.Kind {
		case "method_declaration", "constructor_declaration", "compact_constructor_declaration", "field_declaration", "static_initializer", "enum_constant":
			return p
		}
		if _, ok := typeKinds[p.Kind]; ok {
			return p
		}
	}
	return nil
}
