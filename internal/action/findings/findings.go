package findings

import (
	"encoding/json"
	"fmt"
	"io"
	"net/url"
	"path"
	"strconv"
	"strings"
	"unicode"

	"github.com/ripple-dev/ripple/internal/model"
	"github.com/ripple-dev/ripple/internal/report"
)

// Report is one check, as the action shows it: the document report.JSON
// writes, read back (the action adds methods, not fields: the format has
// one definition, in internal/report).
type Report report.JSONReport

// The parts of a report, as report.JSON writes them.
type (
	// Change is one changed declaration.
	Change = report.JSONChange
	// Finding is one reported site (level error, warning or note).
	Finding = report.JSONFinding
	// Site is another site of an aggregated finding.
	Site = report.JSONSite
	// Step is one block of the relation path from the seed to a site.
	Step = report.JSONStep
	// Fix is a finding's mechanical fix; the action reads its
	// replacement (a suggestion), and fix mode sets its own, with a Note.
	Fix = report.JSONFix
	// Diagnostic is a problem that lowered what the check could say.
	Diagnostic = report.JSONDiagnostic
	// Counts are the reported findings per level.
	Counts = report.JSONCounts
	// Merged names the branch the merge check merged the head with.
	Merged = report.JSONMerged
)

// FromResult is the report of a check, read from report.Document in the
// same process (JSON only crosses process boundaries: ReadJSON).
func FromResult(res *model.Result) (*Report, error) {
	rep := Report(report.Document(res, report.Options{}))
	return reported(&rep), nil
}

// ReadJSON decodes report.JSON's format (version 1). Findings whose level
// is not reported (none) are dropped.
func ReadJSON(r io.Reader) (*Report, error) {
	var raw struct {
		// the document's version, told apart from a missing one
		Version *int `json:"version"`
		report.JSONReport
	}
	dec := json.NewDecoder(r)
	if err := dec.Decode(&raw); err != nil {
		return nil, fmt.Errorf("reading a ripple JSON report: %w", err)
	}
	if raw.Version == nil || *raw.Version != report.JSONVersion {
		v := "missing"
		if raw.Version != nil {
			v = strconv.Itoa(*raw.Version)
		}
		return nil, fmt.Errorf("reading a ripple JSON report: version %s, want %d", v, report.JSONVersion)
	}
	rep := Report(raw.JSONReport)
	rep.Version = *raw.Version
	return reported(&rep), nil
}

// reported drops the findings whose level is not reported (none).
func reported(rep *Report) *Report {
	kept := rep.Findings[:0]
	for _, f := range rep.Findings {
		if model.Level(f.Level).Rank() > 0 {
			kept = append(kept, f)
		}
	}
	rep.Findings = kept
	return rep
}

// ChangeOf returns the change of f, or nil.
func (r *Report) ChangeOf(f *Finding) *Change {
	if f.Change == nil || *f.Change < 0 || *f.Change >= len(r.Changes) {
		return nil
	}
	return &r.Changes[*f.Change]
}

// Group is the findings of one change, in report order.
type Group struct {
	Change   *Change // nil: findings without a change
	Findings []*Finding
}

// Groups splits the findings by change, in report order.
func (r *Report) Groups() []Group {
	var out []Group
	for i := range r.Findings {
		f := &r.Findings[i]
		c := r.ChangeOf(f)
		if n := len(out); n > 0 && out[n-1].Change == c {
			out[n-1].Findings = append(out[n-1].Findings, f)
			continue
		}
		out = append(out, Group{Change: c, Findings: []*Finding{f}})
	}
	return out
}

