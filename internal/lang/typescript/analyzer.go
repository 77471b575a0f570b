package typescript

import (
	"context"
	"fmt"
	"path"
	"strings"
	"time"

	"github.com/ripple-dev/ripple/internal/corpus"
	"github.com/ripple-dev/ripple/internal/lang"
	"github.com/ripple-dev/ripple/internal/lang/treesit"
	"github.com/ripple-dev/ripple/internal/model"
)

// analyzer answers impact queries for one check.
type analyzer struct {
	ctx   context.Context
	fe    *Frontend
	env   *lang.Env
	c     *corpus.Corpus[*tsfile]
	files map[string]bool // every usable file of the head state
	proj  *project        // tsconfig paths and workspace packages, read on first use
	typed int             // projects tsc checked
	// reach and fwd memoize mayReach and forwards (reach.go)
	reach map[string]bool
	fwd   map[string][]string
	prep  *tscPrepared // the type-precise tier's preparation (tsc.go)
	// started is when the analyzer was made: auto's type tier counts the
	// check's own time from it (tscbudget.go)
	started time.Time
	// followed, modes and byNode serve derived changes (follow.go): the
	// declarations a change was followed to, how each derived change's
	// declaration passes it on, the function declarations by node
	followed map[followKey]bool
	modes    map[*model.Block]string
	byNode   declNodeIndex
	inherits map[*model.Change]bool // stillInherited, by change (keyof.go)
}

func newAnalyzer(ctx context.Context, fe *Frontend, env *lang.Env) (*analyzer, error) {
	a := &analyzer{ctx: ctx, fe: fe, env: env, files: map[string]bool{}, started: time.Now()}
	a.c = corpus.New(corpus.Config[*tsfile]{
		Tree: env.Head, Pathspecs: pathspecs, Diag: env.Diag,
		Usable: func(p string) bool { return !skippedPath(p) && (env.Ignored == nil || !env.Ignored(p)) },
		Parse: func(p string, src []byte) (*tsfile, bool, *model.Diagnostic) {
			if why := skippedContent(src); why != "" {
				return nil, false, nil
			}
			f, d := fe.cache.Get(p, src)
			return f, true, d
		},
	})
	t0 := time.Now()
	all, err := a.c.All(ctx)
	if err != nil {
		return nil, err
	}
	trace("analyzer: %d files listed in %v", len(all), time.Since(t0))
	for _, p := range all {
		a.files[p] = true
	}
	tscTier{a}.startTSC()
	return a, nil
}

func (a *analyzer) Stats() (int, int) { return a.c.Count(), a.typed }

// file returns the parsed head-state file at p, nil when it is not one.
func (a *analyzer) file(p string) *tsfile {
	if p == "" {
		return nil
	}
	if !a.files[p] {
		return a.virtualFile(p) // a bumped package's (npmvirtual.go)
	}
	if f, ok := a.c.Get(p); ok {
		return f
	}
	fs, _ := a.c.Parse(a.ctx, []string{p})
	if len(fs) == 0 {
		return nil
	}
	return fs[0]
}

// tkind is what a target's dependents are asked about.
type tkind int

const (
	tCall    tkind = iota // a changed signature: calls are bound anew
	tGone                 // a deleted or renamed declaration: every use
	tAdded                // a required interface member added: implementations
	tRetyped              // an interface member's type changed: its users
	tIMethod              // an interface method's signature changed: calls through the interface, implementations, literals
)

// target is a changed declaration whose dependents are searched.
type target struct {
	ch        *model.Change
	kind      tkind
	od, nd    *declData
	d         *declData // the state dependents know: the old one
	name      string    // the name dependents write
	container string    // the class, interface or enum of a member
	path      string    // the declaring file (head state)
	member    bool
	sub       bool // a subclass that inherits the changed constructor
	// alts are more names of an interface member's container in path:
	// the sub-interfaces and aliases one file declares, judged together
	// (one search and one walk for a hierarchy of them)
	alts []string
	// comp is a component of path whose props the member's container
	// types: its JSX elements are judged (jsx.go); compExact is false
	// when its props type has parts the analysis cannot read
	comp      string
	compExact bool
	// mode says how a derived change's declaration passes on the change
	// it follows (followForwards, followReturns)
	mode string
}

