package report

import (
	"cmp"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/ripple-dev/ripple/internal/model"
)

// Options control how a Result is written. None of them changes which
// findings are reported: that is decided by Finding.Level before a writer
// sees the result.
type Options struct {
	// Verbose includes consistent findings (and findings switched off
	// with level none) in text and JSON output, and the precision of each
	// finding in text output. SARIF never includes them.
	Verbose bool
	// Color enables ANSI colours in text output. The caller decides
	// (only when writing to a terminal).
	Color bool
	// ToolName and ToolVersion name the SARIF driver; ToolName defaults
	// to "ripple" and an empty ToolVersion is left out.
	ToolName, ToolVersion string
	// RepoRoot is the absolute path of the repository's work tree. When
	// set, SARIF output defines the SRCROOT base URI as file://RepoRoot/.
	RepoRoot string
}

// Formats lists the formats Write accepts.
var Formats = []string{"text", "json", "sarif"}

// Write writes r to w in format "text", "json" or "sarif".
func Write(w io.Writer, format string, r *model.Result, o Options) error {
	switch strings.ToLower(strings.TrimSpace(format)) {
	case "text":
		return Text(w, r, o)
	case "json":
		return JSON(w, r, o)
	case "sarif":
		return SARIF(w, r, o)
	}
	return fmt.Errorf("report: unknown format %q (valid formats: %s)", format, strings.Join(Formats, ", "))
}

// Headline is the one line a blocked (or passing) push prints first:
//
//	ripple: 9 inconsistent sites in 2 changes; push blocked
//	ripple: 9 inconsistent sites in 2 of 5 changes, 2 more may be impacted; push blocked
//	ripple: 2 sites may be impacted in 1 of 3 changes
//	ripple: 4 sites may have to follow in 1 change
//	ripple: no inconsistent sites (3 changes checked)
//
// It counts what the totals line of Text counts, the developer's changes
// (a derived change counts as the change it follows from): of those
// checked, the ones with an inconsistent site (with a reported site when
// none is inconsistent); "2 changes" when that is all of them.
//
// Whether the push was blocked is the caller's decision.
func Headline(r *model.Result, blocked bool) string {
	p := prepare(r)
	var c tally
	withInc, withAny := map[*model.Change]bool{}, map[*model.Change]bool{}
	for _, g := range p.groups(false) {
		c.add(g.findings)
		for _, f := range g.findings {
			s := seedOf(f.Change)
			if s == nil || s.Derived {
				continue
			}
			withAny[s] = true
			if f.Verdict == model.Inconsistent {
				withInc[s] = true
			}
		}
	}
	h := Headcount{Inconsistent: c.inconsistent, MayBe: c.mayBe, Noted: c.noted, WithInconsistent: len(withInc), WithAny: len(withAny), Seeds: p.seeds()}
	s := "ripple: " + h.Sentence()
	if blocked {
		s += "; push blocked"
	}
	return s
}

// Headcount is what a headline counts: the reported sites and the
// developer's changes they fall in (a derived change counts as the change
// it follows from). The hook counts a model.Result, the Action the JSON
// report read back; both say it with Sentence.
type Headcount struct {
	Inconsistent     int // reported sites found inconsistent
	MayBe            int // reported sites that may be impacted
	Noted            int // the other reported sites: the farther frontier, may have to follow
	WithInconsistent int // the developer's changes with an inconsistent site
	WithAny          int // the developer's changes with any reported site
	Seeds            int // the developer's changes checked
}

// Sentence is the headline without the tool's name and the push's fate:
// "9 inconsistent sites in 2 of 5 changes, 2 more may be impacted". Each
// rung of the verdict ladder has its words, as in the totals line:
// inconsistent, may be impacted, may have to follow (the notes), so
// that notes are never called impacted.
func (h Headcount) Sentence() string {
	in := func(n int) string {
		switch {
		case n == 0:
			return ""
		case n == h.Seeds:
			return " in " + model.Plural(n, "change", "changes")
		}
		return fmt.Sprintf(" in %d of %d changes", n, h.Seeds)
	}
	var s string
	more := func(n int, what string) {
		if n > 0 {
			s += fmt.Sprintf(", %d more %s", n, what)
		}
	}
	switch {
	case h.Inconsistent > 0:
		s = model.Plural(h.Inconsistent, "inconsistent site", "inconsistent sites") + in(h.WithInconsistent)
		more(h.MayBe, "may be impacted")
		more(h.Noted, "may have to follow")
	case h.MayBe > 0:
		s = model.Plural(h.MayBe, "site may be", "sites may be") + " impacted" + in(h.WithAny)
		more(h.Noted, "may have to follow")
	case h.Noted > 0:
		s = model.Plural(h.Noted, "site may", "sites may") + " have to follow" + in(h.WithAny)
	default:
		s = fmt.Sprintf("no inconsistent sites (%s checked)", model.Plural(h.Seeds, "change", "changes"))
	}
	return s
}

// seedOf is the developer's change c follows from: c itself for a
// change of the diff, else the first change of its Cause chain.
func seedOf(c *model.Change) *model.Change {
	for c != nil && c.Cause != nil {
		c = c.Cause
	}
	return c
}

