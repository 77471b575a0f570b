package golang

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"regexp"
	"strings"

	"github.com/ripple-dev/ripple/internal/model"
)

// verdict is the outcome of judging one reference.
type verdict struct {
	rel    model.Relation
	v      model.Verdict
	msg    string
	skip   bool // not a dependent after all
	silent bool // only a hook for the type checker (never reported on its own)
	// unlessTypes: not a dependent by syntax, but an error the type
	// checker attributes to it still makes it inconsistent (a receiver
	// that became a pointer: only non-addressable receivers break)
	unlessTypes bool
	exactly     bool // the syntactic verdict cannot be improved by types
	// binds: a call of a changed signature whose arguments bind to the new
	// parameters (count, spread, variadic); only their types are unknown
	binds bool
	// missing names what the type checker lacked at or around the site
	// (lang.Ref.Missing): the verdict is the syntactic one
	missing string
	// keep: an error of the type checker makes the site inconsistent,
	// its silence does not make it consistent (a field read that now
	// reads a method value compiles where any value is taken)
	keep bool
}

// relationOf maps a reference's role to the relation it stands in.
func relationOf(r *ref) model.Relation {
	switch r.kind {
	case rkKey, rkLiteral:
		return model.InstantiatedBy
	case rkImpl:
		return model.OverriddenBy
	case rkIfaceDcl:
		return model.Overrides
	case rkEmbed:
		return model.EmbeddedBy
	}
	switch r.t.kind {
	case model.KindFunc, model.KindMethod, model.KindConstructor, model.KindIfaceMethod:
		return model.CalledBy
	case model.KindType, model.KindInterface:
		if len(r.stack) >= 2 {
			switch p := r.stack[len(r.stack)-2].(type) {
			case *ast.CompositeLit:
				return model.InstantiatedBy
			case *ast.SelectorExpr:
				if len(r.stack) >= 3 {
					if _, ok := r.stack[len(r.stack)-3].(*ast.CompositeLit); ok && p.Sel == r.id {
						return model.InstantiatedBy
					}
				}
			}
		}
		return model.ReferencedBy
	}
	return model.UsedBy
}

// syntaxRules are the analyzer's syntactic verdicts, the fast tier: what
// the syntax alone says of each reference (this file, asserted.go, and
// the coverage and discard rules of copies.go and evidence.go). They
// read the index, the symbols, the configuration and the round's field
// additions, all of the analyzer's, so they extend it rather than copy
// them.
type syntaxRules struct{ *analyzer }

// syntacticVerdict judges a reference from syntax alone.
func (a syntaxRules) syntacticVerdict(r *ref) verdict {
	t := r.t
	rel := relationOf(r)
	name := t.decl().Display
	if t.ch.Derived && t.old == t.new {
		// a declaration that must change in a way not known yet (a
		// wrapper, an implementation that must follow)
		if r.kind != rkCall && r.kind != rkValue || r.prec == model.PrecisionName {
			return verdict{skip: true}
		}
		if msg := a.breaksWhenFollowing(r); msg != "" {
			return verdict{rel: rel, v: model.MayBeImpacted, exactly: true,
				msg: fmt.Sprintf("calls %s, which must follow %s; then the call %s", name, t.ch.Cause.Block().Display, msg)}
		}
		return verdict{rel: rel, v: model.MayFollow, exactly: true,
			msg: fmt.Sprintf("calls %s, which must change with %s", name, t.ch.Cause.Block().Display)}
	}
	switch t.ch.Label {
	case model.DM, model.DCC, model.DF, model.DC:
		return a.deletedVerdict(r, rel, name)
	case model.MMS, model.MCC:
		return a.signatureVerdict(r, rel)
	case model.MF:
		return a.fieldVerdict(r, rel)
	case model.AF:
		if r.kind == rkLiteral {
			if n, unkeyed := unkeyedCount(r.lit); unkeyed && n != a.fieldCount(t) {
				return verdict{rel: rel, v: model.Inconsistent, exactly: true,
					msg: fmt.Sprintf("struct literal lists %d values without field names; %s now also has field %s", n, t.container, t.new.Name)}
			}
		}
		return a.coverageVerdict(r)
	case model.MC:
		if r.kind == rkImpl || r.kind == rkIfaceDcl || r.kind == rkLiteral {
			return verdict{skip: true}
		}
		return verdict{rel: rel, v: model.MayBeImpacted, msg: fmt.Sprintf("uses %s, whose declaration changed (%s)", name, strings.Join(t.ch.Details, "; "))}
	case model.AM:
		return verdict{rel: model.OverriddenBy, silent: true}
	case model.MMB:
		if r.kind != rkCall && r.kind != rkValue {
			return verdict{skip: true}
		}
		return verdict{rel: model.CalledBy, v: model.MayBeImpacted, msg: fmt.Sprintf("calls %s, whose body changed in a way callers can see (%s)", name, strings.Join(t.ch.Escapes, ", "))}
	}
	return verdict{skip: true}
}

