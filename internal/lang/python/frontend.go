package python

import (
	"context"
	"strings"

	"github.com/ripple-dev/ripple/internal/lang"
	"github.com/ripple-dev/ripple/internal/model"
	"github.com/ripple-dev/ripple/internal/oracle"
)

// noParserMessage is the diagnostic of every Python file in a binary
// built without cgo.
const noParserMessage = "Python file not analysed: this ripple binary was built with CGO_ENABLED=0 and the Python parser (tree-sitter) needs cgo; rebuild with CGO_ENABLED=1"

// Frontend is the Python front-end. Create one per check with New: it
// caches the files it parsed, so that the classifier's parse of a seed
// file serves the analyzer too.
type Frontend struct {
	cache *parseCache
}

// New returns a Python front-end for one check.
func New() *Frontend {
	return &Frontend{cache: newParseCache()}
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
	return decls(f), diag
}

func (fe *Frontend) Details(old, new *lang.Decl) []string { return details(old, new) }

func (fe *Frontend) Escapes(old, new *lang.Decl, oldChanged, newChanged func(from, to int) bool) []string {
	return escapes(old, new, oldChanged, newChanged)
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
	return &analyzer{fe: fe, env: env, ix: ix, r: newResolver(ix), modDone: map[string]bool{}}, nil
}

// noAnalyzer answers nothing: Python analysis is unavailable.
type noAnalyzer struct{}

func (noAnalyzer) Answer(context.Context, []lang.Query) ([]*lang.Ref, error) { return nil, nil }

// Oracle is pyright on the changed Python files (installed through npm
// when missing).
func (fe *Frontend) Oracle([]string) oracle.Oracle { return &oracle.Pyright{} }
