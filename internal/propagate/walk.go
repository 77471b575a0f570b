package propagate

import (
	"context"
	"fmt"
	"runtime/debug"
	"slices"
	"testing"
	"time"

	"github.com/ripple-dev/ripple/internal/lang"
	"github.com/ripple-dev/ripple/internal/model"
)

// Input is one walk.
type Input struct {
	Changes []*model.Change
	// Frontends answer for the changes of their language (ByName of the
	// change's block's Lang).
	Frontends lang.Set
	Env       *lang.Env
	// Level is the severity policy: the level a settled finding is
	// reported with (config.FindingLevel); LevelNone for a verdict other
	// than Consistent drops the finding. Nil: the verdict's default.
	Level func(*model.Finding) model.Level
	// Generated reports paths the configuration marks as generated (the
	// front-ends detect generated headers themselves).
	Generated func(path string) bool
	// MaxDepth bounds the walk over derived changes (0: direct dependents
	// only).
	MaxDepth int
	// MaxDerived bounds the number of derived changes (0: no bound); the
	// ones not made are counted in Output.Cut.
	MaxDerived int
	// AggregateAbove is how many sites of one reason are reported one by
	// one; more become one finding listing the others (0: 8).
	AggregateAbove int
	// Deadline, when set, ends the walk of derived changes: the seed's
	// own dependents are always answered (what the syntax proves broken
	// there is what blocks a push), and the derived changes are asked
	// about, errors' rung first, only while it has not passed; a round
	// it interrupts is dropped. What was not walked is counted in
	// Output.Unwalked.
	Deadline time.Time
	// SkipFrontier leaves out the farther frontier: derived changes
	// whose every dependent is at most a note (Change.Frontier, or two
	// uncertain steps away) are counted in Output.Skipped, not walked. A
	// report that shows no notes (the hook's) need not pay for them.
	SkipFrontier bool
}

// Output is the walk's result.
type Output struct {
	Findings []*model.Finding
	Derived  []*model.Change
	Parsed   int
	Typed    int
	// Cut counts the derived changes not walked because of MaxDerived.
	Cut int
	// Unwalked counts the derived changes the deadline left unasked, by
	// the rung their dependents would have had at best (model.Verdict).
	Unwalked map[model.Verdict]int
	// Skipped counts the frontier changes not walked (SkipFrontier).
	Skipped int
	// Cold is set when an analyzer's type-precise tier ran out of time
	// building what a warm-up prepares (lang.Cold).
	Cold bool
}

// Relations is the may-impact policy of the walk: the relations asked
// for a change, from model.Impacts. A body change reaches its callers only
// when it escapes (Change.Escapes).
func Relations(c *model.Change) []model.Relation {
	if c.Label == model.MMB && len(c.Escapes) == 0 {
		return nil
	}
	return model.Impacts[c.Label]
}

// MembersOfAdded are the changes to members (fields, methods,
// constructors) of a type the same changes add: no code that compiled
// before can name a type that did not exist, so they have no dependents
// to walk (the diff's own uses of them are its new code, judged apart,
// lang.NewCodeJudge). On terraform's last 50 commits a new struct's
// fields were searched for instantiations under its name, a common
// word, in 106 files.
func MembersOfAdded(cs []*model.Change) map[*model.Change]bool {
	type key struct{ lang, pkg, unit, name string }
	added := map[key]bool{}
	for _, c := range cs {
		if c.Label == model.AC && c.New != nil {
			added[key{c.New.Lang, c.New.Package, c.New.Unit, c.New.Name}] = true
		}
	}
	if len(added) == 0 {
		return nil
	}
	out := map[*model.Change]bool{}
	for _, c := range cs {
		switch c.Label {
		case model.AF, model.AM, model.ACC:
			if b := c.New; b != nil && b.Container != "" && added[key{b.Lang, b.Package, b.Unit, b.Container}] {
				out[c] = true
			}
		}
	}
	return out
}

// Rung is the highest verdict a change's dependents can have once Cap
// applies: Inconsistent for the diff's own changes and what must follow
// them, MayBeImpacted one uncertain step away, MayFollow on the farther
// frontier.
func Rung(c *model.Change) model.Verdict {
	switch {
	case c.Frontier || c.Tentative >= 2:
		return model.MayFollow
	case c.Tentative == 1:
		return model.MayBeImpacted
	}
	return model.Inconsistent
}

