package python

import (
	"strings"

	"github.com/ripple-dev/ripple/internal/lang/treesit"
)

// vkind is what an expression evaluates to, as far as syntax and the
// repository's declarations tell.
type vkind uint8

const (
	vUnknown  vkind = iota
	vModule         // a module of the repository (file, or namespace dir)
	vExternal       // a module or symbol outside the repository ("enum.Enum", "builtins.len")
	vClass          // a class of the repository
	vInstance       // an instance of a class of the repository
	vFunc           // a function, or a method reached through its class
	vMethod         // a method bound to an instance (or a classmethod bound to a class)
	vSuper          // super(): member lookups start after cls in the MRO of self
	vMissing        // a module member that does not exist: file.name
	vNone
)

// value is the result of evaluating an expression.
type value struct {
	k    vkind
	file *pfile // vModule, vMissing
	dir  string // vModule of a namespace package ("pkg/")
	name string // vExternal: dotted name; vMissing: the member
	cls  *classInfo
	fn   *funcInfo
	// self is the class of the instance a method was reached through
	// (vMethod, vSuper), for Self return types and super().
	self *classInfo
	// alts: an unknown value that is one of these (a name bound to
	// different values under conditions)
	alts []value
}

var unknown = value{}

func (v value) known() bool { return v.k != vUnknown }

// resolver evaluates expressions over the head state's files. It is not
// safe for concurrent use; results are memoized per node.
type resolver struct {
	ix      *index
	memo    map[*treesit.Node]value
	busy    map[any]bool
	mros    map[*classInfo]mroResult
	frag    map[string]*treesit.Tree // parsed string annotations
	attrTy  map[*attrInfo]value
	retTy   map[*funcInfo]value
	depth   int
	modVals map[string]value
	// oldOwners, while set, makes synthFields read the fields of the
	// classes it holds (by file and qualified name) from their
	// base-state declarations (oldConstructor)
	oldOwners map[string]*classInfo
}

func newResolver(ix *index) *resolver {
	return &resolver{ix: ix, memo: map[*treesit.Node]value{}, busy: map[any]bool{}, mros: map[*classInfo]mroResult{},
		frag: map[string]*treesit.Tree{}, attrTy: map[*attrInfo]value{}, retTy: map[*funcInfo]value{}, modVals: map[string]value{}}
}

const maxDepth = 40

// enter guards against cycles and runaway recursion (a = b; b = a).
func (r *resolver) enter(k any) bool {
	if r.busy[k] || r.depth > maxDepth {
		return false
	}
	r.busy[k] = true
	r.depth++
	return true
}

func (r *resolver) leave(k any) {
	delete(r.busy, k)
	r.depth--
}

// module returns the value of the module imported as spec from file from.
func (r *resolver) module(spec, from string) value {
	var key string
	if strings.HasPrefix(spec, ".") {
		key = spec + "\x00" + dirOf(from)
	} else {
		key = spec + "\x00" + r.ix.mods.rootOf(from)
	}
	if v, ok := r.modVals[key]; ok {
		return v
	}
	p := r.ix.mods.resolve(spec, from)
	var v value
	switch {
	case p == "":
		v = value{k: vExternal, name: strings.TrimLeft(spec, ".")}
		if strings.HasPrefix(spec, ".") {
			v = unknown // a relative import outside the repository's files
		}
	case strings.HasSuffix(p, "/"):
		v = value{k: vModule, dir: p}
	default:
		if f := r.ix.file(p); f != nil {
			v = value{k: vModule, file: f}
		} else {
			v = unknown
		}
	}
	r.modVals[key] = v
	return v
}

// lookup finds the bindings of a name used at node at in scope s, LEGB:
// the scope itself, enclosing function scopes (class scopes are skipped
// from inside functions), the module. nil with the module scope means
// the name is not bound in the file.
func lookup(s *scope, name string) ([]*binding, *scope) {
	first := true
	for sc := s; sc != nil; sc = sc.parent {
		if sc.kind == scClass && !first {
			continue
		}
		first = false
		if sc.globals[name] {
			sc = sc.file.top
			return sc.names[name], sc
		}
		if bs, ok := sc.names[name]; ok && !sc.nonlocals[name] {
			return bs, sc
		}
	}
	return nil, s.file.top
}

// nameValue evaluates a name in scope s.
func (r *resolver) nameValue(s *scope, name string) value {
	bs, sc := lookup(s, name)
	if bs == nil {
		return r.moduleMember(sc.file, name, false)
	}
	return r.bindingsValue(bs, sc)
}

