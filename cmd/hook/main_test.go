package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/ripple-dev/ripple/internal/cli"
	"github.com/ripple-dev/ripple/internal/testrepo"
)

// TestMain makes this test binary double as the `hook` command: testscript
// copies the binary to a temporary bin directory under the name `hook`,
// puts that directory first on PATH, and when the copy runs, Main
// dispatches on os.Args[0] and runs cli.Main instead of the tests.
func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"hook": func() { os.Exit(cli.Main()) },
	})
}

// TestScripts runs testdata/script/*.txtar end to end: each script builds a
// small Go module and a bare remote with real git, installs the pre-push
// hook and pushes.
//
// Conventions of the scripts:
//
//   - $WORK/remote.git is the bare remote; $WORK/repo (or the directory the
//     script creates) is the clone. Scripts build their history with git
//     inside the script, so what a test asserts is visible in one file.
//   - git is hermetic (see setupGit): HOME is $WORK/home with
//     testrepo.GlobalConfig, no system config, fixed identity and dates.
//   - RIPPLE_BIN is the `hook` program testscript put on PATH, so that the
//     pre-push hook that `hook install` writes runs this test binary's
//     `hook` command (see setupGit).
//   - Besides testscript's commands: `exitcode N prog args...` (exact exit
//     status), `capture NAME` (last stdout into $NAME, for shas),
//     `json FILE PATH=VALUE...` (valid JSON holding those values) and
//     `repeat N TEMPLATE OUT` (N files from a template: wide changes) and
//     `waitwarm` (wait for a background `hook warm` to end).
//   - RIPPLE_WARM is off: `hook install` and a cold push start no
//     background warm-up unless a script clears it (and then waits).
//
// Run one script with go test ./cmd/hook -run TestScripts/NAME; add
// -testwork (after -args) to keep its $WORK for inspection.
func TestScripts(t *testing.T) {
	testscript.Run(t, testscript.Params{
		Dir:                 filepath.Join("testdata", "script"),
		Setup:               setupGit,
		RequireExplicitExec: true,
		RequireUniqueNames:  true,
		Condition:           scriptCondition,
		Cmds: map[string]func(*testscript.TestScript, bool, []string){
			"exitcode": cmdExitCode,
			"capture":  cmdCapture,
			"json":     cmdJSON,
			"repeat":   cmdRepeat,
			"waitwarm": cmdWaitWarm,
			"llm":      cmdLLM,
		},
	})
}

// setupGit makes git hermetic for one script and points the hook at the
// `hook` command under test.
func setupGit(env *testscript.Env) error {
	home := filepath.Join(env.WorkDir, "home")
	if err := os.MkdirAll(home, 0o755); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(home, ".gitconfig"), []byte(testrepo.GlobalConfig), 0o644); err != nil {
		return err
	}
	// testrepo.Env starts from this process's environment; keep only what
	// it adds (git's identity, dates, config isolation, HOME) so that the
	// script's environment stays testscript's minimal one.
	for _, kv := range testrepo.Env(home) {
		k, v, _ := strings.Cut(kv, "=")
		if strings.HasPrefix(k, "GIT_") || k == "HOME" {
			env.Setenv(k, v)
		}
	}
	// The product runs `go env GOROOT GOMODCACHE` to find sources outside
	// the repository: never let that go command reach the network or
	// switch toolchains. The module cache it reports is under the
	// script's HOME, so nothing outside $WORK is read. Telemetry off: in
	// its default mode the go command may start a detached child that
	// writes $HOME/.config/go/telemetry after `go env` returned, racing
	// the removal of $WORK.
	env.Setenv("GOPROXY", "off")
	// a script that reads real module versions (the modules condition)
	// turns this process's module cache and proxy back on
	outer := outerGoEnv()
	env.Setenv("OUTER_GOMODCACHE", outer[0])
	env.Setenv("OUTER_GOPROXY", outer[1])
	// and a script that reads real npm packages (the npm condition)
	// points npm at this process's user configuration (its registry)
	if h, err := os.UserHomeDir(); err == nil {
		env.Setenv("OUTER_NPMRC", filepath.Join(h, ".npmrc"))
	}
	// and a script that reads real Python distributions (the pypi
	// condition) uses this process's pip configuration: its index,
	// certificates and timeouts (the script's HOME has no pip.conf)
	for _, kv := range os.Environ() {
		if k, v, _ := strings.Cut(kv, "="); strings.HasPrefix(k, "PIP_") {
			env.Setenv(k, v)
		}
	}
	mode := filepath.Join(home, ".config", "go", "telemetry", "mode")
	if err := os.MkdirAll(filepath.Dir(mode), 0o755); err != nil {
		return err
	}
	if err := os.WriteFile(mode, []byte("off"), 0o644); err != nil {
		return err
	}
	env.Setenv("GOTOOLCHAIN", "local")
	// the Go oracle (hook fix) and the scripts' own go build and go vet
	// share the build cache of the process running the tests (safe for
	// concurrent use; content-addressed, so no result depends on what it
	// holds): under the script's HOME each script compiled and vetted the
	// standard library afresh (-trimpath), fix_preexisting_vet alone
	// 60+ CPU s. Ripple itself keeps no state there.
	if c := testrepo.GoCache(); c != "" {
		env.Setenv("GOCACHE", c)
	}
	// pyright, when this machine has it: its directory goes on the
	// script's PATH, since the script's HOME has no cache to install into
	if bin, ok := pyrightBin(); ok {
		env.Setenv("PATH", filepath.Dir(bin)+string(os.PathListSeparator)+env.Getenv("PATH"))
	}
	env.Setenv("NO_COLOR", "1")
	// no detached warm-up outliving a script (it would write into $WORK
	// while testscript removes it); warm_first_push.txtar turns it on
	env.Setenv("RIPPLE_WARM", "off")

	// RIPPLE_BIN: the pre-push hook runs "${RIPPLE_BIN:-<path recorded
	// by hook install>}". The test binary itself (what os.Executable
	// returns in this process) cannot serve: run under its own name it
	// runs the tests, not the command, since testscript.Main dispatches on
	// the program's base name. The program that does dispatch is the copy
	// named `hook` that testscript.Main put in a temporary bin directory
	// at the front of PATH. `hook install` happens to record that copy
	// (it is os.Executable() of the installing process), but that depends
	// on how testscript copies the binary; RIPPLE_BIN names the copy
	// explicitly, so every hook in every script runs exactly the command
	// under test. exec.LookPath sees the PATH testscript.Main prepended.
	bin, err := exec.LookPath("hook")
	if err != nil {
		return fmt.Errorf("the hook command is not on PATH (is TestMain calling testscript.Main?): %v", err)
	}
	if first := filepath.SplitList(os.Getenv("PATH"))[0]; filepath.Dir(bin) != first {
		return fmt.Errorf("hook on PATH is %s, not testscript's copy in %s", bin, first)
	}
	env.Setenv("RIPPLE_BIN", bin)
	return nil
}

