package python

import (
	"bytes"
	"context"
	"strings"

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

func newIndex(ctx context.Context, t gitio.Tree, ignored func(string) bool, diag func(model.Diagnostic), cache *corpus.Memo[*pfile]) (*index, error) {
	ix := &index{ctx: ctx}
	ix.Corpus = corpus.New(corpus.Config[*pfile]{
		Tree: t, Pathspecs: []string{"*.py", "*.pyi"}, Diag: diag,
		Usable: func(p string) bool { return ignored == nil || !ignored(p) },
		Parse: func(p string, src []byte) (*pfile, bool, *model.Diagnostic) {
			if len(src) > maxFileSize || bytes.IndexByte(src[:min(len(src), 8000)], 0) >= 0 {
				return nil, false, nil
			}
			f, d := cache.Get(p, src)
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

// generated reports a file marked as generated in its first lines.
func generated(src []byte) bool {
	head := src[:min(len(src), 2000)]
	return bytes.Contains(head, []byte("DO NOT EDIT")) && (bytes.Contains(head, []byte("enerated")) || bytes.Contains(head, []byte("GENERATED")))
}

// parsedFiles returns the files parsed so far.
func (ix *index) parsedFiles() []*pfile { return ix.Files() }
