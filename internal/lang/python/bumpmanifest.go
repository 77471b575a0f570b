package python

import (
	"context"
	"errors"
	"fmt"
	"path"
	"regexp"
	"sort"
	"strings"

	"github.com/BurntSushi/toml"

	"github.com/ripple-dev/ripple/internal/gitio"
)

// The Python manifests a bump is read from (bump.go): pyproject.toml
// (PEP 621 [project] dependencies and optional-dependencies, PEP 735
// [dependency-groups], Poetry's dependency tables), requirements files
// (pins, -r and -c includes, markers, extras) and the lock files uv.lock
// and poetry.lock (pinned versions). Names are compared normalised
// (PEP 503). A file that does not parse is an error naming the file and
// the line, never a guess.

// pyReq is one requirement as a manifest states it.
type pyReq struct {
	name   string // PEP 503 normalised
	spec   string // the version specifier as written: "==2.31.0", ">=2.31,<3", Poetry's "^2.31"
	marker string // the environment marker, "" for none
	pin    string // the exact version the spec pins, "" for a range
	file   string
	line   int
}

// pyPin is one package's version in a lock file.
type pyPin struct {
	version string
	file    string
	line    int
}

// normName is a distribution name normalised as PEP 503 says: lower
// case, every run of "-", "_" and "." one "-".
func normName(s string) string {
	return strings.ToLower(nameSeps.ReplaceAllString(strings.TrimSpace(s), "-"))
}

var nameSeps = regexp.MustCompile(`[-_.]+`)

// pep508 splits a dependency specification: name, extras, the version
// specifier (with or without parentheses) and the marker after ";". A
// direct reference ("name @ https://...") has ref set.
var pep508 = regexp.MustCompile(`^\s*([A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?)\s*(\[[^\]]*\])?\s*(.*)$`)

// versionRE is a PEP 440 version as a pin writes it.
var versionRE = regexp.MustCompile(`^v?[0-9]+(?:\.[0-9]+)*(?:[-_.]?(?:a|b|c|rc|alpha|beta|pre|preview)[-_.]?[0-9]*)?(?:[-_.]?(?:post|rev|r)[-_.]?[0-9]*)?(?:[-_.]?dev[-_.]?[0-9]*)?(?:\+[a-z0-9]+(?:[-_.][a-z0-9]+)*)?$`)

// specClause is one clause of a PEP 440 version specifier.
var specClause = regexp.MustCompile(`^(===|==|!=|~=|<=|>=|<|>)[A-Za-z0-9.*+!_-]+$`)

// parseRequirement reads one PEP 508 requirement. ok is false for text
// that is not one; direct references (name @ url) are requirements
// without a pin.
func parseRequirement(s string) (r pyReq, ok bool) {
	s = strings.TrimSpace(s)
	m := pep508.FindStringSubmatch(s)
	if m == nil {
		return r, false
	}
	r.name = normName(m[1])
	rest := m[3]
	if i := strings.IndexByte(rest, ';'); i >= 0 {
		r.marker = strings.Join(strings.Fields(rest[i+1:]), " ")
		rest = rest[:i]
	}
	rest = strings.TrimSpace(rest)
	if strings.HasPrefix(rest, "@") {
		return r, true // a direct reference: no version to compare
	}
	rest = strings.TrimSpace(strings.TrimSuffix(strings.TrimPrefix(rest, "("), ")"))
	r.spec = strings.Join(strings.Fields(rest), "")
	if r.spec != "" {
		for _, clause := range strings.Split(r.spec, ",") {
			if !specClause.MatchString(clause) {
				return r, false
			}
		}
	}
	r.pin = pinOf(r.spec)
	return r, true
}

// pinOf is the version a specifier pins exactly ("==2.31.0", "===2.31.0";
// a bare version, as Poetry writes one), "" for a range or a wildcard.
func pinOf(spec string) string {
	v := strings.TrimSpace(spec)
	switch {
	case strings.HasPrefix(v, "==="):
		v = v[3:]
	case strings.HasPrefix(v, "=="):
		v = v[2:]
	case v != "" && strings.ContainsAny(v[:1], "<>!~^*="):
		return ""
	}
	v = strings.TrimSpace(v)
	if strings.Contains(v, ",") || !versionRE.MatchString(strings.ToLower(v)) {
		return ""
	}
	return v
}

// readRequirements reads a requirements file of a state and the files
// it includes (-r, --requirement; -c, --constraint, whose pins count as
// the file's own): one requirement a line, continuations joined,
// comments and the other options (-e, -i, --hash) skipped. A line that
// is neither is an error naming the file and the line.
func readRequirements(ctx context.Context, t gitio.Tree, p string, seen map[string]bool) ([]pyReq, error) {
	if seen[p] {
		return nil, nil
	}
	seen[p] = true
	src, err := t.ReadFile(ctx, p)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", p, err)
	}
	return parseRequirements(p, src, func(inc string) ([]pyReq, error) {
		ip := path.Join(path.Dir(p), inc)
		if strings.HasPrefix(inc, "/") || strings.HasPrefix(ip, "../") || ip == ".." {
			return nil, nil // outside the repository: not a state of it
		}
		if _, err := t.ReadFile(ctx, ip); errors.Is(err, gitio.ErrNotExist) {
			return nil, nil // pip would fail too; the requirement is not a bump
		}
		return readRequirements(ctx, t, ip, seen)
	})
}

