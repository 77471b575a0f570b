package golang

import (
	"context"
	"strings"

	"github.com/ripple-dev/ripple/internal/lang"
	"github.com/ripple-dev/ripple/internal/lang/golang/gobuild"
	"github.com/ripple-dev/ripple/internal/model"
	"github.com/ripple-dev/ripple/internal/oracle"
)

// Frontend is the Go front-end. It keeps no state: the syntax behind a
// change's blocks travels in model.Block.Data.
type Frontend struct{}

// New returns the Go front-end.
func New() *Frontend { return &Frontend{} }

// Language is the Go front-end as the registry (internal/languages)
// knows it. Its oracle (go build, go vet) and type checker come with the
// go command; it installs nothing.
var Language = lang.Language{
	Name:       "go",
	Title:      "Go",
	Proof:      "go build, go vet",
	New:        func() lang.Frontend { return New() },
	Comment:    "//",
	Extensions: []string{".go"},
}

func (fe *Frontend) Name() string { return "go" }

func (fe *Frontend) Match(path string) bool { return strings.HasSuffix(path, ".go") }

func (fe *Frontend) Pathspecs() []string { return []string{"*.go"} }

func (fe *Frontend) Decls(path string, src []byte) ([]*lang.Decl, *model.Diagnostic) {
	return decls(path, src)
}

func (fe *Frontend) Details(old, new *lang.Decl) []string { return details(old, new) }

func (fe *Frontend) Escapes(old, new *lang.Decl, oldChanged, newChanged func(from, to int) bool) []string {
	return escapes(old, new, oldChanged, newChanged)
}

func (fe *Frontend) NewAnalyzer(ctx context.Context, env *lang.Env) (lang.Analyzer, error) {
	ix, err := newIndex(ctx, env.Head, env.Ignored, env.Diag)
	if err != nil {
		return nil, err
	}
	lint := &lintConfigs{read: func(ctx context.Context, p string) ([]byte, bool) {
		b, err := env.Head.ReadFile(ctx, p)
		return b, err == nil
	}}
	syms := newSymbols()
	impls := &implSearch{ctx: ctx, ix: ix, syms: syms, indexedDirs: map[string]bool{}}
	return &analyzer{fe: fe, env: env, ix: ix, syms: syms, ctx: ctx, impls: impls, lint: lint}, nil
}

// Oracle is the Go toolchain: go build ./..., go vet on the affected
// packages, and their tests on request.
func (fe *Frontend) Oracle(env []string) oracle.Oracle { return &gobuild.Oracle{Env: env} }
