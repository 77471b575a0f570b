package fix

import (
	"fmt"
	"strings"
)

// lineDiff is a unified diff of two small texts (blocks of code), for the
// temporal context of a prompt and for reports.
func lineDiff(name, a, b string) string {
	if a == b {
		return ""
	}
	x, y := splitLines(a), splitLines(b)
	lcs := make([][]int, len(x)+1)
	for i := range lcs {
		lcs[i] = make([]int, len(y)+1)
	}
	for i := len(x) - 1; i >= 0; i-- {
		for j := len(y) - 1; j >= 0; j-- {
			if x[i] == y[j] {
				lcs[i][j] = lcs[i+1][j+1] + 1
			} else {
				lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
			}
		}
	}
	var b2 strings.Builder
	fmt.Fprintf(&b2, "--- a/%s\n+++ b/%s\n@@ -1,%d +1,%d @@\n", name, name, len(x), len(y))
	i, j := 0, 0
	for i < len(x) || j < len(y) {
		switch {
		case i < len(x) && j < len(y) && x[i] == y[j]:
			b2.WriteString(" " + x[i] + "\n")
			i++
			j++
		case j < len(y) && (i == len(x) || lcs[i][j+1] >= lcs[i+1][j]):
			b2.WriteString("+" + y[j] + "\n")
			j++
		default:
			b2.WriteString("-" + x[i] + "\n")
			i++
		}
	}
	return b2.String()
}

func splitLines(s string) []string {
	s = strings.TrimSuffix(s, "\n")
	if s == "" {
		return nil
	}
	return strings.Split(s, "\n")
}
