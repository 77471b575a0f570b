package fix

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/ripple-dev/ripple/internal/check"
	"github.com/ripple-dev/ripple/internal/corpus"
	"github.com/ripple-dev/ripple/internal/lang"
	"github.com/ripple-dev/ripple/internal/languages"
	"github.com/ripple-dev/ripple/internal/model"
	"github.com/ripple-dev/ripple/internal/oracle"
)

// The toy language proves that a language is one package: everything it
// needs lives in this file (its front-end, analyzer, block editor and
// oracle), and the check, the plan and the proof run it without any edit
// of the core. A toy file is a list of functions:
//
//	fn add(a, b)
//	  print(a)
//
// A body line calls a function; a call must pass as many arguments as
// the function has parameters.
type toyFrontend struct{}

var (
	toyFnRE   = regexp.MustCompile(`^fn (\w+)\(([^)]*)\)\s*$`)
	toyCallRE = regexp.MustCompile(`\b(\w+)\(([^)]*)\)`)
)

// toyFunc is a toy function's syntax: Block.Data of its declarations.
type toyFunc struct{ params []string }

func toyArgs(s string) []string {
	var out []string
	for _, a := range strings.Split(s, ",") {
		if a = strings.TrimSpace(a); a != "" {
			out = append(out, a)
		}
	}
	return out
}

func (toyFrontend) Name() string        { return "toy" }
func (toyFrontend) Match(p string) bool { return strings.HasSuffix(p, ".toy") }
func (toyFrontend) Pathspecs() []string { return []string{"*.toy"} }

func (toyFrontend) Decls(path string, src []byte) ([]*lang.Decl, *model.Diagnostic) {
	var out []*lang.Decl
	lines := strings.Split(string(src), "\n")
	for i, l := range lines {
		m := toyFnRE.FindStringSubmatch(l)
		if m == nil {
			if strings.HasPrefix(l, "fn") {
				return out, &model.Diagnostic{Path: path, Line: i + 1, Message: "does not parse", Partial: true}
			}
			continue
		}
		end := i + 1
		for end < len(lines) && strings.HasPrefix(lines[end], "  ") {
			end++
		}
		params := toyArgs(m[2])
		out = append(out, &lang.Decl{
			Block: model.Block{Lang: "toy", Kind: model.KindFunc, Path: path, Package: path, Name: m[1],
				Display: "fn " + m[1], Signature: l, Span: model.Span{StartLine: i + 1, EndLine: end}, NameLine: i + 1,
				Data: &toyFunc{params}},
			Sig: strings.Join(params, ","), Body: strings.Join(lines[i+1:end], "\n"),
		})
	}
	return out, nil
}

func (toyFrontend) Details(old, new *lang.Decl) []string {
	o, n := old.Data.(*toyFunc), new.Data.(*toyFunc)
	return []string{fmt.Sprintf("takes %d parameters instead of %d", len(n.params), len(o.params))}
}

func (toyFrontend) Escapes(_, _ *lang.Decl, _, _ func(int, int) bool) []string { return nil }

func (fe toyFrontend) NewAnalyzer(ctx context.Context, env *lang.Env) (lang.Analyzer, error) {
	c := corpus.New(corpus.Config[*toyFile]{
		Tree: env.Head, Pathspecs: fe.Pathspecs(), Diag: env.Diag,
		Parse: func(p string, src []byte) (*toyFile, bool, *model.Diagnostic) {
			ds, d := fe.Decls(p, src)
			return &toyFile{p, strings.Split(string(src), "\n"), ds}, true, d
		},
	})
	return &toyAnalyzer{c}, nil
}

type toyFile struct {
	path  string
	lines []string
	decls []*lang.Decl
}

type toyAnalyzer struct{ c *corpus.Corpus[*toyFile] }

