package python

import (
	"fmt"
	"path"
	"slices"
	"strings"

	"github.com/ripple-dev/ripple/internal/lang"
	"github.com/ripple-dev/ripple/internal/lang/treesit"
	"github.com/ripple-dev/ripple/internal/model"
)

// ctorRules judge the calls of a class whose constructor changed: its
// instantiations, those of subclasses that inherit the constructor, and
// super().__init__(...) calls. They judge through the judge they extend,
// whose references, targets and findings they share.
type ctorRules struct{ *judge }

// ctorVerdict judges a reference against a constructor target: a call of
// the class (or of a subclass that inherits the constructor, or cls(...)
// in a classmethod), and super().__init__(...) / Base.__init__(self, ...).
func (j ctorRules) ctorVerdict(t *target, x *ref) (verdict, bool) {
	if x.call == nil || x.call.Kind != "call" || x.kind != rName && x.kind != rAttr {
		return verdict{}, false
	}
	T := t.cls
	if x.kind == rAttr && (x.name == "__init__" || x.name == "__new__") {
		return j.initCallVerdict(t, x)
	}
	cv := j.r.expr(x.n, x.s)
	if cv.k == vUnknown && len(cv.alts) > 0 {
		// a name bound to different classes under conditions: judged
		// against each one the target reaches; a break is certain in one
		// configuration only
		var best verdict
		found := false
		for _, a := range cv.alts {
			if a.k != vClass || !j.r.isSubclass(a.cls, T) {
				continue
			}
			v, ok := j.ctorVerdictFor(t, x, a.cls)
			if !ok {
				continue
			}
			if v.v == model.Inconsistent {
				v.v = model.MayBeImpacted
				v.msg += fmt.Sprintf(" (when %s is %s: it is bound to %d different values)", calleeText(x), j.moduleName(a.cls.file.path)+"."+a.cls.qual, len(cv.alts))
			}
			if !found || v.v > best.v { // the ladder is ordered weakest first
				best, found = v, true
			}
		}
		return best, found
	}
	if cv.k != vClass || !j.r.isSubclass(cv.cls, T) {
		return verdict{}, false
	}
	return j.ctorVerdictFor(t, x, cv.cls)
}

// calleeText is how a reference is written.
func calleeText(x *ref) string { return x.n.Text() }

