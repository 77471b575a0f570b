package config

import (
	"errors"
	"fmt"
	"reflect"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/ripple-dev/ripple/internal/model"
)

// Version is the only config file version this ripple understands.
const Version = 1

// FileNames are the names the repository config file may have, at the
// top of the repository. At most one may exist.
var FileNames = []string{".ripple.yaml", ".ripple.yml"}

// Body is the pseudo-relation of the callers of a changed function body
// whose change escapes (model.MMB); it may be given a severity like a
// model.Relation.
const Body = "body"

// Values of fail_on.
const (
	FailOnError   = "error"
	FailOnWarning = "warning"
	FailOnNever   = "never"
)

// Values of on_tool_error.
const (
	// OnToolErrorAuto blocks a push when the check failed after it had
	// found changed declarations that dependents may use (a failure
	// there may hide broken sites), and lets it through when it failed
	// before (git missing, not a repository, an unknown revision).
	OnToolErrorAuto  = "auto"
	OnToolErrorAllow = "allow"
	OnToolErrorBlock = "block"
)

// Precision is the analysis tier a check runs (the precision key): a
// type, so that the front-ends compare it with these values, never with
// strings of their own.
type Precision string

// Values of precision.
const (
	PrecisionAuto   Precision = "auto"   // type-check when it fits the budget
	PrecisionSyntax Precision = "syntax" // the syntax's verdicts only
	PrecisionTypes  Precision = "types"  // type-check every site the syntax cannot settle
)

// Values of format.
const (
	FormatText  = "text"
	FormatJSON  = "json"
	FormatSARIF = "sarif"
)

// The accepted values of the enumerated keys, in the order error
// messages list them.
var (
	failOnValues      = []string{FailOnError, FailOnWarning, FailOnNever}
	onToolErrorValues = []string{OnToolErrorAuto, OnToolErrorAllow, OnToolErrorBlock}
	precisionValues   = []string{string(PrecisionAuto), string(PrecisionSyntax), string(PrecisionTypes)}
	formatValues      = []string{FormatText, FormatJSON, FormatSARIF}
)

// Config is the effective configuration of one check. The yaml tags are
// the keys of the config file; every key but version has a command-line
// flag of the same name with '_' written '-'.
type Config struct {
	Version   int      `yaml:"version"`
	Ignore    []string `yaml:"ignore"`
	Generated []string `yaml:"generated"`
	// Severity maps a model.Relation name, or Body, to the level of its
	// may-be-impacted findings. Missing entries take the built-in
	// defaults (see MayLevel).
	Severity    map[string]model.Level `yaml:"severity"`
	FailOn      string                 `yaml:"fail_on"`
	OnToolError string                 `yaml:"on_tool_error"`
	Budget      time.Duration          `yaml:"budget"`
	Precision   Precision              `yaml:"precision"`
	MaxFiles    int                    `yaml:"max_files"`
	Format      string                 `yaml:"format"`
	Verbose     bool                   `yaml:"verbose"`
	// ParamDefaults maps a parameter name to the Go (or Python)
	// expression passed for it when a change adds that parameter: the
	// value the developer gives, which makes the fix of such calls
	// mechanical.
	ParamDefaults map[string]string `yaml:"param_defaults"`
	// MergeCheck also checks the head merged with the branch it will be
	// merged into (the remote's default branch, origin/HEAD): callers on
	// that branch of what the head changed, and the head's uses of what
	// that branch changed since the fork. Off by default in the hook (a
	// push must stay fast, and must not depend on how fresh the
	// remote-tracking ref is); the Action turns it on for pull requests
	// unless told otherwise.
	MergeCheck bool `yaml:"merge_check"`

	// flags is set by RegisterFlags: the flag settings to re-apply when
	// Reload replaces the file layer.
	flags *flagState
	// fileKeys are the top-level keys the config file sets.
	fileKeys map[string]bool
}

// Explicit reports whether key (as in the file: "fail_on") was set by the
// config file or by its flag, rather than left at its default: a caller
// with a default of its own (the Action's precision) applies it only then.
func (c *Config) Explicit(key string) bool {
	if c.fileKeys[key] {
		return true
	}
	if c.flags != nil {
		for _, s := range c.flags.set {
			if s.name == FlagName(key) {
				return true
			}
		}
	}
	return false
}

// Default returns the built-in configuration: what a repository without
// a config file gets, and what a config file's missing keys take.
func Default() *Config {
	return &Config{
		Version:       Version,
		Ignore:        []string{},
		Generated:     []string{},
		Severity:      map[string]model.Level{},
		FailOn:        FailOnError,
		OnToolError:   OnToolErrorAuto,
		Budget:        10 * time.Second,
		Precision:     PrecisionAuto,
		MaxFiles:      5000,
		Format:        FormatText,
		Verbose:       false,
		ParamDefaults: map[string]string{},
	}
}

// Keys returns the config file keys in declaration order.
func Keys() []string {
	t := reflect.TypeFor[Config]()
	var keys []string
	for i := range t.NumField() {
		if k := t.Field(i).Tag.Get("yaml"); k != "" {
			keys = append(keys, k)
		}
	}
	return keys
}

