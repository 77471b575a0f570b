package report

import (
	"encoding/json"
	"io"

	"github.com/ripple-dev/ripple/internal/model"
	"github.com/ripple-dev/ripple/internal/textedit"
)

// JSONVersion is the version of the JSON format written by JSON. It
// changes only when a field is removed or changes meaning; fields may be
// added without a new version.
const JSONVersion = 1

// JSON writes the result as one JSON object, indented with two spaces.
// Every key is always present (empty strings, zeros, empty arrays and
// null where there is nothing to say), so consumers need no existence
// checks:
//
//	{
//	  "version": 1,
//	  "base": "<base revision>", "head": "<head revision, or \"\" for the work tree>",
//	  "changes": [{
//	    "id": 0,                  // index in this array; findings refer to it
//	    "label": "MMS",
//	    "summary": "func (*Client).Do: parameter ctx context.Context added",
//	    "display": "func (*Client).Do", "path": "client/client.go", "line": 42,
//	    "side": "head",           // "head", or "base" for a deleted declaration
//	    "old": {"display", "path", "line"} | null,   // base state
//	    "new": {"display", "path", "line"} | null,   // head state
//	    "details": [...], "escapes": [...], "derived": false,
//	    "cause": null,            // id of the change a derived change follows
//	    "merged": null | {"ref", "commit", "theirs"},  // a change only the merge check saw; theirs: the merged branch made it
//	    "rev": ""                 // the commit path and line are in when it is not the one side says ("" when it is)
//	  }],
//	  "findings": [{
//	    "change": 0,              // change id, or null
//	    "rule": "ripple/MMS/CalledBy", "relation": "CalledBy",
//	    "level": "error",         // error | warning | note | none (none: verbose only)
//	    "verdict": "inconsistent",// inconsistent | may be impacted | consistent
//	    "precision": "types",     // types | syntax | name
//	    "message": "...",
//	    "path": "cmd/get/main.go", "line": 17, "col": 15,  // col: 1-based UTF-8 byte column, 0 if unknown
//	    "enclosing": "func main", "text": "<trimmed source line>",
//	    "trail": [{"relation", "display", "path", "line", "rev"}],
//	    "missing": "",            // what the verdict was established without ("" when nothing)
//	    "also": [{"path", "line", "col", "enclosing", "text", "rev"}],  // the other sites of an aggregate
//	    "merged": null | {"ref", "commit"},  // the site is inconsistent only once the head is merged with ref
//	    "rev": "",                // the commit path and line are in, when not the head ("" for the head): a line only the merged branch has
//	    "updated": false,         // the site's lines were edited by the diff
//	    "fingerprint": "<hex>",   // as SARIF partialFingerprints rippleFingerprint/v1
//	    "fix": {                  // present when the change determines the edit
//	      "description": "rename Old to New",
//	      "edits": [{"path", "start_line", "start_col", "end_line", "end_col", "new_text"}],
//	      "start_line", "end_line", "replacement"  // the site's line once fixed, when every edit is on it
//	    }
//	  }],
//	  "diagnostics": [{"path", "line", "message"}],
//	  "precision_notes": [...],
//	  "counts": {"error": 3, "warning": 1, "note": 0},  // reported findings
//	  "stats": {"changed_files", "parsed_files", "typed_packages", "millis",
//	            "budget_cut",          // true: the budget ended the walk before every derived change (a precision note says what was left)
//	            "frontier_skipped",    // frontier changes not walked: the report shows no notes (the hook's text without -verbose)
//	            "cold"}                // the type tier ran out of time building what `hook warm` prepares
//	}
//
// Findings are in report order and deduplicated; findings with level
// none appear only when o.Verbose is set.
func JSON(w io.Writer, r *model.Result, o Options) error {
	return encode(w, Document(r, o))
}

