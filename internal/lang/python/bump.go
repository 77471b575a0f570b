package python

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"path"
	"regexp"
	"sort"
	"strings"
	"time"

	"github.com/ripple-dev/ripple/internal/gitio"
	"github.com/ripple-dev/ripple/internal/lang"
	"github.com/ripple-dev/ripple/internal/model"
)

// The Python front-end as a lang.Bumper: a changed requirements file,
// pyproject.toml or lock file (uv.lock, poetry.lock) whose pinned
// version of a distribution changed is a seed (bumpmanifest.go reads
// them). Both versions come from the index the user's pip configuration
// names, into the user cache (bumpfetch.go); only the import packages
// the repository imports are read, and they are given to the core under
// one versionless root ("jinja2@/jinja2/utils.py"), the new version
// also to the analyzer under its versioned root, where the repository's
// imports of the package resolve (bumpvirtual.go).

func (fe *Frontend) Manifests() []string {
	return []string{"pyproject.toml", "*/pyproject.toml", "requirements*.txt", "*/requirements*.txt",
		"uv.lock", "*/uv.lock", "poetry.lock", "*/poetry.lock"}
}

// API: a name without a leading underscore, itself and its class
// (dunders are public: __init__, __call__); a module-level name of a
// public module that lists __all__ only when listed there (a private
// module's names reach users through the re-exports of a public one).
func (fe *Frontend) API(b *model.Block) bool {
	for _, part := range strings.Split(qualOf(b), ".") {
		if strings.HasPrefix(part, "_") && !(strings.HasPrefix(part, "__") && strings.HasSuffix(part, "__")) {
			return false
		}
	}
	dd, _ := dataOf(b)
	if b.Container != "" || dd == nil || dd.file == nil || !dd.file.hasAll || b.Name == "__all__" {
		return true
	}
	for _, seg := range strings.Split(b.Path, "/") {
		if strings.HasPrefix(seg, "_") && !strings.HasPrefix(seg, "__init__.") {
			return true // a private module
		}
	}
	return contains(dd.file.all, b.Name)
}

// Forwards names the function a deprecated function only forwards its
// parameters to: its body, past a docstring, `import warnings` and
// warnings.warn(...) calls, is one `return other(params...)` passing
// every parameter in order.
func (fe *Frontend) Forwards(b *model.Block) string {
	dd, _ := dataOf(b)
	if dd == nil || dd.fn == nil || dd.fn.cls != nil || len(dd.fn.decorators) > 0 {
		return ""
	}
	return onlyForwards(dd.fn)
}

// ReExport: an import binding a public name in a package's __init__,
// listed in __all__, or written `import x as x` / `from m import x as
// x` (PEP 484's explicit re-export): the package's users import it.
func (fe *Frontend) ReExport(b *model.Block) bool {
	if b.Kind != model.KindImport || b.Container != "" {
		return false
	}
	name := strings.TrimPrefix(b.Name, "import ")
	if strings.HasPrefix(name, "_") {
		return false
	}
	if base := path.Base(b.Path); base == "__init__.py" || base == "__init__.pyi" {
		return true
	}
	dd, _ := dataOf(b)
	if dd == nil || dd.file == nil {
		return false
	}
	if dd.file.hasAll && contains(dd.file.all, name) {
		return true
	}
	return dd.bind != nil && dd.bind.stmt != nil && regexp.MustCompile(`\b`+regexp.QuoteMeta(name)+`\s+as\s+`+regexp.QuoteMeta(name)+`\b`).MatchString(dd.bind.stmt.Text())
}

var (
	_ lang.Bumper     = (*Frontend)(nil)
	_ lang.ReExporter = (*Frontend)(nil)
)

// pyBumpDep is a version change of one distribution in one manifest.
type pyBumpDep struct {
	name, from, to string
	file           string // the manifest or lock file that says it
	line           int
	direct         bool   // the repository's manifests name it
	why            string // why a version is unknown, when one is
}

