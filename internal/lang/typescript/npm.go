package typescript

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os/exec"
	"path"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/ripple-dev/ripple/internal/gitio"
	"github.com/ripple-dev/ripple/internal/jsonc"
	"github.com/ripple-dev/ripple/internal/lang"
	"github.com/ripple-dev/ripple/internal/model"
)

// The TypeScript front-end as a lang.Bumper: a package.json (the root's
// or a workspace package's) whose range of a dependency changed is a
// seed. The exact versions come from the lock file beside the manifest
// or above it (package-lock.json, pnpm-lock.yaml, yarn.lock), else an
// exact range is taken as written, else the registry's highest version
// in the range (npm view). Each version's type declarations (.d.ts and
// package.json only) come from its tarball (npm pack, cached under the
// user cache: npmfetch.go), as far as the repository imports the package
// (bare specifiers in the files this front-end analyses), and are given
// to the core under one versionless root, "name@/dist/index.d.ts", which
// the analyzer resolves the package's bare specifiers to (npmvirtual.go).

// depSections are the package.json fields whose ranges are read.
var depSections = []string{"dependencies", "devDependencies", "peerDependencies", "optionalDependencies"}

// lockNames are the lock files a version is read from, nearest first
// in one folder.
var lockNames = []string{"package-lock.json", "npm-shrinkwrap.json", "pnpm-lock.yaml", "yarn.lock"}

// Manifests: the package.json files and the lock files (a lock that
// moves a dependency within an unchanged range is a bump too: npm
// update, Dependabot's lock-file-only updates).
func (fe *Frontend) Manifests() []string {
	out := []string{"package.json", "*/package.json"}
	for _, n := range lockNames {
		out = append(out, n, "*/"+n)
	}
	return out
}

// API: a declaration its module exports, or a member of one.
func (fe *Frontend) API(b *model.Block) bool {
	d := dataOf(b)
	if d == nil || d.file == nil {
		return false
	}
	name := b.Name
	if b.Container != "" {
		name = b.Container
	}
	if i := strings.IndexByte(name, '#'); i >= 0 {
		name = name[:i]
	}
	if d.exported && b.Container == "" {
		return true
	}
	for _, local := range d.file.exports {
		if local == name {
			return true
		}
	}
	for _, x := range d.file.decls {
		if n, c := x.names(); c == "" && n == name && x.exported {
			return true
		}
	}
	return false
}

// Forwards: no TypeScript rule (a declaration file has no bodies).
func (fe *Frontend) Forwards(*model.Block) string { return "" }

var _ lang.Bumper = (*Frontend)(nil)

// npmDep is one dependency's range change in a manifest.
type npmDep struct {
	name, section    string
	oldRange, range_ string
	line             int
}

// rangesOf reads a manifest's dependency ranges: name to range, the
// first section naming it winning (dependencies before devDependencies,
// peerDependencies, optionalDependencies), with its section.
func rangesOf(m map[string]any) map[string][2]string {
	out := map[string][2]string{}
	for _, s := range depSections {
		deps, _ := m[s].(map[string]any)
		for name, r := range deps {
			rs, ok := r.(string)
			if _, had := out[name]; ok && !had {
				out[name] = [2]string{rs, s}
			}
		}
	}
	return out
}

// depChanges are the dependencies present in both states whose range
// changed, in name order.
func depChanges(oldM, newM map[string]any, newSrc []byte) []npmDep {
	o, n := rangesOf(oldM), rangesOf(newM)
	var out []npmDep
	for name, nr := range n {
		or, ok := o[name]
		if !ok || or[0] == nr[0] {
			continue
		}
		out = append(out, npmDep{name: name, section: nr[1], oldRange: or[0], range_: nr[0], line: depLine(newSrc, nr[1], name)})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].name < out[j].name })
	return out
}

// depLine is the line of a dependency's entry in a section of a
// manifest's text (1 when it cannot be found).
func depLine(src []byte, section, name string) int {
	i := bytes.Index(src, []byte(`"`+section+`"`))
	if i < 0 {
		return 1
	}
	j := bytes.Index(src[i:], []byte(`"`+name+`"`))
	if j < 0 {
		return 1
	}
	return bytes.Count(src[:i+j], []byte("\n")) + 1
}

