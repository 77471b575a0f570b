package lang

import (
	"sort"

	"github.com/ripple-dev/ripple/internal/model"
)

// NewCode groups the changes a NewCodeJudge is asked about by the file of
// their head block, for the front-end of language lang: the diff's own
// changes (not derived) whose head block it touched, in files it changed
// and the configuration does not ignore. The paths are sorted.
func NewCode(env *Env, changes []*model.Change, lang string) (byPath map[string][]*model.Change, paths []string) {
	byPath = map[string][]*model.Change{}
	for _, c := range changes {
		b := c.New
		if b == nil || b.Lang != lang || c.Derived || env.Changed[b.Path] == nil || env.Ignored != nil && env.Ignored(b.Path) {
			continue
		}
		if env.Touched(b.Path, b.Span.StartLine, b.Span.EndLine) {
			byPath[b.Path] = append(byPath[b.Path], c)
		}
	}
	for p := range byPath {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	return byPath, paths
}

// Innermost is the change whose head block holds line, the innermost when
// blocks nest (a method's change inside its type's); nil when none does.
func Innermost(cs []*model.Change, line int) *model.Change {
	var best *model.Change
	for _, c := range cs {
		s := c.New.Span
		if s.StartLine <= line && line <= s.EndLine && (best == nil || s.EndLine-s.StartLine < best.New.Span.EndLine-best.New.Span.StartLine) {
			best = c
		}
	}
	return best
}
