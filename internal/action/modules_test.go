package action

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestDownloadModulesSteps runs the composite action's own scripts (the
// steps modules and download of action.yml) with bash in a real
// repository: tracked modules outside vendor and testdata are listed, a
// module that downloads counts, one that cannot is a warning annotation
// and never a failed step.
func TestDownloadModulesSteps(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go command")
	}
	a := readActionYAML(t)
	scripts := map[string]string{}
	for _, s := range a.Runs.Steps {
		scripts[s.ID] = s.Run
	}
	if scripts["modules"] == "" || scripts["download"] == "" {
		t.Fatal("action.yml has no modules and download steps")
	}
	repo, tmp := t.TempDir(), t.TempDir()
	files := map[string]string{
		"go.mod":            "module example.com/a\n\ngo 1.21\n",
		"a.go":              "package a\n",
		"sub/go.mod":        "module example.com/sub\n\ngo 1.21\n\nrequire example.invalid/nope v1.0.0\n",
		"vendor/x/go.mod":   "module example.com/x\n",
		"testdata/t/go.mod": "module example.com/t\n",
	}
	for name, text := range files {
		p := filepath.Join(repo, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	git := func(args ...string) {
		cmd := exec.Command("git", args...)
		cmd.Dir = repo
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	git("init", "-q")
	git("add", "-A")
	output := filepath.Join(tmp, "output")
	env := append(os.Environ(), "GITHUB_OUTPUT="+output, "RUNNER_TEMP="+tmp,
		"GOMODCACHE="+filepath.Join(tmp, "mod"), "GOPROXY=off", "GOFLAGS=-mod=mod", "GOTOOLCHAIN=local", "GOWORK=off")
	run := func(script string) string {
		cmd := exec.Command("bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", script) // as GitHub runs shell: bash
		cmd.Dir, cmd.Env = repo, env
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("step failed: %v\n%s", err, out)
		}
		return string(out)
	}
	run(scripts["modules"])
	got, _ := os.ReadFile(output)
	if !strings.Contains(string(got), "any=true\n") || !strings.Contains(string(got), "dir="+filepath.Join(tmp, "mod")) {
		t.Errorf("modules step outputs:\n%s", got)
	}
	listed, _ := os.ReadFile(filepath.Join(tmp, "ripple-modules.txt"))
	if string(listed) != "go.mod\nsub/go.mod\n" {
		t.Errorf("modules listed:\n%s", listed)
	}
	out := run(scripts["download"])
	if !strings.Contains(out, "go mod download in 1 module(s), 1 failed") {
		t.Errorf("download summary missing:\n%s", out)
	}
	if !strings.Contains(out, "::warning title=Ripple::go mod download failed in sub;") {
		t.Errorf("no warning for the module that cannot download:\n%s", out)
	}
}