// Bumps finds the version changes of the changed manifests and reads
// both versions of each distribution the repository imports.
func (fe *Frontend) Bumps(ctx context.Context, in lang.BumpInput) ([]*lang.Bump, error) {
	deps := bumpDeps(ctx, in)
	if len(deps) == 0 {
		return nil, nil
	}
	f := newPyFetcher()
	defer f.close()
	var out []*lang.Bump
	seen := map[string]*pyBumpDep{}
	for _, d := range deps {
		b := &lang.Bump{Bump: model.Bump{Module: d.name, From: d.from, To: d.to, Manifest: d.file, Line: d.line}}
		if o := seen[d.name]; o != nil {
			if o.to != d.to {
				b.Imported = []string{d.name}
				b.Unread = fmt.Sprintf("%s:%d bumps it to %s: one version of a distribution is read a check", o.file, o.line, o.to)
				out = append(out, b)
			}
			continue
		}
		seen[d.name] = d
		if d.why != "" {
			b.Imported = []string{importGuess(d.name)}
			b.Unread = "the exact version is unknown: " + d.why
			out = append(out, b)
			continue
		}
		err := fe.readBump(ctx, in, f, d, b)
		if err != nil {
			return nil, err
		}
		out = append(out, b)
	}
	return out, nil
}

// readBump reads one version change: the import names the repository
// uses, both versions' files of those packages, the trees of the core.
func (fe *Frontend) readBump(ctx context.Context, in lang.BumpInput, f *pyFetcher, d *pyBumpDep, b *lang.Bump) error {
	guess, err := importers(ctx, in.Head, importGuesses(d.name))
	if err != nil {
		return err
	}
	if !d.direct && len(guess) == 0 {
		return nil // a lock pin of a package nothing imports: indirect, not read
	}
	start := time.Now()
	fctx, cancel := context.WithTimeout(ctx, lang.FetchLimit)
	od := f.dist(fctx, d.name, d.from)
	nd := f.dist(fctx, d.name, d.to)
	cancel()
	if !in.Deadline.IsZero() && time.Now().After(in.Deadline) {
		b.Fetched = time.Since(start)
	}
	if od == nil || nd == nil {
		b.Imported = guess
		if len(b.Imported) == 0 {
			b.Imported = []string{importGuess(d.name)}
		}
		var why []string
		for _, v := range []string{d.from, d.to} {
			if w := f.failed[d.name+"@"+v]; w != "" {
				why = append(why, d.name+" "+v+": "+w)
			}
		}
		b.Unread = strings.Join(why, "; ")
		return nil
	}
	tops := map[string]bool{}
	for _, t := range append(append([]string(nil), od.tops...), nd.tops...) {
		tops[strings.TrimSuffix(t, "-stubs")] = true
	}
	imported, err := importers(ctx, in.Head, sortedKeys(tops))
	if err != nil {
		return err
	}
	if len(imported) == 0 {
		return nil // the distribution's packages are not imported
	}
	b.Imported = imported
	b.Root = d.name + "@"
	b.OldRoot = d.name + "@" + d.from
	b.NewRoot = d.name + "@" + d.to
	olds, news := distFiles(od, imported), distFiles(nd, imported)
	base, head := gitio.MemTree{}, gitio.MemTree{}
	b.Base, b.Head = base, head
	virtual := map[string][]byte{}
	for rel, src := range olds {
		base[b.Root+"/"+rel] = src
	}
	for rel, src := range news {
		head[b.Root+"/"+rel] = src
		virtual[b.NewRoot+"/"+rel] = src
	}
	for rel, src := range olds {
		p := b.Root + "/" + rel
		ns, ok := news[rel]
		switch {
		case !ok:
			b.Files = append(b.Files, &gitio.FileChange{Status: gitio.Deleted, OldPath: p, Whole: true})
		case !bytes.Equal(src, ns):
			b.Files = append(b.Files, &gitio.FileChange{Status: gitio.Modified, OldPath: p, NewPath: p, Whole: true})
		}
	}
	for rel := range news {
		if _, ok := olds[rel]; !ok {
			b.Files = append(b.Files, &gitio.FileChange{Status: gitio.Added, NewPath: b.Root + "/" + rel, Whole: true})
		}
	}
	sort.Slice(b.Files, func(i, j int) bool { return b.Files[i].Path() < b.Files[j].Path() })
	fe.bumpMu.Lock()
	fe.bumps = append(fe.bumps, &pyBumpRead{root: b.Root, oldRoot: b.OldRoot, newRoot: b.NewRoot, files: virtual})
	fe.bumpMu.Unlock()
	return nil
}

