package typescript

import (
	"fmt"
	"strings"

	"github.com/ripple-dev/ripple/internal/lang/treesit"
	"github.com/ripple-dev/ripple/internal/model"
)

// memberRules judge the uses of a changed member of a class, enum or
// interface: calls and reads through receivers the syntax resolves to the
// container (receiver, containerImport), overrides, instantiations of a
// changed constructor (ctor), enum members, and the users of an
// interface member (ifaceMember, ifaceUsers). They judge through the
// judge they extend, whose target, file and findings they share.
type memberRules struct{ *judge }

// ctor judges `new C(...)`, `super(...)` in subclasses of C and `new D()`
// of subclasses that inherit C's constructor, against the new
// constructor.
func (j memberRules) ctor() {
	t := j.t
	locals, nss := j.bindings(t.container)
	exps := j.exportNames(t.container)
	seen := map[*treesit.Node]bool{}
	j.f.refs(locals, nss, exps, func(ref *treesit.Node) {
		k, call := refKindOf(ref)
		switch k {
		case rNew:
			seen[call] = true
			j.call(ref, call, model.InstantiatedBy, model.PrecisionSyntax, false)
		case rExtends:
			// a subclass: its super(...) calls, and new of it when it
			// has no constructor of its own
			cls := call
			for cls != nil && cls.Kind != "class_declaration" && cls.Kind != "class" && cls.Kind != "abstract_class_declaration" {
				cls = cls.Parent
			}
			if cls == nil {
				return
			}
			own := classMember(cls, "constructor")
			if own == nil {
				// inherits the constructor: its instantiations are judged
				// as the class's own (impacted, after this file)
				if sub := className(cls); sub != "" && (cls.Parent.KindOr() == "program" || cls.Parent.KindOr() == "export_statement") {
					j.subs = append(j.subs, sub)
				}
				return
			}
			treesit.Walk(own.Child("body"), func(n *treesit.Node) bool {
				if n != own && funcScope(n) && n.Kind != "arrow_function" {
					return false
				}
				if n.Kind == "call_expression" && n.Child("function").KindOr() == "super" {
					j.call(n, n, model.CalledBy, model.PrecisionSyntax, false)
				}
				return true
			})
		}
	})
	j.newByName(seen)
}

// newByName judges `new x.C(...)` of the target's class through a
// receiver that is not a module namespace (an object holding the class,
// `ky.HTTPError`): by name only, a warning when the call bound to the
// old constructor and does not bind to the new one.
func (j memberRules) newByName(seen map[*treesit.Node]bool) {
	t := j.t
	treesit.Walk(j.f.t.Root, func(n *treesit.Node) bool {
		if n.Bad {
			return false
		}
		if n.Kind != "new_expression" || seen[n] {
			return true
		}
		c := n.Child("constructor")
		if c.KindOr() != "member_expression" || c.Child("property").Text() != t.container {
			return true
		}
		root := c.Child("object")
		for root != nil && root.Kind == "member_expression" {
			root = root.Child("object")
		}
		if root.KindOr() == "identifier" {
			if b := j.f.imports[root.Text()]; b != nil && b.name == "*" && !shadowed(n, root.Text()) {
				return true // a module namespace: resolved by refs, or another module's
			}
		}
		j.call(c, n, model.InstantiatedBy, model.PrecisionName, true)
		return true
	})
}

// containerImport classifies a name the file imports: the target's class
// (bound under that name, an alias or through re-exports), another
// module's declaration, or unknown when its module does not resolve.
func (j memberRules) containerImport(name string) recv {
	b := j.f.imports[name]
	if b == nil {
		return recvUnknown
	}
	if j.ctr == nil {
		j.ctr, _ = j.bindings(j.t.container)
	}
	switch {
	case j.ctr[name]:
		return recvTarget
	case j.a.resolve(j.f.path, b.spec) == "":
		return recvUnknown
	}
	return recvOther
}

// memberOf classifies a receiver: the target's class (or a subclass of
// it declared in the file), another known class, or unknown.
type recv int

const (
	recvUnknown recv = iota
	recvTarget
	recvOther
)

