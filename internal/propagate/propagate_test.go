package propagate

import (
	"fmt"
	"testing"

	"github.com/ripple-dev/ripple/internal/gitio"
	"github.com/ripple-dev/ripple/internal/lang"
	"github.com/ripple-dev/ripple/internal/model"
)

// TestSettle checks the policy of the package documentation: errors stay
// errors even when touched, may-be-impacted sites take the configured
// level and become consistent when the diff touched them, callers of a
// body change use "body", switched-off relations disappear, ignored paths
// and duplicates are dropped.
func TestSettle(t *testing.T) {
	sig := &model.Change{Label: model.MMS, New: &model.Block{Display: "func F"}}
	body := &model.Change{Label: model.MMB, New: &model.Block{Display: "func G"}}
	site := func(path string, line int) model.Site { return model.Site{Path: path, Line: line} }
	fs := []*model.Finding{
		{Change: sig, Relation: model.CalledBy, Verdict: model.Inconsistent, Site: site("a.go", 3)},
		{Change: sig, Relation: model.CalledBy, Verdict: model.Inconsistent, Site: site("touched.go", 5)},
		{Change: sig, Relation: model.CalledBy, Verdict: model.MayBeImpacted, Site: site("b.go", 7)},
		{Change: sig, Relation: model.CalledBy, Verdict: model.MayBeImpacted, Site: site("touched.go", 9)},
		{Change: body, Relation: model.CalledBy, Verdict: model.MayBeImpacted, Site: site("c.go", 1)},
		{Change: sig, Relation: model.UsedBy, Verdict: model.Inconsistent, Site: site("d.go", 2)},
		{Change: sig, Relation: model.CalledBy, Verdict: model.Inconsistent, Site: site("vendor/x.go", 4)},
		{Change: sig, Relation: model.CalledBy, Verdict: model.MayBeImpacted, Site: site("a.go", 3)}, // duplicate, weaker
	}
	in := Input{
		Env: &lang.Env{
			Changed: map[string]*gitio.FileChange{"touched.go": {Status: gitio.Modified, NewPath: "touched.go",
				Hunks: []gitio.Hunk{{OldStart: 5, OldLines: 1, NewStart: 5, NewLines: 1}, {OldStart: 9, OldLines: 1, NewStart: 9, NewLines: 1}}}},
			Ignored: func(p string) bool { return p == "vendor/x.go" },
		},
		MayLevel: func(rel string) model.Level {
			switch rel {
			case "body":
				return model.LevelNote
			case "UsedBy":
				return model.LevelNone
			}
			return model.LevelWarning
		},
	}
	got := map[string]model.Level{}
	for _, f := range settle(fs, in) {
		k := fmt.Sprintf("%s:%d:%s", f.Site.Path, f.Site.Line, f.Relation)
		if _, dup := got[k]; dup {
			t.Errorf("%s reported twice", k)
		}
		got[k] = f.Level
	}
	want := map[string]model.Level{
		"a.go:3:CalledBy":       model.LevelError,   // the stronger of the duplicates
		"touched.go:5:CalledBy": model.LevelError,   // touched but still broken
		"touched.go:9:CalledBy": model.LevelNone,    // may be impacted and touched: consistent
		"b.go:7:CalledBy":       model.LevelWarning, // may be impacted
		"c.go:1:CalledBy":       model.LevelNote,    // callers of a body change: "body"
	}
	for k, l := range want {
		if got[k] != l {
			t.Errorf("%s: level %q, want %q", k, got[k], l)
		}
	}
	for _, k := range []string{"d.go:2:UsedBy", "vendor/x.go:4:CalledBy"} {
		if _, ok := got[k]; ok {
			t.Errorf("%s reported: switched off or ignored", k)
		}
	}
	// the touched may-be-impacted site is consistent (level none)
	for _, f := range settle(fs[3:4], in) {
		if f.Verdict != model.Consistent || f.Level != model.LevelNone || !f.Updated {
			t.Errorf("touched may-be-impacted site: verdict %v level %q updated %v", f.Verdict, f.Level, f.Updated)
		}
	}
}
