package config

import (
	"flag"
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/ripple-dev/ripple/internal/model"
)

// RegisterFlags defines on fs one flag per config key but version, named
// after the key with '_' written '-' (-fail-on, -on-tool-error,
// -max-files), plus -config (see ConfigFlag). Each flag's default is c's
// value, so call it after Load: the usage shows the repository's
// settings, and a flag given on the command line overrides the file by
// writing into c. Values are checked as they are parsed.
//
// -ignore and -generated are repeatable and comma-separated; the first
// use replaces the file's list and later ones add to it; an empty value
// (-ignore=) clears the list so far. -severity takes REL=LEVEL, repeatable and comma-separated, and
// overrides that relation only.
func (c *Config) RegisterFlags(fs *flag.FlagSet) {
	st := &flagState{values: map[string]flag.Value{}}
	c.flags = st
	def := func(key string, v flag.Value, usage string) {
		name := FlagName(key)
		st.values[name] = v
		if _, ok := v.(*boolValue); ok {
			fs.Var(&recordedBool{recorded{v, name, st}}, name, usage)
			return
		}
		fs.Var(&recorded{v, name, st}, name, usage)
	}
	def("ignore", &globsValue{p: &c.Ignore},
		"gitignore-style `glob` of files never analysed nor reported (repeatable, comma-separated)")
	def("generated", &globsValue{p: &c.Generated},
		"`glob` of generated files, reported with a note to regenerate (repeatable, comma-separated)")
	def("severity", &severityValue{c},
		"level of a relation's may-be-impacted findings, as `REL=LEVEL` (REL a relation or body; none switches it off; repeatable, comma-separated)")
	def("fail_on", &choiceValue{&c.FailOn, failOnValues},
		"lowest `level` that fails the check: "+orList(failOnValues))
	def("on_tool_error", &choiceValue{&c.OnToolError, onToolErrorValues},
		"what a failure of ripple itself does to a push (`action`): auto (block when the diff changed declarations others may use), allow or block")
	def("budget", &durationValue{&c.Budget},
		"wall-clock `duration` of one check, shared by the fast and the type-checked tier")
	def("precision", &choiceValue{(*string)(&c.Precision), precisionValues},
		"analysis `tier`: auto (type-check when it fits the budget), syntax or types")
	def("max_files", &intValue{&c.MaxFiles},
		"most changed files (`n`) a check accepts; a larger diff fails with an error")
	def("format", &choiceValue{&c.Format, formatValues},
		"output `format`: "+orList(formatValues))
	def("verbose", &boolValue{&c.Verbose}, "also show consistent sites and how the check went")
	def("param_defaults", &defaultsValue{c},
		"value passed for an added parameter, as `NAME=EXPR` (e.g. ctx=context.TODO()); makes fixing such calls mechanical (repeatable)")
	def("merge_check", &boolValue{&c.MergeCheck},
		"also check the head merged with the remote's default branch (origin/HEAD): what either side left inconsistent once merged")
	if fs.Lookup("config") == nil {
		fs.Var(&configValue{}, "config", "config file `path` to use instead of the repository's .ripple.yaml")
	}
}

// FlagName is the command-line flag of a config key.
func FlagName(key string) string { return strings.ReplaceAll(key, "_", "-") }

// ConfigFlag returns where -config PATH is stored on fs ("" when not
// given), defining the flag if RegisterFlags has not. After fs.Parse, a
// non-empty path is applied with c.Reload(path); Resolve does all of it.
// It panics if fs defines "config" otherwise.
func ConfigFlag(fs *flag.FlagSet) *string {
	f := fs.Lookup("config")
	if f == nil {
		v := &configValue{}
		fs.Var(v, "config", "config file `path` to use instead of the repository's .ripple.yaml")
		return &v.path
	}
	return &f.Value.(*configValue).path
}

