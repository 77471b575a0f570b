package python

import (
	"strings"

	"github.com/ripple-dev/ripple/internal/lang/treesit"
)

// sym is the identity of what a name denotes, following imports: the
// file and qualified name of a declaration of the repository.
type sym struct {
	path, qual string
	missing    bool // the module has no such name (deleted or never there)
	local      bool // a local variable or parameter: never a declaration's name
	ext        bool // outside the repository (or a builtin)
	unknown    bool // could not be resolved
	module     bool // a module
}

// nameSyms resolves a name used in scope s to the declarations it may
// denote (several when a scope binds it more than once).
func (r *resolver) nameSyms(s *scope, name string) []sym {
	bs, sc := lookup(s, name)
	if bs == nil {
		return r.moduleSyms(sc.file, name, false)
	}
	var out []sym
	for _, b := range bs {
		out = append(out, r.bindingSym(b, sc))
	}
	return out
}

func (r *resolver) bindingSym(b *binding, sc *scope) sym {
	switch b.kind {
	case bDef:
		return sym{path: b.fn.file.path, qual: b.fn.qual}
	case bClass:
		return sym{path: b.cls.file.path, qual: b.cls.qual}
	case bImport:
		m := r.module(b.module, sc.file.path)
		return moduleValueSym(m)
	case bFrom:
		m := r.module(b.module, sc.file.path)
		if m.k == vModule && m.file == sc.file {
			if p := r.ix.mods.submodule(sc.file.path, b.member); p != "" {
				return sym{path: p, module: true} // a package importing its own submodule
			}
		}
		return r.memberSyms(m, b.member)[0]
	case bAssign, bOther, bWith, bFor:
		switch sc.kind {
		case scModule:
			return sym{path: sc.file.path, qual: b.name}
		case scClass:
			return sym{path: sc.file.path, qual: sc.cls.qual + "." + b.name}
		}
	}
	return sym{local: true}
}

func moduleValueSym(m value) sym {
	switch m.k {
	case vModule:
		if m.file != nil {
			return sym{path: m.file.path, module: true}
		}
		return sym{path: m.dir, module: true}
	case vExternal:
		return sym{ext: true}
	}
	return sym{unknown: true}
}

// moduleSyms resolves a module-level name of f: bindings, star imports,
// submodules (attr), builtins; missing otherwise.
func (r *resolver) moduleSyms(f *pfile, name string, attr bool) []sym {
	key := [3]any{"sym", f, name}
	if !r.enter(key) {
		return []sym{{unknown: true}}
	}
	defer r.leave(key)
	if bs := f.top.names[name]; len(bs) > 0 {
		var out []sym
		for _, b := range bs {
			out = append(out, r.bindingSym(b, f.top))
		}
		return out
	}
	uncertain := f.dynamic && attr // PEP 562 __getattr__ answers attribute access, not global names
	for _, st := range f.stars {
		m := r.module(st.Child("module_name").Text(), f.path)
		if m.k != vModule || m.file == nil {
			uncertain = true
			continue
		}
		if !exported(m.file, name) {
			continue
		}
		if ss := r.moduleSyms(m.file, name, false); len(ss) > 0 && !ss[0].missing {
			return ss
		}
	}
	if attr {
		if p := r.ix.mods.submodule(f.path, name); p != "" {
			return []sym{{path: p, module: true}}
		}
	}
	if !attr && builtins[name] || moduleAttrs[name] {
		return []sym{{ext: true}}
	}
	if uncertain {
		return []sym{{unknown: true}}
	}
	return []sym{{path: f.path, qual: name, missing: true}}
}

// moduleAttrs are the attributes every module has without defining them
// (httpie's `from httpie import __doc__`).
var moduleAttrs = map[string]bool{
	"__doc__": true, "__name__": true, "__file__": true, "__package__": true, "__spec__": true,
	"__loader__": true, "__path__": true, "__dict__": true, "__builtins__": true, "__cached__": true,
}

// memberSyms resolves m.name for a module value.
func (r *resolver) memberSyms(m value, name string) []sym {
	switch m.k {
	case vModule:
		if m.file != nil {
			return r.moduleSyms(m.file, name, true)
		}
		if p := r.ix.mods.submodule(m.dir, name); p != "" {
			return []sym{{path: p, module: true}}
		}
		return []sym{{unknown: true}}
	case vExternal:
		return []sym{{ext: true}}
	}
	return []sym{{unknown: true}}
}

// refKind is the syntactic role of a reference.
type refKind int

const (
	rName      refKind = iota // an identifier
	rAttr                     // obj.name
	rImport                   // from m import name
	rOverride                 // def name(...) in a class body
	rFixture                  // a test or fixture parameter named like a fixture
	rString                   // getattr(obj, "name"), patch("mod.name")
	rClassAttr                // name = ... (or name: T) in a class body
	rInstCall                 // obj(...) where obj may be an instance: its class's __call__
)

