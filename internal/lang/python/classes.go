package python

import (
	"strings"

	"github.com/ripple-dev/ripple/internal/lang/treesit"
)

// ckind is the family of a class, for what defines its constructor and
// its members.
type ckind int

const (
	ckPlain     ckind = iota
	ckDataclass       // @dataclass, attrs (@attr.s, @define, @frozen), pydantic dataclasses
	ckAttrsOld        // @attr.s without auto_attribs: fields are the attr.ib() assignments
	ckNamedTuple
	ckTypedDict
	ckEnum
	ckModel // pydantic BaseModel, BaseSettings, SQLModel: keyword-only fields
)

func (k ckind) String() string {
	switch k {
	case ckDataclass, ckAttrsOld:
		return "dataclass"
	case ckNamedTuple:
		return "NamedTuple"
	case ckTypedDict:
		return "TypedDict"
	case ckEnum:
		return "Enum"
	case ckModel:
		return "model"
	}
	return "class"
}

// kindFromText decides a class's family from its decorators and base
// names as written; the resolver refines it through repository bases.
func kindFromText(decos []*treesit.Node, bases []*treesit.Node) ckind {
	for _, d := range decos {
		name := decoratorName(d.Tree, d)
		switch name {
		case "dataclass", "dataclasses.dataclass", "pydantic.dataclasses.dataclass", "define", "frozen", "mutable",
			"attr.define", "attr.frozen", "attr.mutable", "attrs.define", "attrs.frozen", "attrs.mutable", "attr.dataclass":
			return ckDataclass
		case "attr.s", "attr.attrs", "attrs", "attr.attributes":
			if d.Kind == "call" && strings.Contains(d.Child("arguments").Text(), "auto_attribs=True") {
				return ckDataclass
			}
			return ckAttrsOld
		}
	}
	for _, b := range bases {
		if k := baseKind(baseName(b)); k != ckPlain {
			return k
		}
	}
	return ckPlain
}

// baseName is the dotted name of a base class expression without type
// arguments.
func baseName(b *treesit.Node) string {
	if b.Kind == "subscript" {
		b = b.Child("value")
	}
	return b.Text()
}

func baseKind(name string) ckind {
	switch lastPart(name) {
	case "NamedTuple":
		return ckNamedTuple
	case "TypedDict":
		return ckTypedDict
	case "Enum", "IntEnum", "StrEnum", "Flag", "IntFlag", "ReprEnum":
		return ckEnum
	case "BaseModel", "BaseSettings", "SQLModel", "RootModel":
		return ckModel
	}
	return ckPlain
}

// classKind is the family of a class of the head state, inherited from
// repository bases for the families that inherit (enums, models, typed
// dicts).
func (r *resolver) classKind(c *classInfo) ckind {
	if k := kindFromText(c.decorators, c.bases); k != ckPlain {
		return k
	}
	m := r.mro(c)
	for _, b := range m.list[1:] {
		switch k := kindFromText(nil, b.bases); k {
		case ckEnum, ckModel, ckTypedDict:
			return k
		}
	}
	for _, e := range m.external {
		switch k := baseKind(e); k {
		case ckEnum, ckModel, ckTypedDict:
			return k
		}
	}
	return ckPlain
}

// mroResult is a class's method resolution order within the repository,
// with the bases that lie outside it.
type mroResult struct {
	list     []*classInfo
	external []string // dotted names of bases outside the repository ("builtins.Exception")
	// unknown is set when a base could not be resolved at all, or an
	// external base may define any attribute.
	unknown bool
}

// benignBases are external bases whose attributes are known; any other
// external base may provide any attribute.
var benignBases = map[string][]string{
	"builtins.object":              nil,
	"typing.Generic":               nil,
	"typing_extensions.Generic":    nil,
	"typing.Protocol":              nil,
	"typing_extensions.Protocol":   nil,
	"abc.ABC":                      nil,
	"typing.NamedTuple":            {"_fields", "_field_defaults", "_asdict", "_replace", "_make", "count", "index"},
	"typing_extensions.NamedTuple": {"_fields", "_field_defaults", "_asdict", "_replace", "_make", "count", "index"},
	"enum.Enum":                    {"name", "value", "_name_", "_value_", "_missing_", "_generate_next_value_", "_member_map_", "_member_names_"},
	"enum.IntEnum":                 {"name", "value", "_name_", "_value_", "_missing_", "_generate_next_value_"},
	"enum.StrEnum":                 {"name", "value", "_name_", "_value_", "_missing_", "_generate_next_value_"},
	"enum.Flag":                    {"name", "value", "_name_", "_value_", "_missing_", "_generate_next_value_"},
	"enum.IntFlag":                 {"name", "value", "_name_", "_value_", "_missing_", "_generate_next_value_"},
}

