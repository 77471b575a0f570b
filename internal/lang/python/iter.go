package python

import "github.com/ripple-dev/ripple/internal/lang/treesit"

// Values of loop variables and of `with` targets of generator-based
// context managers: the element type of an annotated container.

// containerHeads are the generic types whose first type argument is what
// iterating them yields.
var containerHeads = map[string]bool{
	"list": true, "List": true, "set": true, "Set": true, "frozenset": true, "FrozenSet": true,
	"Sequence": true, "MutableSequence": true, "Iterable": true, "Iterator": true, "Collection": true,
	"AbstractSet": true, "MutableSet": true, "Generator": true, "AsyncIterator": true, "AsyncIterable": true,
	"AsyncGenerator": true, "Deque": true, "deque": true, "Reversible": true, "KeysView": true, "ValuesView": false,
	"dict": true, "Dict": true, "Mapping": true, "MutableMapping": true, "DefaultDict": true, "defaultdict": true,
	"OrderedDict": true, "Counter": true, "ChainMap": true, "tuple": true, "Tuple": true,
}

// typeArgs splits a subscripted annotation into its head's last name
// and its arguments.
func typeArgs(a *treesit.Node) (string, []*treesit.Node) {
	if a == nil {
		return "", nil
	}
	if a.Kind == "type" {
		ks := a.NamedKids()
		if len(ks) != 1 {
			return "", nil
		}
		a = ks[0]
	}
	switch a.Kind {
	case "subscript":
		return lastPart(a.Child("value").Text()), a.Children("subscript")
	case "generic_type":
		ks := a.NamedKids()
		if len(ks) != 2 {
			return "", nil
		}
		var args []*treesit.Node
		for _, k := range ks[1].NamedKids() {
			args = append(args, k)
		}
		return lastPart(ks[0].Text()), args
	}
	return "", nil
}

// unwrapAnnot drops Optional, Annotated, Final, ClassVar and `| None`
// around an annotation node.
func unwrapAnnot(a *treesit.Node) *treesit.Node {
	for i := 0; a != nil && i < 8; i++ {
		if a.Kind == "type" {
			if ks := a.NamedKids(); len(ks) == 1 {
				a = ks[0]
				continue
			}
			return a
		}
		if a.Kind == "binary_operator" {
			l, r := a.Child("left"), a.Child("right")
			switch {
			case r != nil && r.Text() == "None":
				a = l
				continue
			case l != nil && l.Text() == "None":
				a = r
				continue
			}
			return a
		}
		head, args := typeArgs(a)
		switch head {
		case "Optional", "Annotated", "Final", "ClassVar", "Required", "NotRequired", "ReadOnly":
			if len(args) > 0 {
				a = args[0]
				continue
			}
		}
		return a
	}
	return a
}

// elemAnnot is the annotation of what iterating a container annotated a
// yields (idx < 0), or of position idx of that element when it is a
// tuple (dict items). nil when unknown.
func elemAnnot(a *treesit.Node, idx int) *treesit.Node {
	a = unwrapAnnot(a)
	head, args := typeArgs(a)
	if !containerHeads[head] || len(args) == 0 {
		return nil
	}
	switch head {
	case "tuple", "Tuple":
		// tuple[X, ...] yields X; a fixed tuple yields mixed types
		if len(args) == 2 && args[1].Kind == "ellipsis" {
			return elemOrIndex(args[0], idx)
		}
		return nil
	}
	return elemOrIndex(args[0], idx)
}

// elemOrIndex is the element itself, or position idx of a tuple element.
func elemOrIndex(e *treesit.Node, idx int) *treesit.Node {
	if idx < 0 {
		return e
	}
	e = unwrapAnnot(e)
	head, args := typeArgs(e)
	if (head == "tuple" || head == "Tuple") && idx < len(args) && !(len(args) == 2 && args[1].Kind == "ellipsis") {
		return args[idx]
	}
	return nil
}

// annotOf finds the annotation node that declares an expression's type,
// with the scope it is read in: an annotated variable or parameter, an
// annotated attribute, a function's declared return type.
func (r *resolver) annotOf(e *treesit.Node, s *scope) (*treesit.Node, *scope) {
	e = treesit.Unparen(e)
	if e == nil || s == nil {
		return nil, nil
	}
	switch e.Kind {
	case "identifier":
		bs, sc := lookup(s, e.Text())
		if len(bs) != 1 {
			return nil, nil
		}
		b := bs[0]
		switch b.kind {
		case bParam:
			p := b.fn.params[b.param]
			if p.annotAt != nil && p.kind != varArgs && p.kind != varKw {
				return p.annotAt, b.fn.scope.parent
			}
		case bAssign:
			if b.annot != nil {
				return b.annot, sc
			}
		}
	case "attribute":
		obj := r.expr(e.Child("object"), s)
		if obj.k != vInstance && obj.k != vClass {
			return nil, nil
		}
		h := r.lookupMember(obj, e.Child("attribute").Text())
		if h.attr != nil && h.attr.annot != nil {
			return h.attr.annot, h.attr.scope
		}
		if h.attr != nil && h.owner != nil {
			// an instance attribute without annotation of its own: the
			// class-level declaration of the same name
			if a, ok := h.owner.attrs[h.attr.name]; ok && a.annot != nil {
				return a.annot, a.scope
			}
		}
	case "call":
		fv := r.expr(e.Child("function"), s)
		if (fv.k == vFunc || fv.k == vMethod) && fv.fn.returns != nil && !fv.fn.async {
			return fv.fn.returns, fv.fn.scope.parent
		}
	}
	return nil, nil
}