// distFiles are a distribution's files of the imported top-level
// packages and modules, a stub (.pyi) standing for its module (.py):
// the stub is the API, as type checkers read it.
func distFiles(d *pyDist, imported []string) map[string][]byte {
	want := map[string]bool{}
	for _, i := range imported {
		want[i] = true
	}
	out := map[string][]byte{}
	for rel, src := range d.files {
		first, _, isDir := strings.Cut(rel, "/")
		if !isDir {
			first = strings.TrimSuffix(strings.TrimSuffix(first, ".pyi"), ".py")
		}
		if !want[first] {
			continue
		}
		if strings.HasSuffix(rel, ".py") {
			if _, ok := d.files[rel+"i"]; ok {
				continue
			}
		}
		out[rel] = src
	}
	return out
}

// importGuesses are the import names a distribution's name suggests
// (Jinja2: jinja2; python-dateutil: dateutil, python_dateutil), for a
// lock pin whose distribution is not fetched to learn its real ones.
func importGuesses(name string) []string {
	g := importGuess(name)
	out := []string{g}
	for _, p := range []string{"python_", "py_", "py"} {
		if s, ok := strings.CutPrefix(g, p); ok && s != "" {
			out = append(out, strings.TrimPrefix(s, "_"))
		}
	}
	if s, ok := strings.CutSuffix(g, "_python"); ok && s != "" {
		out = append(out, s)
	}
	return out
}

func importGuess(name string) string { return strings.ReplaceAll(normName(name), "-", "_") }

// importRE finds an import statement's modules: "import a.b as c, d"
// and "from a.b import c".
var importRE = regexp.MustCompile(`(?m)^[ \t]*(?:from[ \t]+([A-Za-z_][\w.]*)[ \t]+import\b|import[ \t]+([A-Za-z_][\w.]*(?:[ \t]+as[ \t]+\w+)?(?:[ \t]*,[ \t]*[A-Za-z_][\w.]*(?:[ \t]+as[ \t]+\w+)?)*))`)

// importers are the names among tops that the head state's Python
// files import (absolutely), sorted.
func importers(ctx context.Context, head gitio.Tree, tops []string) ([]string, error) {
	if len(tops) == 0 {
		return nil, nil
	}
	hits, err := head.Grep(ctx, tops, "*.py", "*.pyi")
	if err != nil {
		return nil, fmt.Errorf("search for the imports of %s: %w", strings.Join(tops, ", "), err)
	}
	srcs, _ := head.ReadFiles(ctx, hits)
	want := map[string]bool{}
	for _, t := range tops {
		want[t] = true
	}
	got := map[string]bool{}
	for _, p := range hits {
		for _, m := range importRE.FindAllSubmatch(srcs[p], -1) {
			mods := []string{string(m[1])}
			if len(m[1]) == 0 {
				mods = nil
				for _, part := range strings.Split(string(m[2]), ",") {
					mods = append(mods, strings.Fields(part)[0])
				}
			}
			for _, mod := range mods {
				if top := topName(mod); want[top] {
					got[top] = true
				}
			}
		}
	}
	return sortedKeys(got), nil
}

// bumpDeps are the version changes of the changed manifests: each
// changed requirements file's pins (with the files it includes), and
// each directory's pyproject.toml with its lock (uv.lock, poetry.lock,
// the nearest above for a uv workspace). A manifest that does not parse
// is a diagnostic naming its file and line; its bumps are not read.
func bumpDeps(ctx context.Context, in lang.BumpInput) []*pyBumpDep {
	var out []*pyBumpDep
	diag := func(err error) {
		if in.Diag != nil {
			in.Diag(model.Diagnostic{Message: "the dependency bumps of " + err.Error() + " are not read", Partial: true})
		}
	}
	dirs := map[string]bool{}
	for _, fc := range in.Manifests {
		p := fc.Path()
		if fc.OldPath == "" || fc.NewPath == "" {
			continue // a manifest added or deleted: no version changed
		}
		switch base := path.Base(p); {
		case base == "pyproject.toml", base == "uv.lock", base == "poetry.lock":
			dirs[path.Dir(p)] = true
		case strings.HasSuffix(base, ".txt"):
			olds, err1 := readRequirements(ctx, in.Base, fc.OldPath, map[string]bool{})
			news, err2 := readRequirements(ctx, in.Head, fc.NewPath, map[string]bool{})
			if err := errors.Join(err1, err2); err != nil {
				diag(err)
				continue
			}
			out = append(out, reqBumps(olds, news)...)
		}
	}
	for _, dir := range sortedKeys(dirs) {
		oldS, err1 := readProject(ctx, in.Base, dir)
		newS, err2 := readProject(ctx, in.Head, dir)
		if err := errors.Join(err1, err2); err != nil {
			diag(err)
			continue
		}
		out = append(out, projectBumps(oldS, newS)...)
	}
	return out
}

