package typescript

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/ripple-dev/ripple/internal/gitio"
	"github.com/ripple-dev/ripple/internal/jsonc"
	"github.com/ripple-dev/ripple/internal/lang"
	"github.com/ripple-dev/ripple/internal/usercache"
)

// npmRead is one bump to read: the dependency, the package whose
// declarations the repository's imports name (typesFor: X for a bump of
// @types/X), and the exact versions of both states.
type npmRead struct {
	b                  *lang.Bump
	name, typesFor     string
	dir                string // the manifest's directory
	oldV, newV         resolved
	typesOld, typesNew resolved // @types/X in the locks, for a package without declarations
}

// npmPkg is one version of a package as read from its tarball: its
// declaration files and package.json, by path in the package.
type npmPkg struct {
	name, version string
	files         map[string][]byte
	manifest      map[string]any
}

// npmBump is a bump the analyzer resolves bare specifiers of: the
// package name the repository imports, the directory of the manifest
// that bumped it, and the new version's files read, under newRoot.
type npmBump struct {
	name, dir string
	imported  []string // the specifiers the repository writes
	root      string   // the versionless root of the core's trees ("radix3@")
	oldRoot   string
	newRoot   string // "radix3@0.2.0": the paths the changes carry
	pkg       *npmPkg
}

// Limits of what is read of one tarball.
const (
	maxTarball   = 64 << 20
	maxDeclBytes = 32 << 20
)

// readNPM reads both versions of each bump into the core's trees, and
// records what the analyzer resolves (fe.npm). A version it cannot read
// makes the bump Unread, saying why.
func (fe *Frontend) readNPM(ctx context.Context, reads []*npmRead, deadline time.Time) {
	if !deadline.IsZero() {
		var cancel context.CancelFunc
		ctx, cancel = context.WithDeadline(ctx, deadline)
		defer cancel()
	}
	f := newFetcher()
	defer f.close()
	var want []string
	for _, r := range reads {
		for _, v := range []resolved{r.oldV, r.newV} {
			if v.version != "" {
				want = append(want, r.name+"@"+v.version)
			}
		}
	}
	f.fetch(ctx, want)
	var typesWant []string
	for _, r := range reads {
		if r.oldV.version == "" || r.newV.version == "" {
			continue
		}
		for i, v := range []string{r.oldV.version, r.newV.version} {
			if p := f.pkg(r.name + "@" + v); p != nil && !hasTypes(p, r.b.Imported, r.typesFor) {
				if t := []resolved{r.typesOld, r.typesNew}[i]; t.version != "" {
					typesWant = append(typesWant, "@types/"+typesName(r.typesFor)+"@"+t.version)
				}
			}
		}
	}
	f.fetch(ctx, typesWant)
	for _, r := range reads {
		fe.readOne(f, r)
	}
}

// readOne reads one bump from the fetched packages.
func (fe *Frontend) readOne(f *fetcher, r *npmRead) {
	b := r.b
	for _, v := range []resolved{r.oldV, r.newV} {
		if v.version == "" {
			why := v.err
			if why == "" {
				why = "no lock file resolves it"
			}
			b.Unread = "the exact version is unknown: " + why
			return
		}
	}
	b.From, b.To = r.oldV.version, r.newV.version
	side := func(v string, t resolved) (*npmPkg, string) {
		p := f.pkg(r.name + "@" + v)
		if p == nil {
			return nil, r.name + "@" + v + ": " + f.failed[r.name+"@"+v]
		}
		if hasTypes(p, b.Imported, r.typesFor) {
			return p, ""
		}
		tn := "@types/" + typesName(r.typesFor)
		if t.version == "" {
			return nil, fmt.Sprintf("%s@%s has no type declarations (no types, typings, exports types or index.d.ts) and the lock has no %s", r.name, v, tn)
		}
		tp := f.pkg(tn + "@" + t.version)
		if tp == nil {
			return nil, tn + "@" + t.version + ": " + f.failed[tn+"@"+t.version]
		}
		if !hasTypes(tp, b.Imported, r.typesFor) {
			return nil, fmt.Sprintf("neither %s@%s nor %s@%s has type declarations for %s", r.name, v, tn, t.version, strings.Join(b.Imported, ", "))
		}
		return tp, ""
	}
	op, why1 := side(r.oldV.version, r.typesOld)
	np, why2 := side(r.newV.version, r.typesNew)
	if op == nil || np == nil {
		var why []string
		for _, w := range []string{why1, why2} {
			if w != "" {
				why = append(why, w)
			}
		}
		b.Unread = strings.Join(why, "; ")
		return
	}
	b.Root = r.typesFor + "@"
	b.OldRoot = op.name + "@" + op.version
	b.NewRoot = np.name + "@" + np.version
	b.Base, b.Head, b.Files = npmStates(b, op, np, r.typesFor)
	fe.mu.Lock()
	fe.npm = append(fe.npm, &npmBump{name: r.typesFor, dir: r.dir, imported: b.Imported, root: b.Root, oldRoot: b.OldRoot, newRoot: b.NewRoot, pkg: np})
	fe.mu.Unlock()
}