func (a syntaxRules) deletedVerdict(r *ref, rel model.Relation, name string) verdict {
	t := r.t
	what := "was deleted"
	if t.ch.Renamed() {
		what = "was renamed to " + t.ch.New.Name
	}
	switch r.kind {
	case rkImpl:
		// a method that implemented the removed interface method: now
		// unused through the interface (a mock, a fake, an adapter)
		// (a renamed one is the type checker's: the type no longer
		// implements the interface where it is used as one)
		if t.kind != model.KindIfaceMethod || t.ch.Renamed() || !a.implementsOld(r) {
			return verdict{skip: true}
		}
		if c := (tref{t.pkgKey, t.container}); a.syms.hasMember(&c, t.name, 0) || a.syms.embedderHas(c, t.name) {
			// the method moved: into an interface the changed one embeds,
			// or into one that embeds it; the implementations still need it
			return verdict{skip: true}
		}
		return verdict{rel: model.OverriddenBy, v: model.MayBeImpacted,
			msg: fmt.Sprintf("%s.%s implements %s, which %s: remove it with the interface's method, unless other code calls it", r.implRcv, t.name, name, what)}
	case rkIfaceDcl:
		return verdict{skip: true}
	case rkLiteral:
		if t.kind == model.KindField {
			if n, unkeyed := unkeyedCount(r.lit); unkeyed && n != a.fieldCount(t) {
				return verdict{rel: rel, v: model.Inconsistent, exactly: true,
					msg: fmt.Sprintf("struct literal lists %d values without field names; field %s.%s %s", n, t.container, t.name, what)}
			}
		}
		return verdict{skip: true}
	}
	if t.member && r.via == "" {
		// a member of the same name may still be promoted from an
		// embedded type
		ct := &tref{t.pkgKey, t.container}
		if a.syms.methodOf(ct, t.name, 0) != nil {
			return verdict{skip: true}
		}
		if _, ok := a.syms.fieldOf(ct, t.name, 0); ok && !(t.kind == model.KindField && a.syms.lookupType(ct) != nil && a.syms.lookupType(ct).fields[t.name].expr == nil) {
			return verdict{skip: true}
		}
	}
	if r.prec == model.PrecisionName {
		return verdict{rel: rel, v: model.MayBeImpacted, msg: fmt.Sprintf("uses %s on a value whose type could not be resolved; %s %s", t.name, name, what)}
	}
	verb := "uses"
	if r.kind == rkCall {
		verb = "calls"
	}
	if !t.member && !t.ch.Renamed() && types.Universe.Lookup(t.name) != nil {
		// a package-level min, max or clear shadowed the predeclared
		// one; deleted, the name is the builtin's (bubbletea ece00b4f40
		// removed its max after Go 1.21): the type checker judges
		return verdict{rel: rel, v: model.MayBeImpacted,
			msg: fmt.Sprintf("%s %s, which %s: the predeclared %s takes its place", verb, t.name, what, t.name)}
	}
	// a package-level name resolved through scopes and imports is a proof;
	// a member's receiver was inferred, so the type checker may still
	// find it promoted from elsewhere
	return verdict{rel: rel, v: model.Inconsistent, exactly: !t.member && !a.declaredElsewhere(t), msg: fmt.Sprintf("%s %s, which %s", verb, t.name, what)}
}

func unkeyedCount(lit *ast.CompositeLit) (int, bool) {
	if lit == nil || len(lit.Elts) == 0 {
		return 0, false
	}
	if _, ok := lit.Elts[0].(*ast.KeyValueExpr); ok {
		return 0, false
	}
	return len(lit.Elts), true
}