// registrySpec reports whether a range names registry versions (not a
// path, a link, a workspace, a git or tarball URL, an alias).
func registrySpec(r string) bool {
	r = strings.TrimSpace(r)
	for _, p := range []string{"file:", "link:", "workspace:", "portal:", "patch:", "git", "http:", "https:", "npm:", "github:", "catalog:"} {
		if strings.HasPrefix(r, p) {
			return false
		}
	}
	return !strings.Contains(r, "/") || strings.Contains(r, " ")
}

var exactVersion = regexp.MustCompile(`^[=v]?(\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?(?:\+[0-9A-Za-z.-]+)?)$`)

// Bumps finds the range changes of the changed package.json files and
// reads both versions' declarations of each imported package.
func (fe *Frontend) Bumps(ctx context.Context, in lang.BumpInput) ([]*lang.Bump, error) {
	type found struct {
		b        *lang.Bump
		dep      npmDep
		dir      string
		typesFor string // the package @types/X declares: X
	}
	var all []*found
	var locks []*gitio.FileChange
	for _, fc := range in.Manifests {
		p := fc.Path()
		if ignoredConfigPath(p) || fc.OldPath == "" || fc.NewPath == "" {
			continue
		}
		if contains(lockNames, path.Base(p)) {
			locks = append(locks, fc)
			continue
		}
		if path.Base(p) != "package.json" {
			continue
		}
		oldSrc, err1 := in.Base.ReadFile(ctx, fc.OldPath)
		newSrc, err2 := in.Head.ReadFile(ctx, fc.NewPath)
		if err := errors.Join(err1, err2); err != nil {
			return nil, err
		}
		oldM, newM := jsonc.Object(oldSrc), jsonc.Object(newSrc)
		if oldM == nil || newM == nil {
			continue // a manifest that does not parse: npm says so
		}
		for _, d := range depChanges(oldM, newM, newSrc) {
			if !registrySpec(d.oldRange) || !registrySpec(d.range_) {
				continue
			}
			f := &found{dep: d, dir: path.Dir(p), typesFor: typesFor(d.name)}
			f.b = &lang.Bump{Bump: model.Bump{Module: d.name, From: d.oldRange, To: d.range_, Manifest: p, Line: d.line}}
			all = append(all, f)
		}
	}
	baseLocks := &lockCache{m: map[string]*lockFile{}, deadline: in.Deadline}
	headLocks := &lockCache{m: map[string]*lockFile{}, deadline: in.Deadline}
	if len(locks) > 0 {
		covered := map[string]bool{}
		for _, f := range all {
			covered[f.dir+"\x00"+f.dep.name] = true
		}
		deps, err := lockOnly(ctx, in, locks, covered, baseLocks, headLocks)
		if err != nil {
			return nil, err
		}
		for _, d := range deps {
			f := &found{dep: d.npmDep, dir: d.dir, typesFor: typesFor(d.name)}
			f.b = &lang.Bump{Bump: model.Bump{Module: d.name, From: d.from, To: d.to, Manifest: d.lock, Line: d.line}}
			all = append(all, f)
		}
	}
	if len(all) == 0 {
		return nil, nil
	}
	var out []*lang.Bump
	var reads []*npmRead
	for _, f := range all {
		imported, err := importedSpecs(ctx, in.Head, f.dir, f.typesFor)
		if err != nil {
			return nil, err
		}
		if len(imported) == 0 {
			continue // a tool or a transitive need: nothing imports it
		}
		f.b.Imported = imported
		ov := baseLocks.version(ctx, in.Base, f.dir, f.dep.name, f.dep.oldRange)
		nv := headLocks.version(ctx, in.Head, f.dir, f.dep.name, f.dep.range_)
		r := &npmRead{b: f.b, name: f.dep.name, typesFor: f.typesFor, dir: f.dir, oldV: ov, newV: nv,
			typesOld: baseLocks.version(ctx, in.Base, f.dir, "@types/"+typesName(f.typesFor), ""),
			typesNew: headLocks.version(ctx, in.Head, f.dir, "@types/"+typesName(f.typesFor), "")}
		reads = append(reads, r)
		out = append(out, f.b)
	}
	fe.readNPM(ctx, reads, in.Deadline)
	return out, nil
}

