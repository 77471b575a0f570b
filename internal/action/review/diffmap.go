package review

import (
	"bytes"
	"fmt"
	"strings"

	godiff "github.com/sourcegraph/go-diff/diff"
)

// DiffMap says which lines of the head state a pull request's diff shows
// on its right side: the lines GitHub accepts review comments on.
type DiffMap struct {
	files map[string][]hunk
}

// hunk is one hunk's right side: lines start..end, of which right holds
// the added and context lines (all of them, in a unified diff).
type hunk struct {
	start, end int
	right      map[int]bool
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
		name := unquote(fd.NewName)
		if name == "/dev/null" {
			continue // deleted: nothing on the right side
		}
		name = strings.TrimPrefix(name, "b/")
		m.addHunks(name, fd.Hunks)
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
	m.addHunks(path, hs)
	return nil
}

func (m *DiffMap) addHunks(path string, hs []*godiff.Hunk) {
	for _, h := range hs {
		line := int(h.NewStartLine)
		hk := hunk{start: line, right: map[int]bool{}}
		body := h.Body
		for len(body) > 0 {
			var l []byte
			if i := bytes.IndexByte(body, '\n'); i >= 0 {
				l, body = body[:i], body[i+1:]
			} else {
				l, body = body, nil
			}
			if len(l) == 0 {
				continue
			}
			switch l[0] {
			case ' ', '+':
				hk.right[line] = true
				line++
			}
		}
		hk.end = line - 1
		if hk.end >= hk.start {
			m.files[path] = append(m.files[path], hk)
		}
	}
}

// Commentable reports whether line of path (head state) is on the right
// side of the diff.
func (m *DiffMap) Commentable(path string, line int) bool {
	for _, h := range m.files[path] {
		if h.right[line] {
			return true
		}
	}
	return false
}

// InOneHunk reports whether every line of start..end is on the right
// side of one and the same hunk: the condition for a multi-line comment
// and a suggestion.
func (m *DiffMap) InOneHunk(path string, start, end int) bool {
	if start < 1 || end < start {
		return false
	}
	for _, h := range m.files[path] {
		if start < h.start || end > h.end {
			continue
		}
		for l := start; l <= end; l++ {
			if !h.right[l] {
				return false
			}
		}
		return true
	}
	return false
}

// Files is the number of files with a right side.
func (m *DiffMap) Files() int { return len(m.files) }

// unquote undoes git's C-style quoting of a path with unusual characters.
func unquote(s string) string {
	if len(s) < 2 || s[0] != '"' || s[len(s)-1] != '"' {
		return s
	}
	var b strings.Builder
	for i := 1; i < len(s)-1; i++ {
		c := s[i]
		if c != '\\' || i+1 >= len(s)-1 {
			b.WriteByte(c)
			continue
		}
		i++
		switch s[i] {
		case 'n':
			b.WriteByte('\n')
		case 't':
			b.WriteByte('\t')
		case '0', '1', '2', '3':
			if i+2 < len(s)-1 {
				v := (s[i]-'0')<<6 | (s[i+1]-'0')<<3 | (s[i+2] - '0')
				b.WriteByte(v)
				i += 2
			}
		default:
			b.WriteByte(s[i])
		}
	}
	return b.String()
}