// signatureVerdict checks a use of a function whose signature changed.
func (a syntaxRules) signatureVerdict(r *ref, rel model.Relation) verdict {
	t := r.t
	nf, _ := t.new.Data.(*funcInfo)
	of, _ := t.old.Data.(*funcInfo)
	if nf == nil || of == nil {
		return kindVerdict(r, rel)
	}
	name := t.new.Name
	switch r.kind {
	case rkImpl:
		return a.implVerdict(r, of, nf)
	case rkIfaceDcl:
		return verdict{skip: true} // answered by the type checker where the type is used as the interface
	case rkCall:
		if r.prec == model.PrecisionName {
			return verdict{rel: rel, v: model.MayBeImpacted, msg: fmt.Sprintf("may call %s (receiver type not resolved), whose signature changed: %s", t.new.Display, strings.Join(t.ch.Details, "; "))}
		}
		// argument and result counts are proofs the type checker cannot
		// improve (for a callee resolved through scopes and imports)
		exact := !t.member && !a.declaredElsewhere(t)
		if msg := bindError(r.call, nf, name); msg != "" {
			return verdict{rel: rel, v: model.Inconsistent, exactly: exact, msg: msg + " (" + strings.Join(t.ch.Details, "; ") + ")"}
		}
		if msg := resultError(r, of, nf, name); msg != "" {
			return verdict{rel: rel, v: model.Inconsistent, exactly: exact, msg: msg}
		}
		if a.assertError(r, of, nf) {
			return verdict{rel: rel, v: model.Inconsistent, exactly: exact,
				msg: fmt.Sprintf("type-asserts the result, now of type %s, not an interface (%s)", nf.Results[0].Type, strings.Join(t.ch.Details, "; "))}
		}
		if v, ok := a.discardVerdict(r, rel); ok {
			return v
		}
		if typesOf(of.Params) == typesOf(nf.Params) && typesOf(of.Results) == typesOf(nf.Results) && of.TypeParams == nf.TypeParams {
			// only the receiver changed
			return verdict{rel: rel, skip: true, unlessTypes: true}
		}
		if m := omitsAddedVariadic(r); m != "" && of.TypeParams == nf.TypeParams {
			// the count proves it, whatever the arguments' types
			return verdict{rel: rel, v: model.MayFollow, exactly: exact, msg: m}
		}
		if widenedToAny(of, nf, r.call) {
			// every argument is assignable to any: the call binds whatever
			// its arguments' types (gin 41d8591eb1: MustGet(key string) ->
			// MustGet(key any), a warning at every call of it before)
			return verdict{rel: rel, v: model.Consistent, exactly: true,
				msg: fmt.Sprintf("the call binds: the parameters of %s that changed now take any value", name)}
		}
		return verdict{rel: rel, v: model.MayBeImpacted, binds: true, msg: fmt.Sprintf("call of %s still binds, but %s", name, strings.Join(t.ch.Details, "; "))}
	default:
		if r.prec == model.PrecisionName {
			return verdict{rel: rel, v: model.MayBeImpacted, msg: fmt.Sprintf("may use %s (receiver type not resolved) as a value; its signature changed", t.new.Display)}
		}
		return verdict{rel: rel, v: model.MayBeImpacted, msg: fmt.Sprintf("uses %s as a function value; its type changed: %s", name, strings.Join(t.ch.Details, "; "))}
	}
}

// breaksWhenFollowing judges a call of an implementation that must follow
// a changed interface method against the signature it must take (the
// interface method's new one): the reason the call breaks once the
// implementation follows, or "" when that is not known.
func (a syntaxRules) breaksWhenFollowing(r *ref) string {
	t := r.t
	if r.kind != rkCall || t.ch.Via != model.OverriddenBy || t.ch.Cause == nil || t.ch.Cause.New == nil {
		return ""
	}
	want, _ := t.ch.Cause.New.Data.(*funcInfo)
	cur, _ := t.new.Data.(*funcInfo)
	if want == nil || cur == nil {
		return ""
	}
	if msg := bindError(r.call, want, t.name); msg != "" {
		return strings.TrimPrefix(msg, "call ")
	}
	if a.assertError(r, cur, want) {
		return "type-asserts its result, then of type " + want.Results[0].Type + ", not an interface"
	}
	return resultError(r, cur, want, t.name)
}