func (j memberRules) receiver(obj *treesit.Node) recv {
	t := j.t
	obj = treesit.Unparen(obj)
	if obj.Kind == "super" {
		if c := enclosingClass(obj); c != nil && j.f.extends(c, t.container) {
			return recvTarget
		}
		return recvUnknown
	}
	if obj.Kind == "identifier" && obj.Text() == t.container && lookup(obj, obj.Text()) == nil {
		// a static member through the class itself
		if j.f.path == t.path || j.containerImport(t.container) == recvTarget {
			return recvTarget
		}
	}
	name := exprType(obj)
	if name == "" {
		// a value a repository function returns, by its declared type
		if o, ok := j.resultOrigin(obj); ok {
			if o.path == t.path && o.local == t.container {
				return recvTarget
			}
			if of := j.a.file(o.path); of != nil {
				if c := of.classes[o.local]; c != nil && !extendsAny(c) && classMember(c, t.name) != nil {
					return recvOther
				}
			}
		}
		return recvUnknown
	}
	if name == t.container || j.f.imports[name] != nil && j.containerImport(name) == recvTarget {
		switch {
		case obj.Kind == "this" || j.f.path == t.path:
			return recvTarget
		case j.f.imports[name] != nil:
			// an import of that name: the target's class only where it
			// resolves to it (typeorm's tests each declare their own
			// entity/User, 62948a3751)
			return j.containerImport(name)
		case j.f.declares(name):
			return recvOther // a class of the same name, of this file
		}
		return recvUnknown
	}
	if c := j.f.classes[name]; c != nil {
		if j.f.extends(c, t.container) {
			if classMember(c, t.name) != nil {
				return recvOther // the subclass overrides it
			}
			return recvTarget
		}
		if len(heritage(c)) == 0 || obj.Kind == "this" && classMember(c, t.name) != nil {
			return recvOther
		}
		return recvUnknown // a base we do not follow may provide it
	}
	if j.f.declares(name) || j.f.imports[name] != nil {
		return recvOther
	}
	return recvUnknown
}

// extends reports whether class c derives from a class named base
// (through classes of the same file).
func (f *tsfile) extends(c *treesit.Node, base string) bool {
	for depth := 0; c != nil && depth < 8; depth++ {
		if className(c) == base {
			return true
		}
		var next *treesit.Node
		for _, h := range heritage(c) {
			b := baseName(h)
			if b == base {
				return true
			}
			if x := f.classes[b]; x != nil && x != c {
				next = x
			}
		}
		c = next
	}
	return false
}

// classMember judges the uses of a class method or property.
func (j memberRules) classMember() {
	t := j.t
	j.overrides()
	treesit.Walk(j.f.t.Root, func(n *treesit.Node) bool {
		if n.Bad {
			return false
		}
		if n.Kind != "member_expression" {
			return true
		}
		prop := n.Child("property")
		if prop == nil || prop.Text() != t.name {
			return true
		}
		r := j.receiver(n.Child("object"))
		if r == recvOther {
			return true
		}
		k, call := refKindOf(n)
		switch t.kind {
		case tCall:
			if k != rCall {
				return true
			}
			j.call(n, call, j.callRel(), model.PrecisionSyntax, r == recvUnknown)
		case tGone:
			rel, verb := model.UsedBy, "uses"
			if k == rCall {
				rel, verb = j.callRel(), "calls"
			}
			if p := n.Parent; p != nil && p.Kind == "assignment_expression" && p.Child("left") == n {
				verb = "sets"
			}
			if r == recvUnknown {
				j.emit(n, rel, model.MayBeImpacted, model.PrecisionName,
					fmt.Sprintf("%s %s on a value whose type could not be resolved; %s %s", verb, t.name, t.display(), j.what()))
				return true
			}
			if why := j.inherited(); why != "" {
				j.emit(n, rel, model.MayBeImpacted, model.PrecisionSyntax,
					fmt.Sprintf("%s %s; %s %s, but %s", verb, t.name, t.display(), j.what(), why))
				return true
			}
			j.emit(n, rel, model.Inconsistent, model.PrecisionSyntax, fmt.Sprintf("%s %s, which %s", verb, t.name, j.what()))
			j.withFix(j.fx.renameAt(prop))
		}
		return true
	})
	if t.kind == tCall || t.kind == tGone {
		j.destructuredMember(func(v *treesit.Node) bool { return j.receiver(v) == recvTarget },
			func(ann string) bool {
				name := typeName(ann)
				return name == t.container && (j.f.path == t.path || j.f.imports[name] != nil || j.f.declares(name))
			}, j.callRel(), j.inherited)
	}
}

// callRel is the relation of a call of the target: its callers, or, for
// a property (a field holding a function: msw's startHandler), its users,
// the relation a field's changes are followed by.
func (j memberRules) callRel() model.Relation {
	if l := j.t.ch.Label; l == model.DF || l == model.MF {
		return model.UsedBy
	}
	return model.CalledBy
}

