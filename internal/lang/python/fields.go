package python

import (
	"strings"

	"github.com/ripple-dev/ripple/internal/lang/treesit"
)

// fieldSpecNames are the callables that declare a field of a
// dataclass-like class (dataclasses.field, attr.ib, attrs.field,
// pydantic.Field, ...), by the name their module exports.
var fieldSpecNames = map[string]bool{"field": true, "ib": true, "attrib": true, "Field": true, "PrivateAttr": true}

// fieldSpecModules are the modules that export field specifiers.
var fieldSpecModules = map[string]bool{"dataclasses": true, "attr": true, "attrs": true, "pydantic": true,
	"pydantic_settings": true, "sqlmodel": true, "pydantic_core": true}

// isFieldSpec recognises a field specifier call in file f: by the name
// the callee was imported under (`from dataclasses import field as
// dc_field`), or by its own name when written through a module or not
// imported by name. A name the file defines itself is no specifier.
func isFieldSpec(f *pfile, call *treesit.Node) bool {
	fn := call.Child("function")
	if fn == nil {
		return false
	}
	if fn.Kind == "identifier" && f != nil && f.top != nil {
		if bs := f.top.names[fn.Text()]; len(bs) > 0 {
			for _, b := range bs {
				if b.kind != bFrom {
					continue
				}
				root, _, _ := strings.Cut(b.module, ".")
				if fieldSpecModules[root] || fieldSpecNames[b.member] {
					// attrs.Factory(list) and the like are defaults
					return fieldSpecNames[b.member]
				}
			}
			for _, b := range bs {
				if b.kind == bDef || b.kind == bClass || b.kind == bAssign {
					return false // the module's own helper of that name
				}
			}
		}
	}
	return fieldSpecNames[lastPart(fn.Text())]
}

// fileOf is the file a class attribute was read from.
func fileOf(a *attrInfo) *pfile {
	if a == nil || a.scope == nil {
		return nil
	}
	return a.scope.file
}

// isSettings reports a settings model (pydantic's BaseSettings): its
// fields are read from the environment, so the constructor requires none.
func (r *resolver) isSettings(c *classInfo) bool {
	m := r.mro(c)
	for _, k := range m.list {
		for _, b := range k.bases {
			if lastPart(baseName(b)) == "BaseSettings" {
				return true
			}
		}
	}
	for _, e := range m.external {
		if lastPart(e) == "BaseSettings" {
			return true
		}
	}
	return false
}

// redefaults gives the fields a class inherits a default where the class
// assigns them without an annotation (pydantic v1: `name = "x"` in a
// subclass of a model that declared `name: str`).
func redefaults(k *classInfo, out []param, index map[string]int) {
	for _, a := range k.attrOrder {
		if a.annot != nil || a.value == nil || a.instance {
			continue
		}
		if j, ok := index[a.name]; ok {
			out[j].hasDef, out[j].def = true, treesit.Compact(a.value)
		}
	}
}

// oldConstructor is the constructor class c had when the changed
// classes' own fields were those of their base-state declarations
// (olds, by file and qualified name): what a call bound to before.
func (r *resolver) oldConstructor(c *classInfo, olds map[string]*classInfo) ctor {
	r.oldOwners = olds
	defer func() { r.oldOwners = nil }()
	return r.constructor(c)
}