// ctorVerdictFor judges a call that instantiates class C against a
// constructor target.
func (j ctorRules) ctorVerdictFor(t *target, x *ref, C *classInfo) (verdict, bool) {
	T := t.cls
	ct := j.r.constructor(C)
	mro := j.r.mro(C).list
	ti, oi := -1, -1
	for i, c := range mro {
		if sameClass(c, T) {
			ti = i
		}
		if ct.owner != nil && sameClass(c, ct.owner) {
			oi = i
		}
	}
	switch {
	case t.ch.Label == model.DCC:
		if oi >= 0 && oi < ti {
			return verdict{}, false // a subclass's own constructor answers
		}
	case ct.fn == nil && oi >= 0 && oi < ti:
		// a dataclass-like subclass synthesizes its constructor from the
		// fields of its bases too
	case oi != ti:
		return verdict{}, false
	}
	if t.ch.Derived {
		return verdict{model.InstantiatedBy, model.MayBeImpacted, fmt.Sprintf("instantiates %s, whose constructor must change with %s", C.qual, t.ch.Cause.Block().Display), model.PrecisionSyntax, ""}, true
	}
	if !ct.ok {
		return verdict{}, false
	}
	args := argsOf(x.call)
	res := bind(ct.params, args, C.qual+"()")
	details := strings.Join(t.ch.Details, "; ")
	via := ""
	if !sameClass(C, T) {
		via = fmt.Sprintf(" (inherited from %s)", T.qual)
	}
	var oct *ctor
	if ct.fn == nil {
		if olds := j.oldClasses(); olds[T.file.path+"\x00"+T.qual] != nil {
			if c := j.r.oldConstructor(C, olds); c.ok && c.fn == nil {
				oct = &c
			}
		}
	}
	if res.err != "" {
		if t.od != nil && t.od.fn != nil && (t.od.fn.name == "__init__" || t.od.fn.name == "__new__") && bind(dropFirst(t.od.fn), args, C.qual).err != "" {
			return verdict{}, false // it did not bind before the change either
		}
		if oct != nil && bind(oct.params, args, C.qual+"()").err != "" {
			return verdict{}, false // it did not bind to the old fields either
		}
		if ct.weak || ct.fn != nil && j.opaque(ct.fn) {
			return verdict{model.InstantiatedBy, model.MayBeImpacted, fmt.Sprintf("the call %s%s (%s); the runtime may not enforce it", res.err, via, details), model.PrecisionSyntax, ""}, true
		}
		exc := "TypeError"
		if ct.fn == nil && j.r.classKind(C) == ckModel {
			exc = "ValidationError" // pydantic validates the keywords
		}
		return verdict{model.InstantiatedBy, model.Inconsistent, fmt.Sprintf("the call %s%s (%s)", res.err, via, details), model.PrecisionSyntax, exc}, true
	}
	if t.od != nil && t.od.fn != nil && ct.fn != nil && (t.od.fn.name == "__init__" || t.od.fn.name == "__new__") {
		broken, moved := shifted(dropFirst(t.od.fn), ct.params, args, C.qual+"()")
		if broken != "" && j.a.touched(x.f.path, x.call) {
			broken = ""
		}
		if broken != "" {
			return verdict{model.InstantiatedBy, model.Inconsistent, fmt.Sprintf("the call of %s binds, but %s (%s)", C.qual, broken, details), model.PrecisionSyntax, ""}, true
		}
		if moved != "" {
			j.dflt.mark(x, moved)
			return verdict{model.InstantiatedBy, model.MayBeImpacted, fmt.Sprintf("the call of %s still binds, but %s", C.qual, moved), model.PrecisionSyntax, ""}, true
		}
	}
	if oct != nil {
		// a field removed or inserted moves the positional arguments after
		// it onto other fields
		broken, moved := shifted(oct.params, ct.params, args, C.qual+"()")
		if broken != "" && j.a.touched(x.f.path, x.call) {
			broken = ""
		}
		if broken != "" {
			if ct.weak {
				return verdict{model.InstantiatedBy, model.MayBeImpacted, fmt.Sprintf("the call of %s binds, but %s (%s); the runtime may not enforce it", C.qual, broken, details), model.PrecisionSyntax, ""}, true
			}
			return verdict{model.InstantiatedBy, model.Inconsistent, fmt.Sprintf("the call of %s binds, but %s (%s)", C.qual, broken, details), model.PrecisionSyntax, ""}, true
		}
		if moved != "" {
			j.dflt.mark(x, moved)
			return verdict{model.InstantiatedBy, model.MayBeImpacted, fmt.Sprintf("the call of %s still binds, but %s", C.qual, moved), model.PrecisionSyntax, ""}, true
		}
	}
	return verdict{model.InstantiatedBy, model.Consistent, fmt.Sprintf("the call binds to the new constructor of %s", C.qual), model.PrecisionSyntax, ""}, true
}

// oldClasses are the base-state declarations of the classes whose
// fields changed, by file and qualified name.
func (j ctorRules) oldClasses() map[string]*classInfo {
	if j.olds == nil {
		j.olds = map[string]*classInfo{}
		for _, t := range j.targets {
			if t.kind != tCtor || t.cls == nil {
				continue
			}
			if old := oldFields(t); old != nil {
				j.olds[t.cls.file.path+"\x00"+t.cls.qual] = old
			}
		}
	}
	return j.olds
}

// oldFields is a constructor target's class with its base-state fields:
// the base-state declaration a change carries, or the head class without
// the fields the change added. nil when neither is known.
func oldFields(t *target) *classInfo {
	if t.oldCls != nil {
		return t.oldCls
	}
	if len(t.addedFields) == 0 || t.cls == nil {
		return nil
	}
	c := *t.cls
	c.attrOrder = nil
	for _, a := range t.cls.attrOrder {
		if !contains(t.addedFields, a.name) {
			c.attrOrder = append(c.attrOrder, a)
		}
	}
	return &c
}

