package golang

import (
	"bytes"
	"crypto/sha256"
	"encoding/gob"
	"os"
	"path/filepath"
	"sync"

	"github.com/ripple-dev/ripple/internal/gitio"
)

// The content key of a repository package needs the head of each of its
// files (package clause, imports, build constraints) and a digest of its
// content. Read from git and parsed for every file of every repository
// package a check loads, that was a tenth of a check on terraform (~2000
// files). A file of a commit is a blob whose id is already a digest of
// its content, so heads are kept by blob id in one file of the cache
// folder, read once per check and rewritten (atomically) when the check
// added heads. A work tree has no blob ids: its files are read and
// hashed as before.

// storedHead is what the head store keeps of a file.
type storedHead struct {
	PkgName string
	Imports []string
	// Hdr is the header go/build matches against a build configuration,
	// nil when it holds no build constraint and no import "C" (then
	// "package NAME" matches the same).
	Hdr []byte
}

// maxStoredHeads bounds the store: past it, a save keeps only the heads
// the check used.
const maxStoredHeads = 100000

type headStore struct {
	path string

	once  sync.Once
	mu    sync.Mutex
	m     map[string]storedHead
	used  map[string]bool
	added int
}

func newHeadStore(dir string) *headStore {
	return &headStore{path: filepath.Join(dir, "heads-v1"), used: map[string]bool{}}
}

func (s *headStore) load() {
	s.once.Do(func() {
		s.m = map[string]storedHead{}
		f, err := os.Open(s.path)
		if err != nil {
			return
		}
		defer f.Close()
		var m map[string]storedHead
		if gob.NewDecoder(f).Decode(&m) == nil {
			s.m = m
		}
	})
}

func (s *headStore) get(id string) (storedHead, bool) {
	s.load()
	s.mu.Lock()
	defer s.mu.Unlock()
	h, ok := s.m[id]
	if ok {
		s.used[id] = true
	}
	return h, ok
}

func (s *headStore) put(id string, h *fileHead) {
	s.load()
	sh := storedHead{PkgName: h.pkgName, Imports: h.imports}
	if bytes.Contains(h.hdr, []byte("+build")) || bytes.Contains(h.hdr, []byte("go:build")) || bytes.Contains(h.hdr, []byte(`"C"`)) {
		sh.Hdr = h.hdr
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, ok := s.m[id]; !ok {
		s.m[id] = sh
		s.added++
	}
	s.used[id] = true
}

// save writes the store if the check added heads.
func (s *headStore) save() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.added == 0 {
		return
	}
	m := s.m
	if len(m) > maxStoredHeads {
		m = map[string]storedHead{}
		for id := range s.used {
			m[id] = s.m[id]
		}
	}
	var buf bytes.Buffer
	if gob.NewEncoder(&buf).Encode(m) != nil {
		return
	}
	tmp, err := os.CreateTemp(filepath.Dir(s.path), "tmp-*")
	if err != nil {
		return
	}
	_, werr := tmp.Write(buf.Bytes())
	cerr := tmp.Close()
	if werr != nil || cerr != nil || os.Rename(tmp.Name(), s.path) != nil {
		os.Remove(tmp.Name())
		return
	}
	s.added = 0
}

// blobSum is the digest of a file known by its blob id.
func blobSum(id string) [32]byte { return sha256.Sum256([]byte("blob " + id)) }

// repoHeads returns the heads of repository files at paths, in the order
// given (files that do not parse are left out): from the head store by
// blob id where the tree is a commit's, else read and parsed.
func (l *loader) repoHeads(paths []string) []*fileHead {
	rt, ok := l.a.ix.tree.(*gitio.RevTree)
	if !ok || l.cache == nil {
		return l.a.ix.headsOf(l.a.ctx, paths)
	}
	heads := make([]*fileHead, len(paths))
	ids := make([]string, len(paths))
	var miss []string
	for i, p := range paths {
		id, ok := rt.BlobID(l.a.ctx, p)
		if !ok {
			miss = append(miss, p)
			continue
		}
		ids[i] = id
		if sh, ok := l.cache.heads.get(id); ok {
			hdr := sh.Hdr
			if hdr == nil {
				hdr = []byte("package " + sh.PkgName + "\n")
			}
			heads[i] = &fileHead{path: p, dir: dirOf(p), hdr: hdr, pkgName: sh.PkgName, imports: sh.Imports, sum: blobSum(id)}
		} else {
			miss = append(miss, p)
		}
	}
	if len(miss) > 0 {
		read := map[string]*fileHead{}
		for _, h := range l.a.ix.headsOf(l.a.ctx, miss) {
			read[h.path] = h
		}
		for i, p := range paths {
			h := read[p]
			if heads[i] != nil || h == nil {
				continue
			}
			c := *h
			if ids[i] != "" {
				c.sum = blobSum(ids[i])
				l.cache.heads.put(ids[i], &c)
			}
			heads[i] = &c
		}
	}
	out := heads[:0]
	for _, h := range heads {
		if h != nil {
			out = append(out, h)
		}
	}
	return out
}
