package fix

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"golang.org/x/tools/txtar"

	"github.com/ripple-dev/ripple/internal/gitio"
	"github.com/ripple-dev/ripple/internal/lang/golang/gobuild"
	"github.com/ripple-dev/ripple/internal/lang/python/pyright"
	"github.com/ripple-dev/ripple/internal/model"
	"github.com/ripple-dev/ripple/internal/oracle"
	"github.com/ripple-dev/ripple/internal/testrepo"
)

// scripted is an OpenAI-compatible chat server whose answers a test
// scripts per block (the prompt's ripple-block line names it).
type scripted struct {
	t       *testing.T
	mu      sync.Mutex
	answer  func(block, prompt string, call int) (status int, body string, delay time.Duration)
	calls   int
	prompts []string
}

var blockRE = regexp.MustCompile(`(?m)^ripple-block: path=(\S+) block=("(?:[^"\\]|\\.)*")`)

func (s *scripted) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost || r.URL.Path != "/v1/chat/completions" {
		s.t.Errorf("unexpected request %s %s", r.Method, r.URL.Path)
		http.Error(w, "not found", http.StatusNotFound)
		return
	}
	var req struct {
		Model    string `json:"model"`
		Messages []struct {
			Role    string `json:"role"`
			Content string `json:"content"`
		} `json:"messages"`
	}
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil || req.Model == "" || len(req.Messages) != 2 {
		s.t.Errorf("malformed chat request: %v %+v", err, req)
		http.Error(w, "bad request", http.StatusBadRequest)
		return
	}
	prompt := req.Messages[1].Content
	ms := blockRE.FindAllStringSubmatch(prompt, -1)
	if ms == nil {
		s.t.Errorf("prompt without a ripple-block line:\n%s", prompt)
		return
	}
	s.mu.Lock()
	s.calls++
	call := s.calls
	s.prompts = append(s.prompts, prompt)
	s.mu.Unlock()
	var status int
	var text string
	var delay time.Duration
	for _, m := range ms {
		block, err := strconv.Unquote(m[2])
		if err != nil {
			s.t.Errorf("prompt with a block name that is not quoted: %s", m[0])
			return
		}
		st, body, d := s.answer(block, prompt, call)
		status, delay = st, max(delay, d)
		if len(ms) == 1 {
			text = body
			break
		}
		// a batched review: a section per block (batchRule)
		text += "### " + block + "\n" + body + "\n"
		if st != http.StatusOK {
			break
		}
	}
	if delay > 0 {
		select {
		case <-time.After(delay):
		case <-r.Context().Done():
			return
		}
	}
	if status != http.StatusOK {
		w.Header().Set("Retry-After", "0")
		http.Error(w, `{"error":{"message":"scripted failure","type":"server_error"}}`, status)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(map[string]any{
		"id": "chatcmpl-test", "object": "chat.completion", "model": req.Model,
		"choices": []map[string]any{{"index": 0, "finish_reason": "stop",
			"message": map[string]any{"role": "assistant", "content": text}}},
		"usage": map[string]any{"prompt_tokens": len(prompt) / 4, "completion_tokens": len(text) / 4, "total_tokens": (len(prompt) + len(text)) / 4},
	})
}

// scale: Scale's parameter and result become float64; Use's return no
// longer type-checks and needs judgement (no mechanical fix).
const scale = scaleLib + `
-- old/app/app.go --
package app

import "example.com/m/num"

// Use doubles two.
func Use() int {
	return num.Scale(2)
}

func Keep() string { return "unrelated" }
`

// scaleLib is the seed alone: num.Scale moves from int to float64.
const scaleLib = `
-- old/go.mod --
module example.com/m

go 1.22
-- old/num/num.go --
package num

func Scale(x int) int { return 2 * x }
-- new/num/num.go --
package num

func Scale(x float64) float64 { return 2 * x }
`

const goodUse = "```go\n// Use doubles two.\nfunc Use() int {\n\treturn int(num.Scale(2))\n}\n```\n"

