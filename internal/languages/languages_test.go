package languages

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/ripple-dev/ripple/internal/lang"
	"github.com/ripple-dev/ripple/internal/testrepo"
)

// Every front-end whose blocks the fix engine edits can also quote
// them, so that the replay model of bench/fixbench answers in any
// language.
func TestEditorsQuote(t *testing.T) {
	for _, fe := range Frontends() {
		if _, ok := fe.(lang.BlockEditor); !ok {
			continue
		}
		if _, ok := fe.(lang.Quoter); !ok {
			t.Errorf("%s: a lang.BlockEditor that is no lang.Quoter", fe.Name())
		}
	}
}

// TestRegistryHoldsTheFacts holds each language's value to its front-end
// and to the lists kept elsewhere: its name is the front-end's, it owns
// each of its extensions, a scenario's want mark is written in its
// comment syntax (internal/testrepo), each tool it installs is pinned
// and locatable, and For and ByName find it.
func TestRegistryHoldsTheFacts(t *testing.T) {
	seen := map[string]bool{}
	for _, l := range All() {
		fe := l.New()
		if l.Name == "" || fe.Name() != l.Name || seen[l.Name] {
			t.Errorf("language %q: front-end named %q (or the name twice)", l.Name, fe.Name())
		}
		seen[l.Name] = true
		if l.Title == "" || l.Comment == "" || len(l.Extensions) == 0 || len(fe.Pathspecs()) == 0 {
			t.Errorf("%s: title %q, comment %q, extensions %v, pathspecs %v", l.Name, l.Title, l.Comment, l.Extensions, fe.Pathspecs())
		}
		if _, ok := fe.(lang.Provable); ok != (l.Proof != "") {
			t.Errorf("%s: an oracle %v, but Proof says %q", l.Name, ok, l.Proof)
		}
		for _, ext := range l.Extensions {
			p := "src/x" + ext
			if !fe.Match(p) {
				t.Errorf("%s: does not match its own %s", l.Name, p)
			}
			if got, ok := For(p); !ok || got.Name != l.Name {
				t.Errorf("For(%s) = %q, want %s", p, got.Name, l.Name)
			}
			if c := testrepo.CommentFor(p); c != l.Comment {
				t.Errorf("%s: testrepo reads want marks in %s after %q, the language comments with %q", l.Name, p, c, l.Comment)
			}
		}
		if got, ok := ByName(l.Name); !ok || got.Name != l.Name {
			t.Errorf("ByName(%s) = %q", l.Name, got.Name)
		}
		for _, tool := range l.Tools {
			if tool.Name == "" || tool.Version == "" || tool.Why == "" || tool.Locate == nil {
				t.Errorf("%s: tool %+v is not whole", l.Name, tool)
			}
		}
	}
	if _, ok := For("README.md"); ok {
		t.Error("a language owns README.md")
	}
	// the tools' folders of the user cache (hook tools lists each as
	// usercache.ToolDir(Name)) are the ones a hermetic test HOME keeps
	var names []string
	for _, tool := range Tools() {
		names = append(names, tool.Name)
	}
	if !slices.Equal(names, testrepo.Tools) {
		t.Errorf("the languages' tools are %q, testrepo.Tools %q: a hermetic test would install the others with npm again", names, testrepo.Tools)
	}
}

// TestNoLanguageNameOutside: a language's name is a literal only in its
// own package and the registry; the rest of the product asks the
// registry (For, ByName) or a block's Lang. The exceptions name
// something else that is spelled the same.
func TestNoLanguageNameOutside(t *testing.T) {
	allowed := map[string]string{
		"internal/action/harness/uses.go": "the go command's file name",
		"internal/testrepo/testrepo.go":   "the go command's file name; the typescript npm package's folder of the user cache (Tools)",
	}
	names := map[string]bool{}
	for _, l := range All() {
		names[strconv.Quote(l.Name)] = true
	}
	root := filepath.Join("..", "..")
	for _, top := range []string{"internal", "cmd"} {
		err := filepath.WalkDir(filepath.Join(root, top), func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			rel, _ := filepath.Rel(root, p)
			rel = filepath.ToSlash(rel)
			if d.IsDir() {
				if rel == "internal/lang" || rel == "internal/languages" || d.Name() == "testdata" {
					return filepath.SkipDir
				}
				return nil
			}
			if !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") || allowed[rel] != "" {
				return nil
			}
			f, err := parser.ParseFile(token.NewFileSet(), p, nil, parser.SkipObjectResolution)
			if err != nil {
				return err
			}
			ast.Inspect(f, func(n ast.Node) bool {
				if lit, ok := n.(*ast.BasicLit); ok && lit.Kind == token.STRING && names[lit.Value] {
					t.Errorf("%s: the language name %s as a literal (ask the registry)", rel, lit.Value)
				}
				return true
			})
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
}

// TestActionNamesCgoLanguages: action.yml builds Ripple with cgo when the
// runner has a C compiler and otherwise says which languages it cannot
// check; the languages it names are the registry's with a C parser, and
// the others are said to be checked.
func TestActionNamesCgoLanguages(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", "..", "action.yml"))
	if err != nil {
		t.Fatal(err)
	}
	var msg string
	for _, l := range strings.Split(string(b), "\n") {
		if strings.Contains(l, "are not checked on this runner") {
			msg = l
		}
	}
	if msg == "" {
		t.Fatal("action.yml has no line saying which languages a runner without a C compiler does not check")
	}
	notChecked, checked, _ := strings.Cut(msg, "are not checked")
	for _, l := range All() {
		for _, part := range strings.Split(l.Title, "/") {
			switch {
			case l.Cgo && !strings.Contains(notChecked, part):
				t.Errorf("action.yml does not name %s among the languages not checked without cgo: %s", part, msg)
			case !l.Cgo && !strings.Contains(checked, part+" is checked"):
				t.Errorf("action.yml does not say %s is checked without cgo: %s", part, msg)
			}
		}
	}
}