// iterValue is the value a loop variable takes over iterable it: the
// element (idx < 0) or position idx of an unpacked element.
func (r *resolver) iterValue(it *treesit.Node, s *scope, idx int) value {
	it = treesit.Unparen(it)
	if it == nil {
		return unknown
	}
	if fn := it.Child("function"); it.Kind == "call" && fn != nil {
		var args []*treesit.Node
		for _, a := range it.Child("arguments").NamedKids() {
			if a.Kind != "keyword_argument" {
				args = append(args, a)
			}
		}
		switch {
		case fn.Kind == "identifier" && r.isBuiltin(s, fn.Text()):
			switch fn.Text() {
			case "enumerate":
				if idx == 1 && len(args) > 0 {
					return r.iterValue(args[0], s, -1)
				}
				return unknown
			case "zip":
				if idx >= 0 && idx < len(args) {
					return r.iterValue(args[idx], s, -1)
				}
				return unknown
			case "sorted", "reversed", "list", "set", "tuple", "frozenset", "iter", "filter":
				if fn.Text() == "filter" && len(args) == 2 {
					return r.iterValue(args[1], s, idx)
				}
				if len(args) == 1 {
					return r.iterValue(args[0], s, idx)
				}
				return unknown
			}
		case fn.Kind == "attribute":
			switch fn.Child("attribute").Text() {
			case "items", "values", "keys":
				a, sc := r.annotOf(fn.Child("object"), s)
				head, targs := typeArgs(unwrapAnnot(a))
				if a == nil || !containerHeads[head] || len(targs) != 2 {
					return unknown
				}
				switch fn.Child("attribute").Text() {
				case "keys":
					return r.elemResult(targs[0], sc, idx)
				case "values":
					return r.elemResult(targs[1], sc, idx)
				}
				if idx == 0 || idx == 1 {
					return r.annotation(targs[idx], sc)
				}
				return unknown
			}
		}
	}
	switch it.Kind {
	case "list", "tuple", "set":
		// a literal: the value its elements agree on
		var out value
		for _, k := range it.NamedKids() {
			v := r.expr(k, s)
			if idx >= 0 {
				if k.Kind != "tuple" || idx >= len(k.NamedKids()) {
					return unknown
				}
				v = r.expr(k.NamedKids()[idx], s)
			}
			switch {
			case !v.known():
				return unknown
			case !out.known():
				out = v
			case !sameValue(out, v):
				return unknown
			}
		}
		return out
	}
	a, sc := r.annotOf(it, s)
	if a == nil {
		return unknown
	}
	if e := elemAnnot(a, idx); e != nil {
		return r.annotation(e, sc)
	}
	return unknown
}

// elemResult is the value of an annotation, or position idx of it when
// it is a tuple.
func (r *resolver) elemResult(a *treesit.Node, sc *scope, idx int) value {
	if idx >= 0 {
		a = elemOrIndex(a, idx)
	}
	return r.annotation(a, sc)
}

// isBuiltin reports a name that is not bound in the file: the builtin.
func (r *resolver) isBuiltin(s *scope, name string) bool {
	bs, sc := lookup(s, name)
	return bs == nil && builtins[name] && len(sc.file.stars) == 0
}

// contextValue is what `with f() as x` binds when f is a generator-based
// context manager (@contextmanager, @asynccontextmanager): the element of
// its declared Iterator/Generator return type, else what its yields
// agree on. ok is false when f is no such function.
func (r *resolver) contextValue(call *treesit.Node, s *scope) (value, bool) {
	call = treesit.Unparen(call)
	if call == nil || call.Kind != "call" {
		return unknown, false
	}
	fv := r.expr(call.Child("function"), s)
	if fv.k != vFunc && fv.k != vMethod {
		return unknown, false
	}
	fn := fv.fn
	gen := false
	for _, d := range fn.decoNames {
		switch lastPart(d) {
		case "contextmanager", "asynccontextmanager":
			gen = true
		}
	}
	if !gen {
		return unknown, false
	}
	if fn.returns != nil {
		if e := elemAnnot(fn.returns, -1); e != nil {
			return r.resultAnnotation(fv, e), true
		}
		return unknown, true
	}
	var out value
	ok := true
	treesit.Walk(fn.node.Child("body"), func(n *treesit.Node) bool {
		if !ok {
			return false
		}
		switch n.Kind {
		case "function_definition", "class_definition", "lambda":
			return false
		case "yield":
			ks := n.NamedKids()
			if len(ks) != 1 || n.HasToken("from") {
				ok = false
				return false
			}
			v := r.expr(ks[0], fn.scope)
			switch {
			case !v.known():
				ok = false
			case !out.known():
				out = v
			case !sameValue(out, v):
				ok = false
			}
			return false
		}
		return true
	})
	if !ok {
		return unknown, true
	}
	return out, true
}

// loopTargets binds the names a for loop (or a comprehension's for
// clause) binds to the elements of iterable it: a name takes the
// element, names unpacked one level take its positions.
func (b *builder) loopTargets(s *scope, left, it, stmt *treesit.Node) {
	if left == nil {
		return
	}
	if s.kind == scClass || it == nil {
		b.targets(s, left, stmt, nil, nil)
		return
	}
	switch left.Kind {
	case "identifier":
		s.bind(&binding{kind: bFor, name: b.text(left), at: left, value: it, idx: -1, stmt: stmt})
		return
	case "pattern_list", "tuple_pattern", "tuple", "expression_list":
		for i, k := range left.NamedKids() {
			if k.Kind == "identifier" {
				s.bind(&binding{kind: bFor, name: b.text(k), at: k, value: it, idx: i, stmt: stmt})
			} else {
				b.targets(s, k, stmt, nil, nil)
			}
		}
		return
	}
	b.targets(s, left, stmt, nil, nil)
}
