package check

import (
	"context"

	"github.com/ripple-dev/ripple/internal/gitio"
)

// lineMap takes lines of one state (the merged tree) back to another
// (one of the two commits merged), through the diff from that commit to
// the state: a line outside the diff's hunks is the commit's line,
// shifted by what the hunks above it added and removed; a line inside
// one is the other side's.
type lineMap struct {
	files map[string]*gitio.FileChange // by path in the mapped-from state
}

// newLineMap diffs from (a commit) to to (the merged tree), every file.
func newLineMap(ctx context.Context, repo *gitio.Repo, from, to string) (*lineMap, error) {
	files, err := repo.Diff(ctx, from, to, 0)
	if err != nil {
		return nil, err
	}
	m := &lineMap{files: map[string]*gitio.FileChange{}}
	for _, f := range files {
		if f.NewPath != "" {
			m.files[f.NewPath] = f
		}
	}
	return m, nil
}

// back returns where line of path lies in the commit; ok is false when
// the commit does not have that line (the diff added or changed it, or
// added the whole file).
func (m *lineMap) back(path string, line int) (string, int, bool) {
	f := m.files[path]
	if f == nil {
		return path, line, true // the file is the same in both
	}
	if f.Whole || f.Binary || f.OldPath == "" {
		return "", 0, false
	}
	delta := 0
	for _, h := range f.Hunks {
		switch {
		case h.NewLines == 0: // lines removed after line NewStart
			if h.NewStart < line {
				delta += h.OldLines
			}
		case line < h.NewStart:
		case line < h.NewStart+h.NewLines:
			return "", 0, false
		default:
			delta += h.OldLines - h.NewLines
		}
	}
	return f.OldPath, line + delta, true
}

// has reports whether the commit has line of path.
func (m *lineMap) has(path string, line int) bool {
	_, _, ok := m.back(path, line)
	return ok
}