// initCallVerdict judges super().__init__(...) and Base.__init__(self,
// ...).
func (j ctorRules) initCallVerdict(t *target, x *ref) (verdict, bool) {
	j.r.resolveRef(x)
	h := x.hit
	if x.recv.k != vSuper && x.recv.k != vClass || h.fn == nil || h.owner == nil {
		return verdict{}, false
	}
	T := t.cls
	switch {
	case sameClass(h.owner, T):
	case t.ch.Label == model.DCC:
		// the deleted constructor's class is passed over: the call now
		// reaches a base's
		inMRO, after := false, false
		for _, c := range h.mro {
			if sameClass(c, T) {
				inMRO = true
			}
			if inMRO && sameClass(c, h.owner) {
				after = true
			}
		}
		if !after {
			return verdict{}, false
		}
	default:
		return verdict{}, false
	}
	if t.ch.Derived {
		return verdict{model.CalledBy, model.MayBeImpacted, fmt.Sprintf("calls %s.%s, which must change with %s", h.owner.qual, x.name, t.ch.Cause.Block().Display), model.PrecisionSyntax, ""}, true
	}
	bound := x.recv.k == vSuper
	ps := paramsFor(h.fn, bound)
	if h.fn.name == "__new__" && !bound {
		ps = h.fn.params
	}
	args := argsOf(x.call)
	name := h.owner.qual + "." + x.name
	res := bind(ps, args, name)
	details := strings.Join(t.ch.Details, "; ")
	if res.err != "" {
		if t.od != nil && t.od.fn != nil && sameClass(h.owner, T) && bind(paramsFor(t.od.fn, bound), args, name).err != "" {
			return verdict{}, false // it did not bind before the change either
		}
		if j.opaque(h.fn) {
			return verdict{model.CalledBy, model.MayBeImpacted, fmt.Sprintf("the call %s (%s); a decorator may change how it is called", res.err, details), model.PrecisionSyntax, ""}, true
		}
		return verdict{model.CalledBy, model.Inconsistent, fmt.Sprintf("the call %s (%s)", res.err, details), model.PrecisionSyntax, "TypeError"}, true
	}
	if t.od != nil && t.od.fn != nil && sameClass(h.owner, T) {
		broken, moved := shifted(paramsFor(t.od.fn, bound), ps, args, name)
		if broken != "" && j.a.touched(x.f.path, x.call) {
			broken = ""
		}
		if broken != "" {
			return verdict{model.CalledBy, model.Inconsistent, fmt.Sprintf("the call of %s binds, but %s (%s)", name, broken, details), model.PrecisionSyntax, ""}, true
		}
		if moved != "" {
			j.dflt.mark(x, moved)
			return verdict{model.CalledBy, model.MayBeImpacted, fmt.Sprintf("the call of %s still binds, but %s", name, moved), model.PrecisionSyntax, ""}, true
		}
	}
	return verdict{model.CalledBy, model.Consistent, fmt.Sprintf("the call binds to the new signature of %s", name), model.PrecisionSyntax, ""}, true
}

// overrideRules judge the overrides of a changed method or class
// attribute, and the overrides that must follow a changed base
// (overridesFindings). They judge through the judge they extend, whose
// references, targets and findings they share.
type overrideRules struct{ *judge }

