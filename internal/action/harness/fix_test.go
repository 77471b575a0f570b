package harness_test

import (
	"os/exec"
	"strings"
	"testing"
)

var (
	goFixBase = map[string]string{
		"go.mod":     "module example.com/m\n\ngo 1.22\n",
		"p/p.go":     "package p\n\nfunc Old(a int) int { return a }\n",
		"q/q.go":     "package q\n\nimport \"example.com/m/p\"\n\nfunc Twice() int { return p.Old(1) + p.Old(2) }\n",
		"num/num.go": "package num\n\nfunc Scale(x int) int { return 2 * x }\n",
		"app/app.go": "package app\n\nimport \"example.com/m/num\"\n\nfunc Use() int {\n\treturn num.Scale(2)\n}\n",
	}
	goFixHead = map[string]string{
		"p/p.go":     "package p\n\nfunc New(a int) int { return a }\n",
		"num/num.go": "package num\n\nfunc Scale(x float64) float64 { return 2 * x }\n",
	}
)

// fixWith is fix mode with the scripted model.
var fixWith = map[string]string{"mode": "fix", "llm-base-url": "$LLM_URL", "llm-model": "scripted"}

// TestGoFix: fix mode derives the rename's edit mechanically and asks
// the model for the retyped result's; the oracle passes and two commits,
// one per change, are pushed to the pull request's branch in the remote.
func TestGoFix(t *testing.T) {
	needGit(t)
	w := runScenario(t, scenario{base: goFixBase, head: goFixHead, with: fixWith,
		stepEnv: map[string]string{"RIPPLE_LLM_API_KEY": "sk-test-0123456789"},
		replies: map[string]string{"func Use": "```go\nfunc Use() int {\n\treturn int(num.Scale(2))\n}\n```\n"}})
	w.wantOutput(t, "fix", "pushed")
	if got := strings.Fields(w.run.Outputs["fix-commits"]); len(got) != 2 {
		t.Errorf("fix-commits = %q, want two commits", w.run.Outputs["fix-commits"])
	}
	if got := w.git(t, w.root, "--git-dir="+w.remote, "rev-parse", "feature~2"); got != w.head {
		t.Errorf("the fix commits are not on the pull request's head: feature~2 is %s", got)
	}
	if got := w.git(t, w.root, "--git-dir="+w.remote, "show", "feature:app/app.go"); !strings.Contains(got, "return int(num.Scale(2))") {
		t.Errorf("app/app.go on the branch:\n%s", got)
	}
	if got := w.git(t, w.root, "--git-dir="+w.remote, "show", "feature:q/q.go"); !strings.Contains(got, "p.New(1) + p.New(2)") {
		t.Errorf("q/q.go on the branch:\n%s", got)
	}
	for _, m := range w.run.Masks {
		if m == "sk-test-0123456789" {
			goto masked
		}
	}
	t.Errorf("the model's key was not masked: %v", w.run.Masks)
masked:
	if strings.Count(w.run.Log, "sk-test-0123456789") != 1 {
		t.Errorf("the model's key appears in the log beyond its ::add-mask::")
	}
	w.wantSummary(t, "Pushed 2 commits to `feature`:")
	w.golden(t, "go-fix")
}

// TestPythonFix: the renamed function's import and call are fixed
// mechanically, pyright proves it in the virtual environment
// install-dependencies made from requirements.txt, and the commit is
// pushed.
func TestPythonFix(t *testing.T) {
	needGit(t)
	if !havePyright() {
		t.Skip("pyright is not installed in the user cache (.ci/run installs it with npm): the Python oracle cannot run offline")
	}
	if err := exec.Command("python3", "-m", "venv", "--help").Run(); err != nil {
		t.Skip("python3 -m venv is not available")
	}
	base := map[string]string{
		"requirements.txt": "# no dependencies: the install is real and offline\n",
		"app/__init__.py":  "",
		"app/lib.py":       "def fetch(url):\n    return url\n",
		"app/use.py":       "from app.lib import fetch\n\n\ndef use():\n    return fetch(\"x\")\n",
	}
	head := map[string]string{"app/lib.py": "def get(url):\n    return url\n"}
	w := runScenario(t, scenario{base: base, head: head, with: map[string]string{"mode": "fix"}})
	w.wantStep(t, "install", "success")
	w.wantSummary(t, "### Ripple: dependencies", "-m pip install --disable-pip-version-check --only-binary=:all: -r requirements.txt")
	w.wantOutput(t, "fix", "pushed")
	if got := w.git(t, w.root, "--git-dir="+w.remote, "show", "feature:app/use.py"); !strings.Contains(got, "from app.lib import get") || !strings.Contains(got, "return get(\"x\")") {
		t.Errorf("app/use.py on the branch:\n%s", got)
	}
	w.wantSummary(t, "--pythonpath ")
	w.golden(t, "python-fix")
}