// bindError reports a call whose arguments no longer bind to the new
// parameters, or "".
func bindError(c *ast.CallExpr, nf *funcInfo, name string) string {
	if c == nil {
		return ""
	}
	nargs := len(c.Args)
	np := len(nf.Params)
	if nargs == 1 && np > 1 {
		if _, ok := c.Args[0].(*ast.CallExpr); ok {
			return "" // f(g()) may spread several results
		}
	}
	if c.Ellipsis.IsValid() {
		if !nf.Variadic {
			return fmt.Sprintf("call passes a slice with ... but %s is no longer variadic", name)
		}
		if nargs != np {
			return fmt.Sprintf("call passes %s; %s now takes %d", model.Plural(nargs, "argument", "arguments"), name, np)
		}
		return ""
	}
	required := np
	if nf.Variadic {
		required--
	}
	switch {
	case nargs < required:
		return fmt.Sprintf("call passes %s; %s now takes %s", model.Plural(nargs, "argument", "arguments"), name, arity(nf))
	case !nf.Variadic && nargs > np:
		return fmt.Sprintf("call passes %s; %s now takes %s", model.Plural(nargs, "argument", "arguments"), name, arity(nf))
	}
	return ""
}

func arity(f *funcInfo) string {
	if f.Variadic {
		return fmt.Sprintf("at least %d", len(f.Params)-1)
	}
	return fmt.Sprintf("%d", len(f.Params))
}

// resultError reports a call whose use of the results no longer fits.
func resultError(r *ref, of, nf *funcInfo, name string) string {
	if len(of.Results) == len(nf.Results) {
		return ""
	}
	// the node holding the call: skip parens
	i := len(r.stack) - 1
	for i >= 0 && r.stack[i] != r.call {
		i--
	}
	if i <= 0 {
		return ""
	}
	parent := r.stack[i-1]
	nr := len(nf.Results)
	switch p := parent.(type) {
	case *ast.ExprStmt, *ast.GoStmt, *ast.DeferStmt:
		return ""
	case *ast.AssignStmt:
		if len(p.Rhs) == 1 && len(p.Lhs) != nr {
			return fmt.Sprintf("assigns %d results; %s now returns %d", len(p.Lhs), name, nr)
		}
	case *ast.ValueSpec:
		if len(p.Values) == 1 && len(p.Names) != nr {
			return fmt.Sprintf("assigns %d results; %s now returns %d", len(p.Names), name, nr)
		}
	case *ast.ReturnStmt:
		if len(p.Results) == 1 {
			// return f(): must match the enclosing function's results
			if want := enclosingResults(r.stack[:i]); want >= 0 && want != nr {
				return fmt.Sprintf("returns %s's %d results from a function with %d", name, nr, want)
			}
			return ""
		}
		if nr != 1 {
			return fmt.Sprintf("uses the result as a single value; %s now returns %d values", name, nr)
		}
	case *ast.CallExpr:
		if len(p.Args) == 1 && p.Args[0] == r.call {
			return "" // g(f()) spreads several results: left to types
		}
		if nr != 1 && len(of.Results) == 1 {
			return fmt.Sprintf("uses the result as a single value; %s now returns %d values", name, nr)
		}
	default:
		if nr != 1 && len(of.Results) == 1 {
			return fmt.Sprintf("uses the result as a single value; %s now returns %d values", name, nr)
		}
	}
	return ""
}

var qualifier = regexp.MustCompile(`\b[a-zA-Z_][a-zA-Z0-9_]*\.`)

// looseSig is a signature with package qualifiers dropped, so that an
// interface in one package and its implementation in another compare.
func looseSig(f *funcInfo) string {
	return qualifier.ReplaceAllString("("+typesOf(f.Params)+")("+typesOf(f.Results)+")", "")
}