// reported says whether a finding is reported: its level is note, warning
// or error. Findings with level none (consistent, or switched off) are
// shown only in verbose text and JSON.
func reported(f *model.Finding) bool { return f.Level.Rank() > 0 }

// prepared is a Result in report order: changes (those of the result,
// then any change a finding refers to that the result does not list),
// and findings sorted and deduplicated.
type prepared struct {
	r        *model.Result
	changes  []*model.Change
	index    map[*model.Change]int
	findings []*model.Finding // all levels, in report order
	fp       map[*model.Finding]string
	group    map[*model.Finding]int // SARIF: the number of sites of a finding's aggregate (perSite)
}

// group is the findings of one change (change nil: findings without one).
type group struct {
	change   *model.Change
	id       int // index in prepared.changes; -1 for nil
	findings []*model.Finding
}

func prepare(r *model.Result) *prepared {
	if r == nil {
		r = &model.Result{}
	}
	p := &prepared{r: r, index: map[*model.Change]int{}}
	for _, c := range r.Changes {
		if c == nil {
			continue
		}
		if _, ok := p.index[c]; !ok {
			p.index[c] = len(p.changes)
			p.changes = append(p.changes, c)
		}
	}
	// Changes the result does not list (a finding's, or the cause of a
	// change) are appended in a deterministic order (findings arrive in
	// any order), so that every change counted is listed.
	var foreign []*model.Change
	addForeign := func(c *model.Change) {
		for ; c != nil; c = c.Cause {
			if _, ok := p.index[c]; !ok && !slices.Contains(foreign, c) {
				foreign = append(foreign, c)
			}
		}
	}
	for _, c := range p.changes {
		addForeign(c.Cause)
	}
	for _, f := range r.Findings {
		if f != nil {
			addForeign(f.Change)
		}
	}
	slices.SortStableFunc(foreign, func(a, b *model.Change) int {
		return cmp.Or(cmp.Compare(summary(a), summary(b)), cmp.Compare(a.Label, b.Label))
	})
	for _, c := range foreign {
		p.index[c] = len(p.changes)
		p.changes = append(p.changes, c)
	}

	all := make([]*model.Finding, 0, len(r.Findings))
	for _, f := range r.Findings {
		if f != nil {
			all = append(all, f)
		}
	}
	slices.SortStableFunc(all, p.compare)
	p.findings = dedupe(all)
	p.fp = fingerprints(p.findings)
	return p
}

// seeds counts the developer's own changes (the derived ones, what may
// have to follow them, are reported under their findings).
func (p *prepared) seeds() int {
	n := 0
	for _, c := range p.changes {
		if !c.Derived {
			n++
		}
	}
	return n
}

// changeID is the index of f's change in p.changes, or len(p.changes)
// (sorting last) for a finding without a change.
func (p *prepared) changeID(f *model.Finding) int {
	if i, ok := p.index[f.Change]; ok && f.Change != nil {
		return i
	}
	return len(p.changes)
}

// compare is the report order: change, path, line, column, rule, then
// message and the most severe first, so that output is deterministic
// whatever order findings arrive in.
func (p *prepared) compare(a, b *model.Finding) int {
	return cmp.Or(
		cmp.Compare(p.changeID(a), p.changeID(b)),
		cmp.Compare(a.Site.Path, b.Site.Path),
		cmp.Compare(a.Site.Line, b.Site.Line),
		cmp.Compare(a.Site.Col, b.Site.Col),
		cmp.Compare(a.Rule(), b.Rule()),
		cmp.Compare(a.Message, b.Message),
		-cmp.Compare(a.Level.Rank(), b.Level.Rank()),
		-cmp.Compare(a.Verdict, b.Verdict),
		cmp.Compare(a.Precision, b.Precision),
		cmp.Compare(a.Site.Enclosing, b.Site.Enclosing),
		cmp.Compare(len(a.Trail), len(b.Trail)),
	)
}

type dedupeKey struct {
	path      string
	line, col int
	rule, msg string
}

// dedupe drops findings identical in (path, line, col, rule, message),
// keeping the most severe one (the first in report order on a tie). The
// input is in report order and so is the output.
func dedupe(sorted []*model.Finding) []*model.Finding {
	best := map[dedupeKey]int{}
	keys := make([]dedupeKey, len(sorted))
	for i, f := range sorted {
		k := dedupeKey{f.Site.Path, f.Site.Line, f.Site.Col, f.Rule(), f.Message}
		keys[i] = k
		if j, ok := best[k]; !ok || f.Level.Rank() > sorted[j].Level.Rank() {
			best[k] = i
		}
	}
	out := make([]*model.Finding, 0, len(best))
	for i, f := range sorted {
		if best[keys[i]] == i {
			out = append(out, f)
		}
	}
	return out
}

// visible returns the findings a writer shows: the reported ones, and in
// verbose mode all of them.
func (p *prepared) visible(verbose bool) []*model.Finding {
	if verbose {
		return p.findings
	}
	var out []*model.Finding
	for _, f := range p.findings {
		if reported(f) {
			out = append(out, f)
		}
	}
	return out
}

