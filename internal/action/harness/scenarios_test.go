package harness_test

import (
	"os/exec"
	"strings"
	"testing"

	"github.com/ripple-dev/ripple/internal/action/harness"
)

// The pull requests of the scenarios: one changed declaration per
// language, each with a caller the pull request did not update.
var (
	goBase = map[string]string{
		"go.mod":   "module example.com/m\n\ngo 1.22\n",
		"p/p.go":   "package p\n\nfunc Sum(a, b int) int { return a + b }\n",
		"q/q.go":   "package q\n\nimport \"example.com/m/p\"\n\nfunc Use() int {\n\treturn p.Sum(1, 2)\n}\n",
		"README":   "demo\n",
		"p/old.go": "package p\n\nfunc Old(a int) int { return a }\n",
		"r/r.go":   "package r\n\nimport \"example.com/m/p\"\n\nfunc Twice() int { return p.Old(1) + p.Old(2) }\n",
	}
	goHead = map[string]string{
		"p/p.go": "package p\n\nfunc Sum(a, b, c int) int { return a + b + c }\n",
	}
	goRename = map[string]string{
		"p/old.go": "package p\n\nfunc New(a int) int { return a }\n",
	}
	pyBase = map[string]string{
		"app/__init__.py": "",
		"app/lib.py":      "def total(a, b):\n    return a + b\n",
		"app/use.py":      "from app.lib import total\n\n\ndef use():\n    return total(1, 2)\n",
	}
	pyHead = map[string]string{
		"app/lib.py": "def total(a, b, c):\n    return a + b + c\n",
	}
	tsBase = map[string]string{
		"tsconfig.json": `{ "compilerOptions": { "strict": true, "target": "es2022", "module": "esnext", "moduleResolution": "node" }, "include": ["src"] }` + "\n",
		"src/fmt.ts":    "export function label(id: number, suffix: string): string {\n  return `#${id}${suffix}`;\n}\n",
		"src/use.ts":    "import { label } from './fmt';\n\nexport function show(n: number) {\n  return label(n, '!');\n}\n",
	}
	tsHead = map[string]string{
		"src/fmt.ts": "export function label(id: number): string {\n  return `#${id}`;\n}\n",
	}
)

func merge(ms ...map[string]string) map[string]string {
	out := map[string]string{}
	for _, m := range ms {
		for k, v := range m {
			out[k] = v
		}
	}
	return out
}

// analyse is the check without the review (annotations, SARIF, summary).
var analyse = map[string]string{"review": "false"}

func needGit(t *testing.T) {
	for _, tool := range []string{"git", "go", "bash"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("%s is not installed", tool)
		}
	}
}

func (w *world) wantAnnotation(t *testing.T, level, file, line, msg string) {
	t.Helper()
	for _, a := range w.run.Annotations {
		if a.Level == level && a.Properties["file"] == file && a.Properties["line"] == line && strings.Contains(a.Message, msg) {
			return
		}
	}
	t.Errorf("no %s annotation at %s:%s saying %q; the annotations:\n%s", level, file, line, msg, w.annotations())
}

func (w *world) annotations() string {
	var b strings.Builder
	for _, a := range w.run.Annotations {
		b.WriteString(a.Level + " " + a.Properties["file"] + ":" + a.Properties["line"] + " " + a.Message + "\n")
	}
	return b.String()
}

func (w *world) wantOutput(t *testing.T, name, want string) {
	t.Helper()
	if got := w.run.Outputs[name]; got != want {
		t.Errorf("output %s = %q, want %q", name, got, want)
	}
}

func (w *world) wantSummary(t *testing.T, subs ...string) {
	t.Helper()
	for _, s := range subs {
		if !strings.Contains(w.run.Summary, s) {
			t.Errorf("the job summary does not say %q:\n%s", s, w.run.Summary)
		}
	}
}

func (w *world) wantStep(t *testing.T, id, outcome string) *harness.StepResult {
	t.Helper()
	s := w.run.Step(id)
	if s == nil {
		t.Fatalf("no step %s", id)
	}
	if s.Outcome != outcome {
		t.Errorf("step %s: %s, want %s; its log:\n%s", id, s.Outcome, outcome, s.Log)
	}
	return s
}

