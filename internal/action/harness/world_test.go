package harness_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ripple-dev/ripple/internal/action/fakegh"
	"github.com/ripple-dev/ripple/internal/action/harness"
	"github.com/ripple-dev/ripple/internal/testrepo"
)

// repoRoot is this repository: the action the harness runs.
const repoRoot = "../../.."

// scenario is one pull request and the workflow step running the action
// on it.
type scenario struct {
	name string
	// base and head are the repository's files at the pull request's
	// base and head ("" deletes a file at head).
	base, head map[string]string
	with       map[string]string
	stepEnv    map[string]string
	// fork: the pull request comes from mallory/demo, with the
	// read-only token GitHub gives it.
	fork bool
	// noCC: the runner has no C compiler on PATH and CC is unset.
	noCC bool
	// without are other programs the runner lacks (PATH is then links
	// to every other program).
	without []string
	// replies are the scripted model's answers, by block.
	replies map[string]string
}

// world is what a run happened in, for the assertions.
type world struct {
	root, ws, remote string
	base, head       string
	srv              *fakegh.Server
	model            *scriptedModel
	env              []string
	run              *harness.Run
}

var (
	shimOnce sync.Once
	shimDir  string
	shimErr  error
)

// goShim is a directory holding a `go` that runs the real one, except
// for the action's build (go build -o .../ripple-action): that is done
// by the real go once per cgo setting in this test process and copied
// afterwards. The build step's script runs as it is every time (finding
// the compiler, choosing CGO_ENABLED, its outputs, its warning); only
// the compiling is shared, which would otherwise cost seconds of CPU per
// scenario. That build reads its modules from the machine's module cache
// (where the scenarios' file:// proxy serves them from), not the run's:
// the build cache keys a cgo package by its directory even under
// -trimpath (its CFLAGS name ${SRCDIR}), so a module cache of the test
// process's own compiled tree-sitter's C grammars again in every test
// process (the build step: 40+ CPU s), and the run's module cache still
// receives only what the repository's go mod download brings.
func goShim(t *testing.T) string {
	shimOnce.Do(func() {
		realGo, err := exec.LookPath("go")
		if err != nil {
			shimErr = err
			return
		}
		out, err := exec.Command(realGo, "env", "GOMODCACHE").Output()
		if err != nil {
			shimErr = fmt.Errorf("go env GOMODCACHE: %v", err)
			return
		}
		modcache := strings.TrimSpace(string(out))
		shimDir, shimErr = os.MkdirTemp("", "ripple-harness-go-")
		if shimErr != nil {
			return
		}
		script := `#!/bin/bash
out= prev=
for a in "$@"; do if [ "$prev" = -o ]; then out=$a; fi; prev=$a; done
if [ "$1" = build ] && [ "${out##*/}" = ripple-action ]; then
  c="` + shimDir + `/built-cgo${CGO_ENABLED:-default}"
  if [ -x "$c" ]; then rm -f "$out"; ln "$c" "$out" 2>/dev/null || cp "$c" "$out"; exit 0; fi
  GOMODCACHE="` + modcache + `" "` + realGo + `" "$@" || exit
  cp "$out" "$c.$$" && mv "$c.$$" "$c"
  exit 0
fi
exec "` + realGo + `" "$@"
`
		if err := os.MkdirAll(filepath.Join(shimDir, "bin"), 0o755); err != nil {
			shimErr = err
			return
		}
		shimErr = os.WriteFile(filepath.Join(shimDir, "bin", "go"), []byte(script), 0o755)
	})
	if shimErr != nil {
		t.Fatalf("go shim: %v", shimErr)
	}
	return filepath.Join(shimDir, "bin")
}

func TestMain(m *testing.M) {
	code := m.Run()
	if shimDir != "" {
		os.RemoveAll(shimDir)
	}
	os.Exit(code)
}

var compilerRE = regexp.MustCompile(`^(cc|c89|c99|gcc|clang|tcc|icc)(-[0-9.]+)?$|-gcc(-[0-9.]+)?$|^clang(\+\+)?-|^[cg]\+\+`)

