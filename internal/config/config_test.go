package config

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/ripple-dev/ripple/internal/model"
)

func TestParse(t *testing.T) {
	valid := Default()
	valid.Ignore = []string{"vendor/**", "*.pb.go"}
	valid.Generated = []string{"internal/gen/*.go"}
	valid.Severity = map[string]model.Level{"CalledBy": "error", "UsedBy": "none", "body": "warning"}
	valid.FailOn = "warning"
	valid.OnToolError = "block"
	valid.Budget = 1500 * time.Millisecond
	valid.Precision = "types"
	valid.MaxFiles = 200
	valid.Format = "sarif"
	valid.Verbose = true

	for _, tc := range []struct {
		name, src string
		want      *Config  // when no error
		errs      []string // substrings of the error
	}{
		{
			name: "valid",
			src: `version: 1
ignore: [vendor/**, "*.pb.go"]
generated:
  - internal/gen/*.go
severity:
  CalledBy: error
  UsedBy: None   # levels are case-insensitive
  body: warning
fail_on: warning
on_tool_error: block
budget: 1.5s
precision: types
max_files: 200
format: sarif
verbose: true
`,
			want: valid,
		},
		{name: "version only", src: "version: 1\n", want: Default()},
		{name: "null list", src: "version: 1\nignore:\n", want: Default()},
		{
			name: "unknown key",
			src:  "version: 1\nformat: json\nfail-on: never\n",
			errs: []string{"f.yaml:3: ", `unknown key "fail-on"`, `did you mean "fail_on"`, "valid keys: version, ignore"},
		},
		{
			name: "all errors at once",
			src:  "version: 1\nbogus: 1\nmax_files: many\n",
			errs: []string{`f.yaml:2: unknown key "bogus"`, `f.yaml:3: max_files: want an integer, got "many"`},
		},
		{name: "wrong type list", src: "version: 1\n\nignore: vendor\n", errs: []string{`f.yaml:3: ignore: want a list of strings, got "vendor"`}},
		{name: "wrong type bool", src: "version: 1\nverbose: yes please\n", errs: []string{`f.yaml:2: verbose: want true or false, got "yes please"`}},
		{name: "wrong type map", src: "version: 1\nformat: [json]\n", errs: []string{"f.yaml:2: format: want a string, got a list"}},
		{name: "severity value type", src: "version: 1\nseverity:\n  CalledBy: [x]\n", errs: []string{"f.yaml:3: severity.CalledBy: want a level"}},
		{name: "missing version", src: "format: json\n", errs: []string{"f.yaml:1: missing required key version"}},
		{name: "empty", src: "", errs: []string{"f.yaml: empty config"}},
		{name: "comments only", src: "# nothing\n", errs: []string{"f.yaml: empty config"}},
		{name: "version 2", src: "# new\nversion: 2\nnewkey: x\n", errs: []string{"f.yaml:2: version: unsupported config version 2 (this ripple understands 1)"}},
		{name: "version string", src: "version: one\n", errs: []string{`f.yaml:1: version: want an integer, got "one"`}},
		{name: "not a mapping", src: "- version: 1\n", errs: []string{"f.yaml:1: want a mapping"}},
		{name: "syntax error", src: "version: 1\nformat: [json\n", errs: []string{"f.yaml:"}},
		{name: "two documents", src: "version: 1\n---\nversion: 1\n", errs: []string{"more than one YAML document"}},
		{name: "duplicate key", src: "version: 1\nformat: json\nformat: text\n", errs: []string{`f.yaml:3: key "format" given twice`}},
		{name: "bad duration", src: "version: 1\nbudget: 10 seconds please\n", errs: []string{`f.yaml:2: budget: want a duration such as 10s or 1m30s, got "10 seconds please"`}},
		{name: "bare number duration", src: "version: 1\nbudget: 10\n", errs: []string{`f.yaml:2: budget: want a duration`}},
		{name: "zero duration", src: "version: 1\nbudget: 0s\n", errs: []string{"f.yaml:2: budget: must be > 0"}},
		{name: "bad level", src: "version: 1\nseverity:\n  CalledBy: loud\n", errs: []string{`f.yaml:3: severity.CalledBy: unknown level "loud" (want error, warning, note or none)`}},
		{name: "bad relation", src: "version: 1\nseverity:\n  UsedBy: note\n  Callers: error\n", errs: []string{"f.yaml:4: severity.Callers: unknown relation (valid: CalledBy, OverriddenBy, Overrides, UsedBy, InstantiatedBy, ImportedBy, EmbeddedBy, ReferencedBy, VariantOf, Uses, body)"}},
		{name: "bad fail_on", src: "version: 1\nfail_on: note\n", errs: []string{`f.yaml:2: fail_on: unknown value "note" (want error, warning or never)`}},
		{name: "bad on_tool_error", src: "version: 1\non_tool_error: ignore\n", errs: []string{`on_tool_error: unknown value "ignore" (want auto, allow or block)`}},
		{name: "bad precision", src: "version: 1\nprecision: max\n", errs: []string{`precision: unknown value "max"`}},
		{name: "bad format", src: "version: 1\nformat: xml\n", errs: []string{`format: unknown value "xml" (want text, json or sarif)`}},
		{name: "bad max_files", src: "version: 1\nmax_files: 0\n", errs: []string{"f.yaml:2: max_files: must be > 0, got 0"}},
		{name: "bad glob", src: "version: 1\nignore:\n  - ok/*.go\n  - \"[a-\"\n", errs: []string{`f.yaml:4: ignore[1]: bad glob "[a-"`}},
		{name: "empty glob", src: "version: 1\ngenerated: [\"\"]\n", errs: []string{`f.yaml:2: generated[0]: empty glob`}},
		{name: "missing version before a bad value", src: "fail-on: error\nprecision: bogus\n", errs: []string{"f.yaml:1: missing required key version"}},
		{name: "bad value on line 2", src: "version: 1\nprecision: bogus\n", errs: []string{`f.yaml:2: precision: unknown value "bogus"`}},
		// the line of a value error is its key's, wherever the value is
		{name: "wrong type below its key", src: "version: 1\nbudget:\n  10\n", errs: []string{`f.yaml:2: budget: want a duration such as 10s or 1m30s, got "10"`}},
		{name: "wrong type in a block scalar", src: "version: 1\nmax_files: >\n  12x\n", errs: []string{`f.yaml:2: max_files: want an integer, got "12x\n"`}},
		{name: "wrong type through an alias", src: "version: &v 1\nfail_on: warning\nbudget: *v\n", errs: []string{`f.yaml:3: budget: want a duration such as 10s or 1m30s, got "1"`}},
		{name: "bad value through an alias", src: "version: 1\nprecision: &p bogus\n\nformat: *p\n", errs: []string{`f.yaml:2: precision: unknown value "bogus"`, `f.yaml:4: format: unknown value "bogus"`}},
		{name: "bad glob through an alias", src: "version: 1\nignore: &g\n  - \"[a-\"\ngenerated: *g\n", errs: []string{`f.yaml:3: ignore[0]: bad glob`, `f.yaml:4: generated[0]: bad glob`}},
		{name: "flow mapping over lines", src: "version: 1\nseverity: {\n  UsedBy: note,\n  CalledBy: [x] }\n", errs: []string{"f.yaml:4: severity.CalledBy: want a level"}},
		{name: "duplicate severity", src: "version: 1\nseverity:\n  CalledBy: error\n  CalledBy: note\n", errs: []string{`f.yaml:4: severity: key "CalledBy" given twice (first at line 3)`}},
		{name: "empty param default", src: "version: 1\nparam_defaults:\n  ctx:\n", errs: []string{`f.yaml:3: param_defaults.ctx: empty expression`}},
		{name: "param default type", src: "version: 1\nparam_defaults:\n  ctx: [1]\n", errs: []string{`f.yaml:3: param_defaults.ctx: want a string, got a list`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, err := Parse("f.yaml", []byte(tc.src))
			if tc.errs == nil {
				if err != nil {
					t.Fatalf("error: %v", err)
				}
				if !reflect.DeepEqual(values(c), values(tc.want)) {
					t.Errorf("got  %+v\nwant %+v", c, tc.want)
				}
				return
			}
			if err == nil {
				t.Fatalf("no error, want %q", tc.errs)
			}
			for _, e := range tc.errs {
				if !strings.Contains(err.Error(), e) {
					t.Errorf("error %q\ndoes not contain %q", err, e)
				}
			}
		})
	}
}

