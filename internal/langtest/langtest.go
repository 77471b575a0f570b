// Package langtest runs scenarios: a txtar archive's old/ and new/ trees
// become two commits of a real repository, the check runs between them
// (check.Run, the whole path a push takes: classification, the shared
// walk, the front-ends' answers, the settled findings) and its output is
// compared with the archive. Each front-end runs its own scenarios
// (internal/lang/LANG/testdata/scenarios, one line in its
// scenario_test.go); internal/check keeps the ones that cross languages.
package langtest

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/ripple-dev/ripple/internal/lang/java/javac"
	"github.com/ripple-dev/ripple/internal/lang/python/pyright"
	"github.com/ripple-dev/ripple/internal/lang/typescript/tsc"

	"golang.org/x/tools/txtar"

	"github.com/ripple-dev/ripple/internal/check"
	"github.com/ripple-dev/ripple/internal/gitio"
	"github.com/ripple-dev/ripple/internal/model"
	"github.com/ripple-dev/ripple/internal/testrepo"
	"github.com/ripple-dev/ripple/internal/textedit"
)

// Update is the -update flag of a test binary that runs scenarios: it
// rewrites their changes sections (and, in a package that imports this
// one, whatever else that package's tests rewrite: one flag per binary).
var Update = flag.Bool("update", false, "rewrite the expected outputs: scenarios' changes sections, golden files")

// Scenarios runs every archive the glob pattern matches, each as a
// subtest: old/ and new/ become two commits of a real repository, the
// check runs between them, and its output is compared with the archive.
//
//   - `// want LEVEL:RELATION ["regexp"]` on a line of a new/ file: a
//     finding of that level (error, warning, note, or ok for a consistent
//     site) and relation must be reported on that line, with a message
//     matching the regexp. Several expectations may share a line. Every
//     reported finding (error, warning, note) must be wanted; consistent
//     ones are checked only where an ok: expectation names them.
//   - the `changes` section lists the atomic changes, one "LABEL summary"
//     a line; -update rewrites it.
//   - a comment line `flags: ...` passes config flags (-precision=syntax).
//   - a comment line `diagnostic: REGEXP`: some diagnostic or precision
//     note of the check must match it; `no diagnostic: REGEXP`: none may. A finding's message is matched as the text format
//     shows it: with " (without WHAT)" when the verdict lacked evidence.
//   - a comment line `needs: tsc` skips the scenario, saying why, when
//     TypeScript 7's compiler can be neither found nor installed;
//     `needs: javac` when no javac is on PATH or in JAVA_HOME; `needs:
//     pyright` when pyright can be neither found nor installed.
//   - files under fixed/ are the head state after applying every
//     mechanical fix the check proposed; each listed file must match.
func Scenarios(t *testing.T, pattern string) {
	t.Helper()
	files, err := filepath.Glob(pattern)
	if err != nil || len(files) == 0 {
		t.Fatalf("no scenarios: %v", err)
	}
	// a cache of the test's own: every Go scenario runs cold, then again
	// with the declarations the first run cached (repository packages by
	// content), and both runs must meet the archive
	cache := t.TempDir()
	t.Setenv("RIPPLE_CACHE", cache)
	goScenarios := 0
	for _, file := range files {
		t.Run(strings.TrimSuffix(filepath.Base(file), ".txtar"), func(t *testing.T) {
			runScenario(t, file)
			if b, err := os.ReadFile(file); err == nil && strings.Contains(string(b), ".go --") {
				goScenarios++
				t.Run("warm", func(t *testing.T) { runScenario(t, file) })
			}
		})
	}
	if ents, err := os.ReadDir(filepath.Join(cache, "types", "v2")); goScenarios > 0 && (err != nil || len(ents) == 0) {
		t.Errorf("the scenarios cached no declarations in %s (%v)", cache, err)
	}
}

var tokenRE = regexp.MustCompile(`(\w+):(\w+)(?:\s+"((?:[^"\\]|\\.)*)")?`)

type want struct {
	level, rel string
	re         *regexp.Regexp
	matched    bool
}

