package python

import (
	"strings"

	"github.com/ripple-dev/ripple/internal/lang/treesit"
)

// ctor is the signature a call of a class binds to: an explicit __init__
// (or __new__) found through the MRO, or the one a dataclass-like family
// synthesizes from the fields.
type ctor struct {
	params []param
	fn     *funcInfo  // explicit __init__ or __new__; nil when synthesized or object's
	owner  *classInfo // the class that defines or synthesizes it
	// weak: the runtime does not enforce the signature (TypedDict) or a
	// decorator may replace it: a mismatch is at most may be impacted.
	weak bool
	// ok is false when the signature is unknown (an external base's
	// __init__, a metaclass).
	ok bool
}

// classOptions reads init= and kw_only= from a dataclass-like decorator.
func classOptions(c *classInfo) (init, kwOnly bool) {
	init = true
	for _, d := range c.decorators {
		if d.Kind != "call" {
			continue
		}
		for _, a := range d.Child("arguments").NamedKids() {
			if a.Kind != "keyword_argument" {
				continue
			}
			v := a.Child("value").Text()
			switch a.Child("name").Text() {
			case "init":
				init = v != "False"
			case "kw_only":
				kwOnly = v == "True"
			}
		}
	}
	return init, kwOnly
}

// fieldOf returns the constructor parameter a class-level attribute
// becomes in a dataclass-like family, or nil when it is not a field.
func fieldOf(a *attrInfo, kind ckind, kwDefault bool) *param {
	if a.instance {
		return nil
	}
	annot := ""
	if a.annot != nil {
		annot = a.annot.Text()
		head := annot
		if i := strings.IndexByte(head, '['); i >= 0 {
			head = head[:i]
		}
		switch lastPart(strings.Trim(head, `"'`)) {
		case "ClassVar", "KW_ONLY":
			return nil
		}
	}
	p := &param{name: a.name, kind: posKw}
	if kwDefault {
		p.kind = kwOnly
	}
	var spec *treesit.Node
	if v := treesit.Unparen(a.value); v != nil && v.Kind == "call" && isFieldSpec(fileOf(a), v) {
		spec = v
	}
	switch kind {
	case ckAttrsOld:
		if spec == nil {
			return nil
		}
	case ckDataclass, ckNamedTuple, ckTypedDict, ckModel:
		if a.annot == nil {
			return nil
		}
	default:
		return nil
	}
	if kind == ckModel && strings.HasPrefix(a.name, "_") || kind == ckModel && a.name == "model_config" {
		return nil
	}
	if kind == ckTypedDict || kind == ckModel {
		p.kind = kwOnly
	}
	if kind == ckTypedDict && strings.Contains(annot, "NotRequired[") {
		p.hasDef = true
	}
	if a.value != nil && spec == nil {
		p.hasDef, p.def = true, treesit.Compact(a.value)
	}
	if spec != nil {
		args := spec.Child("arguments").NamedKids()
		if kind == ckModel && len(args) > 0 && args[0].Kind != "keyword_argument" {
			// Field(default, ...); Field(...) is required
			if args[0].Kind != "ellipsis" {
				p.hasDef, p.def = true, args[0].Text()
			}
		}
		for _, k := range args {
			if k.Kind != "keyword_argument" {
				continue
			}
			v := k.Child("value")
			switch k.Child("name").Text() {
			case "default", "default_factory", "factory":
				p.hasDef, p.def = true, treesit.Compact(v)
			case "init":
				if v.Text() == "False" {
					return nil
				}
			case "kw_only":
				if v.Text() == "True" {
					p.kind = kwOnly
				}
			case "alias":
				if s, ok := stringLit(v.Tree, v); ok && (kind == ckModel || kind == ckDataclass) {
					p.name = s
				}
			}
		}
	}
	if kind == ckDataclass || kind == ckAttrsOld {
		if a.value != nil && spec == nil {
			p.hasDef = true
		}
	}
	if (kind == ckAttrsOld || kind == ckDataclass && isAttrs(a)) && strings.HasPrefix(p.name, "_") && p.name == a.name {
		p.name = strings.TrimLeft(p.name, "_") // attrs strips private underscores
	}
	return p
}

// isAttrs reports whether a field belongs to an attrs class.
func isAttrs(a *attrInfo) bool {
	if a.scope == nil || a.scope.cls == nil {
		return false
	}
	for _, d := range a.scope.cls.decoNames {
		if strings.HasPrefix(d, "attr") || d == "define" || d == "frozen" || d == "mutable" {
			return true
		}
	}
	return false
}

// ownFields are the constructor parameters a class's own fields give, in
// order.
func ownFields(c *classInfo, kind ckind) []param {
	_, kw := classOptions(c)
	var out []param
	for _, a := range c.attrOrder {
		if a.annot != nil {
			t := a.annot.Text()
			if t == "KW_ONLY" || strings.HasSuffix(t, ".KW_ONLY") {
				kw = true
				continue
			}
		}
		if _, isMethod := c.methods[a.name]; isMethod {
			continue
		}
		if p := fieldOf(a, kind, kw); p != nil {
			out = append(out, *p)
		}
	}
	return out
}

