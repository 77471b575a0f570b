package check

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/ripple-dev/ripple/internal/config"
	"github.com/ripple-dev/ripple/internal/gitio"
	"github.com/ripple-dev/ripple/internal/lang"
	"github.com/ripple-dev/ripple/internal/model"
)

// MergeOptions select a merge check: the head merged with Ref.
type MergeOptions struct {
	// Ref is the branch to merge with, as the user names it
	// ("origin/main"); it is resolved to a commit. Name, when set, is
	// what the report calls it instead (the Action merges with a pull
	// request's base commit and calls it by its branch).
	Ref, Name string
	// Head is the head commit; "" = HEAD.
	Head   string
	Config *config.Config
	// Now, Deadline and Frontends are as in Options.
	Now      func() time.Time
	Deadline time.Time
	// SkipFrontier is as in Options.
	SkipFrontier bool
	Frontends    func() lang.Set
}

// MergeResult is what a merge check found: findings that appear only
// once the head is merged with Ref, ready for Into.
type MergeResult struct {
	Ref       string // as named
	RefCommit string
	Head      string
	// Tree is the merged tree; it was written to a scratch object store
	// that is gone when Merge returns.
	Tree string
	// Skipped, when set, says why nothing was checked (Ref is already
	// merged into the head, the head is already in Ref, the merge has
	// textual conflicts); Conflicts lists the conflicted paths.
	Skipped   string
	Conflicts []string
	// Findings are the reported findings of the two checks, each marked
	// Merged, its message saying so, its sites in the head's lines or,
	// for a line only Ref has, in Ref's (Site.Rev). Changes are the
	// changes they belong to, with their causes.
	Findings    []*model.Finding
	Changes     []*model.Change
	Diagnostics []model.Diagnostic
	Notes       []string
	Millis      int64
	ParsedFiles int
	Typed       int
}

// Merge runs the merge check of a head against Ref: the two breakages
// a check of merge-base..head cannot see, both found by ordinary checks
// whose head is the merged tree (git merge-tree, written to a scratch
// object store: the repository, its work tree and its index are never
// touched):
//
//   - the head's changes as they land (base: Ref's tip): what they leave
//     inconsistent on Ref, such as a caller Ref added after the fork of a
//     function the head changed;
//   - Ref's changes as they land on the head (base: the head): what they
//     leave inconsistent in the head's own lines, such as a call the head
//     added to a function Ref changed. Sites on lines Ref has are Ref's
//     own to keep consistent, and are not reported.
//
// Ref already merged into the head, the head already in Ref and textual
// conflicts are not errors: MergeResult.Skipped says so.
func Merge(ctx context.Context, repo *gitio.Repo, o MergeOptions) (*MergeResult, error) {
	now := o.Now
	if now == nil {
		now = time.Now
	}
	start := now()
	if strings.TrimSpace(o.Ref) == "" {
		return nil, errors.New("merge check: no branch to merge with")
	}
	ref, err := repo.Resolve(ctx, o.Ref)
	if err != nil {
		return nil, fmt.Errorf("merge check: %w", err)
	}
	h := o.Head
	if h == "" {
		h = "HEAD"
	}
	head, err := repo.Resolve(ctx, h)
	if err != nil {
		return nil, fmt.Errorf("merge check: head: %w", err)
	}
	name := o.Name
	if name == "" {
		name = o.Ref
	}
	m := &MergeResult{Ref: name, RefCommit: ref, Head: head}
	if ok, err := repo.IsAncestor(ctx, ref, head); err != nil {
		return nil, fmt.Errorf("merge check: %w", err)
	} else if ok {
		m.Skipped = fmt.Sprintf("%s (%s) is already merged into the head: nothing to merge", name, gitio.Short(ref))
		return m, nil
	}
	if ok, err := repo.IsAncestor(ctx, head, ref); err != nil {
		return nil, fmt.Errorf("merge check: %w", err)
	} else if ok {
		m.Skipped = fmt.Sprintf("the head is already in %s (%s): nothing to merge", name, gitio.Short(ref))
		return m, nil
	}
	scratch, discard, err := repo.Scratch(ctx)
	if err != nil {
		return nil, fmt.Errorf("merge check: %w", err)
	}
	defer discard()
	tree, conflicts, err := scratch.MergeTree(ctx, head, ref)
	if err != nil {
		return nil, fmt.Errorf("merge check with %s: %w", name, err)
	}
	m.Tree = tree
	if len(conflicts) > 0 {
		m.Conflicts = conflicts
		m.Skipped = fmt.Sprintf("merging %s (%s) into the head conflicts in %s: merge check skipped (merge or rebase, resolve, and check again)",
			name, gitio.Short(ref), someNames(conflicts, 3))
		return m, nil
	}
	run := func(base string) (*model.Result, error) {
		return Run(ctx, scratch, Options{Base: base, Head: tree, Config: o.Config, Now: o.Now, Deadline: o.Deadline, Frontends: o.Frontends, SkipFrontier: o.SkipFrontier})
	}
	// the head's changes as they land, then Ref's
	ours, err := run(ref)
	if err != nil {
		return nil, fmt.Errorf("merge check with %s: %w", name, err)
	}
	theirs, err := run(head)
	if err != nil {
		return nil, fmt.Errorf("merge check with %s: %w", name, err)
	}
	fromHead, err := newLineMap(ctx, scratch, head, tree)
	if err != nil {
		return nil, fmt.Errorf("merge check with %s: %w", name, err)
	}
	fromRef, err := newLineMap(ctx, scratch, ref, tree)
	if err != nil {
		return nil, fmt.Errorf("merge check with %s: %w", name, err)
	}
	mp := &merger{m: m, head: fromHead, ref: fromRef, blocks: map[*model.Block]string{}, changes: map[*model.Change]bool{}}
	mp.take(ours, false)
	mp.take(theirs, true)
	m.Millis = now().Sub(start).Milliseconds()
	return m, nil
}

