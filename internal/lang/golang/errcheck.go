package golang

import (
	"context"
	"path"
	"regexp"
	"strings"
	"sync"

	"go.yaml.in/yaml/v3"
)

// What the repository's golangci-lint configuration says of errcheck.
//
// A call that discards a result its function gained compiles, so it is a
// warning; but when that result is an error and the repository lints
// with errcheck, the lint run fails on the call exactly as a build would:
// the site is inconsistent (issue 11 item 3: "an error when the
// repository's vet configuration would flag it"). The configuration is
// read as golangci-lint reads it, the file nearest the site's directory
// (.golangci.yml, .yaml or .json; a TOML file is not read, so errcheck
// counts as off there): v1 (`linters.enable/disable/disable-all/
// enable-all/presets`, errcheck on by default; `issues.exclude*`, with
// the default exclusion of Close, Flush, print... unless
// `exclude-use-default: false`) and v2 (`version: "2"`,
// `linters.default` standard/all/none/fast, `linters.exclusions` with
// its presets, rules and paths). A site errcheck would not report
// (excluded by path, text, source or function, a test file with
// `run.tests: false`, a generated file, a `//nolint` directive naming
// errcheck) keeps the warning.

// golangciFiles are the names golangci-lint looks for, in its order.
var golangciFiles = []string{".golangci.yml", ".golangci.yaml", ".golangci.toml", ".golangci.json"}

// stdErrorHandling is errcheck's exclusion of errors that almost every
// program ignores (v1's default EXC0001, v2's std-error-handling preset).
const stdErrorHandling = `Error return value of .((os\.)?std(out|err)\..*|.*Close|.*Flush|os\.Remove(All)?|.*print(f|ln)?|os\.(Un)?Setenv). is not checked`

// v1's default excluded directories (exclude-dirs-use-default).
var defaultExcludedDirs = []string{`(^|/)vendor($|/)`, `(^|/)third_party($|/)`, `(^|/)testdata($|/)`, `(^|/)examples($|/)`, `(^|/)Godeps($|/)`, `(^|/)builtin($|/)`}

type golangciYAML struct {
	Version any `yaml:"version"`
	Run     struct {
		Tests     *bool    `yaml:"tests"`
		SkipDirs  []string `yaml:"skip-dirs"`
		SkipFiles []string `yaml:"skip-files"`
	} `yaml:"run"`
	Linters struct {
		Default    string           `yaml:"default"`
		EnableAll  bool             `yaml:"enable-all"`
		DisableAll bool             `yaml:"disable-all"`
		Enable     []string         `yaml:"enable"`
		Disable    []string         `yaml:"disable"`
		Presets    []string         `yaml:"presets"`
		Settings   lintersSettings  `yaml:"settings"`
		Exclusions lintersExclusion `yaml:"exclusions"`
	} `yaml:"linters"`
	LintersSettings lintersSettings `yaml:"linters-settings"`
	Issues          struct {
		ExcludeUseDefault *bool       `yaml:"exclude-use-default"`
		Exclude           []string    `yaml:"exclude"`
		ExcludeRules      []ruleYAML  `yaml:"exclude-rules"`
		ExcludeDirs       []string    `yaml:"exclude-dirs"`
		ExcludeFiles      []string    `yaml:"exclude-files"`
		DirsUseDefault    *bool       `yaml:"exclude-dirs-use-default"`
		ExcludeGenerated  interface{} `yaml:"exclude-generated"`
	} `yaml:"issues"`
}

type lintersSettings struct {
	Errcheck struct {
		CheckBlank       bool     `yaml:"check-blank"`
		ExcludeFunctions []string `yaml:"exclude-functions"`
	} `yaml:"errcheck"`
}

type lintersExclusion struct {
	Paths   []string   `yaml:"paths"`
	Presets []string   `yaml:"presets"`
	Rules   []ruleYAML `yaml:"rules"`
}

type ruleYAML struct {
	Path       string   `yaml:"path"`
	PathExcept string   `yaml:"path-except"`
	Text       string   `yaml:"text"`
	Source     string   `yaml:"source"`
	Linters    []string `yaml:"linters"`
}

// errcheckConf is errcheck as one configuration file enables it.
type errcheckConf struct {
	file  string // the configuration, repository-relative
	dir   string // its directory: paths in it are relative to it
	tests bool   // test files are linted
	blank bool   // `_ = f()` is reported too
	funcs map[string]bool
	paths []*regexp.Regexp // excluded paths
	rules []exclRule
}

type exclRule struct {
	path, pathExcept, text, source *regexp.Regexp
}

