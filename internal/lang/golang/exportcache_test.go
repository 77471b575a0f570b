package golang

import (
	"fmt"
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

// TestExportCacheCap: past the cap (RIPPLE_CACHE_MAX) the entries used
// least recently go, across layouts, until 90% of the cap is left; the
// markers and the heads store stay, and a cache under its cap is left
// alone. A large cache is measured once an hour at most.
func TestExportCacheCap(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, cacheLayout)
	old := filepath.Join(root, oldLayouts[0])
	for _, d := range []string{dir, old} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	c := &exportCache{dir: dir, version: "go1.test"}
	t.Setenv("RIPPLE_CACHE_MAX", "10K")
	// a small cache is measured by every check and gets no marker
	saved := capMarkAt
	defer func() { capMarkAt = saved }()
	c.capTrim()
	if _, err := os.Stat(filepath.Join(dir, "capped")); !os.IsNotExist(err) {
		t.Errorf("an empty cache got a marker (%v)", err)
	}
	capMarkAt = 5 // from here on, this cache counts as a large one
	// ten entries of 1.5 KB, used an hour apart (e0 longest ago, one in
	// the earlier layout); 15 KB in all against a cap of 10 KB
	now := time.Now()
	var files []string
	for i := range 10 {
		d := dir
		if i == 1 {
			d = old
		}
		f := filepath.Join(d, fmt.Sprintf("e%d", i))
		if err := os.WriteFile(f, make([]byte, 1536), 0o644); err != nil {
			t.Fatal(err)
		}
		at := now.Add(time.Duration(i-10) * time.Hour)
		os.Chtimes(f, at, at)
		files = append(files, f)
	}
	heads := filepath.Join(dir, "heads-v1")
	os.WriteFile(heads, make([]byte, 4096), 0o644)
	long := now.Add(-48 * time.Hour)
	os.Chtimes(heads, long, long)

	c.capTrim()
	// 9 KB is 90% of the cap: the four least recently used go, six stay
	for i, f := range files {
		_, err := os.Stat(f)
		if gone := os.IsNotExist(err); gone != (i < 4) {
			t.Errorf("entry e%d (used %dh ago): removed %v, want %v", i, 10-i, gone, i < 4)
		}
	}
	if _, err := os.Stat(heads); err != nil {
		t.Errorf("the heads store was trimmed: %v", err)
	}
	// within the hour nothing is measured again, however full
	for i := range 4 {
		os.WriteFile(filepath.Join(dir, fmt.Sprintf("n%d", i)), make([]byte, 4096), 0o644)
	}
	c.capTrim()
	if _, err := os.Stat(files[6]); err != nil {
		t.Errorf("capTrim ran twice within %v: %v", capEvery, err)
	}
	// an hour later it runs; no cap (0) leaves everything
	t.Setenv("RIPPLE_CACHE_MAX", "0")
	os.Remove(filepath.Join(dir, "capped"))
	c.capTrim()
	if _, err := os.Stat(files[6]); err != nil {
		t.Errorf("RIPPLE_CACHE_MAX=0 trimmed: %v", err)
	}
	t.Setenv("RIPPLE_CACHE_MAX", "10K")
	os.Remove(filepath.Join(dir, "capped"))
	c.capTrim()
	var left int64
	for _, d := range []string{dir, old} {
		ents, _ := os.ReadDir(d)
		for _, e := range ents {
			if info, err := e.Info(); err == nil && !notEntry(e.Name()) {
				left += info.Size()
			}
		}
	}
	if left > 10<<10 {
		t.Errorf("the cache holds %d bytes after capTrim, over the cap", left)
	}
}
