// Package testrepo builds real git repositories for tests: hermetic git
// (no system or global config, fixed identity and dates) and repositories
// made from txtar archives whose old/ and new/ trees become two commits.
// Only tests import it.
package testrepo

import (
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"golang.org/x/tools/txtar"

	"github.com/ripple-dev/ripple/internal/config"
)

// Env is the environment that makes git hermetic: no system or global
// configuration, a fixed identity and fixed dates.
func Env(home string) []string {
	env := []string{}
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		if strings.HasPrefix(k, "GIT_") || k == "HOME" || k == "XDG_CONFIG_HOME" {
			continue
		}
		env = append(env, kv)
	}
	return append(env,
		"HOME="+home,
		"GIT_CONFIG_NOSYSTEM=1",
		"GIT_CONFIG_GLOBAL="+filepath.Join(home, ".gitconfig"),
		"GIT_AUTHOR_NAME=Ripple Test", "GIT_AUTHOR_EMAIL=test@example.invalid",
		"GIT_COMMITTER_NAME=Ripple Test", "GIT_COMMITTER_EMAIL=test@example.invalid",
		"GIT_AUTHOR_DATE=2026-01-01T00:00:00Z", "GIT_COMMITTER_DATE=2026-01-01T00:00:00Z",
		"GIT_TERMINAL_PROMPT=0",
		"GOTELEMETRY=off",
	)
}

// Tools are the folders of Ripple's user cache that hold the tools the
// languages install on first use (lang.Tool's names: languages_test
// holds this list to the registry's), which UseTools names.
var Tools = []string{PyrightTool, TypeScriptTool}

// The tools' folders, for UseTools.
const (
	PyrightTool    = "pyright"
	TypeScriptTool = "typescript"
)

// processCache is the user cache of the process, before any test's
// hermetic HOME: where .ci/run installed the tools.
var processCache, processCacheErr = os.UserCacheDir()

var (
	toolsMu sync.Mutex
	toolsOf = map[testing.TB][]string{}
)

// UseTools keeps the named tools (Tools) in reach of t, a test that needs
// them: the user cache of t's hermetic HOME, the one it has now and any
// that Hermetic gives it later, links to each one the process's own
// user cache holds, so that the code under test finds it there as on a
// developer's machine, instead of installing it again with npm (10-15 s
// and a registry round trip a test). A test that does not ask sees a
// cache without them, as on a machine without the tool.
func UseTools(t testing.TB, names ...string) {
	t.Helper()
	for _, n := range names {
		if !slices.Contains(Tools, n) {
			t.Fatalf("UseTools: %q is not one of the user cache's tools %q", n, Tools)
		}
	}
	toolsMu.Lock()
	if _, ok := toolsOf[t]; !ok {
		t.Cleanup(func() {
			toolsMu.Lock()
			delete(toolsOf, t)
			toolsMu.Unlock()
		})
	}
	toolsOf[t] = append(toolsOf[t], names...)
	toolsMu.Unlock()
	linkTools(t, names)
}

// linkTools links the named tools of the process's user cache into the
// current one, when that is another (a hermetic HOME's) and lacks them.
func linkTools(t testing.TB, names []string) {
	cache, err := os.UserCacheDir()
	if err != nil || processCacheErr != nil || cache == processCache {
		return
	}
	for _, n := range names {
		from := filepath.Join(processCache, "ripple", n)
		if st, err := os.Stat(from); err != nil || !st.IsDir() {
			continue
		}
		to := filepath.Join(cache, "ripple", n)
		if _, err := os.Lstat(to); err == nil {
			continue
		}
		if err := os.MkdirAll(filepath.Dir(to), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(from, to); err != nil {
			t.Fatal(err)
		}
	}
}

var (
	goCacheOnce sync.Once
	goCacheDir  string
)

// GoCache is the process's Go build cache: $GOCACHE, else what `go env
// GOCACHE` says ("" without go, or with the cache off).
func GoCache() string {
	goCacheOnce.Do(func() {
		if c := os.Getenv("GOCACHE"); c != "" {
			goCacheDir = c
			return
		}
		if out, err := exec.Command("go", "env", "GOCACHE").Output(); err == nil {
			if c := strings.TrimSpace(string(out)); c != "off" {
				goCacheDir = c
			}
		}
	})
	return goCacheDir
}

// GlobalConfig is the global git configuration of a hermetic HOME: no
// background maintenance or auto-gc (a detached gc races the removal of
// test directories), no advice.
const GlobalConfig = `[gc]
	auto = 0
[maintenance]
	auto = false
[advice]
	detachedHead = false
[init]
	defaultBranch = main
`

// tempHome is a temporary HOME removed when the test ends, retried for
// a moment: the code under test may still be finishing a background
// write into its user cache (the type cache's trim marks the folder it
// trimmed), which t.TempDir's cleanup reports as a failure
// ("directory not empty").
func tempHome(t testing.TB) string {
	d, err := os.MkdirTemp("", "ripple-home-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		var err error
		for i := 0; i < 20; i++ {
			if err = os.RemoveAll(d); err == nil {
				return
			}
			time.Sleep(50 * time.Millisecond)
		}
		t.Errorf("removing the test's HOME: %v", err)
	})
	return d
}

