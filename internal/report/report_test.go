package report

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/ripple-dev/ripple/internal/model"
)

func TestOrdering(t *testing.T) {
	a := &model.Change{Label: model.MMS, New: &model.Block{Display: "func A", Path: "a.go", NameLine: 1}}
	b := &model.Change{Label: model.DF, Old: &model.Block{Display: "field T.B", Path: "b.go", NameLine: 2}}
	foreign := &model.Change{Label: model.MC, New: &model.Block{Display: "type F", Path: "f.go", NameLine: 3}}
	f := func(c *model.Change, rel model.Relation, path string, line, col int, msg string) *model.Finding {
		return &model.Finding{Change: c, Relation: rel, Site: model.Site{Path: path, Line: line, Col: col}, Message: msg, Level: model.LevelError}
	}
	r := &model.Result{
		Changes: []*model.Change{b, a}, // change order is the result's, not the label's
		Findings: []*model.Finding{
			f(nil, model.CalledBy, "a.go", 1, 1, "no change"),
			f(a, model.CalledBy, "z.go", 1, 1, "a z"),
			f(foreign, model.ReferencedBy, "a.go", 1, 1, "foreign"),
			f(a, model.OverriddenBy, "m.go", 5, 2, "a m5 override"),
			f(a, model.CalledBy, "m.go", 5, 2, "a m5 call"),
			f(a, model.CalledBy, "m.go", 5, 1, "a m5c1"),
			f(a, model.CalledBy, "m.go", 10, 1, "a m10"),
			f(b, model.UsedBy, "z.go", 1, 1, "b z"),
			f(a, model.CalledBy, "m.go", 4, 9, "a m4"),
		},
	}
	var got []string
	for _, f := range prepare(r).findings {
		got = append(got, f.Message)
	}
	want := []string{"b z", "a m4", "a m5c1", "a m5 call", "a m5 override", "a m10", "a z", "foreign", "no change"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("order:\n got %q\nwant %q", got, want)
	}

	var groups []string
	for _, g := range prepare(r).groups(false) {
		groups = append(groups, summary(g.change))
	}
	wantGroups := []string{"field T.B: field deleted", "func A: signature changed", "type F: type declaration changed", "findings without a change"}
	if strings.Join(groups, "|") != strings.Join(wantGroups, "|") {
		t.Errorf("groups:\n got %q\nwant %q", groups, wantGroups)
	}
}

func TestDedupe(t *testing.T) {
	a := &model.Change{Label: model.MMS, New: &model.Block{Display: "func A"}}
	a2 := &model.Change{Label: model.MMS, New: &model.Block{Display: "func A2"}}
	s := model.Site{Path: "x.go", Line: 3, Col: 4, Text: "A()"}
	mk := func(c *model.Change, lvl model.Level, msg string) *model.Finding {
		return &model.Finding{Change: c, Relation: model.CalledBy, Site: s, Level: lvl, Message: msg}
	}
	r := &model.Result{
		Changes: []*model.Change{a, a2},
		Findings: []*model.Finding{
			mk(a, model.LevelWarning, "m"),
			mk(a2, model.LevelError, "m"), // same key, other change, more severe: kept
			mk(a, model.LevelNone, "m"),
			mk(a, model.LevelError, "other message"), // different message: kept
		},
	}
	got := prepare(r).findings
	if len(got) != 2 {
		t.Fatalf("got %d findings, want 2", len(got))
	}
	if got[0].Message != "other message" || got[1].Change != a2 || got[1].Level != model.LevelError {
		t.Errorf("kept the wrong findings: %+v, %+v", got[0], got[1])
	}
}

func TestCodePointColumn(t *testing.T) {
	for _, tc := range []struct {
		line    string
		col     int
		want    int
		wantOK  bool
		comment string
	}{
		{"abc", 1, 1, true, "first column"},
		{"abc", 3, 3, true, "ASCII unchanged"},
		{"abc", 4, 4, true, "just past the end"},
		{"abc", 5, 0, false, "beyond the line"},
		{"abc", 0, 0, false, "unknown column"},
		{"", 3, 0, false, "no text"},
		{"\tx", 2, 2, true, "tab is one code point"},
		{"größe(x)", 8, 6, true, "after two 2-byte letters"},
		{"a → b", 7, 5, true, "after a 3-byte arrow"},
		{"a → b", 4, 3, true, "inside the arrow: its start"},
		{"a → b", 5, 3, true, "inside the arrow, last byte"},
		{"😀x", 5, 2, true, "after a 4-byte emoji"},
		{"\xffx", 2, 2, true, "invalid byte counts as one"},
	} {
		got, ok := codePointColumn(tc.line, tc.col)
		if got != tc.want || ok != tc.wantOK {
			t.Errorf("%s: codePointColumn(%q, %d) = %d, %v; want %d, %v", tc.comment, tc.line, tc.col, got, ok, tc.want, tc.wantOK)
		}
	}
}

