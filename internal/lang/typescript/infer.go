package typescript

import (
	"strings"

	"github.com/ripple-dev/ripple/internal/lang/treesit"
)

// resultOrigin is the declaration of the class or interface a value is
// known to hold because a function of the repository declares it as its
// return type: `const x = make()`, `const x = await load()` (a
// Promise<T> return unwrapped), or the call itself as a receiver
// (`make().m()`). The type name is resolved in the declaring function's
// file (declared there or imported), so that a name that means another
// class elsewhere is not taken for the target. ok is false when any step
// is unknown.
func (j *judge) resultOrigin(n *treesit.Node) (origin, bool) {
	return j.a.resultOriginIn(j.f, n, 0)
}

// resultOriginIn is resultOrigin for an expression of file f. An
// identifier that names no local of f but a binding imported from a
// repository module is followed to the module's top-level const (`export
// const ky = createInstance()`, `export default ky`): its annotation, or
// the declared return type of the call initializing it.
func (a *analyzer) resultOriginIn(f *tsfile, n *treesit.Node, depth int) (origin, bool) {
	n = treesit.Unparen(n)
	if n == nil || depth > 4 {
		return origin{}, false
	}
	if n.Kind == "identifier" {
		d := lookup(n, n.Text())
		if d == nil {
			o, ok := a.declOrigin(f, n.Text())
			if !ok || o.path == f.path {
				return origin{}, false
			}
			of := a.file(o.path)
			if of == nil {
				return origin{}, false
			}
			d, _ = declaredIn(of.t.Root, o.local)
			if d == nil || d.Kind != "variable_declarator" {
				return origin{}, false
			}
			f = of
			if t := d.Child("type"); t != nil {
				name := typeName(t.Text())
				if name == "" || strings.Contains(name, ".") || !constDecl(d) {
					return origin{}, false
				}
				return a.declOrigin(f, name)
			}
		}
		if d == nil || d.Kind != "variable_declarator" || d.Child("name").KindOr() != "identifier" || d.Child("type") != nil {
			return origin{}, false
		}
		if !constDecl(d) {
			return origin{}, false // a let or var may be reassigned
		}
		n = treesit.Unparen(d.Child("value"))
		if n.KindOr() == "identifier" {
			return a.resultOriginIn(f, n, depth+1)
		}
	}
	awaited := false
	if n.KindOr() == "await_expression" {
		ks := n.NamedKids()
		if len(ks) != 1 {
			return origin{}, false
		}
		n, awaited = treesit.Unparen(ks[0]), true
	}
	if n.KindOr() != "call_expression" {
		return origin{}, false
	}
	callee := n.Child("function")
	if callee.KindOr() != "identifier" || shadowed(callee, callee.Text()) {
		return origin{}, false
	}
	df, d := a.funcDecl(f, callee.Text())
	if d == nil || d.fn == nil || len(d.overloads) > 0 {
		return origin{}, false
	}
	ret := strings.TrimSpace(d.fn.ret)
	if strings.HasPrefix(ret, "Promise<") && strings.HasSuffix(ret, ">") {
		if !awaited {
			return origin{}, false
		}
		ret = ret[len("Promise<") : len(ret)-1]
	} else if strings.HasPrefix(ret, "async ") {
		return origin{}, false
	}
	name := typeName(ret)
	if name == "" || strings.Contains(ret, ".") {
		return origin{}, false
	}
	return a.declOrigin(df, name)
}

// constDecl reports a variable declarator of a const declaration.
func constDecl(d *treesit.Node) bool {
	p := d.Parent
	return p != nil && p.Kind == "lexical_declaration" && strings.HasPrefix(p.Text(), "const")
}

// funcDecl finds the top-level function a name denotes in file f:
// declared there, or imported from a file of the repository.
func (a *analyzer) funcDecl(f *tsfile, name string) (*tsfile, *declData) {
	o, ok := a.declOrigin(f, name)
	if !ok {
		return nil, nil
	}
	of := a.file(o.path)
	if of == nil {
		return nil, nil
	}
	for _, d := range of.decls {
		if n, c := d.names(); c == "" && n == o.local && d.kind == dFunc {
			return of, d
		}
	}
	return nil, nil
}

// declOrigin is where a top-level name of file f is declared: in f, or
// in the repository file an import of it leads to.
func (a *analyzer) declOrigin(f *tsfile, name string) (origin, bool) {
	if b := f.imports[name]; b != nil && !f.declares(name) {
		if b.name == "*" {
			return origin{}, false
		}
		mod := a.resolve(f.path, b.spec)
		if mod == "" {
			return origin{}, false
		}
		o, _, ok := a.exportOf(mod, b.name, 0)
		if !ok || o.local == "*" || o.local == "" {
			return origin{}, false
		}
		return o, true
	}
	if f.declares(name) {
		return origin{f.path, name}, true
	}
	return origin{}, false
}
