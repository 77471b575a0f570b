package fix

import (
	"fmt"
	"sort"
	"strings"

	"github.com/ripple-dev/ripple/internal/model"
	"github.com/ripple-dev/ripple/internal/oracle"
)

// Status is where an obligation stands.
type Status string

const (
	Pending   Status = "pending"
	Done      Status = "done"      // edited
	Unchanged Status = "unchanged" // reviewed, no edit needed
	Failed    Status = "failed"    // no acceptable edit within the budget
	Skipped   Status = "skipped"   // not editable (a seed block, file scope)
)

// Reason is one thing an obligation's edit must make true.
type Reason struct {
	Message  string             `json:"message"`
	Line     int                `json:"line"`
	Relation model.Relation     `json:"relation,omitempty"`
	Change   *model.Change      `json:"-"`
	Fix      *model.Fix         `json:"-"`
	Oracle   *oracle.Diagnostic `json:"oracle,omitempty"`
	Must     bool               `json:"must"` // inconsistent, or an oracle error (else: review)
	// Trail is the relation path of the finding behind the reason: the
	// change first (the developer's, or an edit of the engine's), the
	// obligation's block last.
	Trail []model.Step `json:"trail,omitempty"`
}

// FileScope is the Block of an obligation on code outside any
// declaration (a module's top-level statements, as the relation trails
// call it) that mechanical fixes edit: its Span runs from the first to
// the last line its reasons are about. Code there that needs the model
// is planned per top-level statement (lang.TopLevel), as a block named
// StatementBlock(name).
const FileScope = "file scope"

// StatementBlock is the Block of an obligation on one top-level
// statement that the model edits: "file scope: " and the statement's
// name (lang.TopLevel.Statement).
func StatementBlock(name string) string { return FileScope + ": " + name }

// AtFileScope reports whether a Block is code outside any declaration:
// FileScope, or a top-level statement's block.
func AtFileScope(block string) bool {
	return block == FileScope || strings.HasPrefix(block, FileScope+": ")
}

// statementFinder gives the top-level statement holding a line of a
// file of the state being planned (lang.TopLevel): its span and name.
type statementFinder func(path string, line int) (model.Span, string, bool)

// Obligation is a node of the plan graph: a block to edit and why.
type Obligation struct {
	ID    int    `json:"id"`
	Path  string `json:"path"`
	Block string `json:"block"` // the declaration, as the analyzer names it
	// Declare is the name a new declaration must bind ("F", "T.M"), for
	// an obligation to declare what the code uses and nobody declares;
	// Block is then "new " + Declare and Span is empty.
	Declare string     `json:"declare,omitempty"`
	Span    model.Span `json:"span"` // its lines in the state the reasons refer to
	Reasons []Reason   `json:"reasons"`
	// Parent is the obligation whose edit made this one necessary (nil
	// for the seed's direct dependents): the temporal context.
	Parent   *Obligation `json:"-"`
	ParentID int         `json:"parent,omitempty"`
	Round    int         `json:"round"`
	Status   Status      `json:"status"`
	Method   string      `json:"method,omitempty"` // "mechanical" or "model"
	Diff     string      `json:"diff,omitempty"`
	In       int         `json:"tokens_in,omitempty"`
	Out      int         `json:"tokens_out,omitempty"`
	Note     string      `json:"note,omitempty"`
	// batched is the model's answer for the block in a batched review
	// of its file, until the block is merged
	batched *batchAnswer
}

// Blocks is the plan by block, for reports: one obligation per block,
// in the order blocks were first planned. A block the oracle sent back
// to be planned again has an obligation per round in Obligations; here
// it appears once, as it ended (the status, method, note and diff of
// its last attempt), with the reasons of every round (an oracle error
// that repeats an earlier reason is not repeated), the first trail, and
// the tokens of all rounds. The obligations are copies.
func (r *Result) Blocks() []*Obligation {
	idx := map[string]int{}
	var out []*Obligation
	for _, ob := range r.Obligations {
		i, seen := idx[ob.key()]
		if !seen {
			c := *ob
			c.Reasons = append([]Reason(nil), ob.Reasons...)
			idx[ob.key()] = len(out)
			out = append(out, &c)
			continue
		}
		m := out[i]
		merged := *m
		if ob.Status != Pending || m.Status == Pending {
			merged = *ob // the later attempt's outcome
			merged.ID, merged.Round = m.ID, m.Round
			if merged.Parent == nil {
				merged.Parent, merged.ParentID = m.Parent, m.ParentID
			}
		}
		merged.In, merged.Out = m.In+ob.In, m.Out+ob.Out
		merged.Reasons = m.Reasons
		for _, re := range ob.Reasons {
			if !hasReason(merged.Reasons, re) {
				merged.Reasons = append(merged.Reasons, re)
			}
		}
		*m = merged
	}
	return out
}

// hasReason reports whether rs says what r says: the same message, or
// the oracle's diagnostic whose message a reason already gives.
func hasReason(rs []Reason, r Reason) bool {
	for _, x := range rs {
		if x.Message == r.Message || r.Oracle != nil && x.Message == r.Oracle.Message {
			return true
		}
	}
	return false
}

// Must reports whether the obligation has a reason that must be fixed.
func (o *Obligation) Must() bool {
	for _, r := range o.Reasons {
		if r.Must {
			return true
		}
	}
	return false
}

// Cause is the change behind the obligation's first reason.
func (o *Obligation) Cause() *model.Change {
	for _, r := range o.Reasons {
		if r.Change != nil {
			return r.Change
		}
	}
	return nil
}