// inherited says why a deleted member may still be provided: a base
// class of the head state declares it (followed through imports), or a
// base outside the repository may. "" when nothing provides it.
func (j memberRules) inherited() string {
	f := j.a.file(j.t.path)
	if f == nil {
		return ""
	}
	c := f.classes[j.t.container]
	if c == nil {
		return ""
	}
	for depth := 0; depth < 8; depth++ {
		var nf *tsfile
		var next *treesit.Node
		for _, h := range heritage(c) {
			if !isExtends(c, h) {
				continue // only extends clauses provide members
			}
			b := baseName(h)
			bf, bc := j.a.classOf(f, b)
			if bc == nil {
				return "base class " + b + " (not in the repository) may provide it"
			}
			if classMember(bc, j.t.name) != nil {
				return "base class " + b + " still declares it"
			}
			nf, next = bf, bc
		}
		if next == nil {
			return ""
		}
		f, c = nf, next
	}
	return ""
}

// classOf finds the class a name denotes in file f: declared there, or
// imported from a file of the repository; nil when it is not one.
func (a *analyzer) classOf(f *tsfile, name string) (*tsfile, *treesit.Node) {
	if c := f.classes[name]; c != nil {
		return f, c
	}
	b := f.imports[name]
	if b == nil {
		return nil, nil
	}
	mod := a.resolve(f.path, b.spec)
	if mod == "" {
		return nil, nil
	}
	o, _, ok := a.exportOf(mod, b.name, 0)
	if !ok {
		return nil, nil
	}
	of := a.file(o.path)
	if of == nil {
		return nil, nil
	}
	if c := of.classes[o.local]; c != nil {
		return of, c
	}
	return nil, nil
}

// overrides reports the methods of subclasses in the file that override
// a deleted method (they now override nothing) or keep the old signature
// of a changed one.
func (j memberRules) overrides() {
	t := j.t
	if t.d.kind != dMethod || t.d.static || t.d.private {
		return
	}
	for _, c := range j.f.classes {
		if className(c) == t.container && j.f.path == t.path {
			continue
		}
		sub := false
		for _, h := range heritage(c) {
			if isExtends(c, h) && baseName(h) == t.container && (j.f.path == t.path || j.f.imports[t.container] != nil) {
				sub = true
			}
		}
		if !sub {
			continue
		}
		m := classMember(c, t.name)
		if m == nil || m.Kind != "method_definition" {
			continue
		}
		at := m.Child("name")
		switch t.kind {
		case tGone:
			j.emit(at, model.OverriddenBy, model.MayBeImpacted, model.PrecisionSyntax,
				fmt.Sprintf("overrides %s, which %s: it now overrides nothing", t.display(), j.what()))
		case tCall:
			if sigOf(m).text() == t.od.fn.text() {
				j.emit(at, model.OverriddenBy, model.MayBeImpacted, model.PrecisionSyntax,
					fmt.Sprintf("overrides %s and keeps its old signature (%s)", t.display(), strings.Join(t.ch.Details, "; ")))
			}
		}
	}
}

// isExtends reports whether heritage entry h of class c is in its
// extends clause.
func isExtends(c *treesit.Node, h string) bool {
	found := false
	treesit.Walk(c, func(n *treesit.Node) bool {
		if n.Kind == "class_body" || n.Kind == "implements_clause" {
			return false
		}
		if n.Kind == "extends_clause" && treesit.Compact(n.Child("value")) == h {
			found = true
		}
		return !found
	})
	return found
}

// enumMember judges E.member uses of an enum member that is gone.
func (j memberRules) enumMember() {
	t := j.t
	if t.kind != tGone {
		return
	}
	locals, nss := j.bindings(t.container)
	treesit.Walk(j.f.t.Root, func(n *treesit.Node) bool {
		if n.Kind != "member_expression" || n.Child("property").Text() != t.name {
			return true
		}
		o := n.Child("object")
		known := o.Kind == "identifier" && locals[o.Text()] && !shadowed(n, o.Text())
		if o.Kind == "member_expression" {
			oo := o.Child("object")
			known = oo.Kind == "identifier" && nss[oo.Text()] && o.Child("property").Text() == t.container
		}
		if known {
			j.emit(n, model.UsedBy, model.Inconsistent, model.PrecisionSyntax, fmt.Sprintf("uses %s.%s, which %s", t.container, t.name, j.what()))
			j.withFix(j.fx.renameAt(n.Child("property")))
		}
		return true
	})
}