func (t *target) display() string {
	if t.kind == tGone && t.ch.Old != nil {
		return t.ch.Old.Display
	}
	return t.ch.Block().Display
}

func dataOf(b *model.Block) *declData {
	if b == nil {
		return nil
	}
	d, _ := b.Data.(*declData)
	return d
}

// The TypeScript front-end's finders (lang.Finder): which labels it
// searches for and along which relations. The core's table decides
// which of them run on a change (Query.Relations); their targets are
// searched together (one search, one parse of each file, one judge of
// each file per target, one tsc run).
var (
	// callFinder: the calls and instantiations of a function, method or
	// constructor whose signature changed.
	callFinder = lang.Finder{Name: "calls",
		Labels:    []model.Label{model.MMS, model.MCC},
		Relations: []model.Relation{model.CalledBy, model.InstantiatedBy, model.OverriddenBy}}
	// goneFinder: every use of a deleted or renamed declaration, imports
	// included.
	goneFinder = lang.Finder{Name: "deletions",
		Labels: []model.Label{model.DM, model.DC, model.DF},
		Relations: []model.Relation{model.CalledBy, model.OverriddenBy, model.UsedBy, model.InstantiatedBy,
			model.ReferencedBy, model.EmbeddedBy, model.ImportedBy}}
	// memberFinder: the implementers, literals and readers of an
	// interface member added, made required or retyped.
	memberFinder = lang.Finder{Name: "interface members",
		Labels:    []model.Label{model.AM, model.AF, model.MF},
		Relations: []model.Relation{model.InstantiatedBy, model.EmbeddedBy, model.UsedBy, model.OverriddenBy, model.CalledBy}}
	finders = []lang.Finder{callFinder, goneFinder, memberFinder}
)

// targets turns the changes of the queries the finders serve into the
// declarations whose dependents are searched.
func (a *analyzer) targets(qs []lang.Query) []*target {
	var ts []*target
	gone := map[string]bool{} // deleted classes, interfaces, enums: they cover their members
	for _, q := range qs {
		if c := q.Change; (c.Label == model.DC) && c.Old != nil && c.New == nil {
			gone[c.Old.Path+"\x00"+c.Old.Name] = true
		}
	}
	for _, q := range qs {
		c := q.Change
		od, nd := dataOf(c.Old), dataOf(c.New)
		b := c.Old
		if b == nil {
			b = c.New
		}
		if b == nil || (od == nil && nd == nil) {
			continue
		}
		if b.Container != "" && gone[b.Path+"\x00"+b.Container] {
			continue
		}
		t := &target{ch: c, od: od, nd: nd, d: od, name: b.Name, container: b.Container, path: b.Path, member: b.Container != ""}
		if c.New != nil {
			t.path = c.New.Path
		}
		t.path = a.fe.headPath(t.path) // a bumped package's: its new version (npmvirtual.go)
		if t.d == nil {
			t.d = nd
		}
		if c.Derived {
			t.mode = a.modes[c.New]
		}
		switch {
		case callFinder.Serves(q):
			if od == nil || nd == nil || od.fn == nil || nd.fn == nil {
				continue
			}
			if od.kind == dIMember {
				continue // interface members are fields to the core: MF below
			}
			t.kind = tCall
		case goneFinder.Serves(q):
			if od == nil {
				continue
			}
			if od.kind == dCtor {
				continue
			}
			t.kind = tGone
		case memberFinder.Serves(q) && c.Label != model.MF:
			if nd == nil || nd.kind != dIMember || nd.optional {
				continue
			}
			t.kind = tAdded
		case memberFinder.Serves(q):
			if od == nil || nd == nil || od.kind != dIMember {
				continue
			}
			t.kind = tRetyped
			if od.fn != nil && nd.fn != nil {
				t.kind = tIMethod // a method signature: calls are bound anew
			}
			if od.optional && !nd.optional {
				t.kind = tAdded // an optional member made required
			}
		default:
			continue
		}
		ts = append(ts, t)
	}
	return ts
}

// Answer finds the dependents of the queries' changes: the finders'
// targets, searched together; the refs of the relations asked are kept.
func (a *analyzer) Answer(ctx context.Context, qs []lang.Query) ([]*lang.Ref, error) {
	refs, err := a.impacted(ctx, a.targets(qs))
	if err != nil {
		return nil, err
	}
	return lang.Keep(qs, refs), nil
}

