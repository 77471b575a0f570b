package report

import (
	"testing"

	"github.com/ripple-dev/ripple/internal/model"
)

func TestJSONFix(t *testing.T) {
	site := model.Site{Path: "q/q.go", Line: 5, Col: 27, Text: "func Use() int { return p.Old(1) + p.Old(2) }"}
	f := &model.Finding{Site: site, Fix: &model.Fix{Description: "rename Old to New", Edits: []model.TextEdit{
		{Path: "q/q.go", StartLine: 5, StartCol: 27, EndLine: 5, EndCol: 30, NewText: "New"},
	}}}
	jf := jsonFixOf(f)
	if jf == nil || jf.Replacement == nil || *jf.Replacement != "func Use() int { return p.New(1) + p.Old(2) }" || jf.StartLine != 5 || jf.EndLine != 5 {
		t.Fatalf("got %+v", jf)
	}
	// an edit on another line (an import) leaves no whole-line suggestion
	f.Fix.Edits = append(f.Fix.Edits, model.TextEdit{Path: "q/q.go", StartLine: 3, StartCol: 1, EndLine: 3, EndCol: 1, NewText: "import \"context\"\n"})
	if jf := jsonFixOf(f); jf == nil || jf.Replacement != nil || len(jf.Edits) != 2 {
		t.Fatalf("got %+v", jf)
	}
	if jsonFixOf(&model.Finding{Site: site}) != nil {
		t.Fatal("a finding without a fix has one")
	}
}
