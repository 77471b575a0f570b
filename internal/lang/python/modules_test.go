package python

import "testing"

func TestModules(t *testing.T) {
	m := newModules([]string{
		"src/flask/__init__.py", "src/flask/cli.py", "src/flask/json/__init__.py", "src/flask/json/tag.py",
		"tests/conftest.py", "tests/test_cli.py", "tests/helpers/util.py",
		"examples/app/app/__init__.py", "examples/app/app/views.py",
		"setup.py", "docs/conf.py", "stubs/ext.pyi",
	})
	for p, want := range map[string]string{
		"src/flask/cli.py":          "flask.cli",
		"src/flask/__init__.py":     "flask",
		"src/flask/json/tag.py":     "flask.json.tag",
		"tests/test_cli.py":         "test_cli",
		"examples/app/app/views.py": "app.views",
		"setup.py":                  "setup",
	} {
		if got := m.moduleName(p); got != want {
			t.Errorf("moduleName(%s) = %s, want %s", p, got, want)
		}
	}
	for _, c := range []struct{ spec, from, want string }{
		{"flask", "tests/test_cli.py", "src/flask/__init__.py"},
		{"flask.json.tag", "tests/test_cli.py", "src/flask/json/tag.py"},
		{"conftest", "tests/test_cli.py", "tests/conftest.py"},
		{"tests.helpers.util", "setup.py", "tests/helpers/util.py"}, // namespace packages from the top
		{"tests.helpers", "setup.py", "tests/helpers/"},
		{"app.views", "examples/app/app/__init__.py", "examples/app/app/views.py"},
		{"requests", "src/flask/cli.py", ""},
		{".cli", "src/flask/__init__.py", "src/flask/cli.py"},
		{".", "src/flask/cli.py", "src/flask/__init__.py"},
		{"..cli", "src/flask/json/tag.py", "src/flask/cli.py"},
		{".tag", "src/flask/json/__init__.py", "src/flask/json/tag.py"},
		{"..", "src/flask/json/tag.py", "src/flask/__init__.py"},
		{"ext", "setup.py", "stubs/ext.pyi"},
	} {
		if got := m.resolve(c.spec, c.from); got != c.want {
			t.Errorf("resolve(%q from %s) = %q, want %q", c.spec, c.from, got, c.want)
		}
	}
	// the standard library is not a loose module of another root, nor a
	// regular package's folder taken for a root
	v := newModules([]string{
		"pkg/__init__.py", "pkg/warnings.py", "pkg/_vendor/six.py", "pkg/_vendor/lib/__init__.py",
		"tools/json.py", "tools/run.py", "src/acme/core/api.py", "src/acme/util.py",
	})
	for _, c := range []struct{ spec, from, want string }{
		{"warnings", "pkg/_vendor/six.py", ""},
		{".warnings", "pkg/__init__.py", "pkg/warnings.py"},
		{"pkg.warnings", "pkg/_vendor/six.py", "pkg/warnings.py"},
		{"json", "pkg/_vendor/six.py", ""},
		{"json", "tools/run.py", "tools/json.py"}, // a script beside it shadows the standard library
		{"acme.util", "src/acme/core/api.py", "src/acme/util.py"},
	} {
		if got := v.resolve(c.spec, c.from); got != c.want {
			t.Errorf("resolve(%q from %s) = %q, want %q", c.spec, c.from, got, c.want)
		}
	}
	if got := m.submodule("src/flask/__init__.py", "json"); got != "src/flask/json/__init__.py" {
		t.Errorf("submodule(flask, json) = %q", got)
	}
	if got := m.submodule("src/flask/cli.py", "x"); got != "" {
		t.Errorf("a module has no submodules: %q", got)
	}
}
