package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/diff"
	"github.com/rogpeppe/go-internal/testscript"

	"github.com/ripple-dev/ripple/internal/action/fakegh"
	"github.com/ripple-dev/ripple/internal/action/md"
)

// Golden transcripts: what one run of a mode sent to GitHub, request by
// request, kept under testdata/transcript so that a change to what the
// action sends shows in review as a diff of those files. A script
// records one with
//
//	fakegh transcript NAME [VAR...]
//
// after its run (and a fakegh reset-log before it, when the script ran
// the action earlier): the fake's log (every request of which was
// validated against GitHub's REST description, a violation failing the
// script anyway) rendered by transcript and compared with
// testdata/transcript/NAME.txt. With -update the file is rewritten.
//
// Each request is its method and path, its query (sorted by name), the
// status the fake answered, and its JSON body with keys sorted, indented.
// Volatile values are replaced: $WORK (the script's temporary directory)
// and each named VAR's value by ${VAR}, also where Markdown escaping
// changed it; a 7..39-digit prefix of a named
// commit by ${VAR:N}; any other full commit name by <commit-N>, numbered
// by first appearance (with its prefixes likewise); RFC 3339 times by
// <time>.
var update = flag.Bool("update", false, "rewrite the golden transcripts under testdata/transcript from this run")

// transcriptDir is where the golden transcripts are (the test runs in the
// package's directory; testscript never changes this process's).
var transcriptDir = func() string {
	wd, _ := os.Getwd()
	return filepath.Join(wd, "testdata", "transcript")
}()

func cmdTranscript(ts *testscript.TestScript, srv *fakegh.Server, args []string) {
	if len(args) < 1 {
		ts.Fatalf("usage: fakegh transcript NAME [VAR...]")
	}
	name := args[0]
	vars := map[string]string{"WORK": ts.Getenv("WORK")}
	for _, v := range args[1:] {
		if ts.Getenv(v) == "" {
			ts.Fatalf("fakegh transcript: $%s is empty", v)
		}
		vars[v] = ts.Getenv(v)
	}
	got := transcript(name, srv.Log(), vars)
	file := filepath.Join(transcriptDir, name+".txt")
	if *update {
		ts.Check(os.MkdirAll(transcriptDir, 0o755))
		ts.Check(os.WriteFile(file, []byte(got), 0o644))
		ts.Logf("wrote %s", file)
		return
	}
	want, err := os.ReadFile(file)
	if err != nil {
		ts.Fatalf("no golden transcript (%v): run go test ./cmd/action -run TestScripts -update and review the new file", err)
	}
	if string(want) != got {
		ts.Fatalf("what the run sent differs from %s; if the change is meant, rewrite it with go test ./cmd/action -run TestScripts -update and review its diff:\n%s",
			file, diff.Diff("golden", want, "this run", []byte(got)))
	}
}

var (
	hexWordRE = regexp.MustCompile(`\b[0-9a-f]{7,40}\b`)
	sha1RE    = regexp.MustCompile(`\b[0-9a-f]{40}\b`)
	timeRE    = regexp.MustCompile(`\b\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:\d{2})\b`)
)

// normaliser replaces a transcript's volatile values.
type normaliser struct {
	named   []string          // values of named variables that are not commits, longest first
	name    map[string]string // value → variable name
	commits []commit          // in the order they are numbered
}

// commit is a commit name and how a transcript shows it: ${HEAD} for a
// named one, <commit-1> for another, and a prefix of it as ${HEAD:12}
// or <commit-1:12>.
type commit struct {
	sha, open, label, close string
}

func (c commit) show(n int) string {
	if n == len(c.sha) {
		return c.open + c.label + c.close
	}
	return fmt.Sprintf("%s%s:%d%s", c.open, c.label, n, c.close)
}