// TestParseKeyLine gives every key a bad value on the line after it:
// each error names the key and the key's line.
func TestParseKeyLine(t *testing.T) {
	bad := map[string]string{
		"ignore":         "vendor",
		"generated":      "{a: b}",
		"severity":       "[CalledBy]",
		"fail_on":        "loud",
		"on_tool_error":  "ignore",
		"budget":         "-1s",
		"precision":      "max",
		"max_files":      "0",
		"format":         "xml",
		"verbose":        "maybe",
		"param_defaults": "ctx",
		"merge_check":    "origin/main",
	}
	for _, k := range Keys() {
		if k == "version" {
			continue
		}
		v, ok := bad[k]
		if !ok {
			t.Errorf("no bad value for key %s", k)
			continue
		}
		for _, layout := range []string{"%s: %s\n", "%s:\n  %s\n"} {
			src := "version: 1\n# the next key is on line 3\n" + fmt.Sprintf(layout, k, v)
			_, err := Parse("f.yaml", []byte(src))
			want := "f.yaml:3: " + k + ": "
			if err == nil || !strings.HasPrefix(err.Error(), want) || strings.Contains(err.Error(), "\n") {
				t.Errorf("%q: error %v, want one starting with %q", src, err, want)
			}
		}
	}
}

// TestExample keeps the reference file equal to the defaults and
// complete.
func TestExample(t *testing.T) {
	data, err := os.ReadFile("../../ripple.example.yaml")
	if err != nil {
		t.Fatal(err)
	}
	c, err := Parse("ripple.example.yaml", data)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(values(c), Default()) {
		t.Errorf("ripple.example.yaml decodes to %+v\nDefault() is %+v", c, Default())
	}
	for _, k := range Keys() {
		if !strings.Contains(string(data), "\n"+k+": ") {
			t.Errorf("ripple.example.yaml does not set %s", k)
		}
	}
}