// Document is the JSON report of r as a value, for a reader in the same
// process (the Action), which then needs no encoding and decoding.
func Document(r *model.Result, o Options) JSONReport {
	p := prepare(r)
	out := JSONReport{
		Version:        JSONVersion,
		Base:           p.r.Base,
		Head:           p.r.Head,
		Changes:        []JSONChange{},
		Findings:       []JSONFinding{},
		Diagnostics:    []JSONDiagnostic{},
		PrecisionNotes: nonNil(p.r.PrecisionNotes),
		Stats: JSONStats{
			ChangedFiles:    p.r.Stats.ChangedFiles,
			ParsedFiles:     p.r.Stats.ParsedFiles,
			TypedPackages:   p.r.Stats.TypedPackages,
			Millis:          p.r.Stats.Millis,
			BudgetCut:       p.r.Stats.BudgetCut,
			FrontierSkipped: p.r.Stats.FrontierSkipped,
			Cold:            p.r.Stats.Cold,
		},
	}
	for i, c := range p.changes {
		out.Changes = append(out.Changes, p.jsonChange(i, c))
	}

	for _, f := range p.visible(o.Verbose) {
		out.Findings = append(out.Findings, p.jsonFinding(f))
	}
	for _, f := range p.findings {
		switch f.Level {
		case model.LevelError:
			out.Counts.Error++
		case model.LevelWarning:
			out.Counts.Warning++
		case model.LevelNote:
			out.Counts.Note++
		}
	}
	for _, d := range p.r.Diagnostics {
		out.Diagnostics = append(out.Diagnostics, JSONDiagnostic{Path: d.Path, Line: d.Line, Message: d.Message})
	}
	return out
}

// jsonChange is change c, the i-th of the report, as JSON: its seed's
// display and side, and its cause and merge by id.
func (p *prepared) jsonChange(i int, c *model.Change) JSONChange {
	b, base := seed(c)
	jc := JSONChange{
		ID:      i,
		Label:   string(c.Label),
		Summary: summary(c),
		Old:     jsonBlockOf(c.Old),
		New:     jsonBlockOf(c.New),
		Details: nonNil(c.Details),
		Escapes: nonNil(c.Escapes),
		Derived: c.Derived,
	}
	if b != nil {
		jc.Display, jc.Path, jc.Line = b.Display, b.Path, b.NameLine
		jc.Side = "head"
		if base {
			jc.Side = "base"
		}
	}
	if c.Cause != nil {
		if id, ok := p.index[c.Cause]; ok {
			jc.Cause = &id
		}
	}
	if c.Merged != nil {
		jc.Merged = &JSONMerged{Ref: c.Merged.Ref, Commit: c.Merged.Commit, Theirs: c.Merged.Theirs}
		jc.Rev = c.Merged.Rev
		if b != nil && jc.Rev == "" {
			jc.Side = "head" // an old block the merge check saw is the head's
		}
	}
	if bp := c.Bump; bp != nil {
		jc.Bump = &JSONBump{Module: bp.Module, NewModule: bp.NewModule, From: bp.From, To: bp.To, Manifest: bp.Manifest, Line: bp.Line}
	}
	return jc
}

// jsonFinding is finding f as JSON, with its change by id, its trail and
// the other sites it stands for.
func (p *prepared) jsonFinding(f *model.Finding) JSONFinding {
	jf := JSONFinding{
		Rule:        f.Rule(),
		Relation:    string(f.Relation),
		Level:       string(f.Level),
		Verdict:     f.Verdict.String(),
		Precision:   string(f.Precision),
		Message:     f.Message,
		Path:        f.Site.Path,
		Line:        f.Site.Line,
		Col:         f.Site.Col,
		Enclosing:   f.Site.Enclosing,
		Text:        trimmed(f.Site),
		Trail:       []JSONStep{},
		Missing:     f.Missing,
		Also:        []JSONSite{},
		Updated:     f.Updated,
		Fingerprint: p.fp[f],
		Fix:         jsonFixOf(f),
		Rev:         f.Site.Rev,
	}
	if f.Merged != nil {
		jf.Merged = &JSONMerged{Ref: f.Merged.Ref, Commit: f.Merged.Commit}
	}
	if jf.Level == "" {
		jf.Level = string(model.LevelNone)
	}
	if id := p.changeID(f); id < len(p.changes) {
		jf.Change = &id
	}
	for _, s := range f.Trail {
		jf.Trail = append(jf.Trail, JSONStep{string(s.Relation), s.Display, s.Path, s.Line, s.Rev})
	}
	for _, s := range f.Also {
		jf.Also = append(jf.Also, JSONSite{s.Path, s.Line, s.Col, s.Enclosing, trimmed(s), s.Rev})
	}
	return jf
}

