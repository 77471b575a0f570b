package fixmode

import "strings"

// Suggestion is the edit of one block as a replacement of head-state
// lines StartLine..EndLine: from its first to its last changed line.
type Suggestion struct {
	Path, Block        string
	StartLine, EndLine int
	// Replacement is the lines as they read once fixed, without the final
	// line terminator ("" deletes the lines).
	Replacement string
	Method      string
}

// Suggestions returns, for each edited block whose changed lines all
// lie within one hunk of the pull request's diff (inOneHunk, the
// condition for a `suggestion` GitHub can apply), the block's edit as a
// suggestion. The others are left to the review's body and the patch.
func (p *Plan) Suggestions(inOneHunk func(path string, start, end int) bool) []Suggestion {
	var out []Suggestion
	if p.Unsplit != "" {
		return nil
	}
	for _, g := range p.Groups {
		for _, be := range g.Blocks {
			if len(be.hunks) == 0 {
				continue
			}
			f := p.files[be.Path]
			start, end := 0, 0
			for _, h := range be.hunks {
				s, e := h.oldStart, h.oldStart+h.oldCount-1
				if h.oldCount == 0 {
					// an insertion after line oldStart: replace that line
					// by itself and the new ones (the first line when
					// inserting at the top)
					s, e = max(h.oldStart, 1), max(h.oldStart, 1)
				}
				if start == 0 || s < start {
					start = s
				}
				if e > end {
					end = e
				}
			}
			if start < 1 || end > len(f.head) || !inOneHunk(be.Path, start, end) {
				continue
			}
			repl := strings.Join(apply(f.head[start-1:end], be.hunks, start-1), "")
			out = append(out, Suggestion{Path: be.Path, Block: be.Block, StartLine: start, EndLine: end,
				Replacement: strings.TrimSuffix(repl, "\n"), Method: be.Method})
		}
	}
	return out
}