// hasTypes reports whether a package version declares the types of the
// main specifier (or, for subpaths only, of one of them).
func hasTypes(p *npmPkg, imported []string, name string) bool {
	for _, s := range imported {
		if p.entry(subpathOf(s, name)) != "" {
			return true
		}
	}
	return false
}

// subpathOf is a specifier's subpath in its package: "." or "./x".
func subpathOf(spec, name string) string {
	if spec == name {
		return "."
	}
	return "." + strings.TrimPrefix(spec, name)
}

// npmStates reads the declaration files the imported specifiers reach
// in both versions (their entries and the relative modules they import
// and re-export) into trees under the bump's root, and the changes
// between them; a file equal in both is left out of the changes.
func npmStates(b *lang.Bump, op, np *npmPkg, name string) (base, head gitio.MemTree, files []*gitio.FileChange) {
	base, head = gitio.MemTree{}, gitio.MemTree{}
	olds, news := op.closure(b.Imported, name), np.closure(b.Imported, name)
	for rel := range olds {
		base[b.Root+"/"+rel] = op.files[rel]
	}
	for rel := range news {
		head[b.Root+"/"+rel] = np.files[rel]
	}
	for rel := range olds {
		p := b.Root + "/" + rel
		switch {
		case !news[rel]:
			if _, ok := np.files[rel]; ok {
				// still there, reached no more: not a change of the API
				continue
			}
			files = append(files, &gitio.FileChange{Status: gitio.Deleted, OldPath: p, Whole: true})
		case !bytes.Equal(op.files[rel], np.files[rel]):
			files = append(files, &gitio.FileChange{Status: gitio.Modified, OldPath: p, NewPath: p, Whole: true})
		}
	}
	for rel := range news {
		if !olds[rel] {
			files = append(files, &gitio.FileChange{Status: gitio.Added, NewPath: b.Root + "/" + rel, Whole: true})
		}
	}
	sort.Slice(files, func(i, j int) bool { return files[i].Path() < files[j].Path() })
	return base, head, files
}

// closure is the set of declaration files the specifiers' entries reach
// through relative import, export ... from, import() and reference
// path directives.
func (p *npmPkg) closure(imported []string, name string) map[string]bool {
	seen := map[string]bool{}
	var queue []string
	for _, s := range imported {
		if e := p.entry(subpathOf(s, name)); e != "" && !seen[e] {
			seen[e] = true
			queue = append(queue, e)
		}
	}
	for len(queue) > 0 {
		f := queue[0]
		queue = queue[1:]
		src := p.files[f]
		specs := specifiers(src, nil)
		specs = append(specs, referencePaths(src)...)
		for _, s := range specs {
			if !strings.HasPrefix(s, "./") && !strings.HasPrefix(s, "../") && s != "." && s != ".." {
				continue
			}
			if t := p.resolveRel(path.Join(path.Dir(f), s)); t != "" && !seen[t] {
				seen[t] = true
				queue = append(queue, t)
			}
		}
	}
	return seen
}

// referencePaths are the paths of a file's `/// <reference path="x" />`
// directives, as relative specifiers.
func referencePaths(src []byte) []string {
	var out []string
	for _, l := range bytes.Split(src, []byte("\n")) {
		l = bytes.TrimSpace(l)
		if !bytes.HasPrefix(l, []byte("///")) || !bytes.Contains(l, []byte("<reference")) {
			continue
		}
		i := bytes.Index(l, []byte("path="))
		if i < 0 {
			continue
		}
		if s, ok := quoted(l, i+len("path=")); ok {
			if !strings.HasPrefix(s, ".") {
				s = "./" + s
			}
			out = append(out, s)
		}
	}
	return out
}