var exceptionAttrs = []string{"args", "with_traceback", "add_note", "__notes__", "__traceback__", "__cause__", "__context__", "__suppress_context__"}

//go:generate sh -c "python3 stdbases_gen.py > stdbases.go && gofmt -w stdbases.go"

// externalHas reports whether an external base may define name: not
// when it is one whose attributes are all known (benignBases, and the
// standard library's containers and ABCs in stdbases.go) and lacks it.
func externalHas(base, name string) bool {
	attrs, ok := benignBases[base]
	if !ok {
		attrs, ok = stdBases[base]
	}
	if ok {
		for _, a := range attrs {
			if a == name {
				return true
			}
		}
		return false
	}
	if isBuiltinException(base) {
		switch base {
		case "builtins.BaseException", "builtins.Exception", "builtins.ValueError", "builtins.TypeError", "builtins.RuntimeError",
			"builtins.LookupError", "builtins.IndexError", "builtins.NotImplementedError", "builtins.AssertionError",
			"builtins.ArithmeticError", "builtins.ZeroDivisionError", "builtins.OverflowError", "builtins.RecursionError",
			"builtins.TimeoutError", "builtins.Warning", "builtins.UserWarning", "builtins.DeprecationWarning",
			"builtins.RuntimeWarning", "builtins.FutureWarning", "builtins.PendingDeprecationWarning":
			for _, a := range exceptionAttrs {
				if a == name {
					return true
				}
			}
			return false
		}
		return true // OSError, KeyError, UnicodeError...: more attributes; do not judge
	}
	return true
}

// mro computes the C3 linearization of a class over its repository bases.
func (r *resolver) mro(c *classInfo) mroResult {
	if m, ok := r.mros[c]; ok {
		return m
	}
	r.mros[c] = mroResult{list: []*classInfo{c}, unknown: true} // cycle guard
	res := mroResult{}
	var seqs [][]*classInfo
	var direct []*classInfo
	for _, b := range c.bases {
		v := r.expr(b, c.scope.parent)
		switch v.k {
		case vClass:
			bm := r.mro(v.cls)
			seqs = append(seqs, bm.list)
			direct = append(direct, v.cls)
			res.external = append(res.external, bm.external...)
			res.unknown = res.unknown || bm.unknown
		case vExternal:
			res.external = append(res.external, v.name)
			if _, ok := benignBases[v.name]; !ok && !isBuiltinException(v.name) {
				res.unknown = true
			}
		default:
			res.unknown = true
			res.external = append(res.external, "?"+baseName(b))
		}
	}
	for _, k := range c.keywords {
		if n := k.Child("name"); n != nil && n.Text() == "metaclass" {
			if mv := r.expr(k.Child("value"), c.scope.parent); mv.k != vExternal || !strings.HasPrefix(mv.name, "abc.") {
				res.unknown = true // a metaclass may add attributes
			}
		}
	}
	seqs = append(seqs, direct)
	res.list = append([]*classInfo{c}, c3merge(seqs)...)
	r.mros[c] = res
	return res
}

// isBuiltinException recognises the builtin exception classes.
func isBuiltinException(name string) bool {
	n, ok := strings.CutPrefix(name, "builtins.")
	return ok && (strings.HasSuffix(n, "Error") || strings.HasSuffix(n, "Exception") || strings.HasSuffix(n, "Warning") ||
		n == "StopIteration" || n == "StopAsyncIteration" || n == "KeyboardInterrupt" || n == "SystemExit" || n == "GeneratorExit")
}

// c3merge merges linearizations; on an inconsistent hierarchy it falls
// back to depth-first order without duplicates.
func c3merge(seqs [][]*classInfo) []*classInfo {
	var out []*classInfo
	work := make([][]*classInfo, len(seqs))
	for i, s := range seqs {
		work[i] = append([]*classInfo(nil), s...)
	}
	for {
		empty := true
		for _, s := range work {
			if len(s) > 0 {
				empty = false
			}
		}
		if empty {
			return out
		}
		var pick *classInfo
		for _, s := range work {
			if len(s) == 0 {
				continue
			}
			cand := s[0]
			inTail := false
			for _, t := range work {
				for _, x := range t[min(1, len(t)):] {
					if x == cand {
						inTail = true
					}
				}
			}
			if !inTail {
				pick = cand
				break
			}
		}
		if pick == nil {
			// inconsistent: depth-first fallback
			seen := map[*classInfo]bool{}
			for _, x := range out {
				seen[x] = true
			}
			for _, s := range work {
				for _, x := range s {
					if !seen[x] {
						seen[x] = true
						out = append(out, x)
					}
				}
			}
			return out
		}
		out = append(out, pick)
		for i, s := range work {
			if len(s) > 0 && s[0] == pick {
				work[i] = s[1:]
			}
		}
	}
}