// reqBumps are the pins of a requirements file that changed version,
// a name and its marker in both states.
func reqBumps(olds, news []pyReq) []*pyBumpDep {
	key := func(r pyReq) string { return r.name + ";" + r.marker }
	old := map[string]pyReq{}
	for _, r := range olds {
		old[key(r)] = r
	}
	var out []*pyBumpDep
	for _, n := range news {
		o, ok := old[key(n)]
		if !ok || o.spec == n.spec {
			continue
		}
		d := &pyBumpDep{name: n.name, from: o.pin, to: n.pin, file: n.file, line: n.line, direct: true}
		if o.pin == "" || n.pin == "" {
			d.from, d.to = o.spec, n.spec
			d.why = fmt.Sprintf("%s pins no version (%s -> %s) and no lock file is read for it", n.file, orAny(o.spec), orAny(n.spec))
		}
		out = append(out, d)
	}
	return out
}

func orAny(spec string) string {
	if spec == "" {
		return "any version"
	}
	return spec
}

// projectState is a project directory's requirements and lock pins in
// one state.
type projectState struct {
	reqs map[string]pyReq
	pins map[string]pyPin
	// lock is the lock file read ("" for none), multi the packages it
	// locks at several versions
	lock  string
	multi map[string][]string
}

func readProject(ctx context.Context, t gitio.Tree, dir string) (*projectState, error) {
	s := &projectState{reqs: map[string]pyReq{}}
	p := path.Join(dir, "pyproject.toml")
	if src, err := t.ReadFile(ctx, p); err == nil {
		reqs, err := parsePyproject(p, src)
		if err != nil {
			return nil, err
		}
		for _, r := range reqs {
			if _, ok := s.reqs[r.name]; !ok {
				s.reqs[r.name] = r
			}
		}
	}
	for d := dir; ; d = path.Dir(d) {
		for _, n := range []string{"uv.lock", "poetry.lock"} {
			lp := path.Join(d, n)
			src, err := t.ReadFile(ctx, lp)
			if err != nil {
				continue
			}
			pins, multi, err := parseLock(lp, src)
			if err != nil {
				return nil, err
			}
			s.pins, s.multi, s.lock = pins, multi, lp
			return s, nil
		}
		if d == "." || d == "/" || d == "" {
			return s, nil
		}
	}
}

// projectBumps compares a project's two states: a lock pin that changed
// is a bump (of the manifest's line when its requirement changed too,
// else of the lock's); a requirement that changed without a lock takes
// its pins, when both pin.
func projectBumps(os, ns *projectState) []*pyBumpDep {
	var out []*pyBumpDep
	names := map[string]bool{}
	for n := range ns.pins {
		names[n] = true
	}
	for n := range ns.reqs {
		names[n] = true
	}
	for _, name := range sortedKeys(names) {
		or, oreq := os.reqs[name]
		nr, nreq := ns.reqs[name]
		op, opin := os.pins[name]
		np, npin := ns.pins[name]
		specChanged := oreq && nreq && or.spec != nr.spec
		switch {
		case opin && npin:
			if op.version == np.version {
				continue
			}
			d := &pyBumpDep{name: name, from: op.version, to: np.version, file: np.file, line: np.line, direct: nreq}
			if specChanged {
				d.file, d.line = nr.file, nr.line
			}
			out = append(out, d)
		case specChanged:
			d := &pyBumpDep{name: name, from: or.pin, to: nr.pin, file: nr.file, line: nr.line, direct: true}
			if or.pin == "" || nr.pin == "" {
				d.from, d.to = orAny(or.spec), orAny(nr.spec)
				switch {
				case len(os.multi[name]) > 0 || len(ns.multi[name]) > 0:
					d.why = fmt.Sprintf("%s locks it at several versions (by environment)", ns.lock)
				case ns.lock != "":
					d.why = fmt.Sprintf("%s does not lock it", ns.lock)
				default:
					d.why = fmt.Sprintf("%s pins no version and no lock file (uv.lock, poetry.lock) is beside it", nr.file)
				}
			}
			out = append(out, d)
		}
	}
	return out
}