// parseGolangci reads a golangci-lint configuration; nil when errcheck is
// not enabled by it (or it cannot be read: then nothing is claimed).
func parseGolangci(file string, src []byte) *errcheckConf {
	var y golangciYAML
	if strings.HasSuffix(file, ".toml") || yaml.Unmarshal(src, &y) != nil {
		return nil
	}
	v2 := false
	switch v := y.Version.(type) {
	case string:
		v2 = v == "2"
	case int:
		v2 = v == 2
	}
	l := y.Linters
	has := func(list []string, name string) bool {
		for _, x := range list {
			if strings.EqualFold(strings.TrimSpace(x), name) {
				return true
			}
		}
		return false
	}
	var on bool
	if v2 {
		switch l.Default {
		case "", "standard", "all":
			on = true
		}
	} else {
		on = (!l.DisableAll || l.EnableAll) || has(l.Presets, "bugs")
	}
	if has(l.Enable, "errcheck") {
		on = true
	}
	if has(l.Disable, "errcheck") {
		on = false
	}
	if !on {
		return nil
	}
	c := &errcheckConf{file: file, dir: path.Dir(file), tests: y.Run.Tests == nil || *y.Run.Tests, funcs: map[string]bool{}}
	settings := y.LintersSettings
	if v2 {
		settings = l.Settings
	}
	c.blank = settings.Errcheck.CheckBlank
	for _, f := range settings.Errcheck.ExcludeFunctions {
		c.funcs[strings.ReplaceAll(strings.TrimSpace(f), "*", "")] = true
	}
	re := func(s string) *regexp.Regexp {
		if s == "" {
			return nil
		}
		r, err := regexp.Compile(s)
		if err != nil {
			return regexp.MustCompile(`\A\z.`) // a pattern golangci-lint would reject: matches nothing
		}
		return r
	}
	addRules := func(rules []ruleYAML) {
		for _, r := range rules {
			if len(r.Linters) > 0 && !has(r.Linters, "errcheck") {
				continue
			}
			if r.Path == "" && r.PathExcept == "" && r.Text == "" && r.Source == "" {
				continue
			}
			c.rules = append(c.rules, exclRule{path: re(r.Path), pathExcept: re(r.PathExcept), text: re(r.Text), source: re(r.Source)})
		}
	}
	var dirs []string
	if v2 {
		if has(l.Exclusions.Presets, "std-error-handling") {
			c.rules = append(c.rules, exclRule{text: re(stdErrorHandling)})
		}
		addRules(l.Exclusions.Rules)
		dirs = l.Exclusions.Paths
	} else {
		if y.Issues.ExcludeUseDefault == nil || *y.Issues.ExcludeUseDefault {
			c.rules = append(c.rules, exclRule{text: re(stdErrorHandling)})
		}
		for _, t := range y.Issues.Exclude {
			c.rules = append(c.rules, exclRule{text: re(t)})
		}
		addRules(y.Issues.ExcludeRules)
		dirs = append(append(append(append(dirs, y.Issues.ExcludeDirs...), y.Issues.ExcludeFiles...), y.Run.SkipDirs...), y.Run.SkipFiles...)
		if y.Issues.DirsUseDefault == nil || *y.Issues.DirsUseDefault {
			dirs = append(dirs, defaultExcludedDirs...)
		}
	}
	for _, d := range dirs {
		if r := re(d); r != nil {
			c.paths = append(c.paths, r)
		}
	}
	return c
}

// discard is a call statement errcheck would judge.
type discard struct {
	path      string   // repository-relative
	callee    string   // the call's function expression as written (n.writeTermVote)
	qualified []string // the callee's qualified names ((pkg.T).M, pkg.F)
	line      string   // the call's source line
	above     string   // the line above the enclosing function, for a //nolint on it
	generated bool
	blank     bool // `_ = f()`
}

// reports says whether errcheck, so configured, reports the discard.
func (c *errcheckConf) reports(d discard) bool {
	if c == nil || d.generated || (d.blank && !c.blank) {
		return false
	}
	if !c.tests && strings.HasSuffix(d.path, "_test.go") {
		return false
	}
	if nolintErrcheck(d.line) || nolintErrcheck(d.above) {
		return false
	}
	for _, q := range d.qualified {
		if c.funcs[q] {
			return false
		}
	}
	rel := d.path
	if c.dir != "." {
		rel = strings.TrimPrefix(d.path, c.dir+"/")
	}
	for _, p := range c.paths {
		if p.MatchString(rel) {
			return false
		}
	}
	text := "Error return value of `" + d.callee + "` is not checked"
	for _, r := range c.rules {
		if (r.path == nil || r.path.MatchString(rel)) &&
			(r.pathExcept == nil || !r.pathExcept.MatchString(rel)) &&
			(r.text == nil || r.text.MatchString(text)) &&
			(r.source == nil || r.source.MatchString(d.line)) {
			return false
		}
	}
	return true
}

var nolintRE = regexp.MustCompile(`//\s*nolint(?::([\w,\-]+))?\b`)

// nolintErrcheck reports a //nolint directive that silences errcheck on
// its line (all linters, or a list naming errcheck).
func nolintErrcheck(line string) bool {
	for _, m := range nolintRE.FindAllStringSubmatch(line, -1) {
		if m[1] == "" {
			return true
		}
		for _, l := range strings.Split(m[1], ",") {
			if l == "errcheck" || l == "all" {
				return true
			}
		}
	}
	return false
}

// lintConfigs finds, per directory, the golangci-lint configuration
// golangci-lint would use there (the nearest one above it).
type lintConfigs struct {
	mu    sync.Mutex
	byDir map[string]*errcheckConf
	read  func(ctx context.Context, path string) ([]byte, bool)
}

func (l *lintConfigs) errcheck(ctx context.Context, dir string) *errcheckConf {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.lookup(ctx, dir)
}

func (l *lintConfigs) lookup(ctx context.Context, dir string) *errcheckConf {
	if c, ok := l.byDir[dir]; ok {
		return c
	}
	var c *errcheckConf
	found := false
	for _, name := range golangciFiles {
		p := path.Join(dir, name)
		if src, ok := l.read(ctx, p); ok {
			c, found = parseGolangci(p, src), true
			break
		}
	}
	if !found && dir != "." && dir != "" && dir != "/" {
		c = l.lookup(ctx, path.Dir(dir))
	}
	if l.byDir == nil {
		l.byDir = map[string]*errcheckConf{}
	}
	l.byDir[dir] = c
	return c
}
