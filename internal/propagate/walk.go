package propagate

import (
	"context"
	"fmt"
	"runtime/debug"
	"testing"

	"github.com/ripple-dev/ripple/internal/lang"
	"github.com/ripple-dev/ripple/internal/model"
)

// Input is one walk.
type Input struct {
	Changes  []*model.Change
	Frontend map[*model.Change]lang.Frontend
	Env      *lang.Env
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
}

// Output is the walk's result.
type Output struct {
	Findings []*model.Finding
	Derived  []*model.Change
	Parsed   int
	Typed    int
	// Cut counts the derived changes not walked because of MaxDerived.
	Cut int
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

// Walk asks each front-end's analyzer for the dependents of the changes,
// walks the derived changes the answers imply (breadth first, up to
// MaxDepth hops), and settles the findings.
func Walk(ctx context.Context, in Input) (*Output, error) {
	out := &Output{}
	w := &walk{in: in, analyzers: map[lang.Frontend]lang.Analyzer{}, fe: map[*model.Change]lang.Frontend{}, seen: map[string]bool{}}
	pending := map[lang.Frontend][]*model.Change{}
	for _, c := range in.Changes {
		fe := in.Frontend[c]
		if fe == nil {
			continue
		}
		w.fe[c] = fe
		if _, ok := pending[fe]; !ok {
			w.order = append(w.order, fe)
		}
		pending[fe] = append(pending[fe], c)
	}
	var all []found
	for depth := 0; len(pending) > 0; depth++ {
		next := map[lang.Frontend][]*model.Change{}
		for _, fe := range w.order {
			refs, err := w.ask(ctx, fe, pending[fe])
			if err != nil {
				return nil, err
			}
			for _, r := range refs {
				r.Verdict = Cap(r.Change, r.Verdict)
				all = append(all, found{finding(r), r.Generated, r.Gather})
				if r.Follow == nil || depth >= in.MaxDepth {
					continue
				}
				if d := w.derive(r); d != nil {
					if in.MaxDerived > 0 && len(out.Derived) >= in.MaxDerived {
						out.Cut++
						continue
					}
					next[fe] = append(next[fe], d)
					out.Derived = append(out.Derived, d)
				}
			}
		}
		pending = next
	}
	for _, an := range w.analyzers {
		if s, ok := an.(lang.Stats); ok {
			p, t := s.Stats()
			out.Parsed += p
			out.Typed += t
		}
	}
	out.Findings = settle(all, in, func(f *model.Finding) bool {
		d, ok := w.fe[f.Change].(lang.Declarer)
		return ok && d.IsTest(f.Site.Path)
	})
	return out, nil
}

type walk struct {
	in        Input
	analyzers map[lang.Frontend]lang.Analyzer
	order     []lang.Frontend
	fe        map[*model.Change]lang.Frontend
	seen      map[string]bool // derived changes made, by block
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
	an := w.analyzers[fe]
	if an == nil {
		var err error
		if an, err = fe.NewAnalyzer(ctx, w.in.Env); err != nil {
			return nil, fmt.Errorf("%s analysis: %w", fe.Name(), err)
		}
		w.analyzers[fe] = an
	}
	refs, err := answer(ctx, an, qs)
	if err != nil {
		return nil, fmt.Errorf("%s analysis: %w", fe.Name(), err)
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
	case v == model.Consistent || c.Tentative == 0:
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
		Derived: true, Cause: r.Change, Via: r.Relation, Tentative: r.Change.Tentative}
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
