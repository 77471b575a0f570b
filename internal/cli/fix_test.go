package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"net"
	"os/exec"
	"regexp"
	"sort"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"

	"github.com/ripple-dev/ripple/internal/fix"
	"github.com/ripple-dev/ripple/internal/model"
	"github.com/ripple-dev/ripple/internal/oracle"
	"github.com/ripple-dev/ripple/internal/testrepo"
)

// renamed is a Go change whose one caller is fixed mechanically: Old
// becomes New.
const renamed = `
-- old/go.mod --
module example.com/m

go 1.22
-- old/p/p.go --
package p

func Old(a int) int { return a }
-- old/q/q.go --
package q

import "example.com/m/p"

func Use() int { return p.Old(1) }
-- new/p/p.go --
package p

func New(a int) int { return a }
`

// fixRepo builds a repository from an archive for hook fix, with no
// model configured and the go command kept off the network.
func fixRepo(t *testing.T, archive string) *testrepo.Scenario {
	t.Helper()
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("go not installed")
	}
	// the oracle builds and vets: share the build cache of the process
	// running the tests, or the fresh HOME would compile the standard
	// library afresh
	cache, err := exec.Command("go", "env", "GOCACHE").Output()
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv("GOCACHE", strings.TrimSpace(string(cache)))
	sc := testrepo.FromTxtar(t, txtar.Parse([]byte(archive)))
	for _, k := range []string{"RIPPLE_LLM_BASE_URL", "RIPPLE_LLM_MODEL", "RIPPLE_LLM_API_KEY", "OPENAI_API_KEY"} {
		t.Setenv(k, "")
	}
	t.Setenv("GOPROXY", "off")
	t.Setenv("GOFLAGS", "-mod=mod")
	t.Setenv("GOTOOLCHAIN", "local")
	return sc
}

// runFixCmd runs `hook -C dir fix -base BASE args...`.
func runFixCmd(t *testing.T, sc *testrepo.Scenario, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	all := append([]string{"-C", sc.Dir, "fix", "-base", sc.Base}, args...)
	code = Run(context.Background(), all, strings.NewReader(""), &out, &errb)
	return code, out.String(), errb.String()
}

var snakeKey = regexp.MustCompile(`^[a-z][a-z0-9]*(_[a-z0-9]+)*$`)

// jsonKeys collects every object key of a decoded JSON value, with the
// path where it occurs.
func jsonKeys(v any, at string, out map[string]string) {
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			if _, seen := out[k]; !seen {
				out[k] = at + "." + k
			}
			jsonKeys(e, at+"."+k, out)
		}
	case []any:
		for _, e := range x {
			jsonKeys(e, at+"[]", out)
		}
	}
}

// TestFixJSONKeys: every key of hook fix -json is lower snake_case (the
// result and the oracle's verdict had Go's field names: Base, ByModel,
// Pass, ...).
func TestFixJSONKeys(t *testing.T) {
	sc := fixRepo(t, renamed)
	code, stdout, stderr := runFixCmd(t, sc, "-json")
	if code != ExitOK {
		t.Fatalf("exit %d, want %d; stderr:\n%s", code, ExitOK, stderr)
	}
	var v map[string]any
	if err := json.Unmarshal([]byte(stdout), &v); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, stdout)
	}
	var top []string
	for k := range v {
		top = append(top, k)
	}
	sort.Strings(top)
	want := "base by_model head mechanical obligations oracle patch proven rejected rounds seed tokens_in tokens_out"
	if got := strings.Join(top, " "); got != want {
		t.Errorf("top-level keys:\n got %s\nwant %s", got, want)
	}
	oracle, _ := v["oracle"].(map[string]any)
	for _, k := range []string{"pass", "diagnostics", "took_ns", "ran"} {
		if _, ok := oracle[k]; !ok {
			t.Errorf("the oracle's verdict has no key %q: %v", k, oracle)
		}
	}
	keys := map[string]string{}
	jsonKeys(v, "", keys)
	for k, at := range keys {
		if !snakeKey.MatchString(k) {
			t.Errorf("key %q (at %s) is not lower snake_case", k, at)
		}
	}
	if v["proven"] != true || v["mechanical"] != float64(1) {
		t.Errorf("proven %v, mechanical %v; want true, 1", v["proven"], v["mechanical"])
	}
}

