package lang

import (
	"fmt"
	"slices"

	"github.com/ripple-dev/ripple/internal/model"
)

// Finder is one way a front-end finds dependents: the labels of the
// changes it has something to search for and the relations its sites are
// found along (the imports of a deleted package, ImportedBy; the calls,
// overrides and uses of a changed declaration). A front-end lists its
// finders in a table; the core's table (model.Impacts, through the
// walk's Query.Relations) decides which of them run on a change: a
// finder serves a query only when the query's change has one of its
// labels and the query asks for one of its relations. Finders of one
// front-end share its index (one search, one parse of each file, one
// type check per round).
type Finder struct {
	Name      string
	Labels    []model.Label
	Relations []model.Relation
}

// Serves reports whether the finder is to run on q's change.
func (f Finder) Serves(q Query) bool {
	if q.Change == nil || !slices.Contains(f.Labels, q.Change.Label) {
		return false
	}
	for _, r := range f.Relations {
		if q.Wants(r) {
			return true
		}
	}
	return false
}

// Serving returns the changes of qs the finder serves, in query order.
func (f Finder) Serving(qs []Query) []*model.Change {
	var out []*model.Change
	for _, q := range qs {
		if f.Serves(q) {
			out = append(out, q.Change)
		}
	}
	return out
}

// FinderGaps holds a front-end's finder table to the core's: it lists
// each label a finder claims whose row of model.Impacts shares no
// relation with the finder's (the finder could never run on it), and
// each relation a finder claims that no label of its reaches. A test of
// every front-end asserts there are none.
func FinderGaps(fs []Finder) []string {
	var out []string
	for _, f := range fs {
		reached := map[model.Relation]bool{}
		for _, l := range f.Labels {
			shared := false
			for _, r := range model.Impacts[l] {
				if slices.Contains(f.Relations, r) {
					shared, reached[r] = true, true
				}
			}
			if !shared {
				out = append(out, fmt.Sprintf("finder %s: label %s reaches none of %v", f.Name, l, f.Relations))
			}
		}
		for _, r := range f.Relations {
			if !reached[r] {
				out = append(out, fmt.Sprintf("finder %s: no label of %v reaches %s", f.Name, f.Labels, r))
			}
		}
	}
	return out
}