// TestTypeScriptFix: the renamed export's import and call, proven by tsc.
func TestTypeScriptFix(t *testing.T) {
	needGit(t)
	if !haveTSC() {
		t.Skip("tsc (TypeScript 7) is not installed in the user cache (.ci/run installs it with npm): the TypeScript oracle cannot run offline")
	}
	head := map[string]string{"src/fmt.ts": "export function tag(id: number, suffix: string): string {\n  return `#${id}${suffix}`;\n}\n"}
	w := runScenario(t, scenario{base: tsBase, head: head, with: map[string]string{"mode": "fix"}})
	w.wantOutput(t, "fix", "pushed")
	if got := w.git(t, w.root, "--git-dir="+w.remote, "show", "feature:src/use.ts"); !strings.Contains(got, "import { tag } from './fmt'") || !strings.Contains(got, "return tag(n, '!')") {
		t.Errorf("src/use.ts on the branch:\n%s", got)
	}
	w.golden(t, "typescript-fix")
}

// TestTypeScriptTypesTier: a retyped parameter whose caller only tsc can
// judge (the syntax sees a call that still binds). install-dependencies
// runs npm ci on the project's lock file (no dependencies: real and
// offline), and the action reports tsc's error.
func TestTypeScriptTypesTier(t *testing.T) {
	needGit(t)
	if !haveTSC() {
		t.Skip("tsc (TypeScript 7) is not installed in the user cache (.ci/run installs it with npm): the type tier cannot run offline")
	}
	base := merge(tsBase, map[string]string{
		"package.json":      `{ "name": "demo", "version": "1.0.0", "private": true }` + "\n",
		"package-lock.json": `{ "name": "demo", "version": "1.0.0", "lockfileVersion": 3, "requires": true, "packages": { "": { "name": "demo", "version": "1.0.0" } } }` + "\n",
		"src/fmt.ts":        "export function label(id: number): string {\n  return `#${id}`;\n}\n",
		"src/use.ts":        "import { label } from './fmt';\n\nexport function show(n: number) {\n  return label(n);\n}\n",
	})
	head := map[string]string{"src/fmt.ts": "export function label(id: string): string {\n  return `#${id}`;\n}\n"}
	w := runScenario(t, scenario{base: base, head: head, with: analyse})
	if _, err := exec.LookPath("npm"); err == nil {
		w.wantStep(t, "install", "success")
		w.wantSummary(t, "`npm ci --ignore-scripts --no-audit --no-fund`")
	}
	w.wantAnnotation(t, "error", "src/use.ts", "4", "not assignable to parameter of type 'string'")
	w.wantOutput(t, "errors", "1")
	w.golden(t, "typescript-types")
}

