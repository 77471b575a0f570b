package python

import (
	"strings"

	"github.com/ripple-dev/ripple/internal/lang"
	"github.com/ripple-dev/ripple/internal/lang/treesit"
	"github.com/ripple-dev/ripple/internal/model"
)

// opaque reports whether a function has a decorator that may change its
// calling convention. Decorators of the repository that wrap with
// functools.wraps (or update_wrapper) or return the function keep it.
func (j *judge) opaque(fn *funcInfo) bool {
	for i, d := range fn.decoNames {
		if preserving(d) {
			continue
		}
		dn := fn.decorators[i]
		if dn.Kind == "call" {
			dn = dn.Child("function")
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
	body := d.node.Child("body").Text()
	if strings.Contains(body, "wraps(") || strings.Contains(body, "update_wrapper(") {
		return true
	}
	if len(d.params) == 1 {
		p := d.params[0].name
		ok := false
		treesit.Walk(d.node.Child("body"), func(n *treesit.Node) bool {
			if n.Kind == "function_definition" || n.Kind == "class_definition" {
				return false
			}
			if n.Kind == "return_statement" {
				ks := n.NamedKids()
				ok = len(ks) == 1 && ks[0].Text() == p
			}
			return true
		})
		return ok
	}
	return false
}

// emit records a finding, once per site, rule and change.
func (j *judge) emit(t *target, x *ref, v verdict) {
	if v.v == model.Inconsistent {
		exc := v.exc
		if exc == "" {
			exc = excOf(t, x)
		}
		if why, sure := j.expectedFailure(x, exc); why != "" {
			v.v = model.MayBeImpacted
			if sure {
				v.v = model.Consistent // an expected failure: the test passes
			}
			v.msg += "; " + why
		}
	}
	at := x.n
	if x.kind == rAttr {
		if a := x.n.Child("attribute"); a != nil {
			at = a
		}
	}
	if x.kind == rOverride || x.kind == rFixture {
		if n := x.n.Child("name"); n != nil {
			at = n
		}
	}
	site := model.Site{Path: x.f.path, Line: int(at.Line), Col: int(at.Col) + 1, Text: x.f.t.LineText(int(at.Line))}
	if enc := enclosing(x.f, x.n); enc != nil {
		site.Enclosing = enc.display
		site.EnclosingSpan = enc.span
	}
	if x.kind == rOverride && x.fn != nil {
		// the override itself is the block that must change, not its class
		site.Enclosing = funcDisplay(x.fn)
		site.EnclosingSpan = model.Span{StartLine: int(x.fn.outer.Line), EndLine: int(x.fn.outer.EndLine)}
	}
	f := &lang.Ref{Change: t.ch, Relation: v.rel, Site: site, Verdict: v.v, Precision: v.prec, Message: v.msg,
		Generated: generated(x.f.t.Src)}
	if v.v == model.Inconsistent || v.v == model.MayBeImpacted && v.prec == model.PrecisionSyntax && t.ch.Label == model.MMS && t.nd != nil && t.nd.fn != nil && !j.opaque(t.nd.fn) {
		// a warning of a call whose arguments moved to other parameters
		// (reordered) is fixed by moving them back
		f.Fix = fixFor(j.a.env.Defaults, t, x, at)
	}
	// the core keeps one finding per line (the strongest, fixes merged)
	j.out = append(j.out, f)
	j.a.tier.sites[f] = &pysite{ref: f, t: t, x: x}
	if v.v == model.MayBeImpacted {
		j.dflt.add(x, t.ch, f)
	}
	if f.Follow = j.followOf[x]; f.Follow == nil && v.v != model.Consistent {
		f.Follow = j.follow(t, x, v)
	}
}

type encl struct {
	display string
	span    model.Span
}

// enclosing names the innermost def or class around n.
func enclosing(f *pfile, n *treesit.Node) *encl {
	for p := n.Parent; p != nil; p = p.Parent {
		switch p.Kind {
		case "function_definition":
			if fi := f.funcAt[p]; fi != nil {
				return &encl{funcDisplay(fi), model.Span{StartLine: int(fi.outer.Line), EndLine: int(fi.outer.EndLine)}}
			}
		case "class_definition":
			if c := f.classAt[p]; c != nil {
				return &encl{"class " + c.qual, model.Span{StartLine: int(c.outer.Line), EndLine: int(c.outer.EndLine)}}
			}
		}
	}
	if n.Kind == "function_definition" {
		if fi := f.funcAt[n]; fi != nil {
			return &encl{funcDisplay(fi), model.Span{StartLine: int(fi.outer.Line), EndLine: int(fi.outer.EndLine)}}
		}
	}
	return nil
}

// follow makes the derived change a call site implies for the function
// around it, whose own callers are walked next:
//   - a wrapper (it forwards its own parameters to the changed function)
//     must change its signature with it;
//   - a function whose call no longer binds because the change added a
//     required parameter (or a caller of a function that must follow, in
//     a chain) may have to take the new value from its own callers: the
//     value is threaded through the chain up to an entry point. Its
//     callers are the frontier (the walk reports them as notes).
//
// Tests and fixtures are entry points: nothing calls them.
func (j *judge) follow(t *target, x *ref, v verdict) *lang.Follow {
	if x.call == nil || x.call.Kind != "call" {
		return nil
	}
	if l := t.ch.Label; l != model.MMS && l != model.MCC && l != model.ACC {
		return nil
	}
	var fn *funcInfo
	for p := x.n.Parent; p != nil; p = p.Parent {
		if p.Kind == "function_definition" {
			fn = x.f.funcAt[p]
			break
		}
	}
	if fn == nil || j.wrapped[fn] || strings.HasPrefix(fn.name, "test") || fn.fixture || fn.name == "__init__" && t.ch.Derived {
		return nil
	}
	if b := t.ch.Block(); b.Path == fn.file.path && int(fn.node.Child("name").Line) == b.NameLine {
		return nil // a recursive call: the function is the change itself
	}
	threads := t.ch.Derived || v.v == model.Inconsistent && len(addedParams(t, true)) > 0 || v.v == model.MayFollow && len(addedParams(t, false)) > 0
	if !forwards(fn, x) {
		if !threads {
			return nil
		}
		j.wrapped[fn] = true
		d := j.a.declOf(fn)
		if d == nil {
			return nil
		}
		why := "calls " + t.display() + " (" + strings.Join(t.ch.Details, "; ") + "): may have to take the new value from its callers"
		if t.ch.Derived {
			why = "calls " + t.display() + ", which may change: may have to take a new value from its callers"
		}
		return &lang.Follow{Decl: d, Label: model.MMS, Details: []string{why}, Frontier: true}
	}
	j.wrapped[fn] = true
	d := j.a.declOf(fn)
	if d == nil {
		return nil
	}
	how := "whose "
	if t.ch.Derived {
		how = "which "
	}
	return &lang.Follow{Decl: d, Label: model.MMS,
		Details: []string{"wraps " + t.display() + " (forwards its parameters), " + how + strings.Join(t.ch.Details, "; ")}}
}

// forwards reports whether every argument of the call is one of fn's own
// parameters (fn wraps the called function).
func forwards(fn *funcInfo, x *ref) bool {
	params := map[string]bool{}
	for i, p := range fn.params {
		if i == 0 && fn.cls != nil {
			continue
		}
		params[p.name] = true
	}
	args := x.call.Child("arguments").NamedKids()
	if len(args) == 0 {
		return false
	}
	for _, a := range args {
		e := a
		switch a.Kind {
		case "keyword_argument":
			e = a.Child("value")
		case "list_splat", "dictionary_splat":
			if ks := a.NamedKids(); len(ks) == 1 {
				e = ks[0]
			}
		}
		if e == nil || e.Kind != "identifier" || !params[e.Text()] {
			return false
		}
	}
	return true
}

// addedParams are the parameters the change gave its function, required
// ones or (required false) optional ones: its callers lack, or may lack, a
// value.
func addedParams(t *target, required bool) []string {
	if t.od == nil || t.nd == nil || t.od.fn == nil || t.nd.fn == nil || t.ch.Derived {
		return nil
	}
	had := map[string]bool{}
	for _, p := range callParams(t.od.fn) {
		had[p.name] = true
	}
	var out []string
	for _, p := range callParams(t.nd.fn) {
		if !had[p.name] && p.hasDef != required && p.kind != varArgs && p.kind != varKw {
			out = append(out, p.name)
		}
	}
	return out
}

// declOf makes the declaration of a head-state function, for a derived
// change.
func (a *analyzer) declOf(fn *funcInfo) *lang.Decl {
	b := &declBuilder{f: fn.file, seen: map[string]*lang.Decl{}}
	b.function(fn)
	if len(b.out) == 0 {
		return nil
	}
	return b.out[0]
}

// expectedFailure says why a broken site may be broken on purpose: inside
// `with pytest.raises(...)` or assertRaises, or in a test marked skip or
// xfail (unconditionally: skipif runs somewhere). "" otherwise. sure is
// set when the site is an expected failure for certain: the context
// expects the very exception the site now raises (or a base of it).
func (j *judge) expectedFailure(x *ref, exc string) (why string, sure bool) {
	f, n := x.f, x.n
	for p := n.Parent; p != nil; p = p.Parent {
		switch p.Kind {
		case "with_statement":
			if !within(n, p.Child("body")) {
				continue
			}
			for _, v := range withCalls(p) {
				fn := lastPart(v.Child("function").Text())
				switch fn {
				case "raises", "assertRaises", "assertRaisesRegex", "assertRaisesRegexp", "raises_regex":
					switch j.catches(v, x.s, exc) {
					case catchYes:
						return "inside " + fn + "(...), which expects the " + exc + " it raises", true
					case catchMaybe:
						return "inside " + fn + "(...): the test may expect the " + exc, false
					}
				}
			}
		case "function_definition", "class_definition":
			for _, d := range f.decoratorsOf(p) {
				switch lastPart(d) {
				case "skip", "xfail", "expectedFailure":
					return "in a test marked " + lastPart(d) + ": it may not run", false
				}
			}
		}
	}
	return "", false
}

// excOf is the exception a use of a deleted declaration raises.
func excOf(t *target, x *ref) string {
	switch {
	case x.kind == rImport:
		return "ImportError"
	case x.kind == rAttr || t.member:
		return "AttributeError"
	case x.kind == rName:
		return "NameError"
	}
	return "TypeError"
}

// catch is whether an expected exception catches the one a site raises.
type catch int

const (
	catchNo    catch = iota // a builtin exception that is not exc or a base of it
	catchYes                // exc itself or a builtin base of it
	catchMaybe              // a class of the repository or a library: may derive from exc
)

// excBases are the builtin bases of the exceptions a broken site raises
// (pydantic's ValidationError derives from ValueError).
var excBases = map[string][]string{
	"TypeError":       {"TypeError", "Exception", "BaseException"},
	"AttributeError":  {"AttributeError", "Exception", "BaseException"},
	"NameError":       {"NameError", "Exception", "BaseException"},
	"ImportError":     {"ImportError", "Exception", "BaseException"},
	"ValidationError": {"ValidationError", "ValueError", "Exception", "BaseException"},
}

// catches reports whether a raises(...) call's expected exception (the
// first argument, or expected_exception=) would catch exc: exc itself or
// a base of it. A class of the repository never is one (exc is builtin,
// or pydantic's); a name that does not resolve may be.
func (j *judge) catches(call *treesit.Node, s *scope, exc string) catch {
	var first *treesit.Node
	for _, a := range call.Child("arguments").NamedKids() {
		if a.Kind == "keyword_argument" {
			if a.Child("name").Text() == "expected_exception" {
				first = a.Child("value")
			}
			continue
		}
		if first == nil {
			first = a
		}
	}
	if first == nil {
		return catchNo
	}
	var names []*treesit.Node
	if a := treesit.Unparen(first); a.Kind == "tuple" {
		names = a.NamedKids()
	} else {
		names = []*treesit.Node{a}
	}
	out := catchNo
	for _, a := range names {
		n := lastPart(a.Text())
		if contains(excBases[exc], n) {
			return catchYes
		}
		if builtins[n] {
			continue
		}
		switch v := j.r.expr(a, s); v.k {
		case vClass, vExternal:
			// a class of the repository is no base of a builtin
			// exception; a library's is judged by its name
		default:
			out = catchMaybe
		}
	}
	return out
}
