package java

import (
	"context"
	"path"
	"strings"

	"github.com/ripple-dev/ripple/internal/lang"
	"github.com/ripple-dev/ripple/internal/lang/java/javac"
	"github.com/ripple-dev/ripple/internal/lang/treesit"
	"github.com/ripple-dev/ripple/internal/model"
)

// analyzer answers impact queries for one check, from syntax alone.
type analyzer struct {
	fe   *Frontend
	env  *lang.Env
	ix   *index
	b    binder
	subs map[*jtype][]*jtype // subtypes, by base
	// sites holds the syntax of each ref made, for the type tier
	// (javactier.go); javac runs it and typed counts its runs.
	sites  map[*lang.Ref]*jsite
	javac  *javac.Compiler
	judged *javac.Sites // javac's verdicts of this check so far
	typed  int
}

// binder decides what a use binds to among the index's declarations:
// the receiver of an unqualified call, the overloads a receiver sees,
// whether arguments fit, access (calls.go, args.go, hier.go, uses.go).
type binder struct{ *index }

func newAnalyzer(fe *Frontend, env *lang.Env, ix *index) *analyzer {
	return &analyzer{fe: fe, env: env, ix: ix, b: binder{ix}, subs: map[*jtype][]*jtype{}, sites: map[*lang.Ref]*jsite{}, javac: &javac.Compiler{},
		judged: &javac.Sites{Files: map[string]*javac.FileVerdict{}}}
}

func (a *analyzer) Stats() (int, int) { return a.ix.Count(), a.typed }

// target is a changed declaration whose dependents are searched.
type target struct {
	ch       *model.Change
	od, nd   *declData // base and head states (nil when absent)
	name     string    // the name dependents write: the old name of a renamed declaration
	cls      *jtype    // the head state of the member's type, or of the type itself
	oldOwner *jtype    // the base state of the member's type
}

// renamedTo is the new name of a renamed declaration, "" otherwise.
func (t *target) renamedTo() string {
	if t.ch.Renamed() {
		return t.ch.New.Name
	}
	return ""
}

// gone says what became of a deleted or renamed declaration.
func (t *target) gone() string {
	if r := t.renamedTo(); r != "" {
		return "which was renamed to " + r
	}
	return "which was deleted"
}

// details is the change's facets, for messages.
func (t *target) details() string { return strings.Join(t.ch.Details, "; ") }

// Answer answers each query along the relations it asks for.
func (a *analyzer) Answer(ctx context.Context, qs []lang.Query) ([]*lang.Ref, error) {
	var out []*lang.Ref
	for _, q := range qs {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		t := a.target(q.Change)
		if t == nil {
			continue
		}
		refs, err := a.answer(ctx, q, t)
		if err != nil {
			return nil, err
		}
		for _, r := range refs {
			if r != nil {
				out = append(out, r)
			}
		}
	}
	out = lang.Keep(qs, out)
	a.withFixes(out)
	a.typecheck(ctx, out)
	return out, nil
}

// target reads a change's Java declarations; nil for what has no
// dependents to search.
func (a *analyzer) target(c *model.Change) *target {
	t := &target{ch: c}
	if c.Old != nil {
		t.od, _ = c.Old.Data.(*declData)
	}
	if c.New != nil {
		t.nd, _ = c.New.Data.(*declData)
	}
	if t.od == nil && t.nd == nil {
		return nil
	}
	t.name = c.Known().Name
	var owner *jtype
	switch d := t.known(); {
	case d.meth != nil:
		owner = d.meth.owner
	case d.field != nil:
		owner = d.field.owner
	case d.typ != nil:
		owner = d.typ
	}
	if t.od != nil {
		t.oldOwner = t.od.ownerType()
	}
	if t.nd != nil {
		t.cls = a.headType(t.nd.ownerType())
	} else if owner != nil {
		t.cls = a.ix.typeByFQN(owner.fqn(), owner.file)
	}
	return t
}

// known is the declaration dependents know: the base state if any.
func (t *target) known() *declData {
	if t.od != nil {
		return t.od
	}
	return t.nd
}

func (d *declData) ownerType() *jtype {
	switch {
	case d.meth != nil:
		return d.meth.owner
	case d.field != nil:
		return d.field.owner
	}
	return d.typ
}