// impacted judges the targets (the first 500) in the files that hold
// their words, searched for together, adding the targets the judges
// find on the way (followUps), and then settles the unsure sites with
// tsc.
func (a *analyzer) impacted(ctx context.Context, ts []*target) ([]*lang.Ref, error) {
	var out []*lang.Ref
	var sites []*tscSite
	seenSub := map[string]bool{}
	seenComp := map[compKey]bool{}
	tstart := time.Now()
	var found [][]string // the files holding each target's words
	for i := 0; i < len(ts) && i < 500; i++ {
		t := ts[i]
		if i >= len(found) {
			// the targets not searched yet, together
			var sets [][]string
			for _, u := range ts[i:min(len(ts), 500)] {
				sets = append(sets, a.searchWords(u))
			}
			t0 := time.Now()
			res, err := a.searchEach(ctx, sets)
			if err != nil {
				return nil, err
			}
			trace("searched for %s in %v", model.Plural(len(sets), "target", "targets"), time.Since(t0))
			found = append(found, res...)
		}
		paths := found[i]
		t1 := time.Now()
		n0 := a.c.Count()
		if !t.member && !contains(paths, t.path) && a.files[t.path] {
			paths = append(paths, t.path)
		}
		files, err := a.c.Parse(ctx, paths)
		if err != nil {
			return nil, err
		}
		t2 := time.Now()
		n1 := a.c.Count()
		mayRemain := a.memberMayRemain(t)
		for _, f := range files {
			if declOnly(f.path) {
				continue
			}
			j := &judge{a: a, t: t, f: f, fx: &fixer{a: a, t: t, f: f}}
			j.run()
			if why := mayRemain; why != "" {
				mayRemainCaveat(j.out, why)
			}
			out = append(out, j.out...)
			for k, r := range j.out {
				sites = append(sites, &tscSite{ref: r, t: t, f: f, n: j.at[k]})
			}
			ts = append(ts, followUps(j, seenSub, seenComp)...)
		}
		trace("target %s: %d files, %d parsed in %v, judged in %v (%d more parsed)", t.name, len(paths), n1-n0, t2.Sub(t1), time.Since(t2), a.c.Count()-n1)
	}
	trace("impacted: %d targets, %d files parsed, %v", len(ts), a.c.Count(), time.Since(tstart))
	tscTier{a}.typecheck(ctx, sites)
	for _, r := range out {
		if r.Verdict == model.Consistent {
			r.Follow = nil // tsc found the call consistent: nothing follows from it
		}
	}
	return out, nil
}

// mayRemainCaveat tempers the verdicts of refs when the member may remain
// (why, memberMayRemain): consistent when it is there as before, else an
// inconsistency becomes a warning that says why.
func mayRemainCaveat(refs []*lang.Ref, why string) {
	for _, r := range refs {
		switch {
		case strings.HasSuffix(why, "as before") && r.Verdict != model.Consistent:
			r.Verdict, r.Message = model.Consistent, why
		case r.Verdict == model.Inconsistent:
			r.Verdict = model.MayBeImpacted
			r.Message += "; but " + why
		}
	}
}

// compKey is a component whose props a target's container types, in one
// file, for one change: each is judged as a target once.
type compKey struct {
	ch         *model.Change
	path, comp string
}

// followUps are the targets judge j found in its file beyond its own:
// the interfaces extending (or aliasing) the member's container, the
// components whose props it types, and the subclasses inheriting a
// changed constructor; seenSub and seenComp keep each from being made
// twice.
func followUps(j *judge, seenSub map[string]bool, seenComp map[compKey]bool) []*target {
	t, f := j.t, j.f
	var ts []*target
	// the interfaces extending (or aliasing) the member's
	// container: their users are the member's users too
	var fresh []string
	for _, sub := range j.subIfaces {
		k := f.path + "\x00" + sub + "\x00" + t.name
		if !seenSub[k] {
			seenSub[k] = true
			fresh = append(fresh, sub)
		}
	}
	if len(fresh) > 0 {
		st := *t
		st.container, st.alts, st.path, st.sub = fresh[0], fresh[1:], f.path, true
		ts = append(ts, &st)
	}
	for _, c := range j.comps {
		k := compKey{t.ch, f.path, c.name}
		if !seenComp[k] {
			seenComp[k] = true
			st := *t
			st.comp, st.compExact, st.path, st.alts = c.name, c.exact, f.path, nil
			ts = append(ts, &st)
		}
	}
	for _, sub := range j.subs {
		// a subclass inheriting a changed constructor: its
		// instantiations bind to it
		st := *t
		st.container, st.path, st.sub = sub, f.path, true
		ts = append(ts, &st)
	}
	return ts
}

