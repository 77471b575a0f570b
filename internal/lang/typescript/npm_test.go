package typescript_test

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"

	"github.com/ripple-dev/ripple/internal/gitio"
	"github.com/ripple-dev/ripple/internal/lang"
	"github.com/ripple-dev/ripple/internal/lang/treesit"
	"github.com/ripple-dev/ripple/internal/lang/typescript"
	"github.com/ripple-dev/ripple/internal/langtest"
	"github.com/ripple-dev/ripple/internal/testrepo"
)

// npmCache builds the archive's tarball/NAME@VERSION/ trees into package
// tarballs in a fresh user cache (RIPPLE_CACHE), where the front-end
// finds them without the registry, and leaves only git on PATH: no npm
// command can run.
func npmCache(t *testing.T, ar *txtar.Archive) {
	t.Helper()
	cache := t.TempDir()
	byPkg := map[string][]txtar.File{}
	for _, f := range ar.Files {
		if rest, ok := strings.CutPrefix(f.Name, "tarball/"); ok {
			i := strings.Index(rest, "@")
			j := strings.Index(rest[i:], "/") + i
			byPkg[rest[:j]] = append(byPkg[rest[:j]], txtar.File{Name: rest[j+1:], Data: f.Data})
		}
	}
	if err := os.MkdirAll(filepath.Join(cache, "npm"), 0o755); err != nil {
		t.Fatal(err)
	}
	for nv, files := range byPkg {
		var buf bytes.Buffer
		zw := gzip.NewWriter(&buf)
		tw := tar.NewWriter(zw)
		for _, f := range files {
			if err := tw.WriteHeader(&tar.Header{Name: "package/" + f.Name, Mode: 0o644, Size: int64(len(f.Data)), Typeflag: tar.TypeReg}); err != nil {
				t.Fatal(err)
			}
			tw.Write(f.Data)
		}
		tw.Close()
		zw.Close()
		name := strings.ReplaceAll(nv, "/", "+") + ".tgz"
		if err := os.WriteFile(filepath.Join(cache, "npm", name), buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	t.Setenv("RIPPLE_CACHE", cache)
	git, err := exec.LookPath("git")
	if err != nil {
		t.Skip("git is not installed")
	}
	bin := t.TempDir()
	if err := os.Symlink(git, filepath.Join(bin, "git")); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", bin)
}

func readArchive(t *testing.T) *txtar.Archive {
	ar, err := txtar.ParseFile("testdata/npm/bump.txtar")
	if err != nil {
		t.Fatal(err)
	}
	return ar
}

// trees are the archive's old/ and new/ states (new/ overlays old/).
func trees(ar *txtar.Archive) (base, head gitio.MemTree) {
	base, head = gitio.MemTree{}, gitio.MemTree{}
	want := regexp.MustCompile(` *// want .*`)
	for _, f := range ar.Files {
		if p, ok := strings.CutPrefix(f.Name, "old/"); ok {
			base[p] = f.Data
			if _, ok := head[p]; !ok {
				head[p] = f.Data
			}
		}
		if p, ok := strings.CutPrefix(f.Name, "new/"); ok {
			head[p] = want.ReplaceAll(f.Data, nil)
		}
	}
	return base, head
}

// TestNPMBumpRead reads a bump from cached tarballs: the versions from
// package-lock.json, the declaration files the imports reach (through
// export * and export {...} from, and a subpath export), only those
// that changed as changes, and a package nothing imports left out.
func TestNPMBumpRead(t *testing.T) {
	ar := readArchive(t)
	npmCache(t, ar)
	base, head := trees(ar)
	fe := typescript.New()
	bumps, err := fe.Bumps(context.Background(), lang.BumpInput{Base: base, Head: head,
		Manifests: []*gitio.FileChange{{Status: gitio.Modified, OldPath: "package.json", NewPath: "package.json"}}})
	if err != nil {
		t.Fatal(err)
	}
	if len(bumps) != 1 {
		t.Fatalf("got %d bumps, want 1 (other is not imported)", len(bumps))
	}
	b := bumps[0]
	if b.Unread != "" {
		t.Fatalf("unread: %s", b.Unread)
	}
	if got := b.String(); got != "tiny 1.0.0 -> 1.1.0" || b.Line != 5 || b.Manifest != "package.json" {
		t.Errorf("bump %s at %s:%d, want tiny 1.0.0 -> 1.1.0 at package.json:5", got, b.Manifest, b.Line)
	}
	if got := strings.Join(b.Imported, " "); got != "tiny tiny/helpers" {
		t.Errorf("imported %q", got)
	}
	if b.Root != "tiny@" || b.OldRoot != "tiny@1.0.0" || b.NewRoot != "tiny@1.1.0" {
		t.Errorf("roots %q %q %q", b.Root, b.OldRoot, b.NewRoot)
	}
	var changed []string
	for _, fc := range b.Files {
		changed = append(changed, string(fc.Status)+" "+fc.Path())
	}
	if got := strings.Join(changed, ", "); got != "M tiny@/lib/shape.d.ts, M tiny@/lib/util.d.ts" {
		t.Errorf("changed files: %s", got)
	}
	var read []string
	paths, _ := b.Head.List(context.Background())
	read = append(read, paths...)
	sort.Strings(read)
	if got := strings.Join(read, " "); got != "tiny@/index.d.ts tiny@/lib/helpers.d.ts tiny@/lib/same.d.ts tiny@/lib/shape.d.ts tiny@/lib/util.d.ts" {
		t.Errorf("head files read: %s", got)
	}

	// a version that is neither cached nor fetchable (no npm): unread
	head["package-lock.json"] = bytes.Replace(head["package-lock.json"], []byte(`"1.1.0"`), []byte(`"1.2.0"`), 1)
	bumps, err = typescript.New().Bumps(context.Background(), lang.BumpInput{Base: base, Head: head,
		Manifests: []*gitio.FileChange{{Status: gitio.Modified, OldPath: "package.json", NewPath: "package.json"}}})
	if err != nil || len(bumps) != 1 {
		t.Fatalf("bumps %v, %v", bumps, err)
	}
	if want := "tiny@1.2.0: npm pack: npm is not installed"; !strings.Contains(bumps[0].Unread, "tiny@1.2.0: ") || !strings.Contains(bumps[0].Unread, "npm") {
		t.Errorf("unread %q, want it to say %q", bumps[0].Unread, want)
	}
}

// TestNPMBumpCheck runs the whole check on the archive's two commits:
// each use the new version breaks is an error at its line, judged like
// a change of the repository's own code.
func TestNPMBumpCheck(t *testing.T) {
	if !treesit.Available {
		t.Skip("no tree-sitter (cgo)")
	}
	ar := readArchive(t)
	sc := testrepo.FromTxtar(t, ar)
	npmCache(t, ar)
	res := langtest.Check(t, sc)
	type want struct {
		site, level, rel string
		msg              *regexp.Regexp
		seen             bool
	}
	var wants []*want
	re := regexp.MustCompile(`(\w+):(\w+) "([^"]*)"`)
	for site, ws := range sc.Wants {
		for _, w := range ws {
			for _, m := range re.FindAllStringSubmatch(w, -1) {
				wants = append(wants, &want{site: site, level: m[1], rel: m[2], msg: regexp.MustCompile(m[3])})
			}
		}
	}
	for _, f := range res.Findings {
		site := f.Site.Path + ":" + strconv.Itoa(f.Site.Line)
		ok := false
		for _, w := range wants {
			if w.site == site && string(f.Level) == w.level && string(f.Relation) == w.rel && w.msg.MatchString(f.Message) {
				w.seen, ok = true, true
			}
		}
		if !ok && f.Level != "ok" {
			t.Errorf("unexpected finding %s %s:%s %q", site, f.Level, f.Relation, f.Message)
		}
	}
	for _, w := range wants {
		if !w.seen {
			t.Errorf("missing %s %s:%s %q", w.site, w.level, w.rel, w.msg)
		}
	}
	found := false
	for _, c := range res.Changes {
		if c.Bump != nil && c.Old != nil && c.Old.Name == "join" {
			found = true
			if d := strings.Join(c.Details, "; "); !strings.Contains(d, "was function join(a: string, sep?: string): string") ||
				!strings.HasSuffix(d, "now function join(a: string, sep: string): string") {
				t.Errorf("join's details %q lack the two declarations", d)
			}
			if c.Old.Path != "tiny@1.0.0/lib/util.d.ts" || c.New.Path != "tiny@1.1.0/lib/util.d.ts" {
				t.Errorf("join's paths %s, %s", c.Old.Path, c.New.Path)
			}
		}
	}
	if !found {
		t.Error("no change of join")
	}
	if t.Failed() {
		for _, f := range res.Findings {
			t.Logf("reported %s:%d %s:%s %q", f.Site.Path, f.Site.Line, f.Level, f.Relation, f.Message)
		}
		for _, c := range res.Changes {
			t.Logf("change %s %s %q", c.Label, c.Summary(), c.Details)
		}
		for _, d := range res.Diagnostics {
			t.Logf("diagnostic: %s", d)
		}
	}
}

// TestNPMLockOnlyBump reads a bump from a lock file alone: the range in
// package.json stays ^1.0.0, the lock moves tiny 1.0.0 -> 1.1.0. A
// folder with a package.json the lock does not name as a workspace
// member (an example app) is not governed by it, even though it
// imports the package; a lock that moves nothing is no bump.
func TestNPMLockOnlyBump(t *testing.T) {
	ar := readArchive(t)
	npmCache(t, ar)
	base, head := trees(ar)
	head["package.json"] = base["package.json"]
	demo := []byte(`{"name": "demo", "dependencies": {"tiny": "^1.0.0"}}`)
	for _, tr := range []gitio.MemTree{base, head} {
		tr["examples/demo/package.json"] = demo
		tr["examples/demo/main.ts"] = []byte(`import { join } from "tiny";` + "\nexport const x = join(\"a\");\n")
	}
	lock := []*gitio.FileChange{{Status: gitio.Modified, OldPath: "package-lock.json", NewPath: "package-lock.json", Whole: true}}
	bumps, err := typescript.New().Bumps(context.Background(), lang.BumpInput{Base: base, Head: head, Manifests: lock})
	if err != nil {
		t.Fatal(err)
	}
	if len(bumps) != 1 {
		t.Fatalf("got %d bumps, want 1", len(bumps))
	}
	b := bumps[0]
	if got := b.String(); got != "tiny 1.0.0 -> 1.1.0" || b.Manifest != "package-lock.json" || b.Line != 6 || b.Unread != "" {
		t.Errorf("bump %s at %s:%d (unread %q), want tiny 1.0.0 -> 1.1.0 at package-lock.json:6", got, b.Manifest, b.Line, b.Unread)
	}
	if got := strings.Join(b.Imported, " "); got != "tiny tiny/helpers" {
		t.Errorf("imported %q (the example app is not the lock's)", got)
	}
	if len(b.Files) == 0 {
		t.Error("no changed declaration files read")
	}

	// the range changed too: the manifest's bump, read once
	_, head2 := trees(ar)
	both := append(lock, &gitio.FileChange{Status: gitio.Modified, OldPath: "package.json", NewPath: "package.json"})
	bumps, err = typescript.New().Bumps(context.Background(), lang.BumpInput{Base: base, Head: head2, Manifests: both})
	if err != nil || len(bumps) != 1 || bumps[0].Manifest != "package.json" {
		t.Fatalf("with the range changed: %v bumps (%v), want one read from package.json", len(bumps), err)
	}

	// a lock that changed but moved nothing imported
	head3 := gitio.MemTree{}
	for k, v := range base {
		head3[k] = v
	}
	head3["package-lock.json"] = bytes.Replace(base["package-lock.json"], []byte(`"2.0.0"`), []byte(`"2.0.1"`), 1)
	bumps, err = typescript.New().Bumps(context.Background(), lang.BumpInput{Base: base, Head: head3, Manifests: lock})
	if err != nil || len(bumps) != 0 {
		t.Fatalf("a lock moving only an unimported package: %d bumps (%v), want none", len(bumps), err)
	}
}
