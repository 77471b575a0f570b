package python

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"testing"

	"github.com/ripple-dev/ripple/internal/gitio"
	"github.com/ripple-dev/ripple/internal/lang"
	"github.com/ripple-dev/ripple/internal/model"
)

func TestNormName(t *testing.T) {
	for in, want := range map[string]string{"Jinja2": "jinja2", "ruamel.yaml": "ruamel-yaml", "Foo__Bar-.baz": "foo-bar-baz", " typing_extensions ": "typing-extensions"} {
		if got := normName(in); got != want {
			t.Errorf("normName(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestParseRequirement(t *testing.T) {
	for _, c := range []struct{ in, name, spec, pin, marker string }{
		{"requests==2.31.0", "requests", "==2.31.0", "2.31.0", ""},
		{"Requests [socks, security] == 2.31.0 ; python_version >= '3.8'", "requests", "==2.31.0", "2.31.0", "python_version >= '3.8'"},
		{"requests (>=2.31, <3)", "requests", ">=2.31,<3", "", ""},
		{"requests~=2.31", "requests", "~=2.31", "", ""},
		{"requests===2.31.0", "requests", "===2.31.0", "2.31.0", ""},
		{"requests==2.*", "requests", "==2.*", "", ""},
		{"numpy==2.0.0rc1", "numpy", "==2.0.0rc1", "2.0.0rc1", ""},
		{"pkg @ https://example.com/pkg-1.0.tar.gz", "pkg", "", "", ""},
		{"flask", "flask", "", "", ""},
	} {
		r, ok := parseRequirement(c.in)
		if !ok || r.name != c.name || r.spec != c.spec || r.pin != c.pin || r.marker != c.marker {
			t.Errorf("parseRequirement(%q) = %+v, %v; want name %q spec %q pin %q marker %q", c.in, r, ok, c.name, c.spec, c.pin, c.marker)
		}
	}
	for _, bad := range []string{"requests=2.31", "-requests", "==2.0", "requests 2.31"} {
		if r, ok := parseRequirement(bad); ok {
			t.Errorf("parseRequirement(%q) = %+v, want not a requirement", bad, r)
		}
	}
}

func TestReadRequirements(t *testing.T) {
	tree := gitio.MemTree{
		"requirements.txt": []byte("# pins\n-r requirements/base.txt\n--constraint=constraints.txt\n-e ./local\n--index-url https://example.com/simple\n" +
			"attrs==23.1.0 \\\n    --hash=sha256:abc\nrich[jupyter]==13.7.0 ; sys_platform != \"win32\"  # the console\n./wheels/x.whl\nhttps://example.com/y.tar.gz\n-r missing.txt\n"),
		"requirements/base.txt": []byte("click==8.1.7\n-r ../requirements.txt\n"),
		"constraints.txt":       []byte("urllib3==2.0.7\n"),
	}
	reqs, err := readRequirements(context.Background(), tree, "requirements.txt", map[string]bool{})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range reqs {
		got = append(got, fmt.Sprintf("%s %s %s:%d %s", r.name, r.pin, r.file, r.line, r.marker))
	}
	want := []string{"click 8.1.7 requirements/base.txt:1 ", "urllib3 2.0.7 constraints.txt:1 ", "attrs 23.1.0 requirements.txt:6 ", `rich 13.7.0 requirements.txt:8 sys_platform != "win32"`}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	// bad input: the file and the line, no panic
	for src, msg := range map[string]string{
		"flask==2.0\nflask=2.1\n": `requirements.txt:2: not a requirement: "flask=2.1"`,
		"-r\n":                    "requirements.txt:1: -r names no file",
		"\xff\xfe==1\n":           "requirements.txt:1: not a requirement",
	} {
		_, err := readRequirements(context.Background(), gitio.MemTree{"requirements.txt": []byte(src)}, "requirements.txt", map[string]bool{})
		if err == nil || !strings.Contains(err.Error(), msg) {
			t.Errorf("%q: error %v, want %q", src, err, msg)
		}
	}
}

func TestParsePyproject(t *testing.T) {
	src := `[project]
name = "app"
dependencies = [
    "requests>=2.31",
    'Jinja2==3.1.0',
]

[project.optional-dependencies]
yaml = ["PyYAML==6.0.1 ; python_version >= '3.8'"]

[dependency-groups]
test = ["pytest-cov==4.1.0", {include-group = "lint"}]
lint = ["ruff==0.4.0"]

[tool.poetry.dependencies]
python = "^3.10"
httpx = "0.27.0"
rich = { version = "^13.7", extras = ["jupyter"] }

[tool.poetry.group.dev.dependencies]
mypy = "==1.10.0"
`
	reqs, err := parsePyproject("pyproject.toml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range reqs {
		got = append(got, fmt.Sprintf("%s %q %s :%d", r.name, r.spec, r.pin, r.line))
	}
	want := []string{`requests ">=2.31"  :4`, `jinja2 "==3.1.0" 3.1.0 :5`, `pyyaml "==6.0.1" 6.0.1 :9`, `ruff "==0.4.0" 0.4.0 :13`, `pytest-cov "==4.1.0" 4.1.0 :12`,
		`httpx "0.27.0" 0.27.0 :17`, `rich "^13.7"  :18`, `mypy "==1.10.0" 1.10.0 :21`}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	for src, msg := range map[string]string{
		"[project]\ndependencies = [\n  \"a==1\",\n  \"b==2\"\n": "pyproject.toml:4: expected a comma",
		"[project]\ndependencies = \"a==1\"\n":                   "pyproject.toml: ",
		"[project]\ndependencies = [\"a=1\"]\n":                  `pyproject.toml:2: project.dependencies: not a requirement: "a=1"`,
		"[tool.poetry.dependencies]\na = 3\n":                    "pyproject.toml:2: tool.poetry.dependencies.a: a dependency must be a version string or a table",
		"[dependency-groups]\ng = [{other = 1}]\n":               "pyproject.toml:2: dependency-groups.g: a table entry must be {include-group = ...}",
		"[project]\nname = \"x\"\n[project]\nname = \"y\"\n":     "pyproject.toml:3: ",
	} {
		_, err := parsePyproject("pyproject.toml", []byte(src))
		if err == nil || !strings.Contains(err.Error(), msg) {
			t.Errorf("%q: error %v, want %q", src, err, msg)
		}
	}
}

func TestParseLock(t *testing.T) {
	uv := `version = 1
requires-python = ">=3.10"

[[package]]
name = "app"
source = { editable = "." }
dependencies = [
    { name = "jinja2" },
]

[[package]]
name = "Jinja2"
version = "3.1.4"
source = { registry = "https://pypi.org/simple" }
dependencies = [
    { name = "markupsafe" },
]

[[package]]
name = "numpy"
version = "1.26.4"
source = { registry = "https://pypi.org/simple" }
resolution-markers = ["python_full_version < '3.12'"]

[[package]]
name = "numpy"
version = "2.1.0"
source = { registry = "https://pypi.org/simple" }
`
	pins, multi, err := parseLock("uv.lock", []byte(uv))
	if err != nil {
		t.Fatal(err)
	}
	if p := pins["jinja2"]; p.version != "3.1.4" || p.line != 12 || p.file != "uv.lock" {
		t.Errorf("jinja2 pin %+v, want 3.1.4 at uv.lock:12", p)
	}
	if _, ok := pins["numpy"]; ok || len(multi["numpy"]) != 2 {
		t.Errorf("numpy: pin %v, versions %v; want no pin, two versions", pins["numpy"], multi["numpy"])
	}
	if _, ok := pins["app"]; ok {
		t.Error("the editable project itself has no pin")
	}
	poetry := `# This file is automatically @generated by Poetry 1.8.2 and should not be changed by hand.

[[package]]
name = "click"
version = "8.1.7"
description = "Composable command line interface toolkit"
optional = false
python-versions = ">=3.7"
files = [
    {file = "click-8.1.7-py3-none-any.whl", hash = "sha256:ae74fb96c20a0277a1d615f1e4d73c8414f5a98db8b799a7931d1582f3390c28"},
]

[package.dependencies]
colorama = {version = "*", markers = "platform_system == \"Windows\""}

[metadata]
lock-version = "2.0"
`
	pins, _, err = parseLock("poetry.lock", []byte(poetry))
	if err != nil {
		t.Fatal(err)
	}
	if p := pins["click"]; p.version != "8.1.7" || p.line != 4 {
		t.Errorf("click pin %+v, want 8.1.7 at line 4", p)
	}
	for src, msg := range map[string]string{
		"[[package]]\nname = \"a\"\nversion = \n":    "uv.lock:3: ",
		"[[package]]\nversion = \"1.0\"\n":           "uv.lock:1: a [[package]] without a name",
		"[[package]]\nname = \"a\"\nversion = 1.0\n": "uv.lock: ",
	} {
		_, _, err := parseLock("uv.lock", []byte(src))
		if err == nil || !strings.Contains(err.Error(), msg) {
			t.Errorf("%q: error %v, want %q", src, err, msg)
		}
	}
}

// TestBumpDeps reads the version changes of each kind of manifest: a
// requirements pin, a lock-only change, a pyproject range with its lock,
// a range without a lock (unknown), and a manifest that does not parse
// (a diagnostic naming the file and the line).
func TestBumpDeps(t *testing.T) {
	lock := func(pins ...string) []byte {
		var b strings.Builder
		for i := 0; i < len(pins); i += 2 {
			fmt.Fprintf(&b, "[[package]]\nname = %q\nversion = %q\n\n", pins[i], pins[i+1])
		}
		return []byte(b.String())
	}
	base := gitio.MemTree{
		"requirements.txt":      []byte("click==8.1.6\nrich>=13\n"),
		"svc/pyproject.toml":    []byte("[project]\ndependencies = [\"jinja2>=3.0\", \"httpx\"]\n"),
		"svc/uv.lock":           lock("jinja2", "3.0.3", "httpx", "0.26.0", "anyio", "4.2.0"),
		"nolock/pyproject.toml": []byte("[project]\ndependencies = [\"attrs>=22\"]\n"),
		"bad/pyproject.toml":    []byte("[project]\ndependencies = [\"a==1\"]\n"),
	}
	head := gitio.MemTree{
		"requirements.txt":      []byte("click==8.1.7\nrich>=13.7\n"),
		"svc/pyproject.toml":    []byte("[project]\ndependencies = [\"jinja2>=3.1\", \"httpx\"]\n"),
		"svc/uv.lock":           lock("jinja2", "3.1.4", "httpx", "0.26.0", "anyio", "4.3.0"),
		"nolock/pyproject.toml": []byte("[project]\ndependencies = [\"attrs>=23\"]\n"),
		"bad/pyproject.toml":    []byte("[project]\ndependencies = [\"a==1\",\n"),
	}
	var fcs []*gitio.FileChange
	for _, p := range []string{"requirements.txt", "svc/pyproject.toml", "svc/uv.lock", "nolock/pyproject.toml", "bad/pyproject.toml"} {
		fcs = append(fcs, &gitio.FileChange{Status: gitio.Modified, OldPath: p, NewPath: p})
	}
	var diags []string
	deps := bumpDeps(context.Background(), lang.BumpInput{Base: base, Head: head, Manifests: fcs,
		Diag: func(d model.Diagnostic) { diags = append(diags, d.Message) }})
	var got []string
	for _, d := range deps {
		got = append(got, fmt.Sprintf("%s %s->%s %s:%d direct=%v %s", d.name, d.from, d.to, d.file, d.line, d.direct, d.why))
	}
	sort.Strings(got)
	want := []string{
		"anyio 4.2.0->4.3.0 svc/uv.lock:10 direct=false ",
		"attrs >=22->>=23 nolock/pyproject.toml:2 direct=true nolock/pyproject.toml pins no version and no lock file (uv.lock, poetry.lock) is beside it",
		"click 8.1.6->8.1.7 requirements.txt:1 direct=true ",
		"jinja2 3.0.3->3.1.4 svc/pyproject.toml:2 direct=true ",
		"rich >=13->>=13.7 requirements.txt:2 direct=true requirements.txt pins no version (>=13 -> >=13.7) and no lock file is read for it",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if len(diags) != 1 || !strings.Contains(diags[0], "bad/pyproject.toml:2: ") {
		t.Errorf("diagnostics %q, want one naming bad/pyproject.toml:2", diags)
	}
}

func TestOnlyForwards(t *testing.T) {
	src := []byte(`import warnings

def a(f):
    """Deprecated."""
    import warnings
    warnings.warn("use b", DeprecationWarning, stacklevel=2)
    return b(f)

def c(x, *args, key=None, **kw):
    return d(x, *args, key=key, **kw)

def e(x, y):
    return b(y, x)

def g(x):
    print(x)
    return b(x)

def h(x):
    return obj.b(x)
`)
	fe := New()
	ds, _ := fe.Decls("m.py", src)
	got := map[string]string{}
	for _, d := range ds {
		if d.Kind == model.KindFunc {
			got[d.Name] = fe.Forwards(&d.Block)
		}
	}
	want := map[string]string{"a": "b", "c": "d", "e": "", "g": "", "h": ""}
	for n, w := range want {
		if got[n] != w {
			t.Errorf("Forwards(%s) = %q, want %q", n, got[n], w)
		}
	}
}