// cmdExitCode is `exitcode N program [args...]`: run program like exec and
// require exit status N (exec and ! exec cannot tell 1 from 2, and the
// exit codes are the contract of `hook check`: 0 clean, 1 findings, 2
// ripple failed). stdout and stderr are kept for the next commands.
func cmdExitCode(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 2 {
		ts.Fatalf("usage: exitcode N program [args...]")
	}
	want, err := strconv.Atoi(args[0])
	if err != nil {
		ts.Fatalf("exitcode: %q is not a number", args[0])
	}
	got := 0
	if err := ts.Exec(args[1], args[2:]...); err != nil {
		var ee *exec.ExitError
		if !errors.As(err, &ee) {
			ts.Fatalf("exitcode: %v", err)
		}
		got = ee.ExitCode()
	}
	if got != want {
		ts.Fatalf("%s exited with status %d, want %d", args[1], got, want)
	}
}

// cmdCapture is `capture NAME`: set the environment variable NAME to the
// standard output of the last command, without its trailing newline, so
// that later lines can use $NAME (or ${NAME@R} in a regexp), e.g. a sha
// printed by git rev-parse.
func cmdCapture(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: capture NAME")
	}
	ts.Setenv(args[0], strings.TrimRight(ts.ReadFile("stdout"), "\n"))
}

// cmdRepeat is `repeat N TEMPLATE OUT`: write N files, each TEMPLATE's
// content with every {{i}} replaced by its number (0 to N-1), at OUT with
// {{i}} replaced the same way: a thousand callers from one file.
func cmdRepeat(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 3 || !strings.Contains(args[2], "{{i}}") {
		ts.Fatalf("usage: repeat N TEMPLATE OUT (OUT holding {{i}})")
	}
	n, err := strconv.Atoi(args[0])
	if err != nil || n < 1 {
		ts.Fatalf("repeat: %q is not a positive number", args[0])
	}
	tmpl := ts.ReadFile(args[1])
	for i := range n {
		out := ts.MkAbs(strings.ReplaceAll(args[2], "{{i}}", strconv.Itoa(i)))
		ts.Check(os.MkdirAll(filepath.Dir(out), 0o755))
		ts.Check(os.WriteFile(out, []byte(strings.ReplaceAll(tmpl, "{{i}}", strconv.Itoa(i))), 0o644))
	}
}

// cmdWaitWarm is `waitwarm`: wait, up to two minutes, until no `hook
// warm -background` of the script holds its lock in the script's cache.
func cmdWaitWarm(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 0 {
		ts.Fatalf("usage: waitwarm")
	}
	lock := filepath.Join(ts.Getenv("HOME"), ".cache", "ripple", "warm.lock")
	for deadline := time.Now().Add(2 * time.Minute); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		if _, err := os.Stat(lock); os.IsNotExist(err) {
			return
		}
	}
	ts.Fatalf("the background warm-up still holds %s after two minutes", lock)
}

