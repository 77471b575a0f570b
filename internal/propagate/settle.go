package propagate

import (
	"sort"

	"github.com/ripple-dev/ripple/internal/model"
)

// found is a finding before settling, with whether its file said it is
// generated.
type found struct {
	f         *model.Finding
	generated bool
	// gather: the front-end asked for its reason's sites to be one
	// finding whatever their number (lang.Ref.Gather)
	gather bool
}

// generatedNote is appended, once, to the message of a finding in a
// generated file.
const generatedNote = "; generated file: regenerate it"

// settle applies the policy of the package documentation: ignored paths,
// sites the diff touched, levels, generated files, one finding per site
// and rule, aggregates, order.
func settle(fs []found, in Input, isTest func(*model.Finding) bool) []*model.Finding {
	type key struct {
		ch         *model.Change
		path, rule string
		line       int
	}
	best := map[key][]*model.Finding{}
	gather := map[*model.Finding]bool{}
	var order []key
	for _, x := range fs {
		f := x.f
		if in.Env != nil && in.Env.Ignored != nil && in.Env.Ignored(f.Site.Path) {
			continue
		}
		if in.Env != nil && in.Env.Changed != nil {
			if fc := in.Env.Changed[f.Site.Path]; fc != nil {
				f.Updated = fc.NewRangeChanged(f.Site.Line, f.Site.Line)
			}
		}
		if f.Updated && (f.Verdict == model.MayBeImpacted || f.Verdict == model.MayFollow) {
			f.Verdict = model.Consistent // the developer has looked at it
		}
		f.Level = defaultLevel(f.Verdict)
		if in.Level != nil {
			f.Level = in.Level(f)
		}
		if f.Level == model.LevelNone && f.Verdict != model.Consistent {
			continue // the relation is switched off
		}
		if x.generated || in.Generated != nil && in.Generated(f.Site.Path) {
			f.Message += generatedNote
		}
		if x.gather {
			gather[f] = true
		}
		k := key{f.Change, f.Site.Path, f.Rule(), f.Site.Line}
		prev, ok := best[k]
		if !ok {
			order = append(order, k)
		}
		best[k] = merge(prev, f)
	}
	var out []*model.Finding
	for _, k := range order {
		out = append(out, best[k]...)
	}
	sortFindings(out)
	return aggregate(out, in.AggregateAbove, gather, isTest)
}

// merge adds f to the findings of its line and rule: the strongest
// verdict (then the best precision) replaces weaker ones; findings of one
// strength with different reasons stay apart (a conversion and a
// declaration on one line); a repeated reason is one finding with the
// fixes of every use on the line merged (f(x) + f(y)), or none when a use
// has no fix.
func merge(line []*model.Finding, f *model.Finding) []*model.Finding {
	if len(line) == 0 {
		return []*model.Finding{f}
	}
	top := line[0]
	switch {
	case f.Verdict > top.Verdict || f.Verdict == top.Verdict && precRank(f.Precision) > precRank(top.Precision):
		return []*model.Finding{f}
	case f.Verdict < top.Verdict || precRank(f.Precision) < precRank(top.Precision):
		return line
	}
	for _, g := range line {
		if g.Message != f.Message {
			continue
		}
		switch {
		case g.Fix != nil && f.Fix != nil:
			g.Fix = model.MergeFixes(g.Fix, f.Fix)
		case f.Fix == nil:
			g.Fix = nil // a use on the line that no edit covers
		}
		return line
	}
	return append(line, f)
}

func defaultLevel(v model.Verdict) model.Level {
	switch v {
	case model.Inconsistent:
		return model.LevelError
	case model.MayBeImpacted:
		return model.LevelWarning
	case model.MayFollow:
		return model.LevelNote
	}
	return model.LevelNone
}

// aggregate reports the findings of one change that share a rule, a level
// below error and a message once, at their first site, listing the others
// (Finding.Also), when there are more than limit of them: a changed default
// used by 250 calls is one finding to read, not 250. Errors are never
// aggregated: each is a site to fix. A group whose findings all asked to
// be gathered is aggregated from two sites on.
func aggregate(fs []*model.Finding, limit int, gather map[*model.Finding]bool, isTest func(*model.Finding) bool) []*model.Finding {
	if limit <= 0 {
		limit = 8
	}
	type key struct {
		ch        *model.Change
		rule, msg string
		level     model.Level
	}
	groups := map[key][]*model.Finding{}
	for _, f := range fs {
		if f.Level == model.LevelWarning || f.Level == model.LevelNote {
			k := key{f.Change, f.Rule(), f.Message, f.Level}
			groups[k] = append(groups[k], f)
		}
	}
	drop := map[*model.Finding]bool{}
	for _, g := range groups {
		all := true
		for _, f := range g {
			all = all && gather[f]
		}
		if len(g) <= limit && !(all && len(g) > 1) {
			continue
		}
		// the finding that stands for the group is the first outside
		// tests: a reader (and a SARIF viewer, which shows the first
		// location) sees production code first
		hi := 0
		if isTest != nil {
			for i, f := range g {
				if !isTest(f) {
					hi = i
					break
				}
			}
		}
		head := g[hi]
		for i, f := range g {
			if i != hi {
				head.Also = append(head.Also, f.Site)
				drop[f] = true
			}
		}
	}
	if len(drop) == 0 {
		return fs
	}
	out := fs[:0]
	for _, f := range fs {
		if !drop[f] {
			out = append(out, f)
		}
	}
	return out
}

func sortFindings(fs []*model.Finding) {
	sort.SliceStable(fs, func(i, j int) bool {
		a, b := fs[i], fs[j]
		if a.Site.Path != b.Site.Path {
			return a.Site.Path < b.Site.Path
		}
		return a.Site.Line < b.Site.Line
	})
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