// constructor finds the signature a call of class c binds to.
func (r *resolver) constructor(c *classInfo) ctor {
	m := r.mro(c)
	kind := r.classKind(c)
	switch kind {
	case ckEnum:
		return ctor{owner: c} // Color(value) looks a member up
	}
	for _, k := range m.list {
		if fn, ok := k.methods["__init__"]; ok {
			return ctor{params: dropFirst(fn), fn: fn, owner: k, ok: true, weak: opaque(fn)}
		}
		kk := kindFromText(k.decorators, k.bases)
		if k != c && (kk == ckModel || kk == ckTypedDict) {
			kk = ckPlain // the fields are gathered from c below
		}
		switch {
		case kk == ckDataclass || kk == ckAttrsOld || kk == ckNamedTuple:
			if init, _ := classOptions(k); !init {
				continue
			}
			return ctor{params: r.synthFields(k, kk), owner: k, ok: true}
		case k == c && (kind == ckModel || kind == ckTypedDict):
			ps := r.synthFields(k, kind)
			if kind == ckModel && r.isSettings(k) {
				for i := range ps {
					ps[i].hasDef = true // read from the environment when not passed
				}
			}
			if kind == ckModel {
				// pydantic ignores unknown keywords by default
				ps = append(ps, param{name: "data", kind: varKw})
			}
			return ctor{params: ps, owner: k, ok: true, weak: kind == ckTypedDict}
		}
		if fn, ok := k.methods["__new__"]; ok {
			return ctor{params: dropFirst(fn), fn: fn, owner: k, ok: true, weak: opaque(fn)}
		}
	}
	for _, e := range m.external {
		switch {
		case e == "builtins.object" || e == "abc.ABC" || strings.HasPrefix(e, "typing") && (strings.HasSuffix(e, ".Generic") || strings.HasSuffix(e, ".Protocol")):
			continue
		case isBuiltinException(e) && !externalHas(e, "\x00"):
			// BaseException.__init__(*args): no keywords
			return ctor{params: []param{{name: "args", kind: varArgs}}, owner: c, ok: true}
		}
		return ctor{owner: c}
	}
	if m.unknown || len(c.keywords) > 0 {
		return ctor{owner: c}
	}
	return ctor{owner: c, ok: true} // object(): no arguments
}

// synthFields gathers the fields of a dataclass-like class and its
// dataclass-like bases, base fields first, as the decorators do.
func (r *resolver) synthFields(c *classInfo, kind ckind) []param {
	m := r.mro(c)
	var out []param
	index := map[string]int{}
	for i := len(m.list) - 1; i >= 0; i-- {
		k := m.list[i]
		kk := kindFromText(k.decorators, k.bases)
		if k != c && kk != kind && !(kind == ckModel || kind == ckTypedDict) {
			continue
		}
		if k != c && kk == ckPlain && !(kind == ckModel || kind == ckTypedDict) {
			continue
		}
		src := k
		if old := r.oldOwners[k.file.path+"\x00"+k.qual]; old != nil {
			src = old // the base state's fields of a changed class
		}
		if kind == ckModel {
			redefaults(src, out, index)
		}
		for _, p := range ownFields(src, kind) {
			if j, ok := index[p.name]; ok {
				out[j] = p
				continue
			}
			index[p.name] = len(out)
			out = append(out, p)
		}
	}
	// keyword-only fields go after the others
	var pos, kw []param
	for _, p := range out {
		if p.kind == kwOnly {
			kw = append(kw, p)
		} else {
			pos = append(pos, p)
		}
	}
	return append(pos, kw...)
}

// dropFirst returns a method's parameters without self or cls.
func dropFirst(fn *funcInfo) []param {
	if fn.static || len(fn.params) == 0 || fn.params[0].kind > posKw {
		return fn.params
	}
	return fn.params[1:]
}

// opaque reports whether a function has a decorator that may change how
// it is called (anything but the well-known signature-preserving ones).
func opaque(fn *funcInfo) bool {
	for _, d := range fn.decoNames {
		if !preserving(d) {
			return true
		}
	}
	return false
}

// preserving reports decorators known to keep the calling convention of
// what they decorate (staticmethod and classmethod are handled by the
// binder).
func preserving(d string) bool {
	switch lastPart(d) {
	case "staticmethod", "classmethod", "property", "cached_property", "setter", "getter", "deleter",
		"abstractmethod", "abstractproperty", "abstractclassmethod", "abstractstaticmethod",
		"overload", "override", "final", "cache", "lru_cache", "wraps", "no_type_check",
		"contextmanager", "asynccontextmanager", "deprecated", "total_ordering", "dataclass",
		"singledispatch", "singledispatchmethod", "typing.no_type_check", "runtime_checkable",
		"fixture", "yield_fixture", "pass_eval_context", "unique", "verify":
		return true
	}
	if strings.HasPrefix(d, "pytest.mark.") || strings.HasPrefix(d, "mark.") {
		return true
	}
	return false
}
