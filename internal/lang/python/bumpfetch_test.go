package python

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"compress/gzip"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func writeWheel(t *testing.T, p string, files map[string]string) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for n, s := range files {
		w, _ := zw.Create(n)
		w.Write([]byte(s))
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func writeSdist(t *testing.T, p string, files map[string]string) {
	t.Helper()
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	tw := tar.NewWriter(zw)
	for n, s := range files {
		tw.WriteHeader(&tar.Header{Name: n, Mode: 0o644, Size: int64(len(s)), Typeflag: tar.TypeReg})
		tw.Write([]byte(s))
	}
	tw.Close()
	zw.Close()
	if err := os.WriteFile(p, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestFetchChoose reads a file:// index as pip would: the pure wheel
// before a platform wheel and the sdist, its hash checked, kept in the
// user cache (read again with the index gone), and a hash that does not
// match, a version the index lacks and an index that cannot be reached
// each said.
func TestFetchChoose(t *testing.T) {
	t.Setenv("RIPPLE_CACHE", t.TempDir())
	index := t.TempDir()
	dir := filepath.Join(index, "tiny-lib")
	os.MkdirAll(dir, 0o755)
	pure := writeWheel(t, filepath.Join(dir, "tiny_lib-1.0-py3-none-any.whl"), map[string]string{
		"tinylib/__init__.py": "def f(a): pass\n", "tinylib/_impl.pyi": "def g() -> None: ...\n",
		"tiny_lib-1.0.dist-info/top_level.txt": "tinylib\n", "tiny_lib-1.0.data/scripts/tool": "#!/bin/sh\n"})
	writeWheel(t, filepath.Join(dir, "tiny_lib-1.0-cp311-cp311-manylinux_2_17_x86_64.whl"), map[string]string{"tinylib/__init__.py": "platform\n"})
	writeSdist(t, filepath.Join(dir, "tiny_lib-1.0.tar.gz"), map[string]string{"tiny_lib-1.0/src/tinylib/__init__.py": "sdist\n"})
	writeWheel(t, filepath.Join(dir, "tiny_lib-1.1-py3-none-any.whl"), map[string]string{"tinylib/__init__.py": "x\n"})
	sum := sha256.Sum256(pure)
	page := `<html><body>
<a href="tiny_lib-1.0-cp311-cp311-manylinux_2_17_x86_64.whl">platform</a>
<a href="tiny_lib-1.0.tar.gz">sdist</a>
<a href="./tiny_lib-1.0-py3-none-any.whl#sha256=` + hex.EncodeToString(sum[:]) + `" data-requires-python="&gt;=3.8">pure</a>
<a href="tiny_lib-1.1-py3-none-any.whl#sha256=0000">bad hash</a>
</body></html>`
	os.WriteFile(filepath.Join(dir, "index.html"), []byte(page), 0o644)
	t.Setenv("PIP_INDEX_URL", "file://"+filepath.ToSlash(index)+"/")
	f := newPyFetcher()
	defer f.close()
	d := f.dist(context.Background(), "tiny-lib", "1.0")
	if d == nil {
		t.Fatalf("not read: %s", f.failed["tiny-lib@1.0"])
	}
	if d.file != "tiny_lib-1.0-py3-none-any.whl" || strings.Join(d.tops, ",") != "tinylib" || string(d.files["tinylib/__init__.py"]) != "def f(a): pass\n" || d.files["tinylib/_impl.pyi"] == nil || len(d.files) != 2 {
		t.Errorf("read %s: tops %v, files %d", d.file, d.tops, len(d.files))
	}
	if f.dist(context.Background(), "tiny-lib", "1.1") != nil || !strings.Contains(f.failed["tiny-lib@1.1"], "its sha256 is not the one the index gives") {
		t.Errorf("a bad hash: %q", f.failed["tiny-lib@1.1"])
	}
	if f.dist(context.Background(), "tiny-lib", "2.0") != nil || !strings.Contains(f.failed["tiny-lib@2.0"], "has no wheel or sdist of tiny-lib 2.0") {
		t.Errorf("a missing version: %q", f.failed["tiny-lib@2.0"])
	}
	// cached: read with the index gone
	os.RemoveAll(index)
	f2 := newPyFetcher()
	defer f2.close()
	if d := f2.dist(context.Background(), "tiny-lib", "1.0"); d == nil || d.file != "tiny_lib-1.0-py3-none-any.whl" {
		t.Errorf("not read from the cache: %q", f2.failed["tiny-lib@1.0"])
	}
	// offline: the cause, the password of the index's URL not shown
	t.Setenv("PIP_INDEX_URL", "http://user:secret@127.0.0.1:1/simple")
	f3 := newPyFetcher()
	defer f3.close()
	if f3.dist(context.Background(), "other", "1.0") != nil || !strings.Contains(f3.failed["other@1.0"], "refused") || strings.Contains(f3.failed["other@1.0"], "secret") {
		t.Errorf("offline: %q", f3.failed["other@1.0"])
	}
}

func TestReadSdist(t *testing.T) {
	p := filepath.Join(t.TempDir(), "pkg-2.0.tar.gz")
	writeSdist(t, p, map[string]string{
		"pkg-2.0/setup.py": "", "pkg-2.0/src/pkg/__init__.py": "A = 1\n", "pkg-2.0/src/pkg/sub/m.py": "",
		"pkg-2.0/src/helper.py": "", "pkg-2.0/tests/test_a.py": "", "pkg-2.0/README.md": "",
	})
	d, err := readDist(p)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(d.tops, ",") != "helper,pkg" || len(d.files) != 3 || d.files["pkg/sub/m.py"] == nil {
		t.Errorf("tops %v, files %v", d.tops, len(d.files))
	}
	if _, err := readDist(filepath.Join(t.TempDir(), "x-1.0.tar.gz")); err == nil || !strings.Contains(err.Error(), "x-1.0.tar.gz") {
		t.Errorf("a missing file: %v", err)
	}
	bad := filepath.Join(t.TempDir(), "y-1.0-py3-none-any.whl")
	os.WriteFile(bad, []byte("not a zip"), 0o644)
	if _, err := readDist(bad); err == nil || !strings.Contains(err.Error(), "y-1.0-py3-none-any.whl: ") {
		t.Errorf("a broken wheel: %v", err)
	}
}

func TestPipIndex(t *testing.T) {
	t.Setenv("HOME", t.TempDir())
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	t.Setenv("VIRTUAL_ENV", "")
	t.Setenv("PIP_INDEX_URL", "")
	conf := filepath.Join(t.TempDir(), "pip.conf")
	os.WriteFile(conf, []byte("[global]\ntimeout = 60\nindex-url = https://mirror.example/simple\n[install]\nindex-url = https://install.example/simple\n"), 0o644)
	t.Setenv("PIP_CONFIG_FILE", conf)
	if _, err := os.Stat("/etc/pip.conf"); err == nil {
		t.Skip("this machine has /etc/pip.conf")
	}
	if got := pipIndex(); got != "https://install.example/simple" {
		t.Errorf("pip.conf: %q", got)
	}
	t.Setenv("PIP_INDEX_URL", "https://env.example/simple")
	if got := pipIndex(); got != "https://env.example/simple" {
		t.Errorf("PIP_INDEX_URL: %q", got)
	}
	t.Setenv("PIP_INDEX_URL", "")
	t.Setenv("PIP_CONFIG_FILE", os.DevNull)
	if got := pipIndex(); got != "https://pypi.org/simple" {
		t.Errorf("default: %q", got)
	}
}

func TestSplitDistFile(t *testing.T) {
	for file, want := range map[string]string{
		"Jinja2-3.1.0-py3-none-any.whl":               "jinja2 3.1.0 wheel",
		"ruamel.yaml-0.18.6-py3-none-any.whl":         "ruamel-yaml 0.18.6 wheel",
		"numpy-2.0.0-1-cp311-cp311-manylinux_x86.whl": "numpy 2.0.0 wheel",
		"python-dateutil-2.9.0.tar.gz":                "python-dateutil 2.9.0 sdist",
		"foo-1.0.exe":                                 "  ",
	} {
		n, v, k := splitDistFile(file)
		if got := n + " " + v + " " + k; got != want {
			t.Errorf("%s: %q, want %q", file, got, want)
		}
	}
}