// Reload replaces the file layer of c with the config file at path (the
// -config flag): it parses and validates path strictly, then re-applies
// the flags already parsed by the FlagSet of RegisterFlags, so that the
// precedence stays defaults < file < flags. If the file does not load, c
// is unchanged.
func (c *Config) Reload(path string) error {
	nc, err := LoadFile(path)
	if err != nil {
		return err
	}
	st := c.flags
	*c = *nc
	c.flags = st
	if st == nil {
		return nil
	}
	for _, v := range st.values {
		if g, ok := v.(*globsValue); ok {
			g.replaced = false
		}
	}
	for _, s := range st.set {
		if err := st.values[s.name].Set(s.value); err != nil {
			return fmt.Errorf("-%s %s: %v", s.name, s.value, err)
		}
	}
	return nil
}

// Resolve builds the configuration of one command: the defaults, the
// repository's config file at top (or the -config file), then the flags
// in args. It registers the config flags on fs, which may hold the
// command's own flags, and parses args with it (read the rest with
// fs.Args). It returns the config file used ("" if none). A broken
// repository file is not an error when -config names another one.
func Resolve(top string, fs *flag.FlagSet, args []string) (*Config, string, error) {
	c, used, loadErr := Load(top)
	if loadErr != nil {
		c = Default()
	}
	c.RegisterFlags(fs)
	if err := fs.Parse(args); err != nil {
		return nil, used, err
	}
	if p := *ConfigFlag(fs); p != "" {
		if err := c.Reload(p); err != nil {
			return nil, p, err
		}
		used, loadErr = p, nil
	}
	if loadErr != nil {
		return nil, used, loadErr
	}
	if err := c.Validate(); err != nil {
		return nil, used, err
	}
	return c, used, nil
}

// flagState records the config flags set on the command line, in order,
// for Reload.
type flagState struct {
	values map[string]flag.Value // by flag name
	set    []setting
}

type setting struct{ name, value string }

// recorded is a flag.Value that records its successful settings.
type recorded struct {
	flag.Value
	name string
	st   *flagState
}

func (r *recorded) Set(s string) error {
	if err := r.Value.Set(s); err != nil {
		return err
	}
	r.st.set = append(r.st.set, setting{r.name, s})
	return nil
}

func (r *recorded) String() string {
	if r == nil || r.Value == nil {
		return "" // the zero value flag.PrintDefaults makes
	}
	return r.Value.String()
}

// recordedBool is a recorded bool flag.
type recordedBool struct{ recorded }

func (r *recordedBool) IsBoolFlag() bool { return true }

func (r *recordedBool) String() string {
	if r == nil || r.Value == nil {
		return "false" // so that usage omits (default false)
	}
	return r.Value.String()
}

// globsValue is a repeatable, comma-separated list of globs.
type globsValue struct {
	p        *[]string
	replaced bool // the command line has replaced the file's list
}

func (v *globsValue) Set(s string) error {
	if strings.TrimSpace(s) == "" {
		*v.p, v.replaced = []string{}, true
		return nil
	}
	var add []string
	for _, g := range strings.Split(s, ",") {
		if g = strings.TrimSpace(g); g == "" {
			continue
		}
		if err := checkGlob(g); err != nil {
			return err
		}
		add = append(add, g)
	}
	if !v.replaced {
		*v.p, v.replaced = []string{}, true
	}
	*v.p = append(*v.p, add...)
	return nil
}

func (v *globsValue) String() string {
	if v == nil || v.p == nil {
		return ""
	}
	return strings.Join(*v.p, ",")
}

// severityValue sets severity entries from REL=LEVEL lists.
type severityValue struct{ c *Config }