// encode writes v as JSON indented by two spaces, without escaping <, >
// and & (the output is not embedded in HTML).
func encode(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// The types below are the JSON format (version JSONVersion): JSON
// writes them and every reader decodes them (the Action's
// internal/action/findings reads what the hook writes, across the
// two-phase handoff too), so that the writer and the readers cannot
// drift apart. A field's meaning is documented on JSON.

// JSONReport is the whole document.
type JSONReport struct {
	Version        int              `json:"version"`
	Base           string           `json:"base"`
	Head           string           `json:"head"`
	Changes        []JSONChange     `json:"changes"`
	Findings       []JSONFinding    `json:"findings"`
	Diagnostics    []JSONDiagnostic `json:"diagnostics"`
	PrecisionNotes []string         `json:"precision_notes"`
	Counts         JSONCounts       `json:"counts"`
	Stats          JSONStats        `json:"stats"`
}

// JSONChange is one changed declaration; findings refer to it by ID,
// its index in the report's changes.
type JSONChange struct {
	ID      int    `json:"id"`
	Label   string `json:"label"`
	Summary string `json:"summary"`
	Display string `json:"display"`
	Path    string `json:"path"`
	Line    int    `json:"line"`
	// Side is "head", or "base" for a deleted declaration (Path and Line
	// then refer to the base state).
	Side    string     `json:"side"`
	Old     *JSONBlock `json:"old"`
	New     *JSONBlock `json:"new"`
	Details []string   `json:"details"`
	Escapes []string   `json:"escapes"`
	Derived bool       `json:"derived"`
	// Cause is the ID of the change a derived change follows, or nil.
	Cause *int `json:"cause"`
	// Merged is set on a change only the merge check saw; Rev is then
	// the commit Path and Line are in when it is not the one Side says.
	Merged *JSONMerged `json:"merged"`
	Rev    string      `json:"rev"`
	// Bump is set on a change of a dependency's declaration: Path then
	// names the dependency's file outside the repository ("module@version/
	// file.go"), and the manifest's line is the developer's change.
	Bump *JSONBump `json:"bump,omitempty"`
}

// JSONBump is a dependency's version change (model.Bump).
type JSONBump struct {
	Module    string `json:"module"`
	NewModule string `json:"new_module,omitempty"`
	From      string `json:"from"`
	To        string `json:"to"`
	Manifest  string `json:"manifest"`
	Line      int    `json:"line"`
}

// JSONMerged names the branch the merge check merged the head with: Ref
// as named, Commit its tip; on a change, Theirs says that branch made it.
type JSONMerged struct {
	Ref    string `json:"ref"`
	Commit string `json:"commit"`
	Theirs bool   `json:"theirs,omitempty"`
}

// JSONBlock is a declaration in one state.
type JSONBlock struct {
	Display string `json:"display"`
	Path    string `json:"path"`
	Line    int    `json:"line"`
}

func jsonBlockOf(b *model.Block) *JSONBlock {
	if b == nil {
		return nil
	}
	return &JSONBlock{b.Display, b.Path, b.NameLine}
}

// JSONFinding is one site: a reported finding (level error, warning or
// note), or with Options.Verbose an unreported one (level none).
type JSONFinding struct {
	Change    *int   `json:"change"`
	Rule      string `json:"rule"`
	Relation  string `json:"relation"`
	Level     string `json:"level"`
	Verdict   string `json:"verdict"`
	Precision string `json:"precision"`
	Message   string `json:"message"`
	Path      string `json:"path"`
	Line      int    `json:"line"`
	Col       int    `json:"col"`
	Enclosing string `json:"enclosing"`
	Text      string `json:"text"`
	// Trail is the relation path from the change to the site.
	Trail []JSONStep `json:"trail"`
	// Missing says what the verdict was established without; Also lists
	// the other sites of an aggregated finding (one reason, many sites).
	Missing     string     `json:"missing"`
	Also        []JSONSite `json:"also"`
	Updated     bool       `json:"updated"`
	Fingerprint string     `json:"fingerprint"`
	Fix         *JSONFix   `json:"fix,omitempty"`
	// Merged is set on a finding that appears only once the head is
	// merged with Merged.Ref; Rev is the commit Path and Line are in
	// when not the head ("" for the head).
	Merged *JSONMerged `json:"merged"`
	Rev    string      `json:"rev"`
}

// JSONFix is a finding's mechanical fix: its edits, and, when they all
// fall on the site's line, that line as it reads once fixed (the form a
// review suggestion needs): Replacement replaces lines
// StartLine..EndLine of the head state, inclusive (whole lines, without
// the final newline); nil when the edits reach beyond the site's line.
type JSONFix struct {
	Description string           `json:"description"`
	Edits       []model.TextEdit `json:"edits"`
	StartLine   int              `json:"start_line,omitempty"`
	EndLine     int              `json:"end_line,omitempty"`
	Replacement *string          `json:"replacement,omitempty"`
	// Note is not part of the format (never written, never read): a
	// reader's plain-text remark on where a replacement it sets comes
	// from (the Action's fix mode: "Ripple's fix of func F, edited by the
	// model; the oracle passed on the whole fix").
	Note string `json:"-"`
}

func jsonFixOf(f *model.Finding) *JSONFix {
	if f.Fix == nil {
		return nil
	}
	jf := &JSONFix{Description: f.Fix.Description, Edits: f.Fix.Edits}
	var local []model.TextEdit
	for _, e := range f.Fix.Edits {
		if e.Path != f.Site.Path || e.StartLine != f.Site.Line || e.EndLine != f.Site.Line {
			return jf
		}
		e.StartLine, e.EndLine = 1, 1
		local = append(local, e)
	}
	if out, err := textedit.Apply([]byte(f.Site.Text), local); err == nil {
		s := string(out)
		jf.StartLine, jf.EndLine, jf.Replacement = f.Site.Line, f.Site.Line, &s
	}
	return jf
}

// JSONSite is one of the other sites of an aggregated finding.
type JSONSite struct {
	Path      string `json:"path"`
	Line      int    `json:"line"`
	Col       int    `json:"col"`
	Enclosing string `json:"enclosing"`
	Text      string `json:"text"`
	Rev       string `json:"rev"`
}

// JSONStep is one block of the relation path from the change to a site.
type JSONStep struct {
	Relation string `json:"relation"`
	Display  string `json:"display"`
	Path     string `json:"path"`
	Line     int    `json:"line"`
	Rev      string `json:"rev"`
}

// JSONDiagnostic is a problem that lowered what the check could say.
type JSONDiagnostic struct {
	Path    string `json:"path"`
	Line    int    `json:"line"`
	Message string `json:"message"`
}

// JSONCounts are the reported findings per level.
type JSONCounts struct {
	Error   int `json:"error"`
	Warning int `json:"warning"`
	Note    int `json:"note"`
}

// Total is the number of reported findings.
func (c JSONCounts) Total() int { return c.Error + c.Warning + c.Note }

// JSONStats is what the check read.
type JSONStats struct {
	ChangedFiles    int   `json:"changed_files"`
	ParsedFiles     int   `json:"parsed_files"`
	TypedPackages   int   `json:"typed_packages"`
	Millis          int64 `json:"millis"`
	BudgetCut       bool  `json:"budget_cut,omitempty"`
	FrontierSkipped int   `json:"frontier_skipped,omitempty"`
	Cold            bool  `json:"cold,omitempty"`
}