// implVerdict judges a method that may implement a changed interface
// method.
func (a syntaxRules) implVerdict(r *ref, of, nf *funcInfo) verdict {
	if r.decl == nil {
		return verdict{skip: true}
	}
	t := r.t
	impl := &funcInfo{}
	impl.Params, impl.Variadic = fieldList(r.decl.Type.Params)
	impl.Results, _ = fieldList(r.decl.Type.Results)
	if !a.implementsOld(r) {
		return verdict{skip: true}
	}
	switch looseSig(impl) {
	case looseSig(nf):
		return verdict{rel: model.OverriddenBy, v: model.Consistent, msg: fmt.Sprintf("implements %s with the new signature", t.new.Display)}
	case looseSig(of):
		// broken only where the type is used as the interface: proven
		// syntactically by an interface assertion or a return of the type
		// as the interface, else by the type checker (typecheck.go)
		rcv, iface := apart(r.implRcv, r.f.pkgKey, t.container, t.pkgKey)
		msg := fmt.Sprintf("%s.%s has the old signature of %s (%s): %s no longer implements %s where it is used as one", rcv, t.name, t.new.Display, strings.Join(t.ch.Details, "; "), rcv, iface)
		if where := a.usedAs(r); where != "" {
			return verdict{rel: model.OverriddenBy, v: model.Inconsistent, msg: msg + " (" + where + ")"}
		}
		return verdict{rel: model.OverriddenBy, v: model.MayBeImpacted, msg: msg}
	}
	return verdict{rel: model.OverriddenBy, v: model.MayBeImpacted, msg: fmt.Sprintf("%s.%s may implement %s, whose signature changed", r.implRcv, t.name, t.new.Display)}
}

// implementsOld reports whether the receiver type of an rkImpl reference
// has every method of the interface (by name, as known from the parsed
// files), i.e. plausibly implemented it before the change.
func (a syntaxRules) implementsOld(r *ref) bool {
	methods := ifaceMethods(r.t) // the interface's methods before the change
	if len(methods) == 0 {
		return true // not known: assume so
	}
	rt := &tref{r.f.pkgKey, r.implRcv}
	for _, m := range methods {
		if m == r.t.name {
			continue
		}
		if a.syms.methodOf(rt, m, 0) == nil {
			return false
		}
	}
	return true
}

// fieldVerdict judges a use of a field (or package variable) whose type
// or tag changed.
func (a syntaxRules) fieldVerdict(r *ref, rel model.Relation) verdict {
	t := r.t
	of, _ := t.old.Data.(*fieldInfo)
	nf, _ := t.new.Data.(*fieldInfo)
	if (of == nil) != (nf == nil) {
		return kindVerdict(r, rel) // a field that became a method, or back
	}
	if of != nil && nf != nil && of.Type == nf.Type && of.Embedded == nf.Embedded {
		return verdict{skip: true} // only the tag changed: Go code is unaffected
	}
	if r.kind == rkLiteral {
		if _, unkeyed := unkeyedCount(r.lit); !unkeyed {
			return verdict{skip: true}
		}
	}
	if r.prec == model.PrecisionName {
		return verdict{rel: rel, v: model.MayBeImpacted, msg: fmt.Sprintf("may use %s (receiver type not resolved), whose type changed: %s", t.decl().Display, strings.Join(t.ch.Details, "; "))}
	}
	if v := assignedValue(r); v != nil && nf != nil {
		if why := notAssignable(v, nf.Type); why != "" {
			// the value's form proves it (syntypes.go); the field itself
			// was resolved by syntax, so the checker may still say more
			return verdict{rel: rel, v: model.Inconsistent, msg: fmt.Sprintf("assigns to %s a value that cannot have its new type %s: %s", t.decl().Display, nf.Type, why)}
		}
	}
	return verdict{rel: rel, v: model.MayBeImpacted, msg: fmt.Sprintf("uses %s, whose %s", t.decl().Display, strings.Join(t.ch.Details, "; "))}
}

// assignedValue is the value a reference to a field is given: the value
// of its key in a struct literal, or the right-hand side of a plain
// assignment to it (x.F = v); nil otherwise.
func assignedValue(r *ref) ast.Expr {
	n := len(r.stack)
	if n < 2 || r.id == nil {
		return nil
	}
	switch p := r.stack[n-2].(type) {
	case *ast.KeyValueExpr:
		if r.kind == rkKey && p.Key == r.id {
			return p.Value
		}
	case *ast.SelectorExpr:
		if p.Sel != r.id || n < 3 {
			return nil
		}
		if as, ok := r.stack[n-3].(*ast.AssignStmt); ok && as.Tok == token.ASSIGN && len(as.Lhs) == len(as.Rhs) {
			for i, l := range as.Lhs {
				if l == p {
					return as.Rhs[i]
				}
			}
		}
	}
	return nil
}