// declCandidates are the declaration files a package-relative target
// (a .js, a .d.ts, an extensionless path) stands for.
func declCandidates(t string) []string {
	t = strings.TrimPrefix(path.Clean(t), "./")
	switch {
	case strings.HasSuffix(t, ".d.ts"), strings.HasSuffix(t, ".d.mts"), strings.HasSuffix(t, ".d.cts"):
		return []string{t}
	}
	switch e := path.Ext(t); e {
	case ".js", ".jsx", ".ts", ".tsx":
		s := strings.TrimSuffix(t, e)
		return []string{s + ".d.ts"}
	case ".mjs", ".mts":
		s := strings.TrimSuffix(t, e)
		return []string{s + ".d.mts", s + ".d.ts"}
	case ".cjs", ".cts":
		s := strings.TrimSuffix(t, e)
		return []string{s + ".d.cts", s + ".d.ts"}
	}
	return []string{t + ".d.ts", t + ".d.mts", t + ".d.cts", t + "/index.d.ts"}
}

// resolveRel resolves a package-relative path as a relative specifier
// of a declaration file to one of the package's declaration files.
func (p *npmPkg) resolveRel(t string) string {
	for _, c := range declCandidates(t) {
		if _, ok := p.files[c]; ok {
			return c
		}
	}
	return ""
}

// entry is the declaration file of a subpath ("." or "./x"): through
// package.json exports (types conditions first), then types, typings
// and main for ".", then index.d.ts, or the subpath as a path. "" when
// the package declares none.
func (p *npmPkg) entry(sub string) string {
	if p == nil {
		return ""
	}
	m := p.manifest
	if ex, ok := m["exports"]; ok && ex != nil {
		for _, t := range exportTargets(ex, sub) {
			if f := p.resolveRel(t); f != "" {
				return f
			}
		}
	}
	if sub == "." {
		for _, k := range []string{"types", "typings", "main"} {
			if t, ok := m[k].(string); ok && t != "" {
				if f := p.resolveRel(t); f != "" {
					return f
				}
			}
		}
		return p.resolveRel("index")
	}
	return p.resolveRel(sub)
}

// fetcher brings package versions' tarballs into the user cache (npm
// pack, the user's registry configuration applying) and reads them.
type fetcher struct {
	dir    string // the tarballs' directory
	tmp    string // a directory of its own when the cache is off
	pkgs   map[string]*npmPkg
	failed map[string]string // name@version -> why it could not be read
}

func newFetcher() *fetcher {
	f := &fetcher{pkgs: map[string]*npmPkg{}, failed: map[string]string{}}
	if d, off, err := usercache.Dir(); err == nil && !off {
		f.dir = filepath.Join(d, "npm")
	}
	if f.dir == "" || os.MkdirAll(f.dir, 0o755) != nil {
		f.tmp, _ = os.MkdirTemp("", "ripple-npm-")
		f.dir = f.tmp
	}
	return f
}

func (f *fetcher) close() {
	if f.tmp != "" {
		os.RemoveAll(f.tmp)
	}
}

// tarballPath is where name@version's tarball is cached.
func (f *fetcher) tarballPath(nv string) string {
	return filepath.Join(f.dir, strings.ReplaceAll(nv, "/", "+")+".tgz")
}

// pkg is a fetched version, nil when it could not be read (failed
// says why).
func (f *fetcher) pkg(nv string) *npmPkg {
	if p, ok := f.pkgs[nv]; ok {
		return p
	}
	p, err := readTarball(f.tarballPath(nv))
	if err != nil {
		if _, ok := f.failed[nv]; !ok {
			f.failed[nv] = err.Error()
		}
		f.pkgs[nv] = nil
		return nil
	}
	i := strings.LastIndexByte(nv, '@')
	p.name, p.version = nv[:i], nv[i+1:]
	f.pkgs[nv] = p
	return p
}

// fetch packs the versions whose tarballs are not cached, all in one
// npm command; when it fails, one by one, to say which failed and why.
func (f *fetcher) fetch(ctx context.Context, nvs []string) {
	var missing []string
	seen := map[string]bool{}
	for _, nv := range nvs {
		if seen[nv] {
			continue
		}
		seen[nv] = true
		if _, err := os.Stat(f.tarballPath(nv)); err != nil {
			missing = append(missing, nv)
		}
	}
	if len(missing) == 0 {
		return
	}
	if err := f.pack(ctx, missing); err == nil || len(missing) == 1 {
		if err != nil {
			f.failed[missing[0]] = err.Error()
		}
		return
	}
	for _, nv := range missing {
		if _, err := os.Stat(f.tarballPath(nv)); err == nil {
			continue
		}
		if err := f.pack(ctx, []string{nv}); err != nil {
			f.failed[nv] = err.Error()
		}
	}
}

