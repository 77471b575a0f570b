package typescript

import (
	"path"
	"sort"
	"strings"

	"github.com/ripple-dev/ripple/internal/jsonc"
)

// project is what bare module specifiers resolve through in the head
// state: the tsconfig.json (and jsconfig.json) files with their baseUrl
// and paths, and the workspace packages of an npm, yarn or pnpm
// monorepo. It is read once per check, on the first bare specifier.
type project struct {
	a       *analyzer
	raw     map[string][]byte     // config and manifest files by path
	configs map[string]*tsconfig  // a tsconfig.json path: its merged options
	nearest map[string]*tsconfig  // a directory: the config that governs it (nil: none)
	pkgs    map[string]*workspace // a workspace package's name: the package
	byDir   map[string]*workspace // a workspace package's directory: the package
	cache   map[bareKey]string    // a specifier resolved from a directory under a configuration
	forFile map[string]*tsconfig  // a file: the configuration that compiles it
}

// bareKey is a bare specifier written in a directory, under the
// configuration that compiles the file.
type bareKey struct {
	c         *tsconfig
	dir, spec string
}

// tsconfig is one configuration after following its extends chain.
type tsconfig struct {
	baseURL  string // repository path of compilerOptions.baseUrl; hasBase says it is set
	hasBase  bool
	paths    []pathRule
	pathsDir string // where the paths' targets are relative to (baseUrl, else the declaring config's directory)
	dir      string // the configuration's directory
	// the files it compiles: include patterns and files (repository
	// paths; nil: not set, inherited through extends), exclude patterns
	include, files, exclude []string
	// refs are the configurations its references name
	refs []string
}

// pathRule is one compilerOptions.paths entry: a pattern with at most
// one `*` and its substitutions.
type pathRule struct {
	pattern string
	targets []string
}

// workspace is one package of the monorepo.
type workspace struct {
	name, dir string
	manifest  map[string]any
}

// configNames are the files that configure a directory's compilation,
// in the order TypeScript's editor support looks for them.
var configNames = []string{"tsconfig.json", "jsconfig.json"}

func (a *analyzer) project() *project {
	if a.proj != nil {
		return a.proj
	}
	p := &project{a: a, raw: map[string][]byte{}, configs: map[string]*tsconfig{}, nearest: map[string]*tsconfig{},
		pkgs: map[string]*workspace{}, byDir: map[string]*workspace{}, cache: map[bareKey]string{}, forFile: map[string]*tsconfig{}}
	a.proj = p
	list, err := a.env.Head.List(a.ctx, "*.json", "*pnpm-workspace.yaml")
	if err != nil {
		return p
	}
	var want []string
	for _, f := range list {
		if ignoredConfigPath(f) {
			continue
		}
		switch b := path.Base(f); {
		case b == "package.json", b == "pnpm-workspace.yaml", b == "lerna.json",
			strings.HasPrefix(b, "tsconfig") && strings.HasSuffix(b, ".json"), b == "jsconfig.json":
			want = append(want, f)
		}
	}
	for _, f := range want {
		if b, err := a.env.Head.ReadFile(a.ctx, f); err == nil {
			p.raw[f] = b
		}
	}
	p.workspaces()
	return p
}

// ignoredConfigPath reports a configuration file of a dependency or of
// build output.
func ignoredConfigPath(p string) bool {
	for _, seg := range strings.Split(path.Dir(p), "/") {
		if skippedDirs[seg] {
			return true
		}
	}
	return false
}