// Walk asks each front-end's analyzer for the dependents of the changes,
// walks the derived changes the answers imply (up to MaxDepth hops), and
// settles the findings. Derived changes are asked about by rung, highest
// first (breadth first within a rung), so that a deadline loses notes
// before warnings and warnings before errors.
func Walk(ctx context.Context, in Input) (*Output, error) {
	out := &Output{Unwalked: map[model.Verdict]int{}}
	w := &walk{in: in, analyzers: map[lang.Frontend]lang.Analyzer{}, fe: map[*model.Change]lang.Frontend{}, seen: map[string]bool{}, out: out}
	// the seed's own dependents: always, whatever the deadline
	seeds := &queue{}
	members := MembersOfAdded(in.Changes)
	for _, c := range in.Changes {
		if members[c] {
			continue
		}
		if fe := in.Frontends.ByName(c.Block().Lang); fe != nil {
			w.fe[c] = fe
			seeds.add(c, 0)
		}
	}
	derived := &queue{}
	if err := w.walkSeeds(ctx, seeds, derived); err != nil {
		return nil, err
	}
	if err := w.walkDerived(ctx, derived); err != nil {
		return nil, err
	}
	for _, an := range w.analyzers {
		if s, ok := an.(lang.Stats); ok {
			p, t := s.Stats()
			out.Parsed += p
			out.Typed += t
		}
		if c, ok := an.(lang.Cold); ok && c.Cold() {
			out.Cold = true
		}
	}
	out.Findings = settle(w.all, in, func(f *model.Finding) bool {
		d, ok := w.fe[f.Change].(lang.Declarer)
		return ok && d.IsTest(f.Site.Path)
	})
	return out, nil
}

// keep records the findings of refs and queues on q the derived changes
// the ones to follow imply, one hop deeper than depth: none past
// MaxDepth, none on the farther frontier when it is skipped (counted),
// none past MaxDerived (counted as cut).
func (w *walk) keep(refs []*lang.Ref, q *queue, depth int) {
	in, out := w.in, w.out
	for _, r := range refs {
		r.Verdict = Cap(r.Change, r.Verdict)
		w.all = append(w.all, found{finding(r), r.Generated, r.Gather})
		if r.Follow == nil || depth >= in.MaxDepth {
			continue
		}
		if d := w.derive(r); d != nil {
			if in.SkipFrontier && Rung(d) == model.MayFollow {
				out.Skipped++
				continue
			}
			if in.MaxDerived > 0 && len(out.Derived) >= in.MaxDerived {
				out.Cut++
				continue
			}
			q.add(d, depth+1)
			out.Derived = append(out.Derived, d)
		}
	}
}

// walkSeeds asks for the dependents of the seed changes, batch by batch,
// and judges the diff's own new code against what it uses (once per
// front-end), leaving out the sites already proven broken. The derived
// changes go on derived.
func (w *walk) walkSeeds(ctx context.Context, seeds, derived *queue) error {
	type line struct {
		path string
		n    int
	}
	broken := map[line]bool{} // sites already proven broken
	for _, b := range seeds.batches(w) {
		refs, err := w.ask(ctx, b.fe, b.changes)
		if err != nil {
			return err
		}
		for _, r := range refs {
			if r.Verdict == model.Inconsistent {
				broken[line{r.Site.Path, r.Site.Line}] = true
			}
		}
		w.keep(refs, derived, 0)
		// the diff's own new code, against what it uses (once per front-end)
		refs, err = w.judgeNewCode(ctx, b.fe, b.changes)
		if err != nil {
			return err
		}
		var fresh []*lang.Ref
		for _, r := range refs {
			if !broken[line{r.Site.Path, r.Site.Line}] {
				fresh = append(fresh, r)
			}
		}
		w.keep(fresh, derived, 0)
	}
	return nil
}