func TestGoAnalyse(t *testing.T) {
	needGit(t)
	w := runScenario(t, scenario{base: goBase, head: goHead, with: analyse})
	build := w.wantStep(t, "build", "success")
	if build.Outputs["cgo"] != "true" {
		t.Errorf("the build step did not use cgo on a runner with a C compiler: %v", build.Outputs)
	}
	if cgo := buildSetting(t, build.Outputs["bin"], "CGO_ENABLED"); cgo != "1" {
		t.Errorf("the binary's CGO_ENABLED is %q, want 1", cgo)
	}
	w.wantStep(t, "run", "failure")
	if !w.run.Failed || w.run.ExitCode != 1 {
		t.Errorf("the action's step: failed=%v exit %d, want exit 1 (inconsistent sites)", w.run.Failed, w.run.ExitCode)
	}
	w.wantAnnotation(t, "error", "q/q.go", "6", "call passes 2 arguments; Sum now takes 3")
	w.wantOutput(t, "verdict", "fail")
	w.wantOutput(t, "errors", "1")
	w.wantOutput(t, "review", "skipped")
	w.wantOutput(t, "head", w.head)
	w.wantSummary(t, "Review: off (review: false).")
	if n := len(w.srv.Reviews()); n != 0 {
		t.Errorf("%d reviews posted with review: false", n)
	}
	w.golden(t, "go-analyse")
}

func TestPythonAnalyse(t *testing.T) {
	needGit(t)
	w := runScenario(t, scenario{base: pyBase, head: pyHead, with: analyse})
	w.wantAnnotation(t, "error", "app/use.py", "5", "misses required argument c")
	w.wantOutput(t, "verdict", "fail")
	w.wantOutput(t, "errors", "1")
	w.golden(t, "python-analyse")
}

func TestTypeScriptAnalyse(t *testing.T) {
	needGit(t)
	w := runScenario(t, scenario{base: tsBase, head: tsHead, with: analyse})
	w.wantAnnotation(t, "error", "src/use.ts", "4", "passes 2 arguments")
	w.wantOutput(t, "verdict", "fail")
	w.golden(t, "typescript-analyse")
}

// TestMixedReview: one pull request changing a declaration in each
// language; the review carries every site, the summary each language.
func TestMixedReview(t *testing.T) {
	needGit(t)
	w := runScenario(t, scenario{base: merge(goBase, pyBase, tsBase), head: merge(goHead, pyHead, tsHead)})
	w.wantAnnotation(t, "error", "q/q.go", "6", "Sum now takes 3")
	w.wantAnnotation(t, "error", "app/use.py", "5", "misses required argument c")
	w.wantAnnotation(t, "error", "src/use.ts", "4", "passes 2 arguments")
	w.wantOutput(t, "errors", "3")
	w.wantOutput(t, "review", "posted")
	rs := w.srv.Reviews()
	if len(rs) != 1 {
		t.Fatalf("%d reviews, want 1", len(rs))
	}
	for _, site := range []string{"q/q.go:6", "app/use.py:5", "src/use.ts:4"} {
		if !strings.Contains(rs[0].Body, site) {
			t.Errorf("the review's body does not list %s:\n%s", site, rs[0].Body)
		}
	}
	w.golden(t, "mixed-review")
}

// TestTypeScriptReviewSuggestion: the site is on a line of the diff, so
// the review comments on it inline.
func TestTypeScriptReviewSuggestion(t *testing.T) {
	needGit(t)
	head := merge(tsHead, map[string]string{
		"src/use.ts": "import { label } from './fmt';\n\nexport function show(n: number) {\n  return label(n, '!');\n}\n\nexport function shout(n: number) {\n  return label(n, '!!');\n}\n",
	})
	w := runScenario(t, scenario{base: tsBase, head: head})
	w.wantOutput(t, "review", "posted")
	var inline int
	for _, c := range w.srv.Comments() {
		if c.Path == "src/use.ts" && c.Line == 8 {
			inline++
		}
	}
	if inline != 1 {
		t.Errorf("%d inline comments on src/use.ts:8 (a line of the diff), want 1:\n%v", inline, w.srv.Comments())
	}
	w.golden(t, "typescript-review")
}