// workspaces reads the workspace globs of the root (package.json
// `workspaces`, as an array or as {packages: [...]}, pnpm-workspace.yaml
// `packages`, lerna.json `packages`) and records every package.json with
// a name in a directory they match.
func (p *project) workspaces() {
	var globs []string
	if m := jsonc.Object(p.raw["package.json"]); m != nil {
		switch w := m["workspaces"].(type) {
		case []any:
			globs = append(globs, strs(w)...)
		case map[string]any:
			if ps, ok := w["packages"].([]any); ok {
				globs = append(globs, strs(ps)...)
			}
		}
	}
	if b, ok := p.raw["pnpm-workspace.yaml"]; ok {
		globs = append(globs, yamlList(b, "packages")...)
	}
	if m := jsonc.Object(p.raw["lerna.json"]); m != nil {
		if ps, ok := m["packages"].([]any); ok {
			globs = append(globs, strs(ps)...)
		}
	}
	root := jsonc.Object(p.raw["package.json"])
	if name, _ := root["name"].(string); name != "" && (len(globs) > 0 || root["exports"] != nil) {
		// the root package is a project of its workspace (pnpm links it
		// to members that depend on it: h3's examples import "h3"), and a
		// package with an exports map may import itself by its name
		// (Node's self-reference)
		w := &workspace{name: name, dir: ".", manifest: root}
		p.pkgs[name] = w
		p.byDir["."] = w
	}
	if len(globs) == 0 {
		return
	}
	var manifests []string
	for f := range p.raw {
		if path.Base(f) == "package.json" && f != "package.json" {
			manifests = append(manifests, f)
		}
	}
	sort.Strings(manifests)
	for _, f := range manifests {
		dir := path.Dir(f)
		if !matchWorkspace(globs, dir) {
			continue
		}
		m := jsonc.Object(p.raw[f])
		name, _ := m["name"].(string)
		if name == "" {
			continue
		}
		w := &workspace{name: name, dir: dir, manifest: m}
		if x, dup := p.pkgs[name]; !dup || x.dir == "." {
			p.pkgs[name] = w
		}
		p.byDir[dir] = w
	}
}

// matchWorkspace reports whether a directory is matched by the workspace
// globs (`!` negates, `**` spans directories).
func matchWorkspace(globs []string, dir string) bool {
	in := false
	for _, g := range globs {
		neg := strings.HasPrefix(g, "!")
		g = strings.TrimPrefix(strings.TrimPrefix(strings.TrimPrefix(g, "!"), "./"), "/")
		g = strings.TrimSuffix(g, "/")
		if globMatch(strings.Split(g, "/"), strings.Split(dir, "/")) {
			in = !neg
		}
	}
	return in
}

func globMatch(pat, segs []string) bool {
	if len(pat) == 0 {
		return len(segs) == 0
	}
	if pat[0] == "**" {
		for i := 0; i <= len(segs); i++ {
			if globMatch(pat[1:], segs[i:]) {
				return true
			}
		}
		return false
	}
	if len(segs) == 0 {
		return false
	}
	if ok, _ := path.Match(pat[0], segs[0]); !ok {
		return false
	}
	return globMatch(pat[1:], segs[1:])
}

// resolveBare resolves a bare specifier of file from: through the paths
// and baseUrl of the tsconfig.json that governs the file, then through
// the workspace packages. "" when it names a package outside the
// repository.
func (p *project) resolveBare(from, spec string) string {
	dir := path.Dir(from)
	c := p.configOf(from)
	key := bareKey{c, dir, spec}
	if r, ok := p.cache[key]; ok {
		return r
	}
	r := ""
	if c != nil {
		r = p.viaConfig(c, spec)
	}
	if r == "" && strings.HasPrefix(spec, "#") {
		r = p.viaImports(dir, spec)
	}
	if r == "" {
		r = p.viaWorkspace(spec)
	}
	if r == "" {
		r = p.a.npmResolve(from, spec) // a bumped package (npmvirtual.go)
	}
	p.cache[key] = r
	return r
}

// configFor is the configuration governing a directory: the nearest
// tsconfig.json (or jsconfig.json) at or above it.
func (p *project) configFor(dir string) *tsconfig {
	if c, ok := p.nearest[dir]; ok {
		return c
	}
	var c *tsconfig
	for _, n := range configNames {
		f := path.Join(dir, n)
		if _, ok := p.raw[f]; ok {
			c = p.config(f, 0)
			break
		}
	}
	if c == nil && dir != "." && dir != "/" && dir != "" {
		c = p.configFor(path.Dir(dir))
	}
	p.nearest[dir] = c
	return c
}

