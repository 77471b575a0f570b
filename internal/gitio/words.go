package gitio

import (
	"bytes"
	"context"
	"crypto/sha256"
	le "encoding/binary"
	"encoding/hex"
	"hash/crc32"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"time"
)

// A search of a commit reads every file the pathspecs select, for every
// search of a check: on terraform's last 50 commits (1,900 Go files, a
// dozen searches) that was a fifth of the check's CPU and most of the
// garbage its collector swept. A file of a commit is a blob whose id
// names its content, so the words of each blob a search read are kept by
// that id in a WordIndex, one file per repository in the cache folder:
// a later search (the same check's next round, the next push) looks the
// words up and reads only the files that may hold a word the index
// cannot decide (a word with non-word bytes, matched as a substring).
//
// A file's words are kept as the sorted set of 64-bit FNV-1a hashes of
// its maximal runs of word bytes (wordByte). A plain word is in a file
// when its hash is in the set: a collision between two different words
// of a search and a file, 2^-64 a pair, is the index's one inexactness,
// and it makes a file a hit, never a miss. A word with other bytes is
// matched by git grep -w's rule, bounded by non-word bytes, so each of
// its own runs is a whole word of the text: a file lacking one of them
// cannot hold it, and the others are read and matched.

// WordIndex is the words of blobs by blob id. Its methods are safe for
// concurrent use; a nil *WordIndex is an index that knows nothing.
type WordIndex struct {
	path string

	once  sync.Once
	mu    sync.Mutex
	run   uint32 // this check's number: one more than the file's
	m     map[string]*wordEntry
	added int
}

type wordEntry struct {
	words []uint64 // sorted, distinct
	last  uint32   // the run that last used it
}

// keepRuns is how many checks an entry survives unused: a blob of a
// branch pushed a few times, of the base the branches share.
const keepRuns = 8

// wordsMagic starts the index file; the layout's version is in it.
const wordsMagic = "ripple-words-v1\n"

// WordsDir is the folder of the word indexes under the cache's root.
const WordsDir = "words"

// OpenWordIndex returns the word index of the repository whose git
// directory is gitDir (a linked worktree's: that of its repository), kept in dir (created when missing); nil when dir
// is "".
func OpenWordIndex(dir, gitDir string) *WordIndex {
	if dir == "" {
		return nil
	}
	if os.MkdirAll(dir, 0o755) != nil {
		return nil
	}
	// the worktrees of one repository share its objects, and one index
	if filepath.Base(filepath.Dir(gitDir)) == "worktrees" {
		gitDir = filepath.Dir(filepath.Dir(gitDir))
	}
	sum := sha256.Sum256([]byte(gitDir))
	return &WordIndex{path: filepath.Join(dir, hex.EncodeToString(sum[:12]))}
}

func (x *WordIndex) load() {
	x.once.Do(func() {
		x.m = map[string]*wordEntry{}
		b, err := os.ReadFile(x.path)
		if err != nil {
			return
		}
		if run, m, ok := decodeWords(b); ok {
			x.run, x.m = run, m
		}
		x.run++
	})
}

// get returns the words of blob id, when the index has them.
func (x *WordIndex) get(id string) ([]uint64, bool) {
	if x == nil || id == "" {
		return nil, false
	}
	x.load()
	x.mu.Lock()
	defer x.mu.Unlock()
	e, ok := x.m[id]
	if !ok {
		return nil, false
	}
	e.last = x.run
	return e.words, true
}

// knows reports whether the index has the words of blob id.
func (x *WordIndex) knows(id string) bool {
	if x == nil || id == "" {
		return false
	}
	x.load()
	x.mu.Lock()
	defer x.mu.Unlock()
	_, ok := x.m[id]
	return ok
}

// put keeps the words of blob id, whose content is text.
func (x *WordIndex) put(id string, text []byte) {
	if x == nil || id == "" {
		return
	}
	w := wordsOf(text)
	x.load()
	x.mu.Lock()
	defer x.mu.Unlock()
	if _, ok := x.m[id]; !ok {
		x.m[id] = &wordEntry{words: w, last: x.run}
		x.added++
	}
}

