package config

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/ripple-dev/ripple/internal/model"
	"go.yaml.in/yaml/v3"
)

// Load reads the config of the repository whose top directory is top:
// .ripple.yaml or .ripple.yml when present (both present is an error),
// else Default(). It returns the path of the file used, "" if none. A
// file is parsed strictly and validated (see Parse).
func Load(top string) (*Config, string, error) {
	var found []string
	for _, n := range FileNames {
		p := filepath.Join(top, n)
		switch _, err := os.Stat(p); {
		case err == nil:
			found = append(found, p)
		case !errors.Is(err, fs.ErrNotExist):
			return nil, p, err
		}
	}
	switch len(found) {
	case 0:
		return Default(), "", nil
	case 1:
		c, err := LoadFile(found[0])
		return c, found[0], err
	}
	return nil, found[0], fmt.Errorf("%s and %s both exist; keep one", found[0], found[1])
}

// LoadFile reads and parses the config file at path.
func LoadFile(path string) (*Config, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return Parse(path, data)
}

// Parse decodes a config file strictly and validates it. Missing keys
// take their Default() values; version is required. Unknown keys, values
// of the wrong type and invalid values are errors, all of them reported
// at once (joined), each as "name:line: key: problem". A version other
// than Version is reported alone, before the rest is looked at: another
// version may have other keys.
func Parse(name string, data []byte) (*Config, error) {
	var doc yaml.Node
	dec := yaml.NewDecoder(bytes.NewReader(data))
	switch err := dec.Decode(&doc); {
	case err == io.EOF:
		return nil, fmt.Errorf("%s: empty config; it needs at least \"version: %d\"", name, Version)
	case err != nil:
		return nil, yamlError(name, err)
	}
	var more yaml.Node
	if err := dec.Decode(&more); err != io.EOF {
		return nil, fmt.Errorf("%s:%d: more than one YAML document", name, more.Line)
	}
	root := &doc
	if root.Kind == yaml.DocumentNode && len(root.Content) == 1 {
		root = root.Content[0]
	}
	if root.Kind != yaml.MappingNode {
		return nil, fmt.Errorf("%s:%d: want a mapping of keys (version: %d, ...)", name, root.Line, Version)
	}
	version, seen := 0, false
	for i := 0; i+1 < len(root.Content); i += 2 {
		k, v := root.Content[i], root.Content[i+1]
		if k.Value != "version" {
			continue
		}
		seen = true
		if err := v.Decode(&version); err != nil {
			return nil, fmt.Errorf("%s:%d: version: want an integer, got %q", name, k.Line, v.Value)
		}
		if version != Version {
			return nil, fmt.Errorf("%s:%d: version: unsupported config version %d (this ripple understands %d)", name, k.Line, version, Version)
		}
	}
	if !seen {
		return nil, fmt.Errorf("%s:%d: missing required key version (add \"version: %d\")", name, root.Line, Version)
	}

	c := Default()
	d := &decoder{name: name, lines: map[string]int{}}
	fields := map[string]reflect.Value{}
	cv := reflect.ValueOf(c).Elem()
	for i := range cv.NumField() {
		if key := cv.Type().Field(i).Tag.Get("yaml"); key != "" {
			fields[key] = cv.Field(i)
		}
	}
	first := map[string]int{}
	for i := 0; i+1 < len(root.Content); i += 2 {
		k, v := root.Content[i], root.Content[i+1]
		if l, ok := first[k.Value]; ok {
			d.errorf(k.Line, "key %q given twice (first at line %d)", k.Value, l)
			continue
		}
		first[k.Value] = k.Line
		f, ok := fields[k.Value]
		switch {
		case !ok:
			d.errorf(k.Line, "unknown key %q%s (valid keys: %s)", k.Value, suggest(k.Value), strings.Join(Keys(), ", "))
		case k.Value != "version": // checked above
			d.decode(k.Value, k.Line, v, f, false)
		}
	}
	for k, l := range c.Severity {
		if n, err := model.ParseLevel(string(l)); err == nil {
			c.Severity[k] = n
		}
	}
	if c.Ignore == nil {
		c.Ignore = []string{}
	}
	if c.Generated == nil {
		c.Generated = []string{}
	}
	if c.Severity == nil {
		c.Severity = map[string]model.Level{}
	}
	if c.ParamDefaults == nil {
		c.ParamDefaults = map[string]string{}
	}
	if err := errors.Join(errors.Join(d.errs...), c.validate(name, d.lines)); err != nil {
		return nil, byLineOrder(name, err)
	}
	c.fileKeys = map[string]bool{}
	for i := 0; i+1 < len(root.Content); i += 2 {
		c.fileKeys[root.Content[i].Value] = true
	}
	return c, nil
}

// decoder decodes the values of a config file key by key, so that every
// error is located at the line of its key (yaml.v3's own errors give the
// line of the value, which may be below the key or, through an alias,
// anywhere in the file).
type decoder struct {
	name  string
	lines map[string]int // key path ("budget", "ignore[2]", "severity.CalledBy") → line
	errs  []error
}

func (d *decoder) errorf(line int, format string, args ...any) {
	d.errs = append(d.errs, fmt.Errorf("%s:%d: %s", d.name, line, fmt.Sprintf(format, args...)))
}