// TestFixFormat: -format json prints the plan as JSON, like -json (fix
// took -format from the config flags and printed text); -format sarif
// and -json with -format text are refused; the config file's format
// (sarif here, for check's report) does not change fix's output.
func TestFixFormat(t *testing.T) {
	sc := fixRepo(t, renamed+`-- old/.ripple.yaml --
version: 1
format: sarif
`)
	decode := func(args ...string) map[string]any {
		t.Helper()
		code, stdout, stderr := runFixCmd(t, sc, args...)
		if code != ExitOK {
			t.Fatalf("%v: exit %d; stderr:\n%s", args, code, stderr)
		}
		var v map[string]any
		if err := json.Unmarshal([]byte(stdout), &v); err != nil {
			t.Fatalf("%v: not JSON: %v\n%s", args, err, stdout)
		}
		return v
	}
	byFlag, byFormat := decode("-json"), decode("-format", "json")
	decode("-json", "-format=json")
	if byFlag["patch"] == "" || byFlag["patch"] != byFormat["patch"] || byFlag["proven"] != byFormat["proven"] {
		t.Errorf("-json and -format json differ: patch %q / %q, proven %v / %v", byFlag["patch"], byFormat["patch"], byFlag["proven"], byFormat["proven"])
	}

	code, stdout, stderr := runFixCmd(t, sc)
	if code != ExitOK || !strings.HasPrefix(stdout, "1. func Use (q/q.go:") || strings.Contains(stdout, "$schema") {
		t.Errorf("with format: sarif in the config file: exit %d, want text; stdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	code, stdout, _ = runFixCmd(t, sc, "-format", "text")
	if code != ExitOK || !strings.HasPrefix(stdout, "1. ") {
		t.Errorf("-format text: exit %d; stdout:\n%s", code, stdout)
	}

	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"-format", "sarif"}, "ripple: -format sarif: hook fix prints its plan as text or json"},
		{[]string{"-json", "-format", "text"}, "ripple: -json and -format text contradict each other"},
	} {
		code, stdout, stderr := runFixCmd(t, sc, tc.args...)
		if code != ExitFailure || !strings.Contains(stderr, tc.want) || stdout != "" {
			t.Errorf("%v: exit %d, stderr %q, stdout %q; want exit %d and %q", tc.args, code, stderr, stdout, ExitFailure, tc.want)
		}
	}
}

// TestPrintPlanBlockOnce: a block planned again in a later round (the
// oracle still reported it) is listed once, as it ended, with the
// tokens of both attempts; it was listed once per round.
func TestPrintPlanBlockOnce(t *testing.T) {
	trail := []model.Step{{Display: "func Scale", Path: "num/num.go", Line: 3}, {Relation: model.CalledBy, Display: "func Use", Path: "app/app.go", Line: 7}}
	use1 := &fix.Obligation{ID: 1, Path: "app/app.go", Block: "func Use", Span: model.Span{StartLine: 6, EndLine: 8}, Round: 1,
		Status: fix.Failed, Method: "model", Note: "rejected: the reply has no code block", In: 100, Out: 10,
		Reasons: []fix.Reason{{Message: "cannot use num.Scale(2) (value of type float64) as int value in return statement", Line: 7, Must: true, Trail: trail}}}
	two := &fix.Obligation{ID: 2, Path: "app/app.go", Block: "func Two", Span: model.Span{StartLine: 10, EndLine: 10}, Round: 1,
		Status: fix.Done, Method: "mechanical", Reasons: []fix.Reason{{Message: "calls Old, which was renamed to New", Line: 10, Must: true}}}
	d := oracle.Diagnostic{Path: "app/app.go", Line: 7, Tool: "build", Message: "cannot use num.Scale(2) (value of type float64) as int value in return statement"}
	use2 := &fix.Obligation{ID: 3, Path: "app/app.go", Block: "func Use", Span: model.Span{StartLine: 6, EndLine: 8}, Round: 2,
		Status: fix.Failed, Method: "model", Note: "the model returned the block unchanged", In: 50, Out: 5,
		Reasons: []fix.Reason{{Message: "build: " + d.Message, Line: 7, Oracle: &d, Must: true}}}
	var b strings.Builder
	printPlan(&b, &fix.Result{Obligations: []*fix.Obligation{use1, two, use2}, Rounds: 2})
	out := b.String()
	if n := strings.Count(out, "func Use ("); n != 1 {
		t.Errorf("func Use listed %d times, want once:\n%s", n, out)
	}
	for _, want := range []string{
		"1. func Use (app/app.go:6): failed by model, 150 tokens in, 15 out: the model returned the block unchanged\n" +
			"    because cannot use num.Scale(2) (value of type float64) as int value in return statement\n" +
			"    path: func Scale → called by func Use\n",
		"2. func Two (app/app.go:10): done by mechanical\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks\n%s\nin\n%s", want, out)
		}
	}
	if strings.Contains(out, "3. ") || strings.Contains(out, "build: cannot use") {
		t.Errorf("a block's second round is listed, or its reason repeated:\n%s", out)
	}
}

