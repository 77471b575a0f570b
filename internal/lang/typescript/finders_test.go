package typescript

import (
	"testing"

	"github.com/ripple-dev/ripple/internal/lang"
)

// TestFindersMatchTheTable holds the finder table to the core's
// may-impact table: no finder claims a label it could never serve or a
// relation none of its labels reaches.
func TestFindersMatchTheTable(t *testing.T) {
	for _, g := range lang.FinderGaps(finders) {
		t.Error(g)
	}
}
