package usercache

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// Dir is the cache's root: $RIPPLE_CACHE, else the user cache
// directory's ripple folder. off reports RIPPLE_CACHE=off.
func Dir() (dir string, off bool, err error) {
	switch d := os.Getenv("RIPPLE_CACHE"); d {
	case "off":
		return "", true, nil
	case "":
	default:
		return d, false, nil
	}
	base, err := os.UserCacheDir()
	if err != nil {
		return "", false, err
	}
	return filepath.Join(base, "ripple"), false, nil
}

// ToolDir is where Ripple installs a tool with npm: the user cache
// directory's ripple/NAME, whatever RIPPLE_CACHE says (the tests point
// RIPPLE_CACHE elsewhere and still find the tools installed once).
func ToolDir(name string) (string, error) {
	base, err := os.UserCacheDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(base, "ripple", name), nil
}

// Files are the files Ripple writes at the cache's root (the warm-up's
// lock and log, internal/cli): all that `hook cache clean` removes
// there besides the type cache and the tools.
var Files = []string{"warm.lock", "warm.log"}

// DefaultMax is the type cache's cap when RIPPLE_CACHE_MAX is unset.
const DefaultMax = 300 << 20

// MaxBytes is the type cache's cap: RIPPLE_CACHE_MAX ("300MB", "1GB",
// "500M", a number of bytes; 0 for no cap), else DefaultMax.
func MaxBytes() (int64, error) {
	s := os.Getenv("RIPPLE_CACHE_MAX")
	if s == "" {
		return DefaultMax, nil
	}
	n, err := ParseSize(s)
	if err != nil {
		return DefaultMax, fmt.Errorf("RIPPLE_CACHE_MAX=%s: %v", s, err)
	}
	return n, nil
}

// ParseSize reads a size: a number of bytes, or one with a unit of K,
// M or G (KB, MB, GB, KiB...: powers of 1024), case-insensitive.
func ParseSize(s string) (int64, error) {
	t := strings.ToUpper(strings.TrimSpace(s))
	t = strings.TrimSuffix(strings.TrimSuffix(t, "B"), "I")
	mult := int64(1)
	if t != "" {
		switch t[len(t)-1] {
		case 'K':
			mult = 1 << 10
		case 'M':
			mult = 1 << 20
		case 'G':
			mult = 1 << 30
		}
	}
	if mult > 1 {
		t = strings.TrimSpace(t[:len(t)-1])
	}
	f, err := strconv.ParseFloat(t, 64)
	if err != nil || f < 0 || f*float64(mult) > 1<<62 {
		return 0, fmt.Errorf("not a size (a number of bytes, or with a unit: 300MB, 1GB)")
	}
	return int64(f * float64(mult)), nil
}

// Size is the bytes the files under dir take (0 when it is missing).
func Size(dir string) int64 {
	var n int64
	filepath.WalkDir(dir, func(_ string, d fs.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() {
			if info, err := d.Info(); err == nil {
				n += info.Size()
			}
		}
		return nil
	})
	return n
}

// Human writes a size as a person reads it: 531.2 MB, 12.0 KB, 0 B.
func Human(n int64) string {
	switch {
	case n >= 1<<30:
		return fmt.Sprintf("%.1f GB", float64(n)/(1<<30))
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d B", n)
}

// HomeRel writes a path under the home directory as ~/...
func HomeRel(p string) string {
	home, err := os.UserHomeDir()
	if err != nil || home == "" {
		return p
	}
	if rel, err := filepath.Rel(home, p); err == nil && rel != "." && !strings.HasPrefix(rel, "..") {
		return "~" + string(filepath.Separator) + rel
	}
	return p
}
