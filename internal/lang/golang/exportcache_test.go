package golang

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

func TestExportCacheTrim(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, cacheLayout)
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	c := &exportCache{dir: dir, version: "go1.test"}
	// an earlier layout in use (an older build of Ripple beside this one)
	// stays; one unused for trimAge goes
	inUse, unused := filepath.Join(root, oldLayouts[0]), filepath.Join(root, "v0")
	oldLayouts = append(oldLayouts, "v0")
	defer func() { oldLayouts = oldLayouts[:len(oldLayouts)-1] }()
	for _, d := range []string{inUse, unused} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(d, "entry"), []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	week := time.Now().Add(-trimAge - time.Hour)
	if err := os.Chtimes(filepath.Join(unused, "entry"), week, week); err != nil {
		t.Fatal(err)
	}
	old, fresh := filepath.Join(dir, "old"), filepath.Join(dir, "fresh")
	for _, f := range []string{old, fresh} {
		if err := os.WriteFile(f, []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	long := time.Now().Add(-trimAge - time.Hour)
	if err := os.Chtimes(old, long, long); err != nil {
		t.Fatal(err)
	}
	c.trim()
	if _, err := os.Stat(old); !os.IsNotExist(err) {
		t.Errorf("an entry unused for %v was kept (%v)", trimAge, err)
	}
	if _, err := os.Stat(fresh); err != nil {
		t.Errorf("a fresh entry was removed: %v", err)
	}
	if _, err := os.Stat(filepath.Join(inUse, "entry")); err != nil {
		t.Errorf("an earlier layout still in use was removed: %v", err)
	}
	if _, err := os.Stat(unused); !os.IsNotExist(err) {
		t.Errorf("an earlier layout unused for %v was kept (%v)", trimAge, err)
	}
	// trim ran a moment ago: an old entry waits for the next day's run
	if err := os.WriteFile(old, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(old, long, long); err != nil {
		t.Fatal(err)
	}
	c.trim()
	if _, err := os.Stat(old); err != nil {
		t.Errorf("trim ran twice within %v: %v", trimEvery, err)
	}
}