// pathWithout is a directory of links to every program on PATH but the
// C compilers (noCC) and the programs named.
func pathWithout(t *testing.T, path string, noCC bool, names []string) string {
	dir := t.TempDir()
	for _, d := range filepath.SplitList(path) {
		ents, err := os.ReadDir(d)
		if err != nil {
			continue
		}
		for _, e := range ents {
			if noCC && compilerRE.MatchString(e.Name()) || slices.Contains(names, e.Name()) {
				continue
			}
			link := filepath.Join(dir, e.Name())
			if _, err := os.Lstat(link); err == nil {
				continue // the first on PATH wins
			}
			_ = os.Symlink(filepath.Join(d, e.Name()), link)
		}
	}
	gone := names
	if noCC {
		gone = append(gone, "cc", "gcc", "clang")
	}
	for _, c := range gone {
		if _, err := os.Lstat(filepath.Join(dir, c)); err == nil {
			t.Fatalf("%s is still on the PATH without it", c)
		}
	}
	return dir
}

func goEnv(t *testing.T, name string) string {
	out, err := exec.Command("go", "env", name).Output()
	if err != nil {
		t.Fatalf("go env %s: %v", name, err)
	}
	return strings.TrimSpace(string(out))
}

// userCache is the real user cache when it holds the tools .ci/run
// installs there (tsc, pyright), so that the type tier and the oracles
// run without reaching npm's registry; else "" (a fresh cache).
func userCache() string {
	c, err := os.UserCacheDir()
	if err != nil {
		return ""
	}
	if _, err := os.Stat(filepath.Join(c, "ripple")); err != nil {
		return ""
	}
	return c
}

// haveTSC and havePyright: are they installed where Ripple looks?
func haveTSC() bool {
	c := userCache()
	if c == "" {
		return false
	}
	_, err := os.Stat(filepath.Join(c, "ripple", "typescript", "node_modules", "typescript", "package.json"))
	return err == nil
}

func havePyright() bool {
	c := userCache()
	if c == "" {
		return false
	}
	_, err := os.Stat(filepath.Join(c, "ripple", "pyright", "node_modules", ".bin", "pyright"))
	return err == nil
}

func (w *world) git(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir, cmd.Env = dir, w.env
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return strings.TrimSpace(string(out))
}