// groups splits the visible findings by change, in change order, leaving
// out changes without visible findings.
func (p *prepared) groups(verbose bool) []group {
	var out []group
	for _, f := range p.visible(verbose) {
		id := p.changeID(f)
		if id == len(p.changes) {
			id = -1
		}
		if n := len(out); n > 0 && out[n-1].id == id {
			out[n-1].findings = append(out[n-1].findings, f)
			continue
		}
		out = append(out, group{change: f.Change, id: id, findings: []*model.Finding{f}})
	}
	for i := range out {
		if out[i].id < 0 {
			out[i].change = nil
		}
	}
	return out
}

// tally counts findings by what they say: reported findings by the rung
// of the ladder they stand on (the words "inconsistent" and "may be
// impacted" are verdicts; a may-be-impacted site the configuration
// reports as a note, such as a caller of a changed body, is noted, as
// the farther frontier is: a note is never counted as impacted), and
// the unreported ones shown in verbose mode.
type tally struct {
	inconsistent, mayBe, noted int // reported: verdict Inconsistent, MayBeImpacted above note level, other
	consistent, off            int // level none: verdict Consistent, other
}

func (t *tally) add(fs []*model.Finding) {
	for _, f := range fs {
		switch {
		case !reported(f) && f.Verdict == model.Consistent:
			t.consistent++
		case !reported(f):
			t.off++
		case f.Verdict == model.Inconsistent:
			t.inconsistent++
		case f.Verdict == model.MayBeImpacted && f.Level != model.LevelNote:
			t.mayBe++
		default:
			t.noted++
		}
	}
}

func (t *tally) reported() int { return t.inconsistent + t.mayBe + t.noted }

// summary is c.Summary(), safe for a change without blocks or a nil
// change.
func summary(c *model.Change) string {
	switch {
	case c == nil:
		return "findings without a change"
	case c.Old == nil && c.New == nil:
		if len(c.Details) > 0 {
			return strings.Join(c.Details, "; ")
		}
		return c.Label.Describe()
	}
	return c.Summary()
}

// heading is summary as a heading says it: a change only the merge check
// saw says so, "on origin/main: ..." for a change that branch made,
// "once merged with origin/main: ..." for one of the head's.
func heading(c *model.Change) string {
	switch {
	case c == nil || c.Merged == nil:
		return summary(c)
	case c.Merged.Theirs:
		return "on " + c.Merged.Ref + ": " + summary(c)
	}
	return "once merged with " + c.Merged.Ref + ": " + summary(c)
}

// seed returns the block a change is reported at: the new block, or the
// old one for a deletion (then base is true: its path and line refer to
// the base state). A change of the merge check may have its block in
// another commit's lines: seedRev says which.
func seed(c *model.Change) (b *model.Block, base bool) {
	if c == nil {
		return nil, false
	}
	if c.New != nil {
		return c.New, false
	}
	if c.Merged != nil {
		return c.Old, false // its lines are the head's or Merged.Rev's
	}
	return c.Old, c.Old != nil
}

// seedRev is the commit whose lines seed's block is at when neither the
// head's nor the base's (Merged.Rev): the merged branch's tip for a
// declaration it changed.
func seedRev(c *model.Change) string {
	if c == nil || c.Merged == nil {
		return ""
	}
	return c.Merged.Rev
}

// revName names a commit a site is at: the merged branch's name for its
// tip, else the abbreviated commit.
func revName(rev string, m *model.Merged) string {
	if m != nil && rev == m.Commit {
		return m.Ref
	}
	if len(rev) > 12 {
		return rev[:12]
	}
	return rev
}

// at is a position in another commit than the head ("origin/main:a.go:12"),
// or in the head ("a.go:12").
func at(rev string, m *model.Merged, path string, line int) string {
	if rev == "" {
		return position(path, line)
	}
	return revName(rev, m) + ":" + position(path, line)
}

// displayBlock is the block that names the change, as in Summary: the old
// block if any, else the new one.
func displayBlock(c *model.Change) *model.Block {
	if c == nil {
		return nil
	}
	if c.Old != nil {
		return c.Old
	}
	return c.New
}

// trimmed is a site's source line for display.
func trimmed(s model.Site) string { return strings.TrimSpace(s.Text) }

// mainRelation is the relation most findings of fs have; ties go to the
// earlier relation of model.Relations.
func mainRelation(fs []*model.Finding) model.Relation {
	n := map[model.Relation]int{}
	for _, f := range fs {
		n[f.Relation]++
	}
	best, bestN := model.Relation(""), 0
	for _, r := range model.Relations {
		if n[r] > bestN {
			best, bestN = r, n[r]
		}
	}
	if bestN == 0 { // relations unknown to the model
		for r, k := range n {
			if k > bestN || k == bestN && r < best {
				best, bestN = r, k
			}
		}
	}
	return best
}

func nounFor(r model.Relation, n int) string {
	w := r.Words().Noun
	return model.Plural(n, w[0], w[1])
}

// plural is "1 change" or "3 changes".