// searchWords are the words a file using a target must hold.
func (a *analyzer) searchWords(t *target) []string {
	words := []string{t.name}
	if t.kind == tCall && t.d.kind == dCtor || t.kind == tAdded || t.kind == tRetyped || t.kind == tIMethod {
		words = append([]string{t.container}, t.alts...)
	} else if t.d.kind == dIMember {
		// files naming the interface may declare its sub-interfaces
		words = append(append(words, t.container), t.alts...)
	}
	if !t.member {
		words = append(words, a.modWords(t.path)...)
	}
	if t.member && t.d.kind == dIMember {
		// literals written for the container as the value of another
		// interface's property name that interface (nested.go)
		words = append(words, a.holders(t)...)
	}
	if t.comp != "" {
		words = []string{t.comp}
		if f := a.file(t.path); t.comp == "default" || f != nil && f.exports["default"] == t.comp {
			words = append(words, a.modWords(t.path)...)
		}
	}
	return words
}

// moduleWords are the words an importer of a module's default or
// namespace export writes: the file's base name, or its directory's
// for an index file.
func moduleWords(p string) []string {
	b := strings.TrimSuffix(path.Base(p), extOf(p))
	if b == "index" {
		b = path.Base(path.Dir(p))
	}
	var out []string
	for _, w := range strings.FieldsFunc(b, func(r rune) bool {
		return !(r == '_' || r == '$' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z')
	}) {
		out = append(out, w)
	}
	return out
}

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

// touched reports whether the diff changed any line of node n in the head
// state of file p.
func (a *analyzer) touched(p string, n *treesit.Node) bool {
	return n != nil && a.env.Touched(p, int(n.Line), int(n.EndLine))
}

// memberMayRemain says why a member deleted from an interface or object
// type may still be a member of its container: the container is now a
// type alias of another form (h3's `interface PreparedResponse {status?
// ...}` became `type PreparedResponse = ResponseInit & {body?}`, whose
// ResponseInit declares status), which the analysis does not read. ""
// when the container is gone or still one object type.
func (a *analyzer) memberMayRemain(t *target) string {
	if t.kind != tGone || t.sub || t.d == nil || t.d.kind != dIMember || t.container == "" {
		return ""
	}
	if o := t.d.owner(); o == nil || declName(o) != t.container {
		return "" // reached through another declaration (a sub-interface, an alias)
	}
	f := a.file(t.path)
	if f == nil {
		return ""
	}
	for _, d := range f.decls {
		if n, c := d.names(); c == "" && n == t.container && d.kind == dType {
			v := d.node.Child("value")
			if v == nil {
				continue
			}
			// a member the alias's own object part declares as before is
			// still there (h3's body)
			same := false
			treesit.Walk(v, func(x *treesit.Node) bool {
				if (x.Kind == "property_signature" || x.Kind == "method_signature") && declName(x) == t.name &&
					treesit.Compact(x) == treesit.Compact(t.d.node) {
					same = true
				}
				return !same
			})
			if same {
				return fmt.Sprintf("%s is now %s, which declares it as before", t.container, treesit.Compact(v))
			}
			return fmt.Sprintf("%s is now %s, which may declare it", t.container, treesit.Compact(v))
		}
	}
	// a base of the interface whose members the syntax cannot list (a
	// mapped type, an intersection, a package's interface) may declare it
	if of, n := a.ifaceNode(f, t.container); n != nil {
		for _, b := range extendedTypes(n) {
			if has, known := a.baseHas(of, b, t.name, 1); !has && !known {
				return fmt.Sprintf("%s now extends %s, which may declare it", t.container, treesit.Compact(b))
			}
		}
	}
	return ""
}
