package python

import (
	"fmt"
	"slices"
	"strings"

	"github.com/ripple-dev/ripple/internal/lang"
	"github.com/ripple-dev/ripple/internal/lang/treesit"
	"github.com/ripple-dev/ripple/internal/model"
)

// judge turns references into findings.
type judge struct {
	a       *analyzer
	r       *resolver
	targets []*target
	byName  map[string][]*target
	ctors   []*target
	out     []*lang.Ref
	// followOf holds the derived change a judged reference implies (an
	// override that must follow its base), for emit
	followOf map[*ref]*lang.Follow
	wrapped  map[*funcInfo]bool
	reach    map[string]bool
	olds     map[string]*classInfo // oldClasses
	// dflt: the calls whose only impact is relying on a changed default,
	// and their findings (defaults.go)
	dflt defaultCalls
	// files are the candidate files of the round (overrides of a target
	// in subclasses are among them: they name it)
	files []*pfile
}

// verdict is the outcome of judging one reference against one target.
type verdict struct {
	rel  model.Relation
	v    model.Verdict
	msg  string
	prec model.Precision
	// exc is the exception the broken site raises at run time
	// ("TypeError"), for telling a test that expects it; "" when unknown.
	exc string
}

// how a reference relates to a target.
type matchHow int

const (
	mNone     matchHow = iota
	mDirect            // resolves to the target
	mMissing           // resolves to where the target was, and finds nothing
	mFallback          // a deleted member now resolves to a base class's
	mName              // the receiver is unknown: a name match only
	mMaybe             // the member is missing but an external base may define it
)

func (j *judge) judgeRef(x *ref) {
	if j.byName == nil {
		j.byName = map[string][]*target{}
		for _, t := range j.targets {
			if t.kind == tCtor {
				j.ctors = append(j.ctors, t)
				continue
			}
			j.byName[t.name] = append(j.byName[t.name], t)
		}
	}
	for _, t := range j.byName[x.orig] {
		if v, ok := j.verdictFor(t, x); ok {
			j.emit(t, x, v)
		}
	}
	for _, t := range j.ctors {
		if v, ok := (ctorRules{j}).ctorVerdict(t, x); ok {
			j.emit(t, x, v)
		}
	}
}

// verdictFor judges reference x of target t: the override, fixture and
// class-attribute references by their own rules, the others by how they
// match t and by the kind of t's change. It reports false when x is no
// dependent of t's change.
func (j *judge) verdictFor(t *target, x *ref) (verdict, bool) {
	switch x.kind {
	case rOverride:
		if t.member && t.dkind == model.KindMethod {
			return overrideRules{j}.overrideVerdict(t, x)
		}
		return verdict{}, false
	case rFixture:
		if t.fixture {
			return j.fixtureVerdict(t, x)
		}
		return verdict{}, false
	case rClassAttr:
		if t.member && t.dkind == model.KindField {
			return overrideRules{j}.attrOverrideVerdict(t, x)
		}
		return verdict{}, false
	}
	if t.kind == tAll {
		return j.allVerdict(t, x)
	}
	var how matchHow
	if x.kind == rInstCall {
		if how = j.instanceCall(t, x); how == mNone {
			return verdict{}, false
		}
		if how == mMissing {
			return verdict{model.CalledBy, model.Inconsistent, fmt.Sprintf("calls an instance of %s, and %s %s: its instances are no longer callable", x.recv.cls.qual, shortName(t), deletedWhat(t)), model.PrecisionSyntax, "TypeError"}, true
		}
	} else {
		j.r.resolveRef(x)
		how = j.match(t, x)
	}
	if how == mNone {
		return verdict{}, false
	}
	prec := model.PrecisionSyntax
	if how == mName {
		if t.member && !j.reaches(x.f, t) {
			return verdict{}, false
		}
		prec = model.PrecisionName
	}
	rel := relation(t, x)
	name := shortName(t)
	switch {
	case t.ch.Derived:
		return derivedVerdict(t, x, how, rel, prec)
	case t.deleted:
		return j.deletedVerdict(t, x, how, rel, prec)
	}
	switch t.ch.Label {
	case model.MMS:
		return j.signatureVerdict(t, x, how, rel, prec)
	case model.AM:
		return j.addedOverrideVerdict(t, x, how, rel, prec)
	case model.MMB:
		if how != mDirect || x.kind == rImport || x.kind == rString {
			return verdict{}, false
		}
		if t.od != nil && t.od.fn != nil && x.call == nil {
			return verdict{}, false
		}
		what := "calls %s, whose body changed in a way callers can see (%s)"
		if t.dkind == model.KindVar || t.dkind == model.KindConst {
			what = "uses %s, whose value changed (%s)"
		}
		return verdict{model.CalledBy, model.MayBeImpacted, fmt.Sprintf(what, name, strings.Join(t.ch.Escapes, ", ")), prec, ""}, true
	case model.MF:
		// a class attribute became an instance attribute: reads through
		// the class break
		if x.kind == rAttr && x.recv.k == vClass && how == mMissing || how == mDirect && x.kind == rAttr && x.recv.k == vClass && t.nd != nil && t.nd.attr != nil && t.nd.attr.instance {
			return verdict{model.UsedBy, model.Inconsistent, fmt.Sprintf("reads %s through the class; it is now an instance attribute", name), prec, ""}, true
		}
	}
	return verdict{}, false
}

