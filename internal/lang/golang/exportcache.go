package golang

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"sync"
	"time"

	"golang.org/x/tools/go/gcexportdata"
)

// exportCache keeps the declarations of packages whose sources cannot
// change (the standard library of one Go version, module-cache
// directories, which are immutable) as export data on disk, so that only
// a first check pays for type-checking them from source. The cache lives
// in $RIPPLE_CACHE, else the user cache directory (ripple/types); setting
// RIPPLE_CACHE=off disables it. Entries are keyed by Go version, build
// configuration, import path and directory; writes are atomic renames,
// so concurrent hooks share it safely. A corrupt entry is ignored and
// rewritten. Entries unused for a week are removed (trim), once a day.
type exportCache struct {
	dir     string
	version string
	heads   *headStore
}

func openExportCache(goVersion string) *exportCache {
	dir := os.Getenv("RIPPLE_CACHE")
	if dir == "off" || goVersion == "" {
		return nil
	}
	if dir == "" {
		base, err := os.UserCacheDir()
		if err != nil {
			return nil
		}
		dir = filepath.Join(base, "ripple")
	}
	dir = filepath.Join(dir, "types", "v1")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil
	}
	c := &exportCache{dir: dir, version: goVersion, heads: newHeadStore(dir)}
	go c.trim()
	return c
}

// trimAge is how long an entry may go unused before trim removes it;
// trimEvery how often trim runs.
const (
	trimAge   = 7 * 24 * time.Hour
	trimEvery = 24 * time.Hour
)

// trim removes the entries not used for trimAge, at most once per
// trimEvery (the mtime of a marker file says when it last ran). Repository
// packages are cached by content, so every pushed change leaves entries
// that no later check asks for; this bounds the cache to what a week of
// work used. A hook that exits while trim runs leaves the rest for the
// next one.
func (c *exportCache) trim() {
	marker := filepath.Join(c.dir, "trimmed")
	if st, err := os.Stat(marker); err == nil && time.Since(st.ModTime()) < trimEvery {
		return
	}
	if err := os.WriteFile(marker, nil, 0o644); err != nil {
		return
	}
	now := time.Now()
	_ = os.Chtimes(marker, now, now)
	ents, err := os.ReadDir(c.dir)
	if err != nil {
		return
	}
	for _, e := range ents {
		if e.Name() == "trimmed" || e.IsDir() {
			continue
		}
		if info, err := e.Info(); err == nil && now.Sub(info.ModTime()) > trimAge {
			os.Remove(filepath.Join(c.dir, e.Name()))
		}
	}
}

// used marks the entry at f as used (its mtime), at most once an hour.
func used(f string) {
	if st, err := os.Stat(f); err == nil && time.Since(st.ModTime()) > time.Hour {
		now := time.Now()
		_ = os.Chtimes(f, now, now)
	}
}

func (c *exportCache) file(p, dir string, bc buildCtx) string {
	h := sha256.Sum256([]byte(c.version + "\x00" + bc.key() + "\x00" + p + "\x00" + dir))
	return filepath.Join(c.dir, hex.EncodeToString(h[:16]))
}

// read returns the cached package, registering it and the packages it
// refers to in shared (guarded by mu), or nil.
func (c *exportCache) read(fset *token.FileSet, shared map[string]*types.Package, mu *sync.Mutex, p, dir string, bc buildCtx) *types.Package {
	if c == nil {
		return nil
	}
	f := c.file(p, dir, bc)
	data, err := os.ReadFile(f)
	if err != nil {
		return nil
	}
	used(f)
	mu.Lock()
	defer mu.Unlock()
	if pkg, ok := shared[p]; ok && pkg.Complete() {
		return pkg
	}
	pkg, err := gcexportdata.Read(bufio.NewReader(bytes.NewReader(data)), fset, shared, p)
	if err != nil {
		return nil
	}
	return pkg
}

// write stores a package's export data.
func (c *exportCache) write(fset *token.FileSet, pkg *types.Package, dir string, bc buildCtx) {
	if c == nil {
		return
	}
	c.writeFile(fset, pkg, c.file(pkg.Path(), dir, bc))
}

// writeRepo stores a repository package's export data under its content
// key.
func (c *exportCache) writeRepo(fset *token.FileSet, pkg *types.Package, key string) {
	if c == nil {
		return
	}
	c.writeFile(fset, pkg, filepath.Join(c.dir, key[:32]))
}

func (c *exportCache) writeFile(fset *token.FileSet, pkg *types.Package, dst string) {
	var buf bytes.Buffer
	if err := gcexportdata.Write(&buf, fset, pkg); err != nil {
		return
	}
	tmp, err := os.CreateTemp(c.dir, "tmp-*")
	if err != nil {
		return
	}
	_, werr := tmp.Write(buf.Bytes())
	cerr := tmp.Close()
	if werr != nil || cerr != nil || os.Rename(tmp.Name(), dst) != nil {
		os.Remove(tmp.Name())
	}
}