// Answer finds the calls of a changed function and judges their
// argument count against its new parameters.
func (a *toyAnalyzer) Answer(ctx context.Context, qs []lang.Query) ([]*lang.Ref, error) {
	var out []*lang.Ref
	for _, q := range qs {
		if !q.Wants(model.CalledBy) || q.Change.New == nil {
			continue
		}
		name := q.Change.New.Name
		params := q.Change.New.Data.(*toyFunc).params
		files, err := a.c.Find(ctx, []string{name})
		if err != nil {
			return nil, err
		}
		for _, f := range files {
			for _, d := range f.decls {
				for ln := d.Span.StartLine + 1; ln <= d.Span.EndLine; ln++ {
					for _, m := range toyCallRE.FindAllStringSubmatch(f.lines[ln-1], -1) {
						if m[1] != name {
							continue
						}
						v, msg := model.Consistent, "the call binds"
						if n := len(toyArgs(m[2])); n != len(params) {
							v, msg = model.Inconsistent, fmt.Sprintf("call passes %d arguments; %s now takes %d", n, name, len(params))
						}
						out = append(out, &lang.Ref{Change: q.Change, Relation: model.CalledBy, Verdict: v, Precision: model.PrecisionSyntax, Message: msg,
							Site: model.Site{Path: f.path, Line: ln, Col: 1, Text: f.lines[ln-1], Enclosing: d.Display, EnclosingSpan: d.Span}})
					}
				}
			}
		}
	}
	return out, nil
}

// The toy front-end edits blocks (lang.BlockEditor)...
func (fe toyFrontend) CheckBlock(path string, src []byte, block string, from, to int) error {
	ds, d := fe.Decls(path, src)
	if d != nil {
		return fmt.Errorf("%s", d.Message)
	}
	for _, x := range ds {
		if x.Span.StartLine == from && x.Span.EndLine == to && x.Display == block {
			return nil
		}
	}
	return fmt.Errorf("lines %d-%d do not hold %s", from, to, block)
}
func (toyFrontend) SplitImports(code string) ([]string, string, error) { return nil, code, nil }
func (toyFrontend) AddImports(src []byte, _ []string) ([]byte, int, error) {
	return src, 0, nil
}
func (toyFrontend) IsComment(line string) bool {
	return strings.HasPrefix(strings.TrimSpace(line), ";")
}
func (toyFrontend) IsDirective(line string) bool { return false }

// ...and proves a state with its own checker (lang.Provable).
func (fe toyFrontend) Oracle([]string) oracle.Oracle { return toyOracle{fe} }

type toyOracle struct{ fe toyFrontend }

func (o toyOracle) Check(_ context.Context, dir string, _ oracle.Options) (*oracle.Result, error) {
	res := &oracle.Result{Pass: true, Ran: []string{"toycheck"}}
	files, _ := filepath.Glob(filepath.Join(dir, "*.toy"))
	arity := map[string]int{}
	srcs := map[string][]byte{}
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			return nil, err
		}
		srcs[filepath.Base(f)] = src
		ds, _ := o.fe.Decls(filepath.Base(f), src)
		for _, d := range ds {
			arity[d.Name] = len(d.Data.(*toyFunc).params)
		}
	}
	for p, src := range srcs {
		for i, l := range strings.Split(string(src), "\n") {
			if !strings.HasPrefix(l, "  ") {
				continue
			}
			for _, m := range toyCallRE.FindAllStringSubmatch(l, -1) {
				if n, ok := arity[m[1]]; ok && n != len(toyArgs(m[2])) {
					res.Pass = false
					res.Diagnostics = append(res.Diagnostics, oracle.Diagnostic{Path: p, Line: i + 1, Tool: "toycheck",
						Message: fmt.Sprintf("%s takes %d arguments", m[1], n)})
				}
			}
		}
	}
	return res, nil
}

const toyRepo = `
-- old/lib.toy --
fn add(a, b)
  print(a)
-- old/app.toy --
fn main()
  add(1, 2)
  print(3)
fn other()
  print(4)
-- new/lib.toy --
fn add(a, b, c)
  print(a)
`