// TestFixDeadModelEndpoint: with a model endpoint that refuses
// connections, hook fix says so once, naming the URL and the cause,
// still prints the mechanical fix, and exits as when blocks stay
// unfixed (it retried the same error for three rounds, ~25 s).
func TestFixDeadModelEndpoint(t *testing.T) {
	sc := fixRepo(t, `
-- old/go.mod --
module example.com/m

go 1.22
-- old/p/p.go --
package p

func Scale(x int) int { return 2 * x }

func Old(a int) int { return a }
-- old/q/q.go --
package q

import "example.com/m/p"

func Use() int { return p.Scale(2) }

func Two() int { return p.Scale(3) }

func Renamed() int { return p.Old(1) }
-- new/p/p.go --
package p

func Scale(x float64) float64 { return 2 * x }

func New(a int) int { return a }
`)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	url := "http://" + ln.Addr().String() + "/v1"
	ln.Close()
	t.Setenv("RIPPLE_LLM_BASE_URL", url)
	t.Setenv("RIPPLE_LLM_MODEL", "m")
	code, stdout, stderr := runFixCmd(t, sc)
	if code != ExitFindings {
		t.Errorf("exit %d, want %d", code, ExitFindings)
	}
	msg := "ripple: model endpoint " + url + " unreachable: "
	if n := strings.Count(stderr, msg); n != 1 || strings.Contains(stdout, msg) {
		t.Errorf("%q %d times on stderr, want once (and not on stdout); stderr:\n%s\nstdout:\n%s", msg, n, stderr, stdout)
	}
	if !regexp.MustCompile(regexp.QuoteMeta(msg) + `.*refused.*; mechanical fixes only\n`).MatchString(stderr) {
		t.Errorf("the message does not name the cause and the consequence:\n%s", stderr)
	}
	for _, want := range []string{"+func Renamed() int { return p.New(1) }", "1 blocks edited mechanically", "; 1 rounds\n",
		"func Use (q/q.go:5): failed: needs the model, whose endpoint is unreachable"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("stdout lacks %q:\n%s", want, stdout)
		}
	}
}

// TestFixParamDefaultsHint: calls that lack a value for a parameter the
// change added, left unfixed without a model, come with the hint of the
// flag that fixes them mechanically, naming the parameter; given the
// flag, the calls are fixed and the hint is gone.
func TestFixParamDefaultsHint(t *testing.T) {
	sc := fixRepo(t, `
-- old/go.mod --
module example.com/m

go 1.22
-- old/p/p.go --
package p

func Get(id int) int { return id }
-- old/q/q.go --
package q

import "example.com/m/p"

func Use() int { return p.Get(1) }

func Two() int { return p.Get(2) }
-- new/p/p.go --
package p

import "context"

func Get(ctx context.Context, id int) int { _ = ctx; return id }
`)
	code, stdout, _ := runFixCmd(t, sc, "-no-model")
	hint := "hint: calls lack a value for the added parameter ctx; pass -param-defaults ctx=EXPR to fix these calls mechanically\n"
	if code != ExitFindings || strings.Count(stdout, hint) != 1 {
		t.Errorf("exit %d, want %d and once %q; stdout:\n%s", code, ExitFindings, hint, stdout)
	}
	code, stdout, _ = runFixCmd(t, sc, "-no-model", "-json")
	var v struct {
		Missing []string `json:"missing_param_defaults"`
	}
	if err := json.Unmarshal([]byte(stdout), &v); err != nil || code != ExitFindings || strings.Join(v.Missing, ",") != "ctx" {
		t.Errorf("-json: exit %d, missing_param_defaults %q (%v), want [ctx]", code, v.Missing, err)
	}
	code, stdout, stderr := runFixCmd(t, sc, "-no-model", "-param-defaults", "ctx=context.TODO()")
	if code != ExitOK || strings.Contains(stdout, "hint:") || !strings.Contains(stdout, "+func Two() int { return p.Get(context.TODO(), 2) }") {
		t.Errorf("with -param-defaults: exit %d; stdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
}
