package python

import (
	"context"
	"strings"

	"github.com/ripple-dev/ripple/internal/corpus"
	"github.com/ripple-dev/ripple/internal/lang"
	"github.com/ripple-dev/ripple/internal/lang/python/pyright"
	"github.com/ripple-dev/ripple/internal/lang/treesit"
	"github.com/ripple-dev/ripple/internal/model"
	"github.com/ripple-dev/ripple/internal/oracle"
)

// grammar is tree-sitter-python, through the shared flat copy (treesit).
var grammar = &treesit.Grammar{
	Name: "tree-sitter-python", Root: "module", Label: "Python 3.12",
	NoCgo: treesit.NoCgoMessage("Python file", "the Python parser"),
	Load:  loadGrammar,
}

// Frontend is the Python front-end. Create one per check with New: it
// caches the files it parsed, so that the classifier's parse of a seed
// file serves the analyzer too.
type Frontend struct {
	cache     *corpus.Memo[*pfile]
	bumpState // the dependency bumps Bumps read (bump.go)
}

// New returns a Python front-end for one check.
func New() *Frontend {
	return &Frontend{cache: newMemo()}
}

// Language is the Python front-end as the registry (internal/languages)
// knows it.
var Language = lang.Language{
	Name:       "python",
	Title:      "Python",
	Proof:      "pyright",
	New:        func() lang.Frontend { return New() },
	Comment:    "#",
	Extensions: []string{".py"},
	Cgo:        true,
	Tools: []lang.Tool{{
		Name: "pyright", Version: pyright.Version,
		Why:    "the Python oracle of `hook fix` and the Action's fix mode",
		Locate: func(ctx context.Context) (string, error) { return (&pyright.Oracle{}).Locate(ctx) },
	}},
}

func (fe *Frontend) Name() string { return "python" }

// Match: Python sources and stubs (a stub is what a distribution
// declares its API in; the diff's pathspecs select sources only).
func (fe *Frontend) Match(path string) bool {
	return strings.HasSuffix(path, ".py") || strings.HasSuffix(path, ".pyi")
}

func (fe *Frontend) Pathspecs() []string { return []string{"*.py"} }

func (fe *Frontend) Decls(path string, src []byte) ([]*lang.Decl, *model.Diagnostic) {
	if !treesit.Available {
		return nil, &model.Diagnostic{Path: path, Message: grammar.NoCgo, Partial: true}
	}
	f, diag := fe.cache.Get(path, src)
	if diag == nil {
		diag = f.t.Diagnostic(path) // parsed earlier in this check: report for this state too
	}
	return decls(f), diag
}

func (fe *Frontend) NewAnalyzer(ctx context.Context, env *lang.Env) (lang.Analyzer, error) {
	if !treesit.Available {
		return lang.Unavailable(env, "python-nocgo", "python: not analysed ("+grammar.NoCgo+")"), nil
	}
	ix, err := newIndex(ctx, fe.headTree(env.Head), env.Ignored, env.Diag, fe.cache)
	if err != nil {
		return nil, err
	}
	ix.mods.depRoots = fe.bumpRoots()
	return &analyzer{fe: fe, env: env, ix: ix, r: newResolver(ix), mods: &moduleSeeds{env: env, ix: ix, modDone: map[string]bool{}},
		tier: tier{sites: map[*lang.Ref]*pysite{}, judged: map[string]*pyFile{}}}, nil
}

// newMemo returns the parse memo of one check: summarized files by path
// and content.
func newMemo() *corpus.Memo[*pfile] {
	return corpus.NewMemo(func(p string, src []byte) (*pfile, *model.Diagnostic) {
		t := grammar.Parse(src)
		return summarize(p, t), t.Diagnostic(p)
	})
}

// Oracle is pyright on the changed Python files (installed through npm
// when missing).
func (fe *Frontend) Oracle([]string) oracle.Oracle { return &pyright.Oracle{} }
