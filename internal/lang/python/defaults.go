package python

import (
	"fmt"
	"strings"

	"github.com/ripple-dev/ripple/internal/model"
)

// handful is how many calls relying on a changed default are reported
// one by one; a function with more is one note listing them.
const handful = 5

// markDefault records a call whose only impact is relying on a changed
// default (every part of moved says so).
func (j *judge) markDefault(x *ref, moved string) {
	for _, part := range strings.Split(moved, "; ") {
		if !strings.HasPrefix(part, "relies on the default of ") {
			return
		}
	}
	if j.defaultOnly == nil {
		j.defaultOnly = map[*ref]bool{}
	}
	j.defaultOnly[x] = true
}

// gatherDefaults turns the calls relying on a changed default of a widely
// used function into notes the core reports as one, listing the sites:
// a default is usually changed on purpose, and hundreds of warnings of
// one reason are read by nobody.
func (j *judge) gatherDefaults() {
	for _, fs := range j.defaults {
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