// Save writes the index when this check added to it, dropping the
// entries unused for keepRuns saved checks (a check that added nothing
// does not move the count on). The write is an atomic rename: of two checks saving
// at once, one's index stands, never a mix.
func (x *WordIndex) Save() {
	if x == nil {
		return
	}
	x.mu.Lock()
	defer x.mu.Unlock()
	if x.m == nil || x.added == 0 {
		return
	}
	for id, e := range x.m {
		if x.run-e.last > keepRuns {
			delete(x.m, id)
		}
	}
	b := encodeWords(x.run, x.m)
	tmp, err := os.CreateTemp(filepath.Dir(x.path), "tmp-*")
	if err != nil {
		return
	}
	_, werr := tmp.Write(b)
	cerr := tmp.Close()
	if werr != nil || cerr != nil || os.Rename(tmp.Name(), x.path) != nil {
		os.Remove(tmp.Name())
		return
	}
	x.added = 0
}

// TrimWords removes the word indexes in dir unused for maxAge.
func TrimWords(dir string, maxAge time.Duration) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	for _, e := range ents {
		if fi, err := e.Info(); err == nil && time.Since(fi.ModTime()) > maxAge {
			os.Remove(filepath.Join(dir, e.Name()))
		}
	}
}

// encodeWords lays the index out as: magic, run, entry count, then per
// entry the id's length and bytes, its last run, its word count and
// words (little endian), and a CRC-32C of all that before it.
func encodeWords(run uint32, m map[string]*wordEntry) []byte {
	n := len(wordsMagic) + 12
	for id, e := range m {
		n += 1 + len(id) + 8 + 8*len(e.words)
	}
	b := make([]byte, 0, n)
	b = append(b, wordsMagic...)
	b = le.LittleEndian.AppendUint32(b, run)
	b = le.LittleEndian.AppendUint32(b, uint32(len(m)))
	for id, e := range m {
		b = append(b, byte(len(id)))
		b = append(b, id...)
		b = le.LittleEndian.AppendUint32(b, e.last)
		b = le.LittleEndian.AppendUint32(b, uint32(len(e.words)))
		for _, w := range e.words {
			b = le.LittleEndian.AppendUint64(b, w)
		}
	}
	return le.LittleEndian.AppendUint32(b, crc32.Checksum(b, crcTable))
}

var crcTable = crc32.MakeTable(crc32.Castagnoli)

// decodeWords reads what encodeWords wrote; false when b is not whole.
func decodeWords(b []byte) (uint32, map[string]*wordEntry, bool) {
	if len(b) < len(wordsMagic)+12 || !bytes.HasPrefix(b, []byte(wordsMagic)) {
		return 0, nil, false
	}
	body, sum := b[:len(b)-4], le.LittleEndian.Uint32(b[len(b)-4:])
	if crc32.Checksum(body, crcTable) != sum {
		return 0, nil, false
	}
	p := body[len(wordsMagic):]
	run := le.LittleEndian.Uint32(p)
	count := int(le.LittleEndian.Uint32(p[4:]))
	p = p[8:]
	m := make(map[string]*wordEntry, count)
	// one backing array for every entry's words
	all := make([]uint64, 0, len(p)/8)
	for range count {
		if len(p) < 1 {
			return 0, nil, false
		}
		k := int(p[0])
		if len(p) < 1+k+8 {
			return 0, nil, false
		}
		id := string(p[1 : 1+k])
		last := le.LittleEndian.Uint32(p[1+k:])
		nw := int(le.LittleEndian.Uint32(p[5+k:]))
		p = p[9+k:]
		if nw < 0 || len(p) < 8*nw {
			return 0, nil, false
		}
		from := len(all)
		for i := range nw {
			all = append(all, le.LittleEndian.Uint64(p[8*i:]))
		}
		p = p[8*nw:]
		m[id] = &wordEntry{words: all[from:len(all):len(all)], last: last}
	}
	if len(p) != 0 {
		return 0, nil, false
	}
	return run, m, true
}

// wordHash is FNV-1a, 64 bits.
func wordHash(w []byte) uint64 {
	h := uint64(14695981039346656037)
	for _, c := range w {
		h ^= uint64(c)
		h *= 1099511628211
	}
	return h
}

// wordsOf is the sorted set of the hashes of text's word runs; none for
// a binary file, which a search never matches.
func wordsOf(text []byte) []uint64 {
	if binary(text) {
		return nil
	}
	out := wordRuns(text)
	slices.Sort(out)
	return slices.Clip(slices.Compact(out))
}

