package harness_test

import (
	"archive/zip"
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// depVersions are two versions of a dependency, example.com/dep, served
// by a file:// module proxy of the test's own: v1.1.0 deleted Add, which
// only called Sum (a rename), and gave Scale a second parameter.
var depVersions = map[string]string{
	"v1.0.0": "package dep\n\n// Sum adds.\nfunc Sum(a, b int) int { return a + b }\n\n// Add adds.\n//\n// Deprecated: use Sum.\nfunc Add(a, b int) int { return Sum(a, b) }\n\n// Scale doubles.\nfunc Scale(x int) int { return 2 * x }\n",
	"v1.1.0": "package dep\n\n// Sum adds.\nfunc Sum(a, b int) int { return a + b }\n\n// Scale multiplies.\nfunc Scale(x, by int) int { return by * x }\n",
}

// depProxy writes the module proxy (GOPROXY=file://DIR) and returns its
// folder and the go.sum lines of both versions, as go computes them.
func depProxy(t *testing.T) (string, map[string]string) {
	t.Helper()
	dir := t.TempDir()
	at := filepath.Join(dir, "example.com", "dep", "@v")
	if err := os.MkdirAll(at, 0o755); err != nil {
		t.Fatal(err)
	}
	const mod = "module example.com/dep\n\ngo 1.22\n"
	var list []string
	for v, src := range depVersions {
		list = append(list, v)
		var buf bytes.Buffer
		zw := zip.NewWriter(&buf)
		for name, data := range map[string]string{"go.mod": mod, "dep.go": src} {
			f, err := zw.Create("example.com/dep@" + v + "/" + name)
			if err != nil {
				t.Fatal(err)
			}
			io.WriteString(f, data)
		}
		if err := zw.Close(); err != nil {
			t.Fatal(err)
		}
		for ext, data := range map[string][]byte{".zip": buf.Bytes(), ".mod": []byte(mod), ".info": []byte(`{"Version":"` + v + `","Time":"2024-01-01T00:00:00Z"}`)} {
			if err := os.WriteFile(filepath.Join(at, v+ext), data, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	if err := os.WriteFile(filepath.Join(at, "list"), []byte(strings.Join(list, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("go", "mod", "download", "-json", "example.com/dep@v1.0.0", "example.com/dep@v1.1.0")
	cmd.Dir = t.TempDir()
	cmd.Env = append(os.Environ(), "GOPROXY=file://"+filepath.ToSlash(dir), "GOMODCACHE="+t.TempDir(), "GOSUMDB=off", "GOFLAGS=-modcacherw", "GOTOOLCHAIN=local")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go mod download from the test's proxy: %v", err)
	}
	sums := map[string]string{}
	dec := json.NewDecoder(bytes.NewReader(out))
	for {
		var m struct{ Version, Sum, GoModSum, Error string }
		if err := dec.Decode(&m); errors.Is(err, io.EOF) {
			break
		} else if err != nil || m.Error != "" {
			t.Fatalf("go mod download -json: %v %s", err, m.Error)
		}
		sums[m.Version] = "example.com/dep " + m.Version + " " + m.Sum + "\nexample.com/dep " + m.Version + "/go.mod " + m.GoModSum + "\n"
	}
	return dir, sums
}

// TestGoBumpFix: a Dependabot-style pull request that changes only
// go.mod and go.sum, bumping example.com/dep v1.0.0 -> v1.1.0. The
// check reads both versions through the module proxy the workflow
// names, reports the two uses the new version breaks as errors at
// their lines, and fix mode pushes the adapting commit to the pull
// request's branch: the deleted forwarder's call renamed mechanically,
// the added parameter by the (scripted) model, both proven by go build
// and go vet against v1.1.0.
func TestGoBumpFix(t *testing.T) {
	needGit(t)
	proxy, sums := depProxy(t)
	gomod := func(v string) string {
		return "module example.com/m\n\ngo 1.22\n\nrequire example.com/dep " + v + "\n"
	}
	base := map[string]string{
		"go.mod":     gomod("v1.0.0"),
		"go.sum":     sums["v1.0.0"],
		"app/app.go": "package app\n\nimport \"example.com/dep\"\n\nfunc Total() int { return dep.Add(1, 2) }\n\nfunc Use() int {\n\treturn dep.Scale(2)\n}\n",
	}
	head := map[string]string{"go.mod": gomod("v1.1.0"), "go.sum": sums["v1.1.0"]}
	w := runScenario(t, scenario{base: base, head: head, with: fixWith,
		stepEnv: map[string]string{"RIPPLE_LLM_API_KEY": "sk-test-0123456789", "GOPROXY": "file://" + filepath.ToSlash(proxy)},
		replies: map[string]string{"func Use": "```go\nfunc Use() int {\n\treturn dep.Scale(2, 2)\n}\n```\n"}})
	w.wantAnnotation(t, "error", "app/app.go", "5", "renamed to Sum")
	w.wantAnnotation(t, "error", "app/app.go", "8", "example.com/dep v1.0.0 -> v1.1.0")
	w.wantOutput(t, "fix", "pushed")
	got := w.git(t, w.root, "--git-dir="+w.remote, "show", "feature:app/app.go")
	if !strings.Contains(got, "return dep.Sum(1, 2)") || !strings.Contains(got, "return dep.Scale(2, 2)") {
		t.Errorf("app/app.go on the branch:\n%s", got)
	}
	if sum := w.git(t, w.root, "--git-dir="+w.remote, "show", "feature:go.mod"); !strings.Contains(sum, "example.com/dep v1.1.0") {
		t.Errorf("go.mod on the branch lost the bump:\n%s", sum)
	}
	if strings.Contains(w.run.Log, "checked nothing it could judge") {
		t.Errorf("the bump was read, yet the log says nothing was judged")
	}
	w.golden(t, "go-bump-fix")
}
