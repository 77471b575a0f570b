package typescript

import (
	"bytes"
	"regexp"
)

// varianceRE finds the variance annotations of type parameters (`<in T`,
// `, out U`, `in out V`, TypeScript 4.7), which tree-sitter-typescript
// v0.23.2 does not read: a declaration such as `interface I<out T>`
// becomes an ERROR node that swallows what follows.
var varianceRE = regexp.MustCompile(`([<,]\s*(?:/\*(?:[^*]|\*[^/])*\*/\s*|//[^\n]*\n\s*)*)((?:in\s+out|in|out)\s+)([A-Za-z_$][\w$]*\s*(?:extends\b|=|,|>))`)

// blankVariance returns src with the variance keywords replaced by
// spaces, so that every offset, line and column stays as written; src
// itself when there are none. Variance does not change how dependents
// call or build a type, so nothing the analysis reads is lost.
func blankVariance(src []byte) []byte {
	if !bytes.Contains(src, []byte("in ")) && !bytes.Contains(src, []byte("out ")) {
		return src
	}
	out := src
	// a match takes the comma after its name: the next parameter is
	// found by the next round
	for round := 0; round < 16; round++ {
		locs := varianceRE.FindAllSubmatchIndex(out, -1)
		if len(locs) == 0 {
			break
		}
		if round == 0 {
			out = bytes.Clone(src)
		}
		for _, l := range locs {
			for i := l[4]; i < l[5]; i++ {
				if out[i] != '\n' && out[i] != '\r' {
					out[i] = ' '
				}
			}
		}
	}
	return out
}