// toyLanguage is the toy's entry in a registry of the test's own.
var toyLanguage = lang.Language{
	Name: "toy", Title: "Toy", Proof: "toycheck", Comment: "//", Extensions: []string{".toy"},
	New: func() lang.Frontend { return toyFrontend{} },
}

// TestToyLanguage adds a language in this file alone, one package and
// one registry entry (the toy's lang.Language beside the registry's),
// and runs it through the check (its stale caller found by the shared
// walk), the plan and the proof.
func TestToyLanguage(t *testing.T) {
	repo, sc := setup(t, toyRepo)
	withToy := func() lang.Set { return languages.SetOf(append(languages.All(), toyLanguage)) }
	res, err := check.Run(context.Background(), repo, check.Options{Base: sc.Base, Head: sc.Head, Frontends: withToy})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Changes) != 1 || res.Changes[0].Label != model.MMS || len(res.Findings) != 1 {
		t.Fatalf("changes %v findings %v: want the MMS of add and its one broken call", res.Changes, res.Findings)
	}
	if f := res.Findings[0]; f.Site.Path != "app.toy" || f.Site.Line != 2 || f.Level != model.LevelError || len(f.Trail) != 2 {
		t.Errorf("finding %+v", f)
	}
	s := &scripted{t: t, answer: func(block, prompt string, _ int) (int, string, time.Duration) {
		if block != "fn main" {
			t.Errorf("planned %s", block)
		}
		return 200, "```\nfn main()\n  add(1, 2, 0)\n  print(3)\n```", 0
	}}
	fres, err := Run(context.Background(), repo, Options{Base: sc.Base, Head: sc.Head, Model: modelFor(t, s, 5*time.Second, 0),
		Frontends: withToy, Oracle: languages.Oracle(lang.Set{toyFrontend{}}, nil), Rounds: 2})
	if err != nil {
		t.Fatal(err)
	}
	if !fres.Proven || !strings.Contains(fres.Patch, "+  add(1, 2, 0)") || fres.ByModel != 1 {
		logPlan(t, fres)
		t.Fatalf("proven %v, %d by the model, patch:\n%s", fres.Proven, fres.ByModel, fres.Patch)
	}
	if got := fres.Oracle.Ran; len(got) != 1 || got[0] != "toycheck" {
		t.Errorf("oracle ran %v, want the toy's own", got)
	}
}

// TestToyWithoutOracle: a language without an oracle of its own (no
// lang.Provable) is not proven by the others passing: the toy's edit is
// made, the oracle (of no language of the change) passes, and the run
// says that nothing judged the toy file.
func TestToyWithoutOracle(t *testing.T) {
	repo, sc := setup(t, toyRepo)
	// the toy's front-end and block editor, without its oracle
	type unprovable struct {
		lang.Frontend
		lang.BlockEditor
	}
	withToy := func() lang.Set {
		return append(languages.Frontends(), unprovable{toyFrontend{}, toyFrontend{}})
	}
	s := &scripted{t: t, answer: func(string, string, int) (int, string, time.Duration) {
		return 200, "```\nfn main()\n  add(1, 2, 0)\n  print(3)\n```", 0
	}}
	fres, err := Run(context.Background(), repo, Options{Base: sc.Base, Head: sc.Head, Model: modelFor(t, s, 5*time.Second, 0),
		Frontends: withToy, Oracle: oracle.All{}, Rounds: 2})
	if err != nil {
		t.Fatal(err)
	}
	if fres.ByModel != 1 || !strings.Contains(fres.Patch, "+  add(1, 2, 0)") {
		logPlan(t, fres)
		t.Fatalf("%d by the model, patch:\n%s", fres.ByModel, fres.Patch)
	}
	if fres.Proven {
		t.Errorf("proven by an oracle that judged no toy file")
	}
	if !slices.ContainsFunc(fres.Notes, func(n string) bool { return strings.Contains(n, "no oracle judges app.toy") }) {
		t.Errorf("notes %q: none says app.toy was not judged", fres.Notes)
	}
}