// wordRuns is the hashes of the maximal runs of word bytes of b, in order.
func wordRuns(b []byte) []uint64 {
	var out []uint64
	for i := 0; i < len(b); {
		if !wordBytes[b[i]] {
			i++
			continue
		}
		j := i + 1
		for j < len(b) && wordBytes[b[j]] {
			j++
		}
		out = append(out, wordHash(b[i:j]))
		i = j
	}
	return out
}

// indexVerdict is what the index says of a file for one search.
type indexVerdict int

const (
	indexNo    indexVerdict = iota // holds none of the words
	indexHit                       // holds a plain word
	indexMaybe                     // may hold an odd word: read it
)

// decide judges a file by its words. ws.indexable must hold.
func (ws *wordSet) decide(words []uint64) indexVerdict {
	// both sorted: one merge
	for i, j := 0, 0; i < len(ws.hashes) && j < len(words); {
		switch a, b := ws.hashes[i], words[j]; {
		case a == b:
			return indexHit
		case a < b:
			i++
		default:
			j = searchFrom(words, j, a)
		}
	}
	for _, runs := range ws.oddRuns {
		all := true
		for _, h := range runs {
			if _, ok := slices.BinarySearch(words, h); !ok {
				all = false
				break
			}
		}
		if all {
			return indexMaybe
		}
	}
	return indexNo
}

// searchFrom is the first index at or after j whose word is not below h.
func searchFrom(words []uint64, j int, h uint64) int {
	k, _ := slices.BinarySearch(words[j:], h)
	return j + k
}

// IndexWords adds the words of the files the pathspecs select to the
// word index (the warm-up after an install, so that the first push's
// searches read no file the index could decide).
func (t *RevTree) IndexWords(ctx context.Context, pathspecs ...string) error {
	if t.R.Words == nil {
		return nil
	}
	if err := t.load(ctx); err != nil {
		return err
	}
	dirty, files, wt := t.workTree(ctx)
	_, err := t.indexed(ctx, newWordSet(nil), selectSpecs(t.list, pathspecs), wt && files, dirty)
	return err
}

// indexCovers reports whether the index knows most of the files at
// paths (three in four): a commit that is not checked out is read from
// git, where inflating the blobs the index does not know costs more than
// git grep's narrowing when they are many.
func (t *RevTree) indexCovers(paths []string) bool {
	known := 0
	for _, p := range paths {
		if t.R.Words.knows(t.blobs[p]) {
			known++
		}
	}
	return 4*known >= 3*len(paths)
}

// indexed is the search of a commit's files through the word index:
// files the index knows are decided by their words, the others (and
// those that may hold an odd word) read and matched, from the work tree
// when it holds them unchanged (wt), else from git; the words of the
// files read are added to the index.
func (t *RevTree) indexed(ctx context.Context, ws *wordSet, paths []string, wt bool, dirty map[string]bool) ([]string, error) {
	x := t.R.Words
	var hits, toRead, fromGit []string
	for _, p := range paths {
		if t.links[p] {
			continue
		}
		words, known := x.get(t.blobs[p])
		if !known {
			toRead = append(toRead, p)
			if !wt || dirty[p] {
				fromGit = append(fromGit, p)
			}
			continue
		}
		switch ws.decide(words) {
		case indexHit:
			hits = append(hits, p)
		case indexMaybe:
			toRead = append(toRead, p)
			if !wt || dirty[p] {
				fromGit = append(fromGit, p)
			}
		}
	}
	var data map[string][]byte
	if len(fromGit) > 0 {
		var err error
		data, err = t.ReadFiles(ctx, fromGit)
		if err != nil && len(data) == 0 {
			return nil, err
		}
	}
	read, err := ws.search(ctx, toRead, func(p string) ([]byte, bool) {
		b, ok := data[p]
		if !ok {
			if !wt || dirty[p] {
				return nil, false // git could not read it
			}
			var err error
			if b, err = os.ReadFile(filepath.Join(t.R.Top, filepath.FromSlash(p))); err != nil {
				return nil, false
			}
		}
		if id := t.blobs[p]; !x.knows(id) {
			x.put(id, b)
		}
		return b, true
	})
	if err != nil {
		return nil, err
	}
	hits = append(hits, read...)
	slices.Sort(hits)
	return hits, nil
}