// configOf is the configuration that compiles a file: the one governing
// its directory (configFor), or, when that one does not include the file
// and has project references (a solution configuration, `"files": []`,
// or Vite's tsconfig.json naming tsconfig.app.json and
// tsconfig.node.json), the first referenced configuration that includes
// it, as TypeScript's editor support picks a file's project.
func (p *project) configOf(file string) *tsconfig {
	if c, ok := p.forFile[file]; ok {
		return c
	}
	c := p.configFor(path.Dir(file))
	if c != nil && len(c.refs) > 0 && !c.includes(file) {
		if r := p.referenced(c, file, 0); r != nil {
			c = r
		}
	}
	p.forFile[file] = c
	return c
}

// referenced finds, depth first through references, a configuration
// that includes file.
func (p *project) referenced(c *tsconfig, file string, depth int) *tsconfig {
	if depth > 3 {
		return nil
	}
	for _, r := range c.refs {
		rc := p.config(r, 0)
		if rc.includes(file) {
			return rc
		}
		if x := p.referenced(rc, file, depth+1); x != nil {
			return x
		}
	}
	return nil
}

// includes reports whether a configuration compiles a file: one of its
// files, or matched by an include pattern (default: everything under its
// directory, unless it lists files) and no exclude pattern.
func (c *tsconfig) includes(file string) bool {
	for _, f := range c.files {
		if f == file {
			return true
		}
	}
	include := c.include
	if include == nil {
		if c.files != nil {
			return false
		}
		include = []string{path.Join(c.dir, "**")}
	}
	in := false
	for _, g := range include {
		if includeMatch(g, file) {
			in = true
			break
		}
	}
	if !in {
		return false
	}
	for _, g := range c.exclude {
		if includeMatch(g, file) {
			return false
		}
	}
	return true
}

// includeMatch matches a repository path against an include or exclude
// pattern of tsconfig (a repository path: `*` within a segment, `**`
// across them; a last segment without a wildcard or an extension names a
// directory, whose files it matches).
func includeMatch(pattern, file string) bool {
	segs := strings.Split(pattern, "/")
	if last := segs[len(segs)-1]; last != "**" && !strings.ContainsAny(last, "*?") && !strings.Contains(last, ".") {
		segs = append(segs, "**")
	}
	if segs[len(segs)-1] == "**" {
		segs = append(segs, "*")
	}
	if pattern == "." || pattern == "" {
		segs = []string{"**", "*"}
	}
	return globMatch(segs, strings.Split(file, "/"))
}

// config reads a configuration and the ones it extends (later entries of
// an extends array win, the file's own options win over all).
func (p *project) config(f string, depth int) *tsconfig {
	if c, ok := p.configs[f]; ok {
		return c
	}
	c := &tsconfig{dir: path.Dir(f)}
	p.configs[f] = c // a cycle ends here
	m := jsonc.Object(p.raw[f])
	if m == nil || depth > 8 {
		return c
	}
	rel := func(ps []string) []string {
		out := []string{}
		for _, x := range ps {
			out = append(out, path.Join(c.dir, x))
		}
		return out
	}
	if l, ok := m["include"].([]any); ok {
		c.include = rel(strs(l))
	}
	if l, ok := m["files"].([]any); ok {
		c.files = rel(strs(l))
	}
	if l, ok := m["exclude"].([]any); ok {
		c.exclude = rel(strs(l))
	}
	if l, ok := m["references"].([]any); ok {
		for _, r := range l {
			o, _ := r.(map[string]any)
			rp, _ := o["path"].(string)
			if rp == "" {
				continue
			}
			x := path.Join(c.dir, rp)
			if _, ok := p.raw[x]; !ok {
				x = path.Join(x, "tsconfig.json")
			}
			if _, ok := p.raw[x]; ok {
				c.refs = append(c.refs, x)
			}
		}
	}
	var bases []string
	switch e := m["extends"].(type) {
	case string:
		bases = []string{e}
	case []any:
		bases = strs(e)
	}
	for _, b := range bases {
		if bf := p.extendsPath(path.Dir(f), b); bf != "" {
			bc := p.config(bf, depth+1)
			if c.include == nil && bc.include != nil {
				c.include = bc.include
			}
			if c.files == nil && bc.files != nil {
				c.files = bc.files
			}
			if c.exclude == nil && bc.exclude != nil {
				c.exclude = bc.exclude
			}
			if bc.hasBase {
				c.baseURL, c.hasBase = bc.baseURL, true
			}
			if bc.paths != nil {
				c.paths, c.pathsDir = bc.paths, bc.pathsDir
			}
		}
	}
	opts, _ := m["compilerOptions"].(map[string]any)
	if b, ok := opts["baseUrl"].(string); ok {
		c.baseURL, c.hasBase = path.Join(path.Dir(f), b), true
		if c.paths != nil && c.pathsDir != c.baseURL {
			// inherited paths without a baseUrl of their own stay
			// relative to their config; with one, tsc takes them
			// relative to the nearest baseUrl
			c.pathsDir = c.baseURL
		}
	}
	if ps, ok := opts["paths"].(map[string]any); ok {
		c.paths = nil
		for pat, ts := range ps {
			if l, ok := ts.([]any); ok {
				c.paths = append(c.paths, pathRule{pattern: pat, targets: strs(l)})
			}
		}
		sort.Slice(c.paths, func(i, j int) bool { return c.paths[i].pattern < c.paths[j].pattern })
		c.pathsDir = path.Dir(f)
		if c.hasBase {
			c.pathsDir = c.baseURL
		}
	}
	return c
}

