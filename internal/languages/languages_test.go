package languages

import (
	"testing"

	"github.com/ripple-dev/ripple/internal/lang"
)

// Every front-end whose blocks the fix engine edits can also quote
// them, so that the replay model of bench/fixbench answers in any
// language.
func TestEditorsQuote(t *testing.T) {
	for _, fe := range Frontends() {
		if _, ok := fe.(lang.BlockEditor); !ok {
			continue
		}
		if _, ok := fe.(lang.Quoter); !ok {
			t.Errorf("%s: a lang.BlockEditor that is no lang.Quoter", fe.Name())
		}
	}
}
