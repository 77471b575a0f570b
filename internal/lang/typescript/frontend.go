package typescript

import (
	"context"
	"fmt"
	"sync"

	"github.com/ripple-dev/ripple/internal/lang"
	"github.com/ripple-dev/ripple/internal/model"
)

// noParserMessage is the diagnostic of every TypeScript or JavaScript
// file in a binary built without cgo.
const noParserMessage = "TypeScript/JavaScript file not analysed: this ripple binary was built with CGO_ENABLED=0 and the parser (tree-sitter) needs cgo; rebuild with CGO_ENABLED=1"

// Frontend is the TypeScript and JavaScript front-end. Create one per
// check with New: it caches the files it parsed, so that the
// classifier's parse of a seed file serves the analyzer too.
type Frontend struct {
	cache *parseCache
}

// New returns a TypeScript front-end for one check.
func New() *Frontend { return &Frontend{cache: newParseCache()} }

func (fe *Frontend) Name() string { return "typescript" }

func (fe *Frontend) Match(p string) bool { return !skippedPath(p) }

func (fe *Frontend) Pathspecs() []string { return pathspecs }

func (fe *Frontend) Decls(p string, src []byte) ([]*lang.Decl, *model.Diagnostic) {
	if !parserAvailable {
		return nil, &model.Diagnostic{Path: p, Message: noParserMessage, Partial: true}
	}
	if why := skippedContent(src); why != "" || generated(src) {
		return nil, nil // not a source: nothing to compare
	}
	f, diag := fe.cache.get(p, src)
	if diag == nil && f.t.errors > 0 {
		diag = parseDiag(p, f.t)
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
			env.Note("typescript-nocgo", "typescript: not analysed ("+noParserMessage+")")
		}
		return noAnalyzer{}, nil
	}
	return newAnalyzer(ctx, fe, env)
}

// noAnalyzer answers nothing: the analysis is unavailable.
type noAnalyzer struct{}

func (noAnalyzer) Answer(context.Context, []lang.Query) ([]*lang.Ref, error) { return nil, nil }

// parseCache shares parsed files between the classifier and the
// analyzer: a file with the same path and content is parsed once per
// check.
type parseCache struct {
	mu sync.Mutex
	m  map[string]*tsfile
}

func newParseCache() *parseCache { return &parseCache{m: map[string]*tsfile{}} }

func (c *parseCache) get(p string, src []byte) (*tsfile, *model.Diagnostic) {
	key := fmt.Sprintf("%s\x00%d\x00%x", p, len(src), fnv(src))
	c.mu.Lock()
	f, ok := c.m[key]
	c.mu.Unlock()
	if ok {
		return f, nil
	}
	t := parse(p, src)
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
	g := "TypeScript"
	if jsx(p) {
		g = "TSX"
	}
	msg := fmt.Sprintf("does not parse (%s grammar): syntax error", g)
	if t.errors > 1 {
		msg += fmt.Sprintf(" (and %d more)", t.errors-1)
	}
	return &model.Diagnostic{Path: p, Line: t.errLine, Message: msg + "; declarations and references inside the error are skipped", Partial: true}
}