// headType is the index's copy of a head-state type (the classifier's
// parse and the index's are the same file when its content is).
func (a *analyzer) headType(t *jtype) *jtype {
	if t == nil {
		return nil
	}
	if f := a.ix.file(t.file.path); f != nil {
		if x := f.typeByQual(t.qual); x != nil {
			return x
		}
	}
	return t
}

// The Java front-end's finders (lang.Finder): which labels it searches
// for and along which relations. The core's table decides which of them
// run on a change (Query.Relations); all of them search the one index
// (one word search, one parse of each file).
var (
	// callFinder: the calls, overriders, overridden methods and static
	// importers of a method whose signature changed or that was deleted.
	callFinder = lang.Finder{Name: "calls",
		Labels:    []model.Label{model.MMS, model.DM},
		Relations: []model.Relation{model.CalledBy, model.OverriddenBy, model.Overrides, model.ImportedBy}}
	// ctorFinder: the new sites, super(...) and this(...) calls of a
	// constructor changed, deleted or added (an added one can take the
	// implicit default constructor's place).
	ctorFinder = lang.Finder{Name: "constructions",
		Labels:    []model.Label{model.MCC, model.DCC, model.ACC},
		Relations: []model.Relation{model.CalledBy, model.InstantiatedBy}}
	// implFinder: the implementers of an abstract method added.
	implFinder = lang.Finder{Name: "implementers",
		Labels:    []model.Label{model.AM},
		Relations: []model.Relation{model.EmbeddedBy}}
	// fieldFinder: the readers, writers and static importers of a field
	// retyped or deleted.
	fieldFinder = lang.Finder{Name: "field uses",
		Labels:    []model.Label{model.MF, model.DF},
		Relations: []model.Relation{model.UsedBy, model.ImportedBy}}
	// typeFinder: the new sites and subtypes of a type whose own
	// declaration changed (abstract, final, interface or class).
	typeFinder = lang.Finder{Name: "type changes",
		Labels:    []model.Label{model.MC},
		Relations: []model.Relation{model.InstantiatedBy, model.EmbeddedBy}}
	// goneFinder: the importers and every use by name of a deleted type.
	goneFinder = lang.Finder{Name: "deleted types",
		Labels:    []model.Label{model.DC},
		Relations: []model.Relation{model.ImportedBy, model.ReferencedBy, model.InstantiatedBy, model.EmbeddedBy}}
	finders = []lang.Finder{callFinder, ctorFinder, implFinder, fieldFinder, typeFinder, goneFinder}
)

// answer runs the finders that serve one query, each on the kind of
// declaration it searches for.
func (a *analyzer) answer(ctx context.Context, q lang.Query, t *target) ([]*lang.Ref, error) {
	d := t.known()
	switch {
	case d.meth != nil && d.meth.ctor:
		if ctorFinder.Serves(q) {
			return ctorJudge{a}.ctorSites(ctx, t)
		}
	case d.meth != nil:
		switch {
		case callFinder.Serves(q):
			return a.methodQuery(ctx, q, t)
		case implFinder.Serves(q) && t.nd != nil && t.nd.meth.abstract():
			return hierJudge{a}.implementers(ctx, t)
		}
	case d.field != nil:
		if fieldFinder.Serves(q) {
			return useJudge{a}.fieldQuery(ctx, q, t)
		}
	case d.typ != nil:
		switch {
		case goneFinder.Serves(q):
			return useJudge{a}.typeGone(ctx, t)
		case typeFinder.Serves(q):
			return useJudge{a}.typeChanged(ctx, q, t)
		}
	}
	return nil, nil
}

// methodQuery answers the relations of a method's changed signature or
// deletion.
func (a *analyzer) methodQuery(ctx context.Context, q lang.Query, t *target) ([]*lang.Ref, error) {
	var out []*lang.Ref
	if q.Wants(model.CalledBy) {
		refs, err := callJudge{a}.calls(ctx, t)
		if err != nil {
			return nil, err
		}
		out = append(out, refs...)
	}
	if q.Wants(model.OverriddenBy) {
		refs, err := hierJudge{a}.overriders(ctx, t)
		if err != nil {
			return nil, err
		}
		out = append(out, refs...)
	}
	if q.Wants(model.Overrides) && t.ch.Label == model.MMS {
		out = append(out, hierJudge{a}.overridden(t)...)
	}
	if q.Wants(model.ImportedBy) && t.ch.Label == model.DM {
		refs, err := callJudge{a}.staticImporters(ctx, t)
		if err != nil {
			return nil, err
		}
		out = append(out, refs...)
	}
	return out, nil
}

