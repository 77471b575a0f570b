package golang

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

func TestExportCacheTrim(t *testing.T) {
	dir := t.TempDir()
	c := &exportCache{dir: dir, version: "go1.test"}
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
