package findings

import (
	"bytes"
	"encoding/json"
	"reflect"
	"testing"

	"github.com/ripple-dev/ripple/internal/model"
	"github.com/ripple-dev/ripple/internal/report"
)

// richResult is Result with every part of the format in use: a derived
// change and its cause, a deleted declaration, findings at every level
// (a note, and a consistent one the verbose report alone writes), an
// aggregate, what a verdict was established without, one-line and
// multi-line fixes, diagnostics, precision notes and stats.
func richResult() *model.Result {
	res := Result()
	seed := res.Changes[0]
	wrap := &model.Change{Label: model.MMS, Details: []string{"must follow func Sum"}, Derived: true, Cause: seed, Via: model.CalledBy,
		New: &model.Block{Display: "func Wrap", Path: "w/w.go", NameLine: 4}, Escapes: []string{"returned"}}
	res.Changes = append(res.Changes, wrap)
	f := res.Findings[0]
	f.Missing = "types"
	f.Also = []model.Site{{Path: "q/t.go", Line: 8, Col: 2, Enclosing: "func T", Text: "\tp.Sum(3, 4)"}}
	f.Fix = &model.Fix{Description: "add c", Edits: []model.TextEdit{{Path: f.Site.Path, StartLine: f.Site.Line, EndLine: f.Site.Line, StartCol: 19, EndCol: 19, NewText: ", 0"}}}
	res.Findings = append(res.Findings,
		&model.Finding{Change: wrap, Relation: model.CalledBy, Verdict: model.MayBeImpacted, Level: model.LevelNote, Precision: model.PrecisionSyntax,
			Message: "may have to take c", Site: model.Site{Path: "x/x.go", Line: 12, Col: 9, Enclosing: "func X", Text: "return w.Wrap(1)"},
			Trail: []model.Step{{Display: "func Sum", Path: "p/p.go", Line: 3}, {Relation: model.CalledBy, Display: "func Wrap", Path: "w/w.go", Line: 4}},
			Fix:   &model.Fix{Description: "spans lines", Edits: []model.TextEdit{{Path: "x/x.go", StartLine: 12, EndLine: 13, StartCol: 1, EndCol: 1, NewText: "y"}}}},
		&model.Finding{Relation: model.CalledBy, Verdict: model.Inconsistent, Level: model.LevelError, Precision: model.PrecisionName,
			Message: "a site of no change", Site: model.Site{Path: "z.go", Line: 1, Text: "z"}})
	res.Diagnostics = []model.Diagnostic{{Path: "x.go", Line: 1, Message: "does not parse"}, {Message: "budget spent"}}
	res.PrecisionNotes = []string{"no types for package r"}
	res.Stats = model.Stats{ChangedFiles: 2, ParsedFiles: 9, TypedPackages: 1, Millis: 42}
	return res
}

func writeJSON(t *testing.T, res *model.Result, verbose bool) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := report.JSON(&buf, res, report.Options{Verbose: verbose}); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// TestRoundTrip: what the hook writes (report.JSON) the action reads
// (ReadJSON) with nothing lost: written again with report.JSON's
// encoding, the report the action read is the same bytes. The action
// reads the hook's JSON across a process boundary (the fork-safe
// two-phase run), through the one type set report defines.
func TestRoundTrip(t *testing.T) {
	written := writeJSON(t, richResult(), false)
	rep, err := ReadJSON(bytes.NewReader(written))
	if err != nil {
		t.Fatal(err)
	}
	var again bytes.Buffer
	enc := json.NewEncoder(&again)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(report.JSONReport(*rep)); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(again.Bytes(), written) {
		t.Errorf("the report read and written again differs from what report.JSON wrote:\n--- written\n%s\n--- read\n%s", written, again.Bytes())
	}

	// what the comparison covers is really there
	levels := map[string]int{}
	var also, missing, trail, oneLine, multiLine, noChange bool
	for _, f := range rep.Findings {
		levels[f.Level]++
		also = also || len(f.Also) == 1 && f.Also[0] == (Site{Path: "q/t.go", Line: 8, Col: 2, Enclosing: "func T", Text: "p.Sum(3, 4)"})
		missing = missing || f.Missing == "types"
		trail = trail || len(f.Trail) == 2 && f.Trail[1] == (Step{Relation: "CalledBy", Display: "func Wrap", Path: "w/w.go", Line: 4})
		if fx := f.Fix; fx != nil {
			oneLine = oneLine || fx.Replacement != nil && *fx.Replacement == "\treturn p.Sum(1, 2, 0)" && fx.StartLine == 6 && fx.EndLine == 6
			multiLine = multiLine || fx.Replacement == nil && fx.Description == "spans lines" && len(fx.Edits) == 1
		}
		noChange = noChange || f.Change == nil
	}
	if !reflect.DeepEqual(levels, map[string]int{"error": 2, "warning": 1, "note": 1}) {
		t.Errorf("levels read: %v", levels)
	}
	if !also || !missing || !trail || !oneLine || !multiLine || !noChange {
		t.Errorf("read: also %v, missing %v, trail %v, one-line fix %v, multi-line fix %v, finding of no change %v; want all",
			also, missing, trail, oneLine, multiLine, noChange)
	}
	if c := rep.Changes[2]; !c.Derived || c.Cause == nil || *c.Cause != 0 || len(c.Escapes) != 1 {
		t.Errorf("derived change read as %+v", c)
	}
	if c := rep.Changes[1]; c.Side != "base" || c.Old == nil || c.New != nil {
		t.Errorf("deleted change read as %+v", c)
	}
	if rep.Counts != (Counts{Error: 2, Warning: 1, Note: 1}) || rep.Stats.Millis != 42 || len(rep.Diagnostics) != 2 || len(rep.PrecisionNotes) != 1 {
		t.Errorf("counts %+v, stats %+v, diagnostics %v, notes %v", rep.Counts, rep.Stats, rep.Diagnostics, rep.PrecisionNotes)
	}
}

// TestRoundTripVerbose: the verbose report adds findings of level none;
// the action reads the same reported findings from it, in the same
// order, and leaves those out.
func TestRoundTripVerbose(t *testing.T) {
	verbose := writeJSON(t, richResult(), true)
	var doc report.JSONReport
	if err := json.Unmarshal(verbose, &doc); err != nil {
		t.Fatal(err)
	}
	none := 0
	for _, f := range doc.Findings {
		if f.Level == string(model.LevelNone) {
			none++
		}
	}
	if none != 1 {
		t.Fatalf("the verbose report has %d findings of level none, want 1", none)
	}
	got, err := ReadJSON(bytes.NewReader(verbose))
	if err != nil {
		t.Fatal(err)
	}
	want, err := ReadJSON(bytes.NewReader(writeJSON(t, richResult(), false)))
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got.Findings, want.Findings) {
		t.Errorf("from the verbose report the action read\n%+v\nwant\n%+v", got.Findings, want.Findings)
	}
}