// overrideVerdict judges a method of a subclass with the name of a
// changed or deleted method of a base class.
func (j overrideRules) overrideVerdict(t *target, x *ref) (verdict, bool) {
	E := x.fn.cls
	if E == nil || t.cls == nil || sameClass(E, t.cls) || E.methods[x.fn.name] != x.fn || !j.r.isSubclass(E, t.cls) {
		return verdict{}, false
	}
	// another class between E and the target's class that defines the
	// method is what E overrides
	mro := j.r.mro(E).list
	for _, c := range mro[1:] {
		if sameClass(c, t.cls) {
			break
		}
		if _, ok := c.methods[t.name]; ok {
			return verdict{}, false
		}
	}
	prec := model.PrecisionSyntax
	name := E.qual + "." + x.fn.name
	// a derived change (a method that must or may have to follow another's
	// signature) reaches its overrides with the signature it must take
	of, nf := (*funcInfo)(nil), (*funcInfo)(nil)
	if t.od != nil && t.nd != nil {
		of, nf = t.od.fn, t.nd.fn
	}
	if t.ch.Derived {
		if nf = t.nd.followsOf(); nf == nil || t.ch.Label != model.MMS {
			return verdict{}, false
		}
	}
	if t.deleted {
		if t.ch.Renamed() {
			return verdict{model.OverriddenBy, model.Inconsistent, fmt.Sprintf("%s overrides %s, which was renamed to %s: the override is no longer reached through %s", name, shortName(t), t.ch.New.Name, t.cqual), prec, ""}, true
		}
		return verdict{model.OverriddenBy, model.MayBeImpacted, fmt.Sprintf("%s overrode %s, which was deleted", name, shortName(t)), prec, ""}, true
	}
	if t.ch.Label != model.MMS || of == nil || nf == nil {
		return verdict{}, false
	}
	impl := x.fn
	if of.static != nf.static || of.classm != nf.classm || of.property != nf.property {
		return verdict{model.OverriddenBy, model.MayBeImpacted, fmt.Sprintf("%s overrides %s, whose kind changed: %s", name, shortName(t), strings.Join(t.ch.Details, "; ")), prec, ""}, true
	}
	ip, op, np := callParams(impl), callParams(of), callParams(nf)
	switch {
	case accepts(ip, np) && mirrors(ip, op) && !mirrors(op, np):
		// it accepts every call the new signature allows, but it was
		// written as the old one's copy: overrides are kept in step
		return verdict{model.OverriddenBy, model.MayBeImpacted, fmt.Sprintf("%s still has the old signature of %s, which it mirrored (%s): it accepts the new calls, but no longer mirrors it", name, shortName(t), strings.Join(t.ch.Details, "; ")), prec, ""}, true
	case accepts(ip, np) && !mirrors(op, np) && len(keptKinds(ip, op, np)) > 0:
		// not a copy (it takes fewer or more parameters), but it declares
		// the parameters whose kind the base changed as the base did
		kept := keptKinds(ip, op, np)
		if len(kept) > 3 {
			kept = append(kept[:3], fmt.Sprintf("%d more", len(kept)-3))
		}
		return verdict{model.OverriddenBy, model.MayBeImpacted, fmt.Sprintf("%s still declares %s as %s did before its parameters changed kind: it accepts the new calls, but is out of step with it", name, strings.Join(kept, ", "), shortName(t)), prec, ""}, true
	case accepts(ip, np):
		return verdict{model.OverriddenBy, model.Consistent, fmt.Sprintf("%s accepts the new signature of %s", name, shortName(t)), prec, ""}, true
	case accepts(ip, op):
		j.followOverride(t, x, nf)
		return verdict{model.OverriddenBy, model.Inconsistent, fmt.Sprintf("%s overrides %s with the old signature: %s", name, shortName(t), strings.Join(t.ch.Details, "; ")), prec, ""}, true
	}
	return verdict{model.OverriddenBy, model.MayBeImpacted, fmt.Sprintf("%s overrides %s, whose signature changed: %s", name, shortName(t), strings.Join(t.ch.Details, "; ")), prec, ""}, true
}

