package typescript

import (
	"context"
	"sync"

	"github.com/ripple-dev/ripple/internal/corpus"
	"github.com/ripple-dev/ripple/internal/lang"
	"github.com/ripple-dev/ripple/internal/lang/treesit"
	"github.com/ripple-dev/ripple/internal/lang/typescript/tsc"
	"github.com/ripple-dev/ripple/internal/model"
	"github.com/ripple-dev/ripple/internal/oracle"
)

// Frontend is the TypeScript and JavaScript front-end. Create one per
// check with New: it caches the files it parsed, so that the
// classifier's parse of a seed file serves the analyzer too.
type Frontend struct {
	cache *corpus.Memo[*tsfile]
	// npm are the dependency bumps Bumps read (npm.go): the analyzer
	// resolves their packages' bare specifiers to the new versions'
	// declarations (npmvirtual.go)
	mu  sync.Mutex
	npm []*npmBump
}

// New returns a TypeScript front-end for one check.
func New() *Frontend {
	return &Frontend{cache: corpus.NewMemo(func(p string, src []byte) (*tsfile, *model.Diagnostic) {
		t := parse(p, src)
		return summarize(p, t), t.Diagnostic(p)
	})}
}

// Language is the TypeScript/JavaScript front-end as the registry
// (internal/languages) knows it.
var Language = lang.Language{
	Name:       "typescript",
	Title:      "TypeScript/JavaScript",
	Proof:      "tsc",
	New:        func() lang.Frontend { return New() },
	Comment:    "//",
	Extensions: exts,
	Cgo:        true,
	Tools: []lang.Tool{{
		Name: "typescript", Version: tsc.Version,
		Why:    "tsc (TypeScript 7): the type tier of `precision: types` and auto, and the oracle of fixes",
		Locate: func(ctx context.Context) (string, error) { return (&tsc.Compiler{}).Locate(ctx) },
	}},
}

func (fe *Frontend) Name() string { return "typescript" }

func (fe *Frontend) Match(p string) bool {
	return !skippedPath(p) || extOf(p) != "" && fe.bumpOf(p) != nil
}

func (fe *Frontend) Pathspecs() []string { return pathspecs }

func (fe *Frontend) Decls(p string, src []byte) ([]*lang.Decl, *model.Diagnostic) {
	if !treesit.Available {
		return nil, &model.Diagnostic{Path: p, Message: noCgo, Partial: true}
	}
	if why := skippedContent(src); why != "" || generated(src) {
		return nil, nil // not a source: nothing to compare
	}
	f, diag := fe.cache.Get(p, src)
	if diag == nil {
		diag = f.t.Diagnostic(p)
	}
	return decls(f), diag
}

func (fe *Frontend) NewAnalyzer(ctx context.Context, env *lang.Env) (lang.Analyzer, error) {
	if !treesit.Available {
		return lang.Unavailable(env, "typescript-nocgo", "typescript: not analysed ("+noCgo+")"), nil
	}
	return newAnalyzer(ctx, fe, env)
}

// Oracle is the TypeScript oracle (lang.Provable): tsc of TypeScript 7
// with --noEmit on the projects of the change's TypeScript and
// JavaScript files, installed with npm into the user cache when missing.
func (fe *Frontend) Oracle([]string) oracle.Oracle { return &tsc.Compiler{} }