// extendsPath is the file an extends entry names: a relative path (with
// .json inferred), or a file of a workspace package ("@org/tsconfig/base"
// or the package's own tsconfig.json). "" when it is not in the
// repository.
func (p *project) extendsPath(dir, e string) string {
	var cands []string
	if strings.HasPrefix(e, "./") || strings.HasPrefix(e, "../") || strings.HasPrefix(e, "/") {
		f := path.Join(dir, e)
		cands = []string{f, f + ".json", path.Join(f, "tsconfig.json")}
	} else if w, sub := p.workspaceOf(e); w != nil {
		if sub == "." {
			cands = []string{path.Join(w.dir, "tsconfig.json")}
			if s, ok := w.manifest["tsconfig"].(string); ok {
				cands = append([]string{path.Join(w.dir, s)}, cands...)
			}
		} else {
			f := path.Join(w.dir, sub)
			cands = []string{f, f + ".json", path.Join(f, "tsconfig.json")}
		}
	}
	for _, c := range cands {
		if _, ok := p.raw[c]; ok {
			return c
		}
	}
	return ""
}

// viaConfig resolves a specifier through paths (the exact pattern, else
// the longest prefix before `*`), then baseUrl.
func (p *project) viaConfig(c *tsconfig, spec string) string {
	var best *pathRule
	bestLen, star := -1, ""
	for i := range c.paths {
		r := &c.paths[i]
		if r.pattern == spec {
			best, star = r, ""
			break
		}
		k := strings.IndexByte(r.pattern, '*')
		if k < 0 {
			continue
		}
		pre, suf := r.pattern[:k], r.pattern[k+1:]
		if len(spec) >= len(pre)+len(suf) && strings.HasPrefix(spec, pre) && strings.HasSuffix(spec, suf) && len(pre) > bestLen {
			best, bestLen, star = r, len(pre), spec[len(pre):len(spec)-len(suf)]
		}
	}
	if best != nil {
		for _, t := range best.targets {
			t = strings.Replace(t, "*", star, 1)
			if f := p.a.resolvePath(path.Join(c.pathsDir, t)); f != "" {
				return f
			}
			if w := p.byDir[path.Join(c.pathsDir, t)]; w != nil {
				if f := p.entry(w, "."); f != "" {
					return f
				}
			}
		}
	}
	if c.hasBase {
		return p.a.resolvePath(path.Join(c.baseURL, spec))
	}
	return ""
}

// workspaceOf splits a bare specifier into a workspace package and a
// subpath ("." or "./x").
func (p *project) workspaceOf(spec string) (*workspace, string) {
	segs := strings.Split(spec, "/")
	n := 1
	if strings.HasPrefix(spec, "@") {
		n = 2
	}
	if len(segs) < n {
		return nil, ""
	}
	w := p.pkgs[strings.Join(segs[:n], "/")]
	if w == nil {
		return nil, ""
	}
	if len(segs) == n {
		return w, "."
	}
	return w, "./" + strings.Join(segs[n:], "/")
}

