package java

import (
	"testing"

	"github.com/ripple-dev/ripple/internal/lang"
	"github.com/ripple-dev/ripple/internal/model"
)

// TestFindersMatchTheTable holds the finder table to the core's
// may-impact table: no finder claims a label it could never serve or a
// relation none of its labels reaches.
func TestFindersMatchTheTable(t *testing.T) {
	for _, g := range lang.FinderGaps(finders) {
		t.Error(g)
	}
}

// TestEveryLabelHasAFinder: each label of a change to a Java
// declaration the analyzer searches for is served by one finder, so
// that a label left out of the table is not silently unanswered.
func TestEveryLabelHasAFinder(t *testing.T) {
	for _, l := range []model.Label{model.MMS, model.DM, model.AM, model.MCC, model.DCC, model.ACC, model.MF, model.DF, model.MC, model.DC} {
		n := 0
		for _, f := range finders {
			if f.Serves(lang.Query{Change: &model.Change{Label: l}, Relations: model.Impacts[l]}) {
				n++
			}
		}
		if n != 1 {
			t.Errorf("label %s is served by %d finders, want 1", l, n)
		}
	}
}
