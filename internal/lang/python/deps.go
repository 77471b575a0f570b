package python

import (
	"bufio"
	"bytes"
	"context"
	"regexp"
	"strings"

	"github.com/ripple-dev/ripple/internal/gitio"
)

// declaredDeps reads the third-party dependencies the repository declares
// at its top (pyproject.toml: PEP 621 dependencies and optional
// dependencies, Poetry's dependency tables; setup.cfg install_requires;
// requirements*.txt) and returns their import names as far as the
// distribution name tells them (lower case, "-" and "." as "_"; PyYAML
// is imported as yaml, which no rule can know). A missing or unreadable
// file declares nothing.
func declaredDeps(ctx context.Context, t gitio.Tree) map[string]bool {
	deps := map[string]bool{}
	files, err := t.List(ctx, "pyproject.toml", "setup.cfg", "requirements*.txt")
	if err != nil {
		return deps
	}
	for _, p := range files {
		if strings.Contains(p, "/") {
			continue
		}
		src, err := t.ReadFile(ctx, p)
		if err != nil {
			continue
		}
		var names []string
		switch {
		case p == "pyproject.toml":
			names = pyprojectDeps(src)
		case p == "setup.cfg":
			names = setupCfgDeps(src)
		default:
			names = requirementLines(src)
		}
		for _, n := range names {
			deps[n] = true
		}
	}
	return deps
}

// requirementName is the distribution name a requirement starts with.
var requirementName = regexp.MustCompile(`^\s*([A-Za-z0-9][A-Za-z0-9._-]*)`)

func importName(req string) string {
	m := requirementName.FindStringSubmatch(req)
	if m == nil {
		return ""
	}
	return strings.NewReplacer("-", "_", ".", "_").Replace(strings.ToLower(m[1]))
}

// requirementLines reads a requirements file: one requirement a line,
// without options (-r, -e, --index-url), URLs and comments.
func requirementLines(src []byte) []string {
	var out []string
	sc := bufio.NewScanner(bytes.NewReader(src))
	for sc.Scan() {
		l := strings.TrimSpace(sc.Text())
		if l == "" || strings.HasPrefix(l, "#") || strings.HasPrefix(l, "-") || strings.Contains(l, "://") {
			continue
		}
		if n := importName(l); n != "" {
			out = append(out, n)
		}
	}
	return out
}

// quoted is a TOML basic or literal string on one line.
var quoted = regexp.MustCompile(`"([^"]*)"|'([^']*)'`)

// pyprojectDeps reads the dependency arrays and tables of a pyproject.toml
// line by line: enough of TOML for how dependencies are written.
func pyprojectDeps(src []byte) []string {
	var out []string
	table := ""
	inArray := false
	sc := bufio.NewScanner(bytes.NewReader(src))
	for sc.Scan() {
		l := strings.TrimSpace(sc.Text())
		if i := strings.Index(l, "#"); i >= 0 && !strings.ContainsAny(l[:i], `"'`) {
			l = strings.TrimSpace(l[:i])
		}
		if l == "" {
			continue
		}
		if inArray {
			for _, m := range quoted.FindAllStringSubmatch(l, -1) {
				if n := importName(m[1] + m[2]); n != "" {
					out = append(out, n)
				}
			}
			if strings.Contains(l, "]") {
				inArray = false
			}
			continue
		}
		if strings.HasPrefix(l, "[") {
			table = strings.Trim(l, "[] ")
			continue
		}
		key, val, ok := strings.Cut(l, "=")
		if !ok {
			continue
		}
		key, val = strings.TrimSpace(key), strings.TrimSpace(val)
		switch {
		case table == "project" && key == "dependencies",
			table == "project.optional-dependencies",
			table == "dependency-groups",
			table == "tool.pdm.dev-dependencies":
			if strings.HasPrefix(val, "[") {
				for _, m := range quoted.FindAllStringSubmatch(val, -1) {
					if n := importName(m[1] + m[2]); n != "" {
						out = append(out, n)
					}
				}
				inArray = !strings.Contains(val, "]")
			}
		case strings.HasPrefix(table, "tool.poetry.") && strings.HasSuffix(table, "dependencies"):
			if n := importName(strings.Trim(key, `"'`)); n != "" && n != "python" {
				out = append(out, n)
			}
		}
	}
	return out
}

// setupCfgDeps reads install_requires and tests_require of [options]
// and every key of [options.extras_require]: the value after "=" and
// the indented continuation lines below it.
func setupCfgDeps(src []byte) []string {
	var out []string
	section, in := "", false
	sc := bufio.NewScanner(bytes.NewReader(src))
	for sc.Scan() {
		raw := sc.Text()
		l := strings.TrimSpace(raw)
		if l == "" || strings.HasPrefix(l, "#") || strings.HasPrefix(l, ";") {
			continue
		}
		if raw[0] != ' ' && raw[0] != '\t' {
			if strings.HasPrefix(l, "[") {
				section, in = strings.Trim(l, "[] "), false
				continue
			}
			key, val, ok := strings.Cut(l, "=")
			key = strings.TrimSpace(key)
			in = ok && (section == "options" && (key == "install_requires" || key == "tests_require") || section == "options.extras_require")
			l = strings.TrimSpace(val)
		}
		if in {
			if n := importName(l); n != "" {
				out = append(out, n)
			}
		}
	}
	return out
}