func (p *project) viaWorkspace(spec string) string {
	w, sub := p.workspaceOf(spec)
	if w == nil {
		return ""
	}
	return p.entry(w, sub)
}

// viaImports resolves a subpath import (`#internal/x`) through the
// `imports` map of the nearest package.json above the importing
// directory, as Node and TypeScript do: the exact key, else the pattern
// with the longest prefix before its `*`; every condition's target is
// tried, sources first, build output mapped back to its source.
func (p *project) viaImports(dir, spec string) string {
	for d := dir; ; d = path.Dir(d) {
		f := path.Join(d, "package.json")
		if _, ok := p.raw[f]; ok {
			m := jsonc.Object(p.raw[f])
			im, _ := m["imports"].(map[string]any)
			for _, t := range patternTargets(im, spec) {
				if r := p.source(d, t); r != "" {
					return r
				}
			}
			return "" // the nearest package.json decides
		}
		if d == "." || d == "/" || d == "" {
			return ""
		}
	}
}

// entry maps a subpath of a workspace package to a source file: through
// its package.json exports (subpaths, `*` patterns, conditions), else its
// source/types/module/main fields, else the subpath as a path; each
// target is mapped back from build output to its source (dist/x.mjs →
// src/x.ts).
func (p *project) entry(w *workspace, sub string) string {
	if ex, ok := w.manifest["exports"]; ok && ex != nil {
		for _, t := range exportTargets(ex, sub) {
			if f := p.source(w.dir, t); f != "" {
				return f
			}
		}
		// an exports map that does not name the subpath hides it from
		// Node, but TypeScript projects often map a subpath in paths
		// only; fall through to the sources
	}
	if sub == "." {
		for _, k := range []string{"source", "types", "typings", "module", "main"} {
			if t, ok := w.manifest[k].(string); ok {
				if f := p.source(w.dir, t); f != "" {
					return f
				}
			}
		}
		for _, c := range []string{"src/index", "index", "lib/index"} {
			if f := p.a.resolvePath(path.Join(w.dir, c)); f != "" {
				return f
			}
		}
		return ""
	}
	if f := p.source(w.dir, sub); f != "" {
		return f
	}
	return p.a.resolvePath(path.Join(w.dir, "src", sub))
}

// exportTargets lists the targets package.json exports gives a subpath,
// in condition order (every condition is tried: the first that maps to a
// source wins).
func exportTargets(ex any, sub string) []string {
	m, ok := ex.(map[string]any)
	if !ok || !subpathKeys(m) {
		if sub == "." {
			return leaves(ex)
		}
		return nil
	}
	return patternTargets(m, sub)
}

// patternTargets lists the targets a map of subpaths (exports' "./x",
// imports' "#x") gives key: its own entry, else the pattern with the
// longest prefix before its `*`, the star substituted.
func patternTargets(m map[string]any, sub string) []string {
	if v, ok := m[sub]; ok {
		return leaves(v)
	}
	// patterns: the longest prefix wins
	bestLen := -1
	var out []string
	for k, v := range m {
		i := strings.IndexByte(k, '*')
		if i < 0 {
			continue
		}
		pre, suf := k[:i], k[i+1:]
		if len(sub) >= len(pre)+len(suf) && strings.HasPrefix(sub, pre) && strings.HasSuffix(sub, suf) && len(pre) > bestLen {
			bestLen = len(pre)
			star := sub[len(pre) : len(sub)-len(suf)]
			out = nil
			for _, t := range leaves(v) {
				out = append(out, strings.ReplaceAll(t, "*", star))
			}
		}
	}
	return out
}

// subpathKeys reports an exports object keyed by subpaths ("." "./x"),
// not by conditions.
func subpathKeys(m map[string]any) bool {
	for k := range m {
		if strings.HasPrefix(k, ".") {
			return true
		}
	}
	return false
}

