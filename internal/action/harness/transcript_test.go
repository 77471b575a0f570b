package harness_test

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/diff"
)

var update = flag.Bool("update", false, "rewrite the golden transcripts under testdata/runs from this run")

// transcript renders what a reviewer sees of a whole run, with the
// volatile values (temporary paths, commit names, times) replaced: the
// steps that ran and their outputs, the action's outputs, the
// annotations, every request GitHub received, what was pushed, and the
// job summary.
func (w *world) transcript(t *testing.T) string {
	var b strings.Builder
	r := w.run
	b.WriteString("# steps\n")
	for _, s := range r.Steps {
		fmt.Fprintf(&b, "%s: %s", s.Label, s.Outcome)
		if s.Exit != 0 {
			fmt.Fprintf(&b, " (exit %d)", s.Exit)
		}
		for _, k := range sortedKeys(s.Outputs) {
			fmt.Fprintf(&b, " %s=%s", k, strings.ReplaceAll(s.Outputs[k], "\n", `\n`))
		}
		b.WriteString("\n")
	}
	b.WriteString("\n# outputs\n")
	for _, k := range sortedKeys(r.Outputs) {
		if v := r.Outputs[k]; v != "" {
			fmt.Fprintf(&b, "%s=%s\n", k, v)
		}
	}
	b.WriteString("\n# annotations\n")
	for _, a := range r.Annotations {
		var props []string
		for _, k := range sortedKeys(a.Properties) {
			props = append(props, k+"="+a.Properties[k])
		}
		fmt.Fprintf(&b, "%s %s: %s\n", a.Level, strings.Join(props, ","), a.Message)
	}
	b.WriteString("\n# requests\n")
	for _, e := range w.srv.Log() {
		b.WriteString(e.String() + "\n")
	}
	for i, rv := range w.srv.Reviews() {
		fmt.Fprintf(&b, "\n# review %d (%s, %d inline comments)\n%s\n", i+1, rv.Event, len(rv.Comments), rv.Body)
		for _, c := range w.srv.Comments() {
			if c.ReviewID == rv.ID {
				fmt.Fprintf(&b, "--- comment %s:%d\n%s\n", c.Path, c.Line, c.Body)
			}
		}
	}
	if pushed := w.pushed(t); pushed != "" {
		b.WriteString("\n# pushed\n" + pushed)
	}
	b.WriteString("\n# summary\n" + r.Summary)
	return w.normalise(b.String())
}

// pushed is the commits the remote's branch gained, with their diffs.
func (w *world) pushed(t *testing.T) string {
	var b strings.Builder
	for _, br := range strings.Fields(w.git(t, w.root, "--git-dir="+w.remote, "for-each-ref", "--format=%(refname:short)", "refs/heads")) {
		if br == "main" {
			continue
		}
		if w.git(t, w.root, "--git-dir="+w.remote, "rev-parse", br) == w.head {
			continue
		}
		fmt.Fprintf(&b, "## %s\n%s\n", br, w.git(t, w.root, "--git-dir="+w.remote, "log", "-p", "--format=commit %H%nAuthor: %an <%ae>%n%n%B", w.head+".."+br))
	}
	return b.String()
}

var (
	sha1RE     = regexp.MustCompile(`\b[0-9a-f]{40}\b`)
	shortRE    = regexp.MustCompile(`\b[0-9a-f]{7,39}\b`)
	timeRE     = regexp.MustCompile(`\b\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:\d{2})\b`)
	durationRE = regexp.MustCompile(`\b\d+(\.\d+)?(ms|µs|s)\b|\bin \d+ s\b|, \d+ s$|\(\d+ tokens in, \d+ out\)|ran in \d+(\.\d+)? ?s`)
	indexRE    = regexp.MustCompile(`(?m)^index [0-9a-f]+\.\.[0-9a-f]+( \d+)?$`)
	portRE     = regexp.MustCompile(`127\.0\.0\.1:\d+`)
)

func (w *world) normalise(s string) string {
	s = strings.ReplaceAll(s, w.root, "$ROOT")
	if abs, err := filepath.Abs(repoRoot); err == nil {
		s = strings.ReplaceAll(s, abs, "$ACTION")
	}
	s = portRE.ReplaceAllString(s, "127.0.0.1:<port>")
	commits := map[string]string{w.base: "${BASE}", w.head: "${HEAD}"}
	var order []string
	for _, c := range sha1RE.FindAllString(s, -1) {
		if _, ok := commits[c]; !ok {
			commits[c] = fmt.Sprintf("<commit-%d>", len(order)+1)
			order = append(order, c)
		}
	}
	s = indexRE.ReplaceAllString(s, "index <blobs>$1")
	s = sha1RE.ReplaceAllStringFunc(s, func(c string) string { return commits[c] })
	s = shortRE.ReplaceAllStringFunc(s, func(p string) string {
		var full []string
		for c := range commits {
			if strings.HasPrefix(c, p) {
				full = append(full, c)
			}
		}
		sort.Strings(full)
		if len(full) == 0 {
			return p
		}
		l := commits[full[0]]
		return strings.TrimSuffix(l, "}") + fmt.Sprintf(":%d", len(p)) + map[bool]string{true: "}", false: ""}[strings.HasPrefix(l, "${")]
	})
	s = timeRE.ReplaceAllString(s, "<time>")
	s = durationRE.ReplaceAllStringFunc(s, func(d string) string {
		switch {
		case strings.HasPrefix(d, "in "):
			return "in <n> s"
		case strings.HasPrefix(d, ", "):
			return ", <n> s"
		case strings.HasPrefix(d, "("):
			return "(<n> tokens in, <n> out)"
		case strings.HasPrefix(d, "ran in"):
			return "ran in <duration>"
		}
		return "<duration>"
	})
	return s
}

// golden compares the run's transcript with testdata/runs/NAME.txt
// (-update rewrites it).
func (w *world) golden(t *testing.T, name string) {
	t.Helper()
	got := "# Run " + name + ": action.yml run end to end by the harness (go test ./internal/action/harness -update rewrites this file)\n\n" + w.transcript(t)
	file := filepath.Join("testdata", "runs", name+".txt")
	if *update {
		if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(file, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(file)
	if err != nil {
		t.Fatalf("no golden transcript (%v): run go test ./internal/action/harness -update and review the new file", err)
	}
	if string(want) != got {
		t.Errorf("the run differs from %s; if that is meant, rewrite it with -update and review its diff:\n%s", file, diff.Diff("golden", want, "this run", []byte(got)))
	}
}