// ifaceMember judges the users of an interface (or object type) member
// that was added as required, made required, deleted or renamed: the
// object literals typed with the interface, the classes implementing it,
// and reads through values annotated with it.
func (j memberRules) ifaceMember() {
	t := j.t
	if j.stillInherited() {
		return // a base declares it: it is still a member
	}
	u := j.ifaceUsersOf()
	locals := u.locals
	if len(locals) > 0 {
		for _, s := range (subtypeRules{j.judge}).subtypes(locals) {
			// a retyped member's users through sub-interfaces are
			// warnings at most; following them costs a search and a walk
			// per sub-interface (typeorm's BaseDataSourceOptions has
			// twenty): only redeclarations are reported (subtypes)
			if t.kind != tRetyped {
				j.subIfaces = append(j.subIfaces, s.name)
			}
		}
	}
	// components whose props it types: their elements are judged as
	// targets of their own (jsx.go)
	if len(locals) > 0 {
		jsx := jsxRules{j.judge}
		for _, c := range jsx.components(locals) {
			jsx.componentProps(c)
			j.comps = append(j.comps, c)
		}
	}
	treesit.Walk(j.f.t.Root, func(n *treesit.Node) bool {
		if n.Bad {
			return false
		}
		switch n.Kind {
		case "class_declaration", "abstract_class_declaration", "class":
			u.class(n)
		case "object":
			u.literal(n)
		case "member_expression":
			u.read(n)
		}
		return true
	})
	if t.kind == tGone || t.kind == tIMethod {
		j.destructuredMember(func(v *treesit.Node) bool {
			typ := exprType(v)
			return locals[typ] || typ == "" && j.resultIsTarget(v)
		}, func(ann string) bool { return locals[typeName(ann)] }, model.UsedBy, func() string { return "" })
	}
}

// ifaceUsers holds the names under which one file sees the interface
// whose member changed, so that the judgements of its classes, literals
// and member reads (class, literal, read) share them without threading
// three maps through each.
type ifaceUsers struct {
	j memberRules
	// locals are the file's names for the interface and its alternatives.
	locals map[string]bool
	// qualified are ns.Name spellings through a namespace import
	// (price.Item).
	qualified map[string]bool
	// named says the file names the interface at all: a file that does
	// not may still read members of a value a repository function returns
	// as one (resultIsTarget), or hold literals written for it as a
	// property of another's (nestedType).
	named bool
}

// ifaceUsersOf gathers the file's names for the target's container and
// its alternatives, plain and namespace-qualified.
func (j memberRules) ifaceUsersOf() *ifaceUsers {
	t := j.t
	locals, nss := j.bindings(t.container)
	for _, alt := range t.alts {
		more, moreNss := j.bindings(alt)
		for k := range more {
			locals[k] = true
		}
		for k := range moreNss {
			nss[k] = true
		}
	}
	// the container as a namespace import names it: price.Item
	qualified := map[string]bool{}
	if len(nss) > 0 {
		for _, name := range append([]string{t.container}, t.alts...) {
			for _, e := range j.exportNames(name) {
				for ns := range nss {
					qualified[ns+"."+e] = true
				}
			}
		}
	}
	return &ifaceUsers{j: j, locals: locals, qualified: qualified, named: len(locals) > 0}
}

// class judges a class that implements the interface: it must add an
// added member, its own declaration of a retyped member may no longer
// fit, and its implementation of a changed method is judged as one.
func (u *ifaceUsers) class(n *treesit.Node) {
	j, t := u.j, u.j.t
	if t.kind != tAdded && t.kind != tRetyped && t.kind != tIMethod || !implements(n, u.locals) {
		return
	}
	if t.kind == tIMethod {
		j.implementation(n)
		return
	}
	if t.kind == tRetyped {
		if m := classMember(n, t.name); m != nil {
			at := m.Child("name")
			if at == nil {
				at = m
			}
			j.emit(at, model.EmbeddedBy, model.MayBeImpacted, model.PrecisionSyntax,
				fmt.Sprintf("implements %s.%s, whose type changed: %s", t.container, t.name, strings.Join(t.ch.Details, "; ")))
		}
		return
	}
	if classMember(n, t.name) == nil && !extendsAny(n) {
		// interface members are fields to the core (AF, DF, MF),
		// methods included: their relations are EmbeddedBy and
		// InstantiatedBy (what a class that lacks one must add)
		rel := model.EmbeddedBy
		at := n.Child("name")
		if at == nil {
			at = n
		}
		j.emit(at, rel, model.Inconsistent, model.PrecisionSyntax,
			fmt.Sprintf("implements %s but lacks %s, which %s", t.container, t.name, j.addedWhat()))
	}
}