// derivedVerdict judges a direct call of a declaration that may have to
// follow another's change (a derived change): it may follow, and it
// breaks when it binds to the override's signature now and not to the
// new signature of the base it must take.
func derivedVerdict(t *target, x *ref, how matchHow, rel model.Relation, prec model.Precision) (verdict, bool) {
	if how != mDirect || x.call == nil {
		return verdict{}, false
	}
	name := shortName(t)
	if base := t.nd.followsOf(); base != nil && x.call.Kind == "call" && t.nd.fn != nil {
		// the override must take its base's new signature: a call that
		// binds to it now and not to that signature breaks with it
		bound := boundCall(t, x)
		args := argsOf(x.call)
		cur := bind(paramsFor(t.nd.fn, bound), args, name)
		next := bind(paramsFor(base, bound), args, name)
		if cur.err == "" && next.err != "" {
			return verdict{rel, model.Inconsistent, fmt.Sprintf("calls %s, which %s %s; then the call %s", t.display(), mustOrMay(t.ch), t.ch.Cause.Block().Display, next.err), prec, ""}, true
		}
	}
	return verdict{rel, model.MayFollow, fmt.Sprintf("calls %s, which %s %s", t.display(), mustOrMayChange(t.ch), t.ch.Cause.Block().Display), prec, ""}, true
}

// signatureVerdict judges a use of a function whose signature changed
// (MMS): a call by how it binds (callVerdict), and a use as a value only
// when what a caller of the value can see changed (arity, property,
// async).
func (j *judge) signatureVerdict(t *target, x *ref, how matchHow, rel model.Relation, prec model.Precision) (verdict, bool) {
	if how != mDirect && how != mName || t.od == nil || t.nd == nil || t.od.fn == nil || t.nd.fn == nil {
		return verdict{}, false
	}
	if x.call != nil {
		return j.callVerdict(t, x, how, rel, prec)
	}
	if how == mName || x.kind == rImport || x.kind == rString {
		return verdict{}, false
	}
	if attrOfFunction(x.n) && j.plainFunction(t.od.fn, t.nd.fn) {
		// view.__name__ = name, view.view_class: the function object's
		// attributes, whatever its signature
		return verdict{}, false
	}
	if arity(callParams(t.od.fn)) != arity(callParams(t.nd.fn)) || t.od.fn.property != t.nd.fn.property || t.od.fn.async != t.nd.fn.async {
		return verdict{rel, model.MayBeImpacted, fmt.Sprintf("uses %s as a value; its signature changed: %s", shortName(t), strings.Join(t.ch.Details, "; ")), prec, ""}, true
	}
	return verdict{}, false
}

