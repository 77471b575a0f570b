package golang

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"regexp"
	"sort"
	"strings"

	"github.com/ripple-dev/ripple/internal/lang"
	"github.com/ripple-dev/ripple/internal/model"
)

// What the checker says about interfaces: its "does not implement"
// errors, parsed (implErrors), judge the methods implementing a changed
// interface method (implVerdict) and report, where the fix belongs, the
// types no longer implementing an interface they are used as
// (extraFindings); an interface method an implementation's new signature
// no longer fits may follow it (followIface).

var (
	// a package is printed by its path, quoted, where two packages of
	// one name meet: *"example.com/a/plugin".Provider
	notImplRE = regexp.MustCompile(`(\*?(?:"[^"]+"\.)?[\w.\[\], ]+) does not implement ((?:"[^"]+"\.)?[\w.\[\], ]+) \((missing method|wrong type for method|method) (\w+)(?: has pointer receiver)?\)`)
)

// implErrors are the checker's "does not implement" errors, parsed.
type implError struct {
	unit              *unitResult
	err               types.Error
	typ, iface, which string
	typQ, ifaceQ      string // package qualifiers as printed ("" = the error's own package)
}

func (tv *typeVerdicts) implErrors() []implError {
	var out []implError
	for _, u := range tv.units {
		for _, e := range u.errs {
			m := notImplRE.FindStringSubmatch(e.Msg)
			if m == nil {
				continue
			}
			out = append(out, implError{unit: u, err: e, typ: lastName(m[1]), iface: lastName(m[2]), which: m[4],
				typQ: qualOf(m[1]), ifaceQ: qualOf(m[2])})
		}
	}
	return out
}

// qualOf returns the package qualifier of a type as the checker prints
// it ("*oci.Client" -> "oci").
func qualOf(s string) string {
	s = strings.TrimPrefix(strings.TrimSpace(s), "*")
	if i := strings.IndexByte(s, '['); i >= 0 {
		s = s[:i]
	}
	if i := strings.LastIndexByte(s, '.'); i >= 0 {
		return s[:i]
	}
	return ""
}

// errFileOf is the parsed file of a checker error, nil when not parsed.
func errFileOf(a *analyzer, ie implError) *pfile {
	return a.ix.parsedFile(a.ix.fset.PositionFor(ie.err.Pos, false).Filename)
}

// pkgOfQual is the package path of a qualifier as the checker prints it
// (a name, a quoted path, or "" for the error's own package), "" when
// it names no one package the check indexed.
func (sr *implSearch) pkgOfQual(q string, from *pfile) string {
	if ks := sr.syms.candidates(q, from); len(ks) == 1 {
		return ks[0]
	}
	return ""
}

// apart qualifies two names that are one identifier of two packages
// ("Backend no longer implements Backend") with the trailing elements
// of their packages' paths that tell them apart: local.Backend,
// backend.Backend. Other names are returned as they are.
func apart(name1, pkg1, name2, pkg2 string) (string, string) {
	if name1 != name2 || pkg1 == pkg2 || pkg1 == "" || pkg2 == "" {
		return name1, name2
	}
	e1, e2 := strings.Split(pkg1, "/"), strings.Split(pkg2, "/")
	for k := 1; ; k++ {
		s1, s2 := strings.Join(e1[max(len(e1)-k, 0):], "/"), strings.Join(e2[max(len(e2)-k, 0):], "/")
		if s1 != s2 || k >= max(len(e1), len(e2)) {
			return s1 + "." + name1, s2 + "." + name2
		}
	}
}

func lastName(s string) string {
	s = strings.TrimPrefix(strings.TrimSpace(s), "*")
	if i := strings.IndexByte(s, '['); i >= 0 {
		s = s[:i]
	}
	if i := strings.LastIndexByte(s, '.'); i >= 0 {
		s = s[i+1:]
	}
	return s
}