func setup(t *testing.T, archive string) (*gitio.Repo, *testrepo.Scenario) {
	t.Helper()
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("go not installed")
	}
	sc := testrepo.FromTxtar(t, txtar.Parse([]byte(archive)))
	repo, err := gitio.Open(context.Background(), sc.Dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { repo.Close() })
	return repo, sc
}

// logPlan logs each obligation of a run, for a failing test's reader.
func logPlan(t *testing.T, res *Result) {
	t.Helper()
	for _, o := range res.Obligations {
		t.Log(o.Describe())
	}
}

func modelFor(t *testing.T, s *scripted, timeout time.Duration, budget int) Model {
	srv := httptest.NewServer(s)
	t.Cleanup(srv.Close)
	m, err := NewOpenAI(ModelConfig{BaseURL: srv.URL + "/v1", Model: "scripted", APIKey: "test-key", Timeout: timeout, Budget: budget})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func run(t *testing.T, repo *gitio.Repo, sc *testrepo.Scenario, m Model) *Result {
	t.Helper()
	res, err := Run(context.Background(), repo, Options{Base: sc.Base, Head: sc.Head, Model: m,
		Oracle: &gobuild.Oracle{Env: []string{"GOPROXY=off", "GOFLAGS=-mod=mod"}}, Rounds: 2})
	if err != nil {
		t.Fatal(err)
	}
	if st := testrepo.Git(t, sc.Dir, "status", "--porcelain"); st != "" {
		t.Errorf("the run touched the work tree:\n%s", st)
	}
	if wt := testrepo.Git(t, sc.Dir, "worktree", "list"); strings.Count(wt, "\n") != 0 {
		t.Errorf("a scratch worktree was left behind:\n%s", wt)
	}
	return res
}

func TestModelEditProven(t *testing.T) {
	repo, sc := setup(t, scale)
	s := &scripted{t: t, answer: func(block, prompt string, _ int) (int, string, time.Duration) {
		if block != "func Use" {
			t.Errorf("unexpected block %q", block)
		}
		return 200, goodUse, 0
	}}
	res := run(t, repo, sc, modelFor(t, s, 5*time.Second, 0))
	if !res.Proven || res.ByModel != 1 || res.Mechanical != 0 {
		t.Fatalf("proven %v, by model %d, mechanical %d; notes %v; oracle %+v", res.Proven, res.ByModel, res.Mechanical, res.Notes, res.Oracle)
	}
	if !strings.Contains(res.Patch, "+\treturn int(num.Scale(2))") {
		t.Errorf("patch lacks the edit:\n%s", res.Patch)
	}
	// the reply's doc comment replaces the block's, it is not doubled
	if strings.Contains(res.Patch, "+// Use doubles two.") {
		t.Errorf("the doc comment was added again:\n%s", res.Patch)
	}
	if res.In == 0 || res.Out == 0 {
		t.Errorf("no token accounting: in %d out %d", res.In, res.Out)
	}
	// the prompt carries the temporal context (the seed's diff) and the
	// spatial context (the changed signature)
	p := s.prompts[0]
	for _, want := range []string{"-func Scale(x int) int", "+func Scale(x float64) float64", "func Scale(x float64) float64    // num/num.go", "return num.Scale(2)"} {
		if !strings.Contains(p, want) {
			t.Errorf("prompt lacks %q:\n%s", want, p)
		}
	}
	// Apply writes exactly the proven patch
	if err := Apply(context.Background(), repo, res.Patch); err != nil {
		t.Fatal(err)
	}
	if diff := testrepo.Git(t, sc.Dir, "diff", "--stat"); !strings.Contains(diff, "app/app.go") {
		t.Errorf("Apply did not write app/app.go: %s", diff)
	}
}

// TestBadModels: garbage, an edit outside the block and a timeout are
// refused; nothing unproven is produced and the tree is untouched.
func TestBadModels(t *testing.T) {
	cases := []struct {
		name     string
		answer   string
		delay    time.Duration
		rejected int
		note     string
	}{
		{"garbage", "I am sorry, I cannot do that.", 0, 1, "no longer parses"},
		{"empty fence", "```go\n```", 0, 1, "no code block"},
		{"unparsable", "```go\nfunc Use() int {\n\treturn int(num.Scale(2)\n}\n```", 0, 1, "no longer parses"},
		{"other declaration", "```go\nfunc Other() int { return 1 }\n```", 0, 1, "declares func Other, not func Use"},
		{"two declarations", "```go\nfunc Use() int { return 0 }\n\nfunc Extra() {}\n```", 0, 1, "holds 2 declarations"},
		{"timeout", goodUse, 3 * time.Second, 0, "no answer within"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			repo, sc := setup(t, scale)
			s := &scripted{t: t, answer: func(string, string, int) (int, string, time.Duration) { return 200, tc.answer, tc.delay }}
			res := run(t, repo, sc, modelFor(t, s, 300*time.Millisecond, 0))
			// the oracle round gives the block one more attempt
			if res.Proven || res.ByModel != 0 || res.Rejected < tc.rejected || tc.rejected == 0 && res.Rejected != 0 {
				t.Errorf("proven %v, by model %d, rejected %d (want at least %d)", res.Proven, res.ByModel, res.Rejected, tc.rejected)
			}
			if res.Patch != "" {
				t.Errorf("a refused edit reached the patch:\n%s", res.Patch)
			}
			found := false
			for _, o := range res.Obligations {
				found = found || strings.Contains(o.Note, tc.note)
			}
			if !found {
				logPlan(t, res)
				t.Errorf("no obligation says %q", tc.note)
			}
			// the oracle round plans the block again: reports list it once
			if bs := res.Blocks(); len(bs) != 1 || bs[0].Block != "func Use" || bs[0].Status != Failed {
				logPlan(t, res)
				t.Errorf("%d obligations make %d blocks, want the one failed func Use", len(res.Obligations), len(bs))
			}
		})
	}
}