// addedOverrideVerdict judges a call that now reaches a method added to
// a class whose base defines it (AM): it breaks when it binds to the
// base's method and not the new one, is consistent when the new one only
// passes it on and adds defaulted parameters, and may be impacted
// otherwise.
func (j *judge) addedOverrideVerdict(t *target, x *ref, how matchHow, rel model.Relation, prec model.Precision) (verdict, bool) {
	// a method added to a class whose base defines it: calls through
	// the class now reach the new method
	if how != mDirect || x.call == nil || x.call.Kind != "call" || t.nd == nil || t.nd.fn == nil || j.baseMethod(t) == nil {
		return verdict{}, false
	}
	name := shortName(t)
	bm := j.baseMethod(t)
	bound := boundCall(t, x)
	args := argsOf(x.call)
	res := bind(paramsFor(t.nd.fn, bound), args, name)
	if res.err != "" && bind(paramsFor(bm, bound), args, name).err == "" {
		return verdict{rel, model.Inconsistent, fmt.Sprintf("the call now reaches %s (added, overriding %s), and %s", name, bm.qual, res.err), prec, ""}, true
	}
	if res.err == "" && bind(paramsFor(bm, bound), args, name).err == "" && extendsBase(t.nd.fn, bm, res.defaulted) {
		return verdict{rel, model.Consistent, fmt.Sprintf("the call now reaches %s (added), which passes it on to %s unchanged and adds only what parameters the call leaves to their defaults ask for", name, bm.qual), prec, ""}, true
	}
	return verdict{rel, model.MayBeImpacted, fmt.Sprintf("the call now reaches %s (added) instead of %s", name, bm.qual), prec, ""}, true
}

// instanceCall decides whether a call of a value reaches a __call__
// target: the callee is an instance of the target's class, or of a
// subclass that inherits its __call__ (mDirect); for a deleted or
// renamed __call__, an instance of a class whose MRO now has none
// (mMissing). Anything else, unknown values included, is not judged: a
// callee of unknown type is far more often a function than an instance.
func (j *judge) instanceCall(t *target, x *ref) matchHow {
	if !t.dunderCall() {
		return mNone
	}
	if !x.resolved {
		x.recv = j.r.expr(x.n, x.s)
		x.resolved = true
	}
	v := x.recv
	if v.k != vInstance || v.cls == nil || !(sameClass(v.cls, t.cls) || j.r.isSubclass(v.cls, t.cls)) {
		return mNone
	}
	h := j.r.lookupMember(v, "__call__")
	switch {
	case h.fn != nil && sameClass(h.owner, t.cls) && !t.deleted:
		return mDirect
	case t.deleted && !h.found() && !h.unknown && !h.dynamic && !j.externalBase(h):
		return mMissing
	}
	return mNone
}

// externalBase reports a lookup whose MRO holds a class outside the
// repository, which may define what was not found.
func (j *judge) externalBase(h memberHit) bool {
	return len(j.r.mro(h.recv).external) > 0
}

// deletedWhat says what happened to a deleted or renamed target.
func deletedWhat(t *target) string {
	if t.ch.Renamed() {
		return "was renamed to " + t.ch.New.Name
	}
	return "was deleted"
}

// match decides whether a resolved reference denotes the target.
func (j *judge) match(t *target, x *ref) matchHow {
	if !t.member {
		for _, s := range x.syms {
			if s.path == t.path && s.qual == t.qual {
				if s.missing {
					return mMissing
				}
				return mDirect
			}
		}
		for _, s := range x.syms {
			if s.unknown && x.kind == rName {
				return mName
			}
			if s.missing && s.path == x.f.path && s.qual == t.name && x.f.path != t.path && j.starImports(x.f, t.path) {
				return mMissing // the name came through `from module import *`
			}
		}
		if x.kind == rAttr && x.recv.k == vUnknown && t.qual == t.name && importedRoot(x) {
			return mName
		}
		if x.kind == rString && x.recv.k == vUnknown && t.deleted && strings.Contains(x.n.Text(), ".") {
			s, _ := stringLit(x.f.t, x.n)
			if j.moduleName(t.path)+"."+t.name == s {
				return mDirect
			}
		}
		return mNone
	}
	// members
	switch x.kind {
	case rName:
		for _, s := range x.syms {
			if s.path == t.path && s.qual == t.qual {
				if s.missing {
					return mMissing
				}
				return mDirect
			}
		}
		return mNone
	case rImport:
		return mNone
	}
	switch x.recv.k {
	case vClass, vInstance, vSuper:
	case vUnknown:
		if x.kind == rString && !t.deleted {
			return mNone
		}
		if x.kind == rAttr && receiverRoot(x.n.Child("object")) != nil && receiverRoot(x.n.Child("object")).Text() == "self" && t.cls != nil {
			// self of a function outside any class: a method's caller
			// through a decorator wrapper
			return mName
		}
		return mName
	default:
		return mNone
	}
	h := x.hit
	ti := -1
	for i, c := range h.mro {
		if sameClass(c, t.cls) {
			ti = i
		}
	}
	if ti < 0 {
		if x.recv.k == vInstance && h.dynamic && !h.found() {
			// a proxy (__getattr__) of the repository answers any name
			// with a value the syntax cannot know: as an unknown receiver
			return mName
		}
		return mNone
	}
	if h.found() {
		if h.owner == nil {
			return mNone
		}
		oi := -1
		for i, c := range h.mro {
			if sameClass(c, h.owner) {
				oi = i
			}
		}
		switch {
		case oi == ti:
			if t.deleted && (h.fn != nil && t.dkind != model.KindMethod && t.dkind != model.KindConstructor) {
				return mNone
			}
			return mDirect
		case oi > ti:
			return mFallback
		}
		return mNone // an override in a subclass answers
	}
	if h.external || h.unknown {
		return mMaybe
	}
	return mMissing
}

