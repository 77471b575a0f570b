package typescript

import (
	"bytes"
	"context"
	"sort"
)

// searchEach returns, for each set of words, the usable files that
// contain one of them as a whole word, as Corpus.Search does for one
// set. The sets are searched together: one git grep for all their words
// (a grep of playwright's work tree takes 20-40 ms, and a check asked
// one per target, one after another), then each candidate's text is
// matched against each set in memory, with git grep's notion of a word
// (ASCII letters, digits and '_').
func (a *analyzer) searchEach(ctx context.Context, sets [][]string) ([][]string, error) {
	out := make([][]string, len(sets))
	if len(sets) == 1 {
		paths, err := a.c.Search(ctx, sets[0])
		out[0] = paths
		return out, err
	}
	var all []string
	for _, ws := range sets {
		all = append(all, ws...)
	}
	paths, err := a.c.Search(ctx, all)
	if err != nil || len(paths) == 0 {
		return out, err
	}
	srcs, _ := a.env.Head.ReadFiles(ctx, paths)
	for i, ws := range sets {
		for _, p := range paths {
			src, ok := srcs[p]
			if !ok || hasAnyWord(src, ws) { // unread: as the grep said
				out[i] = append(out[i], p)
			}
		}
		sort.Strings(out[i])
	}
	return out, nil
}

// hasAnyWord reports whether src holds one of words as a whole word, as
// `git grep -w -F` matches: not preceded or followed by an ASCII letter,
// digit or '_' on its line (a word of the list spans no line).
func hasAnyWord(src []byte, words []string) bool {
	for _, w := range words {
		if w == "" {
			continue
		}
		for i := 0; ; {
			j := bytes.Index(src[i:], []byte(w))
			if j < 0 {
				break
			}
			at := i + j
			end := at + len(w)
			if (at == 0 || !grepWordByte(src[at-1])) && (end >= len(src) || !grepWordByte(src[end])) {
				return true
			}
			i = at + 1
		}
	}
	return false
}

func grepWordByte(c byte) bool {
	return c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}
