package gitio

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"sync"
	"sync/atomic"
)

// The whole-word search of a tree is done here, in one pass over the
// files, whatever the number of words: each file is cut into words and
// every word is looked up in a set. git grep -w -F restarts its search at
// every place a pattern occurs inside a longer word, so its cost grows
// with the number of patterns and their frequency (terraform, 167 words:
// 0.7 s and 1.3 CPU s, against 0.03 s for one pass here; a short, frequent
// word among 52 took black 80 s). A checked-out commit and the work tree
// are read from disk; a commit that is not checked out is narrowed first
// by git grep -F without -w (a fixed-string set search, which does not
// slow down like -w) and its candidates read from git.

// wordSet is the set of words of one search. Words made only of word
// characters (the usual: identifiers) are matched by cutting the text
// into words; others (a quoted import path) by substring, with git grep
// -w's rule: the match is bounded by non-word bytes or the text's ends.
type wordSet struct {
	plain map[string]struct{}
	odd   [][]byte
	// a word of the text is looked up only when a plain word has its
	// length (lens, bit n for length n; longer words share bit 63) and
	// its first byte: most words of code (err, nil, if, x) are neither,
	// and the lookup was half the search's time on terraform
	lens  uint64
	first [256]bool

	// for the word index (words.go): the plain words' hashes, sorted,
	// and each odd word's runs of word bytes
	hashes  []uint64
	oddRuns [][]uint64
}

// indexable reports whether the word index can decide the search: every
// odd word has a run of word bytes to look up.
func (ws *wordSet) indexable() bool {
	for _, r := range ws.oddRuns {
		if len(r) == 0 {
			return false
		}
	}
	return true
}

func newWordSet(words []string) *wordSet {
	ws := &wordSet{plain: map[string]struct{}{}}
	for _, w := range words {
		if w == "" {
			continue
		}
		if allWordBytes(w) {
			ws.plain[w] = struct{}{}
			ws.lens |= lenBit(len(w))
			ws.first[w[0]] = true
			ws.hashes = append(ws.hashes, wordHash([]byte(w)))
		} else {
			ws.odd = append(ws.odd, []byte(w))
			ws.oddRuns = append(ws.oddRuns, wordRuns([]byte(w)))
		}
	}
	slices.Sort(ws.hashes)
	return ws
}

func (ws *wordSet) empty() bool { return len(ws.plain) == 0 && len(ws.odd) == 0 }

func lenBit(n int) uint64 { return 1 << min(n, 63) }

// wordByte is git grep's word character: an ASCII letter, digit or '_'.
func wordByte(c byte) bool { return wordBytes[c] }

var wordBytes = func() (t [256]bool) {
	for c := 0; c < 256; c++ {
		t[c] = c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
	}
	return t
}()

func allWordBytes(w string) bool {
	for i := 0; i < len(w); i++ {
		if !wordByte(w[i]) {
			return false
		}
	}
	return true
}

// binary is git's test for a binary file (grep -I): a NUL byte in its
// first 8000 bytes.
func binary(b []byte) bool {
	return bytes.IndexByte(b[:min(len(b), 8000)], 0) >= 0
}

// in reports whether text holds one of the words as a whole word.
func (ws *wordSet) in(text []byte) bool {
	if binary(text) {
		return false
	}
	if len(ws.plain) > 0 {
		for i := 0; i < len(text); {
			if !wordBytes[text[i]] {
				i++
				continue
			}
			j := i + 1
			for j < len(text) && wordBytes[text[j]] {
				j++
			}
			if ws.first[text[i]] && ws.lens&lenBit(j-i) != 0 {
				if _, ok := ws.plain[string(text[i:j])]; ok {
					return true
				}
			}
			i = j
		}
	}
	for _, w := range ws.odd {
		for from := 0; ; {
			k := bytes.Index(text[from:], w)
			if k < 0 {
				break
			}
			s, e := from+k, from+k+len(w)
			if (s == 0 || !wordByte(text[s-1])) && (e == len(text) || !wordByte(text[e])) {
				return true
			}
			from = s + 1
		}
	}
	return false
}

