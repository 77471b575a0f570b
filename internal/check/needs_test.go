package check_test

import (
	"context"
	"strings"
	"testing"

	"github.com/ripple-dev/ripple/internal/lang/typescript/tsc"
)

// needTools skips a scenario whose comment says `needs: tsc` when the
// tool cannot run here (found on PATH or in the user cache, else
// installed there with npm, as the check itself does under precision
// types).
func needTools(t *testing.T, comment string) {
	t.Helper()
	for _, l := range strings.Split(comment, "\n") {
		rest, ok := strings.CutPrefix(strings.TrimSpace(l), "needs:")
		if !ok {
			continue
		}
		for _, tool := range strings.Fields(rest) {
			switch tool {
			case "tsc":
				if _, err := (&tsc.Compiler{}).Locate(context.Background()); err != nil {
					t.Skipf("TypeScript 7's compiler cannot run here: %v", err)
				}
			default:
				t.Fatalf("needs: unknown tool %q", tool)
			}
		}
	}
}
