package golang

import (
	"context"
	"go/types"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/ripple-dev/ripple/internal/gitio"
	"github.com/ripple-dev/ripple/internal/lang"
	"github.com/ripple-dev/ripple/internal/testrepo"
)

// lazyRepo is a module whose packages exercise the keys: a chain of
// repository packages (a imports b imports c), a file for one platform
// (c_windows.go), a module-cache dependency (example.com/dep, from a
// module cache of the test's own) and one required but absent
// (example.com/gone).
var lazyRepo = map[string]string{
	"go.mod":         "module example.com/m\n\ngo 1.22\n\nrequire (\n\texample.com/dep v1.0.0\n\texample.com/gone v1.0.0\n)\n",
	"c/c.go":         "package c\n\ntype T struct{ N int }\n\nfunc (T) Get() int { return 0 }\n",
	"c/c_windows.go": "//go:build windows\n\npackage c\n\nfunc OnlyWindows() {}\n",
	"b/b.go":         "package b\n\nimport (\n\t\"example.com/dep\"\n\t\"example.com/m/c\"\n)\n\nfunc Make() c.T { return c.T{} }\n\nfunc D() dep.V { return dep.V{} }\n",
	"e/e.go":         "package e\n\nimport \"example.com/gone\"\n\nvar X = gone.Y\n",
	"a/a.go":         "package a\n\nimport (\n\t\"example.com/m/b\"\n\t\"example.com/m/e\"\n)\n\nfunc F() int { return b.Make().Get() }\n\nvar _ = e.X\n",
}

type lazyFixture struct {
	t        *testing.T
	repo     *gitio.Repo
	modcache string
}

func newLazyFixture(t *testing.T) (*lazyFixture, string) {
	testrepo.Hermetic(t)
	t.Setenv("RIPPLE_CACHE", t.TempDir())
	if toolchainEnv().goroot == "" {
		t.Skip("no Go toolchain sources")
	}
	dir := t.TempDir()
	testrepo.Init(t, dir)
	testrepo.WriteFiles(t, dir, lazyRepo)
	head := testrepo.CommitAll(t, dir, "base")
	modcache := t.TempDir()
	testrepo.WriteFiles(t, modcache, map[string]string{
		"example.com/dep@v1.0.0/go.mod": "module example.com/dep\n",
		"example.com/dep@v1.0.0/dep.go": "package dep\n\nimport \"fmt\"\n\ntype V struct{ S fmt.Stringer }\n",
	})
	repo, err := gitio.Open(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { repo.Close() })
	return &lazyFixture{t: t, repo: repo, modcache: modcache}, head
}

// loader returns a fresh loader over commit rev, as one check has it.
func (fx *lazyFixture) loader(rev string) *loader {
	fx.t.Helper()
	ctx := context.Background()
	an, err := New().NewAnalyzer(ctx, &lang.Env{Head: &gitio.RevTree{R: fx.repo, SHA: rev}, Precision: "types"})
	if err != nil {
		fx.t.Fatal(err)
	}
	l := newLoader(an.(*analyzer), time.Time{})
	if l.cache == nil {
		fx.t.Fatal("no export-data cache")
	}
	l.env.modcache = fx.modcache
	return l
}

func (l *loader) keyFor(dir string, bc buildCtx) string {
	l.loadMu.Lock()
	defer l.loadMu.Unlock()
	return l.keyOf("example.com/m/"+dir, location{repo: true, dir: dir}, bc)
}

var (
	linux   = buildCtx{goos: "linux", goarch: "amd64"}
	windows = buildCtx{goos: "windows", goarch: "amd64"}
)

// TestLazyKeysMatchLoaded holds the keys the units' universe computes
// without loading (keyOf) to those the loading universe writes its
// entries under, and checks what changes them: a file of an import,
// the build configuration, the Go version.
func TestLazyKeysMatchLoaded(t *testing.T) {
	fx, head := newLazyFixture(t)
	dirs := []string{"a", "b", "c", "e"}
	keys := map[string]map[string]string{}
	for _, bc := range []buildCtx{linux, windows} {
		full := fx.loader(head)
		lazy := fx.loader(head)
		keys[bc.key()] = map[string]string{}
		for _, d := range dirs {
			pkg, _ := full.load("example.com/m/"+d, location{repo: true, dir: d}, bc)
			want := full.ckey[pkg]
			got := lazy.keyFor(d, bc)
			if want == "" || got != want {
				t.Errorf("%s under %s: key without loading %q, loaded %q", d, bc, got, want)
			}
			keys[bc.key()][d] = got
		}
		// the module-cache package: by directory, its entry written by
		// the load above
		dl, ok := lazy.locate("example.com/dep", location{repo: true, dir: "b"})
		if !ok {
			t.Fatal("example.com/dep not found in the test's module cache")
		}
		lazy.loadMu.Lock()
		k := lazy.keyOf("example.com/dep", dl, bc)
		lazy.loadMu.Unlock()
		if k != "disk:"+dl.dir {
			t.Errorf("example.com/dep under %s: key %q, want by directory", bc, k)
		}
		if !lazy.absent["example.com/gone"] {
			t.Errorf("under %s: the absent module was not recorded while keying e", bc)
		}
	}
	for _, d := range dirs {
		if keys[linux.key()][d] == keys[windows.key()][d] {
			t.Errorf("%s: the same key under linux and windows", d)
		}
	}

	// a file of c changes: c and its importers b and a change key, e not
	testrepo.WriteFiles(t, fx.repo.Top, map[string]string{"c/c.go": "package c\n\ntype T struct{ N int }\n\nfunc (T) Get() int64 { return 0 }\n"})
	next := testrepo.CommitAll(t, fx.repo.Top, "c changes")
	l := fx.loader(next)
	for _, d := range dirs {
		changed := l.keyFor(d, linux) != keys[linux.key()][d]
		if changed != (d != "e") {
			t.Errorf("%s: key changed %v after c changed", d, changed)
		}
	}

	// another Go version: every key changes
	l = fx.loader(head)
	l.env.version = "go1.0-test"
	for _, d := range dirs {
		if l.keyFor(d, linux) == keys[linux.key()][d] {
			t.Errorf("%s: the same key under another Go version", d)
		}
	}
}

