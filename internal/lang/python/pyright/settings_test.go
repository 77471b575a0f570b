package pyright

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// TestReadSettings reads a repository's pyright settings as pyright
// does: pyrightconfig.json (with comments) first, else pyproject's
// [tool.pyright], without the keys that choose files; a form the TOML
// reader does not know is named, never guessed.
func TestReadSettings(t *testing.T) {
	pyproject := []byte(`[project]
name = "x"
dependencies = ["a", "b"]

[tool.pyright]
# the project's own
pythonVersion = "3.9"
reportPrivateUsage = "none"   # a comment
strictParameterNoneValue = false
extraPaths = [
    "lib",  # the library
    'tools',
]
include = ["src"]
executionEnvironments = [{ root = "src" }]

[tool.mypy]
python_version = "3.8"
`)
	s, err := ReadSettings(nil, pyproject)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]any{"pythonVersion": "3.9", "reportPrivateUsage": "none", "strictParameterNoneValue": false,
		"extraPaths": []any{"lib", "tools"}}
	if s.From != "pyproject.toml" || !reflect.DeepEqual(s.Values, want) {
		t.Errorf("pyproject: got %s %#v, want %#v", s.From, s.Values, want)
	}
	if !reflect.DeepEqual(s.Skipped, []string{"executionEnvironments"}) {
		t.Errorf("skipped %q, want the inline table's key", s.Skipped)
	}
	if s, err := ReadSettings(nil, []byte("[tool.black]\nline-length = 88\n")); s != nil || err != nil {
		t.Errorf("no [tool.pyright]: got %+v, %v", s, err)
	}
	cfg := []byte(`{
  // comments are allowed
  "include": ["src"],
  "pythonVersion": "3.11", /* and these */
  "stubPath": "stubs"
}`)
	s, err = ReadSettings(cfg, pyproject)
	if err != nil {
		t.Fatal(err)
	}
	if want := map[string]any{"pythonVersion": "3.11", "stubPath": "stubs"}; s.From != "pyrightconfig.json" || !reflect.DeepEqual(s.Values, want) {
		t.Errorf("pyrightconfig.json: got %s %#v, want %#v", s.From, s.Values, want)
	}
	if _, err := ReadSettings([]byte("{ nope"), nil); err == nil || !strings.Contains(err.Error(), "pyrightconfig.json") {
		t.Errorf("a broken pyrightconfig.json: %v", err)
	}
}

// TestAnalyse runs the real pyright through the tier's configuration:
// the repository's settings reach it (extraPaths from [tool.pyright]
// resolve an import), a `# type: ignore` does not hide an error, and an
// unannotated parameter's member is reported as unknown.
func TestAnalyse(t *testing.T) {
	p := &Oracle{}
	if _, err := p.locate(context.Background()); err != nil {
		t.Skipf("pyright cannot run here: %v", err)
	}
	dir := t.TempDir()
	write := func(name, src string) {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, name)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("pyproject.toml", "[tool.pyright]\nextraPaths = [\"vendored\"]\ninclude = [\"nothing\"]\n")
	write("vendored/helper.py", "class Helper:\n    def run(self) -> int:\n        return 1\n")
	write("app/use.py", "from helper import Helper\n\n\ndef a() -> int:\n    return Helper().gone()  # type: ignore\n\n\ndef b(h):\n    return h.run()\n")
	settings, err := ReadSettings(nil, []byte("[tool.pyright]\nextraPaths = [\"vendored\"]\ninclude = [\"nothing\"]\n"))
	if err != nil {
		t.Fatal(err)
	}
	res, err := p.Analyse(context.Background(), Project{Root: dir, Files: []string{"app/use.py"}, Settings: settings})
	if err != nil {
		t.Fatal(err)
	}
	if !res.Complete || res.Analysed != 1 {
		t.Fatalf("analysed %d, complete %v", res.Analysed, res.Complete)
	}
	var got []string
	for _, d := range res.Diagnostics {
		got = append(got, d.Path+":"+d.Rule+":"+strings.SplitN(d.Message, "\n", 2)[0])
	}
	has := func(s string) bool {
		for _, g := range got {
			if strings.HasPrefix(g, s) {
				return true
			}
		}
		return false
	}
	if has("app/use.py:reportMissingImports") {
		t.Errorf("the settings' extraPaths did not reach pyright: %q", got)
	}
	if !has(`app/use.py:reportAttributeAccessIssue:Cannot access attribute "gone" for class "Helper"`) {
		t.Errorf("an error under # type: ignore was hidden: %q", got)
	}
	if !has(`app/use.py:reportUnknownMemberType:Type of "run" is unknown`) {
		t.Errorf("no report of the unknown member: %q", got)
	}
}