// baseMethod is the method of a base class that a member target
// overrides, or nil.
func (j *judge) baseMethod(t *target) *funcInfo {
	if t.cls == nil {
		return nil
	}
	for _, b := range j.r.mro(t.cls).list[1:] {
		if m, ok := b.methods[t.name]; ok {
			return m
		}
	}
	return nil
}

func (j *judge) moduleName(p string) string { return j.a.ix.mods.moduleName(p) }

// deletedVerdict judges a use of a deleted or renamed declaration.
func (j *judge) deletedVerdict(t *target, x *ref, how matchHow, rel model.Relation, prec model.Precision) (verdict, bool) {
	name := shortName(t)
	what := "was deleted"
	if t.ch.Renamed() {
		what = "was renamed to " + t.ch.New.Name
	}
	verb := "uses"
	switch {
	case x.kind == rImport:
		verb = "imports"
	case x.call != nil:
		verb = "calls"
		if t.dkind == model.KindType {
			verb = "instantiates"
		}
	case isStore(x.n):
		if how == mMissing || how == mMaybe {
			// setting creates the attribute: not an error by itself
			return verdict{rel, model.MayBeImpacted, fmt.Sprintf("sets %s, which %s: the write creates a new attribute that nothing reads", t.name, what), prec, ""}, true
		}
		verb = "sets"
	}
	switch how {
	case mMissing:
		if x.kind == rString {
			return verdict{rel, model.MayBeImpacted, fmt.Sprintf("names %s in a string; %s %s", name, t.display(), what), prec, ""}, true
		}
		if t.member && x.recv.k == vInstance && t.ch.Renamed() && t.dkind == model.KindMethod && j.onlyOverridesDefine(t, x.recv.cls) {
			// the subclasses' definitions are overrides the rename leaves
			// unreached (inconsistent themselves): once they follow it,
			// nothing answers the old name
			return verdict{rel, model.Inconsistent, fmt.Sprintf("%s %s on self; %s %s; subclasses still define %s, but only as overrides of it, which must follow the rename", verb, t.name, t.display(), what, t.name), prec, "AttributeError"}, true
		}
		if t.member && x.recv.k == vInstance && j.subclassDefines(t, x.recv.cls) {
			return verdict{rel, model.MayBeImpacted, fmt.Sprintf("%s %s on self; %s %s, but subclasses still define %s", verb, t.name, t.display(), what, t.name), prec, ""}, true
		}
		if t.member && x.recv.k == vClass && x.kind == rAttr && !namesClass(x.n.Child("object"), x.recv.cls) && j.subclassDefines(t, x.recv.cls) {
			// cls, or a parameter typed type[Base]: a subclass may be passed
			return verdict{rel, model.MayBeImpacted, fmt.Sprintf("%s %s on a class that may be a subclass (cls, type[%s]); %s %s, but subclasses still define %s", verb, t.name, x.recv.cls.name, t.display(), what, t.name), prec, ""}, true
		}
		if x.kind == rImport {
			if t.dkind == model.KindImport {
				return verdict{model.ImportedBy, model.Inconsistent, fmt.Sprintf("imports %s from %s, which no longer defines it (its import there was removed)", t.name, j.moduleName(t.path)), prec, ""}, true
			}
			return verdict{model.ImportedBy, model.Inconsistent, fmt.Sprintf("imports %s from %s, which no longer defines it (%s %s)", t.name, j.moduleName(t.path), t.display(), what), prec, ""}, true
		}
		if t.dkind == model.KindImport {
			if x.f.path == t.path {
				return verdict{rel, model.Inconsistent, fmt.Sprintf("uses %s, whose import was removed", t.name), prec, ""}, true
			}
			return verdict{rel, model.Inconsistent, fmt.Sprintf("uses %s, which %s no longer imports", t.name, j.moduleName(t.path)), prec, ""}, true
		}
		return verdict{rel, model.Inconsistent, fmt.Sprintf("%s %s, which %s", verb, t.name, what), prec, ""}, true
	case mFallback:
		if movedUp(t, x.hit) {
			return verdict{rel, model.Consistent, fmt.Sprintf("%s %s, which moved unchanged from %s to its base %s", verb, t.name, t.cqual, x.hit.owner.qual), prec, ""}, true
		}
		return verdict{rel, model.MayBeImpacted, fmt.Sprintf("%s %s, which %s in %s: it now resolves to %s.%s", verb, t.name, what, t.cqual, x.hit.owner.qual, t.name), prec, ""}, true
	case mMaybe:
		why := "a base outside the repository may still provide it"
		if x.hit.dynamic {
			why = "the class creates attributes dynamically (__getattr__, setattr, __dict__) and may still provide it"
		}
		return verdict{rel, model.MayBeImpacted, fmt.Sprintf("%s %s; %s %s (%s)", verb, t.name, t.display(), what, why), prec, ""}, true
	case mName:
		if (overrideRules{j}).pulledUp(t) {
			// were the receiver the class, it would reach the same code
			return verdict{}, false
		}
		if x.kind == rString {
			return verdict{rel, model.MayBeImpacted, fmt.Sprintf("names %s in a string on a value whose type could not be resolved; %s %s", t.name, t.display(), what), prec, ""}, true
		}
		return verdict{rel, model.MayBeImpacted, fmt.Sprintf("%s %s on a value whose type could not be resolved; %s %s", verb, t.name, t.display(), what), prec, ""}, true
	}
	return verdict{}, false
}