// conditionOrder puts the conditions that name sources first.
var conditionOrder = map[string]int{"source": 0, "development": 1, "types": 2, "typescript": 2, "import": 3, "module": 3, "default": 4, "node": 5, "require": 6}

// conditionRank orders a condition: those naming sources first (a
// custom one that says so too: vitest's __vitest_source__), unknown
// ones after default.
func conditionRank(k string) int {
	if o, ok := conditionOrder[k]; ok {
		return o
	}
	if strings.Contains(k, "source") {
		return 0
	}
	return 5
}

// leaves are the string targets of an exports value, conditions in
// source-first order.
func leaves(v any) []string {
	switch x := v.(type) {
	case string:
		return []string{x}
	case []any:
		var out []string
		for _, e := range x {
			out = append(out, leaves(e)...)
		}
		return out
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Slice(keys, func(i, j int) bool {
			oi, oj := conditionRank(keys[i]), conditionRank(keys[j])
			if oi != oj {
				return oi < oj
			}
			return keys[i] < keys[j]
		})
		var out []string
		for _, k := range keys {
			out = append(out, leaves(x[k])...)
		}
		return out
	}
	return nil
}

// outputDirs are the directories build output goes to, mapped back to
// the sources (src/, or the package root).
var outputDirs = map[string]bool{"dist": true, "build": true, "lib": true, "out": true, "esm": true, "cjs": true, "es": true, "types": true, "dts": true, "mjs": true}

// source maps a package-relative target (a source, or a build output
// file) to a source file of the repository.
func (p *project) source(dir, t string) string {
	t = strings.TrimPrefix(t, "./")
	if f := p.a.resolvePath(path.Join(dir, t)); f != "" {
		return f
	}
	segs := strings.Split(t, "/")
	i := 0
	for i < len(segs)-1 && outputDirs[segs[i]] {
		i++
	}
	if i == 0 {
		return ""
	}
	rest := strings.Join(segs[i:], "/")
	for _, suf := range []string{".d.ts", ".d.mts", ".d.cts"} {
		if strings.HasSuffix(rest, suf) {
			rest = strings.TrimSuffix(rest, suf) + ".js"
		}
	}
	for _, base := range []string{path.Join(dir, "src", rest), path.Join(dir, rest)} {
		if f := p.a.resolvePath(base); f != "" {
			return f
		}
	}
	return ""
}

func strs(xs []any) []string {
	var out []string
	for _, x := range xs {
		if s, ok := x.(string); ok {
			out = append(out, s)
		}
	}
	return out
}

// yamlList reads the block list under a top-level key of a simple YAML
// file (pnpm-workspace.yaml: `packages:` then `- 'glob'` lines, or a
// flow list `[a, b]`).
func yamlList(b []byte, key string) []string {
	var out []string
	in := false
	for _, line := range strings.Split(string(b), "\n") {
		if i := strings.Index(line, " #"); i >= 0 {
			line = line[:i]
		}
		if strings.HasPrefix(strings.TrimSpace(line), "#") {
			continue
		}
		t := strings.TrimSpace(line)
		if !strings.HasPrefix(line, " ") && !strings.HasPrefix(line, "-") && t != "" {
			in = false
			if strings.HasPrefix(t, key+":") {
				in = true
				rest := strings.TrimSpace(strings.TrimPrefix(t, key+":"))
				if strings.HasPrefix(rest, "[") && strings.HasSuffix(rest, "]") {
					for _, e := range strings.Split(strings.Trim(rest, "[]"), ",") {
						if e = unquote(strings.TrimSpace(e)); e != "" {
							out = append(out, e)
						}
					}
					in = false
				}
			}
			continue
		}
		if in && strings.HasPrefix(t, "-") {
			if e := unquote(strings.TrimSpace(strings.TrimPrefix(t, "-"))); e != "" {
				out = append(out, e)
			}
		}
	}
	return out
}

func unquote(s string) string {
	if len(s) >= 2 && (s[0] == '\'' || s[0] == '"') && s[len(s)-1] == s[0] {
		return s[1 : len(s)-1]
	}
	return s
}