// literal judges an object literal typed with the interface (or a
// sub-interface, or a property of the container's type): whether it
// writes the changed member decides what it must add or drop. Literals
// typed only through a record or a generic are handed to their own rules.
func (u *ifaceUsers) literal(n *treesit.Node) {
	j, t := u.j, u.j.t
	lr := literalRules{j.judge}
	lq := qualifiedLiteralType(n) // the container, or a sub-interface of it
	lt := unqualified(lq)
	typed := u.qualified[lq] || lq == lt && u.locals[lt] // other.Item is not the local Item
	if lt == "" {
		if o, ok := lr.nestedType(n); ok && o.path == t.path && (o.local == t.container || contains(t.alts, o.local)) {
			lt, typed = o.local, true // a property's value, of the container's type
		}
	}
	if !typed {
		if ann := literalAnnotation(n); u.named && ann != "" {
			if ok, partial, others := j.f.recordOfKeys(ann, u.locals); ok {
				lr.recordLiteral(n, ann, partial, others)
				return
			}
		}
		if u.named && literalType(n) == "" && genericContext(n, u.locals) {
			lr.genericLiteral(n)
		}
		return
	}
	has, spread := objectKey(n, t.name)
	rel := model.InstantiatedBy
	if asserted(n) && (t.kind == tAdded || t.kind == tGone) {
		// `{...} as T` compiles when either type is assignable to
		// the other (trpc 492bacf3b9's `({}) as Output` fixtures,
		// playwright's `{} as RecorderBackend`): it breaks only
		// when the literal lacks a required member of T and
		// writes a key T lacks
		if lacks, excess, ok := lr.assertionGap(n); ok && lacks != "" && excess != "" {
			what := j.what()
			if t.kind == tAdded {
				what = j.addedWhat()
			}
			j.emit(n, rel, model.Inconsistent, model.PrecisionSyntax,
				fmt.Sprintf("asserts an object literal as %s, which it no longer overlaps: it lacks %s and writes %s (%s %s)", lt, lacks, excess, t.display(), what))
		}
		return
	}
	switch {
	case t.kind == tAdded && !has && spread:
		j.emit(n, rel, model.MayBeImpacted, model.PrecisionSyntax,
			fmt.Sprintf("builds a %s without %s (unless a spread provides it); %s %s", lt, t.name, t.display(), j.addedWhat()))
	case t.kind == tAdded && !has:
		j.emit(n, rel, model.Inconsistent, model.PrecisionSyntax,
			fmt.Sprintf("builds a %s without %s, which %s", lt, t.name, j.addedWhat()))
	case t.kind == tRetyped && has:
		j.emit(n, rel, model.MayBeImpacted, model.PrecisionSyntax,
			fmt.Sprintf("builds a %s with %s, whose type changed: %s", lt, t.name, strings.Join(t.ch.Details, "; ")))
	case t.kind == tIMethod && has:
		j.emit(n, rel, model.MayBeImpacted, model.PrecisionSyntax,
			fmt.Sprintf("builds a %s with %s, whose signature changed: %s", lt, t.name, strings.Join(t.ch.Details, "; ")))
	case t.kind == tGone && has:
		j.emit(n, rel, model.Inconsistent, model.PrecisionSyntax,
			fmt.Sprintf("builds a %s with %s, which %s%s", lt, t.name, j.what(), excessNote(t)))
		j.withFix(j.fx.renameKey(literalKey(n, t.name)))
	}
}

// typed says a member read's object is a value of the interface: its
// static type is one of the file's names, or, unresolved, it is the
// result of a repository function that returns one.
func (u *ifaceUsers) typed(obj *treesit.Node) (string, bool) {
	typ := exprType(obj)
	return typ, u.locals[typ] || typ == "" && u.j.resultIsTarget(obj)
}