// SeverityKeys returns the accepted keys of severity: the model.Relations
// names and Body.
func SeverityKeys() []string {
	var ks []string
	for _, r := range model.Relations {
		ks = append(ks, string(r))
	}
	return append(ks, Body)
}

func validRelation(k string) bool { return slices.Contains(SeverityKeys(), k) }

// MayLevel returns the level a may-be-impacted finding of relation rel
// (a model.Relation name or Body) is reported with. model.LevelNone means
// the relation is switched off (see Off). Built-in defaults: warning for
// every relation, note for Body.
func (c *Config) MayLevel(rel string) model.Level {
	if l, ok := c.Severity[rel]; ok {
		if l, err := model.ParseLevel(string(l)); err == nil {
			return l
		}
	}
	if rel == Body {
		return model.LevelNote
	}
	return model.LevelWarning
}

// Off reports whether relation rel is switched off (severity none): its
// findings are not reported at all, inconsistent ones included.
func (c *Config) Off(rel string) bool { return c.MayLevel(rel) == model.LevelNone }

// FindingLevel is the level a finding is reported with, the one severity
// policy of Ripple: none for consistent sites and switched-off relations,
// error for inconsistent sites, MayLevel for may-be-impacted ones, and for
// sites that may have to follow (the farther frontier) MayLevel capped at
// note. The relation of a finding of a body change is Body.
func (c *Config) FindingLevel(f *model.Finding) model.Level {
	rel := string(f.Relation)
	if f.Change != nil && f.Change.Label == model.MMB {
		rel = Body
	}
	switch {
	case f.Verdict == model.Consistent || c.Off(rel):
		return model.LevelNone
	case f.Verdict == model.Inconsistent:
		return model.LevelError
	case f.Verdict == model.MayFollow:
		if l := c.MayLevel(rel); l.Rank() < model.LevelNote.Rank() {
			return l
		}
		return model.LevelNote
	}
	return c.MayLevel(rel)
}

// Fails reports whether a finding reported at level l fails the check
// (exit code 1) under fail_on.
func (c *Config) Fails(l model.Level) bool {
	switch c.FailOn {
	case FailOnError:
		return l.Rank() >= model.LevelError.Rank()
	case FailOnWarning:
		return l.Rank() >= model.LevelWarning.Rank()
	}
	return false
}

// Validate checks every value and returns one error per bad value, each
// naming its key, joined with errors.Join.
func (c *Config) Validate() error { return c.validate("", nil) }

// validate checks c; name and lines (key path → line, as from the file)
// locate the messages when known.
func (c *Config) validate(name string, lines map[string]int) error {
	var errs []error
	bad := func(key, format string, args ...any) {
		msg := key + ": " + fmt.Sprintf(format, args...)
		switch l := lines[key]; {
		case name != "" && l > 0:
			msg = fmt.Sprintf("%s:%d: %s", name, l, msg)
		case name != "":
			msg = name + ": " + msg
		}
		errs = append(errs, errors.New(msg))
	}
	if c.Version != Version {
		bad("version", "unsupported config version %d (this ripple understands %d)", c.Version, Version)
	}
	for _, key := range []string{"ignore", "generated"} {
		globs := c.Ignore
		if key == "generated" {
			globs = c.Generated
		}
		for i, g := range globs {
			if err := checkGlob(g); err != nil {
				bad(fmt.Sprintf("%s[%d]", key, i), "%v", err)
			}
		}
	}
	rels := make([]string, 0, len(c.Severity))
	for k := range c.Severity {
		rels = append(rels, k)
	}
	sort.Strings(rels)
	for _, k := range rels {
		if !validRelation(k) {
			bad("severity."+k, "unknown relation (valid: %s)", strings.Join(SeverityKeys(), ", "))
			continue
		}
		if _, err := model.ParseLevel(string(c.Severity[k])); err != nil {
			bad("severity."+k, "%v", err)
		}
	}
	names := make([]string, 0, len(c.ParamDefaults))
	for k := range c.ParamDefaults {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, k := range names {
		if strings.TrimSpace(c.ParamDefaults[k]) == "" {
			bad("param_defaults."+k, "empty expression")
		}
	}
	enum := func(key, v string, valid []string) {
		if !slices.Contains(valid, v) {
			bad(key, "unknown value %q (want %s)", v, orList(valid))
		}
	}
	enum("fail_on", c.FailOn, failOnValues)
	enum("on_tool_error", c.OnToolError, onToolErrorValues)
	if c.Budget <= 0 {
		bad("budget", "must be > 0, got %v", c.Budget)
	}
	enum("precision", string(c.Precision), precisionValues)
	if c.MaxFiles <= 0 {
		bad("max_files", "must be > 0, got %d", c.MaxFiles)
	}
	enum("format", c.Format, formatValues)
	return errors.Join(errs...)
}

// orList writes a, b or c.
func orList(vs []string) string {
	if len(vs) == 1 {
		return vs[0]
	}
	return strings.Join(vs[:len(vs)-1], ", ") + " or " + vs[len(vs)-1]
}