// typesFor is the package whose types a dependency declares: itself,
// or X for @types/X (@types/scope__name declares @scope/name).
func typesFor(dep string) string {
	x, ok := strings.CutPrefix(dep, "@types/")
	if !ok {
		return dep
	}
	if a, b, ok := strings.Cut(x, "__"); ok {
		return "@" + a + "/" + b
	}
	return x
}

// typesName is the @types package name's part for a package:
// "@scope/x" is @types/scope__x.
func typesName(pkg string) string {
	if s, n, ok := strings.Cut(strings.TrimPrefix(pkg, "@"), "/"); ok && strings.HasPrefix(pkg, "@") {
		return s + "__" + n
	}
	return pkg
}

// importedSpecs lists the bare specifiers naming pkg ("pkg",
// "pkg/sub") in the analysed files under dir of the head state.
func importedSpecs(ctx context.Context, head interface {
	Grep(context.Context, []string, ...string) ([]string, error)
	ReadFiles(context.Context, []string) (map[string][]byte, error)
}, dir, pkg string) ([]string, error) {
	specs := pathspecs
	if dir != "." && dir != "" {
		specs = nil
		for _, s := range pathspecs {
			specs = append(specs, dir+"/"+s)
		}
	}
	hits, err := head.Grep(ctx, []string{pkg}, specs...)
	if err != nil {
		return nil, err
	}
	var files []string
	for _, h := range hits {
		if !skippedPath(h) {
			files = append(files, h)
		}
	}
	srcs, _ := head.ReadFiles(ctx, files)
	seen := map[string]bool{}
	for _, f := range files {
		for _, s := range specifiers(srcs[f], nil) {
			if s == pkg || strings.HasPrefix(s, pkg+"/") {
				seen[s] = true
			}
		}
	}
	out := make([]string, 0, len(seen))
	for s := range seen {
		out = append(out, s)
	}
	sort.Strings(out)
	return out, nil
}

// resolved is an exact version and where it came from.
type resolved struct {
	version, from string // from: the lock file's path, "the range", "the registry"
	err           string
}

// lockCache reads one state's lock files once.
type lockCache struct {
	mu sync.Mutex
	m  map[string]*lockFile // by path; nil: none there
	// deadline bounds asking the registry (zero: 30 s a question)
	deadline time.Time
}

// version resolves a dependency's exact version in a state: the lock
// file of the manifest's directory or the nearest above it, else an
// exact range as written, else the registry's highest version in the
// range. rng "" (an @types package looked up for a package without
// types) is read from the lock only.
func (lc *lockCache) version(ctx context.Context, t interface {
	ReadFile(context.Context, string) ([]byte, error)
}, dir, name, rng string) resolved {
	for d := dir; ; d = path.Dir(d) {
		for _, n := range lockNames {
			p := path.Join(d, n)
			k := p
			lc.mu.Lock()
			lf, ok := lc.m[k]
			lc.mu.Unlock()
			if !ok {
				if src, err := t.ReadFile(ctx, p); err == nil {
					lf = &lockFile{path: p, kind: n, src: src}
				}
				lc.mu.Lock()
				lc.m[k] = lf
				lc.mu.Unlock()
			}
			if lf == nil {
				continue
			}
			rel := strings.TrimPrefix(strings.TrimPrefix(dir, d), "/")
			if v := lf.version(rel, name, rng); v != "" {
				return resolved{version: v, from: p}
			}
		}
		if d == "." || d == "/" || d == "" {
			break
		}
	}
	if rng == "" {
		return resolved{}
	}
	if m := exactVersion.FindStringSubmatch(strings.TrimSpace(rng)); m != nil {
		return resolved{version: m[1], from: "the range"}
	}
	v, err := registryMax(ctx, name, rng, lc.deadline)
	if err != nil {
		return resolved{err: err.Error()}
	}
	return resolved{version: v, from: "the registry"}
}

