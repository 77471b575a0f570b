package python

import (
	"archive/tar"
	"archive/zip"
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"html"
	"io"
	"net/http"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"sort"
	"strings"

	"github.com/ripple-dev/ripple/internal/usercache"
)

// Fetching a distribution's version for a bump (bump.go): the file comes
// from the package index the user's pip configuration names
// (PIP_INDEX_URL, else index-url in pip.conf, else PyPI's simple index),
// through the simple repository API (PEP 503: one page of links a
// project, which every index serves), a pure-Python wheel preferred,
// then any wheel (the Python files of a platform wheel are the same on
// every platform), then the sdist. Files are kept in the user cache
// ($RIPPLE_CACHE/pypi/NAME@VERSION/FILE), checked against the hash the
// index gives, and read from there: only the .py and .pyi files and the
// wheel's top_level.txt and RECORD.

// Limits of what is read of one distribution.
const (
	maxDistFile   = 64 << 20
	maxDistSource = 32 << 20
)

// pyDist is one version of a distribution as read from its file: its
// Python files by import path ("jinja2/utils.py") and the top-level
// import names it provides.
type pyDist struct {
	file  string
	tops  []string
	files map[string][]byte
}

// pipIndex is the index the user's pip configuration names.
func pipIndex() string {
	if u := strings.TrimSpace(os.Getenv("PIP_INDEX_URL")); u != "" {
		return u
	}
	idx := ""
	for _, f := range pipConfigFiles() {
		if v := iniValue(f, "index-url"); v != "" {
			idx = v // a later file overrides an earlier one, as pip reads them
		}
	}
	if idx != "" {
		return idx
	}
	return "https://pypi.org/simple"
}

// pipConfigFiles are pip's configuration files in the order pip reads
// them: site-wide, the user's, then PIP_CONFIG_FILE.
func pipConfigFiles() []string {
	out := []string{"/etc/pip.conf", "/etc/xdg/pip/pip.conf"}
	if home, err := os.UserHomeDir(); err == nil {
		out = append(out, filepath.Join(home, ".pip", "pip.conf"))
	}
	if d, err := os.UserConfigDir(); err == nil {
		out = append(out, filepath.Join(d, "pip", "pip.conf"))
	}
	if v := os.Getenv("VIRTUAL_ENV"); v != "" {
		out = append(out, filepath.Join(v, "pip.conf"))
	}
	if f := os.Getenv("PIP_CONFIG_FILE"); f != "" && f != os.DevNull {
		out = append(out, f)
	}
	return out
}

// iniValue is a key's value in the [global] or [install] section of an
// ini file ("" when absent or unreadable), the later section winning.
func iniValue(file, key string) string {
	b, err := os.ReadFile(file)
	if err != nil {
		return ""
	}
	section, val := "", ""
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		l := strings.TrimSpace(sc.Text())
		if l == "" || l[0] == '#' || l[0] == ';' {
			continue
		}
		if strings.HasPrefix(l, "[") {
			section = strings.Trim(l, "[] ")
			continue
		}
		k, v, ok := strings.Cut(l, "=")
		if ok && (section == "global" || section == "install") && strings.TrimSpace(k) == key {
			val = strings.TrimSpace(v)
		}
	}
	return val
}

// pyFetcher brings distribution files into the user cache and reads them.
type pyFetcher struct {
	dir    string // the cache's pypi folder
	tmp    string // a folder of its own when the cache is off
	index  string
	client *http.Client
	dists  map[string]*pyDist
	failed map[string]string // name@version -> why it could not be read
}

func newPyFetcher() *pyFetcher {
	f := &pyFetcher{index: pipIndex(), dists: map[string]*pyDist{}, failed: map[string]string{}}
	if d, off, err := usercache.Dir(); err == nil && !off {
		f.dir = filepath.Join(d, "pypi")
	}
	if f.dir == "" || os.MkdirAll(f.dir, 0o755) != nil {
		f.tmp, _ = os.MkdirTemp("", "ripple-pypi-")
		f.dir = f.tmp
	}
	tr := http.DefaultTransport.(*http.Transport).Clone()
	tr.RegisterProtocol("file", http.NewFileTransport(http.Dir("/"))) // file:// indexes, as pip reads them
	f.client = &http.Client{Transport: tr}
	return f
}