func write(t *testing.T, dir string, files map[string]string) {
	for name, data := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if data == "" {
			os.Remove(p)
			continue
		}
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// runScenario builds the pull request in a real repository with a bare
// remote, a fake GitHub and a scripted model, and runs action.yml on it.
func runScenario(t *testing.T, sc scenario) *world {
	t.Helper()
	action, err := harness.Load(repoRoot)
	if err != nil {
		t.Fatal(err)
	}
	root := t.TempDir()
	w := &world{root: root, ws: filepath.Join(root, "work", "demo"), remote: filepath.Join(root, "remote.git")}
	home := filepath.Join(root, "home")
	write(t, home, map[string]string{".gitconfig": testrepo.GlobalConfig, ".config/go/telemetry/mode": "off"})

	path := os.Getenv("PATH")
	if sc.noCC || len(sc.without) > 0 {
		path = pathWithout(t, path, sc.noCC, sc.without)
	}
	path = goShim(t) + string(os.PathListSeparator) + path
	modcache := goEnv(t, "GOMODCACHE")
	env := []string{}
	for _, kv := range testrepo.Env(home) {
		k, _, _ := strings.Cut(kv, "=")
		switch {
		case k == "PATH", k == "CC", k == "CGO_ENABLED", strings.HasPrefix(k, "GO"), strings.HasPrefix(k, "GITHUB_"), strings.HasPrefix(k, "RUNNER_"),
			strings.HasPrefix(k, "INPUT_"), k == "XDG_CACHE_HOME", k == "RIPPLE_PYTHON", k == "VIRTUAL_ENV":
			continue
		}
		env = append(env, kv)
	}
	// the run's own user cache (pip's, npm's tools), with Ripple's tools
	// from the machine's linked in when .ci/run installed them there
	cache := filepath.Join(root, "usercache")
	if err := os.MkdirAll(cache, 0o755); err != nil {
		t.Fatal(err)
	}
	if c := userCache(); c != "" {
		if err := os.Symlink(filepath.Join(c, "ripple"), filepath.Join(cache, "ripple")); err != nil {
			t.Fatal(err)
		}
	}
	env = append(env, "PATH="+path, "GOCACHE="+goEnv(t, "GOCACHE"),
		// a module cache of the run's own, filled offline from the
		// machine's through a file:// proxy; the action's own build
		// uses one cache for the whole process (the shim sets it), so
		// that its modules are extracted once, and actions/cache saves
		// only what the repository's go mod download brought
		"GOMODCACHE="+filepath.Join(root, "gomod"), "GOPROXY=file://"+filepath.ToSlash(filepath.Join(modcache, "cache", "download")),
		"GOSUMDB=off", "GOTELEMETRY=off", "GOTOOLCHAIN=local",
		"XDG_CACHE_HOME="+cache, "NO_COLOR=1")
	w.env = env

	// the repository: base on main, the pull request's branch, pushed to
	// the bare remote, then the detached checkout actions/checkout leaves
	if err := os.MkdirAll(w.ws, 0o755); err != nil {
		t.Fatal(err)
	}
	w.git(t, w.ws, "init", "-q", "-b", "main")
	write(t, w.ws, sc.base)
	w.git(t, w.ws, "add", "-A")
	w.git(t, w.ws, "commit", "-q", "-m", "base")
	w.base = w.git(t, w.ws, "rev-parse", "HEAD")
	branch := "feature"
	if sc.fork {
		branch = "patch-1"
	}
	w.git(t, w.ws, "checkout", "-q", "-b", branch)
	write(t, w.ws, sc.head)
	w.git(t, w.ws, "add", "-A")
	w.git(t, w.ws, "commit", "-q", "-m", "the pull request")
	w.head = w.git(t, w.ws, "rev-parse", "HEAD")
	w.git(t, root, "init", "-q", "--bare", w.remote)
	w.git(t, w.ws, "remote", "add", "origin", w.remote)
	w.git(t, w.ws, "push", "-q", "origin", "main", branch)
	w.git(t, w.ws, "checkout", "-q", "--detach")

	w.srv = fakegh.New("octo/demo")
	t.Cleanup(func() {
		w.srv.Close()
		if v := w.srv.Violations(); len(v) > 0 {
			t.Errorf("requests GitHub would not accept:\n\t%s", strings.Join(v, "\n\t"))
		}
	})
	w.srv.SetToken("ghs_write", true)
	w.srv.SetToken("ghs_readonly", false)
	headRepo := "octo/demo"
	if sc.fork {
		headRepo = "mallory/demo"
	}
	diff := w.git(t, w.ws, "diff", "--no-color", "-U3", "-M", w.base+"..."+w.head) + "\n"
	if err := w.srv.SetPR(fakegh.PR{Number: 7, Base: w.base, Head: w.head, HeadRepo: headRepo, HeadRef: branch}, diff, nil); err != nil {
		t.Fatal(err)
	}
	w.srv.SetBranches(func(name string) bool {
		cmd := exec.Command("git", "--git-dir="+w.remote, "rev-parse", "--verify", "--quiet", "refs/heads/"+name)
		cmd.Env = w.env
		return cmd.Run() == nil
	})
	w.model = newScriptedModel(sc.replies)
	t.Cleanup(func() {
		w.model.srv.Close()
		if v := w.model.violations; len(v) > 0 {
			t.Errorf("requests an OpenAI-compatible server would not accept:\n\t%s", strings.Join(v, "\n\t"))
		}
	})

	token := "ghs_write"
	if sc.fork {
		token = "ghs_readonly"
	}
	user := "alice"
	if sc.fork {
		user = "mallory"
	}
	event := map[string]any{
		"action": "synchronize",
		"number": 7,
		"pull_request": map[string]any{
			"number": 7,
			"user":   map[string]any{"login": user},
			"head":   map[string]any{"sha": w.head, "ref": branch, "repo": map[string]any{"full_name": headRepo, "fork": sc.fork}},
			"base":   map[string]any{"sha": w.base, "ref": "main", "repo": map[string]any{"full_name": "octo/demo", "default_branch": "main"}},
		},
		"repository": map[string]any{"full_name": "octo/demo", "default_branch": "main"},
		"sender":     map[string]any{"login": user},
	}
	with := map[string]string{}
	for k, v := range sc.with {
		with[k] = strings.ReplaceAll(v, "$LLM_URL", w.model.srv.URL+"/v1")
	}
	run, err := harness.Execute(action, &harness.Job{
		Workspace: w.ws,
		Temp:      filepath.Join(root, "runner", "temp"),
		CacheDir:  filepath.Join(root, "actions-cache"),
		With:      with,
		Env:       env,
		StepEnv:   sc.stepEnv,
		EventName: "pull_request",
		Event:     event,
		GitHub: map[string]any{
			"token": token, "repository": "octo/demo", "sha": w.head, "ref": "refs/pull/7/merge",
			"server_url": "https://github.com", "api_url": w.srv.URL, "run_id": "42", "actor": user,
			"base_ref": "main", "head_ref": branch,
		},
	})
	if err != nil {
		if run != nil {
			t.Logf("log:\n%s", run.Log)
		}
		t.Fatal(err)
	}
	w.run = run
	for _, s := range run.Steps {
		if s.Ran {
			t.Logf("step %s: %s in %v", s.Label, s.Outcome, s.Took.Round(time.Millisecond))
		}
	}
	return w
}

// scriptedModel is an OpenAI-compatible chat server with the protocol of
// the fix tests (cmd/action's llm_test.go, internal/fix): the prompt's
// ripple-block line names the block asked for; the reply is the
// scenario's answer for it, else a refusal.
type scriptedModel struct {
	srv        *httptest.Server
	mu         sync.Mutex
	replies    map[string]string
	calls      []string
	violations []string
}

var blockRE = regexp.MustCompile(`ripple-block: path=(\S+) block="([^"]+)"`)

func newScriptedModel(replies map[string]string) *scriptedModel {
	m := &scriptedModel{replies: replies}
	m.srv = httptest.NewServer(http.HandlerFunc(m.serve))
	return m
}

func (m *scriptedModel) serve(w http.ResponseWriter, r *http.Request) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if r.Method != http.MethodPost || r.URL.Path != "/v1/chat/completions" {
		m.violations = append(m.violations, fmt.Sprintf("%s %s: not the chat completions endpoint", r.Method, r.URL.Path))
		http.Error(w, `{"error":{"message":"not found"}}`, http.StatusNotFound)
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
		m.violations = append(m.violations, fmt.Sprintf("malformed chat request (%v)", err))
		http.Error(w, `{"error":{"message":"bad request"}}`, http.StatusBadRequest)
		return
	}
	prompt := req.Messages[1].Content
	b := blockRE.FindStringSubmatch(prompt)
	if b == nil {
		m.violations = append(m.violations, "a prompt without a ripple-block line")
		http.Error(w, `{"error":{"message":"bad request"}}`, http.StatusBadRequest)
		return
	}
	m.calls = append(m.calls, b[1]+" "+b[2])
	text, ok := m.replies[b[2]]
	if !ok {
		text = "I cannot help with " + b[2] + "."
	}
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(map[string]any{
		"id": "chatcmpl-script", "object": "chat.completion", "model": req.Model,
		"choices": []map[string]any{{"index": 0, "finish_reason": "stop", "message": map[string]any{"role": "assistant", "content": text}}},
		"usage":   map[string]any{"prompt_tokens": len(prompt) / 4, "completion_tokens": len(text) / 4, "total_tokens": (len(prompt) + len(text)) / 4},
	})
}

func sortedKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