// memberHit is the outcome of looking a member up through the MRO.
type memberHit struct {
	owner *classInfo // the class that defines it
	fn    *funcInfo
	attr  *attrInfo
	cls   *classInfo // a nested class
	// external: not found in the repository, but an external base may
	// define it; unknown: a base could not be resolved.
	external bool
	unknown  bool
	dynamic  bool       // a class of the MRO defines __getattr__, __getattribute__ or sets attributes by computed names
	recv     *classInfo // the class the lookup started from
	inst     bool       // looked up on an instance
	mro      []*classInfo
}

func (h memberHit) found() bool { return h.fn != nil || h.attr != nil || h.cls != nil }

// lookupMember looks name up on a class, an instance or super().
func (r *resolver) lookupMember(v value, name string) memberHit {
	recv := v.cls
	start := 0
	if v.k == vSuper {
		recv = v.self
	}
	m := r.mro(recv)
	if v.k == vSuper {
		for i, c := range m.list {
			if sameClass(c, v.cls) {
				start = i + 1
			}
		}
	}
	h := memberHit{recv: recv, inst: v.k != vClass, mro: m.list}
	dynamic := false
	for _, c := range m.list[start:] {
		if _, ok := c.methods["__getattr__"]; ok && h.inst {
			dynamic = true
		}
		if _, ok := c.methods["__getattribute__"]; ok && h.inst {
			dynamic = true
		}
		if c.dynamicAttrs && h.inst {
			dynamic = true
		}
		if fn, ok := c.methods[name]; ok {
			h.owner, h.fn = c, fn
			return h
		}
		if a, ok := c.attrs[name]; ok {
			h.owner, h.attr = c, a
			return h
		}
		for _, b := range c.scope.names[name] {
			if b.kind == bClass {
				h.owner, h.cls = c, b.cls
				return h
			}
		}
		if len(c.scope.names[name]) > 0 {
			h.owner = c
			h.unknown = true // bound in the class body some other way (import, for target)
			return h
		}
	}
	if strings.HasPrefix(name, "__") && strings.HasSuffix(name, "__") || dynamic {
		h.external = true // object's dunders and the data model; __getattr__
		h.dynamic = dynamic
		return h
	}
	for _, e := range m.external {
		if strings.HasPrefix(e, "?") || externalHas(e, name) {
			h.external = true
		}
	}
	h.unknown = h.unknown || m.unknown && h.external
	return h
}

// hitValue is the value of a member found by lookupMember.
func (r *resolver) hitValue(v value, h memberHit) value {
	switch {
	case h.fn != nil:
		fn := h.fn
		if fn.property {
			if !h.inst {
				return unknown // the property object itself
			}
			return r.returns(value{k: vMethod, fn: fn, self: h.recv})
		}
		if fn.static {
			return value{k: vFunc, fn: fn}
		}
		if h.inst || fn.classm {
			return value{k: vMethod, fn: fn, self: h.recv}
		}
		return value{k: vFunc, fn: fn}
	case h.attr != nil:
		return r.attrValue(h.owner, h.attr)
	case h.cls != nil:
		return value{k: vClass, cls: h.cls}
	}
	return unknown
}

// attrValue is the value of a class or instance attribute: its
// annotation, else its assigned value when that is a class (an alias), an
// instance or a module.
func (r *resolver) attrValue(owner *classInfo, a *attrInfo) value {
	if v, ok := r.attrTy[a]; ok {
		return v
	}
	r.attrTy[a] = unknown
	var v value
	if a.annot != nil {
		v = r.annotation(a.annot, a.scope)
	}
	if !v.known() && a.value != nil {
		if call := treesit.Unparen(a.value); call != nil && call.Kind == "call" && isFieldSpec(fileOf(a), call) {
			v = unknown
		} else {
			v = r.expr(a.value, a.scope)
		}
	}
	if v.k == vMissing || v.k == vNone {
		v = unknown
	}
	r.attrTy[a] = v
	return v
}

// isSubclass reports whether sub has base in its MRO (itself included).
func (r *resolver) isSubclass(sub, base *classInfo) bool {
	for _, c := range r.mro(sub).list {
		if sameClass(c, base) {
			return true
		}
	}
	return false
}
