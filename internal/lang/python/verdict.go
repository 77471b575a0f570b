package python

import (
	"fmt"
	"strings"

	"github.com/ripple-dev/ripple/internal/lang"
	"github.com/ripple-dev/ripple/internal/model"
)

// judge turns references into findings.
type judge struct {
	a       *analyzer
	r       *resolver
	targets []*target
	byName  map[string][]*target
	ctors   []*target
	out     []*model.Finding
	derived []*model.Change
	seen    map[string]bool
	wrapped map[*funcInfo]bool
}

// verdict is the outcome of judging one reference against one target.
type verdict struct {
	rel  model.Relation
	v    model.Verdict
	msg  string
	prec model.Precision
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
	for _, t := range j.byName[x.name] {
		if v, ok := j.verdictFor(t, x); ok {
			j.emit(t, x, v)
		}
	}
	for _, t := range j.ctors {
		if v, ok := j.ctorVerdict(t, x); ok {
			j.emit(t, x, v)
		}
	}
}

func (j *judge) verdictFor(t *target, x *ref) (verdict, bool) {
	switch x.kind {
	case rOverride:
		if t.member && t.dkind == model.KindMethod {
			return j.overrideVerdict(t, x)
		}
		return verdict{}, false
	case rFixture:
		if t.fixture {
			return j.fixtureVerdict(t, x)
		}
		return verdict{}, false
	}
	if t.kind == tAll {
		return j.allVerdict(t, x)
	}
	j.r.resolveRef(x)
	how := j.match(t, x)
	if how == mNone {
		return verdict{}, false
	}
	prec := model.PrecisionSyntax
	if how == mName {
		prec = model.PrecisionName
	}
	rel := j.relation(t, x)
	name := shortName(t)
	switch {
	case t.ch.Derived:
		if how != mDirect || x.call == nil {
			return verdict{}, false
		}
		return verdict{rel, model.MayBeImpacted, fmt.Sprintf("calls %s, which must change with %s", t.display(), t.ch.Cause.Block().Display), prec}, true
	case t.deleted:
		return j.deletedVerdict(t, x, how, rel, prec)
	}
	switch t.ch.Label {
	case model.MMS:
		if how != mDirect && how != mName || t.od == nil || t.nd == nil || t.od.fn == nil || t.nd.fn == nil {
			return verdict{}, false
		}
		if x.call != nil {
			return j.callVerdict(t, x, how, rel, prec)
		}
		if how == mName || x.kind == rImport || x.kind == rString {
			return verdict{}, false
		}
		if arity(callParams(t.od.fn)) != arity(callParams(t.nd.fn)) || t.od.fn.property != t.nd.fn.property || t.od.fn.async != t.nd.fn.async {
			return verdict{rel, model.MayBeImpacted, fmt.Sprintf("uses %s as a value; its signature changed: %s", name, strings.Join(t.ch.Details, "; ")), prec}, true
		}
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
		return verdict{model.CalledBy, model.MayBeImpacted, fmt.Sprintf(what, name, strings.Join(t.ch.Escapes, ", ")), prec}, true
	case model.MF:
		// a class attribute became an instance attribute: reads through
		// the class break
		if x.kind == rAttr && x.recv.k == vClass && how == mMissing || how == mDirect && x.kind == rAttr && x.recv.k == vClass && t.nd != nil && t.nd.attr != nil && t.nd.attr.instance {
			return verdict{model.UsedBy, model.Inconsistent, fmt.Sprintf("reads %s through the class; it is now an instance attribute", name), prec}, true
		}
	}
	return verdict{}, false
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
		}
		if x.kind == rAttr && x.recv.k == vUnknown && t.qual == t.name && j.importedRoot(x) {
			return mName
		}
		if x.kind == rString && x.recv.k == vUnknown && t.deleted && strings.Contains(x.n.text(), ".") {
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
		if x.kind == rAttr && receiverRoot(x.n.child("object")) != nil && receiverRoot(x.n.child("object")).text() == "self" && t.cls != nil {
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

// importedRoot reports whether an attribute's receiver chain starts at a
// name bound by an import: a module-level function reached through a
// module the resolver could not follow.
func (j *judge) importedRoot(x *ref) bool {
	root := receiverRoot(x.n.child("object"))
	if root == nil {
		return false
	}
	bs, _ := j.r.lookup(x.s, root.text())
	for _, b := range bs {
		if b.kind == bImport || b.kind == bFrom {
			return true
		}
	}
	return false
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
		verb = "sets"
		if how == mMissing {
			how = mMaybe // setting creates the attribute: not an error by itself
		}
	}
	switch how {
	case mMissing:
		if x.kind == rString {
			return verdict{rel, model.MayBeImpacted, fmt.Sprintf("names %s in a string; %s %s", name, t.display(), what), prec}, true
		}
		if t.member && x.recv.k == vInstance && j.subclassDefines(t, x.recv.cls) {
			return verdict{rel, model.MayBeImpacted, fmt.Sprintf("%s %s on self; %s %s, but subclasses still define %s", verb, t.name, t.display(), what, t.name), prec}, true
		}
		if t.dkind == model.KindImport {
			return verdict{rel, model.Inconsistent, fmt.Sprintf("uses %s, whose import was removed", t.name), prec}, true
		}
		if x.kind == rImport {
			return verdict{model.ImportedBy, model.Inconsistent, fmt.Sprintf("imports %s from %s, which no longer defines it (%s %s)", t.name, j.moduleName(t.path), t.display(), what), prec}, true
		}
		return verdict{rel, model.Inconsistent, fmt.Sprintf("%s %s, which %s", verb, t.name, what), prec}, true
	case mFallback:
		return verdict{rel, model.MayBeImpacted, fmt.Sprintf("%s %s, which %s in %s: it now resolves to %s.%s", verb, t.name, what, t.cqual, x.hit.owner.qual, t.name), prec}, true
	case mMaybe:
		return verdict{rel, model.MayBeImpacted, fmt.Sprintf("%s %s; %s %s (a base outside the repository may still provide it)", verb, t.name, t.display(), what), prec}, true
	case mName:
		if x.kind == rString {
			return verdict{rel, model.MayBeImpacted, fmt.Sprintf("names %s in a string on a value whose type could not be resolved; %s %s", t.name, t.display(), what), prec}, true
		}
		return verdict{rel, model.MayBeImpacted, fmt.Sprintf("%s %s on a value whose type could not be resolved; %s %s", verb, t.name, t.display(), what), prec}, true
	}
	return verdict{}, false
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
	bound := j.boundCall(t, x)
	ops, nps := paramsFor(of, bound), paramsFor(nf, bound)
	args := argsOf(x.call)
	name := shortName(t)
	nb := bind(nps, args, name)
	details := strings.Join(t.ch.Details, "; ")
	if how == mName {
		ob := bind(ops, args, name)
		if ob.err == "" && nb.err != "" && !of.property && !nf.property {
			return verdict{rel, model.MayBeImpacted, fmt.Sprintf("may call %s (receiver type not resolved): the call %s", t.display(), nb.err), prec}, true
		}
		return verdict{}, false
	}
	if x.call.kind != "decorator" {
		switch {
		case nf.property && !of.property:
			return verdict{rel, model.Inconsistent, fmt.Sprintf("calls %s, which is now a property", name), prec}, true
		case nf.async && !of.async && !awaited(x.call):
			return verdict{rel, model.Inconsistent, fmt.Sprintf("calls %s without await; it is now async and returns a coroutine", name), prec}, true
		case of.async && !nf.async && awaited(x.call):
			return verdict{rel, model.Inconsistent, fmt.Sprintf("awaits %s, which is no longer async", name), prec}, true
		}
	}
	if nb.err != "" {
		if j.opaque(nf) {
			return verdict{rel, model.MayBeImpacted, fmt.Sprintf("the call %s (%s); a decorator of %s may change how it is called", nb.err, details, name), prec}, true
		}
		return verdict{rel, model.Inconsistent, fmt.Sprintf("the call %s (%s)", nb.err, details), prec}, true
	}
	if s := shifted(ops, nps, args, name); s != "" {
		return verdict{rel, model.MayBeImpacted, fmt.Sprintf("the call of %s still binds, but %s", name, s), prec}, true
	}
	return verdict{rel, model.Consistent, fmt.Sprintf("the call binds to the new signature of %s", name), prec}, true
}

// boundCall reports whether a call of a method target passes self or cls
// implicitly.
func (j *judge) boundCall(t *target, x *ref) bool {
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

func awaited(call *node) bool {
	p := call.parent
	for p != nil && p.kind == "parenthesized_expression" {
		p = p.parent
	}
	return p != nil && p.kind == "await"
}

// isStore reports an attribute or name that is assigned or deleted.
func isStore(n *node) bool {
	p := n.parent
	if p == nil {
		return false
	}
	switch p.kind {
	case "assignment", "augmented_assignment":
		return n.field == "left"
	case "delete_statement":
		return true
	case "pattern_list", "tuple", "expression_list":
		return p.parent != nil && (p.parent.kind == "assignment" && p.field == "left")
	}
	return false
}

// relation is how a reference depends on its target.
func (j *judge) relation(t *target, x *ref) model.Relation {
	if x.kind == rImport {
		return model.ImportedBy
	}
	switch t.dkind {
	case model.KindType:
		if x.call != nil {
			return model.InstantiatedBy
		}
		if p := x.n.parent; p != nil && p.kind == "argument_list" && p.field == "superclasses" {
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

// opaque reports whether a function has a decorator that may change its
// calling convention. Decorators of the repository that wrap with
// functools.wraps (or update_wrapper) or return the function keep it.
func (j *judge) opaque(fn *funcInfo) bool {
	for i, d := range fn.decoNames {
		if preserving(d) {
			continue
		}
		dn := fn.decorators[i]
		if dn.kind == "call" {
			dn = dn.child("function")
		}
		s := fn.file.scopeAt(fn.outer)
		if hf := j.a.ix.file(fn.file.path); hf != nil && hf != fn.file {
			continue // a state the resolver does not hold: judged as written
		}
		v := j.r.expr(dn, s)
		if v.k != vFunc || !wrapsTarget(v.fn) {
			return true
		}
	}
	return false
}

// wrapsTarget recognises a decorator of the repository that keeps the
// signature of what it decorates.
func wrapsTarget(d *funcInfo) bool {
	body := d.node.child("body").text()
	if strings.Contains(body, "wraps(") || strings.Contains(body, "update_wrapper(") {
		return true
	}
	if len(d.params) == 1 {
		p := d.params[0].name
		ok := false
		walk(d.node.child("body"), func(n *node) bool {
			if n.kind == "function_definition" || n.kind == "class_definition" {
				return false
			}
			if n.kind == "return_statement" {
				ks := n.namedKids()
				ok = len(ks) == 1 && ks[0].text() == p
			}
			return true
		})
		return ok
	}
	return false
}

// emit records a finding, once per site, rule and change.
func (j *judge) emit(t *target, x *ref, v verdict) {
	at := x.n
	if x.kind == rAttr {
		if a := x.n.child("attribute"); a != nil {
			at = a
		}
	}
	if x.kind == rOverride || x.kind == rFixture {
		if n := x.n.child("name"); n != nil {
			at = n
		}
	}
	site := model.Site{Path: x.f.path, Line: int(at.line), Col: int(at.col) + 1, Text: x.f.t.lineText(int(at.line))}
	if enc := enclosing(x.f, x.n); enc != nil {
		site.Enclosing = enc.display
		site.EnclosingSpan = enc.span
	}
	f := &model.Finding{Change: t.ch, Relation: v.rel, Site: site, Verdict: v.v, Precision: v.prec, Message: v.msg,
		Trail: append(trailOf(t.ch), model.Step{Relation: v.rel, Display: orFile(site.Enclosing), Path: site.Path, Line: site.Line})}
	if generated(x.f.t.src) {
		f.Message += "; generated file: regenerate it"
	}
	k := fmt.Sprintf("%s:%d:%s:%p", site.Path, site.Line, f.Rule(), t.ch)
	if j.seen[k] {
		// keep the strongest verdict for the site
		for _, g := range j.out {
			if g.Change == t.ch && g.Site.Path == site.Path && g.Site.Line == site.Line && g.Rule() == f.Rule() && g.Verdict < f.Verdict {
				*g = *f
			}
		}
		return
	}
	j.seen[k] = true
	j.out = append(j.out, f)
	if v.v == model.Inconsistent {
		j.follow(t, x, v)
	}
}

type encl struct {
	display string
	span    model.Span
}

// enclosing names the innermost def or class around n.
func enclosing(f *pfile, n *node) *encl {
	for p := n.parent; p != nil; p = p.parent {
		switch p.kind {
		case "function_definition":
			if fi := f.funcAt[p]; fi != nil {
				word := "def "
				if fi.async {
					word = "async def "
				}
				return &encl{word + fi.qual, model.Span{StartLine: int(fi.outer.line), EndLine: int(fi.outer.eline)}}
			}
		case "class_definition":
			if c := f.classAt[p]; c != nil {
				return &encl{"class " + c.qual, model.Span{StartLine: int(c.outer.line), EndLine: int(c.outer.eline)}}
			}
		}
	}
	if n.kind == "function_definition" {
		if fi := f.funcAt[n]; fi != nil {
			return &encl{"def " + fi.qual, model.Span{StartLine: int(fi.outer.line), EndLine: int(fi.outer.eline)}}
		}
	}
	return nil
}

func orFile(s string) string {
	if s == "" {
		return "module scope"
	}
	return s
}

// trailOf is the relation path from the seed to a (possibly derived)
// change's block.
func trailOf(c *model.Change) []model.Step {
	var chain []*model.Change
	for ; c != nil; c = c.Cause {
		chain = append([]*model.Change{c}, chain...)
	}
	var steps []model.Step
	for i, c := range chain {
		b := c.Block()
		st := model.Step{Display: b.Display, Path: b.Path, Line: b.NameLine}
		if i > 0 {
			st.Relation = model.OverriddenBy
			if strings.HasPrefix(strings.Join(c.Details, ""), "wraps ") {
				st.Relation = model.CalledBy
			}
		}
		steps = append(steps, st)
	}
	return steps
}

// follow makes the derived changes an inconsistent site implies: a
// function that forwards its own parameters to a changed function must
// change its signature too, and its callers are walked next.
func (j *judge) follow(t *target, x *ref, v verdict) {
	if x.call == nil || x.call.kind != "call" || t.ch.Derived {
		return
	}
	if l := t.ch.Label; l != model.MMS && l != model.MCC && l != model.ACC {
		return
	}
	var fn *funcInfo
	for p := x.n.parent; p != nil; p = p.parent {
		if p.kind == "function_definition" {
			fn = x.f.funcAt[p]
			break
		}
	}
	if fn == nil || j.wrapped[fn] || strings.HasPrefix(fn.name, "test") || fn.fixture {
		return
	}
	params := map[string]bool{}
	for i, p := range fn.params {
		if i == 0 && fn.cls != nil {
			continue
		}
		params[p.name] = true
	}
	args := x.call.child("arguments").namedKids()
	if len(args) == 0 {
		return
	}
	for _, a := range args {
		e := a
		switch a.kind {
		case "keyword_argument":
			e = a.child("value")
		case "list_splat", "dictionary_splat":
			if ks := a.namedKids(); len(ks) == 1 {
				e = ks[0]
			}
		}
		if e == nil || e.kind != "identifier" || !params[e.text()] {
			return
		}
	}
	j.wrapped[fn] = true
	d := j.a.declOf(fn)
	if d == nil {
		return
	}
	j.derived = append(j.derived, &model.Change{Label: model.MMS, Old: &d.Block, New: &d.Block, Cause: t.ch,
		Details: []string{"wraps " + t.display() + " (forwards its parameters), whose " + strings.Join(t.ch.Details, "; ")}})
}

// declOf makes (and registers) the declaration of a head-state function,
// for a derived change.
func (a *analyzer) declOf(fn *funcInfo) *lang.Decl {
	b := &declBuilder{f: fn.file, seen: map[string]*lang.Decl{}}
	b.function(fn)
	if len(b.out) == 0 {
		return nil
	}
	d := b.out[0]
	a.fe.mu.Lock()
	a.fe.decls[&d.Block] = d
	a.fe.mu.Unlock()
	return d
}