// registryMax asks the configured registry (npm view) for the highest
// version of name in range rng.
func registryMax(ctx context.Context, name, rng string, deadline time.Time) (string, error) {
	if d := time.Now().Add(30 * time.Second); deadline.IsZero() || d.Before(deadline) {
		deadline = d
	}
	ctx, cancel := context.WithDeadline(ctx, deadline)
	defer cancel()
	cmd := exec.CommandContext(ctx, "npm", "view", name+"@"+rng, "version", "--json")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return "", errors.New("npm view " + name + "@" + rng + ": " + firstLine(stderr.String()+" "+err.Error()))
	}
	var one string
	if json.Unmarshal(out, &one) == nil && one != "" {
		return one, nil
	}
	var many []string
	if json.Unmarshal(out, &many) == nil && len(many) > 0 {
		return highest(many), nil // npm lists them in no promised order
	}
	return "", errors.New("the registry has no version of " + name + " in " + rng)
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(strings.TrimSpace(s), "\n")
	return s
}

// lockFile is one lock file of a state.
type lockFile struct {
	path, kind string
	src        []byte
	json       map[string]any
}

// version is the version the lock resolves name to for the package in
// directory rel (relative to the lock's directory; "" for the lock's
// own), "" when it does not say.
func (lf *lockFile) version(rel, name, rng string) string {
	switch lf.kind {
	case "package-lock.json", "npm-shrinkwrap.json":
		if lf.json == nil {
			lf.json = jsonc.Object(lf.src)
		}
		if pk, ok := lf.json["packages"].(map[string]any); ok {
			keys := []string{"node_modules/" + name}
			if rel != "" {
				keys = append([]string{rel + "/node_modules/" + name}, keys...)
			}
			for _, k := range keys {
				if e, ok := pk[k].(map[string]any); ok {
					if v, _ := e["version"].(string); v != "" {
						return v
					}
				}
			}
		}
		if deps, ok := lf.json["dependencies"].(map[string]any); ok { // lockfileVersion 1
			if e, ok := deps[name].(map[string]any); ok {
				v, _ := e["version"].(string)
				return v
			}
		}
	case "pnpm-lock.yaml":
		return pnpmVersion(lf.src, rel, name)
	case "yarn.lock":
		return yarnVersion(lf.src, name, rng)
	}
	return ""
}

// pnpmVersion reads pnpm-lock.yaml: the importer of rel ("." for the
// root), or the top-level sections of a lock without importers; a
// dependency's `version:` (lockfile v6+) or its value (v5), without
// pnpm's peer suffix "(react@18.2.0)".
func pnpmVersion(src []byte, rel, name string) string {
	if rel == "" {
		rel = "."
	}
	lines := strings.Split(string(src), "\n")
	indent := func(l string) int { return len(l) - len(strings.TrimLeft(l, " ")) }
	key := func(l string) string {
		k, _, _ := strings.Cut(strings.TrimSpace(l), ":")
		return unquote(strings.TrimSpace(k))
	}
	clean := func(v string) string {
		v = unquote(strings.TrimSpace(v))
		if i := strings.IndexByte(v, '('); i >= 0 {
			v = v[:i]
		}
		if exactVersion.MatchString(v) {
			return strings.TrimPrefix(v, "v")
		}
		return ""
	}
	// find the block of the importer (or the whole file)
	start, base := 0, -1
	hasImporters := false
	for i, l := range lines {
		if strings.HasPrefix(l, "importers:") {
			hasImporters = true
			for j := i + 1; j < len(lines); j++ {
				if lines[j] != "" && indent(lines[j]) == 0 {
					break
				}
				if strings.TrimSpace(lines[j]) != "" && indent(lines[j]) == 2 && key(lines[j]) == rel {
					start, base = j+1, 2
					break
				}
			}
			break
		}
	}
	if hasImporters && base < 0 {
		return ""
	}
	for i := start; i < len(lines); i++ {
		l := lines[i]
		if strings.TrimSpace(l) == "" {
			continue
		}
		if base >= 0 && indent(l) <= base {
			break
		}
		sec := key(l)
		if !contains(depSections, sec) || base < 0 && indent(l) != 0 {
			continue
		}
		si := indent(l)
		for j := i + 1; j < len(lines) && (strings.TrimSpace(lines[j]) == "" || indent(lines[j]) > si); j++ {
			dl := lines[j]
			if strings.TrimSpace(dl) == "" || indent(dl) != si+2 || key(dl) != name {
				continue
			}
			if _, v, _ := strings.Cut(strings.TrimSpace(dl), ":"); strings.TrimSpace(v) != "" {
				return clean(v) // v5: name: 1.2.3
			}
			for k := j + 1; k < len(lines) && indent(lines[k]) > si+2; k++ {
				if key(lines[k]) == "version" {
					_, v, _ := strings.Cut(strings.TrimSpace(lines[k]), ":")
					return clean(v)
				}
			}
		}
	}
	return ""
}

