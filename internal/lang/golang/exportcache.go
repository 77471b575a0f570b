package golang

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"go/token"
	"go/types"
	"hash/crc32"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"

	"golang.org/x/tools/go/gcexportdata"

	"github.com/ripple-dev/ripple/internal/usercache"
)

// exportCache keeps the declarations of packages whose sources cannot
// change (the standard library of one Go version, module-cache
// directories, which are immutable) as export data on disk, so that only
// a first check pays for type-checking them from source. The cache lives
// in $RIPPLE_CACHE, else the user cache directory (ripple/types); setting
// RIPPLE_CACHE=off disables it. Entries are keyed by Go version, build
// configuration, import path and directory; writes are atomic renames,
// so concurrent hooks share it safely. Each entry carries a checksum of
// its export data, verified before anything is decoded: a corrupt or
// truncated entry is ignored (and rewritten), never half read. Entries
// unused for a week are removed (trim), once a day; past the cap
// (usercache.MaxBytes, RIPPLE_CACHE_MAX) those used least recently go,
// checked once an hour (capTrim).
type exportCache struct {
	dir     string
	version string
	heads   *headStore
}

func openExportCache(goVersion string) *exportCache {
	dir, off, err := usercache.Dir()
	if off || err != nil || goVersion == "" {
		return nil
	}
	dir = filepath.Join(dir, "types", cacheLayout)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil
	}
	c := &exportCache{dir: dir, version: goVersion, heads: newHeadStore(dir)}
	go c.trim()
	return c
}

// cacheLayout names the folder of the entries: it changes with their
// format (v2: entries carry a checksum). trim removes the folders of
// earlier layouts once their entries are a week old.
const cacheLayout = "v2"

var oldLayouts = []string{"v1"}

// entryMagic starts every entry; a CRC-32C (Castagnoli) of the export
// data follows it, then the export data.
const entryMagic = "ripple-types\x00"

var crcTable = crc32.MakeTable(crc32.Castagnoli)

func encodeEntry(data []byte) []byte {
	out := make([]byte, 0, len(entryMagic)+4+len(data))
	out = append(out, entryMagic...)
	out = binary.LittleEndian.AppendUint32(out, crc32.Checksum(data, crcTable))
	return append(out, data...)
}

// decodeEntry returns the export data of an entry whose checksum holds.
func decodeEntry(b []byte) ([]byte, bool) {
	n := len(entryMagic)
	if len(b) < n+4 || string(b[:n]) != entryMagic {
		return nil, false
	}
	data := b[n+4:]
	if binary.LittleEndian.Uint32(b[n:]) != crc32.Checksum(data, crcTable) {
		return nil, false
	}
	return data, true
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
	c.capTrim()
	marker := filepath.Join(c.dir, "trimmed")
	if st, err := os.Stat(marker); err == nil && time.Since(st.ModTime()) < trimEvery {
		return
	}
	if err := os.WriteFile(marker, nil, 0o644); err != nil {
		return
	}
	now := time.Now()
	_ = os.Chtimes(marker, now, now)
	trimDir(c.dir, now)
	// an earlier layout's folder goes once no build of Ripple that still
	// uses it (another checkout, another hook) has for trimAge
	for _, old := range oldLayouts {
		d := filepath.Join(filepath.Dir(c.dir), old)
		if trimDir(d, now) == 0 {
			os.RemoveAll(d)
		}
	}
}

// capEvery is how often capTrim measures a large cache (capMarkAt
// entries or more); capFill how full it leaves it, so that the next
// entries written do not trim it again.
const (
	capEvery = time.Hour
	capFill  = 0.9
)

// capMarkAt is the number of entries from which a measure is worth a
// marker: a smaller cache is measured by every check (microseconds),
// and nothing is written to it for the cap.
var capMarkAt = 1000

// capTrim keeps the type cache under its cap (usercache.MaxBytes): it
// adds up the entries of every layout and, past the cap, removes those
// used least recently (an entry's mtime is its last use, marked at most
// once an hour) until capFill of the cap is left; a large cache at most
// once an hour (the mtime of a marker says when it last ran). A day of
// wide pushes grew the cache to 531 MB, which the week's age trim alone
// lets stand. The markers and the heads store are not entries and stay.
func (c *exportCache) capTrim() {
	limit, _ := usercache.MaxBytes() // a bad value keeps the default; hook cache says why
	if limit <= 0 {
		return
	}
	marker := filepath.Join(c.dir, "capped")
	if st, err := os.Stat(marker); err == nil && time.Since(st.ModTime()) < capEvery {
		return
	}
	n := trimToSize(append([]string{c.dir}, c.oldDirs()...), limit, int64(float64(limit)*capFill))
	if n >= capMarkAt {
		if os.WriteFile(marker, nil, 0o644) == nil {
			now := time.Now()
			_ = os.Chtimes(marker, now, now)
		}
	}
}

