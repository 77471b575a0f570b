package python

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"sync"

	"github.com/ripple-dev/ripple/internal/corpus"
	"github.com/ripple-dev/ripple/internal/gitio"
	"github.com/ripple-dev/ripple/internal/model"
)

// index holds the head state's Python files: the list of all of them,
// their module names, and the corpus that searches and parses them.
// Files are parsed on demand: the grep candidates in parallel, then each
// module that name resolution reaches.
type index struct {
	ctx  context.Context
	mods *modules
	all  []string
	*corpus.Corpus[*pfile]
}

func newIndex(ctx context.Context, t gitio.Tree, ignored func(string) bool, diag func(model.Diagnostic), cache *parseCache) (*index, error) {
	ix := &index{ctx: ctx}
	ix.Corpus = corpus.New(corpus.Config[*pfile]{
		Tree: t, Pathspecs: []string{"*.py", "*.pyi"}, Diag: diag,
		Usable: func(p string) bool { return ignored == nil || !ignored(p) },
		Parse: func(p string, src []byte) (*pfile, bool, *model.Diagnostic) {
			if len(src) > maxFileSize || bytes.IndexByte(src[:min(len(src), 8000)], 0) >= 0 {
				return nil, false, nil
			}
			f, d := cache.get(p, src)
			return f, true, d
		},
	})
	all, err := ix.All(ctx)
	if err != nil {
		return nil, err
	}
	ix.all = all
	ix.mods = newModules(ix.all)
	ix.mods.deps = declaredDeps(ctx, t)
	return ix, nil
}

// file returns the parsed file at p, parsing it if needed; nil if it is
// not a readable Python file of the head state.
func (ix *index) file(p string) *pfile {
	if p == "" || strings.HasSuffix(p, "/") {
		return nil
	}
	if f, ok := ix.Get(p); ok {
		return f
	}
	if !ix.mods.files[p] {
		return nil
	}
	fs, _ := ix.Parse(ix.ctx, []string{p})
	if len(fs) == 0 {
		return nil
	}
	return fs[0]
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
func (ix *index) parsedFiles() []*pfile { return ix.Files() }
