package report

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/ripple-dev/ripple/internal/model"
)

// aggregated is a check whose one warning stands for three more sites
// (propagate aggregates same-reason findings) and was established
// without types.
func aggregated() *model.Result {
	ch := &model.Change{Label: model.MMS, Old: &model.Block{Display: "def load", Path: "lib.py", NameLine: 1},
		New: &model.Block{Display: "def load", Path: "lib.py", NameLine: 1}, Details: []string{"default of retries: 3 → 5"}}
	site := func(line int) model.Site {
		return model.Site{Path: "app.py", Line: line, Col: 5, Text: "    load(x)", Enclosing: "def main"}
	}
	return &model.Result{
		Changes: []*model.Change{ch},
		Findings: []*model.Finding{{
			Change: ch, Relation: model.CalledBy, Site: site(3), Verdict: model.MayBeImpacted, Level: model.LevelWarning,
			Precision: model.PrecisionSyntax, Message: "relies on the default of retries, which changed",
			Missing: "the receiver's type", Also: []model.Site{site(7), site(9), site(12)},
		}},
	}
}

// TestAggregateShown: the other sites of an aggregated finding and what
// its verdict lacked appear in every format; before, they were dropped.
func TestAggregateShown(t *testing.T) {
	var text bytes.Buffer
	if err := Text(&text, aggregated(), Options{}); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"and 3 more sites for the same reason: app.py:7, app.py:9, app.py:12", "(without the receiver's type)"} {
		if !strings.Contains(text.String(), want) {
			t.Errorf("text lacks %q:\n%s", want, text.String())
		}
	}

	var js bytes.Buffer
	if err := JSON(&js, aggregated(), Options{}); err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Findings []struct {
			Missing string `json:"missing"`
			Also    []struct {
				Path string `json:"path"`
				Line int    `json:"line"`
				Text string `json:"text"`
			} `json:"also"`
		} `json:"findings"`
	}
	if err := json.Unmarshal(js.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.Findings) != 1 || doc.Findings[0].Missing != "the receiver's type" || len(doc.Findings[0].Also) != 3 ||
		doc.Findings[0].Also[2].Line != 12 || doc.Findings[0].Also[2].Text != "load(x)" {
		t.Errorf("json findings = %+v", doc.Findings)
	}

	var sarif bytes.Buffer
	if err := SARIF(&sarif, aggregated(), Options{}); err != nil {
		t.Fatal(err)
	}
	validateSARIF(t, sarif.Bytes(), "")
	// SARIF: one result per site, each saying how many the group has
	// (a consumer shows a result at its first location only)
	var log struct {
		Runs []struct {
			Results []struct {
				Message   struct{ Text string } `json:"message"`
				Locations []struct {
					PhysicalLocation struct {
						Region struct {
							StartLine int `json:"startLine"`
						} `json:"region"`
					} `json:"physicalLocation"`
				} `json:"locations"`
				PartialFingerprints map[string]string `json:"partialFingerprints"`
				Properties          struct {
					Also    int    `json:"also"`
					Missing string `json:"missing"`
				} `json:"properties"`
			} `json:"results"`
		} `json:"runs"`
	}
	if err := json.Unmarshal(sarif.Bytes(), &log); err != nil {
		t.Fatal(err)
	}
	rs := log.Runs[0].Results
	if len(rs) != 4 {
		t.Fatalf("sarif results = %d, want one per site (4)", len(rs))
	}
	fps := map[string]bool{}
	for i, r := range rs {
		if line := r.Locations[0].PhysicalLocation.Region.StartLine; line != []int{3, 7, 9, 12}[i] {
			t.Errorf("result %d at line %d", i, line)
		}
		if r.Properties.Also != 3 || r.Properties.Missing == "" || !strings.Contains(r.Message.Text, "one of 4 sites for the same reason") {
			t.Errorf("sarif result %d = %+v", i, r)
		}
		fps[r.PartialFingerprints[fingerprintKey]] = true
	}
	if len(fps) != 4 {
		t.Errorf("fingerprints not distinct: %v", fps)
	}
}
