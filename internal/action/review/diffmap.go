package review

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/ripple-dev/ripple/internal/gitio"

	godiff "github.com/sourcegraph/go-diff/diff"
)

// DiffMap says which lines of the head state a pull request's diff shows
// on its right side: the lines GitHub accepts review comments on.
type DiffMap struct {
	files map[string][]hunk
}

// hunk is one hunk's right side: lines start..end of the new file, every
// one of them an added or a context line (a unified diff lists each line
// of a hunk's new range, in order).
type hunk struct {
	start, end int
}

// NewDiffMap returns an empty map.
func NewDiffMap() *DiffMap { return &DiffMap{files: map[string][]hunk{}} }

// ParseGitDiff reads the output of `git diff` with a/ and b/ prefixes
// (several files).
func ParseGitDiff(patch []byte) (*DiffMap, error) {
	m := NewDiffMap()
	if len(bytes.TrimSpace(patch)) == 0 {
		return m, nil
	}
	fds, err := godiff.ParseMultiFileDiff(patch)
	if err != nil {
		return nil, fmt.Errorf("parsing the pull request's diff: %w", err)
	}
	for _, fd := range fds {
		name := gitio.UnquotePath(fd.NewName)
		if name == "/dev/null" {
			continue // deleted: nothing on the right side
		}
		name = strings.TrimPrefix(name, "b/")
		if err := m.addHunks(name, fd.Hunks); err != nil {
			return nil, fmt.Errorf("parsing the pull request's diff: %w", err)
		}
	}
	return m, nil
}

// AddPatch adds one file's hunks as the REST API gives them (the patch
// field of a pull request's files: hunks without file headers).
func (m *DiffMap) AddPatch(path, patch string) error {
	if strings.TrimSpace(patch) == "" {
		return nil
	}
	if !strings.HasSuffix(patch, "\n") {
		patch += "\n"
	}
	hs, err := godiff.ParseHunks([]byte(patch))
	if err != nil {
		return fmt.Errorf("parsing the diff of %s: %w", path, err)
	}
	if err := m.addHunks(path, hs); err != nil {
		return fmt.Errorf("parsing the diff of %s: %w", path, err)
	}
	return nil
}

// addHunks records the right side of each hunk. The hunk header says
// where it starts and how long it is; the body must agree (its added and
// context lines are that many), or the diff is not the one GitHub shows
// and no line of it is trusted. An empty line in a body is a context
// line whose leading space was lost, as git apply reads it.
func (m *DiffMap) addHunks(path string, hs []*godiff.Hunk) error {
	for _, h := range hs {
		n := 0
		body := bytes.TrimSuffix(h.Body, []byte("\n"))
		for _, l := range bytes.Split(body, []byte("\n")) {
			switch {
			case len(l) == 0 && len(body) == 0:
			case len(l) == 0, l[0] == ' ', l[0] == '+':
				n++
			case l[0] == '-', l[0] == '\\':
			default:
				return fmt.Errorf("%s: hunk at line %d: %q is not a diff line", path, h.NewStartLine, l)
			}
		}
		if n != int(h.NewLines) {
			return fmt.Errorf("%s: hunk at line %d: its header says %d lines on the right side, its body has %d", path, h.NewStartLine, h.NewLines, n)
		}
		if n > 0 {
			start := int(h.NewStartLine)
			m.files[path] = append(m.files[path], hunk{start: start, end: start + n - 1})
		}
	}
	return nil
}

// Commentable reports whether line of path (head state) is on the right
// side of the diff.
func (m *DiffMap) Commentable(path string, line int) bool {
	return m.InOneHunk(path, line, line)
}

// InOneHunk reports whether every line of start..end is on the right
// side of one and the same hunk: the condition for a multi-line comment
// and a suggestion.
func (m *DiffMap) InOneHunk(path string, start, end int) bool {
	if start < 1 || end < start {
		return false
	}
	for _, h := range m.files[path] {
		if h.start <= start && end <= h.end {
			return true
		}
	}
	return false
}

// Files is the number of files with a right side.
func (m *DiffMap) Files() int { return len(m.files) }