func newNormaliser(vars map[string]string, entries []fakegh.Entry) *normaliser {
	n := &normaliser{name: map[string]string{}}
	keys := make([]string, 0, len(vars))
	for k := range vars {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	known := map[string]bool{}
	for _, k := range keys {
		v := vars[k]
		switch {
		case v == "":
		case len(v) == 40 && sha1RE.MatchString(v):
			n.commits = append(n.commits, commit{sha: v, open: "${", label: k, close: "}"})
			known[v] = true
		default:
			// as it is, and as Markdown prose shows it (a path in an
			// error message quoted by a review body)
			for _, form := range []string{v, md.Text(v)} {
				if _, dup := n.name[form]; !dup {
					n.named = append(n.named, form)
					n.name[form] = k
				}
			}
		}
	}
	sort.Slice(n.named, func(i, j int) bool { return len(n.named[i]) > len(n.named[j]) })
	// every other commit named in full, numbered in the order it first
	// appears, so that a short name met before the full one still maps
	others := 0
	for _, e := range entries {
		for _, s := range []string{e.Path, string(e.Body)} {
			for _, c := range sha1RE.FindAllString(s, -1) {
				if !known[c] {
					known[c] = true
					others++
					n.commits = append(n.commits, commit{sha: c, open: "<", label: fmt.Sprintf("commit-%d", others), close: ">"})
				}
			}
		}
	}
	return n
}

func (n *normaliser) str(s string) string {
	for _, v := range n.named {
		s = strings.ReplaceAll(s, v, "${"+n.name[v]+"}")
	}
	s = hexWordRE.ReplaceAllStringFunc(s, func(w string) string {
		for _, c := range n.commits {
			if strings.HasPrefix(c.sha, w) {
				return c.show(len(w))
			}
		}
		return w
	})
	return timeRE.ReplaceAllString(s, "<time>")
}

// value normalises every string of a decoded JSON value.
func (n *normaliser) value(v any) any {
	switch v := v.(type) {
	case string:
		return n.str(v)
	case []any:
		for i := range v {
			v[i] = n.value(v[i])
		}
	case map[string]any:
		for k, x := range v {
			v[k] = n.value(x)
		}
	}
	return v
}

// transcript renders the requests of entries.
func transcript(name string, entries []fakegh.Entry, vars map[string]string) string {
	n := newNormaliser(vars, entries)
	var b strings.Builder
	fmt.Fprintf(&b, "# Transcript %s: every request of one run, as GitHub would receive it\n", name)
	fmt.Fprintf(&b, "# (each validated against GitHub's REST description by fakegh).\n")
	fmt.Fprintf(&b, "# Written by go test ./cmd/action -run TestScripts -update; see transcript_test.go.\n")
	if len(entries) == 0 {
		b.WriteString("\n(no request)\n")
	}
	for _, e := range entries {
		path, query, _ := strings.Cut(e.Path, "?")
		fmt.Fprintf(&b, "\n%s %s\n", e.Method, n.str(path))
		if query != "" {
			fmt.Fprintf(&b, "query: %s\n", n.str(query))
		}
		status := fmt.Sprint(e.Status)
		if e.Note != "" {
			status += " " + n.str(e.Note)
		}
		fmt.Fprintf(&b, "status: %s\n", status)
		if len(bytes.TrimSpace(e.Body)) == 0 {
			continue
		}
		dec := json.NewDecoder(bytes.NewReader(e.Body))
		dec.UseNumber()
		var v any
		if err := dec.Decode(&v); err != nil {
			fmt.Fprintf(&b, "body (not JSON: %v):\n%s\n", err, n.str(string(e.Body)))
			continue
		}
		var out bytes.Buffer
		enc := json.NewEncoder(&out)
		enc.SetEscapeHTML(false)
		enc.SetIndent("", "  ")
		_ = enc.Encode(n.value(v)) // maps encode with their keys sorted
		b.WriteString("body:\n" + out.String())
	}
	return b.String()
}

// TestTranscriptNormalises: volatile values give way to placeholders,
// and nothing else does (a fingerprint, a line number, a hex word that
// names no commit are kept), so that the golden files only change when
// what is sent changes.
func TestTranscriptNormalises(t *testing.T) {
	head := strings.Repeat("ab", 20)
	other := strings.Repeat("c7", 20)
	fp := strings.Repeat("9", 64)
	body := fmt.Sprintf(`{"z":1,"commit_id":%q,"body":"[%s](u/%s) at %s, see /tmp/w-1/x and /tmp/w\\-1/y; <!-- fp=%s --> deadbeef0 2026-01-01T00:00:00Z","a":[{"line":5}]}`,
		head, other[:12], other, head[:7], fp)
	got := transcript("t", []fakegh.Entry{
		{Method: "GET", Path: "/repos/o/r/pulls/1/files?page=2&per_page=100", Status: 200},
		{Method: "POST", Path: "/repos/o/r/pulls/1/reviews", Status: 200, Note: "event=COMMENT", Body: []byte(body)},
	}, map[string]string{"WORK": "/tmp/w-1", "HEAD": head})
	want := `
GET /repos/o/r/pulls/1/files
query: page=2&per_page=100
status: 200

POST /repos/o/r/pulls/1/reviews
status: 200 event=COMMENT
body:
{
  "a": [
    {
      "line": 5
    }
  ],
  "body": "[<commit-1:12>](u/<commit-1>) at ${HEAD:7}, see ${WORK}/x and ${WORK}/y; <!-- fp=` + fp + ` --> deadbeef0 <time>",
  "commit_id": "${HEAD}",
  "z": 1
}
`
	if _, rest, _ := strings.Cut(got, "\n\n"); "\n"+rest != want {
		t.Errorf("transcript:\n%s\nwant:\n%s", got, want)
	}
}