// walkDerived asks for the dependents of the derived changes, rung by
// rung, within the deadline: the batches it does not reach in time are
// counted as unwalked, by rung.
func (w *walk) walkDerived(ctx context.Context, derived *queue) error {
	in, out := w.in, w.out
	dctx, cancel := ctx, context.CancelFunc(func() {})
	if !in.Deadline.IsZero() {
		dctx, cancel = context.WithDeadline(ctx, in.Deadline)
	}
	defer cancel()
	for {
		b, ok := derived.next(w)
		if !ok {
			break
		}
		if dctx.Err() != nil {
			out.Unwalked[Rung(b.changes[0])] += len(b.changes)
			continue
		}
		refs, err := w.ask(dctx, b.fe, b.changes)
		if err != nil {
			if ctx.Err() == nil && dctx.Err() != nil {
				out.Unwalked[Rung(b.changes[0])] += len(b.changes)
				continue // the deadline interrupted the round
			}
			return err
		}
		w.keep(refs, derived, b.depth)
	}
	return nil
}

// queue holds the changes still to ask about, by rung and depth.
type queue struct {
	items []queued
}

type queued struct {
	c     *model.Change
	depth int
}

// batch is one round: changes of one front-end, one rung and one depth,
// asked together.
type batch struct {
	fe      lang.Frontend
	changes []*model.Change
	depth   int
}

func (q *queue) add(c *model.Change, depth int) { q.items = append(q.items, queued{c, depth}) }

// batches takes every change of the queue, grouped by front-end in the
// order the front-ends were first met.
func (q *queue) batches(w *walk) []batch {
	var out []batch
	at := map[lang.Frontend]int{}
	for _, it := range q.items {
		fe := w.fe[it.c]
		i, ok := at[fe]
		if !ok {
			i = len(out)
			at[fe] = i
			out = append(out, batch{fe: fe, depth: it.depth})
			if !slices.Contains(w.order, fe) {
				w.order = append(w.order, fe)
			}
		}
		out[i].changes = append(out[i].changes, it.c)
	}
	q.items = nil
	return out
}

// next takes the next round: the changes of the highest rung, and of
// them the shallowest, of the first front-end that has any.
func (q *queue) next(w *walk) (batch, bool) {
	if len(q.items) == 0 {
		return batch{}, false
	}
	best := q.items[0]
	for _, it := range q.items[1:] {
		if r, br := Rung(it.c), Rung(best.c); r > br || r == br && it.depth < best.depth {
			best = it
		}
	}
	rung, depth := Rung(best.c), best.depth
	in := func(it queued, fe lang.Frontend) bool {
		return w.fe[it.c] == fe && Rung(it.c) == rung && it.depth == depth
	}
	fe := w.fe[best.c]
	for _, f := range w.order { // the first front-end with changes of that rung and depth
		if slices.ContainsFunc(q.items, func(it queued) bool { return in(it, f) }) {
			fe = f
			break
		}
	}
	b := batch{fe: fe, depth: depth}
	kept := q.items[:0]
	for _, it := range q.items {
		if in(it, fe) {
			b.changes = append(b.changes, it.c)
		} else {
			kept = append(kept, it)
		}
	}
	q.items = kept
	return b, true
}

type walk struct {
	in        Input
	analyzers map[lang.Frontend]lang.Analyzer
	order     []lang.Frontend
	fe        map[*model.Change]lang.Frontend
	seen      map[string]bool // derived changes made, by block
	out       *Output         // what the walk found so far
	all       []found         // the findings kept, in the order found
}

// ask runs one front-end's analyzer on a batch of changes.
func (w *walk) ask(ctx context.Context, fe lang.Frontend, cs []*model.Change) ([]*lang.Ref, error) {
	var qs []lang.Query
	for _, c := range cs {
		if rels := Relations(c); len(rels) > 0 {
			qs = append(qs, lang.Query{Change: c, Relations: rels})
		}
	}
	if len(qs) == 0 {
		return nil, nil
	}
	an, err := w.analyzer(ctx, fe)
	if err != nil {
		return nil, err
	}
	refs, err := answer(ctx, an, qs)
	if err != nil {
		return nil, fmt.Errorf("%s analysis: %w", fe.Name(), err)
	}
	return refs, nil
}

// analyzer returns the front-end's analyzer of this walk, made once.
func (w *walk) analyzer(ctx context.Context, fe lang.Frontend) (lang.Analyzer, error) {
	if an := w.analyzers[fe]; an != nil {
		return an, nil
	}
	an, err := fe.NewAnalyzer(ctx, w.in.Env)
	if err != nil {
		return nil, fmt.Errorf("%s analysis: %w", fe.Name(), err)
	}
	w.analyzers[fe] = an
	return an, nil
}

