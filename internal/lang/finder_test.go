package lang

import (
	"strings"
	"testing"

	"github.com/ripple-dev/ripple/internal/model"
)

func TestFinderServes(t *testing.T) {
	f := Finder{Name: "imports", Labels: []model.Label{model.DI, model.MI}, Relations: []model.Relation{model.ImportedBy}}
	di := &model.Change{Label: model.DI}
	mms := &model.Change{Label: model.MMS}
	qs := []Query{
		{Change: di, Relations: []model.Relation{model.ImportedBy, model.UsedBy}},
		{Change: mms, Relations: []model.Relation{model.ImportedBy}},
		{Change: &model.Change{Label: model.MI}, Relations: []model.Relation{model.UsedBy}},
	}
	got := f.Serving(qs)
	if len(got) != 1 || got[0] != di {
		t.Fatalf("Serving = %v, want only the DI change (the MMS change has another label, the MI query asks no relation of the finder)", got)
	}
}

func TestFinderGaps(t *testing.T) {
	ok := Finder{Name: "ok", Labels: []model.Label{model.DI, model.MI}, Relations: []model.Relation{model.ImportedBy}}
	if g := FinderGaps([]Finder{ok}); len(g) != 0 {
		t.Fatalf("gaps of a finder that matches the table: %v", g)
	}
	dead := Finder{Name: "dead", Labels: []model.Label{model.MMB, model.DI}, Relations: []model.Relation{model.ImportedBy, model.EmbeddedBy}}
	g := strings.Join(FinderGaps([]Finder{dead}), "\n")
	for _, want := range []string{"label MMB reaches none", "reaches EmbeddedBy"} {
		if !strings.Contains(g, want) {
			t.Errorf("gaps %q lack %q", g, want)
		}
	}
}