// attrOverrideVerdict judges a class-level assignment, in a subclass, of
// an attribute deleted from or renamed in a base class: the subclass set
// it to configure the base (a class constant, a flag, a size the base's
// methods read), and the base no longer declares it. Renamed, the
// setting no longer reaches the base (inconsistent, as an override of a
// renamed method is); deleted, it may be dead or may have to go (may be
// impacted, as an override of a deleted method).
func (j overrideRules) attrOverrideVerdict(t *target, x *ref) (verdict, bool) {
	E := x.acls
	if !t.deleted || E == nil || t.cls == nil || sameClass(E, t.cls) || !j.r.isSubclass(E, t.cls) {
		return verdict{}, false
	}
	if a := E.attrs[x.name]; a == nil || a.at != x.n {
		return verdict{}, false
	}
	mro := j.r.mro(E).list
	for _, c := range mro[1:] {
		if sameClass(c, t.cls) {
			break
		}
		if a := c.attrs[t.name]; a != nil && !a.instance {
			return verdict{}, false // it overrides that class's attribute
		}
	}
	name := E.qual + "." + x.name
	if t.ch.Renamed() {
		return verdict{model.OverriddenBy, model.Inconsistent, fmt.Sprintf("%s sets %s, which was renamed to %s: the setting no longer reaches %s", name, shortName(t), t.ch.New.Name, t.cqual), model.PrecisionSyntax, ""}, true
	}
	return verdict{model.OverriddenBy, model.MayBeImpacted, fmt.Sprintf("%s overrode %s, which was deleted", name, shortName(t)), model.PrecisionSyntax, ""}, true
}

// keptKinds lists the parameters whose kind changed from the old list to
// the new one (made keyword-only, positional-only, ...) that impl still
// declares with their old kind; nil when it declares one of them with
// another kind (an override that took other liberties is its author's).
func keptKinds(impl, old, new []param) []string {
	kindOf := func(ps []param) map[string]pkind {
		m := map[string]pkind{}
		for _, p := range ps {
			m[p.name] = p.kind
		}
		return m
	}
	ik, nk := kindOf(impl), kindOf(new)
	var kept []string
	for _, p := range old {
		k, ok := nk[p.name]
		if !ok || k == p.kind {
			continue
		}
		have, ok := ik[p.name]
		if !ok {
			continue
		}
		if have != p.kind {
			return nil
		}
		kept = append(kept, p.name)
	}
	return kept
}

// mirrors reports two parameter lists with the same names, kinds and
// required-ness, in order (defaults' values and annotations aside).
func mirrors(a, b []param) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].name != b[i].name || a[i].kind != b[i].kind || a[i].hasDef != b[i].hasDef {
			return false
		}
	}
	return true
}

// followOverride makes the derived change of an override that must
// follow its base: its own callers are walked next.
func (j overrideRules) followOverride(t *target, x *ref, sig *funcInfo) {
	if f := j.followMethod(t, x.fn, sig, "must follow "); f != nil {
		j.followOf[x] = f
	}
}

// followMethod is the derived change of a method that must take the
// signature sig (an override following its base, a base following an
// override's new signature), once per method.
func (j overrideRules) followBase(t *target, bm *funcInfo, added bool) *lang.Follow {
	if added {
		return nil // the new override's callers are judged directly
	}
	return j.followMethod(t, bm, t.nd.fn, "may have to follow ")
}

func (j overrideRules) followMethod(t *target, fn, sig *funcInfo, how string) *lang.Follow {
	if j.wrapped[fn] {
		return nil
	}
	j.wrapped[fn] = true
	d := j.a.declOf(fn)
	if d == nil {
		return nil
	}
	if dd, ok := d.Data.(*declData); ok {
		dd.follows = sig // the signature it must take
	}
	details := t.ch.Details
	if !t.ch.Derived {
		details = []string{how + t.display() + ": " + strings.Join(t.ch.Details, "; ")}
	}
	return &lang.Follow{Decl: d, Label: model.MMS, Details: details}
}

// builtinFixtures are pytest's own fixtures: a parameter of that name is
// always satisfied.
var builtinFixtures = map[string]bool{"request": true, "tmp_path": true, "tmpdir": true, "monkeypatch": true, "capsys": true,
	"capfd": true, "caplog": true, "recwarn": true, "pytestconfig": true, "tmp_path_factory": true, "tmpdir_factory": true,
	"capsysbinary": true, "capfdbinary": true, "doctest_namespace": true, "cache": true, "record_property": true,
	"record_testsuite_property": true, "testdir": true, "pytester": true}