// ref is one place in a head-state file that may depend on a target.
type ref struct {
	f    *pfile
	n    *treesit.Node // the identifier, attribute, import name, def, or string
	kind refKind
	name string // the name as written
	orig string // the watched name it denotes (differs for an alias)
	s    *scope
	// call is the call (or decorator) n is the callee of, or nil.
	call *treesit.Node
	// refl is the reflective call a string reference is an argument of.
	refl *treesit.Node
	// resolution, filled lazily: syms for names and module members; the
	// receiver value and member hit for attributes.
	syms     []sym
	recv     value
	hit      memberHit
	resolved bool
	fn       *funcInfo  // rOverride, rFixture: the def
	acls     *classInfo // rClassAttr: the class whose body assigns it
}

// collect walks a file and returns the references to the watched names,
// and to the names the file binds to them (import aliases, assignments
// of a watched name).
func collect(f *pfile, watched map[string]bool, wantStrings bool) []*ref {
	var out []*ref
	aliases := aliasesOf(f, watched)
	if len(aliases) > 0 {
		w := make(map[string]bool, len(watched)+len(aliases))
		for k := range watched {
			w[k] = true
		}
		for k := range aliases {
			w[k] = true
		}
		watched = w
	}
	defer func() {
		for _, r := range out {
			r.orig = r.name
			if o, ok := aliases[r.name]; ok {
				r.orig = o
			}
		}
	}()
	add := func(n *treesit.Node, kind refKind, name string) {
		r := &ref{f: f, n: n, kind: kind, name: name}
		if kind == rName || kind == rAttr {
			r.call = calleeOf(n)
		}
		out = append(out, r)
	}
	treesit.Walk(f.t.Root, func(n *treesit.Node) bool {
		if n.Bad {
			return false // references inside syntax errors are not judged
		}
		switch n.Kind {
		case "identifier":
			name := n.Text()
			if watched[name] && isLoad(n) {
				add(n, rName, name)
			}
		case "attribute":
			if a := n.Child("attribute"); a != nil && watched[a.Text()] {
				add(n, rAttr, a.Text())
			}
		case "import_from_statement":
			for _, k := range n.Children("name") {
				nm := k
				if k.Kind == "aliased_import" {
					nm = k.Child("name")
				}
				if watched[nm.Text()] {
					add(k, rImport, nm.Text())
				}
			}
			return false
		case "import_statement", "future_import_statement":
			return false
		case "function_definition":
			if fi := f.funcAt[n]; fi != nil {
				if fi.cls != nil && watched[fi.name] {
					out = append(out, &ref{f: f, n: n, kind: rOverride, name: fi.name, fn: fi})
				}
				for i, p := range fi.params {
					if watched[p.name] && !(i == 0 && fi.cls != nil) {
						out = append(out, &ref{f: f, n: n, kind: rFixture, name: p.name, fn: fi})
					}
				}
			}
		case "call":
			if wantStrings {
				stringRefs(f, n, watched, &out)
			}
		}
		return true
	})
	// class-level assignments of a watched name: a subclass's setting of
	// an attribute its base declares overrides it
	for _, c := range f.classes {
		for _, a := range c.attrOrder {
			if !a.instance && watched[a.name] && a.at != nil && !a.at.Bad {
				out = append(out, &ref{f: f, n: a.at, kind: rClassAttr, name: a.name, acls: c})
			}
		}
	}
	for _, r := range out {
		r.s = f.scopeAt(r.n)
	}
	return out
}

// instanceCalls are the calls of a file whose callee is not a plain
// name of a def or class written at the call (an identifier, attribute,
// subscript or call result that may hold an instance): they reach
// __call__ when the callee is an instance (judged against each __call__
// target, once resolved).
func instanceCalls(f *pfile) []*ref {
	var out []*ref
	treesit.Walk(f.t.Root, func(n *treesit.Node) bool {
		if n.Bad {
			return false
		}
		if n.Kind == "call" {
			if fn := n.Child("function"); fn != nil {
				switch treesit.Unparen(fn).Kind {
				case "identifier", "attribute", "subscript", "call":
					out = append(out, &ref{f: f, n: fn, kind: rInstCall, name: "__call__", orig: "__call__", call: n})
				}
			}
		}
		return true
	})
	for _, r := range out {
		r.s = f.scopeAt(r.n)
	}
	return out
}

// stringRefs finds names in string arguments of reflective calls:
// getattr(obj, "name"), setattr, hasattr, delattr, and dotted paths in
// mock.patch("pkg.mod.name") or monkeypatch.setattr("pkg.mod.name", ...).
func stringRefs(f *pfile, call *treesit.Node, watched map[string]bool, out *[]*ref) {
	fn := call.Child("function")
	if fn == nil {
		return
	}
	callee := lastPart(fn.Text())
	switch callee {
	case "getattr", "setattr", "hasattr", "delattr", "patch", "object", "attr", "attrgetter", "methodcaller":
	default:
		return
	}
	args := call.Child("arguments")
	for _, a := range args.NamedKids() {
		s, ok := stringLit(f.t, a)
		if !ok || s == "" {
			continue
		}
		name := s
		if i := strings.LastIndexByte(s, '.'); i >= 0 {
			name = s[i+1:]
		}
		if watched[name] {
			*out = append(*out, &ref{f: f, n: a, kind: rString, name: name, refl: call})
		}
	}
}

