package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/ripple-dev/ripple/internal/action"
	"github.com/ripple-dev/ripple/internal/action/fakegh"
	"github.com/ripple-dev/ripple/internal/testrepo"
)

// TestMain makes this test binary double as the action: testscript puts
// a copy named ripple-action first on PATH, and running it runs
// action.Main.
func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"ripple-action": func() { os.Exit(action.Main()) },
	})
}

// TestScripts runs testdata/script/*.txtar end to end: each script builds
// a Go module in a real git repository, writes an event payload, and runs
// the action with the GITHUB_* variables of a workflow step against a fake
// GitHub API (internal/action/fakegh) that fails the script on any request
// whose method, path, query or body is not one of GitHub's.
//
// The environment of every script (Setup):
//
//   - GITHUB_ACTIONS=true, GITHUB_REPOSITORY=octo/demo, GITHUB_RUN_ID=42,
//     GITHUB_SERVER_URL=https://github.com, GITHUB_API_URL the fake,
//     GITHUB_OUTPUT=$WORK/gh/output, GITHUB_STEP_SUMMARY=$WORK/gh/summary.md,
//     RUNNER_TEMP=$WORK/gh/tmp, INPUT_TOKEN=ghs_write.
//   - The fake knows the tokens ghs_write (may write) and ghs_readonly
//     (the read-only token of a fork or Dependabot pull request).
//   - git is hermetic, as in cmd/hook's scripts.
//
// Commands besides testscript's:
//
//   - exitcode N prog args...: exact exit status.
//   - capture NAME: the last stdout, trimmed, into $NAME.
//   - expand IN OUT: IN with $VAR and ${VAR} replaced by the script's
//     variables (event payloads need the commits the script made).
//   - outputs: the step outputs in $GITHUB_OUTPUT, one name=value a line.
//   - json FILE PATH=VALUE...: FILE is valid JSON holding those values.
//   - fakegh pr N base=SHA head=SHA [headrepo=OWNER/NAME] [dir=DIR]: open
//     or move pull request N; its diff is git diff base...head in DIR
//     (default repo). Moving it outdates the comments on changed files.
//   - fakegh fault METHOD PATH-REGEXP KIND [TIMES]: inject a failure
//     (secondary, secondary429, primary, 404, 422, 500).
//   - fakegh human N PATH LINE BODY: a person's review comment.
//   - fakegh log | comments | reviews | review I: print what the fake saw
//     or holds (review I prints the body of the I-th review, from 1).
//   - fakegh reset-log: forget the requests seen so far.
//   - fakegh transcript NAME [VAR...]: the requests seen so far must be
//     the golden transcript testdata/transcript/NAME.txt (-update
//     rewrites it; see transcript_test.go).
//   - fakegh remote GITDIR: the repository's branches are those of the
//     git repository GITDIR (the bare remote the action pushes to), for
//     opening pull requests.
//   - fakegh pulls | pull N: the pull requests the action opened (number,
//     head, base, title) | the body of pull request N.
//   - llm reply BLOCK FILE: the scripted model (an OpenAI-compatible chat
//     server at $LLM_URL, see llm.go) answers FILE's content when the
//     prompt names BLOCK ("func Use"); unscripted blocks get a refusal.
//   - llm calls: the blocks the model was asked for, one "path block" a
//     line, and the Authorization header's scheme and key.
func TestScripts(t *testing.T) {
	testscript.Run(t, testscript.Params{
		Dir:                 filepath.Join("testdata", "script"),
		Setup:               setup,
		RequireExplicitExec: true,
		RequireUniqueNames:  true,
		Cmds: map[string]func(*testscript.TestScript, bool, []string){
			"exitcode": cmdExitCode,
			"capture":  cmdCapture,
			"expand":   cmdExpand,
			"outputs":  cmdOutputs,
			"json":     cmdJSON,
			"fakegh":   cmdFakeGH,
			"llm":      cmdLLM,
		},
	})
}

type fakeKey struct{}