// fixtureVerdict judges a test (or fixture) parameter that requests a
// deleted or renamed fixture.
func (j *judge) fixtureVerdict(t *target, x *ref) (verdict, bool) {
	fn := x.fn
	if builtinFixtures[t.name] || !(strings.HasPrefix(fn.name, "test") || fn.fixture) || fn.parentFn != nil {
		return verdict{}, false
	}
	scopeDir := dirOf(t.path)
	if path.Base(t.path) == "conftest.py" {
		if scopeDir != "" && !strings.HasPrefix(x.f.path, scopeDir+"/") {
			return verdict{}, false
		}
	} else if x.f.path != t.path {
		return verdict{}, false
	}
	// another fixture of that name visible from the test
	for _, f := range j.a.ix.parsedFiles() {
		visible := f.path == x.f.path || path.Base(f.path) == "conftest.py" && (dirOf(f.path) == "" || strings.HasPrefix(x.f.path, dirOf(f.path)+"/"))
		if !visible {
			continue
		}
		for _, g := range f.funcs {
			if g.fixture && g.name == t.name && g.cls == nil {
				return verdict{}, false
			}
		}
	}
	what := "was deleted"
	if t.ch.Renamed() {
		what = "was renamed to " + t.ch.New.Name
	}
	return verdict{model.CalledBy, model.Inconsistent, fmt.Sprintf("%s requests fixture %s, which %s", fn.qual, t.name, what), model.PrecisionSyntax, ""}, true
}

// allVerdict judges a name used through a star import of a module whose
// __all__ no longer lists it.
func (j *judge) allVerdict(t *target, x *ref) (verdict, bool) {
	if x.kind != rName || x.f.path == t.path || x.orig != t.name {
		return verdict{}, false
	}
	j.r.resolveRef(x)
	missing := false
	for _, s := range x.syms {
		if s.missing && s.path == x.f.path {
			missing = true
		}
	}
	if !missing {
		return verdict{}, false
	}
	for _, st := range x.f.stars {
		m := j.r.module(st.Child("module_name").Text(), x.f.path)
		if m.k == vModule && m.file != nil && m.file.path == t.path {
			return verdict{model.UsedBy, model.Inconsistent, fmt.Sprintf("uses %s through `from %s import *`; __all__ no longer exports it", t.name, j.moduleName(t.path)), model.PrecisionSyntax, ""}, true
		}
	}
	return verdict{}, false
}

// overridesFindings reports, for a method whose signature changed, the
// base method it overrides when the new signature no longer accepts the
// calls the base's contract allows (Overrides): callers through the base
// break, and the fix may belong to either side.
func (j overrideRules) overridesFindings() {
	for _, t := range j.targets {
		if t.kind != tSymbol || t.ch.Derived || !t.member || t.cls == nil || t.nd == nil || t.nd.fn == nil {
			continue
		}
		added := t.ch.Label == model.AM
		if !added && (t.ch.Label != model.MMS || t.od == nil || t.od.fn == nil) {
			continue
		}
		mro := j.r.mro(t.cls).list
		for _, b := range mro[1:] {
			bm, ok := b.methods[t.name]
			if !ok {
				continue
			}
			bp := callParams(bm)
			if (added || accepts(callParams(t.od.fn), bp)) && !accepts(callParams(t.nd.fn), bp) {
				at := bm.node.Child("name")
				site := model.Site{Path: b.file.path, Line: int(at.Line), Col: int(at.Col) + 1, Text: b.file.t.LineText(int(at.Line)),
					Enclosing: funcDisplay(bm), EnclosingSpan: model.Span{StartLine: int(bm.outer.Line), EndLine: int(bm.outer.EndLine)}}
				// the base may have to take the new signature: its other
				// overrides and the calls dispatched through it are walked
				// next (the walk lowers what they would break one rung)
				j.out = append(j.out, &lang.Ref{Change: t.ch, Relation: model.Overrides, Site: site, Verdict: model.MayBeImpacted,
					Precision: model.PrecisionSyntax,
					Message:   fmt.Sprintf("%s is overridden by %s, whose new signature no longer accepts the calls %s allows", bm.qual, shortName(t), bm.qual),
					Follow:    j.followBase(t, bm, added)})
			}
			break
		}
	}
}