// implVerdict: a method implementing a changed interface method is
// inconsistent when the checker says its type no longer implements the
// interface somewhere it is used as one.
//
// The checker reports only the first method a type lacks, so any "does
// not implement" error for the type and the interface proves it is used
// as one; a stale method of such a type is then broken.
func (tv *typeVerdicts) implVerdict(r *ref, syn verdict) (verdict, bool) {
	// a removed method breaks no implementation: what implemented it
	// stays a warning (the type may miss another method, which is that
	// change's finding)
	if syn.skip || syn.v != model.MayBeImpacted || r.t.ch.Label == model.DM {
		return verdict{}, false
	}
	impl := tref{r.f.pkgKey, r.implRcv}
	for _, ie := range tv.implErrors() {
		if ie.iface != r.t.container {
			continue
		}
		used := ie.typ == r.implRcv
		via := ""
		if !used { // a type that embeds the implementation, its method promoted
			errFile := tv.a.ix.parsedFile(tv.a.ix.fset.PositionFor(ie.err.Pos, false).Filename)
			for _, k := range tv.a.syms.candidates(ie.typQ, errFile) {
				if tv.a.syms.embeds(&tref{k, ie.typ}, impl, 0) {
					used = true
					via = ie.typ + ", which embeds " + r.implRcv + ","
				}
			}
		}
		if used {
			pos := tv.a.ix.fset.PositionFor(ie.err.Pos, false)
			if via == "" {
				via = r.implRcv
			}
			return verdict{rel: model.OverriddenBy, v: model.Inconsistent,
				msg: fmt.Sprintf("%s (%s is used as %s at %s:%d)", syn.msg, via, r.t.container, pos.Filename, pos.Line)}, true
		}
	}
	return verdict{}, false
}

// extraFindings reports what only the checker sees: types that no
// longer implement an interface they are used as. The site is where the
// fix belongs, never the seed itself: the implementing method (or the
// type, when the method is missing) for a changed interface, and the
// interface's method for a changed implementation (CodePlan: the
// compiler blames the override; following the relation does not revert
// the seed). The places the type is used as the interface go into the
// message.
func (tv *typeVerdicts) extraFindings(a *analyzer, ts []*target, seen map[string]bool) []*lang.Ref {
	var out []*lang.Ref
	for _, g := range tv.implGroups(a) {
		ie := g.ie
		for _, t := range ts {
			rel, site, stale, ok := implBlame(a, t, ts, ie)
			if !ok {
				continue
			}
			pos := ie.err.Pos
			if site != nil {
				pos = site.Pos()
			}
			f := a.ix.parsedFile(a.ix.fset.PositionFor(pos, false).Filename)
			if f == nil {
				continue
			}
			r := &ref{t: t, f: f, prec: model.PrecisionTypes, stack: stackAt(f.ast, pos)}
			if site != nil {
				r.id = site
			}
			msg := cleanMsg(ie.err.Msg)
			if site != nil {
				msg = g.message(a, t, ts, stale)
			}
			fd := a.ix.finding(r, verdict{rel: rel, v: model.Inconsistent, msg: msg}, model.PrecisionTypes)
			if rel == model.Overrides && site != nil {
				fd.Follow = followIface(t, f, ie.iface, ie.which)
			}
			if r.id == nil {
				line, col, text := a.ix.lineText(f, pos)
				fd.Site.Line, fd.Site.Col, fd.Site.Text = line, col, text
			}
			key := fmt.Sprintf("%s:%d:%s/%s:%s", fd.Site.Path, fd.Site.Line, fd.Change.Label, fd.Relation, fd.Change.Block().Display)
			if seen[key] || seen[siteKey(fd)] {
				continue // the site is reported already (a promoted method)
			}
			seen[key] = true
			out = append(out, fd)
		}
	}
	return out
}

// implGroup is the "does not implement" errors of one type, interface
// and method: one finding each, whose message names where the type is
// used as the interface.
type implGroup struct {
	ie   implError
	pkg  string // the type's package key, when one indexed package declares it
	uses []token.Position
}

// implGroups groups the checker's "does not implement" errors by type,
// interface and method, in the order first seen.
func (tv *typeVerdicts) implGroups(a *analyzer) []*implGroup {
	groups := map[string]*implGroup{}
	var order []*implGroup
	for _, ie := range tv.implErrors() {
		// one group per type: same-named types of two packages (plugin
		// and plugin6's GRPCProvider) are two groups
		errFile := a.ix.parsedFile(a.ix.fset.PositionFor(ie.err.Pos, false).Filename)
		pkg := ie.typQ
		if ks := a.syms.candidates(ie.typQ, errFile); len(ks) == 1 {
			pkg = ks[0]
		}
		k := pkg + "|" + ie.typ + "|" + ie.iface + "|" + ie.which
		g := groups[k]
		if g == nil {
			g = &implGroup{ie: ie, pkg: pkg}
			groups[k] = g
			order = append(order, g)
		}
		g.uses = append(g.uses, a.ix.fset.PositionFor(ie.err.Pos, false))
	}
	return order
}

