package gitio_test

import (
	"context"
	"os"
	"slices"
	"testing"

	"github.com/ripple-dev/ripple/internal/gitio"
	"github.com/ripple-dev/ripple/internal/testrepo"
)

// TestScratchMerge: a merged tree written through a scratch repository
// is a state like a commit's (listed, read, searched, diffed, resolved
// as a head), and once the scratch store is discarded the repository
// holds no object it did not hold before. A conflicting merge names its
// conflicted paths.
func TestScratchMerge(t *testing.T) {
	testrepo.Hermetic(t)
	dir := t.TempDir()
	testrepo.Init(t, dir)
	testrepo.WriteFiles(t, dir, map[string]string{"f.txt": "a\nb\nc\nd\ne\n"})
	testrepo.CommitAll(t, dir, "base")
	testrepo.Git(t, dir, "checkout", "-q", "-b", "feature")
	testrepo.WriteFiles(t, dir, map[string]string{"f.txt": "a\nb\nc\nd\nE\n", "g.txt": "branch word\n"})
	head := testrepo.CommitAll(t, dir, "feature")
	testrepo.Git(t, dir, "checkout", "-q", "main")
	testrepo.WriteFiles(t, dir, map[string]string{"f.txt": "A\nb\nc\nd\ne\n"})
	ref := testrepo.CommitAll(t, dir, "main")
	testrepo.Git(t, dir, "checkout", "-q", "-b", "other", head+"~1")
	testrepo.WriteFiles(t, dir, map[string]string{"f.txt": "a\nb\nc\nd\nX\n"})
	other := testrepo.CommitAll(t, dir, "other")
	testrepo.Git(t, dir, "checkout", "-q", "feature")
	objects := func() string { return testrepo.Git(t, dir, "count-objects", "-v") }
	before := objects()

	tmp := t.TempDir() // where the scratch store goes
	t.Setenv("TMPDIR", tmp)
	ctx := context.Background()
	repo, err := gitio.Open(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	defer repo.Close()
	scratch, discard, err := repo.Scratch(ctx)
	if err != nil {
		t.Fatal(err)
	}
	tree, conflicts, err := scratch.MergeTree(ctx, head, ref)
	if err != nil || len(conflicts) > 0 {
		t.Fatalf("merge: %v, conflicts %v", err, conflicts)
	}
	sha, isTree, err := scratch.ResolveState(ctx, tree)
	if err != nil || !isTree || sha != tree {
		t.Fatalf("ResolveState(%s) = %s, %v, %v", tree, sha, isTree, err)
	}
	rt := &gitio.RevTree{R: scratch, SHA: tree}
	if b, err := rt.ReadFile(ctx, "f.txt"); err != nil || string(b) != "A\nb\nc\nd\nE\n" {
		t.Errorf("merged f.txt = %q, %v", b, err)
	}
	if ps, err := rt.Grep(ctx, []string{"word"}); err != nil || !slices.Equal(ps, []string{"g.txt"}) {
		t.Errorf("grep in the merged tree: %v, %v", ps, err)
	}
	if ps, err := rt.List(ctx); err != nil || len(ps) != 2 {
		t.Errorf("list: %v, %v", ps, err)
	}
	files, err := scratch.Diff(ctx, ref, tree, 0)
	if err != nil || len(files) != 2 {
		t.Errorf("diff from main to the merged tree: %d files, %v", len(files), err)
	}
	if _, _, err := repo.ResolveState(ctx, tree); err == nil {
		t.Errorf("the merged tree is visible outside the scratch repository")
	}

	_, conflicts, err = scratch.MergeTree(ctx, head, other)
	if err != nil || !slices.Equal(conflicts, []string{"f.txt"}) {
		t.Errorf("conflicting merge: %v, conflicts %v", err, conflicts)
	}
	discard()
	if after := objects(); after != before {
		t.Errorf("objects left behind:\nbefore %s\nafter %s", before, after)
	}
	if left, _ := os.ReadDir(tmp); len(left) > 0 {
		t.Errorf("the scratch store was not removed: %v", left)
	}
}