// runScenario checks one scenario archive: its changes section against
// the classified changes (rewritten under -update), its # want comments
// against the findings, and its diagnostic: and no diagnostic: lines
// against the diagnostics and notes; then its fixed trees (checkFixed).
func runScenario(t *testing.T, file string) {
	ar, err := txtar.ParseFile(file)
	if err != nil {
		t.Fatal(err)
	}
	sc := testrepo.FromTxtar(t, ar)
	NeedTools(t, sc.Comment)
	res := Check(t, sc)

	checkChanges(t, file, ar, sc, res)

	// findings
	wants := parseWants(t, sc)
	matchFindings(t, wants, res)
	missing := unmatched(wants)
	missing = append(missing, diagnosticWants(sc.Comment, res)...)
	sort.Strings(missing)
	for _, m := range missing {
		t.Error(m)
	}
	checkFixed(t, sc, res)
	if t.Failed() {
		for _, f := range res.Findings {
			t.Logf("reported %s:%d %s:%s %q [%s] missing %q", f.Site.Path, f.Site.Line, f.Level, f.Relation, f.Message, f.Precision, f.Missing)
		}
		for _, d := range res.Diagnostics {
			t.Logf("diagnostic: %s", d)
		}
	}
}

// checkChanges compares the scenario's changes section with the changes
// the check classified and derived, one line each; under -update it
// rewrites the section in file instead.
func checkChanges(t *testing.T, file string, ar *txtar.Archive, sc *testrepo.Scenario, res *model.Result) {
	var got []string
	for _, c := range res.Changes {
		line := string(c.Label) + " " + c.Summary()
		if c.Derived {
			line += " [derived]"
		}
		got = append(got, line)
	}
	gotText := strings.Join(got, "\n")
	if len(got) > 0 {
		gotText += "\n"
	}
	if *Update {
		replaceSection(ar, "changes", gotText)
		if err := os.WriteFile(file, txtar.Format(ar), 0o644); err != nil {
			t.Fatal(err)
		}
	} else if wantText := sc.Sections["changes"]; wantText != gotText {
		t.Errorf("changes differ (run go test -update to accept)\nwant:\n%sgot:\n%s", wantText, gotText)
	}
}

// parseWants reads the scenario's # want comments, by site (path:line):
// each a level:relation token with an optional quoted message pattern.
func parseWants(t *testing.T, sc *testrepo.Scenario) map[string][]*want {
	wants := map[string][]*want{}
	for site, texts := range sc.Wants {
		for _, text := range texts {
			ms := tokenRE.FindAllStringSubmatch(text, -1)
			if len(ms) == 0 {
				t.Fatalf("%s: malformed want %q", site, text)
			}
			for _, m := range ms {
				w := &want{level: m[1], rel: m[2]}
				if m[3] != "" {
					w.re = regexp.MustCompile(strings.ReplaceAll(m[3], `\"`, `"`))
				}
				wants[site] = append(wants[site], w)
			}
		}
	}
	return wants
}

// matchFindings marks the wants each finding meets, and reports a
// finding that meets none unless it is consistent (ok).
func matchFindings(t *testing.T, wants map[string][]*want, res *model.Result) {
	for _, f := range res.Findings {
		site := fmt.Sprintf("%s:%d", f.Site.Path, f.Site.Line)
		level := string(f.Level)
		if f.Verdict == model.Consistent || f.Level == model.LevelNone {
			level = "ok"
		}
		matched := false
		for _, w := range wants[site] {
			msg := f.Message
			if f.Missing != "" {
				msg += " (without " + f.Missing + ")"
			}
			if w.level == level && w.rel == string(f.Relation) && (w.re == nil || w.re.MatchString(msg)) {
				w.matched, matched = true, true
			}
		}
		if !matched && level != "ok" {
			t.Errorf("%s: unexpected %s:%s %q [%s] (change %s)", site, level, f.Relation, f.Message, f.Precision, f.Change.Summary())
		}
	}
}

// unmatched says each want no finding met.
func unmatched(wants map[string][]*want) []string {
	var missing []string
	for site, ws := range wants {
		for _, w := range ws {
			if !w.matched {
				re := ""
				if w.re != nil {
					re = " " + w.re.String()
				}
				missing = append(missing, fmt.Sprintf("%s: no %s:%s%s", site, w.level, w.rel, re))
			}
		}
	}
	return missing
}