func (v *severityValue) Set(s string) error {
	for _, kv := range strings.Split(s, ",") {
		if kv = strings.TrimSpace(kv); kv == "" {
			continue
		}
		rel, lv, ok := strings.Cut(kv, "=")
		rel = strings.TrimSpace(rel)
		if !ok {
			return fmt.Errorf("%q: want REL=LEVEL, as CalledBy=error", kv)
		}
		if !validRelation(rel) {
			return fmt.Errorf("%q: unknown relation (valid: %s)", rel, strings.Join(SeverityKeys(), ", "))
		}
		l, err := model.ParseLevel(lv)
		if err != nil {
			return err
		}
		if v.c.Severity == nil {
			v.c.Severity = map[string]model.Level{}
		}
		v.c.Severity[rel] = l
	}
	return nil
}

func (v *severityValue) String() string {
	if v == nil || v.c == nil {
		return ""
	}
	var kvs []string
	for k, l := range v.c.Severity {
		kvs = append(kvs, k+"="+string(l))
	}
	sort.Strings(kvs)
	return strings.Join(kvs, ",")
}

// choiceValue is one of a set of strings.
type choiceValue struct {
	p     *string
	valid []string
}

func (v *choiceValue) Set(s string) error {
	if !slices.Contains(v.valid, s) {
		return fmt.Errorf("unknown value %q (want %s)", s, orList(v.valid))
	}
	*v.p = s
	return nil
}

func (v *choiceValue) String() string {
	if v == nil || v.p == nil {
		return ""
	}
	return *v.p
}

// durationValue is a positive time.Duration.
type durationValue struct{ p *time.Duration }

func (v *durationValue) Set(s string) error {
	d, err := time.ParseDuration(s)
	if err != nil {
		return fmt.Errorf("invalid duration %q (Go syntax, as 10s or 1m30s)", s)
	}
	if d <= 0 {
		return fmt.Errorf("must be > 0, got %v", d)
	}
	*v.p = d
	return nil
}

func (v *durationValue) String() string {
	if v == nil || v.p == nil {
		return ""
	}
	return v.p.String()
}

// intValue is a positive int.
type intValue struct{ p *int }

func (v *intValue) Set(s string) error {
	n, err := strconv.Atoi(s)
	if err != nil {
		return fmt.Errorf("invalid integer %q", s)
	}
	if n <= 0 {
		return fmt.Errorf("must be > 0, got %d", n)
	}
	*v.p = n
	return nil
}

func (v *intValue) String() string {
	if v == nil || v.p == nil {
		return ""
	}
	return strconv.Itoa(*v.p)
}

type boolValue struct{ p *bool }

func (v *boolValue) Set(s string) error {
	b, err := strconv.ParseBool(s)
	if err != nil {
		return fmt.Errorf("invalid boolean %q", s)
	}
	*v.p = b
	return nil
}

func (v *boolValue) String() string {
	if v == nil || v.p == nil {
		return ""
	}
	return strconv.FormatBool(*v.p)
}

// configValue is the -config path.
type configValue struct{ path string }

func (v *configValue) Set(s string) error { v.path = s; return nil }

func (v *configValue) String() string {
	if v == nil {
		return ""
	}
	return v.path
}

// defaultsValue is -param-defaults NAME=EXPR (repeatable; an expression
// may contain commas, so values are not split).
type defaultsValue struct{ c *Config }

func (v *defaultsValue) Set(s string) error {
	name, expr, ok := strings.Cut(s, "=")
	name, expr = strings.TrimSpace(name), strings.TrimSpace(expr)
	if !ok || name == "" || expr == "" {
		return fmt.Errorf("want NAME=EXPR, got %q", s)
	}
	if v.c.ParamDefaults == nil {
		v.c.ParamDefaults = map[string]string{}
	}
	v.c.ParamDefaults[name] = expr
	return nil
}

func (v *defaultsValue) String() string {
	if v == nil || v.c == nil {
		return ""
	}
	keys := make([]string, 0, len(v.c.ParamDefaults))
	for k := range v.c.ParamDefaults {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var parts []string
	for _, k := range keys {
		parts = append(parts, k+"="+v.c.ParamDefaults[k])
	}
	return strings.Join(parts, ",")
}