// enclosingResults counts the results of the innermost function (or
// function literal) of a stack, -1 when there is none.
func enclosingResults(stack []ast.Node) int {
	for i := len(stack) - 1; i >= 0; i-- {
		var ft *ast.FuncType
		switch n := stack[i].(type) {
		case *ast.FuncDecl:
			ft = n.Type
		case *ast.FuncLit:
			ft = n.Type
		default:
			continue
		}
		ps, _ := fieldList(ft.Results)
		return len(ps)
	}
	return -1
}

// declaredElsewhere reports whether the package still declares the
// target's name in a file other than the seed's (a build variant: a
// syntactic proof then holds only for some configurations, and the type
// checker must say which).
func (a syntaxRules) declaredElsewhere(t *target) bool {
	d := t.decl()
	p := a.syms.pkgs[t.pkgKey]
	if p == nil {
		return true // not indexed: do not claim a proof
	}
	other := func(f *pfile) bool {
		return f != nil && f.path != d.Path && (t.old == nil || f.path != t.old.Path)
	}
	if fs := p.funcs[t.name]; fs != nil && other(fs.file) {
		return true
	}
	if ts := p.types[t.name]; ts != nil && ts.spec != nil && other(ts.file) {
		return true
	}
	if v, ok := p.vars[t.name]; ok && other(v.file) {
		return true
	}
	return false
}

// fieldCount is the number of fields the target's struct has in the head
// state (-1 when unknown): an unkeyed literal listing that many values
// was updated.
func (a syntaxRules) fieldCount(t *target) int {
	ts := a.syms.lookupType(&tref{t.pkgKey, t.container})
	if ts == nil {
		return -1
	}
	st, ok := ts.spec.Type.(*ast.StructType)
	if !ok {
		return -1
	}
	n := 0
	for _, f := range st.Fields.List {
		n += max(1, len(f.Names))
	}
	return n
}

// usedAs looks, in the files of an implementation's package, for a
// syntactic proof that its type is used as the changed interface: an
// assertion such as var _ I = (*T)(nil), a variable of the interface's
// type initialised with the type, or a return of the type from a function
// whose result is the interface. It returns where, or "".
func (a syntaxRules) usedAs(r *ref) string {
	iface, impl := r.t.container, r.implRcv
	isIface := func(e ast.Expr) bool {
		e = unstar(e)
		switch x := e.(type) {
		case *ast.Ident:
			return x.Name == iface
		case *ast.SelectorExpr:
			return x.Sel.Name == iface
		}
		return false
	}
	for _, f := range a.ix.parse(a.ctx, a.ix.byDir[r.f.dir]) {
		if f.pkgName != r.f.pkgName {
			continue
		}
		isImpl := func(e ast.Expr) bool {
			t := a.syms.exprType(e, f, 0)
			return t != nil && t.name == impl && t.pkg == r.f.pkgKey
		}
		where := ""
		at := func(n ast.Node) string {
			p := a.ix.fset.PositionFor(n.Pos(), false)
			return fmt.Sprintf("used as %s at %s:%d", iface, f.path, p.Line)
		}
		ast.Inspect(f.ast, func(n ast.Node) bool {
			if where != "" {
				return false
			}
			switch x := n.(type) {
			case *ast.ValueSpec:
				if x.Type != nil && isIface(x.Type) {
					for _, v := range x.Values {
						if isImpl(v) {
							where = at(v)
						}
					}
				}
			case *ast.FuncDecl:
				if x.Body == nil || x.Type.Results == nil {
					return true
				}
				var results []ast.Expr
				for _, fl := range x.Type.Results.List {
					for range max(1, len(fl.Names)) {
						results = append(results, fl.Type)
					}
				}
				ast.Inspect(x.Body, func(n ast.Node) bool {
					if _, lit := n.(*ast.FuncLit); lit || where != "" {
						return false
					}
					if ret, ok := n.(*ast.ReturnStmt); ok && len(ret.Results) == len(results) {
						for i, res := range ret.Results {
							if isIface(results[i]) && isImpl(res) {
								where = at(res)
							}
						}
					}
					return true
				})
				return false
			}
			return true
		})
		if where != "" {
			return where
		}
	}
	return ""
}