// ref makes a finding's ref at node n of file f.
func (a *analyzer) ref(t *target, f *jfile, n *treesit.Node, rel model.Relation, v model.Verdict, prec model.Precision, msg, missing string) *lang.Ref {
	if n == nil {
		return nil // a declaration the source does not write
	}
	site := model.Site{Path: f.path, Line: int(n.Line), Col: int(n.Col) + 1, Text: f.t.LineText(int(n.Line))}
	if m := enclosingMember(n); m != nil {
		site.Enclosing = memberDisplay(f, m)
		site.EnclosingSpan = model.Span{StartLine: int(m.Line), EndLine: int(m.EndLine)}
	}
	if prec == model.PrecisionName && v == model.Inconsistent {
		v = model.MayBeImpacted // never an error from a name alone
	}
	r := &lang.Ref{Change: t.ch, Relation: rel, Site: site, Verdict: v, Precision: prec, Message: msg, Missing: missing, Generated: generated(f.t.Src)}
	a.sites[r] = &jsite{ref: r, t: t, f: f, n: n}
	return r
}

// memberDisplay names the declaration node m as its block does.
func memberDisplay(f *jfile, m *treesit.Node) string {
	for _, t := range f.types {
		if t.node == m {
			return t.kind + " " + t.qual
		}
		for _, x := range t.methods {
			if x.node == m {
				if x.ctor {
					return "constructor " + methodDisplay(x)
				}
				return "method " + methodDisplay(x)
			}
		}
		for _, fd := range t.fields {
			if fd.node == m {
				return "field " + t.qual + "." + fd.name
			}
		}
	}
	return ""
}

// search returns the parsed files holding one of the words.
func (a *analyzer) search(ctx context.Context, words ...string) ([]*jfile, error) {
	return a.ix.Find(ctx, words)
}

// memberFiles returns the parsed files that may use member name of
// base: those that hold the name and either name base or one of its
// subtypes (a declaration typing a receiver, an extends clause) or are
// in base's package; sees reports the files that name base itself or
// share its package (where a receiver of unknown type is judged).
func (a *analyzer) memberFiles(ctx context.Context, base *jtype, name string) (files []*jfile, sees map[string]bool, err error) {
	subs, err := a.subtypes(ctx, base)
	if err != nil {
		return nil, nil, err
	}
	words := []string{base.name}
	for _, s := range subs {
		if s.name != "" {
			words = append(words, s.name)
		}
	}
	holding, err := a.ix.Search(ctx, []string{name})
	if err != nil {
		return nil, nil, err
	}
	naming, err := a.ix.Search(ctx, words)
	if err != nil {
		return nil, nil, err
	}
	named := map[string]bool{}
	for _, p := range naming {
		named[p] = true
	}
	own, err := a.ix.Search(ctx, []string{base.name})
	if err != nil {
		return nil, nil, err
	}
	sees = map[string]bool{}
	for _, p := range own {
		sees[p] = true
	}
	pkgDir := strings.ReplaceAll(base.file.pkg, ".", "/")
	var keep []string
	for _, p := range holding {
		dir := path.Dir(p)
		samePkg := dir == path.Dir(base.file.path) || pkgDir != "" && (dir == pkgDir || strings.HasSuffix(dir, "/"+pkgDir))
		if samePkg {
			sees[p] = true
		}
		if named[p] || samePkg {
			keep = append(keep, p)
		}
	}
	files, err = a.ix.Parse(ctx, keep)
	return files, sees, err
}

// The relations are judged by four kinds of judge, each a view of the
// analyzer: calls and method references (calls.go), constructors
// (ctors.go), the type hierarchy (hier.go), and uses of fields and types
// (uses.go, typechange.go).
type (
	callJudge struct{ *analyzer }
	ctorJudge struct{ *analyzer }
	hierJudge struct{ *analyzer }
	useJudge  struct{ *analyzer }
)
