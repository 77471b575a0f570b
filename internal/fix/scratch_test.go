package fix

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ripple-dev/ripple/internal/gitio"
	"github.com/ripple-dev/ripple/internal/testrepo"
)

// TestPatchHoldsOnlyEditedFiles: the patch is what the engine edited. A
// file whose working-tree-encoding cannot hold its text (a euro sign
// under latin-1) does not round-trip through a checkout: the worktree
// shows it modified, and a patch taken as the whole worktree's diff
// carried it, which git apply then refused (issue 32).
func TestPatchHoldsOnlyEditedFiles(t *testing.T) {
	testrepo.Hermetic(t)
	dir := t.TempDir()
	testrepo.Init(t, dir)
	testrepo.WriteFiles(t, dir, map[string]string{
		"legacy.txt": "price \u20ac 5\n",
		"a.go":       "package a\n\nfunc A() int { return 1 }\n",
	})
	testrepo.CommitAll(t, dir, "files")
	testrepo.WriteFiles(t, dir, map[string]string{".gitattributes": "legacy.txt working-tree-encoding=latin-1\n"})
	// only the attributes: an add of everything would re-encode the file
	testrepo.Git(t, dir, "add", ".gitattributes")
	testrepo.Git(t, dir, "commit", "-q", "-m", "attributes")
	head := testrepo.Git(t, dir, "rev-parse", "HEAD")
	ctx := context.Background()
	repo, err := gitio.Open(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	defer repo.Close()
	sc, err := newScratch(ctx, repo, head)
	if err != nil {
		t.Fatal(err)
	}
	defer sc.close()
	if err := sc.write("a.go", []byte("package a\n\nfunc A() int { return 2 }\n")); err != nil {
		t.Fatal(err)
	}
	// the stat data no longer vouches for legacy.txt (a racily clean
	// checkout, a tool that touched it): git compares its content
	later := time.Now().Add(time.Hour)
	if err := os.Chtimes(filepath.Join(sc.dir, "legacy.txt"), later, later); err != nil {
		t.Fatal(err)
	}
	p, err := sc.patch(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(p, "+func A() int { return 2 }") || strings.Contains(p, "legacy.txt") {
		t.Fatalf("patch:\n%s", p)
	}
}
