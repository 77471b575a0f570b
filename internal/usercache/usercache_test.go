package usercache

import (
	"os"
	"path/filepath"
	"testing"
)

func TestParseSize(t *testing.T) {
	for in, want := range map[string]int64{
		"300MB": 300 << 20, "300mb": 300 << 20, "300M": 300 << 20, "1GB": 1 << 30, "1.5G": 3 << 29,
		"512KiB": 512 << 10, "1000": 1000, " 2 GB ": 2 << 30, "0": 0,
	} {
		if got, err := ParseSize(in); err != nil || got != want {
			t.Errorf("ParseSize(%q) = %d, %v; want %d", in, got, err, want)
		}
	}
	for _, in := range []string{"", "MB", "lots", "-1MB", "3TB", "1e30"} {
		if got, err := ParseSize(in); err == nil {
			t.Errorf("ParseSize(%q) = %d, want an error", in, got)
		}
	}
}

func TestMaxBytes(t *testing.T) {
	t.Setenv("RIPPLE_CACHE_MAX", "")
	if n, err := MaxBytes(); n != DefaultMax || err != nil {
		t.Errorf("MaxBytes unset = %d, %v", n, err)
	}
	t.Setenv("RIPPLE_CACHE_MAX", "50MB")
	if n, err := MaxBytes(); n != 50<<20 || err != nil {
		t.Errorf("MaxBytes 50MB = %d, %v", n, err)
	}
	t.Setenv("RIPPLE_CACHE_MAX", "big")
	if n, err := MaxBytes(); n != DefaultMax || err == nil {
		t.Errorf("MaxBytes big = %d, %v; want the default and an error", n, err)
	}
}

func TestDirAndSize(t *testing.T) {
	d := t.TempDir()
	t.Setenv("RIPPLE_CACHE", d)
	if got, off, err := Dir(); got != d || off || err != nil {
		t.Errorf("Dir = %q, %v, %v", got, off, err)
	}
	t.Setenv("RIPPLE_CACHE", "off")
	if _, off, _ := Dir(); !off {
		t.Error("RIPPLE_CACHE=off is not off")
	}
	os.MkdirAll(filepath.Join(d, "a", "b"), 0o755)
	os.WriteFile(filepath.Join(d, "a", "b", "x"), make([]byte, 1500), 0o644)
	os.WriteFile(filepath.Join(d, "y"), make([]byte, 500), 0o644)
	if n := Size(d); n != 2000 {
		t.Errorf("Size = %d, want 2000", n)
	}
	if n := Size(filepath.Join(d, "missing")); n != 0 {
		t.Errorf("Size of a missing folder = %d", n)
	}
	if got := Human(531 << 20); got != "531.0 MB" {
		t.Errorf("Human = %q", got)
	}
}

func TestHomeRel(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	if got, want := HomeRel(filepath.Join(home, ".cache", "ripple", "typescript")), "~/.cache/ripple/typescript"; got != want {
		t.Errorf("HomeRel = %q, want %q", got, want)
	}
	if got := HomeRel("/elsewhere/x"); got != "/elsewhere/x" {
		t.Errorf("HomeRel outside home = %q", got)
	}
}