// TestDependencyBump: a pull request that changes only go.mod and
// package.json without a dependency version Ripple can read (the go
// directive; an npm range with no lock and no registry here). Nothing in
// it is judged, and the action says so in the log and the summary
// instead of a bare pass. TestGoBumpFix is a bump that is read.
func TestDependencyBump(t *testing.T) {
	needGit(t)
	base := merge(goBase, map[string]string{"package.json": `{ "name": "demo", "dependencies": { "left-pad": "1.2.0" } }` + "\n"})
	head := map[string]string{
		"go.mod":       "module example.com/m\n\ngo 1.23\n",
		"package.json": `{ "name": "demo", "dependencies": { "left-pad": "1.3.0" } }` + "\n",
	}
	w := runScenario(t, scenario{base: base, head: head, with: analyse})
	w.wantOutput(t, "verdict", "pass")
	w.wantStep(t, "run", "success")
	const said = "Ripple checked nothing it could judge: this pull request changes only dependency manifests (go.mod, package.json), and it read no dependency version change from go.mod, package.json (a bump of an ecosystem Ripple does not read yet is not a change it follows"
	w.wantSummary(t, "Ripple checked nothing it could judge: this pull request changes only dependency manifests")
	var noticed bool
	for _, a := range w.run.Annotations {
		noticed = noticed || a.Level == "notice" && strings.Contains(a.Message, said)
	}
	if !noticed {
		t.Errorf("no notice saying %q:\n%s", said, w.annotations())
	}
	if !strings.Contains(w.run.Log, said) {
		t.Errorf("the log does not say %q:\n%s", said, w.run.Log)
	}
	w.golden(t, "dependency-bump")
}

// TestGoFixSuggested: with fix-push: none the proven fix is not pushed;
// the review suggests each edited block that lies in the diff, and the
// patch is the fix-patch output.
func TestGoFixSuggested(t *testing.T) {
	needGit(t)
	head := map[string]string{
		"p/p.go": "package p\n\nfunc New(a int) int { return a }\n",
		// a comment added above Twice puts its line in the diff
		"q/q.go": "package q\n\nimport \"example.com/m/p\"\n\n// Twice doubles.\nfunc Twice() int { return p.Old(1) + p.Old(2) }\n",
	}
	w := runScenario(t, scenario{base: goFixBase, head: head, with: map[string]string{"mode": "fix", "fix-push": "none"}})
	w.wantOutput(t, "fix", "suggested")
	if pushed := w.pushed(t); pushed != "" {
		t.Errorf("pushed with fix-push: none:\n%s", pushed)
	}
	var suggested int
	for _, c := range w.srv.Comments() {
		if c.Path == "q/q.go" && strings.Contains(c.Body, "```suggestion\nfunc Twice() int { return p.New(1) + p.New(2) }\n```") {
			suggested++
		}
	}
	if suggested != 1 {
		t.Errorf("%d suggestions of Twice's fix on q/q.go, want 1:\n%+v", suggested, w.srv.Comments())
	}
	if w.run.Outputs["fix-patch"] == "" {
		t.Error("no fix-patch output")
	}
	w.golden(t, "go-fix-suggested")
}

// TestInstallToolsMissing: the lock files ask for npm and pip, and the
// runner has neither npm nor python3. Each install is a warning and a
// row of the summary saying what was not installed; the check runs on
// with what the runner has and reports its findings.
func TestInstallToolsMissing(t *testing.T) {
	needGit(t)
	base := merge(tsBase, map[string]string{
		"package.json":      `{ "name": "demo", "version": "1.0.0", "private": true }` + "\n",
		"package-lock.json": `{ "name": "demo", "version": "1.0.0", "lockfileVersion": 3, "requires": true, "packages": { "": { "name": "demo", "version": "1.0.0" } } }` + "\n",
		"requirements.txt":  "\n",
	})
	w := runScenario(t, scenario{base: base, head: tsHead, with: analyse, without: []string{"npm", "python3", "python", "pip", "pip3"}})
	w.wantStep(t, "install", "success")
	var warned []string
	for _, a := range w.run.Annotations {
		if a.Level == "warning" {
			warned = append(warned, a.Message)
		}
	}
	if len(warned) != 2 || !strings.Contains(warned[0], "npm ci in . skipped: npm is not on PATH") || !strings.Contains(warned[1], "pip install skipped: no python3 on PATH") {
		t.Errorf("warnings:\n%s", strings.Join(warned, "\n"))
	}
	w.wantSummary(t, "| TypeScript `.` | not installed: `npm` is not on PATH |", "| Python | not installed: no `python3` on PATH |")
	w.wantAnnotation(t, "error", "src/use.ts", "4", "passes 2 arguments")
	w.golden(t, "install-tools-missing")
}