// diagnosticWants checks the comment's "diagnostic: RE" lines (a
// diagnostic or note must match) and "no diagnostic: RE" lines (none may)
// and says each one not met.
func diagnosticWants(comment string, res *model.Result) []string {
	var missing []string
	for _, l := range strings.Split(comment, "\n") {
		if rest, ok := strings.CutPrefix(strings.TrimSpace(l), "no diagnostic:"); ok {
			re := regexp.MustCompile(strings.TrimSpace(rest))
			for _, d := range res.Diagnostics {
				if re.MatchString(d.String()) {
					missing = append(missing, "unwanted diagnostic "+d.String())
				}
			}
			for _, n := range res.PrecisionNotes {
				if re.MatchString(n) {
					missing = append(missing, "unwanted note "+n)
				}
			}
			continue
		}
		rest, ok := strings.CutPrefix(strings.TrimSpace(l), "diagnostic:")
		if !ok {
			continue
		}
		re := regexp.MustCompile(strings.TrimSpace(rest))
		found := false
		for _, d := range res.Diagnostics {
			found = found || re.MatchString(d.String())
		}
		for _, n := range res.PrecisionNotes {
			found = found || re.MatchString(n)
		}
		if !found {
			missing = append(missing, "no diagnostic "+re.String())
		}
	}
	return missing
}

// Check runs the check between a scenario's two commits, with the
// config flags of its `flags:` line, as the hook does.
func Check(t *testing.T, sc *testrepo.Scenario) *model.Result {
	t.Helper()
	cfg := sc.Config(t)
	ctx := context.Background()
	repo, err := gitio.Open(ctx, sc.Dir)
	if err != nil {
		t.Fatal(err)
	}
	defer repo.Close()
	res, err := check.Run(ctx, repo, check.Options{Base: sc.Base, Head: sc.Head, Config: cfg})
	if err != nil {
		t.Fatalf("check: %v", err)
	}
	return res
}

func replaceSection(ar *txtar.Archive, name, data string) {
	for i := range ar.Files {
		if ar.Files[i].Name == name {
			ar.Files[i].Data = []byte(data)
			return
		}
	}
	ar.Files = append(ar.Files, txtar.File{Name: name, Data: []byte(data)})
}

// checkFixed applies the findings' mechanical fixes to the head state
// and compares the files of the fixed/ sections.
func checkFixed(t *testing.T, sc *testrepo.Scenario, res *model.Result) {
	var edits []model.TextEdit
	for _, f := range res.Findings {
		if f.Fix != nil {
			edits = append(edits, f.Fix.Edits...)
		}
	}
	byPath := textedit.ByPath(edits)
	for name, want := range sc.Sections {
		path, ok := strings.CutPrefix(name, "fixed/")
		if !ok {
			continue
		}
		src, err := os.ReadFile(filepath.Join(sc.Dir, filepath.FromSlash(path)))
		if err != nil {
			t.Fatal(err)
		}
		got, err := textedit.Apply(src, byPath[path])
		if err != nil {
			t.Errorf("fixes of %s do not apply: %v", path, err)
			continue
		}
		if string(got) != want {
			t.Errorf("%s after the fixes:\n%s\nwant:\n%s", path, got, want)
		}
	}
}

// NeedTools skips a scenario whose comment says `needs: tsc` when the
// tool cannot run here (found on PATH or in the user cache, else
// installed there with npm, as the check itself does under precision
// types). The tool installed in the process's user cache is linked into
// the test's hermetic one (testrepo.UseTools).
func NeedTools(t *testing.T, comment string) {
	t.Helper()
	for _, l := range strings.Split(comment, "\n") {
		rest, ok := strings.CutPrefix(strings.TrimSpace(l), "needs:")
		if !ok {
			continue
		}
		for _, tool := range strings.Fields(rest) {
			switch tool {
			case "tsc":
				testrepo.UseTools(t, testrepo.TypeScriptTool)
				if _, err := (&tsc.Compiler{}).Locate(context.Background()); err != nil {
					t.Skipf("TypeScript 7's compiler cannot run here: %v", err)
				}
			case "pyright":
				testrepo.UseTools(t, testrepo.PyrightTool)
				if _, err := (&pyright.Oracle{}).Locate(context.Background()); err != nil {
					t.Skipf("pyright cannot run here: %v", err)
				}
			case "javac":
				if _, err := (&javac.Compiler{}).Locate(context.Background()); err != nil {
					t.Skipf("javac cannot run here: %v", err)
				}
			default:
				t.Fatalf("needs: unknown tool %q", tool)
			}
		}
	}
}