// onlyOverridesDefine reports whether the subclasses of c (among the
// parsed files) that define the target's name all define it as a method
// overriding the target's class's: what the rename of that method leaves
// unreached.
func (j *judge) onlyOverridesDefine(t *target, c *classInfo) bool {
	if t.cls == nil || c == nil || !j.r.isSubclass(c, t.cls) {
		return false
	}
	n := 0
	for _, f := range j.a.ix.parsedFiles() {
		for _, k := range f.classes {
			if sameClass(k, c) || !j.r.isSubclass(k, c) {
				continue
			}
			_, isAttr := k.attrs[t.name]
			_, isMethod := k.methods[t.name]
			switch {
			case isAttr:
				return false
			case isMethod:
				n++
			}
		}
	}
	return n > 0
}

// subclassDefines reports whether a subclass of the target's class (among
// the parsed files) defines the member: self.name in the base may still
// reach it.
func (j *judge) subclassDefines(t *target, c *classInfo) bool {
	for _, f := range j.a.ix.parsedFiles() {
		for _, k := range f.classes {
			if sameClass(k, c) || !j.r.isSubclass(k, c) {
				continue
			}
			if _, ok := k.methods[t.name]; ok {
				return true
			}
			if _, ok := k.attrs[t.name]; ok {
				return true
			}
		}
	}
	return false
}