// Validate drops findings and changes whose coordinates cannot be real,
// for a report read from untrusted data, and returns how many findings
// it dropped. Counts are recomputed from what is kept.
func (r *Report) Validate() int {
	dropped := 0
	kept := r.Findings[:0]
	for _, f := range r.Findings {
		if !CleanPath(f.Path) || f.Line < 1 || f.Fingerprint == "" || !hexOnly(f.Fingerprint) || !revOK(f.Rev) {
			dropped++
			continue
		}
		also := f.Also[:0]
		for _, s := range f.Also {
			if CleanPath(s.Path) && s.Line > 0 && revOK(s.Rev) {
				also = append(also, s)
			}
		}
		f.Also = also
		if f.Merged != nil && !revOK(f.Merged.Commit) {
			f.Merged = nil
		}
		if f.Change != nil && (*f.Change < 0 || *f.Change >= len(r.Changes)) {
			f.Change = nil
		}
		if f.Fix != nil && (f.Fix.StartLine < 1 || f.Fix.EndLine < f.Fix.StartLine) {
			f.Fix = nil
		}
		kept = append(kept, f)
	}
	r.Findings = kept
	for i := range r.Changes {
		if !CleanPath(r.Changes[i].Path) || !revOK(r.Changes[i].Rev) {
			r.Changes[i].Path, r.Changes[i].Line, r.Changes[i].Rev = "", 0, ""
		}
	}
	r.Counts = Counts{}
	for _, f := range r.Findings {
		switch model.Level(f.Level) {
		case model.LevelError:
			r.Counts.Error++
		case model.LevelWarning:
			r.Counts.Warning++
		case model.LevelNote:
			r.Counts.Note++
		}
	}
	return dropped
}

// CleanPath reports whether p is a clean repository-relative slash path.
func CleanPath(p string) bool {
	if p == "" || strings.HasPrefix(p, "/") || path.Clean(p) != p || p == ".." || strings.HasPrefix(p, "../") {
		return false
	}
	for _, r := range p {
		if unicode.IsControl(r) {
			return false
		}
	}
	return true
}

// revOK accepts "" or a full object name (SHA-1 or SHA-256), the only
// revisions a report names.
func revOK(s string) bool {
	return s == "" || (len(s) == 40 || len(s) == 64) && hexOnly(s)
}

func hexOnly(s string) bool {
	for _, c := range s {
		if !strings.ContainsRune("0123456789abcdef", c) {
			return false
		}
	}
	return true
}

// Links makes permalinks: blob URLs pinned to a commit.
type Links struct {
	Server string // https://github.com
	Repo   string // owner/name
}

// Blob links line of path at commit sha (line 0: the file).
func (l Links) Blob(sha, p string, line int) string {
	if l.Server == "" || l.Repo == "" || sha == "" || p == "" {
		return ""
	}
	segs := strings.Split(p, "/")
	for i, s := range segs {
		segs[i] = url.PathEscape(s)
	}
	u := strings.TrimRight(l.Server, "/") + "/" + l.Repo + "/blob/" + sha + "/" + strings.Join(segs, "/")
	if line > 0 {
		u += "#L" + strconv.Itoa(line)
	}
	return u
}

// Site links a finding's site in the head state, or in the commit of
// its line when the head does not have it (the merge check's site on a
// line of the branch merged with).
func (l Links) Site(r *Report, f *Finding) string {
	if f.Rev != "" {
		return l.Blob(f.Rev, f.Path, f.Line)
	}
	return l.Blob(r.Head, f.Path, f.Line)
}

// Also links another site of f's aggregate, as Site does.
func (l Links) Also(r *Report, s *Site) string {
	if s.Rev != "" {
		return l.Blob(s.Rev, s.Path, s.Line)
	}
	return l.Blob(r.Head, s.Path, s.Line)
}

// Seed links a change's declaration: in the head state, or in the base
// state for a deleted one, or in the commit Rev names (a change of the
// branch the merge check merged with).
func (l Links) Seed(r *Report, c *Change) string {
	switch {
	case c == nil:
		return ""
	case c.Bump != nil:
		// a dependency's declaration lives in no commit of the
		// repository: the manifest's line that bumped it does
		return l.Blob(r.Head, c.Bump.Manifest, c.Bump.Line)
	case c.Rev != "":
		return l.Blob(c.Rev, c.Path, c.Line)
	case c.Side == "base":
		return l.Blob(r.Base, c.Path, c.Line)
	}
	return l.Blob(r.Head, c.Path, c.Line)
}

// Where names a finding's site: "path:line", or "origin/main:path:line"
// for a line the head does not have (the merge check's).
func Where(f *Finding) string { return at(f.Rev, f.Merged, f.Path, f.Line) }

// WhereAlso names another site of f's aggregate, as Where does.
func WhereAlso(f *Finding, s *Site) string { return at(s.Rev, f.Merged, s.Path, s.Line) }

func at(rev string, m *Merged, path string, line int) string {
	pos := fmt.Sprintf("%s:%d", path, line)
	switch {
	case rev == "":
		return pos
	case m != nil && rev == m.Commit:
		return m.Ref + ":" + pos
	}
	return Short(rev) + ":" + pos
}