// bindingsValue evaluates a name with several bindings in one scope: the
// value they agree on, a class or function over None (x = None; later
// x = Foo()). Imports and aliases that do not resolve (a compiled
// accelerator tried first, `X = XCython` in a try) leave the decision to
// the others. Bindings that disagree give unknown with every value they
// may take as alts.
func (r *resolver) bindingsValue(bs []*binding, sc *scope) value {
	if len(bs) == 1 {
		return r.bindingValue(bs[0], sc)
	}
	var out, missing value
	var alts []value
	declared := r.declaredValue(bs, sc)
	for _, b := range bs {
		v := r.bindingValue(b, sc)
		if !v.known() && declared.known() {
			// the name's declared type holds every value bound to it
			// (app: Quart | None = None; ... app = current_app._get())
			v = declared
		}
		switch {
		case v.k == vNone:
			continue
		case !v.known() || v.k == vMissing:
			if fallbackBinding(b) {
				if v.k == vMissing && !missing.known() {
					missing = v
				}
				continue // a fallback definition; the others decide
			}
			if !v.known() {
				return unknown
			}
		}
		if len(alts) == 0 {
			alts = append(alts, v)
			out = v
			continue
		}
		same := false
		for _, a := range alts {
			same = same || sameValue(a, v)
		}
		if !same {
			alts = append(alts, v)
		}
	}
	if len(alts) > 1 {
		return value{alts: alts}
	}
	if !out.known() {
		return missing
	}
	return out
}

// declaredValue is the type a scope declares for a name: the annotation
// of a parameter or of an annotated assignment among its bindings, which
// a type checker holds every other assignment of the name to. Unknown
// when none is annotated, when the annotations disagree or do not
// resolve.
func (r *resolver) declaredValue(bs []*binding, sc *scope) value {
	var d value
	for _, b := range bs {
		if b.annot == nil || b.kind != bParam && b.kind != bAssign {
			continue
		}
		if b.kind == bParam {
			if p := b.fn.params[b.param]; p.kind == varArgs || p.kind == varKw {
				continue
			}
		}
		v := r.annotation(b.annot, sc)
		if b.kind == bParam {
			v = r.annotation(b.annot, b.fn.scope.parent)
		}
		switch {
		case !v.known():
			return unknown
		case !d.known():
			d = v
		case !sameValue(d, v):
			return unknown
		}
	}
	return d
}

// fallbackBinding reports a binding that may be a fallback or an
// accelerator that did not resolve: a def, a class, an import, or an
// alias (a name or attribute assigned without annotation).
func fallbackBinding(b *binding) bool {
	switch b.kind {
	case bDef, bClass, bFrom, bImport:
		return true
	case bAssign:
		if b.annot == nil && b.value != nil {
			switch treesit.Unparen(b.value).Kind {
			case "identifier", "attribute":
				return true
			}
		}
	}
	return false
}

func sameValue(a, b value) bool {
	if a.k != b.k {
		return false
	}
	switch a.k {
	case vClass, vInstance:
		return sameClass(a.cls, b.cls)
	case vFunc, vMethod:
		return a.fn == b.fn || a.fn != nil && b.fn != nil && a.fn.file.path == b.fn.file.path && a.fn.qual == b.fn.qual
	case vModule:
		return a.file == b.file && a.dir == b.dir
	case vExternal:
		return a.name == b.name
	}
	return false
}

func sameClass(a, b *classInfo) bool {
	return a == b || a != nil && b != nil && a.file.path == b.file.path && a.qual == b.qual
}

// bindingValue evaluates one binding.
func (r *resolver) bindingValue(b *binding, sc *scope) value {
	switch b.kind {
	case bDef:
		return value{k: vFunc, fn: b.fn}
	case bClass:
		return value{k: vClass, cls: b.cls}
	case bImport:
		return r.module(b.module, sc.file.path)
	case bFrom:
		m := r.module(b.module, sc.file.path)
		if m.k == vModule && m.file == sc.file {
			// a package importing its own submodule
			if p := r.ix.mods.submodule(sc.file.path, b.member); p != "" {
				return r.modValue(p)
			}
		}
		return r.member(m, b.member)
	case bParam:
		return r.paramValue(b.fn, b.param)
	case bFor:
		if !r.enter(b) {
			return unknown
		}
		defer r.leave(b)
		return r.iterValue(b.value, sc, b.idx)
	case bWith:
		if v, ok := r.contextValue(b.value, sc); ok {
			return v
		}
		cm := r.expr(b.value, sc)
		if cm.k != vInstance {
			return unknown
		}
		enter := "__enter__"
		if b.async {
			enter = "__aenter__"
		}
		h := r.lookupMember(cm, enter)
		if h.fn == nil {
			return unknown
		}
		if returnsSelf(h.fn) {
			return cm
		}
		v := r.returns(value{k: vMethod, fn: h.fn, self: cm.cls})
		if v.k == vExternal && strings.HasSuffix(v.name, ".Self") {
			return cm
		}
		return v
	case bAssign:
		if !r.enter(b) {
			return unknown
		}
		defer r.leave(b)
		if b.annot != nil {
			if v := r.annotation(b.annot, sc); v.known() {
				return v
			}
		}
		if b.value != nil {
			return r.expr(b.value, sc)
		}
	}
	return unknown
}