// TestRetries: 429 and 503 answers are retried, then the edit succeeds.
func TestRetries(t *testing.T) {
	repo, sc := setup(t, scale)
	s := &scripted{t: t, answer: func(_, _ string, call int) (int, string, time.Duration) {
		switch call {
		case 1:
			return http.StatusTooManyRequests, "", 0
		case 2:
			return http.StatusServiceUnavailable, "", 0
		}
		return 200, goodUse, 0
	}}
	res := run(t, repo, sc, modelFor(t, s, 10*time.Second, 0))
	if !res.Proven || s.calls != 3 {
		t.Errorf("proven %v after %d calls, want proven after 3", res.Proven, s.calls)
	}
}

// TestTokenBudget: once the budget is spent no request is sent.
func TestTokenBudget(t *testing.T) {
	repo, sc := setup(t, scale+`-- new/app/app2.go --
package app

import "example.com/m/num"

func Use2() int { return num.Scale(3) }
`)
	s := &scripted{t: t, answer: func(string, string, int) (int, string, time.Duration) {
		return 200, "```go\nfunc Use2() int { return int(num.Scale(3)) }\n```", 0
	}}
	res := run(t, repo, sc, modelFor(t, s, 5*time.Second, 1))
	if s.calls != 1 {
		t.Errorf("%d requests with a budget of 1 token, want 1", s.calls)
	}
	budget := false
	for _, n := range res.Notes {
		budget = budget || strings.Contains(n, "budget")
	}
	if !budget {
		t.Errorf("no note about the budget: %v", res.Notes)
	}
}

// TestMechanicalWithoutModel: a rename is fixed and proven with no model
// at all.
func TestMechanicalWithoutModel(t *testing.T) {
	repo, sc := setup(t, `
-- old/go.mod --
module example.com/m

go 1.22
-- old/p/p.go --
package p

func Old(a int) int { return a }
-- old/q/q.go --
package q

import "example.com/m/p"

func Use() int { return p.Old(1) + p.Old(2) }
-- new/p/p.go --
package p

func New(a int) int { return a }
`)
	res := run(t, repo, sc, nil)
	if !res.Proven || res.Mechanical != 1 || res.ByModel != 0 {
		t.Fatalf("proven %v mechanical %d model %d; %v", res.Proven, res.Mechanical, res.ByModel, res.Oracle)
	}
	if !strings.Contains(res.Patch, "+func Use() int { return p.New(1) + p.New(2) }") {
		t.Errorf("patch:\n%s", res.Patch)
	}
}

