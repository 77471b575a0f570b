package javac

import (
	"archive/zip"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"

	"github.com/ripple-dev/ripple/internal/oracle"
	"github.com/ripple-dev/ripple/internal/testrepo"
)

// needJavac skips a test that needs the real javac when it is missing.
func needJavac(t testing.TB) {
	t.Helper()
	if _, err := exec.LookPath("javac"); err != nil {
		t.Skip("javac is not on PATH: these tests run the real compiler (install a JDK 11 or newer)")
	}
}

// hermeticCompiler is a Compiler whose local Maven repository and
// Gradle cache are empty folders of the test's (it never reads the
// machine's ~/.m2), and whose class-data archive is the tests' own.
func hermeticCompiler(t testing.TB) (*Compiler, string) {
	m2 := t.TempDir()
	return &Compiler{Resolver: Resolver{M2: m2, GradleCache: t.TempDir()}, ArchiveDir: testArchives}, m2
}

// scenario builds the repository of testdata/NAME.txtar (old/ is the
// base commit, new/ the head) and returns it with a checkout of its
// base in a folder of its own.
func scenario(t *testing.T, name string) (sc *testrepo.Scenario, base string) {
	t.Helper()
	ar, err := txtar.ParseFile(filepath.Join("testdata", name+".txtar"))
	if err != nil {
		t.Fatal(err)
	}
	sc = testrepo.FromTxtar(t, ar)
	base = filepath.Join(t.TempDir(), "base")
	testrepo.Git(t, sc.Dir, "worktree", "add", "-q", "--detach", base, sc.Base)
	return sc, base
}

// check runs the oracle and fails the test on an error.
func check(t *testing.T, c *Compiler, dir string, files ...string) *oracle.Result {
	t.Helper()
	o := oracle.Options{}
	if len(files) > 0 {
		o.Files = files
	}
	res, err := c.Check(context.Background(), dir, o)
	if err != nil {
		t.Fatalf("Check(%s): %v", dir, err)
	}
	return res
}

// clean fails the test when the oracle left anything in the tree.
func clean(t *testing.T, dir string) {
	t.Helper()
	if st := testrepo.Git(t, dir, "status", "--porcelain", "--ignored"); st != "" {
		t.Errorf("the oracle changed the tree:\n%s", st)
	}
}

// find returns the diagnostic at path:line, or fails the test.
func find(t *testing.T, ds []oracle.Diagnostic, path string, line int) oracle.Diagnostic {
	t.Helper()
	for _, d := range ds {
		if d.Path == path && d.Line == line {
			return d
		}
	}
	t.Fatalf("no diagnostic at %s:%d in %v", path, line, ds)
	return oracle.Diagnostic{}
}

// pathFreeMessages fails the test when a message holds an absolute path.
func pathFreeMessages(t *testing.T, ds []oracle.Diagnostic, dirs ...string) {
	t.Helper()
	for _, d := range ds {
		for _, dir := range append(dirs, os.TempDir()) {
			if strings.Contains(d.Message, dir) {
				t.Errorf("message with a path (%s): %s", dir, d)
			}
		}
		if filepath.IsAbs(d.Path) {
			t.Errorf("absolute path: %s", d)
		}
	}
}

// buildJar compiles Java sources (path -> source, under their package
// folders) with the real javac and zips the classes into jar, as a
// dependency's jar would hold them.
func buildJar(t testing.TB, jar string, srcs map[string]string, classpath ...string) {
	t.Helper()
	src, classes := t.TempDir(), t.TempDir()
	var files []string
	for name, body := range srcs {
		p := filepath.Join(src, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		files = append(files, p)
	}
	args := append([]string{"-d", classes}, files...)
	if len(classpath) > 0 {
		args = append([]string{"-cp", strings.Join(classpath, string(os.PathListSeparator))}, args...)
	}
	if out, err := exec.Command("javac", args...).CombinedOutput(); err != nil {
		t.Fatalf("javac for %s: %v\n%s", jar, err, out)
	}
	if err := os.MkdirAll(filepath.Dir(jar), 0o755); err != nil {
		t.Fatal(err)
	}
	f, err := os.Create(jar)
	if err != nil {
		t.Fatal(err)
	}
	zw := zip.NewWriter(f)
	err = filepath.Walk(classes, func(p string, info os.FileInfo, err error) error {
		if err != nil || info.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(classes, p)
		w, err := zw.Create(filepath.ToSlash(rel))
		if err != nil {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		_, err = w.Write(b)
		return err
	})
	if err == nil {
		err = zw.Close()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		t.Fatal(err)
	}
}

// writeFile writes a file, its folders made.
func writeFile(t testing.TB, path, body string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
}