// parseRequirements reads one requirements file's text; include reads
// an -r or -c file named relative to it.
func parseRequirements(p string, src []byte, include func(string) ([]pyReq, error)) ([]pyReq, error) {
	var out []pyReq
	lines := strings.Split(string(src), "\n")
	for i := 0; i < len(lines); i++ {
		n := i + 1
		l := lines[i]
		for strings.HasSuffix(strings.TrimRight(l, " \t\r"), `\`) && i+1 < len(lines) {
			l = strings.TrimSuffix(strings.TrimRight(l, " \t\r"), `\`) + " " + lines[i+1]
			i++
		}
		if j := strings.Index(l, "#"); j >= 0 && (j == 0 || l[j-1] == ' ' || l[j-1] == '\t') {
			l = l[:j]
		}
		l = strings.TrimSpace(l)
		if l == "" {
			continue
		}
		if strings.HasPrefix(l, "-") {
			opt, arg := splitOption(l)
			switch opt {
			case "-r", "--requirement", "-c", "--constraint":
				if arg == "" {
					return nil, fmt.Errorf("%s:%d: %s names no file", p, n, opt)
				}
				inc, err := include(arg)
				if err != nil {
					return nil, err
				}
				out = append(out, inc...)
			}
			continue // -e, -i, --extra-index-url, -f, --hash, ...: no version of a name
		}
		if strings.Contains(l, "://") && !strings.Contains(l, "@") {
			continue // a URL or a path of an archive: no name to bump
		}
		if strings.HasPrefix(l, ".") || strings.HasPrefix(l, "/") {
			continue // a local project
		}
		// per-requirement options (--hash=...) follow the requirement
		if j := strings.Index(l, " --"); j >= 0 {
			l = strings.TrimSpace(l[:j])
		}
		r, ok := parseRequirement(l)
		if !ok {
			return nil, fmt.Errorf("%s:%d: not a requirement: %q", p, n, l)
		}
		r.file, r.line = p, n
		out = append(out, r)
	}
	return out, nil
}

// splitOption splits "-r file", "-rfile", "--requirement=file".
func splitOption(l string) (opt, arg string) {
	if strings.HasPrefix(l, "--") {
		if k, v, ok := strings.Cut(l, "="); ok && !strings.ContainsAny(k, " \t") {
			return k, strings.TrimSpace(v)
		}
		f := strings.Fields(l)
		if len(f) > 1 {
			return f[0], f[1]
		}
		return f[0], ""
	}
	f := strings.Fields(l)
	if len(f[0]) > 2 {
		return f[0][:2], f[0][2:]
	}
	if len(f) > 1 {
		return f[0], f[1]
	}
	return f[0], ""
}

// tomlError names a TOML file's parse error by file and line.
func tomlError(p string, err error) error {
	var pe toml.ParseError
	if errors.As(err, &pe) {
		return fmt.Errorf("%s:%d: %s", p, pe.Position.Line, pe.Message)
	}
	return fmt.Errorf("%s: %v", p, err)
}

// pyproject is what a pyproject.toml says of dependencies.
type pyproject struct {
	Project struct {
		Dependencies         []string            `toml:"dependencies"`
		OptionalDependencies map[string][]string `toml:"optional-dependencies"`
	} `toml:"project"`
	DependencyGroups map[string][]any `toml:"dependency-groups"`
	Tool             struct {
		Poetry struct {
			Dependencies    map[string]any `toml:"dependencies"`
			DevDependencies map[string]any `toml:"dev-dependencies"`
			Group           map[string]struct {
				Dependencies map[string]any `toml:"dependencies"`
			} `toml:"group"`
		} `toml:"poetry"`
	} `toml:"tool"`
}

// parsePyproject reads a pyproject.toml's requirements: PEP 621's
// dependencies and optional-dependencies, PEP 735's dependency groups
// (their include-group entries are the other groups' requirements,
// read where those are) and Poetry's dependency tables (main, dev and
// groups; python is not a distribution).
func parsePyproject(p string, src []byte) ([]pyReq, error) {
	var pp pyproject
	if _, err := toml.Decode(string(src), &pp); err != nil {
		return nil, tomlError(p, err)
	}
	lines := strings.Split(string(src), "\n")
	var out []pyReq
	add := func(where, s string) error {
		r, ok := parseRequirement(s)
		if !ok {
			return fmt.Errorf("%s:%d: %s: not a requirement: %q", p, requirementLine(lines, s), where, s)
		}
		r.file, r.line = p, requirementLine(lines, s)
		out = append(out, r)
		return nil
	}
	for _, s := range pp.Project.Dependencies {
		if err := add("project.dependencies", s); err != nil {
			return nil, err
		}
	}
	for _, g := range sortedKeys(pp.Project.OptionalDependencies) {
		for _, s := range pp.Project.OptionalDependencies[g] {
			if err := add("project.optional-dependencies."+g, s); err != nil {
				return nil, err
			}
		}
	}
	for _, g := range sortedKeys(pp.DependencyGroups) {
		for _, e := range pp.DependencyGroups[g] {
			switch e := e.(type) {
			case string:
				if err := add("dependency-groups."+g, e); err != nil {
					return nil, err
				}
			case map[string]any:
				if _, ok := e["include-group"]; !ok {
					return nil, fmt.Errorf("%s:%d: dependency-groups.%s: a table entry must be {include-group = ...}", p, keyLine(lines, g), g)
				}
			default:
				return nil, fmt.Errorf("%s:%d: dependency-groups.%s: an entry is neither a requirement nor an include-group", p, keyLine(lines, g), g)
			}
		}
	}
	poetry := func(where string, deps map[string]any) error {
		for _, name := range sortedKeys(deps) {
			if normName(name) == "python" {
				continue
			}
			r := pyReq{name: normName(name), file: p, line: keyLine(lines, name)}
			switch v := deps[name].(type) {
			case string:
				r.spec = strings.Join(strings.Fields(v), "")
			case map[string]any:
				if s, ok := v["version"].(string); ok {
					r.spec = strings.Join(strings.Fields(s), "")
				}
				if s, ok := v["markers"].(string); ok {
					r.marker = s
				}
			case []any:
				// several constraints by environment: a range each, no
				// one version to compare
				r.spec = "(multiple constraints)"
			default:
				return fmt.Errorf("%s:%d: %s.%s: a dependency must be a version string or a table", p, r.line, where, name)
			}
			r.pin = pinOf(r.spec)
			out = append(out, r)
		}
		return nil
	}
	if err := poetry("tool.poetry.dependencies", pp.Tool.Poetry.Dependencies); err != nil {
		return nil, err
	}
	if err := poetry("tool.poetry.dev-dependencies", pp.Tool.Poetry.DevDependencies); err != nil {
		return nil, err
	}
	for _, g := range sortedKeys(pp.Tool.Poetry.Group) {
		if err := poetry("tool.poetry.group."+g+".dependencies", pp.Tool.Poetry.Group[g].Dependencies); err != nil {
			return nil, err
		}
	}
	return out, nil
}

func sortedKeys[V any](m map[string]V) []string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}

// requirementLine is the line of the file that writes requirement s as
// a string ("requests>=2.31"), 1 when none does.
func requirementLine(lines []string, s string) int {
	for i, l := range lines {
		if strings.Contains(l, `"`+s+`"`) || strings.Contains(l, `'`+s+`'`) {
			return i + 1
		}
	}
	return 1
}

// keyLine is the line of the first key `name =` (bare or quoted), 1
// when none.
func keyLine(lines []string, name string) int {
	for i, l := range lines {
		k, _, ok := strings.Cut(strings.TrimSpace(l), "=")
		if ok && strings.Trim(strings.TrimSpace(k), `"'`) == name {
			return i + 1
		}
	}
	return 1
}