// implBlame says where the fix of an implementation error belongs for
// target t, and through which relation: for a changed interface method
// (or an interface that gained one), the type's implementing method, the
// stale method that implemented what was renamed or removed, a promoted
// method, or else the type; for a changed method of the type, the
// interface's method. It reports false when the error is not t's.
func implBlame(a *analyzer, t *target, ts []*target, ie implError) (rel model.Relation, site *ast.Ident, stale string, ok bool) {
	switch {
	case (t.kind == model.KindIfaceMethod && t.container == ie.iface && (t.name == ie.which || t.ch.Renamed() && t.ch.New.Name == ie.which)) ||
		(t.kind == model.KindInterface && t.name == ie.iface && t.ch.Label == model.AM):
		rel = model.OverriddenBy
		errPkg := a.ix.parsedFile(a.ix.fset.PositionFor(ie.err.Pos, false).Filename)
		site = a.syms.findMember(ie.typ, ie.typQ, errPkg, ie.which, false)
		if site == nil {
			// the fix belongs at the method that implemented what the
			// change renamed or removed, when the type has one
			site, stale = a.impls.staleImpl(t, ts, ie, errPkg)
		}
		if site == nil && strings.Contains(ie.err.Msg, "(wrong type for method ") {
			// the type has the method, stale, promoted from a type it
			// embeds: the fix belongs at that method, one finding for
			// every type that embeds it (testify 3ebf1ddaeb:
			// Suite.SetT, not each suite embedding Suite). A pointer
			// receiver the value lacks stays the type's own.
			site = a.syms.findPromoted(ie.typ, ie.typQ, errPkg, ie.which)
		}
		if site == nil {
			site = a.syms.findType(ie.typ, ie.typQ, errPkg)
		}
	case t.kind == model.KindMethod && t.container == ie.typ && t.name == ie.which && !t.ch.Derived:
		// a derived implementation change is caused by the interface:
		// never blame the interface (the developer's seed)
		rel = model.Overrides
		errPkg := a.ix.parsedFile(a.ix.fset.PositionFor(ie.err.Pos, false).Filename)
		site = a.syms.findMember(ie.iface, ie.ifaceQ, errPkg, ie.which, true)
	default:
		return "", nil, "", false
	}
	return rel, site, stale, true
}

// message says that the group's type no longer implements the interface
// where it is used (the first place, and how many more), what it lacks,
// the stale method, and what else the interface gained that the type
// lacks.
func (g *implGroup) message(a *analyzer, t *target, ts []*target, stale string) string {
	ie := g.ie
	u := g.uses[0]
	typ, iface := apart(ie.typ, a.impls.pkgOfQual(ie.typQ, errFileOf(a, ie)), ie.iface, a.impls.pkgOfQual(ie.ifaceQ, errFileOf(a, ie)))
	msg := fmt.Sprintf("%s no longer implements %s, as it must where it is used at %s:%d", typ, iface, u.Filename, u.Line)
	if len(g.uses) > 1 {
		msg += " (and " + model.Plural(len(g.uses)-1, "more place", "more places") + ")"
	}
	msg += ": " + strings.TrimPrefix(cleanMsg(ie.err.Msg[strings.Index(ie.err.Msg, "does not implement"):]), "does not implement ")
	if stale != "" {
		msg += "; " + stale
	}
	if lacks := a.impls.alsoLacks(t, ts, ie, g.pkg); len(lacks) > 0 {
		// the checker names the first missing method only: say
		// what else the interface gained that the type lacks, so
		// that one push fixes them all
		msg += "; it also lacks the added " + strings.Join(shortList(lacks, 6), ", ")
	}
	return msg
}

