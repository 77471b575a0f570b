package gitio

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/ripple-dev/ripple/internal/testrepo"
)

// TestReadFilesWorkTree reads a commit's files when it is the one checked
// out: unchanged files from disk, changed ones (and symbolic links) from
// git, and every file from git once attributes may make the bytes on
// disk differ from the blobs.
func TestReadFilesWorkTree(t *testing.T) {
	testrepo.Hermetic(t)
	dir := t.TempDir()
	testrepo.Init(t, dir)
	testrepo.WriteFiles(t, dir, map[string]string{"a.go": "package a\n", "b.go": "package b\n", "vendor/v.go": "package v\n"})
	if err := os.Symlink("a.go", filepath.Join(dir, "l.go")); err != nil {
		t.Fatal(err)
	}
	head := testrepo.CommitAll(t, dir, "c")
	ctx := context.Background()
	open := func() *RevTree {
		r, err := Open(ctx, dir)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { r.Close() })
		return &RevTree{R: r, SHA: head}
	}
	// b.go changed in the work tree, a.go and l.go not
	testrepo.WriteFiles(t, dir, map[string]string{"b.go": "package b // edited\n"})
	tr := open()
	got, err := tr.ReadFiles(ctx, []string{"a.go", "b.go", "l.go"})
	if err != nil {
		t.Fatal(err)
	}
	if string(got["a.go"]) != "package a\n" || string(got["b.go"]) != "package b\n" || string(got["l.go"]) != "a.go" {
		t.Errorf("read %q", got)
	}
	if _, files, ok := tr.workTree(ctx); !ok || !files {
		t.Errorf("work tree at the commit: ok %v, files %v", ok, files)
	}
	// a file unchanged for git but not on disk byte for byte is read from
	// git: the disk copy is made to differ behind git's back, and
	// attributes turn disk reads off
	if err := os.WriteFile(filepath.Join(dir, ".git", "info", "attributes"), []byte("*.go text\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	tr = open()
	if _, files, _ := tr.workTree(ctx); files {
		t.Error("disk reads with attributes set")
	}
	if b, err := tr.ReadFile(ctx, "a.go"); err != nil || string(b) != "package a\n" {
		t.Errorf("a.go = %q, %v", b, err)
	}
	// grep in the work tree: the edited file is searched in the commit,
	// vendor/ is excluded
	os.Remove(filepath.Join(dir, ".git", "info", "attributes"))
	testrepo.WriteFiles(t, dir, map[string]string{"vendor/v.go": "package v // b\n"})
	tr = open()
	paths, err := tr.Grep(ctx, []string{"b"}, "*.go", ":(exclude,glob)vendor/**")
	if err != nil {
		t.Fatal(err)
	}
	if len(paths) != 1 || paths[0] != "b.go" {
		t.Errorf("grep b = %v, want [b.go]", paths)
	}
}

func TestMatchSpecs(t *testing.T) {
	specs := []string{"*.go", ":(exclude,glob)vendor/**", ":(exclude,glob)**/vendor/**"}
	for p, want := range map[string]bool{"a.go": true, "x/a.go": true, "vendor/a.go": false, "x/vendor/a.go": false, "a.py": false} {
		if got := matchSpecs(specs, p); got != want {
			t.Errorf("matchSpecs(%q) = %v, want %v", p, got, want)
		}
	}
}

// TestGrepShortWords finds every file holding one of the words as a
// whole word when short words (grepped one by one) and long ones (grepped
// together) are mixed, from a commit and from the work tree alike.
func TestGrepShortWords(t *testing.T) {
	testrepo.Hermetic(t)
	dir := t.TempDir()
	testrepo.Init(t, dir)
	testrepo.WriteFiles(t, dir, map[string]string{
		"a.py":  "x = a + 1\n", // the short word a
		"b.py":  "import os\n", // the short word os
		"c.py":  "def load_config(): pass\n",
		"d.py":  "data = 'banana'\n",  // a inside words only
		"e.txt": "a os load_config\n", // outside the pathspec
		"f.py":  "cosine = loads_config\n",
	})
	head := testrepo.CommitAll(t, dir, "c")
	ctx := context.Background()
	r, err := Open(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	words := []string{"load_config", "a", "os", "zzz"}
	for _, tree := range []Tree{&RevTree{R: r, SHA: head}, &WorkTree{R: r}} {
		got, err := tree.Grep(ctx, words, "*.py")
		if err != nil {
			t.Fatal(err)
		}
		slices.Sort(got)
		if want := []string{"a.py", "b.py", "c.py"}; !slices.Equal(got, want) {
			t.Errorf("%T: grep %v = %v, want %v", tree, words, got, want)
		}
	}
}