// someNames lists up to n names and counts the rest.
func someNames(names []string, n int) string {
	if len(names) <= n {
		return strings.Join(names, ", ")
	}
	return strings.Join(names[:n], ", ") + fmt.Sprintf(" and %d more", len(names)-n)
}

// merger moves the findings of the two checks of the merged tree into
// the lines of the commits merged.
type merger struct {
	m         *MergeResult
	head, ref *lineMap
	blocks    map[*model.Block]string // blocks already moved: "+" and the commit of their lines
	changes   map[*model.Change]bool  // changes already taken
}

// take keeps the reported findings of one check. theirs: the check of
// Ref's changes, whose findings on lines Ref has are dropped.
func (mp *merger) take(res *model.Result, theirs bool) {
	m := mp.m
	m.ParsedFiles += res.Stats.ParsedFiles
	m.Typed += res.Stats.TypedPackages
	m.Diagnostics = append(m.Diagnostics, res.Diagnostics...)
	m.Notes = append(m.Notes, res.PrecisionNotes...)
	marker := &model.Merged{Ref: m.Ref, Commit: m.RefCommit}
	for _, f := range res.Findings {
		if f.Level.Rank() == 0 {
			continue // consistent, or switched off: the ordinary check shows its own
		}
		if theirs && !mp.keepTheirs(f) {
			continue
		}
		mp.site(&f.Site, true)
		for i := range f.Also {
			mp.site(&f.Also[i], false)
		}
		for i := range f.Trail {
			s := &f.Trail[i]
			s.Path, s.Line, s.Rev = mp.where(s.Path, s.Line)
		}
		if f.Fix != nil && !mp.moveFix(f) {
			f.Fix = nil
		}
		f.Merged = marker
		f.Message = "once merged with " + m.Ref + ": " + f.Message
		m.Findings = append(m.Findings, f)
		mp.change(f.Change, theirs)
	}
}

// keepTheirs filters a finding of Ref's changes to the head's own lines:
// its site, and the other sites of an aggregate, on lines Ref does not
// have. It reports whether any site is left (the first becomes the
// finding's site).
func (mp *merger) keepTheirs(f *model.Finding) bool {
	mine := func(s model.Site) bool { return !mp.ref.has(s.Path, s.Line) && mp.head.has(s.Path, s.Line) }
	var also []model.Site
	for _, s := range f.Also {
		if mine(s) {
			also = append(also, s)
		}
	}
	if mine(f.Site) {
		f.Also = also
		return true
	}
	if len(also) == 0 {
		return false
	}
	f.Site, f.Also = also[0], also[1:]
	if k := len(f.Trail); k > 0 { // the trail ends at the site's declaration
		last := &f.Trail[k-1]
		last.Display, last.Path, last.Line = f.Site.Enclosing, f.Site.Path, f.Site.Line
		if last.Display == "" {
			last.Display = "file scope"
		}
	}
	return true
}