// kindVerdict judges a use of a member that changed kind: a field that
// became a method of its name (a getter) or a method that became a
// field.
func kindVerdict(r *ref, rel model.Relation) verdict {
	t := r.t
	of, _ := t.old.Data.(*fieldInfo)
	nf, _ := t.new.Data.(*fieldInfo)
	_, nm := t.new.Data.(*funcInfo)
	_, om := t.old.Data.(*funcInfo)
	if t.new.Kind == model.KindIfaceMethod || t.old.Kind == model.KindIfaceMethod {
		return verdict{skip: true} // the type became an interface, or back: its own change (MC) is judged
	}
	if r.prec == model.PrecisionName {
		// the receiver or the literal's type is not known: some other
		// type's member of that name, as often as not
		return verdict{rel: rel, v: model.MayBeImpacted,
			msg: fmt.Sprintf("uses %s on a value whose type could not be resolved; %s %s", t.name, t.new.Display, strings.Join(t.ch.Details, "; "))}
	}
	switch {
	case of != nil && nm: // field -> method
		switch r.kind {
		case rkKey:
			return verdict{rel: model.InstantiatedBy, v: model.Inconsistent, exactly: true,
				msg: fmt.Sprintf("sets field %s in a struct literal; %s is now a method", t.name, t.name)}
		case rkCall:
			return verdict{rel: rel, v: model.MayBeImpacted,
				msg: fmt.Sprintf("calls field %s (of type %s), now a method of that name", t.name, of.Type)}
		case rkValue:
			if r.stack != nil && isAssignTarget(r) {
				return verdict{rel: rel, v: model.Inconsistent, exactly: true,
					msg: fmt.Sprintf("assigns to field %s, now a method", t.name)}
			}
			return verdict{rel: rel, v: model.MayBeImpacted, keep: true,
				msg: fmt.Sprintf("reads field %s (of type %s), now a method: the expression is the method value", t.name, of.Type)}
		}
	case om && nf != nil: // method -> field
		switch r.kind {
		case rkCall:
			if !strings.HasPrefix(nf.Type, "func(") && !strings.Contains(nf.Type, ".") && !isUpper(nf.Type) {
				return verdict{rel: rel, v: model.Inconsistent, exactly: true,
					msg: fmt.Sprintf("calls %s, now a field of type %s", t.name, nf.Type)}
			}
			return verdict{rel: rel, v: model.MayBeImpacted,
				msg: fmt.Sprintf("calls %s, now a field of type %s", t.name, nf.Type)}
		case rkValue:
			return verdict{rel: rel, v: model.MayBeImpacted, keep: true,
				msg: fmt.Sprintf("uses method %s as a value; it is now a field of type %s", t.name, nf.Type)}
		}
	}
	return verdict{skip: true}
}

// isAssignTarget reports a reference written to: the left side of an
// assignment or an increment.
func isAssignTarget(r *ref) bool {
	var e ast.Node = r.id
	for i := len(r.stack) - 2; i >= 0; i-- {
		switch p := r.stack[i].(type) {
		case *ast.SelectorExpr:
			if p.Sel == r.id {
				e = p
				continue
			}
			return false
		case *ast.AssignStmt:
			for _, l := range p.Lhs {
				if l == e {
					return true
				}
			}
			return false
		case *ast.IncDecStmt:
			return p.X == e
		default:
			return false
		}
	}
	return false
}

// isUpper reports a type expression starting with an upper-case letter
// (a named type of the package, whose underlying type may be a func).
func isUpper(s string) bool {
	s = strings.TrimLeft(s, "*")
	return s != "" && s[0] >= 'A' && s[0] <= 'Z'
}

// widenedToAny reports a signature whose only change is parameters
// retyped to any (or interface{}), with the same results and type
// parameters: every argument of a call still binds. A slice spread into
// a variadic parameter retyped so is not (a []string is no []any).
func widenedToAny(of, nf *funcInfo, call *ast.CallExpr) bool {
	if len(of.Params) != len(nf.Params) || of.Variadic != nf.Variadic || of.TypeParams != nf.TypeParams || typesOf(of.Results) != typesOf(nf.Results) {
		return false
	}
	changed := false
	for i := range of.Params {
		o, n := of.Params[i].Type, nf.Params[i].Type
		if o == n {
			continue
		}
		if n != "any" && n != "interface{}" {
			return false
		}
		if nf.Variadic && i == len(nf.Params)-1 && call != nil && call.Ellipsis.IsValid() {
			return false
		}
		changed = true
	}
	return changed
}