// TestNeedsModel: without a model, what needs judgement is reported, not
// guessed.
func TestNeedsModel(t *testing.T) {
	repo, sc := setup(t, scale)
	res := run(t, repo, sc, nil)
	if res.Proven || res.Patch != "" {
		t.Errorf("proven %v patch %q", res.Proven, res.Patch)
	}
	if len(res.Obligations) != 1 || res.Obligations[0].Status != Failed || !strings.Contains(res.Obligations[0].Note, "needs a model") {
		logPlan(t, res)
		t.Errorf("want one failed obligation that needs a model")
	}
}

// TestModelAddsImport: a reply may open with the imports its block needs;
// they are added to the file (and nothing else outside the block moves).
func TestModelAddsImport(t *testing.T) {
	repo, sc := setup(t, scale)
	s := &scripted{t: t, answer: func(string, string, int) (int, string, time.Duration) {
		return 200, "```go\nimport \"math\"\n\n// Use doubles two.\nfunc Use() int {\n\treturn int(math.Round(num.Scale(2)))\n}\n```", 0
	}}
	res := run(t, repo, sc, modelFor(t, s, 5*time.Second, 0))
	if !res.Proven || res.ByModel != 1 {
		t.Fatalf("proven %v by model %d; %+v %v", res.Proven, res.ByModel, res.Oracle, res.Notes)
	}
	for _, want := range []string{"+\t\"math\"", "+\treturn int(math.Round(num.Scale(2)))"} {
		if !strings.Contains(res.Patch, want) {
			t.Errorf("patch lacks %q:\n%s", want, res.Patch)
		}
	}
}

// TestImportShiftsBlocksAbove: two blocks of one file need the model;
// the lower one is edited first and its reply adds an import, which
// moves the upper block down. The upper block is still found where it
// now is (it was replaced at its stale lines before).
func TestImportShiftsBlocksAbove(t *testing.T) {
	repo, sc := setup(t, scaleLib+`
-- old/app/app.go --
package app

import "example.com/m/num"

func First() int {
	return num.Scale(1)
}

func Second() int {
	return num.Scale(2)
}
`)
	s := &scripted{t: t, answer: func(block, _ string, _ int) (int, string, time.Duration) {
		switch block {
		case "func Second":
			return 200, "```go\nimport \"math\"\n\nfunc Second() int {\n\treturn int(math.Round(num.Scale(2)))\n}\n```", 0
		case "func First":
			return 200, "```go\nfunc First() int {\n\treturn int(num.Scale(1))\n}\n```", 0
		}
		t.Errorf("unexpected block %q", block)
		return 500, "", 0
	}}
	res := run(t, repo, sc, modelFor(t, s, 5*time.Second, 0))
	if !res.Proven || res.ByModel != 2 || res.Rejected != 0 {
		logPlan(t, res)
		t.Fatalf("proven %v by model %d rejected %d; %+v", res.Proven, res.ByModel, res.Rejected, res.Oracle)
	}
	for _, want := range []string{"+\treturn int(num.Scale(1))", "+\treturn int(math.Round(num.Scale(2)))", "+\t\"math\""} {
		if !strings.Contains(res.Patch, want) {
			t.Errorf("patch lacks %q:\n%s", want, res.Patch)
		}
	}
}

// TestPruneUnusedImport: the model's edit takes away the last use of an
// import; the oracle's "imported and not used" is settled mechanically.
func TestPruneUnusedImport(t *testing.T) {
	repo, sc := setup(t, scaleLib+`
-- old/app/app.go --
package app

import (
	"strconv"

	"example.com/m/num"
)

func Use() string {
	return strconv.Itoa(num.Scale(2))
}
`)
	s := &scripted{t: t, answer: func(string, string, int) (int, string, time.Duration) {
		return 200, "```go\nimport \"fmt\"\n\nfunc Use() string {\n\treturn fmt.Sprint(num.Scale(2))\n}\n```", 0
	}}
	res := run(t, repo, sc, modelFor(t, s, 5*time.Second, 0))
	if !res.Proven || res.ByModel != 1 {
		logPlan(t, res)
		t.Fatalf("proven %v by model %d; %+v %v", res.Proven, res.ByModel, res.Oracle, res.Notes)
	}
	if !strings.Contains(res.Patch, "-\t\"strconv\"") {
		t.Errorf("strconv not removed:\n%s", res.Patch)
	}
	noted := false
	for _, n := range res.Notes {
		noted = noted || strings.Contains(n, "left unused in app/app.go: strconv")
	}
	if !noted {
		t.Errorf("no note of the removal: %v", res.Notes)
	}
}