// paramValue is the value of a parameter inside its function: self and
// cls of methods, annotated parameters.
func (r *resolver) paramValue(fn *funcInfo, i int) value {
	p := fn.params[i]
	if i == 0 && fn.cls != nil && !fn.static && p.kind <= posKw {
		if fn.classm {
			return value{k: vClass, cls: fn.cls}
		}
		return value{k: vInstance, cls: fn.cls}
	}
	if p.annotAt != nil && p.kind != varArgs && p.kind != varKw {
		return r.annotation(p.annotAt, fn.scope.parent)
	}
	return unknown
}

// expr evaluates an expression in scope s.
func (r *resolver) expr(e *treesit.Node, s *scope) value {
	if e == nil || s == nil {
		return unknown
	}
	if v, ok := r.memo[e]; ok {
		return v
	}
	if !r.enter(e) {
		return unknown
	}
	v := r.expr1(e, s)
	r.leave(e)
	r.memo[e] = v
	return v
}

func (r *resolver) expr1(e *treesit.Node, s *scope) value {
	switch e.Kind {
	case "identifier":
		return r.nameValue(s, e.Text())
	case "none":
		return value{k: vNone}
	case "parenthesized_expression":
		if in := treesit.Unparen(e); in != e {
			return r.expr(in, s)
		}
	case "attribute":
		obj := r.expr(e.Child("object"), s)
		return r.member(obj, e.Child("attribute").Text())
	case "call":
		return r.call(e, s)
	case "await":
		if in := e.NamedKids(); len(in) == 1 && in[0].Kind == "call" {
			fv := r.expr(in[0].Child("function"), s)
			if (fv.k == vFunc || fv.k == vMethod) && fv.fn.async {
				return r.returns(fv)
			}
			return r.expr(in[0], s)
		}
	case "conditional_expression":
		ks := e.NamedKids()
		if len(ks) == 3 {
			a, b := r.expr(ks[0], s), r.expr(ks[2], s)
			switch {
			case b.k == vNone:
				return a
			case a.k == vNone:
				return b
			case sameValue(a, b):
				return a
			}
		}
	case "named_expression":
		return r.expr(e.Child("value"), s)
	case "subscript":
		// Generic[T] used as a value (a base class) is Generic
		v := r.expr(e.Child("value"), s)
		if v.k == vClass {
			return v
		}
	}
	return unknown
}

// call evaluates a call: an instance for a class, the declared or
// inferred result of a function.
func (r *resolver) call(e *treesit.Node, s *scope) value {
	fnode := e.Child("function")
	if fnode != nil && fnode.Kind == "identifier" && fnode.Text() == "super" {
		return r.superValue(e, s)
	}
	fv := r.expr(fnode, s)
	switch fv.k {
	case vClass:
		return value{k: vInstance, cls: fv.cls} // Color(1) is a member: an instance too
	case vInstance:
		// calling an instance calls its class's __call__
		if h := r.lookupMember(fv, "__call__"); h.fn != nil && !h.fn.async {
			return r.returns(value{k: vMethod, fn: h.fn, self: fv.cls})
		}
	case vFunc, vMethod:
		if fv.fn.async {
			return unknown // a coroutine
		}
		return r.returns(fv)
	case vExternal:
		if n := lastPart(fv.name); n != "" && n[0] >= 'A' && n[0] <= 'Z' && !strings.HasPrefix(fv.name, "typing") {
			// an instance of a class outside the repository: its members
			// are not the repository's
			return value{k: vExternal, name: fv.name + "()"}
		}
		switch fv.name {
		case "typing.cast", "typing_extensions.cast":
			if args := e.Child("arguments"); args != nil {
				if a := args.NamedKids(); len(a) == 2 {
					return r.annotation(a[0], s)
				}
			}
		}
	}
	return unknown
}