// What is what a change did, without its leading display name
// ("parameter ctx context.Context added"), saying first where a change
// only the merge check saw comes from ("on origin/main since the fork:
// ...", "once merged with origin/main: ...").
func What(c *Change) string {
	s, ok := strings.CutPrefix(c.Summary, c.Display+": ")
	if !ok {
		s = c.Summary
	}
	switch {
	case c.Merged == nil:
		return s
	case c.Merged.Theirs:
		return "on " + c.Merged.Ref + " since the fork: " + s
	}
	return "once merged with " + c.Merged.Ref + ": " + s
}

// WhereSeed names a change's declaration as Where names a site.
func WhereSeed(c *Change) string { return at(c.Rev, c.Merged, c.Path, c.Line) }

// TheirChange reports whether c is a change of the branch the merge check
// merged the head with, not one of the head's.
func TheirChange(c *Change) bool { return c != nil && c.Merged != nil && c.Merged.Theirs }

// Short abbreviates a commit name.
func Short(sha string) string {
	if len(sha) > 12 {
		return sha[:12]
	}
	return sha
}

// Phrase is the words of a relation on a relation path.
func Phrase(relation string) string {
	return model.Relation(relation).Phrase()
}

// TrailText is a relation path, seed first: "seed → called by wrapper
// → ...", each block's name put through code (markdown code, or as it
// is when code is nil). A step without a relation (the dependency's
// declaration after a bump's manifest line) is named alone.
func TrailText(t []report.JSONStep, code func(string) string) string {
	if code == nil {
		code = func(s string) string { return s }
	}
	parts := make([]string, 0, len(t))
	for i, s := range t {
		if i > 0 && s.Relation != "" {
			parts = append(parts, Phrase(s.Relation)+" "+code(s.Display))
		} else {
			parts = append(parts, code(s.Display))
		}
	}
	return strings.Join(parts, " → ")
}

// Headline is the headline of report.Headline, without its "ripple: "
// and the push's verdict, read back from the report:
//
//	3 inconsistent sites in 1 change
//	3 inconsistent sites in 2 of 4 changes, 2 more may be impacted
//	2 sites may be impacted in 1 of 3 changes
//	4 sites may have to follow in 1 change
//	no inconsistent sites (3 changes checked)
//
// It counts the developer's changes (a derived change counts as the
// change it follows from), as the hook's headline and totals do: of the
// changes checked (Seeds), those with an inconsistent site, else those
// with a reported site; the words are report.Headcount's.
func Headline(r *Report) string {
	inc, may, noted := 0, 0, 0
	withInc, withAny := map[int]bool{}, map[int]bool{}
	for i := range r.Findings {
		f := &r.Findings[i]
		s := r.seedOf(f.Change)
		if s >= 0 {
			withAny[s] = true
		}
		switch f.Verdict {
		case model.Inconsistent.String():
			inc++
			if s >= 0 {
				withInc[s] = true
			}
		case model.MayBeImpacted.String():
			if f.Level == string(model.LevelNote) {
				noted++ // reported as a note: noted, as the hook counts it
			} else {
				may++
			}
		default:
			noted++
		}
	}
	h := report.Headcount{Inconsistent: inc, MayBe: may, Noted: noted, WithInconsistent: len(withInc), WithAny: len(withAny), Seeds: r.Seeds()}
	return h.Sentence()
}

// Seeds is the number of the developer's changes checked: the changes
// not derived from another.
func (r *Report) Seeds() int {
	n := 0
	for _, c := range r.Changes {
		if !c.Derived {
			n++
		}
	}
	return n
}

// seedOf is the id of the developer's change that change id follows
// from (id itself for a change of the diff, else the start of its cause
// chain), or -1 for none: no change, a change out of range, or a chain
// that does not end in a change of the diff (a report read from
// untrusted data may loop).
func (r *Report) seedOf(id *int) int {
	if id == nil {
		return -1
	}
	c := *id
	for range len(r.Changes) + 1 {
		if c < 0 || c >= len(r.Changes) {
			return -1
		}
		next := r.Changes[c].Cause
		if next == nil {
			if r.Changes[c].Derived {
				return -1
			}
			return c
		}
		c = *next
	}
	return -1
}