// callVerdict checks a call of a function whose signature changed.
func (j *judge) callVerdict(t *target, x *ref, how matchHow, rel model.Relation, prec model.Precision) (verdict, bool) {
	of, nf := t.od.fn, t.nd.fn
	bound := boundCall(t, x)
	ops, nps := paramsFor(of, bound), paramsFor(nf, bound)
	args := argsOf(x.call)
	name := shortName(t)
	nb := bind(nps, args, name)
	details := strings.Join(t.ch.Details, "; ")
	if how == mName {
		ob := bind(ops, args, name)
		if ob.err == "" && nb.err != "" && !of.property && !nf.property {
			return verdict{rel, model.MayBeImpacted, fmt.Sprintf("may call %s (receiver type not resolved): the call %s", t.display(), nb.err), prec, ""}, true
		}
		return verdict{}, false
	}
	if x.call.Kind != "decorator" {
		switch {
		case nf.property && !of.property:
			return verdict{rel, model.Inconsistent, fmt.Sprintf("calls %s, which is now a property", name), prec, ""}, true
		case nf.async && !of.async && !isAsyncGen(nf):
			if v, ok := asyncVerdict(x.call, name, rel, prec); ok {
				return v, true
			}
		case of.async && !nf.async && !isAsyncGen(of) && awaited(x.call):
			if mayReturnAwaitable(nf) {
				return verdict{rel, model.MayBeImpacted, fmt.Sprintf("awaits %s, which is no longer async; it may still return an awaitable", name), prec, ""}, true
			}
			return verdict{rel, model.Inconsistent, fmt.Sprintf("awaits %s, which is no longer async", name), prec, ""}, true
		}
	}
	if nb.err != "" {
		if ob := bind(ops, args, name); ob.err != "" {
			more := newlyMissing(ob, nb)
			if len(more) == 0 {
				return verdict{}, false // it did not bind before the change either
			}
			if j.opaque(nf) || j.opaque(of) {
				// a decorated function whose calls did not bind before
				// either: the decorator supplies arguments (click's
				// command and options: black 69973fd695 added options and
				// their parameters, and main() still binds)
				return verdict{}, false
			}
			// broken before, and broken once more by the change
			what := "argument"
			if len(more) > 1 {
				what = "arguments"
			}
			return verdict{rel, model.Inconsistent, fmt.Sprintf("the call misses required %s %s of %s (%s); it already missed %s before the change",
				what, strings.Join(more, ", "), name, details, strings.Join(ob.missing, ", ")), prec, "TypeError"}, true
		}
		if j.opaque(nf) {
			return verdict{rel, model.MayBeImpacted, fmt.Sprintf("the call %s (%s); a decorator of %s may change how it is called", nb.err, details, name), prec, ""}, true
		}
		if sub := j.bindingOverride(t, x, args, bound); sub != nil {
			return verdict{rel, model.MayBeImpacted, fmt.Sprintf("the call %s (%s) on an instance of %s itself; through %s it may be a %s, whose override accepts it",
				nb.err, details, t.cls.name, receiverRoot(x.n.Child("object")).Text(), sub.qual), prec, ""}, true
		}
		return verdict{rel, model.Inconsistent, fmt.Sprintf("the call %s (%s)", nb.err, details), prec, "TypeError"}, true
	}
	broken, moved := shifted(sameEmptyDefaults(ops, nps, nf), nps, args, name)
	if broken != "" && j.a.touched(x.f.path, x.call) {
		broken = "" // the call was written in this diff, for the new parameters
	}
	if broken != "" {
		if j.opaque(nf) {
			return verdict{rel, model.MayBeImpacted, fmt.Sprintf("the call of %s binds, but %s; a decorator of %s may change how it is called", name, broken, name), prec, ""}, true
		}
		return verdict{rel, model.Inconsistent, fmt.Sprintf("the call of %s binds, but %s (%s)", name, broken, details), prec, ""}, true
	}
	if moved != "" {
		j.dflt.mark(x, moved)
		return verdict{rel, model.MayBeImpacted, fmt.Sprintf("the call of %s still binds, but %s", name, moved), prec, ""}, true
	}
	if opt := addedParams(t, false); len(opt) > 0 && !passes(args, nps, opt) {
		// the caller may have to pass the new value on (threaded from its
		// own callers): the farther frontier
		return verdict{rel, model.MayFollow, fmt.Sprintf("the call binds; %s gained optional parameter %s, which it does not pass", name, strings.Join(opt, ", ")), prec, ""}, true
	}
	return verdict{rel, model.Consistent, fmt.Sprintf("the call binds to the new signature of %s", name), prec, ""}, true
}

// passes reports whether the call gives one of the named parameters a
// value (by keyword, or by position when ps places one there); a call
// that spreads *args or **kwargs may.
func passes(a callArgs, ps []param, names []string) bool {
	if a.posStar || a.kwStar {
		return true
	}
	want := map[string]bool{}
	for _, n := range names {
		want[n] = true
	}
	for _, k := range a.kws {
		if want[k] {
			return true
		}
	}
	for i := 0; i < a.pos && i < len(ps); i++ {
		if want[ps[i].name] && ps[i].kind != kwOnly {
			return true
		}
	}
	return false
}