// superValue is super() inside a method: the class of the method, bound
// to self. super(C, self) names the class explicitly.
func (r *resolver) superValue(e *treesit.Node, s *scope) value {
	args := e.Child("arguments")
	if args != nil {
		if a := args.NamedKids(); len(a) == 2 {
			if c := r.expr(a[0], s); c.k == vClass {
				return value{k: vSuper, cls: c.cls, self: c.cls}
			}
			return unknown
		}
	}
	for sc := s; sc != nil; sc = sc.parent {
		if sc.kind == scFunc && sc.fn != nil && sc.fn.cls != nil {
			return value{k: vSuper, cls: sc.fn.cls, self: sc.fn.cls}
		}
	}
	return unknown
}

// returns is the result of calling a function: its annotation, or what
// all its return statements agree on.
func (r *resolver) returns(fv value) value {
	fn := fv.fn
	if fn.returns != nil {
		return r.resultAnnotation(fv, fn.returns)
	}
	if v, ok := r.retTy[fn]; ok {
		return v
	}
	r.retTy[fn] = unknown
	var out value
	ok := true
	count := 0
	treesit.Walk(fn.node.Child("body"), func(n *treesit.Node) bool {
		if !ok {
			return false
		}
		switch n.Kind {
		case "function_definition", "class_definition", "lambda":
			return false
		case "yield":
			ok = false
			return false
		case "return_statement":
			ks := n.NamedKids()
			if len(ks) != 1 {
				return false
			}
			v := r.expr(ks[0], fn.scope)
			if v.k == vNone {
				return false
			}
			if v.k != vInstance || out.known() && !sameValue(out, v) {
				ok = false
				return false
			}
			out = v
			count++
		}
		return true
	})
	if !ok || count == 0 {
		out = unknown
	}
	r.retTy[fn] = out
	return out
}

// resultAnnotation evaluates e, written in the result annotation of the
// function fv (or an element of it): typing.Self is fv's receiver class.
func (r *resolver) resultAnnotation(fv value, e *treesit.Node) value {
	v := r.annotation(e, fv.fn.scope.parent)
	if v.k == vExternal && (v.name == "typing.Self" || v.name == "typing_extensions.Self") && fv.self != nil {
		return value{k: vInstance, cls: fv.self}
	}
	return v
}

// member evaluates v.name.
func (r *resolver) member(v value, name string) value {
	switch v.k {
	case vModule:
		if v.file == nil {
			if p := r.ix.mods.submodule(v.dir, name); p != "" {
				return r.modValue(p)
			}
			return unknown
		}
		return r.moduleMember(v.file, name, true)
	case vExternal:
		if strings.HasSuffix(v.name, "()") {
			// an attribute of an object from outside: it may hold anything,
			// the repository's objects included
			return unknown
		}
		return value{k: vExternal, name: v.name + "." + name}
	case vClass, vInstance, vSuper:
		h := r.lookupMember(v, name)
		return r.hitValue(v, h)
	}
	return unknown
}

func (r *resolver) modValue(p string) value {
	if strings.HasSuffix(p, "/") {
		return value{k: vModule, dir: p}
	}
	if f := r.ix.file(p); f != nil {
		return value{k: vModule, file: f}
	}
	return unknown
}

// moduleMember evaluates the module-level name of file f: its bindings,
// then its star imports, then (as an attribute) a submodule. A name found
// nowhere is vMissing, unless the module can provide names dynamically.
func (r *resolver) moduleMember(f *pfile, name string, attr bool) value {
	key := [2]any{f, name}
	if !r.enter(key) {
		return unknown
	}
	defer r.leave(key)
	if bs := f.top.names[name]; len(bs) > 0 {
		return r.bindingsValue(bs, f.top)
	}
	uncertain := f.dynamic && attr // PEP 562 __getattr__ answers attribute access, not global names
	for _, st := range f.stars {
		m := r.module(st.Child("module_name").Text(), f.path)
		switch m.k {
		case vModule:
			if m.file == nil {
				continue
			}
			if !exported(m.file, name) {
				continue
			}
			v := r.moduleMember(m.file, name, false)
			if v.k != vMissing {
				return v
			}
		default:
			uncertain = true
		}
	}
	if attr {
		if p := r.ix.mods.submodule(f.path, name); p != "" {
			return r.modValue(p)
		}
	}
	if !attr && builtins[name] {
		return value{k: vExternal, name: "builtins." + name}
	}
	if uncertain || name == "__name__" || name == "__file__" || name == "__doc__" || name == "__path__" || name == "__all__" || name == "__spec__" {
		return unknown
	}
	return value{k: vMissing, file: f, name: name}
}

// exported reports whether a star import of f brings name.
func exported(f *pfile, name string) bool {
	if f.hasAll {
		for _, n := range f.all {
			if n == name {
				return true
			}
		}
		return false
	}
	return !strings.HasPrefix(name, "_")
}
