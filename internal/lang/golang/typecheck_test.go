package golang

import "testing"

func TestHasWord(t *testing.T) {
	for _, c := range []struct {
		s, w string
		want bool
	}{
		{"cannot use x as fs value", "fs", true},
		{"refs and more", "fs", false},
		{"fs", "fs", true},
		{"p.fs.Open", "fs", true},
		{"fsx fs_", "fs", false},
		{"é.fs", "fs", true},
		{"x", "", false},
	} {
		if got := hasWord(c.s, c.w); got != c.want {
			t.Errorf("hasWord(%q, %q) = %v, want %v", c.s, c.w, got, c.want)
		}
	}
}

func TestSelfMismatch(t *testing.T) {
	for msg, want := range map[string]bool{
		"cannot use core (variable of interface type zapcore.Core) as zapcore.Core value in argument to zapcore.NewLazyWith: zapcore.Core does not implement zapcore.Core (wrong type for method Check)": true,
		"cannot use x (variable of type p.T) as p.T value in assignment":                                                    true,
		"cannot use p.Logger{…} (value of struct type p.Logger) as *p.Logger value in struct literal":                       false,
		"cannot use p.Find(\"a\") (value of type p.Item) as *p.Item value in argument to keep":                              false,
		"cannot use v (variable of type *T) as I value in variable declaration: *T does not implement I (missing method M)": false,
		"invalid operation: it != nil (mismatched types p.Item and untyped nil)":                                            false,
	} {
		if got := selfMismatch(msg); got != want {
			t.Errorf("selfMismatch(%q) = %v, want %v", msg, got, want)
		}
	}
}

func TestDefaultImportName(t *testing.T) {
	for path, want := range map[string]string{
		"github.com/foo/bar":                 "bar",
		"github.com/foo/bar/v2":              "bar",
		"k8s.io/api/core/v1":                 "v1", // a package named v1, not a major version
		"k8s.io/api/apps/v1beta1":            "v1beta1",
		"gopkg.in/yaml.v3":                   "yaml",
		"github.com/sagikazarmark/go-finder": "finder",
		"github.com/mattn/go-isatty":         "isatty",
		"example.org/x/client-go":            "client",
	} {
		if got := defaultImportName(path); got != want {
			t.Errorf("defaultImportName(%q) = %q, want %q", path, got, want)
		}
	}
}
