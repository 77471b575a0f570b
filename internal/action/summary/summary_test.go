package summary

import (
	"fmt"
	"strings"
	"testing"

	"github.com/ripple-dev/ripple/internal/action/findings"
)

func TestMarkdown(t *testing.T) {
	zero := 0
	rep := &findings.Report{Base: strings.Repeat("b", 40), Head: strings.Repeat("h", 40),
		Changes: []findings.Change{{Display: "func Sum", Summary: "func Sum: parameter c int added", Path: "p/p.go", Line: 3, Side: "head"}},
		Counts:  findings.Counts{Error: 1}}
	rep.Findings = []findings.Finding{{Change: &zero, Level: "error", Verdict: "inconsistent", Precision: "types", Path: "q/q.go", Line: 6,
		Message: "a | b <x>", Text: "x := a || b",
		Trail: []findings.Step{{Display: "func Sum"}, {Relation: "CalledBy", Display: "func Use"}}}}
	out := Markdown(Input{Report: rep, Links: findings.Links{Server: "https://github.com", Repo: "octo/demo"}, Verdict: Fail, FailOn: "error",
		Range: "pull request #7", Delivery: []string{"Review: posted."}})
	for _, want := range []string{
		"## Ripple: 1 inconsistent site in 1 change\n",
		"❌ **fail**: findings at or above `fail_on: error`.",
		"(pull request \\#7): 1 change, 1 errors · 0 warnings · 0 notes.\n",
		"### `func Sum`: parameter c int added\n",
		"Declared at [p/p.go:3](https://github.com/octo/demo/blob/" + rep.Head + "/p/p.go#L3).",
		"| error | [q/q.go:6](https://github.com/octo/demo/blob/" + rep.Head + "/q/q.go#L6)<br>`x := a \\|\\| b` | a \\\\| b &lt;x&gt; <sub>(types)</sub> | `func Sum` → called by `func Use` |\n",
		"### Delivery\n\n- Review: posted.\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("summary lacks %q:\n%s", want, out)
		}
	}
}

func TestMarkdownRowLimit(t *testing.T) {
	zero := 0
	rep := &findings.Report{Changes: []findings.Change{{Display: "func A", Summary: "func A: deleted"}}}
	for i := range MaxRows + 5 {
		rep.Findings = append(rep.Findings, findings.Finding{Change: &zero, Level: "error", Path: "a.go", Line: i + 1, Message: fmt.Sprint(i)})
	}
	out := Markdown(Input{Report: rep, Verdict: Fail})
	if n := strings.Count(out, "\n| error |"); n != MaxRows {
		t.Errorf("%d rows, want %d", n, MaxRows)
	}
	if !strings.Contains(out, "_…and 5 more sites: the table stops at 1000 rows; the SARIF file lists them all._") {
		t.Error("the rows left out are not counted")
	}
}

func TestMarkdownWithoutReport(t *testing.T) {
	out := Markdown(Input{Verdict: Error, Problem: "GITHUB_EVENT_PATH is not set"})
	if out != "## Ripple\n\n⚠️ **error**: Ripple could not check this change. GITHUB\\_EVENT\\_PATH is not set\n\n" {
		t.Errorf("%q", out)
	}
}