func setup(env *testscript.Env) error {
	home := filepath.Join(env.WorkDir, "home")
	gh := filepath.Join(env.WorkDir, "gh")
	for _, d := range []string{home, filepath.Join(gh, "tmp"), filepath.Join(home, ".config", "go", "telemetry")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			return err
		}
	}
	if err := os.WriteFile(filepath.Join(home, ".gitconfig"), []byte(testrepo.GlobalConfig), 0o644); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(home, ".config", "go", "telemetry", "mode"), []byte("off"), 0o644); err != nil {
		return err
	}
	for _, kv := range testrepo.Env(home) {
		k, v, _ := strings.Cut(kv, "=")
		if strings.HasPrefix(k, "GIT_") || k == "HOME" {
			env.Setenv(k, v)
		}
	}
	env.Setenv("GOPROXY", "off")
	env.Setenv("GOTOOLCHAIN", "local")
	env.Setenv("NO_COLOR", "1")

	// the oracle builds and vets: share the Go build cache of the process
	// running the tests (safe for concurrent use), or each script would
	// compile the standard library afresh
	if c := testrepo.GoCache(); c != "" {
		env.Setenv("GOCACHE", c)
	}
	model := newScriptedModel()
	env.Values[llmKey{}] = model
	env.Setenv("LLM_URL", model.URL()+"/v1")
	env.Defer(func() {
		model.Close()
		if v := model.Violations(); len(v) > 0 {
			env.T().Fatal("requests an OpenAI-compatible server would not accept:\n\t" + strings.Join(v, "\n\t"))
		}
	})

	srv := fakegh.New("octo/demo")
	srv.SetToken("ghs_write", true)
	srv.SetToken("ghs_readonly", false)
	env.Values[fakeKey{}] = srv
	env.Defer(func() {
		srv.Close()
		if v := srv.Violations(); len(v) > 0 {
			env.T().Fatal("requests GitHub would not accept:\n\t" + strings.Join(v, "\n\t"))
		}
		if u := srv.UnusedFaults(); len(u) > 0 {
			env.T().Fatal("injected faults that never fired:\n\t" + strings.Join(u, "\n\t"))
		}
	})
	for k, v := range map[string]string{
		"GITHUB_ACTIONS":      "true",
		"GITHUB_REPOSITORY":   "octo/demo",
		"GITHUB_RUN_ID":       "42",
		"GITHUB_SERVER_URL":   "https://github.com",
		"GITHUB_API_URL":      srv.URL,
		"GITHUB_OUTPUT":       filepath.Join(gh, "output"),
		"GITHUB_STEP_SUMMARY": filepath.Join(gh, "summary.md"),
		"RUNNER_TEMP":         filepath.Join(gh, "tmp"),
		"INPUT_TOKEN":         "ghs_write",
	} {
		env.Setenv(k, v)
	}
	return nil
}

func fake(ts *testscript.TestScript) *fakegh.Server { return ts.Value(fakeKey{}).(*fakegh.Server) }

// git runs git in dir with the script's hermetic configuration.
func git(ts *testscript.TestScript, dir string, args ...string) string {
	cmd := exec.Command("git", args...)
	cmd.Dir = ts.MkAbs(dir)
	cmd.Env = os.Environ()
	for _, k := range []string{"HOME", "GIT_CONFIG_NOSYSTEM", "GIT_CONFIG_GLOBAL"} {
		cmd.Env = append(cmd.Env, k+"="+ts.Getenv(k))
	}
	out, err := cmd.Output()
	if err != nil {
		ts.Fatalf("git %s: %v", strings.Join(args, " "), err)
	}
	return string(out)
}