// oldDirs are the folders of earlier layouts beside c's.
func (c *exportCache) oldDirs() []string {
	var out []string
	for _, old := range oldLayouts {
		out = append(out, filepath.Join(filepath.Dir(c.dir), old))
	}
	return out
}

// trimToSize removes the entries of dirs used least recently while
// they take more than keep bytes, when together they take more than
// limit; it returns how many entries it measured.
func trimToSize(dirs []string, limit, keep int64) int {
	type entry struct {
		path string
		size int64
		used time.Time
	}
	var es []entry
	var total int64
	for _, d := range dirs {
		ents, err := os.ReadDir(d)
		if err != nil {
			continue
		}
		for _, e := range ents {
			if e.IsDir() || !e.Type().IsRegular() || notEntry(e.Name()) {
				continue
			}
			if info, err := e.Info(); err == nil {
				es = append(es, entry{filepath.Join(d, e.Name()), info.Size(), info.ModTime()})
				total += info.Size()
			}
		}
	}
	if total <= limit {
		return len(es)
	}
	sort.Slice(es, func(i, j int) bool { return es[i].used.Before(es[j].used) })
	for _, e := range es {
		if total <= keep {
			break
		}
		if os.Remove(e.path) == nil {
			total -= e.size
		}
	}
	return len(es)
}

// notEntry names the files of a layout's folder that are not entries:
// the trim markers and the heads store.
func notEntry(name string) bool {
	return name == "trimmed" || name == "capped" || strings.HasPrefix(name, "heads-")
}

// trimDir removes the entries of dir unused for trimAge and returns how
// many are left (the marker aside).
func trimDir(dir string, now time.Time) int {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return 0
	}
	left := 0
	for _, e := range ents {
		if e.Name() == "trimmed" || e.Name() == "capped" || e.IsDir() {
			continue
		}
		if info, err := e.Info(); err == nil && now.Sub(info.ModTime()) > trimAge {
			os.Remove(filepath.Join(dir, e.Name()))
			continue
		}
		left++
	}
	return left
}

// used marks the entry at f as used (its mtime), at most once an hour.
func used(f string) {
	if st, err := os.Stat(f); err == nil && time.Since(st.ModTime()) > time.Hour {
		now := time.Now()
		_ = os.Chtimes(f, now, now)
	}
}

// file is the entry of a package whose sources cannot change, by
// directory.
func (c *exportCache) file(p, dir string, bc buildCtx) string {
	h := sha256.Sum256([]byte(c.version + "\x00" + bc.key() + "\x00" + p + "\x00" + dir))
	return filepath.Join(c.dir, hex.EncodeToString(h[:16]))
}

// keyFile is the entry of a package cached by content key.
func (c *exportCache) keyFile(key string) string { return filepath.Join(c.dir, key[:32]) }

// has reports whether the entry at f exists, marking it used: a package
// read only through the export data of its importers (lazy.go) must
// stay for as long as they are used.
func (c *exportCache) has(f string) bool {
	st, err := os.Stat(f)
	if err != nil || !st.Mode().IsRegular() {
		return false
	}
	if time.Since(st.ModTime()) > time.Hour {
		now := time.Now()
		_ = os.Chtimes(f, now, now)
	}
	return true
}

// entry returns the export data of the entry at f, nil when it is
// missing or its checksum fails.
func (c *exportCache) entry(f string) []byte {
	b, err := os.ReadFile(f)
	if err != nil {
		return nil
	}
	data, ok := decodeEntry(b)
	if !ok {
		return nil
	}
	used(f)
	return data
}

// read returns the cached package, registering it and the packages it
// refers to in shared (guarded by mu), or nil.
func (c *exportCache) read(fset *token.FileSet, shared map[string]*types.Package, mu *sync.Mutex, p, dir string, bc buildCtx) *types.Package {
	if c == nil {
		return nil
	}
	data := c.entry(c.file(p, dir, bc))
	if data == nil {
		return nil
	}
	mu.Lock()
	defer mu.Unlock()
	if pkg, ok := shared[p]; ok && pkg.Complete() {
		return pkg
	}
	pkg, err := gcexportdata.Read(exportReader(data), fset, shared, p)
	if err != nil {
		return nil
	}
	return pkg
}

// exportReader reads data for gcexportdata.Read, which copies what it
// reads: from a LimitedReader it allocates the copy once, at its size,
// where a plain reader makes it grow by doubling.
func exportReader(data []byte) io.Reader {
	return &io.LimitedReader{R: bytes.NewReader(data), N: int64(len(data))}
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
	c.writeFile(fset, pkg, c.keyFile(key))
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
	_, werr := tmp.Write(encodeEntry(buf.Bytes()))
	cerr := tmp.Close()
	if werr != nil || cerr != nil || os.Rename(tmp.Name(), dst) != nil {
		os.Remove(tmp.Name())
	}
}