func (f *pyFetcher) close() {
	if f.tmp != "" {
		os.RemoveAll(f.tmp)
	}
}

// dist is a version of a distribution, fetched when the cache lacks it;
// nil when it cannot be read (failed says why).
func (f *pyFetcher) dist(ctx context.Context, name, version string) *pyDist {
	nv := name + "@" + version
	if d, ok := f.dists[nv]; ok {
		return d
	}
	d, err := f.read(ctx, name, version)
	if err != nil {
		f.failed[nv] = err.Error()
	}
	f.dists[nv] = d
	return d
}

func (f *pyFetcher) read(ctx context.Context, name, version string) (*pyDist, error) {
	dir := filepath.Join(f.dir, name+"@"+version)
	if ents, err := os.ReadDir(dir); err == nil {
		for _, e := range ents {
			if n := e.Name(); !strings.HasSuffix(n, ".tmp") && distKind(n) != "" {
				return readDist(filepath.Join(dir, n))
			}
		}
	}
	if err := ctx.Err(); err != nil {
		return nil, errors.New("the budget ran out before fetching it")
	}
	link, err := f.choose(ctx, name, version)
	if err != nil {
		return nil, err
	}
	p, err := f.download(ctx, link, dir)
	if err != nil {
		return nil, err
	}
	return readDist(p)
}

// distLink is one file of a project page of the index.
type distLink struct {
	url, file, sha256 string
}

var anchorRE = regexp.MustCompile(`(?is)<a\s[^>]*?href\s*=\s*["']([^"']+)["'][^>]*>(.*?)</a>`)

// choose reads the index's page of the project and picks the file of
// the version: a pure-Python wheel, else another wheel, else the sdist.
func (f *pyFetcher) choose(ctx context.Context, name, version string) (distLink, error) {
	page := strings.TrimSuffix(f.index, "/") + "/" + name + "/"
	base, err := url.Parse(page)
	if err != nil {
		return distLink{}, fmt.Errorf("the index %s: %v", f.index, err)
	}
	body, err := f.get(ctx, page, 8<<20)
	if errors.Is(err, errNotFound) {
		return distLink{}, fmt.Errorf("the index %s does not list %s", redact(f.index), name)
	}
	if err != nil {
		return distLink{}, err
	}
	var best distLink
	rank := 0
	for _, m := range anchorRE.FindAllStringSubmatch(string(body), -1) {
		href := html.UnescapeString(m[1])
		u, err := base.Parse(href)
		if err != nil {
			continue
		}
		file := path.Base(u.Path)
		n, v, kind := splitDistFile(file)
		if n != name || !sameVersion(v, version) {
			continue
		}
		r := 0
		switch {
		case kind == "wheel" && strings.HasSuffix(strings.TrimSuffix(file, ".whl"), "-none-any"):
			r = 4
		case kind == "wheel":
			r = 3
		case kind == "sdist" && strings.HasSuffix(file, ".tar.gz"):
			r = 2
		case kind == "sdist":
			r = 1
		}
		if r > rank {
			l := distLink{file: file}
			if h, ok := strings.CutPrefix(u.Fragment, "sha256="); ok {
				l.sha256 = h
			}
			u.Fragment = ""
			l.url = u.String()
			best, rank = l, r
		}
	}
	if rank == 0 {
		return distLink{}, fmt.Errorf("the index %s has no wheel or sdist of %s %s", redact(f.index), name, version)
	}
	return best, nil
}

var errNotFound = errors.New("not found")

// get reads a URL of the index, at most limit bytes.
func (f *pyFetcher) get(ctx context.Context, u string, limit int64) ([]byte, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Accept", "text/html")
	resp, err := f.client.Do(req)
	if err != nil {
		if ctx.Err() != nil {
			return nil, errors.New("the budget ran out fetching it")
		}
		return nil, fmt.Errorf("%s: %v", redact(u), errors.Unwrap(err))
	}
	defer resp.Body.Close()
	if resp.StatusCode == http.StatusNotFound {
		return nil, fmt.Errorf("%s: %w", redact(u), errNotFound)
	}
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("%s: %s", redact(u), resp.Status)
	}
	b, err := io.ReadAll(io.LimitReader(resp.Body, limit+1))
	if err != nil {
		return nil, fmt.Errorf("%s: %v", redact(u), err)
	}
	if int64(len(b)) > limit {
		return nil, fmt.Errorf("%s: larger than %d MB", redact(u), limit>>20)
	}
	return b, nil
}