func cmdFakeGH(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) == 0 {
		ts.Fatalf("usage: fakegh pr|fault|human|log|comments|reviews|review|reset-log ...")
	}
	srv := fake(ts)
	out := ts.Stdout()
	switch args[0] {
	case "pr":
		if len(args) < 2 {
			ts.Fatalf("usage: fakegh pr N base=SHA head=SHA [headrepo=OWNER/NAME] [headref=BRANCH] [dir=DIR]")
		}
		n, err := strconv.Atoi(args[1])
		ts.Check(err)
		kv := map[string]string{"dir": "repo"}
		for _, a := range args[2:] {
			k, v, _ := strings.Cut(a, "=")
			kv[k] = v
		}
		var changed []string
		if old := previousHead(srv, n); old != "" {
			changed = strings.Fields(git(ts, kv["dir"], "diff", "--name-only", old, kv["head"]))
		}
		diff := git(ts, kv["dir"], "diff", "--no-color", "-U3", "-M", kv["base"]+"..."+kv["head"])
		ts.Check(srv.SetPR(fakegh.PR{Number: n, Base: kv["base"], Head: kv["head"], HeadRepo: kv["headrepo"], HeadRef: kv["headref"]}, diff, changed))
	case "fault":
		if len(args) < 4 {
			ts.Fatalf("usage: fakegh fault METHOD PATH-REGEXP KIND [TIMES]")
		}
		times := 1
		if len(args) > 4 {
			var err error
			times, err = strconv.Atoi(args[4])
			ts.Check(err)
		}
		ts.Check(srv.AddFault(args[1], args[2], args[3], times))
	case "human":
		if len(args) != 5 {
			ts.Fatalf("usage: fakegh human N PATH LINE BODY")
		}
		n, _ := strconv.Atoi(args[1])
		line, _ := strconv.Atoi(args[3])
		srv.AddHumanComment(n, args[2], line, args[4])
	case "log":
		for _, e := range srv.Log() {
			fmt.Fprintln(out, e)
		}
	case "reset-log":
		srv.ResetLog()
	case "transcript":
		cmdTranscript(ts, srv, args[1:])
	case "remote":
		if len(args) != 2 {
			ts.Fatalf("usage: fakegh remote GITDIR")
		}
		gitDir := ts.MkAbs(args[1])
		home, cfg := ts.Getenv("HOME"), ts.Getenv("GIT_CONFIG_GLOBAL")
		srv.SetBranches(func(name string) bool {
			cmd := exec.Command("git", "--git-dir="+gitDir, "rev-parse", "--verify", "--quiet", "refs/heads/"+name)
			cmd.Env = append(os.Environ(), "HOME="+home, "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL="+cfg)
			return cmd.Run() == nil
		})
	case "pulls":
		for _, p := range srv.PRs() {
			if p.Title != "" {
				fmt.Fprintf(out, "#%d head=%s base=%s state=%s title=%s\n", p.Number, p.HeadRef, p.BaseRef, p.State, p.Title)
			}
		}
	case "pull":
		n, _ := strconv.Atoi(args[1])
		for _, p := range srv.PRs() {
			if p.Number == n {
				fmt.Fprintln(out, p.Body)
			}
		}
	case "comments":
		for _, c := range srv.Comments() {
			fmt.Fprintf(out, "#%d %s:%d by=%s edits=%d %s\n", c.ID, c.Path, c.Line, c.User, c.Edits, markers(c.Body))
		}
	case "reviews":
		for _, r := range srv.Reviews() {
			fmt.Fprintf(out, "#%d event=%s commit=%.12s comments=%d %s\n", r.ID, r.Event, r.CommitID, len(r.Comments), markers(r.Body))
		}
	case "review":
		i, _ := strconv.Atoi(args[1])
		rs := srv.Reviews()
		if i < 1 || i > len(rs) {
			ts.Fatalf("fakegh review %d: there are %d reviews", i, len(rs))
		}
		fmt.Fprintln(out, rs[i-1].Body)
		for _, c := range srv.Comments() {
			if c.ReviewID == rs[i-1].ID {
				fmt.Fprintf(out, "--- comment %s:%d", c.Path, c.Line)
				if c.StartLine > 0 {
					fmt.Fprintf(out, " from %d", c.StartLine)
				}
				fmt.Fprintf(out, "\n%s\n", c.Body)
			}
		}
	default:
		ts.Fatalf("fakegh: unknown subcommand %q", args[0])
	}
}

func previousHead(srv *fakegh.Server, n int) string { return srv.Head(n) }