// pack runs `npm pack NAME@VERSION... --json` in a scratch directory
// and moves the tarballs into the cache.
func (f *fetcher) pack(ctx context.Context, nvs []string) error {
	if ctx.Err() != nil {
		return errors.New("the budget ran out before fetching it")
	}
	tmp, err := os.MkdirTemp("", "ripple-npm-pack-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	args := append([]string{"pack", "--json", "--ignore-scripts", "--pack-destination", tmp}, nvs...)
	cmd := exec.CommandContext(ctx, "npm", args...)
	cmd.Dir = tmp
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, runErr := cmd.Output()
	if runErr != nil {
		if ctx.Err() != nil {
			return errors.New("the budget ran out fetching it")
		}
		if errors.Is(runErr, exec.ErrNotFound) {
			return errors.New("npm is not installed")
		}
		return errors.New("npm pack: " + npmError(stderr.String(), runErr))
	}
	var packed []struct{ Name, Version, Filename string }
	if err := json.Unmarshal(out, &packed); err != nil {
		return fmt.Errorf("npm pack: unreadable output: %v", err)
	}
	for _, p := range packed {
		src := filepath.Join(tmp, filepath.Base(p.Filename))
		if err := moveFile(src, f.tarballPath(p.Name+"@"+p.Version)); err != nil {
			return err
		}
	}
	return nil
}

// npmError is the line of npm's error output that says why.
func npmError(stderr string, err error) string {
	for _, l := range strings.Split(stderr, "\n") {
		l = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(l), "npm error"))
		l = strings.TrimSpace(strings.TrimPrefix(l, "npm ERR!"))
		if l != "" && !strings.HasPrefix(l, "A complete log") && !strings.HasPrefix(l, "/") {
			return l
		}
	}
	return err.Error()
}

// moveFile moves a file into the cache, by a rename through a temporary
// name beside it (readers never see half a tarball).
func moveFile(src, dst string) error {
	b, err := os.ReadFile(src)
	if err != nil {
		return err
	}
	tmp := dst + fmt.Sprintf(".%d.tmp", os.Getpid())
	if err := os.WriteFile(tmp, b, 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, dst)
}

// readTarball reads a package tarball's declaration files and
// package.json (the first path segment, "package/", stripped).
func readTarball(p string) (*npmPkg, error) {
	fh, err := os.Open(p)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return nil, errors.New("not fetched")
		}
		return nil, err
	}
	defer fh.Close()
	zr, err := gzip.NewReader(io.LimitReader(fh, maxTarball))
	if err != nil {
		return nil, fmt.Errorf("%s: %v", filepath.Base(p), err)
	}
	tr := tar.NewReader(zr)
	pkg := &npmPkg{files: map[string][]byte{}}
	total := 0
	for {
		h, err := tr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %v", filepath.Base(p), err)
		}
		if !h.FileInfo().Mode().IsRegular() {
			continue
		}
		name := strings.TrimPrefix(path.Clean("/"+h.Name), "/")
		_, rel, ok := strings.Cut(name, "/")
		if !ok || strings.Contains("/"+rel, "/node_modules/") {
			continue
		}
		if rel != "package.json" && !strings.HasSuffix(rel, ".d.ts") && !strings.HasSuffix(rel, ".d.mts") && !strings.HasSuffix(rel, ".d.cts") {
			continue
		}
		if total += int(h.Size); total > maxDeclBytes {
			return nil, fmt.Errorf("%s: its declarations exceed %d MB", filepath.Base(p), maxDeclBytes>>20)
		}
		b, err := io.ReadAll(io.LimitReader(tr, h.Size))
		if err != nil {
			return nil, fmt.Errorf("%s: %v", filepath.Base(p), err)
		}
		pkg.files[rel] = b
	}
	pkg.manifest = jsonc.Object(pkg.files["package.json"])
	if pkg.manifest == nil {
		pkg.manifest = map[string]any{}
	}
	delete(pkg.files, "package.json")
	return pkg, nil
}
