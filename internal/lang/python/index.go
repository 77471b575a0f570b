package python

import (
	"bytes"
	"context"
	"fmt"
	"runtime"
	"strings"
	"sync"

	"github.com/ripple-dev/ripple/internal/gitio"
	"github.com/ripple-dev/ripple/internal/model"
)

// index holds the head state's Python files: the list of all of them,
// their module names, and the ones parsed so far. Files are parsed on
// demand: the grep candidates in parallel, then each module that name
// resolution reaches.
type index struct {
	ctx     context.Context
	tree    gitio.Tree
	mods    *modules
	all     []string
	ignored func(string) bool
	diag    func(model.Diagnostic)
	cache   *parseCache

	mu      sync.Mutex
	parsed  map[string]*pfile
	missing map[string]bool
}

func newIndex(ctx context.Context, t gitio.Tree, ignored func(string) bool, diag func(model.Diagnostic), cache *parseCache) (*index, error) {
	all, err := t.List(ctx, "*.py", "*.pyi")
	if err != nil {
		return nil, err
	}
	ix := &index{ctx: ctx, tree: t, ignored: ignored, diag: diag, cache: cache, parsed: map[string]*pfile{}, missing: map[string]bool{}}
	for _, p := range all {
		if ignored != nil && ignored(p) {
			continue
		}
		ix.all = append(ix.all, p)
	}
	ix.mods = newModules(ix.all)
	return ix, nil
}

// parse parses the given files concurrently (those not parsed yet) and
// returns them, in order, without the ones that could not be read.
func (ix *index) parse(paths []string) []*pfile {
	out := make([]*pfile, len(paths))
	var todo []int
	ix.mu.Lock()
	for i, p := range paths {
		if f, ok := ix.parsed[p]; ok {
			out[i] = f
		} else if !ix.missing[p] {
			todo = append(todo, i)
		}
	}
	ix.mu.Unlock()
	if len(todo) > 0 {
		want := make([]string, len(todo))
		for k, i := range todo {
			want[k] = paths[i]
		}
		data := ix.tree.ReadFiles(ix.ctx, want)
		work := make(chan int)
		var wg sync.WaitGroup
		for w := 0; w < runtime.GOMAXPROCS(0); w++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for i := range work {
					if src, ok := data[paths[i]]; ok {
						out[i] = ix.parseOne(paths[i], src)
					}
				}
			}()
		}
		for _, i := range todo {
			work <- i
		}
		close(work)
		wg.Wait()
		ix.mu.Lock()
		for _, i := range todo {
			if out[i] != nil {
				ix.parsed[paths[i]] = out[i]
			} else {
				ix.missing[paths[i]] = true
			}
		}
		ix.mu.Unlock()
	}
	res := out[:0:0]
	for _, f := range out {
		if f != nil {
			res = append(res, f)
		}
	}
	return res
}

// file returns the parsed file at p, parsing it if needed; nil if it is
// not a readable Python file of the head state.
func (ix *index) file(p string) *pfile {
	if p == "" || strings.HasSuffix(p, "/") {
		return nil
	}
	ix.mu.Lock()
	f, ok := ix.parsed[p]
	miss := ix.missing[p]
	ix.mu.Unlock()
	if ok || miss {
		return f
	}
	if !ix.mods.files[p] {
		return nil
	}
	fs := ix.parse([]string{p})
	if len(fs) == 0 {
		return nil
	}
	return fs[0]
}

func (ix *index) parseOne(p string, src []byte) *pfile {
	if len(src) > maxFileSize || bytes.IndexByte(src[:min(len(src), 8000)], 0) >= 0 {
		return nil
	}
	f, diag := ix.cache.get(p, src)
	if diag != nil && ix.diag != nil {
		ix.diag(*diag)
	}
	return f
}

// Stats: files parsed by the analyzer.
func (ix *index) parsedCount() int {
	ix.mu.Lock()
	defer ix.mu.Unlock()
	return len(ix.parsed)
}

// maxFileSize bounds what is parsed (generated tables, vendored blobs).
const maxFileSize = 4 << 20

// parseCache shares parsed files between the classifier's parse of the
// seed files and the analyzer's parse of the head state: a file with the
// same path and content is parsed once per check.
type parseCache struct {
	mu sync.Mutex
	m  map[string]*pfile
}

func newParseCache() *parseCache { return &parseCache{m: map[string]*pfile{}} }

func (c *parseCache) get(p string, src []byte) (*pfile, *model.Diagnostic) {
	key := fmt.Sprintf("%s\x00%d\x00%x", p, len(src), fnv(src))
	c.mu.Lock()
	f, ok := c.m[key]
	c.mu.Unlock()
	if ok {
		return f, nil
	}
	t := parse(src)
	f = summarize(p, t)
	c.mu.Lock()
	c.m[key] = f
	c.mu.Unlock()
	return f, parseDiag(p, t)
}

func fnv(b []byte) uint64 {
	h := uint64(14695981039346656037)
	for _, c := range b {
		h ^= uint64(c)
		h *= 1099511628211
	}
	return h
}

// parseDiag reports a file with syntax errors.
func parseDiag(p string, t *tree) *model.Diagnostic {
	if t.errors == 0 {
		return nil
	}
	if !parserAvailable {
		return &model.Diagnostic{Path: p, Message: noParserMessage, Partial: true}
	}
	msg := "does not parse (Python 3.12 grammar): syntax error"
	if t.errors > 1 {
		msg += fmt.Sprintf(" (and %d more)", t.errors-1)
	}
	return &model.Diagnostic{Path: p, Line: t.errLine, Message: msg + "; declarations and references inside the error are skipped", Partial: true}
}

// generated reports a file marked as generated in its first lines.
func generated(src []byte) bool {
	head := src[:min(len(src), 2000)]
	return bytes.Contains(head, []byte("DO NOT EDIT")) && (bytes.Contains(head, []byte("enerated")) || bytes.Contains(head, []byte("GENERATED")))
}

// parsedFiles returns the files parsed so far.
func (ix *index) parsedFiles() []*pfile {
	ix.mu.Lock()
	defer ix.mu.Unlock()
	out := make([]*pfile, 0, len(ix.parsed))
	for _, f := range ix.parsed {
		out = append(out, f)
	}
	return out
}