// markers summarises Ripple's markers in a body: fp=<12 hex> state=...
func markers(body string) string {
	var parts []string
	for _, key := range []string{"ripple:fp=", "ripple:state=", "ripple:review digest="} {
		if i := strings.Index(body, key); i >= 0 {
			v := body[i+len(key):]
			if j := strings.IndexAny(v, " -"); j >= 0 {
				v = v[:j]
			}
			if len(v) > 12 {
				v = v[:12]
			}
			parts = append(parts, strings.TrimPrefix(strings.TrimSuffix(key, "="), "ripple:")+"="+v)
		}
	}
	return strings.Join(parts, " ")
}

func cmdExitCode(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 2 {
		ts.Fatalf("usage: exitcode N program [args...]")
	}
	want, err := strconv.Atoi(args[0])
	ts.Check(err)
	got := 0
	if err := ts.Exec(args[1], args[2:]...); err != nil {
		var ee *exec.ExitError
		if !errors.As(err, &ee) {
			ts.Fatalf("exitcode: %v", err)
		}
		got = ee.ExitCode()
	}
	for _, f := range []string{"stdout", "stderr"} {
		if out := ts.ReadFile(f); out != "" {
			ts.Logf("[%s]\n%s", f, out)
		}
	}
	if got != want {
		ts.Fatalf("%s exited with status %d, want %d", args[1], got, want)
	}
}

func cmdCapture(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: capture NAME")
	}
	ts.Setenv(args[0], strings.TrimSpace(ts.ReadFile("stdout")))
}

func cmdExpand(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: expand IN OUT")
	}
	data := os.Expand(ts.ReadFile(args[0]), ts.Getenv)
	ts.Check(os.WriteFile(ts.MkAbs(args[1]), []byte(data), 0o644))
}

// cmdOutputs prints $GITHUB_OUTPUT's name<<DELIM ... DELIM entries.
func cmdOutputs(ts *testscript.TestScript, neg bool, args []string) {
	data, err := os.ReadFile(ts.Getenv("GITHUB_OUTPUT"))
	if err != nil && !os.IsNotExist(err) {
		ts.Fatalf("outputs: %v", err)
	}
	lines := strings.Split(string(data), "\n")
	for i := 0; i < len(lines); i++ {
		name, delim, ok := strings.Cut(lines[i], "<<")
		if !ok {
			continue
		}
		var val []string
		for i++; i < len(lines) && lines[i] != delim; i++ {
			val = append(val, lines[i])
		}
		fmt.Fprintf(ts.Stdout(), "%s=%s\n", name, strings.Join(val, "\\n"))
	}
}

func cmdJSON(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 1 {
		ts.Fatalf("usage: json FILE [PATH=VALUE...]")
	}
	dec := json.NewDecoder(strings.NewReader(ts.ReadFile(args[0])))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		ts.Fatalf("%s is not valid JSON: %v", args[0], err)
	}
	if _, err := dec.Token(); err != io.EOF {
		ts.Fatalf("%s holds more than one JSON value", args[0])
	}
	for _, a := range args[1:] {
		path, want, ok := strings.Cut(a, "=")
		if !ok {
			ts.Fatalf("json: %q is not PATH=VALUE", a)
		}
		cur := v
		for _, k := range strings.Split(path, ".") {
			switch c := cur.(type) {
			case map[string]any:
				e, ok := c[k]
				if !ok {
					ts.Fatalf("json %s: %s: no key %q", args[0], path, k)
				}
				cur = e
			case []any:
				i, err := strconv.Atoi(k)
				if err != nil || i < 0 || i >= len(c) {
					ts.Fatalf("json %s: %s: no index %q in an array of %d", args[0], path, k, len(c))
				}
				cur = c[i]
			default:
				ts.Fatalf("json %s: %s: %q below a %T", args[0], path, k, cur)
			}
		}
		if got := fmt.Sprint(cur); got != want {
			ts.Fatalf("json %s: %s is %s, want %s", args[0], path, got, want)
		}
	}
}