// read judges x.member on a value of the interface: a read or call of a
// gone member breaks, of a retyped one may, and a call of a changed
// method is judged as a call. Unresolved values in a file that names the
// interface are reported at name precision.
func (u *ifaceUsers) read(n *treesit.Node) {
	j, t := u.j, u.j.t
	if t.kind != tGone && t.kind != tRetyped && t.kind != tIMethod || n.Child("property").Text() != t.name {
		return
	}
	if t.kind == tIMethod {
		k, call := refKindOf(n)
		if k != rCall {
			return
		}
		// interface members are fields to the core: a call of one
		// uses it (UsedBy)
		if typ, ok := u.typed(n.Child("object")); ok {
			j.call(n, call, model.UsedBy, model.PrecisionSyntax, false)
		} else if typ == "" && u.named {
			j.call(n, call, model.UsedBy, model.PrecisionName, true)
		}
		return
	}
	if t.kind == tRetyped {
		if _, ok := u.typed(n.Child("object")); ok {
			j.emit(n, model.UsedBy, model.MayBeImpacted, model.PrecisionSyntax,
				fmt.Sprintf("uses %s of a %s, whose type changed: %s", t.name, t.container, strings.Join(t.ch.Details, "; ")))
		}
		return
	}
	k, _ := refKindOf(n)
	rel, verb := model.UsedBy, "uses"
	if k == rCall {
		verb = "calls"
	}
	if typ, ok := u.typed(n.Child("object")); ok {
		if typ == "" {
			typ = t.container
		}
		j.emit(n, rel, model.Inconsistent, model.PrecisionSyntax, fmt.Sprintf("%s %s of a %s, which %s", verb, t.name, typ, j.what()))
		j.withFix(j.fx.renameAt(n.Child("property")))
	} else if typ == "" && u.named {
		j.emit(n, rel, model.MayBeImpacted, model.PrecisionName,
			fmt.Sprintf("%s %s on a value whose type could not be resolved; %s %s", verb, t.name, t.display(), j.what()))
	}
}

// implementation judges a class implementing the interface whose method
// changed its signature: its method must follow. TypeScript accepts a
// method with fewer parameters than the interface's, so only one that
// requires more than the new signature takes is an error.
func (j memberRules) implementation(c *treesit.Node) {
	t := j.t
	m := classMember(c, t.name)
	if m == nil || m.Kind != "method_definition" || t.nd == nil || t.nd.fn == nil {
		return
	}
	at := m.Child("name")
	s := sigOf(m)
	nd := t.nd.fn
	switch {
	case paramsText(s) == paramsText(nd) && s.ret == nd.ret:
		j.emit(at, model.EmbeddedBy, model.Consistent, model.PrecisionSyntax,
			fmt.Sprintf("implements %s.%s with its new signature", t.container, t.name))
	case nd.max() >= 0 && s.required() > nd.max():
		j.emit(at, model.EmbeddedBy, model.Inconsistent, model.PrecisionSyntax,
			fmt.Sprintf("implements %s.%s with %d required parameters; %s.%s now takes %s (%s)", t.container, t.name, s.required(), t.container, t.name, atMost(nd), strings.Join(t.ch.Details, "; ")))
	default:
		j.emit(at, model.EmbeddedBy, model.MayBeImpacted, model.PrecisionSyntax,
			fmt.Sprintf("implements %s.%s, whose signature changed: %s", t.container, t.name, strings.Join(t.ch.Details, "; ")))
	}
}

// excessNote says why writing a gone member is an error, not for a
// derived change (the member is still there).
func excessNote(t *target) string {
	if t.ch.Derived {
		return ""
	}
	return " (an object literal may only specify known properties)"
}

func (j *judge) addedWhat() string {
	if j.t.ch.Label == model.MF {
		return "is now required"
	}
	return "was added as required"
}

// implements reports a class whose implements clause names one of the
// local names.
func implements(c *treesit.Node, locals map[string]bool) bool {
	found := false
	treesit.Walk(c, func(n *treesit.Node) bool {
		if n.Kind == "class_body" {
			return false
		}
		if n.Kind == "implements_clause" {
			for _, k := range n.NamedKids() {
				if locals[typeName(k.Text())] {
					found = true
				}
			}
		}
		return true
	})
	return found
}

// extendsAny reports a class with an extends clause (a base may provide
// the member).
func extendsAny(c *treesit.Node) bool {
	found := false
	treesit.Walk(c, func(n *treesit.Node) bool {
		if n.Kind == "class_body" {
			return false
		}
		if n.Kind == "extends_clause" {
			found = true
		}
		return !found
	})
	return found
}

// resultIsTarget reports a value a repository function returns with the
// target's container as its declared type.
func (j memberRules) resultIsTarget(obj *treesit.Node) bool {
	o, ok := j.resultOrigin(obj)
	return ok && o.path == j.t.path && o.local == j.t.container
}