// isLoad reports whether an identifier is a use of a name (not the name
// of a definition, a parameter, a keyword argument, an attribute, an
// import or a store target).
func isLoad(n *treesit.Node) bool {
	p := n.Parent
	if p == nil {
		return false
	}
	switch p.Kind {
	case "attribute":
		return n.Field != "attribute"
	case "function_definition", "class_definition":
		return n.Field != "name"
	case "keyword_argument":
		return n.Field != "name"
	case "parameters", "lambda_parameters", "typed_parameter", "list_splat_pattern", "dictionary_splat_pattern":
		return false
	case "default_parameter", "typed_default_parameter":
		return n.Field == "value"
	case "dotted_name", "aliased_import", "global_statement", "nonlocal_statement", "import_prefix", "relative_import":
		return false
	case "as_pattern":
		// `except E as e:` and `with cm as x:` read E and cm (the alias is
		// an as_pattern_target); in a match statement's `case p as x` the
		// identifier is the capture
		return p.Child("alias") != nil && n.Field != "alias"
	case "keyword_pattern", "case_pattern", "splat_pattern", "dict_pattern", "class_pattern", "list_pattern", "tuple_pattern":
		return false
	case "pattern_list":
		return false
	case "assignment", "augmented_assignment":
		return n.Field != "left"
	case "for_statement", "for_in_clause":
		return n.Field != "left"
	case "named_expression":
		return n.Field != "name"
	case "as_pattern_target":
		return false
	case "type_parameter":
		return true
	}
	return true
}

// calleeOf returns the call whose callee is n, or the decorator n is
// applied as, or nil.
func calleeOf(n *treesit.Node) *treesit.Node {
	p := n.Parent
	for p != nil && p.Kind == "parenthesized_expression" {
		n, p = p, p.Parent
	}
	if p == nil {
		return nil
	}
	if p.Kind == "call" && n.Field == "function" {
		return p
	}
	if p.Kind == "decorator" {
		return p
	}
	return nil
}

// resolve fills a reference's resolution.
func (r *resolver) resolveRef(x *ref) {
	if x.resolved {
		return
	}
	x.resolved = true
	switch x.kind {
	case rName:
		x.syms = r.nameSyms(x.s, x.name)
	case rAttr:
		obj := x.n.Child("object")
		x.recv = r.expr(obj, x.s)
		switch x.recv.k {
		case vModule, vExternal:
			x.syms = r.memberSyms(x.recv, x.name)
		case vClass, vInstance, vSuper:
			x.hit = r.lookupMember(x.recv, x.name)
		}
	case rImport:
		st := x.n.Parent
		m := r.module(st.Child("module_name").Text(), x.f.path)
		x.syms = r.memberSyms(m, x.name)
	case rString:
		// getattr(obj, "name"): the receiver is the first argument
		args := x.refl.Child("arguments").NamedKids()
		if len(args) >= 2 && args[0] != x.n && lastPart(x.refl.Child("function").Text()) != "patch" {
			x.recv = r.expr(args[0], x.s)
			switch x.recv.k {
			case vClass, vInstance:
				x.hit = r.lookupMember(x.recv, x.name)
			case vModule:
				x.syms = r.memberSyms(x.recv, x.name)
			}
		}
	}
}

// receiverRoot returns the identifier at the root of an attribute chain.
func receiverRoot(n *treesit.Node) *treesit.Node {
	for n != nil {
		switch n.Kind {
		case "identifier":
			return n
		case "attribute":
			n = n.Child("object")
		case "call":
			n = n.Child("function")
		case "subscript":
			n = n.Child("value")
		default:
			return nil
		}
	}
	return nil
}

// aliasesOf finds the names a file binds to a watched name: from m import
// Name as Alias, import m.Name as Alias, Alias = Name, Alias = m.Name.
func aliasesOf(f *pfile, watched map[string]bool) map[string]string {
	out := map[string]string{}
	for _, sc := range f.scopes {
		for name, bs := range sc.names {
			if watched[name] {
				continue
			}
			for _, b := range bs {
				switch b.kind {
				case bFrom:
					if watched[b.member] {
						out[name] = b.member
					}
				case bImport:
					if watched[lastPart(b.module)] {
						out[name] = lastPart(b.module)
					}
				case bAssign:
					v := treesit.Unparen(b.value)
					switch {
					case v == nil:
					case v.Kind == "identifier" && watched[v.Text()]:
						out[name] = v.Text()
					case v.Kind == "attribute" && watched[v.Child("attribute").Text()]:
						out[name] = v.Child("attribute").Text()
					}
				}
			}
		}
	}
	return out
}