// Hermetic makes the test process's own git invocations hermetic (for
// code under test that runs git), with a fresh HOME holding
// GlobalConfig.
//
// The Go build cache stays the process's own (GOCACHE is pinned to it):
// it is content-addressed and safe for concurrent use, so no result
// depends on what it holds, and under a fresh HOME every go build and
// go vet of the code under test compiled the standard library again (20
// CPU s for fmt's imports with -trimpath). The tools a test asked for
// with UseTools are linked into the fresh user cache; Ripple's own
// caches (the type cache, the word indexes) start empty.
func Hermetic(t testing.TB) string {
	t.Helper()
	gocache := GoCache()
	home := tempHome(t)
	if err := os.WriteFile(filepath.Join(home, ".gitconfig"), []byte(GlobalConfig), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, kv := range Env(home) {
		k, v, _ := strings.Cut(kv, "=")
		if strings.HasPrefix(k, "GIT_") || k == "HOME" || k == "GOTELEMETRY" {
			t.Setenv(k, v)
		}
	}
	if gocache != "" {
		t.Setenv("GOCACHE", gocache)
	}
	toolsMu.Lock()
	names := toolsOf[t]
	toolsMu.Unlock()
	linkTools(t, names)
	for _, k := range []string{"GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE"} {
		os.Unsetenv(k)
	}
	return home
}

// Git runs git in dir and returns its trimmed output; a failure fails the
// test.
func Git(t testing.TB, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return strings.TrimSpace(string(out))
}

// Init creates an empty repository with branch main.
func Init(t testing.TB, dir string) {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	Git(t, dir, "init", "-q", "-b", "main")
}

// WriteFiles writes files (slash paths relative to dir).
func WriteFiles(t testing.TB, dir string, files map[string]string) {
	t.Helper()
	for name, data := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// CommitAll stages everything and commits; it returns the commit.
func CommitAll(t testing.TB, dir, msg string) string {
	t.Helper()
	Git(t, dir, "add", "-A")
	Git(t, dir, "commit", "-q", "--allow-empty", "-m", msg)
	return Git(t, dir, "rev-parse", "HEAD")
}

// Scenario is a repository built from a txtar archive.
type Scenario struct {
	Dir        string
	Base, Head string
	Comment    string
	// Wants maps "path:line" of the head state to the want expectations
	// written on that line.
	Wants map[string][]string
	// Sections holds the archive's files outside old/ and new/.
	Sections map[string]string
}

// Config is the check configuration the scenario asks for: the defaults
// with the flags of its `flags: ...` comment lines applied, validated.
func (sc *Scenario) Config(t testing.TB) *config.Config {
	t.Helper()
	cfg := config.Default()
	fs := flag.NewFlagSet("scenario", flag.ContinueOnError)
	cfg.RegisterFlags(fs)
	for _, l := range strings.Split(sc.Comment, "\n") {
		if rest, ok := strings.CutPrefix(strings.TrimSpace(l), "flags:"); ok {
			if err := fs.Parse(strings.Fields(rest)); err != nil {
				t.Fatalf("flags: %v", err)
			}
		}
	}
	if err := cfg.Validate(); err != nil {
		t.Fatal(err)
	}
	return cfg
}

var wantRE = regexp.MustCompile(`\s*// want (.*)$`)

// pyWantRE is the expectation comment of Python files.
var pyWantRE = regexp.MustCompile(`\s*# want (.*)$`)

// CommentFor is the line comment a want mark is written in, in the file
// name: "#" in Python, "//" in every other language (languages_test
// holds it to each registered language's lang.Language.Comment).
func CommentFor(name string) string {
	if strings.HasSuffix(name, ".py") {
		return "#"
	}
	return "//"
}

// FromTxtar builds a repository from an archive: old/ is committed as the
// base; new/ overlays it (a file whose content is exactly "DELETE" removes
// it) and is committed as the head. `// want ...` comments in new/ files
// (`# want ...` in .py files) are removed before committing and returned
// by line.
func FromTxtar(t testing.TB, ar *txtar.Archive) *Scenario {
	t.Helper()
	Hermetic(t)
	dir := t.TempDir()
	Init(t, dir)
	sc := &Scenario{Dir: dir, Comment: string(ar.Comment), Wants: map[string][]string{}, Sections: map[string]string{}}
	old, nw := map[string]string{}, map[string]string{}
	for _, f := range ar.Files {
		switch {
		case strings.HasPrefix(f.Name, "old/"):
			old[strings.TrimPrefix(f.Name, "old/")] = string(f.Data)
		case strings.HasPrefix(f.Name, "new/"):
			nw[strings.TrimPrefix(f.Name, "new/")] = string(f.Data)
		default:
			sc.Sections[f.Name] = string(f.Data)
		}
	}
	if len(old) == 0 && len(nw) == 0 {
		// a scenario with no trees checks nothing and passes vacuously
		t.Fatalf("txtar archive has no old/ or new/ files: nothing to check")
	}
	WriteFiles(t, dir, old)
	sc.Base = CommitAll(t, dir, "old")
	for name, data := range nw {
		if strings.TrimSpace(data) == "DELETE" {
			if err := os.Remove(filepath.Join(dir, filepath.FromSlash(name))); err != nil {
				t.Fatalf("new/%s: DELETE of a file not in old/: %v", name, err)
			}
			continue
		}
		lines := strings.Split(data, "\n")
		re := wantRE
		if CommentFor(name) == "#" {
			re = pyWantRE
		}
		for i, l := range lines {
			if m := re.FindStringSubmatchIndex(l); m != nil {
				sc.Wants[name+":"+strconv.Itoa(i+1)] = append(sc.Wants[name+":"+strconv.Itoa(i+1)], l[m[2]:m[3]])
				lines[i] = l[:m[0]]
			}
		}
		WriteFiles(t, dir, map[string]string{name: strings.Join(lines, "\n")})
	}
	sc.Head = CommitAll(t, dir, "new")
	return sc
}