func TestURIPath(t *testing.T) {
	for in, want := range map[string]string{
		"a/b.go":                   "a/b.go",
		"tools/my dir/run tool.go": "tools/my%20dir/run%20tool.go",
		"./a/b.go":                 "a/b.go",
		"pkg/größe.go":             "pkg/gr%C3%B6%C3%9Fe.go",
		"c:x/y.go":                 "c%3Ax/y.go",
		"a/100%.go":                "a/100%25.go",
		"a/b#c?.go":                "a/b%23c%3F.go",
		"a/x+y@z.go":               "a/x+y@z.go",
	} {
		if got := uriPath(in); got != want {
			t.Errorf("uriPath(%q) = %q, want %q", in, got, want)
		}
	}
	for in, want := range map[string]string{
		"/work/main":    "file:///work/main/",
		"/work/main/":   "file:///work/main/",
		"/src/my repo":  "file:///src/my%20repo/",
		"/src/100%done": "file:///src/100%25done/",
	} {
		if got := rootURI(in); got != want {
			t.Errorf("rootURI(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestTruncate(t *testing.T) {
	if got := truncate("abcdef", 6); got != "abcdef" {
		t.Errorf("truncate fit = %q", got)
	}
	if got := truncate("abcdefg", 6); got != "abcde…" {
		t.Errorf("truncate ASCII = %q", got)
	}
	if got := truncate("ääääää→", 4); got != "äää…" {
		t.Errorf("truncate non-ASCII = %q", got)
	}
}

func TestHeadline(t *testing.T) {
	errs := mixedResult()
	for _, tc := range []struct {
		r       *model.Result
		blocked bool
		want    string
	}{
		// 4 changes checked, 2 of them with inconsistent sites: the totals
		// line of Text says "(4 changes checked, ...)"
		{errs, true, "ripple: 6 inconsistent sites in 2 of 4 changes, 1 more may be impacted; push blocked"},
		{errs, false, "ripple: 6 inconsistent sites in 2 of 4 changes, 1 more may be impacted"},
		{warningsResult(), false, "ripple: 2 sites may be impacted in 1 change, 1 more may have to follow"}, // a may-be-impacted site reported as a note is noted
		{derivedResult(), true, "ripple: 2 inconsistent sites in 1 of 2 changes, 1 more may be impacted; push blocked"},
		// the notes of the farther frontier are never called impacted: the
		// totals line says "2 noted", the headline that they may follow
		{frontierResult(), true, "ripple: 1 inconsistent site in 1 change, 2 more may have to follow; push blocked"},
		{notesOnly(frontierResult()), false, "ripple: 2 sites may have to follow in 1 change"},
		{withNote(warningsResult()), false, "ripple: 2 sites may be impacted in 1 change, 2 more may have to follow"},
		{orphanCauseResult(), true, "ripple: 1 inconsistent site in 1 change; push blocked"},
		{cleanResult(), false, "ripple: no inconsistent sites (2 changes checked)"}, // the derived change is not the developer's
		{nil, false, "ripple: no inconsistent sites (0 changes checked)"},
		{&model.Result{
			Changes:  []*model.Change{{Label: model.DM, Old: &model.Block{Display: "func F"}}},
			Findings: []*model.Finding{{Relation: model.CalledBy, Level: model.LevelError, Verdict: model.Inconsistent, Site: model.Site{Path: "a.go", Line: 1}}},
		}, true, "ripple: 1 inconsistent site; push blocked"}, // a site of no change counts no change
	} {
		if got := Headline(tc.r, tc.blocked); got != tc.want {
			t.Errorf("Headline = %q, want %q", got, tc.want)
		}
	}
}

// notesOnly keeps r's findings of the farther frontier (verdict
// MayFollow) only.
func notesOnly(r *model.Result) *model.Result {
	var fs []*model.Finding
	for _, f := range r.Findings {
		if f.Verdict == model.MayFollow {
			fs = append(fs, f)
		}
	}
	r.Findings = fs
	return r
}

// withNote adds to r a note of the farther frontier at r's first change.
func withNote(r *model.Result) *model.Result {
	r.Findings = append(r.Findings, &model.Finding{Change: r.Changes[0], Relation: model.CalledBy, Verdict: model.MayFollow, Level: model.LevelNote,
		Site: model.Site{Path: "z.go", Line: 9}, Message: "calls a function that must change"})
	return r
}

// derivedResult: the developer changed Sum and Timeout; Sum's wrapper
// Total must follow (a derived change) and has an inconsistent caller
// too, and Sum a caller that may be impacted. Sum is 1 change of 2,
// whatever blocks the text shows.
func derivedResult() *model.Result {
	sum := &model.Change{Label: model.MMS, New: &model.Block{Display: "func Sum", Path: "m/sum.go", NameLine: 3}}
	timeout := &model.Change{Label: model.AF, New: &model.Block{Display: "field Config.Timeout", Path: "c/c.go", NameLine: 5}}
	total := &model.Change{Label: model.MMS, New: &model.Block{Display: "func Total", Path: "m/total.go", NameLine: 4}, Derived: true, Cause: sum, Via: model.CalledBy}
	return &model.Result{
		Changes: []*model.Change{sum, timeout, total},
		Findings: []*model.Finding{
			{Change: sum, Relation: model.CalledBy, Verdict: model.Inconsistent, Level: model.LevelError, Site: model.Site{Path: "a.go", Line: 1}},
			{Change: sum, Relation: model.CalledBy, Verdict: model.MayBeImpacted, Level: model.LevelWarning, Site: model.Site{Path: "a.go", Line: 2}},
			{Change: total, Relation: model.CalledBy, Verdict: model.Inconsistent, Level: model.LevelError, Site: model.Site{Path: "b.go", Line: 1}},
		},
	}
}

// orphanCauseResult lists a derived change but not its cause (as a
// merge of ranges could): the cause is still the one change checked.
func orphanCauseResult() *model.Result {
	sum := &model.Change{Label: model.MMS, New: &model.Block{Display: "func Sum", Path: "m/sum.go", NameLine: 3}}
	total := &model.Change{Label: model.MMS, New: &model.Block{Display: "func Total", Path: "m/total.go", NameLine: 4}, Derived: true, Cause: sum, Via: model.CalledBy}
	return &model.Result{
		Changes: []*model.Change{total},
		Findings: []*model.Finding{
			{Change: total, Relation: model.CalledBy, Verdict: model.Inconsistent, Level: model.LevelError, Site: model.Site{Path: "b.go", Line: 1}},
		},
	}
}

// TestTotalsCountAsHeadline: the totals line of Text counts the changes
// checked that the headline's "of N" counts.
func TestTotalsCountAsHeadline(t *testing.T) {
	for _, tc := range []struct {
		r    *model.Result
		want string
	}{
		{mixedResult(), "(4 changes checked"},
		{derivedResult(), "(2 changes checked"},
		{orphanCauseResult(), "(1 change checked"},
	} {
		var buf bytes.Buffer
		if err := Text(&buf, tc.r, Options{}); err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(strings.TrimSpace(buf.String()), "\n")
		if last := lines[len(lines)-1]; !strings.Contains(last, tc.want) {
			t.Errorf("totals line %q does not contain %q", last, tc.want)
		}
	}
}

func TestWriteUnknownFormat(t *testing.T) {
	err := Write(&bytes.Buffer{}, "xml", mixedResult(), Options{})
	if err == nil || !strings.Contains(err.Error(), "text, json, sarif") {
		t.Errorf("Write(xml) error = %v, want one listing the formats", err)
	}
	if err := Write(&bytes.Buffer{}, " SARIF ", mixedResult(), Options{}); err != nil {
		t.Errorf("Write(SARIF) = %v", err)
	}
}

func TestColor(t *testing.T) {
	var plain, color bytes.Buffer
	if err := Text(&plain, mixedResult(), Options{}); err != nil {
		t.Fatal(err)
	}
	if err := Text(&color, mixedResult(), Options{Color: true}); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(plain.String(), "\x1b") {
		t.Error("plain text contains escape sequences")
	}
	for _, want := range []string{ansiRed + "error:" + ansiReset, ansiYellow + "warning:" + ansiReset, ansiBold + "cmd/get/main.go:17" + ansiReset} {
		if !strings.Contains(color.String(), want) {
			t.Errorf("coloured text lacks %q", want)
		}
	}
	// Without the escapes, coloured output is the plain output.
	stripped := color.String()
	for _, code := range []string{ansiReset, ansiBold, ansiRed, ansiGreen, ansiYellow, ansiCyan, ansiDim} {
		stripped = strings.ReplaceAll(stripped, code, "")
	}
	if stripped != plain.String() {
		t.Errorf("coloured text differs from plain text beyond colours:\n%s", lineDiff(plain.String(), stripped))
	}
}

func TestFingerprint(t *testing.T) {
	c := &model.Change{Label: model.MMS, New: &model.Block{Display: "func F"}}
	f := &model.Finding{Change: c, Relation: model.CalledBy, Level: model.LevelError,
		Site: model.Site{Path: "a.go", Line: 10, Col: 2, Enclosing: "func g", Text: "\tF(x)"}}
	moved := *f
	moved.Site.Line, moved.Site.Text = 25, "    F(x)  "
	if fingerprint(f, 1) != fingerprint(&moved, 1) {
		t.Error("fingerprint changes when the line moves or is re-indented")
	}
	edited := *f
	edited.Site.Text = "\tF(x, y)"
	if fingerprint(f, 1) == fingerprint(&edited, 1) {
		t.Error("fingerprint ignores the source text")
	}
	twin := moved
	fps := fingerprints([]*model.Finding{f, &twin})
	if fps[f] == fps[&twin] || fps[f] != fingerprint(f, 1) {
		t.Error("identical findings in one run must get distinct fingerprints, the first unchanged")
	}
	if len(fps[f]) != 64 {
		t.Errorf("fingerprint %q is not hex SHA-256", fps[f])
	}
}

func TestEmptyResults(t *testing.T) {
	for _, r := range []*model.Result{nil, {}} {
		for _, format := range Formats {
			var buf bytes.Buffer
			if err := Write(&buf, format, r, Options{Verbose: true}); err != nil {
				t.Errorf("%s of empty result: %v", format, err)
			}
			if format != "text" && !json.Valid(buf.Bytes()) {
				t.Errorf("%s of empty result is not JSON:\n%s", format, buf.String())
			}
		}
	}
	var buf bytes.Buffer
	Text(&buf, nil, Options{})
	if got, want := buf.String(), "ripple: no inconsistent sites (0 changes checked)\n"; got != want {
		t.Errorf("text of empty result = %q, want %q", got, want)
	}
}

func TestJSONVerbose(t *testing.T) {
	count := func(verbose bool) (levels map[string]int) {
		var buf bytes.Buffer
		if err := JSON(&buf, mixedResult(), Options{Verbose: verbose}); err != nil {
			t.Fatal(err)
		}
		var out struct {
			Version  int
			Findings []struct{ Level, Verdict string }
			Counts   map[string]int
		}
		if err := json.Unmarshal(buf.Bytes(), &out); err != nil {
			t.Fatal(err)
		}
		if out.Version != 1 {
			t.Errorf("version = %d", out.Version)
		}
		if out.Counts["error"] != 6 || out.Counts["warning"] != 1 || out.Counts["note"] != 0 {
			t.Errorf("counts = %v", out.Counts)
		}
		levels = map[string]int{}
		for _, f := range out.Findings {
			levels[f.Level]++
			if (f.Level == "none") != (f.Verdict == "consistent") {
				t.Errorf("finding level %s verdict %s", f.Level, f.Verdict)
			}
		}
		return levels
	}
	if got := count(false); got["none"] != 0 || got["error"] != 6 || got["warning"] != 1 {
		t.Errorf("plain JSON levels = %v", got)
	}
	if got := count(true); got["none"] != 3 || got["error"] != 6 || got["warning"] != 1 {
		t.Errorf("verbose JSON levels = %v", got)
	}
}

// TestTextNoLeadingEmptyLine: a report without a block to show (no
// findings, or only the hidden notes of the farther frontier) starts
// with its first line, not with the empty line that separates blocks
// from the notes and totals.
func TestTextNoLeadingEmptyLine(t *testing.T) {
	clean := cleanResult()
	clean.PrecisionNotes = []string{"checked: 2 commits"}
	clean.Diagnostics = []model.Diagnostic{{Path: "a.py", Message: "not parsed"}}
	for name, r := range map[string]*model.Result{"clean": clean, "notes only": notesOnly(frontierResult()), "empty": {PrecisionNotes: []string{"checked: 1 commit"}}} {
		var b strings.Builder
		if err := Text(&b, r, Options{}); err != nil {
			t.Fatal(err)
		}
		if out := b.String(); strings.HasPrefix(out, "\n") || strings.Contains(out, "\n\n") {
			t.Errorf("%s: empty line in a report without blocks:\n%q", name, out)
		}
	}
}
