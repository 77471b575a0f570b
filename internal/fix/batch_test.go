package fix

import (
	"context"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"
	"time"
)

// rates: Rate's body changes, so its callers are notes (reviews): three
// in report/report.go, one in main.go.
const rates = `
-- old/go.mod --
module example.com/m

go 1.22
-- old/rate/rate.go --
package rate

func Rate() int { return 2 }
-- old/report/report.go --
package report

import "example.com/m/rate"

func Daily() int { return rate.Rate() }

func Weekly() int { return 7 * rate.Rate() }

func Monthly() int { return 30 * rate.Rate() }
-- old/main.go --
package main

import "example.com/m/report"

import "example.com/m/rate"

func main() { println(report.Daily() + rate.Rate()) }
-- new/rate/rate.go --
package rate

func Rate() int { return 3 }
`

var shownBlockRE = regexp.MustCompile("(?s)\nThe block \\([^)]*\\):\n```\n(.*?)```\n")

// TestBatchedReviews: the review blocks of one file cost one request,
// answered per block (one edited, the others unchanged), and a file's
// single review block keeps a request of its own.
func TestBatchedReviews(t *testing.T) {
	repo, sc := setup(t, rates)
	s := &scripted{t: t, answer: func(block, prompt string, _ int) (int, string, time.Duration) {
		if strings.Count(prompt, "ripple-block:") > 1 {
			if block == "func Weekly" {
				return 200, "```go\nfunc Weekly() int { return 7 * rate.Rate() } // reviewed\n```", 0
			}
			return 200, "unchanged", 0
		}
		m := shownBlockRE.FindStringSubmatch(prompt)
		if m == nil {
			t.Errorf("a prompt without its block:\n%s", prompt)
			return 200, "", 0
		}
		return 200, "```go\n" + m[1] + "```", 0
	}}
	srv := httptest.NewServer(s)
	defer srv.Close()
	m, err := NewOpenAI(ModelConfig{BaseURL: srv.URL + "/v1", Model: "test", HTTPClient: &http.Client{}, Timeout: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	res, err := Run(context.Background(), repo, Options{Base: sc.Base, Head: sc.Head, Model: m, Rounds: 1, Review: true})
	if err != nil {
		t.Fatal(err)
	}
	status := map[string]Status{}
	for _, b := range res.Blocks() {
		status[b.Path+" "+b.Block] = b.Status
	}
	want := map[string]Status{
		"report/report.go func Daily":   Unchanged,
		"report/report.go func Weekly":  Done,
		"report/report.go func Monthly": Unchanged,
		"main.go func main":             Unchanged,
	}
	for k, w := range want {
		if status[k] != w {
			logPlan(t, res)
			t.Errorf("%s: %s, want %s", k, status[k], w)
		}
	}
	if s.calls != 2 {
		t.Errorf("%d requests, want 2 (one for report/report.go's three blocks, one for main.go's)", s.calls)
	}
	if !strings.Contains(res.Patch, "+func Weekly() int { return 7 * rate.Rate() } // reviewed") {
		t.Errorf("patch lacks the batched edit:\n%s", res.Patch)
	}
	for _, p := range s.prompts {
		if strings.Count(p, "ripple-block:") > 1 && !strings.Contains(p, batchRule) {
			t.Errorf("a batched prompt without its reply form:\n%s", p)
		}
	}
}

// TestBatchSections reads a batched reply: headings in backticks, a
// heading inside a code block that is code, a block left unanswered.
func TestBatchSections(t *testing.T) {
	group := []*Obligation{{Block: "def a"}, {Block: "def b"}, {Block: "def c"}}
	reply := "Here you go.\n### `def a`\nunchanged\n\n### def b\n```python\ndef b():\n    s = '''\n### def a\n'''\n```\n"
	got := batchSections(reply, group)
	if strings.TrimSpace(got["def a"]) != "unchanged" {
		t.Errorf("def a: %q", got["def a"])
	}
	if code, ok := codeBlock(got["def b"]); !ok || !strings.Contains(code, "### def a") {
		t.Errorf("def b: %q", got["def b"])
	}
	if _, ok := got["def c"]; ok {
		t.Errorf("def c answered: %q", got["def c"])
	}
}