func TestLoad(t *testing.T) {
	write := func(dir, name, src string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}

	none := t.TempDir()
	c, used, err := Load(none)
	if err != nil || used != "" || !reflect.DeepEqual(values(c), Default()) {
		t.Errorf("no file: %+v %q %v", c, used, err)
	}

	for _, name := range FileNames {
		dir := t.TempDir()
		write(dir, name, "version: 1\nformat: json\n")
		c, used, err := Load(dir)
		if err != nil || used != filepath.Join(dir, name) || c.Format != "json" {
			t.Errorf("%s: %+v %q %v", name, c, used, err)
		}
	}

	both := t.TempDir()
	write(both, ".ripple.yaml", "version: 1\n")
	write(both, ".ripple.yml", "version: 1\n")
	if _, _, err := Load(both); err == nil || !strings.Contains(err.Error(), "both exist") {
		t.Errorf("both files: %v", err)
	}

	bad := t.TempDir()
	write(bad, ".ripple.yml", "version: 1\n\nverbos: true\n")
	if _, _, err := Load(bad); err == nil || !strings.Contains(err.Error(), filepath.Join(bad, ".ripple.yml")+`:3: unknown key "verbos"`) {
		t.Errorf("bad file: %v", err)
	}
}

func TestValidate(t *testing.T) {
	if err := Default().Validate(); err != nil {
		t.Fatalf("Default: %v", err)
	}
	c := Default()
	c.Version = 3
	c.FailOn = ""
	c.Severity["Nope"] = "error"
	err := c.Validate()
	for _, want := range []string{"version: unsupported config version 3", `fail_on: unknown value ""`, "severity.Nope: unknown relation"} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("error %v does not contain %q", err, want)
		}
	}
}