func TestPythonReview(t *testing.T) {
	needGit(t)
	w := runScenario(t, scenario{base: pyBase, head: pyHead, with: map[string]string{"install-dependencies": "none"}})
	for _, id := range []string{"modules", "download", "deps", "install"} {
		w.wantStep(t, id, "skipped")
	}
	w.wantSummary(t, "**Python**: types (pyright)", "lacked: a virtual environment of the project's requirements")
	w.wantOutput(t, "review", "posted")
	if rs := w.srv.Reviews(); len(rs) != 1 || !strings.Contains(rs[0].Body, "app/use.py:5") {
		t.Errorf("reviews: %+v", rs)
	}
	w.golden(t, "python-review")
}

func TestGoReview(t *testing.T) {
	needGit(t)
	w := runScenario(t, scenario{base: goBase, head: goHead})
	w.wantOutput(t, "review", "posted")
	if !strings.HasPrefix(w.run.Outputs["review-url"], "https://github.com/octo/demo/pull/7#pullrequestreview-") {
		t.Errorf("review-url = %q", w.run.Outputs["review-url"])
	}
	w.golden(t, "go-review")
}

// TestForkPullRequest: a pull request from a fork runs with a read-only
// token. Annotations and the SARIF file carry the findings; the review
// is refused (403) and nothing is pushed, and the summary says why.
func TestForkPullRequest(t *testing.T) {
	needGit(t)
	w := runScenario(t, scenario{base: goBase, head: merge(goHead, goRename), fork: true, with: map[string]string{"mode": "fix"}})
	w.wantAnnotation(t, "error", "q/q.go", "6", "Sum now takes 3")
	w.wantOutput(t, "review", "failed")
	if w.run.Outputs["sarif-file"] == "" {
		t.Error("no sarif-file output")
	}
	if pushed := w.pushed(t); pushed != "" {
		t.Errorf("pushed to a fork's pull request:\n%s", pushed)
	}
	w.wantSummary(t, "the pull request comes from a fork (mallory/demo), so the workflow's token is read-only")
	w.golden(t, "fork")
}

// TestNoCompiler: a runner without a C compiler builds the action
// without cgo; Go is still checked, and one warning says which languages
// are not, why, and how to get them.
func TestNoCompiler(t *testing.T) {
	needGit(t)
	w := runScenario(t, scenario{base: merge(goBase, pyBase), head: merge(goHead, pyHead), noCC: true, with: analyse})
	build := w.wantStep(t, "build", "success")
	if build.Outputs["cgo"] != "false" {
		t.Errorf("build outputs %v, want cgo=false", build.Outputs)
	}
	cgo := buildSetting(t, build.Outputs["bin"], "CGO_ENABLED")
	if cgo != "0" {
		t.Errorf("the binary's CGO_ENABLED is %q, want 0", cgo)
	}
	var warned int
	for _, a := range w.run.Annotations {
		if a.Level == "warning" && strings.Contains(a.Message, "Python, TypeScript, JavaScript and Java are not checked on this runner") {
			warned++
		}
	}
	if warned != 1 {
		t.Errorf("%d warnings about the languages not checked, want 1:\n%s", warned, w.annotations())
	}
	w.wantAnnotation(t, "error", "q/q.go", "6", "Sum now takes 3")
	for _, a := range w.run.Annotations {
		if a.Properties["file"] == "app/use.py" {
			t.Errorf("a Python site annotated by a binary without its parser: %v", a)
		}
	}
	w.wantSummary(t, "### Ripple: languages not checked", "apt-get install -y gcc")
	w.golden(t, "no-compiler")
}

// buildSetting reads a build setting of a binary (go version -m).
func buildSetting(t *testing.T, bin, key string) string {
	t.Helper()
	out, err := exec.Command("go", "version", "-m", bin).Output()
	if err != nil {
		t.Fatalf("go version -m %s: %v", bin, err)
	}
	for _, l := range strings.Split(string(out), "\n") {
		f := strings.Fields(l)
		if len(f) == 2 && f[0] == "build" && strings.HasPrefix(f[1], key+"=") {
			return strings.TrimPrefix(f[1], key+"=")
		}
	}
	return ""
}