// cmdJSON is `json FILE [PATH=VALUE...]`: FILE (or stdout) must be one
// valid JSON value, and each dotted PATH (object keys and array indices:
// runs.0.results.0.level) must hold VALUE, compared with the value's
// string form (numbers in Go's %v, so 1 not 1.0).
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

// scriptCondition answers the scripts' own conditions: [pyright] holds
// when pyright is on PATH or in Ripple's user cache (where the oracle
// installs it); scripts that need it are skipped otherwise.
func scriptCondition(cond string) (bool, error) {
	switch cond {
	case "pyright":
		_, ok := pyrightBin()
		return ok, nil
	}
	if mods, ok := strings.CutPrefix(cond, "modules:"); ok {
		return modulesServed(strings.Split(mods, ",")), nil
	}
	if pkgs, ok := strings.CutPrefix(cond, "npm:"); ok {
		return npmServed(strings.Split(pkgs, ",")), nil
	}
	if dists, ok := strings.CutPrefix(cond, "pypi:"); ok {
		return pypiServed(strings.Split(dists, ",")), nil
	}
	return false, fmt.Errorf("unknown condition %q", cond)
}

// pypiServed reports whether the package index (PIP_INDEX_URL, else
// PyPI's simple index) lists a file of every NAME==VERSION (the pypi
// condition: a script that bumps a real distribution skips, saying so,
// where the index cannot be reached).
func pypiServed(nvs []string) bool {
	key := "pypi\x00" + strings.Join(nvs, ",")
	if v, ok := served.Load(key); ok {
		return v.(bool)
	}
	index := os.Getenv("PIP_INDEX_URL")
	if index == "" {
		index = "https://pypi.org/simple"
	}
	ok := true
	for _, nv := range nvs {
		name, version, _ := strings.Cut(nv, "==")
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, strings.TrimSuffix(index, "/")+"/"+strings.ToLower(name)+"/", nil)
		var page []byte
		if err == nil {
			var resp *http.Response
			if resp, err = http.DefaultClient.Do(req); err == nil {
				page, err = io.ReadAll(resp.Body)
				resp.Body.Close()
				if resp.StatusCode != http.StatusOK {
					err = errors.New(resp.Status)
				}
			}
		}
		cancel()
		if err != nil || !strings.Contains(strings.ToLower(string(page)), "-"+version+"-") && !strings.Contains(strings.ToLower(string(page)), "-"+version+".tar.gz") {
			ok = false
			break
		}
	}
	served.Store(key, ok)
	return ok
}

func pyrightBin() (string, bool) {
	if bin, err := exec.LookPath("pyright"); err == nil {
		return bin, true
	}
	cache, err := os.UserCacheDir()
	if err != nil {
		return "", false
	}
	bin := filepath.Join(cache, "ripple", "pyright", "node_modules", ".bin", "pyright")
	if _, err := os.Stat(bin); err != nil {
		return "", false
	}
	return bin, true
}

// outerGoEnv is this process's GOMODCACHE and GOPROXY, asked of the go
// command once.
var outerGoEnv = sync.OnceValue(func() [2]string {
	out, err := exec.Command("go", "env", "GOMODCACHE", "GOPROXY").Output()
	f := strings.Split(strings.TrimSpace(string(out)), "\n")
	if err != nil || len(f) != 2 {
		return [2]string{}
	}
	return [2]string{f[0], f[1]}
})

var served sync.Map // module@version list -> bool

// modulesServed reports whether every module@version is in this
// process's module cache or fetched into it through its GOPROXY (the
// modules condition: a script that bumps a real module skips, saying
// so, where the proxy cannot be reached).
func modulesServed(mvs []string) bool {
	key := strings.Join(mvs, ",")
	if v, ok := served.Load(key); ok {
		return v.(bool)
	}
	cmd := exec.Command("go", append([]string{"mod", "download"}, mvs...)...)
	cmd.Dir = os.TempDir()
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOWORK=off")
	ok := cmd.Run() == nil
	served.Store(key, ok)
	return ok
}

// npmServed reports whether this process's npm registry serves every
// name@version (the npm condition: a script that bumps a real package
// skips, saying so, where npm or the registry cannot be reached).
func npmServed(nvs []string) bool {
	key := "npm\x00" + strings.Join(nvs, ",")
	if v, ok := served.Load(key); ok {
		return v.(bool)
	}
	ok := true
	for _, nv := range nvs {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		out, err := exec.CommandContext(ctx, "npm", "view", nv, "version").Output()
		cancel()
		if err != nil || strings.TrimSpace(string(out)) == "" {
			ok = false
			break
		}
	}
	served.Store(key, ok)
	return ok
}