// redact drops a URL's password (an index URL may carry one).
func redact(u string) string {
	if p, err := url.Parse(u); err == nil && p.User != nil {
		return p.Redacted()
	}
	return u
}

// download fetches a file into dir, checked against its hash, by a
// rename through a temporary name (readers never see half a file).
func (f *pyFetcher) download(ctx context.Context, l distLink, dir string) (string, error) {
	b, err := f.get(ctx, l.url, maxDistFile)
	if err != nil {
		return "", err
	}
	if l.sha256 != "" {
		sum := sha256.Sum256(b)
		if hex.EncodeToString(sum[:]) != strings.ToLower(l.sha256) {
			return "", fmt.Errorf("%s: its sha256 is not the one the index gives", l.file)
		}
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	dst := filepath.Join(dir, l.file)
	tmp := fmt.Sprintf("%s.%d.tmp", dst, os.Getpid())
	if err := os.WriteFile(tmp, b, 0o644); err != nil {
		return "", err
	}
	return dst, os.Rename(tmp, dst)
}

// distKind is "wheel" or "sdist" by a file's name, "" for neither.
func distKind(file string) string {
	switch {
	case strings.HasSuffix(file, ".whl"):
		return "wheel"
	case strings.HasSuffix(file, ".tar.gz"), strings.HasSuffix(file, ".zip"):
		return "sdist"
	}
	return ""
}

// splitDistFile reads a distribution file's name: the normalised name,
// the version and the kind ("Jinja2-3.1.0-py3-none-any.whl": jinja2,
// 3.1.0, wheel; "jinja2-3.1.0.tar.gz": jinja2, 3.1.0, sdist).
func splitDistFile(file string) (name, version, kind string) {
	kind = distKind(file)
	switch kind {
	case "wheel":
		parts := strings.Split(strings.TrimSuffix(file, ".whl"), "-")
		if len(parts) < 5 {
			return "", "", ""
		}
		return normName(parts[0]), parts[1], kind
	case "sdist":
		s := strings.TrimSuffix(strings.TrimSuffix(file, ".tar.gz"), ".zip")
		i := strings.LastIndexByte(s, '-')
		if i <= 0 {
			return "", "", ""
		}
		return normName(s[:i]), s[i+1:], kind
	}
	return "", "", ""
}

// sameVersion compares two versions as written, ignoring case and a
// leading v (a lock and an index write PEP 440's normal form).
func sameVersion(a, b string) bool {
	norm := func(v string) string { return strings.TrimPrefix(strings.ToLower(strings.TrimSpace(v)), "v") }
	return norm(a) == norm(b)
}

// readDist reads a cached distribution file.
func readDist(p string) (*pyDist, error) {
	var (
		d   *pyDist
		err error
	)
	if distKind(filepath.Base(p)) == "wheel" {
		d, err = readWheel(p)
	} else {
		d, err = readSdist(p)
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %v", filepath.Base(p), err)
	}
	d.file = filepath.Base(p)
	return d, nil
}

// pySource reports a Python source or stub file.
func pySource(rel string) bool {
	return strings.HasSuffix(rel, ".py") || strings.HasSuffix(rel, ".pyi")
}

// readWheel reads a wheel's Python files and its top-level names: the
// .dist-info's top_level.txt, else the first segment of the files its
// RECORD (or, without one, the archive) lists.
func readWheel(p string) (*pyDist, error) {
	zr, err := zip.OpenReader(p)
	if err != nil {
		return nil, err
	}
	defer zr.Close()
	d := &pyDist{files: map[string][]byte{}}
	var topLevel []byte
	total := 0
	for _, zf := range zr.File {
		name := strings.TrimPrefix(path.Clean("/"+zf.Name), "/")
		first, _, _ := strings.Cut(name, "/")
		if strings.HasSuffix(first, ".dist-info") {
			if path.Base(name) == "top_level.txt" {
				topLevel, err = readZip(zf, 1<<20)
				if err != nil {
					return nil, err
				}
			}
			continue
		}
		if strings.HasSuffix(first, ".data") {
			// purelib and platlib install at the top
			rest := strings.SplitN(name, "/", 3)
			if len(rest) < 3 || rest[1] != "purelib" && rest[1] != "platlib" {
				continue
			}
			name = rest[2]
		}
		if !pySource(name) {
			continue
		}
		if first, rest, ok := strings.Cut(name, "/"); ok && strings.HasSuffix(first, "-stubs") {
			name = strings.TrimSuffix(first, "-stubs") + "/" + rest // a stub-only package (PEP 561) is the API of its package
		}
		if total += int(zf.UncompressedSize64); total > maxDistSource {
			return nil, fmt.Errorf("its Python files exceed %d MB", maxDistSource>>20)
		}
		b, err := readZip(zf, maxDistSource)
		if err != nil {
			return nil, err
		}
		d.files[name] = b
	}
	if topLevel != nil {
		for _, l := range strings.Split(string(topLevel), "\n") {
			if l = strings.TrimSpace(l); l != "" {
				d.tops = append(d.tops, strings.TrimSuffix(strings.ReplaceAll(l, "/", "."), "-stubs"))
			}
		}
	}
	if len(d.tops) == 0 {
		d.tops = topsOf(d.files)
	}
	return d, nil
}

func readZip(zf *zip.File, limit int64) ([]byte, error) {
	rc, err := zf.Open()
	if err != nil {
		return nil, err
	}
	defer rc.Close()
	return io.ReadAll(io.LimitReader(rc, limit))
}

// topsOf are the top-level import names of a tree of Python files:
// packages (first segments) and top-level modules.
func topsOf(files map[string][]byte) []string {
	seen := map[string]bool{}
	for rel := range files {
		first, _, isDir := strings.Cut(rel, "/")
		if !isDir {
			first = strings.TrimSuffix(strings.TrimSuffix(first, ".pyi"), ".py")
		}
		if !isDir && (first == "setup" || first == "conftest") || strings.Contains(first, ".") {
			continue
		}
		seen[first] = true
	}
	out := make([]string, 0, len(seen))
	for t := range seen {
		out = append(out, t)
	}
	sort.Strings(out)
	return out
}

// readSdist reads an sdist's Python files (its first folder stripped,
// then a src/ layout's src/) and takes the top-level names from them,
// leaving out tests, docs and examples.
func readSdist(p string) (*pyDist, error) {
	if strings.HasSuffix(p, ".zip") {
		return nil, errors.New("a zip sdist is not read (a wheel or a .tar.gz is)")
	}
	fh, err := os.Open(p)
	if err != nil {
		return nil, err
	}
	defer fh.Close()
	zr, err := gzip.NewReader(io.LimitReader(fh, maxDistFile))
	if err != nil {
		return nil, err
	}
	tr := tar.NewReader(zr)
	raw := map[string][]byte{}
	total := 0
	src := false
	for {
		h, err := tr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
		if !h.FileInfo().Mode().IsRegular() {
			continue
		}
		name := strings.TrimPrefix(path.Clean("/"+h.Name), "/")
		_, rel, ok := strings.Cut(name, "/")
		if !ok || !pySource(rel) {
			continue
		}
		if strings.HasPrefix(rel, "src/") {
			src = true
		}
		if total += int(h.Size); total > maxDistSource {
			return nil, fmt.Errorf("its Python files exceed %d MB", maxDistSource>>20)
		}
		b, err := io.ReadAll(io.LimitReader(tr, h.Size))
		if err != nil {
			return nil, err
		}
		raw[rel] = b
	}
	d := &pyDist{files: map[string][]byte{}}
	for rel, b := range raw {
		if src {
			var ok bool
			if rel, ok = strings.CutPrefix(rel, "src/"); !ok {
				continue
			}
		}
		first, _, _ := strings.Cut(rel, "/")
		switch first {
		case "tests", "test", "docs", "doc", "examples", "benchmarks", "scripts":
			continue
		}
		d.files[rel] = b
	}
	d.tops = topsOf(d.files)
	return d, nil
}
