// Package textedit applies model.TextEdits to file contents: the one
// place where line/column coordinates become byte offsets, shared by the
// fix engine, the scenario tests and the review suggestions.
package textedit

import (
	"bytes"
	"fmt"
	"sort"

	"github.com/ripple-dev/ripple/internal/model"
)

// Offset converts a 1-based line and 1-based byte column to a byte
// offset in src. A column one past the end of the line is the newline.
func Offset(src []byte, line, col int) (int, error) {
	if line < 1 || col < 1 {
		return 0, fmt.Errorf("position %d:%d out of range", line, col)
	}
	off := 0
	for l := 1; l < line; l++ {
		i := bytes.IndexByte(src[off:], '\n')
		if i < 0 {
			return 0, fmt.Errorf("line %d beyond the end of the file (%d lines)", line, l)
		}
		off += i + 1
	}
	end := bytes.IndexByte(src[off:], '\n')
	if end < 0 {
		end = len(src) - off
	}
	if col-1 > end {
		return 0, fmt.Errorf("column %d beyond the end of line %d", col, line)
	}
	return off + col - 1, nil
}

// Apply applies the edits of one file. Overlapping edits are an error;
// edits that are exactly identical are applied once.
func Apply(src []byte, edits []model.TextEdit) ([]byte, error) {
	type span struct {
		s, e int
		text string
	}
	var spans []span
	seen := map[span]bool{}
	for _, ed := range edits {
		s, err := Offset(src, ed.StartLine, ed.StartCol)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", ed.Path, err)
		}
		e, err := Offset(src, ed.EndLine, ed.EndCol)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", ed.Path, err)
		}
		if e < s {
			return nil, fmt.Errorf("%s: edit ends before it starts (%d:%d-%d:%d)", ed.Path, ed.StartLine, ed.StartCol, ed.EndLine, ed.EndCol)
		}
		sp := span{s, e, ed.NewText}
		if !seen[sp] {
			seen[sp] = true
			spans = append(spans, sp)
		}
	}
	sort.Slice(spans, func(i, j int) bool { return spans[i].s < spans[j].s })
	for i := 1; i < len(spans); i++ {
		if spans[i].s < spans[i-1].e {
			return nil, fmt.Errorf("overlapping edits at byte %d", spans[i].s)
		}
	}
	var out bytes.Buffer
	prev := 0
	for _, sp := range spans {
		out.Write(src[prev:sp.s])
		out.WriteString(sp.text)
		prev = sp.e
	}
	out.Write(src[prev:])
	return out.Bytes(), nil
}

// ByPath groups edits by file.
func ByPath(edits []model.TextEdit) map[string][]model.TextEdit {
	m := map[string][]model.TextEdit{}
	for _, e := range edits {
		m[e.Path] = append(m[e.Path], e)
	}
	return m
}
