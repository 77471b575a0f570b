package golang

import (
	"context"
	"strings"
	"sync"

	"github.com/ripple-dev/ripple/internal/lang"
	"github.com/ripple-dev/ripple/internal/model"
)

// Frontend is the Go front-end. Create one per check with New: it
// remembers the declarations it parsed so that analyzers can reach the
// syntax behind a change's blocks.
type Frontend struct {
	mu    sync.Mutex
	decls map[*model.Block]*lang.Decl
}

// New returns a Go front-end for one check.
func New() *Frontend { return &Frontend{decls: map[*model.Block]*lang.Decl{}} }

func (fe *Frontend) Name() string { return "go" }

func (fe *Frontend) Match(path string) bool { return strings.HasSuffix(path, ".go") }

func (fe *Frontend) Pathspecs() []string { return []string{"*.go"} }

func (fe *Frontend) Decls(path string, src []byte) ([]*lang.Decl, *model.Diagnostic) {
	ds, diag := decls(path, src)
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
	ix, err := newIndex(ctx, env.Head, env.Ignored, env.Diag)
	if err != nil {
		return nil, err
	}
	return &analyzer{fe: fe, env: env, ix: ix, syms: newSymbols()}, nil
}
