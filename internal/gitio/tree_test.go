package gitio

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
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

// TestGrepAgreesWithGit holds the one-pass search (search.go) to git grep
// -l -w -F on the same files: identifiers, a quoted import path (a word
// with non-word bytes), words inside longer words, non-ASCII neighbours,
// a binary file, an excluded folder, in a checked-out commit whose work
// tree edited a file, in a commit that is not checked out and in the
// work tree with an untracked file.
func TestGrepAgreesWithGit(t *testing.T) {
	testrepo.Hermetic(t)
	dir := t.TempDir()
	testrepo.Init(t, dir)
	files := map[string]string{
		"a.go":         "package a\n\nfunc Run() { Helper() }\n",
		"b.go":         "package b\n\nimport \"example.com/p\"\n",
		"c.go":         "package c\n\nvar x = RunAll // Run inside a longer word\n",
		"d.go":         "package d\n\n// Helperé and éRun: non-ASCII bytes bound a word for git\n",
		"e.go":         "package e\n\nimport \"example.com/pkg\"\n",
		"f.go":         "package f\n\nvar _ = \"Run\"\n",
		"bin.go":       "Run\x00binary\n",
		"vendor/v.go":  "package v\n\nfunc Run() {}\n",
		"x/sub/y.go":   "package y\n\nfunc run() { _ = Helper }\n",
		"notes.txt":    "Run Helper\n",
		"g.go":         "package g\n",
		"h.go":         "package h\n\nvar _ = example.com/p\n",
		"x/long.go":    "package x\n\n" + strings.Repeat("var aVeryLongNameThatIsNotAWord = 1\n", 200) + "var _ = Helper\n",
		"x/nothing.go": "package x\n",
	}
	testrepo.WriteFiles(t, dir, files)
	first := testrepo.CommitAll(t, dir, "first")
	testrepo.WriteFiles(t, dir, map[string]string{"g.go": "package g\n\nfunc G() { Run() }\n", "a.go": "package a\n"})
	second := testrepo.CommitAll(t, dir, "second")
	// the work tree edits a file of the second commit and adds one
	testrepo.WriteFiles(t, dir, map[string]string{"g.go": "package g\n", "c.go": "package c\n\nvar y = Helper\n", "new.go": "package n\n\nvar _ = Run\n"})
	ctx := context.Background()
	// each pass opens the repository anew: without a word index, with an
	// empty one (which the search fills), with the one the pass before
	// filled and with that one saved and read back
	words := t.TempDir()
	var x *WordIndex
	for pass, index := range []string{"none", "empty", "filled", "saved"} {
		var r *Repo
		var err error
		if r, err = Open(ctx, dir); err != nil {
			t.Fatal(err)
		}
		switch index {
		case "empty":
			x = OpenWordIndex(words, r.GitDir)
		case "saved":
			x.Save()
			x = OpenWordIndex(words, r.GitDir)
		}
		r.Words = x
		grepAgreesWithGit(t, r, second, first, fmt.Sprintf("pass %d (index %s)", pass, index))
		r.Close()
	}
	if len(x.m) == 0 {
		t.Error("the word index is empty after the searches")
	}
}

func grepAgreesWithGit(t *testing.T, r *Repo, second, first, pass string) {
	ctx := context.Background()
	specs := []string{"*.go", ":(exclude,glob)vendor/**", ":(exclude,glob)**/vendor/**"}
	wordSets := [][]string{
		{"Run"}, {"Helper"}, {"Run", "Helper", "a", "x"}, {`"example.com/p"`}, {"RunAll", "nothing"}, {"zzz"}, {"é"},
		{"nothing", `"example.com/pkg"`}, {`example.com/p`}, {"package"},
	}
	trees := []struct {
		name string
		tree Tree
		rev  string
	}{
		{"checked out, edited", &RevTree{R: r, SHA: second}, second},
		{"not checked out", &RevTree{R: r, SHA: first}, first},
		{"work tree", &WorkTree{R: r}, ""},
	}
	for _, tc := range trees {
		for _, words := range wordSets {
			got, err := tc.tree.Grep(ctx, words, specs...)
			if err != nil {
				t.Fatalf("%s, %s: %v", pass, tc.name, err)
			}
			args := []string{"grep", "-l", "-z", "-w", "-F", "-I"}
			if tc.rev == "" {
				args = append(args, "--untracked")
			}
			for _, w := range words {
				args = append(args, "-e", w)
			}
			if tc.rev != "" {
				args = append(args, tc.rev)
			}
			out, err := r.Git(ctx, append(append(args, "--"), specs...)...)
			var ee *ExitError
			if err != nil && !(errors.As(err, &ee) && ee.Code == 1) {
				t.Fatal(err)
			}
			want := splitZ(out)
			for i, p := range want {
				want[i] = strings.TrimPrefix(p, tc.rev+":")
			}
			slices.Sort(want)
			if !slices.Equal(got, want) {
				t.Errorf("%s, %s: grep %q = %v, git grep -w says %v", pass, tc.name, words, got, want)
			}
		}
	}
}

// BenchmarkWordSetIn cuts the standard library's net/http sources into
// words and looks them up in a set of 80 identifiers, most of which the
// files never name (the shape of a branch's search: bench/README.md).
func BenchmarkWordSetIn(b *testing.B) {
	paths, _ := filepath.Glob(filepath.Join(runtime.GOROOT(), "src", "net", "http", "*.go"))
	var files [][]byte
	size := 0
	for _, p := range paths {
		if data, err := os.ReadFile(p); err == nil {
			files = append(files, data)
			size += len(data)
		}
	}
	if len(files) == 0 {
		b.Skip("no GOROOT sources")
	}
	// words of the lengths and first letters identifiers have, none of
	// them in the files: every file is read to its end
	var words []string
	for i := range 80 {
		words = append(words, string(rune('A'+i%26))+"q"+strings.Repeat("z", i%12))
	}
	ws := newWordSet(words)
	b.SetBytes(int64(size))
	b.ResetTimer()
	for range b.N {
		for _, f := range files {
			ws.in(f)
		}
	}
}

// TestDiffNonASCIIPath: git quotes a path with bytes above 0x7f in a
// patch ("caf\303\251.go"); its hunks are the file's, not a whole-file
// change (the octal escapes were not decoded, the patch's file matched
// no name, and every line of it counted as changed).
func TestDiffNonASCIIPath(t *testing.T) {
	testrepo.Hermetic(t)
	dir := t.TempDir()
	testrepo.Init(t, dir)
	body := "package p\n\n" + strings.Repeat("var x = 1\n", 20)
	testrepo.WriteFiles(t, dir, map[string]string{"café.go": body})
	base := testrepo.CommitAll(t, dir, "base")
	testrepo.WriteFiles(t, dir, map[string]string{"café.go": strings.Replace(body, "var x = 1\n", "var y = 2\n", 1)})
	head := testrepo.CommitAll(t, dir, "head")
	ctx := context.Background()
	r, err := Open(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	files, err := r.Diff(ctx, base, head, 0, "*.go")
	if err != nil {
		t.Fatal(err)
	}
	if len(files) != 1 || files[0].Path() != "café.go" || files[0].Whole || len(files[0].Hunks) != 1 {
		t.Fatalf("diff: %+v", files)
	}
	if got := UnquotePath(`"caf\303\251 \"q\"\t.go"`); got != "café \"q\"\t.go" {
		t.Errorf("UnquotePath = %q", got)
	}
}