// TestLazyUniverse checks what the units' universe reads: a direct
// import whole, a package only its API refers to in part, completed when
// imported in turn, one type object for one declaration; and a corrupt
// entry, ignored and rewritten.
func TestLazyUniverse(t *testing.T) {
	fx, head := newLazyFixture(t)
	warm := fx.loader(head)
	warm.load("example.com/m/a", location{repo: true, dir: "a"}, windows) // writes the entries

	l := fx.loader(head)
	im := &lazyImporter{l: l, from: location{repo: true, dir: "a"}, bc: windows}
	b, err := im.Import("example.com/m/b")
	if err != nil || !b.Complete() {
		t.Fatalf("b: %v, complete %v", err, b != nil && b.Complete())
	}
	if l.loaded != 0 || l.read != 1 {
		t.Errorf("warm: %d packages loaded from source, %d read; want 0 and 1", l.loaded, l.read)
	}
	c := l.lazy[windows.key()]["example.com/m/c"]
	if c == nil || c.Complete() || c.Scope().Lookup("OnlyWindows") != nil {
		t.Fatalf("c after reading b: %v; want a partial package holding what b's API needs", c)
	}
	res := b.Scope().Lookup("Make").Type().(*types.Signature).Results().At(0).Type().(*types.Named)
	if res.NumMethods() != 1 || res.Method(0).Name() != "Get" {
		t.Errorf("c.T from b's entry has methods %v", res)
	}
	c2, _ := im.Import("example.com/m/c")
	if c2 != c || !c.Complete() || c.Scope().Lookup("OnlyWindows") == nil {
		t.Errorf("c imported after b: same object %v, complete %v", c2 == c, c.Complete())
	}
	if c.Scope().Lookup("T").Type() != types.Type(res) {
		t.Error("c.T read through b and through c are two types")
	}

	// a corrupt entry of b: ignored (b is loaded from source), rewritten
	bkey := l.keyFor("b", windows)
	f := l.cache.keyFile(bkey)
	data, err := os.ReadFile(f)
	if err != nil {
		t.Fatal(err)
	}
	data[len(data)/2] ^= 0x55
	if err := os.WriteFile(f, data, 0o644); err != nil {
		t.Fatal(err)
	}
	l = fx.loader(head)
	im = &lazyImporter{l: l, from: location{repo: true, dir: "a"}, bc: windows}
	b, _ = im.Import("example.com/m/b")
	if b == nil || b.Scope().Lookup("Make") == nil || l.read != 0 || l.loaded == 0 {
		t.Errorf("b with a corrupt entry: %v (%d read, %d loaded); want b from source", b, l.read, l.loaded)
	}
	if data, err := os.ReadFile(f); err != nil {
		t.Error(err)
	} else if _, ok := decodeEntry(data); !ok {
		t.Error("the corrupt entry was not rewritten")
	}
	if _, err := os.Stat(filepath.Dir(f)); err != nil {
		t.Error(err)
	}
}

func TestEntryChecksum(t *testing.T) {
	data := []byte("export data")
	e := encodeEntry(data)
	if got, ok := decodeEntry(e); !ok || string(got) != string(data) {
		t.Fatalf("round trip: %q, %v", got, ok)
	}
	flipped := append([]byte(nil), e...)
	flipped[len(flipped)-1] ^= 1
	for name, b := range map[string][]byte{
		"flipped": flipped, "truncated": e[:len(e)-3], "header only": e[:len(entryMagic)+4],
		"short": e[:5], "raw export data": data, "empty": nil,
	} {
		if _, ok := decodeEntry(b); ok {
			t.Errorf("%s entry accepted", name)
		}
	}
}
