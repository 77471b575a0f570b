package golang

import (
	"context"
	"testing"
)

// TestGolangciErrcheck reads golangci-lint configurations of both
// versions and asks whether errcheck reports a discarded error.
func TestGolangciErrcheck(t *testing.T) {
	plain := discard{path: "p/p.go", callee: "p.Parse", qualified: []string{"example.com/m/p.Parse"}, line: `	p.Parse("x")`}
	with := func(f func(*discard)) discard { d := plain; f(&d); return d }
	closer := with(func(d *discard) { d.callee = "c.Close" })
	test := with(func(d *discard) { d.path = "p/p_test.go" })
	vendored := with(func(d *discard) { d.path = "vendor/x/p.go" })
	for _, tc := range []struct {
		name, file, src string
		d               discard
		want            bool
	}{
		{"v1 default", ".golangci.yml", "run:\n  timeout: 5m\n", plain, true},
		{"v1 default excludes Close", ".golangci.yml", "run:\n  timeout: 5m\n", closer, false},
		{"v1 default exclusions off", ".golangci.yml", "issues:\n  exclude-use-default: false\n", closer, true},
		{"v1 disable-all", ".golangci.yml", "linters:\n  disable-all: true\n  enable: [govet]\n", plain, false},
		{"v1 disable-all enable", ".golangci.yml", "linters:\n  disable-all: true\n  enable: [errcheck]\n", plain, true},
		{"v1 disabled", ".golangci.yml", "linters:\n  disable: [errcheck]\n", plain, false},
		{"v1 bugs preset", ".golangci.yml", "linters:\n  disable-all: true\n  presets: [bugs]\n", plain, true},
		{"v1 tests off", ".golangci.yml", "run:\n  tests: false\n", test, false},
		{"v1 tests on", ".golangci.yml", "run:\n  tests: true\n", test, true},
		{"v1 default dirs", ".golangci.yml", "run:\n  timeout: 5m\n", vendored, false},
		{"v1 exclude text", ".golangci.yml", "issues:\n  exclude:\n    - 'p\\.Parse. is not checked'\n", plain, false},
		{"v1 exclude rule other linter", ".golangci.yml", "issues:\n  exclude-rules:\n    - path: p\\.go\n      linters: [gosec]\n", plain, true},
		{"v1 exclude rule", ".golangci.yml", "issues:\n  exclude-rules:\n    - path: p\\.go\n      linters: [errcheck]\n", plain, false},
		{"v1 exclude function", ".golangci.yml", "linters-settings:\n  errcheck:\n    exclude-functions:\n      - example.com/m/p.Parse\n", plain, false},
		{"v2 standard", ".golangci.yml", "version: \"2\"\n", plain, true},
		{"v2 standard keeps Close", ".golangci.yml", "version: \"2\"\n", closer, true},
		{"v2 preset", ".golangci.yml", "version: \"2\"\nlinters:\n  exclusions:\n    presets: [std-error-handling]\n", closer, false},
		{"v2 none", ".golangci.yml", "version: \"2\"\nlinters:\n  default: none\n  enable: [govet]\n", plain, false},
		{"v2 none enable", ".golangci.yml", "version: \"2\"\nlinters:\n  default: none\n  enable: [errcheck]\n", plain, true},
		{"v2 fast", ".golangci.yml", "version: \"2\"\nlinters:\n  default: fast\n", plain, false},
		{"v2 all disable", ".golangci.yml", "version: \"2\"\nlinters:\n  default: all\n  disable: [errcheck]\n", plain, false},
		{"v2 path-except", ".golangci.yml", "version: \"2\"\nlinters:\n  exclusions:\n    rules:\n      - path-except: _test\\.go\n        linters: [errcheck]\n", plain, false},
		{"v2 paths", ".golangci.yml", "version: \"2\"\nlinters:\n  exclusions:\n    paths: ['^p/']\n", plain, false},
		{"v2 settings", ".golangci.yml", "version: \"2\"\nlinters:\n  settings:\n    errcheck:\n      exclude-functions: ['example.com/m/p.Parse']\n", plain, false},
		{"nolint", ".golangci.yml", "version: \"2\"\n", with(func(d *discard) { d.line += " //nolint:errcheck" }), false},
		{"nolint other", ".golangci.yml", "version: \"2\"\n", with(func(d *discard) { d.line += " //nolint:gosec" }), true},
		{"nolint all on the function", ".golangci.yml", "version: \"2\"\n", with(func(d *discard) { d.above = "//nolint" }), false},
		{"generated", ".golangci.yml", "version: \"2\"\n", with(func(d *discard) { d.generated = true }), false},
		{"json", ".golangci.json", `{"linters": {"disable-all": true, "enable": ["errcheck"]}}`, plain, true},
		{"toml is not read", ".golangci.toml", "[linters]\nenable = [\"errcheck\"]\n", plain, false},
		{"not yaml", ".golangci.yml", "linters: [\n", plain, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := parseGolangci(tc.file, []byte(tc.src)).reports(tc.d); got != tc.want {
				t.Errorf("reports = %v, want %v", got, tc.want)
			}
		})
	}
}

// TestLintConfigNearest: the configuration nearest a directory is the one
// golangci-lint run there would use.
func TestLintConfigNearest(t *testing.T) {
	files := map[string]string{
		".golangci.yml":       "version: \"2\"\n",
		"tools/.golangci.yml": "version: \"2\"\nlinters:\n  default: none\n",
	}
	reads := 0
	l := &lintConfigs{read: func(_ context.Context, p string) ([]byte, bool) {
		reads++
		s, ok := files[p]
		return []byte(s), ok
	}}
	ctx := context.Background()
	if c := l.errcheck(ctx, "a/b"); c == nil || c.file != ".golangci.yml" {
		t.Errorf("a/b: %+v, want the root configuration", c)
	}
	if c := l.errcheck(ctx, "tools/x"); c != nil {
		t.Errorf("tools/x: %+v, want errcheck off", c)
	}
	n := reads
	l.errcheck(ctx, "a/b")
	if reads != n {
		t.Errorf("a second lookup read %d files", reads-n)
	}
}
