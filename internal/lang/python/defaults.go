package python

import (
	"fmt"
	"strings"

	"github.com/ripple-dev/ripple/internal/lang"
	"github.com/ripple-dev/ripple/internal/model"
)

// handful is how many calls relying on a changed default are reported
// one by one; a function with more is one note listing them.
const handful = 5

// defaultCalls are the calls whose only impact is relying on a changed
// default (only), and their findings by change (byChange), which gather
// turns into one note per widely used function.
type defaultCalls struct {
	only     map[*ref]bool
	byChange map[*model.Change][]*lang.Ref
}

// mark records a call whose only impact is relying on a changed default
// (every part of moved says so).
func (dc *defaultCalls) mark(x *ref, moved string) {
	for _, part := range strings.Split(moved, "; ") {
		if !strings.HasPrefix(part, "relies on the default of ") {
			return
		}
	}
	if dc.only == nil {
		dc.only = map[*ref]bool{}
	}
	dc.only[x] = true
}

// add records finding f of call x, a warning of change c, when the
// call's only impact is relying on a changed default.
func (dc *defaultCalls) add(x *ref, c *model.Change, f *lang.Ref) {
	if dc.only[x] {
		if dc.byChange == nil {
			dc.byChange = map[*model.Change][]*lang.Ref{}
		}
		dc.byChange[c] = append(dc.byChange[c], f)
	}
}

// gather turns the calls relying on a changed default of a widely used
// function into notes the core reports as one, listing the sites: a
// default is usually changed on purpose, and hundreds of warnings of one
// reason are read by nobody.
func (dc *defaultCalls) gather() {
	for _, fs := range dc.byChange {
		if len(fs) <= handful {
			continue
		}
		for _, f := range fs {
			f.Verdict = model.MayFollow
			f.Gather = true
			f.Message += fmt.Sprintf(" (%d calls rely on it: check that the new default suits them)", len(fs))
		}
	}
}