// judgeNewCode asks a front-end that judges the diff's own new code
// (lang.NewCodeJudge) about the changes of the diff it owns. A change
// whose head block the diff did not touch has no new code, and a
// front-end with none is not even started.
func (w *walk) judgeNewCode(ctx context.Context, fe lang.Frontend, cs []*model.Change) (refs []*lang.Ref, err error) {
	var mine []*model.Change
	for _, c := range cs {
		if b := c.New; b != nil && !c.Derived && w.in.Env.Touched(b.Path, b.Span.StartLine, b.Span.EndLine) {
			mine = append(mine, c)
		}
	}
	if len(mine) == 0 {
		return nil, nil
	}
	an, err := w.analyzer(ctx, fe)
	if err != nil {
		return nil, err
	}
	nc, ok := an.(lang.NewCodeJudge)
	if !ok {
		return nil, nil
	}
	defer func() {
		if r := recover(); r != nil {
			if testing.Testing() {
				panic(r)
			}
			err = fmt.Errorf("%s analysis of the new code: internal error (please report it with the output of 'hook version'): %v\n%s", fe.Name(), r, debug.Stack())
		}
	}()
	refs, err = nc.JudgeNewCode(ctx, mine)
	if err != nil {
		return nil, fmt.Errorf("%s analysis of the new code: %w", fe.Name(), err)
	}
	return refs, nil
}

// Cap is the verdict of a site reached through a tentative change: the
// analyzer judges a site as if its change were certain; a change that
// only may have to be made (derived from a may-be-impacted site) makes
// what it breaks may-be-impacted, and a change two or more uncertain
// steps away from the diff reaches only the frontier (MayFollow).
func Cap(c *model.Change, v model.Verdict) model.Verdict {
	switch {
	case v == model.Consistent:
		return v
	case c.Frontier:
		return model.MayFollow
	case c.Tentative == 0:
		return v
	case c.Tentative == 1 && v == model.Inconsistent:
		return model.MayBeImpacted
	case c.Tentative == 1:
		return v
	}
	return model.MayFollow
}

// derive makes the change a ref's Follow implies, once per block.
func (w *walk) derive(r *lang.Ref) *model.Change {
	b := &r.Follow.Decl.Block
	k := b.Path + "\x00" + b.Package + "\x00" + b.Unit + "\x00" + b.Key() + "\x00" + string(r.Follow.Label)
	if w.seen[k] {
		return nil
	}
	w.seen[k] = true
	old := b
	if r.Follow.From != nil {
		old = &r.Follow.From.Block
	}
	d := &model.Change{Label: r.Follow.Label, Old: old, New: b, Details: r.Follow.Details,
		Derived: true, Cause: r.Change, Via: r.Relation, Tentative: r.Change.Tentative,
		Frontier: r.Change.Frontier || r.Follow.Frontier}
	if r.Verdict != model.Inconsistent || r.Follow.May {
		d.Tentative++
	}
	w.fe[d] = w.fe[r.Change]
	return d
}

// finding turns an analyzer's ref into a finding with its relation trail.
func finding(r *lang.Ref) *model.Finding {
	enc := r.Site.Enclosing
	if enc == "" {
		enc = "file scope"
	}
	return &model.Finding{
		Change: r.Change, Relation: r.Relation, Site: r.Site, Verdict: r.Verdict, Precision: r.Precision,
		Message: r.Message, Missing: r.Missing, Fix: r.Fix,
		Trail: append(r.Change.Trail(), model.Step{Relation: r.Relation, Display: enc, Path: r.Site.Path, Line: r.Site.Line}),
	}
}

// answer calls an analyzer; a panic in it (a bug) becomes an error
// naming the analyzer rather than a crash of the hook, except under go
// test, where bugs must be loud.
func answer(ctx context.Context, an lang.Analyzer, qs []lang.Query) (refs []*lang.Ref, err error) {
	defer func() {
		if r := recover(); r != nil {
			if testing.Testing() {
				panic(r)
			}
			err = fmt.Errorf("internal error (please report it with the output of 'hook version'): %v\n%s", r, debug.Stack())
		}
	}()
	return an.Answer(ctx, qs)
}