// where takes a line of the merged tree to the head's lines, else to
// Ref's (rev is then Ref's tip); a line of neither (none without
// conflicts) stays the merged tree's.
func (mp *merger) where(path string, line int) (string, int, string) {
	if p, l, ok := mp.head.back(path, line); ok {
		return p, l, ""
	}
	if p, l, ok := mp.ref.back(path, line); ok {
		return p, l, mp.m.RefCommit
	}
	return path, line, mp.m.Tree
}

// site moves a site, and the span of its declaration when full.
func (mp *merger) site(s *model.Site, full bool) {
	path, line := s.Path, s.Line
	s.Path, s.Line, s.Rev = mp.where(path, line)
	if !full || s.EnclosingSpan == (model.Span{}) {
		return
	}
	m := mp.head
	if s.Rev == mp.m.RefCommit {
		m = mp.ref
	}
	_, a, ok1 := m.back(path, s.EnclosingSpan.StartLine)
	_, b, ok2 := m.back(path, s.EnclosingSpan.EndLine)
	if ok1 && ok2 && s.Rev != mp.m.Tree {
		s.EnclosingSpan = model.Span{StartLine: a, EndLine: b}
	} else {
		s.EnclosingSpan = model.Span{}
	}
}

// moveFix moves a mechanical fix to the head's lines; false when a site
// or an edit is not on them (a fix of Ref's code is not the head's).
func (mp *merger) moveFix(f *model.Finding) bool {
	if f.Site.Rev != "" {
		return false
	}
	edits := make([]model.TextEdit, len(f.Fix.Edits))
	for i, e := range f.Fix.Edits {
		p, a, ok1 := mp.head.back(e.Path, e.StartLine)
		_, b, ok2 := mp.head.back(e.Path, e.EndLine)
		if !ok1 || !ok2 {
			return false
		}
		e.Path, e.StartLine, e.EndLine = p, a, b
		edits[i] = e
	}
	f.Fix = &model.Fix{Description: f.Fix.Description, Edits: edits}
	return true
}

// change takes a finding's change and its causes, moving the block each
// is reported at to the lines of a commit: Ref's changes' new blocks to
// Ref's lines (else the head's), the head's to the head's (else Ref's).
// An old block is already in a commit's lines: the head's for Ref's
// changes, Ref's for the head's.
func (mp *merger) change(c *model.Change, theirs bool) {
	for ; c != nil && !mp.changes[c]; c = c.Cause {
		mp.changes[c] = true
		mk := &model.Merged{Ref: mp.m.Ref, Commit: mp.m.RefCommit, Theirs: theirs}
		c.Merged = mk
		switch b := c.New; {
		case b == nil && !theirs:
			mk.Rev = mp.m.RefCommit
		case b == nil:
		case mp.blocks[b] != "":
			mk.Rev = mp.blocks[b][1:]
		default:
			first, second := mp.head, mp.ref
			if theirs {
				first, second = mp.ref, mp.head
			}
			switch {
			case mp.block(first, b):
				mk.Rev = mp.revOf(first)
			case mp.block(second, b):
				mk.Rev = mp.revOf(second)
			default:
				mk.Rev = mp.m.Tree
			}
			mp.blocks[b] = "+" + mk.Rev
		}
		mp.m.Changes = append(mp.m.Changes, c)
	}
}

// revOf is the commit a line map leads to ("" for the head).
func (mp *merger) revOf(m *lineMap) string {
	if m == mp.ref {
		return mp.m.RefCommit
	}
	return ""
}

// block moves a block of the merged tree through m when m has its name's
// line, and reports whether it did.
func (mp *merger) block(m *lineMap, b *model.Block) bool {
	p, n, ok := m.back(b.Path, b.NameLine)
	if !ok {
		return false
	}
	_, s, ok1 := m.back(b.Path, b.Span.StartLine)
	_, e, ok2 := m.back(b.Path, b.Span.EndLine)
	b.Path, b.NameLine = p, n
	if ok1 && ok2 {
		b.Span = model.Span{StartLine: s, EndLine: e}
	}
	return true
}