// TestPythonModelEdit: a Python caller is fixed by the model, the block
// validated by the Python front-end and the result proven by pyright.
func TestPythonModelEdit(t *testing.T) {
	needPyright(t)
	repo, sc := setup(t, `
-- old/pkg/__init__.py --
-- old/pkg/lib.py --
def scale(x: int) -> int:
    return 2 * x
-- old/pkg/use.py --
from pkg.lib import scale


def use() -> int:
    return scale(2)
-- new/pkg/lib.py --
def scale(x: int, factor: int) -> int:
    return factor * x
`)
	s := &scripted{t: t, answer: func(block, _ string, _ int) (int, string, time.Duration) {
		if block != "def use" {
			t.Errorf("unexpected block %q", block)
		}
		return 200, "```python\ndef use() -> int:\n    return scale(2, 2)\n```", 0
	}}
	res, err := Run(context.Background(), repo, Options{Base: sc.Base, Head: sc.Head, Model: modelFor(t, s, 5*time.Second, 0),
		Oracle: oracle.All{&gobuild.Oracle{}, &pyright.Oracle{}}, Rounds: 2})
	if err != nil {
		t.Fatal(err)
	}
	if !res.Proven || res.ByModel != 1 || !strings.Contains(res.Patch, "+    return scale(2, 2)") {
		logPlan(t, res)
		t.Fatalf("proven %v by model %d oracle %+v patch:\n%s", res.Proven, res.ByModel, res.Oracle, res.Patch)
	}
}

// TestPythonMechanical: a renamed function (two calls on one line) and a
// removed parameter in Python are fixed without a model, and the result
// is proven by pyright.
func TestPythonMechanical(t *testing.T) {
	needPyright(t)
	repo, sc := setup(t, `
-- old/pkg/__init__.py --
-- old/pkg/lib.py --
def scale(x: int) -> int:
    return 2 * x


def shift(x: int, verbose: bool) -> int:
    return x + 1
-- old/pkg/use.py --
from pkg.lib import scale, shift


def use() -> int:
    return scale(2) + scale(3)


def other() -> int:
    return shift(1, True) + shift(2, verbose=False)
-- new/pkg/lib.py --
def times(x: int) -> int:
    return 2 * x


def shift(x: int) -> int:
    return x + 1
`)
	res, err := Run(context.Background(), repo, Options{Base: sc.Base, Head: sc.Head,
		Oracle: oracle.All{&gobuild.Oracle{}, &pyright.Oracle{}}, Rounds: 2})
	if err != nil {
		t.Fatal(err)
	}
	if !res.Proven || res.ByModel != 0 || res.Mechanical == 0 {
		logPlan(t, res)
		t.Fatalf("proven %v mechanical %d by model %d oracle %+v patch:\n%s", res.Proven, res.Mechanical, res.ByModel, res.Oracle, res.Patch)
	}
	for _, want := range []string{"+from pkg.lib import times, shift", "+    return times(2) + times(3)", "+    return shift(1) + shift(2)"} {
		if !strings.Contains(res.Patch, want) {
			t.Errorf("patch lacks %q:\n%s", want, res.Patch)
		}
	}
}

// needPyright skips a test that needs the Python oracle when pyright is
// neither here nor installable (no npm, or npm's registry unreachable).
func needPyright(t *testing.T) {
	t.Helper()
	testrepo.UseTools(t, testrepo.PyrightTool)
	if _, err := (&pyright.Oracle{}).Locate(context.Background()); err != nil {
		t.Skipf("the Python oracle cannot run: %v", err)
	}
}