// movedUp reports whether the member a deleted one now resolves to in a
// base class is the same code (a member pulled up into a base class:
// alembic 2aba0ada16 moved Operations' methods and attributes into a new
// AbstractOperations, and every use, resolving to the same code, was a
// warning: 182 on a correct commit). The same code means the same lines
// but for indentation; a member the base had already, or one that
// changed on the way, still answers differently (a warning).
func movedUp(t *target, h memberHit) bool {
	if t.od == nil || t.ch.Renamed() {
		return false
	}
	var a, b *treesit.Node
	switch {
	case t.od.fn != nil && h.fn != nil:
		a, b = t.od.fn.outer, h.fn.outer
		if a != nil && b != nil && sameFunc(t.od.fn, h.fn) {
			return true
		}
	case t.od.attr != nil && h.attr != nil:
		a, b = t.od.attr.stmt, h.attr.stmt
	}
	return a != nil && b != nil && sameCode(a.Text(), b.Text())
}

// sameFunc reports whether two definitions are the same code but for
// layout, comments and their docstrings: a method pulled up into a base
// class whose docstring now speaks of the base ("Add a websocket to the
// application" where it said "to the blueprint").
func sameFunc(a, b *funcInfo) bool {
	if a.outer == nil || b.outer == nil || a.node == nil || b.node == nil {
		return false
	}
	ta := a.outer.Tree.Tokens(a.outer, docstring(a.node.Child("body")))
	tb := b.outer.Tree.Tokens(b.outer, docstring(b.node.Child("body")))
	return ta == tb
}

// pulledUp reports whether a deleted (not renamed) member of a class is
// still provided to it, unchanged, by a base class: the class answers
// the name as before, whatever the receiver.
func (j overrideRules) pulledUp(t *target) bool {
	if !t.member || t.cls == nil || t.ch.Renamed() {
		return false
	}
	h := j.r.lookupMember(value{k: vInstance, cls: t.cls}, t.name)
	return h.found() && h.owner != nil && !sameClass(h.owner, t.cls) && movedUp(t, h)
}

// sameCode compares two pieces of source line by line, ignoring
// indentation, trailing spaces and blank lines.
func sameCode(a, b string) bool {
	lines := func(s string) []string {
		var out []string
		for _, l := range strings.Split(s, "\n") {
			if l = strings.TrimSpace(l); l != "" {
				out = append(out, l)
			}
		}
		return out
	}
	return slices.Equal(lines(a), lines(b))
}

// bindingOverride is, for a call of a method target through self or cls
// (whose class may be any subclass), a subclass of the target's class
// among the round's files that overrides the method with a signature
// the call binds to and that accepts the base's new signature too (an
// override that must follow the base would no longer take the call);
// nil when there is none, or the receiver is not self or cls. A call
// that binds to such an override is not proven broken: the base may
// never be instantiated itself.
func (j *judge) bindingOverride(t *target, x *ref, args callArgs, bound bool) *classInfo {
	if !t.member || t.cls == nil || x.kind != rAttr || x.n == nil || t.nd == nil || t.nd.fn == nil {
		return nil
	}
	np := callParams(t.nd.fn)
	obj := x.n.Child("object")
	if obj == nil || obj.Kind != "identifier" || obj.Text() != "self" && obj.Text() != "cls" {
		return nil
	}
	for _, f := range j.files {
		for _, c := range f.classes {
			fn := c.methods[t.name]
			if fn == nil || sameClass(c, t.cls) || !j.r.isSubclass(c, t.cls) {
				continue
			}
			if bind(paramsFor(fn, bound), args, t.name).err == "" && accepts(callParams(fn), np) {
				return c
			}
		}
	}
	return nil
}