// yarnVersion reads yarn.lock (classic and berry): the entry whose key
// lists name@range (or name@npm:range), its version.
func yarnVersion(src []byte, name, rng string) string {
	lines := strings.Split(string(src), "\n")
	for i, l := range lines {
		if l == "" || l[0] == ' ' || l[0] == '#' || !strings.HasSuffix(strings.TrimSpace(l), ":") {
			continue
		}
		match := false
		for _, k := range strings.Split(strings.TrimSuffix(strings.TrimSpace(l), ":"), ",") {
			k = unquote(strings.TrimSpace(k))
			n, r, ok := strings.Cut(strings.TrimPrefix(k, "@"), "@")
			if !ok {
				continue
			}
			if strings.HasPrefix(k, "@") {
				n = "@" + n
			}
			r = strings.TrimPrefix(r, "npm:")
			if n == name && (rng == "" || r == rng) {
				match = true
			}
		}
		if !match {
			continue
		}
		for j := i + 1; j < len(lines) && strings.HasPrefix(lines[j], " "); j++ {
			t := strings.TrimSpace(lines[j])
			if v, ok := strings.CutPrefix(t, "version"); ok {
				v = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(v), ":"))
				return unquote(v)
			}
		}
	}
	return ""
}

// highest is the highest of semantic versions (a prerelease below its
// release; build metadata ignored).
func highest(vs []string) string {
	best := vs[0]
	for _, v := range vs[1:] {
		if semverLess(best, v) {
			best = v
		}
	}
	return best
}

// semverLess compares two versions x.y.z[-pre] (prerelease identifiers
// compared numerically when both are numbers, else as text).
func semverLess(a, b string) bool {
	split := func(v string) ([]string, []string) {
		v, _, _ = strings.Cut(strings.TrimPrefix(v, "v"), "+")
		core, pre, _ := strings.Cut(v, "-")
		var p []string
		if pre != "" {
			p = strings.Split(pre, ".")
		}
		return strings.Split(core, "."), p
	}
	num := func(s string) (int, bool) {
		n, err := strconv.Atoi(s)
		return n, err == nil
	}
	cmp := func(x, y string) int {
		nx, okx := num(x)
		ny, oky := num(y)
		switch {
		case okx && oky:
			return nx - ny
		case okx:
			return -1
		case oky:
			return 1
		}
		return strings.Compare(x, y)
	}
	ac, ap := split(a)
	bc, bp := split(b)
	for i := 0; i < 3; i++ {
		var x, y string = "0", "0"
		if i < len(ac) {
			x = ac[i]
		}
		if i < len(bc) {
			y = bc[i]
		}
		if c := cmp(x, y); c != 0 {
			return c < 0
		}
	}
	switch {
	case len(ap) == 0:
		return false // a release is not below anything of its core
	case len(bp) == 0:
		return true
	}
	for i := 0; i < len(ap) && i < len(bp); i++ {
		if c := cmp(ap[i], bp[i]); c != 0 {
			return c < 0
		}
	}
	return len(ap) < len(bp)
}