func (o *Obligation) key() string { return o.Path + "\x00" + o.Block }

// Trail is the relation path from the developer's change to the
// obligation's block: the path of its parent (the edit of the engine's
// that made it necessary) continued by its first reason's trail, whose
// first step is that parent's block. An obligation from an oracle
// diagnostic has no relation: its trail is its parent's.
func (o *Obligation) Trail() []model.Step {
	var own []model.Step
	for _, r := range o.Reasons {
		if len(r.Trail) > 0 {
			own = r.Trail
			break
		}
	}
	if o.Parent == nil {
		return own
	}
	up := o.Parent.Trail()
	if len(own) > 1 {
		return append(append([]model.Step(nil), up...), own[1:]...)
	}
	return up
}

// blockKey identifies a block across states.
func blockKey(path, block string) string { return path + "\x00" + block }

// obligationsFrom groups a check's findings into obligations, one per
// enclosing block. Findings at file scope (an import line) and in seed
// blocks are not planned; may-be-impacted and frontier findings
// (warnings and notes, CodePlan's may-impact blocks) are planned only
// when review is set: a model judges them and may keep the block as it
// is.
func obligationsFrom(res *model.Result, seeds map[string]bool, review bool, stmt statementFinder) (obs []*Obligation, skipped []*model.Finding) {
	byKey := map[string]*Obligation{}
	for _, f := range res.Findings {
		must := f.Level == model.LevelError
		if !must && !(review && (f.Level == model.LevelWarning || f.Level == model.LevelNote)) {
			continue
		}
		block, span := f.Site.Enclosing, f.Site.EnclosingSpan
		outside := block == ""
		if outside && f.Fix == nil && stmt != nil {
			// top-level code only the model can fix: the statement
			// holding it is the block
			if sp, name, ok := stmt(f.Site.Path, f.Site.Line); ok {
				block, span, outside = StatementBlock(name), sp, false
			}
		}
		if outside || span.StartLine == 0 {
			if f.Fix == nil {
				skipped = append(skipped, f)
				continue
			}
		}
		if outside {
			// code outside any declaration (a module's top-level
			// statements): its lines are those of its findings
			block, span = FileScope, model.Span{StartLine: f.Site.Line, EndLine: f.Site.Line}
		}
		k := blockKey(f.Site.Path, block)
		if seeds[k] {
			skipped = append(skipped, f)
			continue
		}
		o := byKey[k]
		if o == nil {
			o = &Obligation{Path: f.Site.Path, Block: block, Span: span, Status: Pending}
			byKey[k] = o
			obs = append(obs, o)
		} else if outside {
			o.Span.StartLine = min(o.Span.StartLine, span.StartLine)
			o.Span.EndLine = max(o.Span.EndLine, span.EndLine)
		}
		o.Reasons = append(o.Reasons, Reason{
			Message: f.Message, Line: f.Site.Line, Relation: f.Relation, Change: f.Change, Fix: f.Fix, Must: must, Trail: f.Trail,
		})
	}
	order(obs)
	return obs, skipped
}

// order puts callees first: blocks that a derived change names (a
// wrapper that must change its own signature) before the rest, then by
// file and line.
func order(obs []*Obligation) {
	derived := func(o *Obligation) bool {
		for _, r := range o.Reasons {
			if r.Change != nil && r.Change.Derived && r.Change.Block() != nil && r.Change.Block().Display == o.Block && r.Change.Block().Path == o.Path {
				return true
			}
		}
		return false
	}
	sort.SliceStable(obs, func(i, j int) bool {
		di, dj := derived(obs[i]), derived(obs[j])
		if di != dj {
			return di
		}
		if obs[i].Path != obs[j].Path {
			return obs[i].Path < obs[j].Path
		}
		return obs[i].Span.StartLine < obs[j].Span.StartLine
	})
}

// progress is the first line of Describe, what the log says as a block
// the model edits ends: the reasons and the path are the plan's, which
// the caller prints once at the end.
func (o *Obligation) progress() string {
	s, _, _ := strings.Cut(o.Describe(), "\n")
	return s
}

// Describe is a one-line account of an obligation for reports.
func (o *Obligation) Describe() string {
	var why []string
	for _, r := range o.Reasons {
		why = append(why, r.Message)
	}
	s := fmt.Sprintf("%s (%s:%d): %s", o.Block, o.Path, o.Span.StartLine, o.Status)
	switch {
	case o.Block == FileScope && o.Span.EndLine > o.Span.StartLine:
		s = fmt.Sprintf("%s of %s (lines %d-%d): %s", o.Block, o.Path, o.Span.StartLine, o.Span.EndLine, o.Status)
	case o.Block == FileScope:
		s = fmt.Sprintf("%s of %s (line %d): %s", o.Block, o.Path, o.Span.StartLine, o.Status)
	}
	if o.Declare != "" {
		s = fmt.Sprintf("%s (at the end of %s): %s", o.Block, o.Path, o.Status)
	}
	if o.Method != "" {
		s += " by " + o.Method
	}
	if o.In+o.Out > 0 {
		s += fmt.Sprintf(", %d tokens in, %d out", o.In, o.Out)
	}
	if o.Note != "" {
		s += ": " + o.Note
	}
	if len(why) > 0 {
		s += "\n    because " + strings.Join(why, "\n    and ")
	}
	if tr := o.Trail(); len(tr) > 1 {
		s += "\n    path: " + model.TrailText(tr)
	}
	return s
}