// boundCall reports whether a call of a method target passes self or cls
// implicitly.
func boundCall(t *target, x *ref) bool {
	if !t.member {
		return false
	}
	switch x.kind {
	case rName:
		return false // a method used by name in its class body
	case rAttr:
		switch x.recv.k {
		case vClass:
			return false // paramsFor binds classmethods anyway
		case vInstance, vSuper:
			return true
		}
		return true // an unknown receiver: an instance, most likely
	}
	return true
}

// paramsFor is what a call supplies to fn: without self when bound,
// without cls for classmethods.
func paramsFor(fn *funcInfo, bound bool) []param {
	if fn.cls == nil || fn.static {
		return fn.params
	}
	if bound || fn.classm {
		return dropFirst(fn)
	}
	return fn.params
}

// arity summarises what a caller must supply.
func arity(ps []param) string {
	var sb strings.Builder
	for _, p := range ps {
		if !p.hasDef || p.kind == varArgs || p.kind == varKw {
			sb.WriteString(p.kind.String() + ":" + p.name + ",")
		}
	}
	return sb.String()
}

func awaited(call *treesit.Node) bool {
	p := call.Parent
	for p != nil && p.Kind == "parenthesized_expression" {
		p = p.Parent
	}
	return p != nil && p.Kind == "await"
}

// isStore reports an attribute or name that is assigned or deleted.
func isStore(n *treesit.Node) bool {
	p := n.Parent
	if p == nil {
		return false
	}
	switch p.Kind {
	case "assignment", "augmented_assignment":
		return n.Field == "left"
	case "delete_statement":
		return true
	case "pattern_list", "tuple", "expression_list":
		return p.Parent != nil && (p.Parent.Kind == "assignment" && p.Field == "left")
	}
	return false
}

// relation is how a reference depends on its target.
func relation(t *target, x *ref) model.Relation {
	if x.kind == rImport {
		return model.ImportedBy
	}
	switch t.dkind {
	case model.KindType:
		if x.call != nil {
			return model.InstantiatedBy
		}
		if p := x.n.Parent; p != nil && p.Kind == "argument_list" && p.Field == "superclasses" {
			return model.EmbeddedBy
		}
		return model.ReferencedBy
	case model.KindField, model.KindVar, model.KindConst:
		return model.UsedBy
	case model.KindImport:
		return model.UsedBy
	}
	if t.od != nil && t.od.fn != nil && t.od.fn.property {
		return model.UsedBy
	}
	return model.CalledBy
}

func shortName(t *target) string {
	if t.member && t.cqual != "" {
		return t.cqual + "." + t.name
	}
	return t.name
}

// mustOrMay says how certain a derived change is: an override that kept
// its base's old signature must follow; a base that an override's new
// signature no longer fits may have to (model.Change.Tentative).
func mustOrMay(c *model.Change) string {
	if c.Tentative > 0 {
		return "may have to follow"
	}
	return "must follow"
}

func mustOrMayChange(c *model.Change) string {
	if c.Tentative > 0 {
		return "may have to change with"
	}
	return "must change with"
}

// namesClass reports a receiver written as the class's own name (C or
// mod.C), not a variable that may hold a subclass.
func namesClass(obj *treesit.Node, c *classInfo) bool {
	obj = treesit.Unparen(obj)
	return obj != nil && c != nil && (obj.Kind == "identifier" || obj.Kind == "attribute") && lastPart(obj.Text()) == c.name
}

// signatureAttrs are the attributes of a function object that tell its
// parameters.
var signatureAttrs = map[string]bool{"__code__": true, "__defaults__": true, "__kwdefaults__": true, "__annotations__": true,
	"__signature__": true, "__text_signature__": true, "__wrapped__": true, "__call__": true, "__get__": true, "__func__": true}

// attrOfFunction reports whether a use of a function as a value reads or
// sets one of its attributes that do not depend on its signature
// (__name__, __doc__, attributes a framework hangs on a view).
func attrOfFunction(n *treesit.Node) bool {
	p := n.Parent
	if p == nil || p.Kind != "attribute" || n.Field != "object" {
		return false
	}
	return !signatureAttrs[p.Child("attribute").Text()]
}

// plainFunction reports whether a function, in both states, is a
// function object: no decorator that may replace it by another object
// (a click command's make_context and params follow its options).
func (j *judge) plainFunction(of, nf *funcInfo) bool {
	if j.opaque(nf) {
		return false
	}
	for _, d := range of.decoNames {
		if !preserving(d) && !slices.Contains(nf.decoNames, d) {
			return false
		}
	}
	return true
}
