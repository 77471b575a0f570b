package config

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/ripple-dev/ripple/internal/model"
)

// TestEveryKeyHasAFlag: every config key but version (the file format's,
// not a setting) has a flag of the same name.
func TestEveryKeyHasAFlag(t *testing.T) {
	fs := flag.NewFlagSet("t", flag.ContinueOnError)
	Default().RegisterFlags(fs)
	typ := reflect.TypeFor[Config]()
	n := 0
	for i := range typ.NumField() {
		f := typ.Field(i)
		key := f.Tag.Get("yaml")
		if !f.IsExported() || key == "version" {
			continue
		}
		if key == "" {
			t.Errorf("field %s has no yaml tag", f.Name)
			continue
		}
		n++
		if fs.Lookup(strings.ReplaceAll(key, "_", "-")) == nil {
			t.Errorf("key %s has no flag", key)
		}
	}
	if fs.Lookup("config") == nil {
		t.Error("no -config flag")
	}
	if n != len(Keys())-1 {
		t.Errorf("%d keys with flags, want %d", n, len(Keys())-1)
	}
}

const fileSrc = `version: 1
ignore: [vendor/**]
severity: {CalledBy: error, UsedBy: note}
fail_on: warning
budget: 5s
format: json
`

func parseFlags(t *testing.T, c *Config, args ...string) (*flag.FlagSet, error) {
	t.Helper()
	fs := flag.NewFlagSet("t", flag.ContinueOnError)
	fs.SetOutput(new(bytes.Buffer))
	c.RegisterFlags(fs)
	return fs, fs.Parse(args)
}

func TestFlagsOverrideFile(t *testing.T) {
	c, err := Parse("f.yaml", []byte(fileSrc))
	if err != nil {
		t.Fatal(err)
	}
	fs := flag.NewFlagSet("t", flag.ContinueOnError)
	c.RegisterFlags(fs)
	for name, want := range map[string]string{
		"fail-on": "warning", "budget": "5s", "format": "json", "ignore": "vendor/**",
		"severity": "CalledBy=error,UsedBy=note", "max-files": "5000", "verbose": "false",
	} {
		if got := fs.Lookup(name).DefValue; got != want {
			t.Errorf("-%s default %q, want the file's %q", name, got, want)
		}
	}
	if err := fs.Parse([]string{"-fail-on=never", "--budget", "2m", "-max-files", "9", "-verbose", "-precision=syntax", "-on-tool-error=block", "rest"}); err != nil {
		t.Fatal(err)
	}
	want, _ := Parse("f.yaml", []byte(fileSrc))
	want.FailOn, want.Budget, want.MaxFiles, want.Verbose, want.Precision, want.OnToolError = "never", 2*time.Minute, 9, true, "syntax", "block"
	if !reflect.DeepEqual(values(c), values(want)) {
		t.Errorf("got  %+v\nwant %+v", c, want)
	}
	if fs.Arg(0) != "rest" {
		t.Errorf("args %q", fs.Args())
	}
}

func TestRepeatableFlags(t *testing.T) {
	for _, tc := range []struct {
		args            []string
		ignore, gen     []string
		severity        map[string]model.Level
		wantErrContains string
	}{
		{args: nil, ignore: []string{"vendor/**"}, gen: []string{}},
		{args: []string{"-ignore", "a/**", "-ignore=*.pb.go, b/"}, ignore: []string{"a/**", "*.pb.go", "b/"}, gen: []string{}},
		{args: []string{"-ignore", "a", "-ignore=", "-ignore", "b"}, ignore: []string{"b"}, gen: []string{}},
		{args: []string{"-generated=x/*.go,y/*.go", "-generated", "z.go"}, ignore: []string{"vendor/**"}, gen: []string{"x/*.go", "y/*.go", "z.go"}},
		{
			args:   []string{"-severity", "UsedBy=none", "-severity=body=warning,Overrides=ERROR"},
			ignore: []string{"vendor/**"}, gen: []string{},
			severity: map[string]model.Level{"CalledBy": "error", "UsedBy": "none", "body": "warning", "Overrides": "error"},
		},
		{args: []string{"-severity", "Callers=error"}, wantErrContains: `"Callers": unknown relation`},
		{args: []string{"-severity", "CalledBy"}, wantErrContains: "want REL=LEVEL"},
		{args: []string{"-severity", "CalledBy=loud"}, wantErrContains: `unknown level "loud"`},
		{args: []string{"-ignore", "[a-"}, wantErrContains: "bad glob"},
		{args: []string{"-fail-on", "note"}, wantErrContains: `unknown value "note" (want error, warning or never)`},
		{args: []string{"-budget", "0s"}, wantErrContains: "must be > 0"},
		{args: []string{"-budget", "ten"}, wantErrContains: `invalid duration "ten"`},
		{args: []string{"-max-files", "-3"}, wantErrContains: "must be > 0"},
		{args: []string{"-format", "xml"}, wantErrContains: `unknown value "xml"`},
	} {
		c, _ := Parse("f.yaml", []byte(fileSrc))
		_, err := parseFlags(t, c, tc.args...)
		if tc.wantErrContains != "" {
			if err == nil || !strings.Contains(err.Error(), tc.wantErrContains) {
				t.Errorf("%q: error %v, want %q", tc.args, err, tc.wantErrContains)
			}
			continue
		}
		if err != nil {
			t.Errorf("%q: %v", tc.args, err)
			continue
		}
		if tc.severity == nil {
			tc.severity = map[string]model.Level{"CalledBy": "error", "UsedBy": "note"}
		}
		if !reflect.DeepEqual(c.Ignore, tc.ignore) || !reflect.DeepEqual(c.Generated, tc.gen) || !reflect.DeepEqual(c.Severity, tc.severity) {
			t.Errorf("%q: ignore %q generated %q severity %v", tc.args, c.Ignore, c.Generated, c.Severity)
		}
	}
}

