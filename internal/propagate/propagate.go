package propagate

import (
	"context"
	"fmt"
	"runtime/debug"
	"sort"
	"testing"

	"github.com/ripple-dev/ripple/internal/lang"
	"github.com/ripple-dev/ripple/internal/model"
)

// Input is one walk.
type Input struct {
	Changes  []*model.Change
	Frontend map[*model.Change]lang.Frontend
	Env      *lang.Env
	// MayLevel gives the level of a may-be-impacted finding for a relation
	// name (or "body"); LevelNone switches the relation off.
	MayLevel func(rel string) model.Level
	// MaxDepth bounds the walk over derived changes (0: direct dependents
	// only).
	MaxDepth int
}

// Output is the walk's result.
type Output struct {
	Findings []*model.Finding
	Derived  []*model.Change
	Parsed   int
	Typed    int
}

// Walk runs the analyzers and settles the findings.
func Walk(ctx context.Context, in Input) (*Output, error) {
	out := &Output{}
	analyzers := map[lang.Frontend]lang.Analyzer{}
	var feOrder []lang.Frontend
	pending := map[lang.Frontend][]*model.Change{}
	for _, c := range in.Changes {
		fe := in.Frontend[c]
		if fe == nil {
			continue
		}
		if _, ok := pending[fe]; !ok {
			feOrder = append(feOrder, fe)
		}
		pending[fe] = append(pending[fe], c)
	}
	var all []*model.Finding
	for depth := 0; len(pending) > 0; depth++ {
		next := map[lang.Frontend][]*model.Change{}
		for _, fe := range feOrder {
			cs := pending[fe]
			if len(cs) == 0 {
				continue
			}
			an := analyzers[fe]
			if an == nil {
				var err error
				an, err = fe.NewAnalyzer(ctx, in.Env)
				if err != nil {
					return nil, fmt.Errorf("%s analysis: %w", fe.Name(), err)
				}
				analyzers[fe] = an
			}
			fs, derived, err := impacted(ctx, an, cs)
			if err != nil {
				return nil, fmt.Errorf("%s analysis: %w", fe.Name(), err)
			}
			all = append(all, fs...)
			if depth < in.MaxDepth {
				for _, d := range derived {
					d.Derived = true
					next[fe] = append(next[fe], d)
					out.Derived = append(out.Derived, d)
				}
			}
		}
		pending = next
	}
	for _, an := range analyzers {
		if s, ok := an.(lang.Stats); ok {
			p, t := s.Stats()
			out.Parsed += p
			out.Typed += t
		}
	}
	out.Findings = settle(all, in)
	return out, nil
}

// settle applies the policy of the package documentation.
func settle(fs []*model.Finding, in Input) []*model.Finding {
	type key struct {
		ch         *model.Change
		path, rule string
		line, col  int
	}
	best := map[key]*model.Finding{}
	var order []key
	for _, f := range fs {
		if in.Env != nil && in.Env.Ignored != nil && in.Env.Ignored(f.Site.Path) {
			continue
		}
		if fc := changedFile(in.Env, f.Site.Path); fc != nil {
			lo, hi := f.Site.Line, f.Site.Line
			f.Updated = fc.NewRangeChanged(lo, hi)
		}
		if f.Verdict == model.MayBeImpacted && f.Updated {
			f.Verdict = model.Consistent
		}
		rel := string(f.Relation)
		if f.Change != nil && f.Change.Label == model.MMB {
			rel = "body"
		}
		lvl := model.LevelNone
		switch f.Verdict {
		case model.Inconsistent:
			lvl = model.LevelError
			if in.MayLevel != nil && in.MayLevel(rel) == model.LevelNone {
				continue
			}
		case model.MayBeImpacted:
			lvl = model.LevelWarning
			if in.MayLevel != nil {
				lvl = in.MayLevel(rel)
			}
			if lvl == model.LevelNone {
				continue
			}
		}
		f.Level = lvl
		k := key{f.Change, f.Site.Path, f.Rule(), f.Site.Line, f.Site.Col}
		if prev, ok := best[k]; ok {
			if f.Verdict > prev.Verdict || f.Verdict == prev.Verdict && precRank(f.Precision) > precRank(prev.Precision) {
				best[k] = f
			}
			continue
		}
		best[k] = f
		order = append(order, k)
	}
	out := make([]*model.Finding, 0, len(order))
	for _, k := range order {
		out = append(out, best[k])
	}
	sort.SliceStable(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if a.Site.Path != b.Site.Path {
			return a.Site.Path < b.Site.Path
		}
		return a.Site.Line < b.Site.Line
	})
	return out
}

func precRank(p model.Precision) int {
	switch p {
	case model.PrecisionTypes:
		return 3
	case model.PrecisionSyntax:
		return 2
	}
	return 1
}

func changedFile(env *lang.Env, path string) interface{ NewRangeChanged(int, int) bool } {
	if env == nil || env.Changed == nil {
		return nil
	}
	if fc, ok := env.Changed[path]; ok && fc != nil {
		return fc
	}
	return nil
}

// impacted calls an analyzer; a panic in it (a bug) becomes an error
// naming the analyzer rather than a crash of the hook, except under go
// test, where bugs must be loud.
func impacted(ctx context.Context, an lang.Analyzer, cs []*model.Change) (fs []*model.Finding, derived []*model.Change, err error) {
	defer func() {
		if r := recover(); r != nil {
			if testing.Testing() {
				panic(r)
			}
			err = fmt.Errorf("internal error (please report it with the output of 'hook version'): %v\n%s", r, debug.Stack())
		}
	}()
	return an.Impacted(ctx, cs)
}
