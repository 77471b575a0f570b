package java

import (
	"context"
	"strings"
	"unicode/utf8"

	"github.com/ripple-dev/ripple/internal/corpus"
	"github.com/ripple-dev/ripple/internal/lang"
	"github.com/ripple-dev/ripple/internal/lang/java/javac"
	"github.com/ripple-dev/ripple/internal/lang/treesit"
	"github.com/ripple-dev/ripple/internal/model"
	"github.com/ripple-dev/ripple/internal/oracle"
)

// grammar is tree-sitter-java, through the shared flat copy (treesit).
var grammar = &treesit.Grammar{
	Name: "tree-sitter-java", Root: "program", Label: "Java 21",
	NoCgo: treesit.NoCgoMessage("Java file", "the Java parser"),
	Load:  loadGrammar,
}

// Frontend is the Java front-end. Create one per check with New: it
// caches the files it parsed, so that the classifier's parse of a seed
// file serves the analyzer too.
type Frontend struct {
	cache *corpus.Memo[*jfile]
}

// New returns a Java front-end for one check.
func New() *Frontend { return &Frontend{cache: newMemo()} }

// Language is the Java front-end as the registry (internal/languages)
// knows it. Its oracle is javac (package javac).
var Language = lang.Language{
	Name:       "java",
	Title:      "Java",
	Proof:      "javac",
	New:        func() lang.Frontend { return New() },
	Comment:    "//",
	Extensions: []string{".java"},
	Cgo:        true,
}

func (fe *Frontend) Name() string { return "java" }

// Oracle is javac on the modules holding the change's Java files and
// those depending on them (javac.Compiler.Check); env is added to
// javac's environment.
func (fe *Frontend) Oracle(env []string) oracle.Oracle { return &javac.Compiler{Env: env} }

func (fe *Frontend) Match(path string) bool { return strings.HasSuffix(path, ".java") }

func (fe *Frontend) Pathspecs() []string { return []string{"*.java"} }

func (fe *Frontend) Decls(path string, src []byte) ([]*lang.Decl, *model.Diagnostic) {
	if !treesit.Available {
		return nil, &model.Diagnostic{Path: path, Message: grammar.NoCgo, Partial: true}
	}
	f, diag := fe.cache.Get(path, src)
	if diag == nil {
		diag = f.t.Diagnostic(path)
	}
	return decls(f), diag
}

func (fe *Frontend) NewAnalyzer(ctx context.Context, env *lang.Env) (lang.Analyzer, error) {
	if !treesit.Available {
		return lang.Unavailable(env, "java-nocgo", "java: not analysed ("+grammar.NoCgo+")"), nil
	}
	ix, err := newIndex(ctx, env.Head, env.Ignored, env.Diag, fe.cache)
	if err != nil {
		return nil, err
	}
	return newAnalyzer(fe, env, ix), nil
}

// newMemo returns the parse memo of one check: summarized files by path
// and content. A file that is not UTF-8 is still read (Java sources in
// Latin-1 exist), with a diagnostic: names outside ASCII may not match.
func newMemo() *corpus.Memo[*jfile] {
	return corpus.NewMemo(func(p string, src []byte) (*jfile, *model.Diagnostic) {
		t := grammar.Parse(src)
		d := t.Diagnostic(p)
		if d == nil && !utf8.Valid(src) {
			d = &model.Diagnostic{Path: p, Message: "not valid UTF-8: read byte by byte; names outside ASCII may not match their uses"}
		}
		return summarize(p, t), d
	})
}