// alsoLacks lists the other methods the change added to the interface of
// a "missing method" error that the type (of package pkg) does not have,
// its own or promoted, as the syntax sees it; none when the type is not
// indexed.
func (sr *implSearch) alsoLacks(t *target, ts []*target, ie implError, pkg string) []string {
	if t.ch.Label != model.AM {
		return nil
	}
	typ := &tref{pkg, ie.typ}
	if sr.syms.lookupType(typ) == nil {
		// the checker qualifies by package name: the indexed package of
		// that name declaring the type
		typ = nil
		errFile := sr.ix.parsedFile(sr.ix.fset.PositionFor(ie.err.Pos, false).Filename)
		for _, k := range sr.syms.candidates(ie.typQ, errFile) {
			if r := (&tref{k, ie.typ}); sr.syms.lookupType(r) != nil {
				if typ != nil {
					return nil // two of them: unknown which
				}
				typ = r
			}
		}
		if typ == nil {
			return nil
		}
	}
	added := map[string]bool{}
	for _, d := range ts {
		if d.kind == model.KindIfaceMethod && d.ch.Label == model.AM && d.container == ie.iface {
			added[d.name] = true
		}
	}
	if t.kind == model.KindInterface && t.name == ie.iface {
		// the interface's own change: the methods its new declaration has
		// and its old one had not
		had := map[string]bool{}
		for _, m := range methodNames(ifaceTypeOf(t.old, t.name)) {
			had[m] = true
		}
		for _, m := range methodNames(ifaceTypeOf(t.new, t.name)) {
			added[m] = added[m] || !had[m]
		}
	}
	var out []string
	for m, ok := range added {
		if ok && m != ie.which && !sr.syms.hasMember(typ, m, 0) {
			out = append(out, m)
		}
	}
	sort.Strings(out)
	return out
}

// methodNames are the names of an interface type's own methods.
func methodNames(it *ast.InterfaceType) []string {
	if it == nil {
		return nil
	}
	var out []string
	for _, m := range it.Methods.List {
		for _, n := range m.Names {
			out = append(out, n.Name)
		}
	}
	return out
}

// shortList keeps the first n names and counts the rest.
func shortList(names []string, n int) []string {
	if len(names) <= n {
		return names
	}
	return append(names[:n:n], fmt.Sprintf("and %d more", len(names)-n))
}

// staleImpl finds the method of the type of a "does not implement"
// error that implemented an interface method the change renamed (t
// itself) or removed (another change of ts on the same interface, as
// when one method replaces another): the method to rename or replace,
// and a note saying which it is.
func (sr *implSearch) staleImpl(t *target, ts []*target, ie implError, errPkg *pfile) (*ast.Ident, string) {
	if t.kind == model.KindIfaceMethod && t.ch.Renamed() {
		if id := sr.syms.findMember(ie.typ, ie.typQ, errPkg, t.name, false); id != nil {
			return id, fmt.Sprintf("its %s implemented %s.%s, renamed to %s", t.name, ie.iface, t.name, t.ch.New.Name)
		}
		return nil, ""
	}
	for _, d := range ts {
		if d.kind != model.KindIfaceMethod || d.container != ie.iface || d.ch.Label != model.DM || d.ch.Renamed() || d.pkgKey != t.pkgKey {
			continue
		}
		if id := sr.syms.findMember(ie.typ, ie.typQ, errPkg, d.name, false); id != nil {
			return id, fmt.Sprintf("its %s implemented %s.%s, which the change removed", d.name, ie.iface, d.name)
		}
	}
	return nil, ""
}

// followIface is the derived change of an interface method that an
// implementation's new signature no longer fits: the interface may take
// that signature (or the implementation be changed back; the change is
// tentative), and then its other implementations and the calls through
// it are walked.
func followIface(t *target, f *pfile, iface, method string) *lang.Follow {
	nf, _ := t.new.Data.(*funcInfo)
	of, _ := t.old.Data.(*funcInfo)
	if nf == nil || of == nil || t.ch.Label != model.MMS || looseSig(of) == looseSig(nf) {
		return nil // a receiver change is the implementation's alone
	}
	decls, _ := New().Decls(f.path, f.src)
	for _, d := range decls {
		if d.Kind != model.KindIfaceMethod || d.Container != iface || d.Name != method {
			continue
		}
		to := *d
		fi := &funcInfo{Recv: iface, File: nf.File, Fset: nf.Fset, Params: nf.Params, Results: nf.Results, Variadic: nf.Variadic, TypeParams: nf.TypeParams}
		to.Block = d.Block.WithData(fi)
		return &lang.Follow{Decl: &to, From: d, Label: model.MMS, May: true,
			Details: []string{"may have to follow " + t.ch.Block().Display + ": " + strings.Join(t.ch.Details, "; ")}}
	}
	return nil
}