// Into adds a merge check's findings to the ordinary check's result:
// findings identical to one of the result's (same change, rule and
// site) are dropped, a change of the head that the result already lists
// takes the merge check's findings under it, and one line says what
// the merge check did.
func (m *MergeResult) Into(res *model.Result) {
	if m.Skipped != "" {
		res.PrecisionNotes = append(res.PrecisionNotes, "merge check: "+m.Skipped)
		return
	}
	kept := map[string]*model.Change{}
	for _, c := range res.Changes {
		kept[changeKey(c)] = c
	}
	same := map[*model.Change]*model.Change{}
	for _, c := range m.Changes {
		if c.Merged != nil && !c.Merged.Theirs {
			if k, ok := kept[changeKey(c)]; ok {
				same[c] = k
			}
		}
	}
	seen := map[string]bool{}
	for _, f := range res.Findings {
		seen[findingKey(f)] = true
	}
	mine := map[*model.Change]bool{}
	for _, c := range m.Changes {
		mine[c] = true
	}
	// a line of new code that does not compile (model.Uses) where a
	// dependent of a change is an error already says nothing more: the
	// two checks of a merge each find what the other's change broke
	broken := map[string]bool{}
	for _, fs := range [][]*model.Finding{res.Findings, m.Findings} {
		for _, f := range fs {
			if f.Level == model.LevelError && f.Relation != model.Uses {
				broken[fmt.Sprintf("%s|%s:%d", f.Site.Rev, f.Site.Path, f.Site.Line)] = true
			}
		}
	}
	used := map[*model.Change]bool{}
	added := 0
	for _, f := range m.Findings {
		if k, ok := same[f.Change]; ok {
			f.Change = k
		}
		key := findingKey(f)
		if seen[key] || f.Relation == model.Uses && broken[fmt.Sprintf("%s|%s:%d", f.Site.Rev, f.Site.Path, f.Site.Line)] {
			continue
		}
		seen[key] = true
		res.Findings = append(res.Findings, f)
		added++
		for c := f.Change; mine[c] && same[c] == nil && !used[c]; c = c.Cause {
			used[c] = true
		}
	}
	for _, c := range m.Changes {
		if !used[c] {
			continue
		}
		if k, ok := same[c.Cause]; ok {
			c.Cause = k
		}
		res.Changes = append(res.Changes, c)
	}
	notes := map[string]bool{}
	for _, n := range res.PrecisionNotes {
		notes[n] = true
	}
	for _, n := range m.Notes {
		if !notes[n] {
			notes[n] = true
			res.PrecisionNotes = append(res.PrecisionNotes, "merge check: "+n)
		}
	}
	diags := map[string]bool{}
	for _, d := range res.Diagnostics {
		diags[d.String()] = true
	}
	for _, d := range m.Diagnostics {
		if !diags[d.String()] {
			diags[d.String()] = true
			res.Diagnostics = append(res.Diagnostics, d)
		}
	}
	what := "no site more is inconsistent once merged"
	if added > 0 {
		what = model.Plural(added, "finding appears", "findings appear") + " only once merged"
	}
	res.PrecisionNotes = append(res.PrecisionNotes, fmt.Sprintf("merge check: the head merged with %s (%s) was checked: %s", m.Ref, gitio.Short(m.RefCommit), what))
	res.Stats.ParsedFiles += m.ParsedFiles
	res.Stats.TypedPackages += m.Typed
	res.Stats.Millis += m.Millis
}

// changeKey identifies a change across checks: its label, what it says,
// and where its declaration is.
func changeKey(c *model.Change) string {
	if c == nil {
		return ""
	}
	b := c.Block()
	return fmt.Sprintf("%s|%s|%s:%d", c.Label, c.Summary(), b.Path, b.NameLine)
}

// findingKey identifies a finding across checks: its change, rule and
// site (not its message, which the merge check words its own way).
func findingKey(f *model.Finding) string {
	return fmt.Sprintf("%s|%s|%s|%s:%d:%d", changeKey(f.Change), f.Rule(), f.Site.Rev, f.Site.Path, f.Site.Line, f.Site.Col)
}