func TestReloadKeepsFlags(t *testing.T) {
	other := filepath.Join(t.TempDir(), "other.yaml")
	if err := os.WriteFile(other, []byte("version: 1\nfail_on: never\nbudget: 1s\nignore: [x]\nseverity: {UsedBy: error}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	c, _ := Parse("f.yaml", []byte(fileSrc))
	fs, err := parseFlags(t, c, "-config", other, "-budget=3s", "-ignore=a", "-ignore=b", "-severity=body=none")
	if err != nil {
		t.Fatal(err)
	}
	if p := *ConfigFlag(fs); p != other {
		t.Fatalf("ConfigFlag = %q", p)
	}
	if err := c.Reload(other); err != nil {
		t.Fatal(err)
	}
	if c.FailOn != "never" || c.Format != "text" || c.Budget != 3*time.Second ||
		!reflect.DeepEqual(c.Ignore, []string{"a", "b"}) ||
		!reflect.DeepEqual(c.Severity, map[string]model.Level{"UsedBy": "error", "body": "none"}) {
		t.Errorf("after Reload: %+v", c)
	}
	// Flags still write into c after Reload.
	if err := fs.Set("format", "sarif"); err != nil || c.Format != "sarif" {
		t.Errorf("flag after Reload: %v %q", err, c.Format)
	}
	if err := c.Reload(filepath.Join(t.TempDir(), "missing.yaml")); err == nil {
		t.Error("Reload of a missing file: no error")
	}
}

func TestResolve(t *testing.T) {
	top := t.TempDir()
	if err := os.WriteFile(filepath.Join(top, ".ripple.yaml"), []byte(fileSrc), 0o644); err != nil {
		t.Fatal(err)
	}
	newFS := func() *flag.FlagSet {
		fs := flag.NewFlagSet("check", flag.ContinueOnError)
		fs.SetOutput(new(bytes.Buffer))
		fs.String("base", "origin/main", "")
		return fs
	}
	c, used, err := Resolve(top, newFS(), []string{"-base=HEAD~1", "-format=text"})
	if err != nil || used != filepath.Join(top, ".ripple.yaml") || c.Format != "text" || c.FailOn != "warning" {
		t.Errorf("Resolve: %+v %q %v", c, used, err)
	}

	// -config replaces even a broken repository file.
	if err := os.WriteFile(filepath.Join(top, ".ripple.yaml"), []byte("version: 1\nbroken: true\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, _, err := Resolve(top, newFS(), nil); err == nil || !strings.Contains(err.Error(), `unknown key "broken"`) {
		t.Errorf("broken file: %v", err)
	}
	other := filepath.Join(t.TempDir(), "ci.yaml")
	if err := os.WriteFile(other, []byte("version: 1\nformat: sarif\nfail_on: never\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	c, used, err = Resolve(top, newFS(), []string{"-fail-on=error", "-config", other})
	if err != nil || used != other || c.Format != "sarif" || c.FailOn != "error" {
		t.Errorf("Resolve -config: %+v %q %v", c, used, err)
	}
}

// TestUsage: flag.PrintDefaults calls String on zero flag values.
func TestUsage(t *testing.T) {
	fs := flag.NewFlagSet("t", flag.ContinueOnError)
	var out bytes.Buffer
	fs.SetOutput(&out)
	Default().RegisterFlags(fs)
	fs.PrintDefaults()
	if s := out.String(); strings.Contains(s, "panic") || !strings.Contains(s, "-fail-on level") || !strings.Contains(s, "(default error)") || strings.Contains(s, "default false") {
		t.Errorf("usage:\n%s", s)
	}
}