// decode sets dst (a settable field or element) from v, the value of key
// path at line. Lists and mappings are decoded element by element, each
// located at its own line (a list item's, a mapping key's), except
// within an alias, whose elements are located at the line that names it.
// A null value leaves dst as it is.
func (d *decoder) decode(path string, line int, v *yaml.Node, dst reflect.Value, inAlias bool) {
	d.lines[path] = line
	for v.Kind == yaml.AliasNode && v.Alias != nil {
		v, inAlias = v.Alias, true
	}
	if v.ShortTag() == "!!null" {
		return
	}
	at := func(n *yaml.Node) int {
		if inAlias {
			return line
		}
		return n.Line
	}
	t := dst.Type()
	switch t.Kind() {
	case reflect.Slice:
		if v.Kind != yaml.SequenceNode {
			break
		}
		s := reflect.MakeSlice(t, len(v.Content), len(v.Content))
		for i, e := range v.Content {
			d.decode(fmt.Sprintf("%s[%d]", path, i), at(e), e, s.Index(i), inAlias)
		}
		dst.Set(s)
		return
	case reflect.Map:
		if v.Kind != yaml.MappingNode {
			break
		}
		m := reflect.MakeMap(t)
		first := map[string]int{}
		for i := 0; i+1 < len(v.Content); i += 2 {
			k, e := v.Content[i], v.Content[i+1]
			if l, ok := first[k.Value]; ok {
				d.errorf(at(k), "%s: key %q given twice (first at line %d)", path, k.Value, l)
				continue
			}
			first[k.Value] = at(k)
			ev := reflect.New(t.Elem()).Elem()
			d.decode(path+"."+k.Value, at(k), e, ev, inAlias)
			m.SetMapIndex(reflect.ValueOf(k.Value).Convert(t.Key()), ev)
		}
		dst.Set(m)
		return
	default:
		if v.Kind != yaml.ScalarNode {
			break
		}
		p := reflect.New(t)
		if err := v.Decode(p.Interface()); err == nil {
			dst.Set(p.Elem())
			return
		}
	}
	got := map[yaml.Kind]string{yaml.SequenceNode: "a list", yaml.MappingNode: "a mapping"}[v.Kind]
	if got == "" {
		got = strconv.Quote(v.Value)
	}
	want, ok := typeWants[t.String()]
	if !ok {
		want = t.String()
	}
	d.errorf(line, "%s: want %s, got %s", path, want, got)
}

// typeWants says in words what a value of a Go type in Config is.
var typeWants = map[string]string{
	"time.Duration":          "a duration such as 10s or 1m30s",
	"int":                    "an integer",
	"bool":                   "true or false",
	"string":                 "a string",
	"model.Level":            "a level (error, warning, note or none)",
	"[]string":               "a list of strings",
	"map[string]model.Level": "a mapping of relation: level",
	"map[string]string":      "a mapping of name: expression",
}

// byLineOrder flattens joined errors and orders them by line.
func byLineOrder(name string, err error) error {
	var leaves []error
	var walk func(error)
	walk = func(e error) {
		if j, ok := e.(interface{ Unwrap() []error }); ok {
			for _, e := range j.Unwrap() {
				walk(e)
			}
			return
		}
		leaves = append(leaves, e)
	}
	walk(err)
	line := func(e error) int {
		rest, _ := strings.CutPrefix(e.Error(), name+":")
		n, _ := strconv.Atoi(rest[:len(rest)-len(strings.TrimLeft(rest, "0123456789"))])
		return n
	}
	slices.SortStableFunc(leaves, func(a, b error) int { return line(a) - line(b) })
	return errors.Join(leaves...)
}

var lineRE = regexp.MustCompile(`^(?:yaml: )?line (\d+): (.*)$`)

// yamlError rewrites the syntax errors of yaml.v3 as "name:line: problem".
// Messages without a line are kept, prefixed with name.
func yamlError(name string, err error) error {
	m := err.Error()
	sm := lineRE.FindStringSubmatch(m)
	if sm == nil {
		return fmt.Errorf("%s: %s", name, strings.TrimPrefix(m, "yaml: "))
	}
	line, _ := strconv.Atoi(sm[1])
	return fmt.Errorf("%s:%d: %s", name, line, sm[2])
}

// suggest proposes the known key an unknown one was probably meant to be.
func suggest(k string) string {
	n := strings.ToLower(strings.ReplaceAll(k, "-", "_"))
	if n != k && slices.Contains(Keys(), n) {
		return fmt.Sprintf(" (did you mean %q?)", n)
	}
	return ""
}

// Fallback is the configuration a pre-push hook acts on when Resolve
// failed (a broken config file must not silently change what a failure
// does to the push): the defaults, the file's on_tool_error when the YAML
// can be read at all, then the flags of args that parse.
func Fallback(top string, args []string) *Config {
	c := Default()
	for _, name := range []string{".ripple.yaml", ".ripple.yml"} {
		data, err := os.ReadFile(filepath.Join(top, name))
		if err != nil {
			continue
		}
		var m map[string]any
		if yaml.Unmarshal(data, &m) == nil {
			if v, ok := m["on_tool_error"].(string); ok && slices.Contains(onToolErrorValues, v) {
				c.OnToolError = v
			}
		}
	}
	fs := flag.NewFlagSet("fallback", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	c.RegisterFlags(fs)
	_ = fs.Parse(args) // the flags before a bad one still apply
	return c
}