// TestPythonFileScope: calls at a module's top level are fixed
// mechanically as one obligation named for what it is, file scope, with
// the lines of its calls (it was an unnamed block at line 0: "(use.py:0)").
func TestPythonFileScope(t *testing.T) {
	repo, sc := setup(t, `
-- old/pkg/__init__.py --
-- old/pkg/lib.py --
def scale(x: int) -> int:
    return 2 * x
-- old/pkg/use.py --
from pkg import lib

SMALL = lib.scale(2)
LARGE = lib.scale(30)


def use() -> int:
    return lib.scale(3)
-- new/pkg/lib.py --
def times(x: int) -> int:
    return 2 * x
`)
	res, err := Run(context.Background(), repo, Options{Base: sc.Base, Head: sc.Head, Rounds: 1})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(res.Patch, "+SMALL = lib.times(2)\n+LARGE = lib.times(30)") {
		t.Errorf("patch:\n%s", res.Patch)
	}
	var top *Obligation
	for _, o := range res.Obligations {
		if o.Path == "pkg/use.py" && o.Block != "def use" {
			if top != nil {
				t.Errorf("two obligations at the top of pkg/use.py: %q and %q", top.Block, o.Block)
			}
			top = o
		}
	}
	if top == nil {
		logPlan(t, res)
		t.Fatal("no obligation for the module-level calls")
	}
	if top.Block != FileScope || top.Span != (model.Span{StartLine: 3, EndLine: 4}) || top.Status != Done || top.Method != "mechanical" {
		t.Errorf("block %q span %+v status %s by %q; want \"file scope\", lines 3-4, done mechanically", top.Block, top.Span, top.Status, top.Method)
	}
	d := top.Describe()
	if !strings.HasPrefix(d, "file scope of pkg/use.py (lines 3-4): done by mechanical") || strings.Contains(d, ":0)") {
		t.Errorf("described as:\n%s", d)
	}
}

// TestPythonMissingDefaults: a required parameter added to a Python
// function is named as a missing param_defaults entry when its calls are
// left unfixed; an optional one added with it is not (its calls bind).
func TestPythonMissingDefaults(t *testing.T) {
	repo, sc := setup(t, `
-- old/pkg/__init__.py --
-- old/pkg/lib.py --
def scale(x: int) -> int:
    return 2 * x
-- old/pkg/use.py --
from pkg.lib import scale


def use() -> int:
    return scale(2)
-- new/pkg/lib.py --
def scale(x: int, factor: int, verbose: bool = False) -> int:
    return factor * x
`)
	res, err := Run(context.Background(), repo, Options{Base: sc.Base, Head: sc.Head, Rounds: 1})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(res.MissingDefaults, ",") != "factor" {
		logPlan(t, res)
		t.Errorf("missing defaults %q, want [factor]", res.MissingDefaults)
	}
}

// TestMechanicalBuildVariant: a function renamed in the file of one set
// of builds is renamed at its callers and in its other build variant in
// one pass, and proven: the variant, left in the old form, is a warning
// of the check (its builds still compile while the callers use the old
// name), but renaming the callers alone would break the host's build.
func TestMechanicalBuildVariant(t *testing.T) {
	repo, sc := setup(t, `
-- old/go.mod --
module example.com/m

go 1.22
-- old/p/fs_linux.go --
package p

func openFile(name string) int { return 1 }
-- old/p/fs_other.go --
//go:build !linux

package p

func openFile(name string) int { return 2 }
-- old/p/p.go --
package p

func Open(name string) int { return openFile(name) }
-- new/p/fs_other.go --
//go:build !linux

package p

func openPortable(name string) int { return 2 }
`)
	res := run(t, repo, sc, nil)
	if !res.Proven || res.Mechanical < 2 {
		logPlan(t, res)
		t.Fatalf("proven %v mechanical %d; %v", res.Proven, res.Mechanical, res.Oracle)
	}
	for _, want := range []string{"+func openPortable(name string) int { return 1 }", "+func Open(name string) int { return openPortable(name) }"} {
		if !strings.Contains(res.Patch, want) {
			t.Errorf("patch lacks %q:\n%s", want, res.Patch)
		}
	}
}