// lockFile is a uv.lock or a poetry.lock: both list [[package]] tables
// with a name and a version.
type lockFile struct {
	Package []struct {
		Name    string `toml:"name"`
		Version string `toml:"version"`
	} `toml:"package"`
}

// parseLock reads the pinned versions of a uv.lock or poetry.lock: name
// to version and the line of its `name = "..."`. A package locked at
// several versions (uv's forks by environment) has no one pin: it is
// left out, with its versions in multi.
func parseLock(p string, src []byte) (pins map[string]pyPin, multi map[string][]string, err error) {
	var lf lockFile
	if _, err := toml.Decode(string(src), &lf); err != nil {
		return nil, nil, tomlError(p, err)
	}
	lines := strings.Split(string(src), "\n")
	// the lines of each package table's name, in order
	var nameLines []int
	inPackage := false
	for i, l := range lines {
		t := strings.TrimSpace(l)
		if strings.HasPrefix(t, "[") {
			inPackage = t == "[[package]]"
			continue
		}
		if k, _, ok := strings.Cut(t, "="); ok && inPackage && strings.TrimSpace(k) == "name" {
			nameLines = append(nameLines, i+1)
			inPackage = false
		}
	}
	pins, multi = map[string]pyPin{}, map[string][]string{}
	for i, pk := range lf.Package {
		line := 1
		if i < len(nameLines) {
			line = nameLines[i]
		}
		if pk.Name == "" || pk.Version == "" {
			if pk.Name == "" {
				return nil, nil, fmt.Errorf("%s:%d: a [[package]] without a name", p, line)
			}
			continue // a virtual or editable package of the workspace: no version
		}
		n := normName(pk.Name)
		if old, ok := pins[n]; ok && old.version != pk.Version {
			multi[n] = append(multi[n], old.version, pk.Version)
			continue
		}
		if len(multi[n]) > 0 {
			multi[n] = append(multi[n], pk.Version)
			continue
		}
		pins[n] = pyPin{version: pk.Version, file: p, line: line}
	}
	for n := range multi {
		delete(pins, n)
	}
	return pins, multi, nil
}
