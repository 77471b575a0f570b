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
		return nil, yamlError(name, err, nil)
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
	lines := map[string]int{}
	byLine := map[int][]located{}
	version, seen := 0, false
	for i := 0; i+1 < len(root.Content); i += 2 {
		k, v := root.Content[i], root.Content[i+1]
		index(k.Value, k, v, lines, byLine)
		if k.Value != "version" {
			continue
		}
		seen = true
		if err := v.Decode(&version); err != nil {
			return nil, fmt.Errorf("%s:%d: version: want an integer, got %q", name, v.Line, v.Value)
		}
		if version != Version {
			return nil, fmt.Errorf("%s:%d: version: unsupported config version %d (this ripple understands %d)", name, v.Line, version, Version)
		}
	}
	if !seen {
		return nil, fmt.Errorf("%s:%d: missing required key version (add \"version: %d\")", name, root.Line, Version)
	}

	c := Default()
	strict := yaml.NewDecoder(bytes.NewReader(data))
	strict.KnownFields(true)
	decodeErr := strict.Decode(c) // values that do not decode keep their defaults
	if decodeErr != nil {
		if _, ok := decodeErr.(*yaml.TypeError); !ok {
			return nil, yamlError(name, decodeErr, byLine)
		}
		decodeErr = yamlError(name, decodeErr, byLine)
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
	if err := errors.Join(decodeErr, c.validate(name, lines)); err != nil {
		return nil, byLineOrder(name, err)
	}
	c.fileKeys = map[string]bool{}
	for i := 0; i+1 < len(root.Content); i += 2 {
		c.fileKeys[root.Content[i].Value] = true
	}
	return c, nil
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

// located is the value of a key path in the file.
type located struct {
	key  string
	node *yaml.Node
}

// index records where the value v of key k lies: lines maps key paths
// ("budget", "ignore[2]", "severity.CalledBy") to the line of the key (of
// the value for list items), byLine the reverse: the values on a line.
func index(path string, k, v *yaml.Node, lines map[string]int, byLine map[int][]located) {
	if k != nil {
		lines[path] = k.Line
	} else {
		lines[path] = v.Line
	}
	byLine[v.Line] = append(byLine[v.Line], located{path, v})
	switch v.Kind {
	case yaml.SequenceNode:
		for i, e := range v.Content {
			index(fmt.Sprintf("%s[%d]", path, i), nil, e, lines, byLine)
		}
	case yaml.MappingNode:
		for i := 0; i+1 < len(v.Content); i += 2 {
			index(path+"."+v.Content[i].Value, v.Content[i], v.Content[i+1], lines, byLine)
		}
	}
}

var (
	lineRE       = regexp.MustCompile(`^(?:yaml: )?line (\d+): (.*)$`)
	unknownRE    = regexp.MustCompile(`^field (.*) not found in type `)
	setTwiceRE   = regexp.MustCompile(`^(?:field (.*) already set in type .*|mapping key "(.*)" already defined at line (\d+))$`)
	cannotUseRE  = regexp.MustCompile("^cannot unmarshal (!!\\w+)(?: `(.*)`)? into (.*)$")
	goTypeToWant = map[string]string{
		"time.Duration":          "a duration such as 10s or 1m30s",
		"int":                    "an integer",
		"bool":                   "true or false",
		"string":                 "a string",
		"model.Level":            "a level (error, warning, note or none)",
		"[]string":               "a list of strings",
		"map[string]model.Level": "a mapping of relation: level",
		"config.Config":          "a mapping of keys",
	}
)

// yamlError rewrites the errors of yaml.v3 as "name:line: key: problem",
// naming the key from byLine (line → key path). Messages it does not
// recognise are kept, located when they carry a line.
func yamlError(name string, err error, byLine map[int][]located) error {
	var msgs []string
	if te, ok := err.(*yaml.TypeError); ok {
		msgs = te.Errors
	} else {
		msgs = []string{err.Error()}
	}
	var errs []error
	for _, m := range msgs {
		sm := lineRE.FindStringSubmatch(m)
		if sm == nil {
			errs = append(errs, fmt.Errorf("%s: %s", name, strings.TrimPrefix(m, "yaml: ")))
			continue
		}
		line, _ := strconv.Atoi(sm[1])
		errs = append(errs, fmt.Errorf("%s:%d: %s", name, line, explain(sm[2], byLine[line])))
	}
	return errors.Join(errs...)
}

// explain rewords one yaml.v3 message about a value on its line.
func explain(m string, on []located) string {
	if sm := unknownRE.FindStringSubmatch(m); sm != nil {
		return fmt.Sprintf("unknown key %q%s (valid keys: %s)", sm[1], suggest(sm[1]), strings.Join(Keys(), ", "))
	}
	if sm := setTwiceRE.FindStringSubmatch(m); sm != nil {
		if sm[1] != "" {
			return fmt.Sprintf("key %q given twice", sm[1])
		}
		return fmt.Sprintf("key %q given twice (first at line %s)", sm[2], sm[3])
	}
	sm := cannotUseRE.FindStringSubmatch(m)
	var at located
	for _, l := range slices.Backward(on) { // children (more precise) come last
		if sm == nil || l.node.ShortTag() == sm[1] && (l.node.Kind != yaml.ScalarNode ||
			l.node.Value == sm[2] || strings.HasPrefix(l.node.Value, strings.TrimSuffix(sm[2], "..."))) {
			at = l
			break
		}
	}
	prefix := ""
	if at.key != "" {
		prefix = at.key + ": "
	}
	if sm != nil {
		want, ok := goTypeToWant[sm[3]]
		if !ok {
			want = sm[3]
		}
		got := map[string]string{"!!seq": "a list", "!!map": "a mapping", "!!null": "nothing"}[sm[1]]
		if got == "" {
			got = strconv.Quote(sm[2])
			if at.node != nil {
				got = strconv.Quote(at.node.Value) // yaml.v3 shortens long values
			}
		}
		return fmt.Sprintf("%swant %s, got %s", prefix, want, got)
	}
	return prefix + m
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
			if v, ok := m["on_tool_error"].(string); ok && (v == OnToolErrorBlock || v == OnToolErrorAllow) {
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
