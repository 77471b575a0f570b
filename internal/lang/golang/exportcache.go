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
// rewritten.
type exportCache struct {
	dir     string
	version string
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
	return &exportCache{dir: dir, version: goVersion}
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
	data, err := os.ReadFile(c.file(p, dir, bc))
	if err != nil {
		return nil
	}
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
	var buf bytes.Buffer
	if err := gcexportdata.Write(&buf, fset, pkg); err != nil {
		return
	}
	dst := c.file(pkg.Path(), dir, bc)
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