func TestLevels(t *testing.T) {
	c := Default()
	for _, r := range model.Relations {
		if l := c.MayLevel(string(r)); l != model.LevelWarning {
			t.Errorf("default %s = %s", r, l)
		}
	}
	if l := c.MayLevel(Body); l != model.LevelNote {
		t.Errorf("default body = %s", l)
	}
	c.Severity = map[string]model.Level{"CalledBy": "error", "UsedBy": "none", "body": "Warning"}
	for _, tc := range []struct {
		rel  string
		v    model.Verdict
		want model.Level
	}{
		{"CalledBy", model.MayBeImpacted, model.LevelError},
		{"CalledBy", model.Consistent, model.LevelNone},
		{"UsedBy", model.MayBeImpacted, model.LevelNone},
		{"UsedBy", model.Inconsistent, model.LevelNone}, // switched off entirely
		{"ImportedBy", model.Inconsistent, model.LevelError},
		{"ImportedBy", model.MayBeImpacted, model.LevelWarning},
		{Body, model.MayBeImpacted, model.LevelWarning},
		{"CalledBy", model.MayFollow, model.LevelNote}, // the frontier is a note at most
		{"UsedBy", model.MayFollow, model.LevelNone},
		{"OverriddenBy", model.MayFollow, model.LevelNote},
	} {
		f := &model.Finding{Relation: model.Relation(tc.rel), Verdict: tc.v, Change: &model.Change{Label: model.MMS}}
		if tc.rel == Body {
			f.Relation, f.Change.Label = model.CalledBy, model.MMB
		}
		if got := c.FindingLevel(f); got != tc.want {
			t.Errorf("FindingLevel(%s, %v) = %s, want %s", tc.rel, tc.v, got, tc.want)
		}
	}
	if !c.Off("UsedBy") || c.Off("CalledBy") {
		t.Error("Off")
	}

	for _, tc := range []struct {
		failOn string
		fails  []model.Level
	}{
		{FailOnError, []model.Level{model.LevelError}},
		{FailOnWarning, []model.Level{model.LevelError, model.LevelWarning}},
		{FailOnNever, nil},
	} {
		c.FailOn = tc.failOn
		for _, l := range []model.Level{model.LevelError, model.LevelWarning, model.LevelNote, model.LevelNone} {
			want := false
			for _, f := range tc.fails {
				want = want || f == l
			}
			if got := c.Fails(l); got != want {
				t.Errorf("fail_on %s: Fails(%s) = %v", tc.failOn, l, got)
			}
		}
	}
}

// values is c without its record of where settings came from, for
// comparing settings.
func values(c *Config) *Config {
	if c == nil {
		return nil
	}
	v := *c
	v.flags, v.fileKeys = nil, nil
	return &v
}

func TestExplicit(t *testing.T) {
	c, err := Parse("f.yaml", []byte("version: 1\nfail_on: warning\n"))
	if err != nil {
		t.Fatal(err)
	}
	fs := flag.NewFlagSet("t", flag.ContinueOnError)
	c.RegisterFlags(fs)
	if err := fs.Parse([]string{"-max-files=3"}); err != nil {
		t.Fatal(err)
	}
	for key, want := range map[string]bool{"fail_on": true, "max_files": true, "precision": false, "budget": false} {
		if got := c.Explicit(key); got != want {
			t.Errorf("Explicit(%q) = %v, want %v", key, got, want)
		}
	}
	if Default().Explicit("precision") {
		t.Error("Default().Explicit(precision) = true")
	}
}
