package python

import (
	"context"
	"strings"
	"sync"

	"github.com/ripple-dev/ripple/internal/lang"
	"github.com/ripple-dev/ripple/internal/model"
)

// noParserMessage is the diagnostic of every Python file in a binary
// built without cgo.
const noParserMessage = "Python file not analysed: this ripple binary was built with CGO_ENABLED=0 and the Python parser (tree-sitter) needs cgo; rebuild with CGO_ENABLED=1"

// Frontend is the Python front-end. Create one per check with New: it
// remembers the declarations it parsed so that analyzers can reach the
// syntax behind a change's blocks.
type Frontend struct {
	mu    sync.Mutex
	decls map[*model.Block]*lang.Decl
	cache *parseCache
}

// New returns a Python front-end for one check.
func New() *Frontend {
	return &Frontend{decls: map[*model.Block]*lang.Decl{}, cache: newParseCache()}
}

func (fe *Frontend) Name() string { return "python" }

func (fe *Frontend) Match(path string) bool {
	return strings.HasSuffix(path, ".py")
}

func (fe *Frontend) Pathspecs() []string { return []string{"*.py"} }

func (fe *Frontend) Decls(path string, src []byte) ([]*lang.Decl, *model.Diagnostic) {
	if !parserAvailable {
		return nil, &model.Diagnostic{Path: path, Message: noParserMessage, Partial: true}
	}
	f, diag := fe.cache.get(path, src)
	if diag == nil && f.t.errors > 0 {
		diag = parseDiag(path, f.t) // parsed earlier in this check: report for this state too
	}
	ds := decls(f)
	fe.mu.Lock()
	for _, d := range ds {
		fe.decls[&d.Block] = d
	}
	fe.mu.Unlock()
	return ds, diag
}

func (fe *Frontend) Details(old, new *lang.Decl) []string { return details(old, new) }

func (fe *Frontend) Escapes(old, new *lang.Decl, oldChanged, newChanged func(from, to int) bool) []string {
	return escapes(old, new, oldChanged, newChanged)
}

func (fe *Frontend) decl(b *model.Block) *lang.Decl {
	if b == nil {
		return nil
	}
	fe.mu.Lock()
	defer fe.mu.Unlock()
	return fe.decls[b]
}

func (fe *Frontend) NewAnalyzer(ctx context.Context, env *lang.Env) (lang.Analyzer, error) {
	if !parserAvailable {
		if env.Note != nil {
			env.Note("python-nocgo", "python: not analysed ("+noParserMessage+")")
		}
		return noAnalyzer{}, nil
	}
	ix, err := newIndex(ctx, env.Head, env.Ignored, env.Diag, fe.cache)
	if err != nil {
		return nil, err
	}
	return &analyzer{fe: fe, env: env, ix: ix, r: newResolver(ix), follows: map[*model.Change]*funcInfo{}}, nil
}

// noAnalyzer answers nothing: Python analysis is unavailable.
type noAnalyzer struct{}

func (noAnalyzer) Impacted(context.Context, []*model.Change) ([]*model.Finding, []*model.Change, error) {
	return nil, nil, nil
}