// search reads each path with read (false: unreadable, skipped) and
// returns, sorted, those holding one of the words, on every core.
func (ws *wordSet) search(ctx context.Context, paths []string, read func(string) ([]byte, bool)) ([]string, error) {
	hit := make([]bool, len(paths))
	var next atomic.Int64
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), max(1, len(paths)/16)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := int(next.Add(1)) - 1
				if i >= len(paths) || ctx.Err() != nil {
					return
				}
				if b, ok := read(paths[i]); ok && ws.in(b) {
					hit[i] = true
				}
			}
		}()
	}
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	var out []string
	for i, p := range paths {
		if hit[i] {
			out = append(out, p)
		}
	}
	sort.Strings(out)
	return out, nil
}

// selectSpecs returns the paths selected by pathspecs (matchSpecs), all
// of them when there are none.
func selectSpecs(paths []string, pathspecs []string) []string {
	if len(pathspecs) == 0 {
		return paths
	}
	var out []string
	for _, p := range paths {
		if matchSpecs(pathspecs, p) {
			out = append(out, p)
		}
	}
	return out
}

// knownMagic reports whether every pathspec is one matchSpecs decides
// alone: plain ones and exclusions.
func knownMagic(pathspecs []string) bool {
	for _, ps := range pathspecs {
		if len(ps) > 2 && ps[0] == ':' && ps[1] == '(' && !bytes.HasPrefix([]byte(ps), []byte(":(exclude)")) && !bytes.HasPrefix([]byte(ps), []byte(":(exclude,glob)")) {
			return false
		}
	}
	return true
}

// Grep searches the commit's files. When the commit is the one checked
// out (the usual pre-push), the files the work tree holds unchanged are
// read from disk (the page cache, rather than inflating every blob) and
// the others from git.
func (t *RevTree) Grep(ctx context.Context, words []string, pathspecs ...string) ([]string, error) {
	ws := newWordSet(words)
	if ws.empty() {
		return nil, nil
	}
	if !knownMagic(pathspecs) {
		return grep(ctx, t.R, words, t.SHA, pathspecs, true)
	}
	dirty, files, wt := t.workTree(ctx)
	wt = wt && files
	if t.R.Words != nil && ws.indexable() {
		if err := t.load(ctx); err != nil {
			return nil, err
		}
		paths := selectSpecs(t.list, pathspecs)
		if wt || t.indexCovers(paths) {
			return t.indexed(ctx, ws, paths, wt, dirty)
		}
	}
	if wt {
		if err := t.load(ctx); err != nil {
			return nil, err
		}
		var clean, changed []string
		for _, p := range selectSpecs(t.list, pathspecs) {
			switch {
			case t.links[p]:
			case dirty[p]:
				changed = append(changed, p)
			default:
				clean = append(clean, p)
			}
		}
		fromGit, err := t.ReadFiles(ctx, changed)
		if err != nil && len(fromGit) == 0 && len(changed) > 0 {
			return nil, err
		}
		return ws.search(ctx, append(clean, changed...), func(p string) ([]byte, bool) {
			if b, ok := fromGit[p]; ok {
				return b, true
			}
			b, err := os.ReadFile(filepath.Join(t.R.Top, filepath.FromSlash(p)))
			return b, err == nil
		})
	}
	// not checked out: git narrows by fixed strings, the candidates are
	// read once and matched as whole words here
	cands, err := grep(ctx, t.R, words, t.SHA, pathspecs, false)
	if err != nil || len(cands) == 0 {
		return nil, err
	}
	data, err := t.ReadFiles(ctx, cands)
	if err != nil && len(data) == 0 {
		return nil, err
	}
	return ws.search(ctx, cands, func(p string) ([]byte, bool) {
		b, ok := data[p]
		return b, ok
	})
}

// Grep searches the files on disk, untracked files included.
func (t *WorkTree) Grep(ctx context.Context, words []string, pathspecs ...string) ([]string, error) {
	ws := newWordSet(words)
	if ws.empty() {
		return nil, nil
	}
	if !knownMagic(pathspecs) {
		return grep(ctx, t.R, words, "", pathspecs, true)
	}
	all, err := t.List(ctx)
	if err != nil {
		return nil, err
	}
	return ws.search(ctx, selectSpecs(all, pathspecs), func(p string) ([]byte, bool) {
		b, err := os.ReadFile(filepath.Join(t.R.Top, filepath.FromSlash(p)))
		return b, err == nil
	})
}
