package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/ripple-dev/ripple/internal/check"
	"github.com/ripple-dev/ripple/internal/config"
	"github.com/ripple-dev/ripple/internal/gitio"
	"github.com/ripple-dev/ripple/internal/lang"
	"github.com/ripple-dev/ripple/internal/languages"
	"github.com/ripple-dev/ripple/internal/usercache"
)

// warmTimeout bounds one warm-up: a repository whose every package takes
// longer is prepared in part, and the checks load the rest.
const warmTimeout = 30 * time.Minute

// runWarm is `hook warm`: it prepares what the type-precise tiers need
// for the repository's HEAD (lang.Warmer), in the foreground, or with
// -background in a detached process of low priority whose output goes
// to a log in Ripple's cache.
func runWarm(ctx context.Context, dir string, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("warm", flag.ContinueOnError)
	fs.SetOutput(stderr)
	background := fs.Bool("background", false, "start it in a detached process of low priority and return at once (its output goes to warm.log in Ripple's cache)")
	fs.Usage = func() {
		fmt.Fprintln(stderr, `usage: hook warm [-background]

Prepares, for this repository's HEAD, what the type-precise tier of a
check would otherwise build on the push's time (Go: the export data of
every package of the repository and of what it imports, in Ripple's
cache), so that the first push after an install, or after dependencies
changed, is not a cold one. hook install starts it in the background.`)
		fs.PrintDefaults()
	}
	if wantsHelp(args) {
		fs.Usage()
		return ExitOK
	}
	if code, ok := parseFlags(fs, stderr, func() error { return fs.Parse(args) }); !ok {
		return code
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "ripple: unexpected argument %q\n%s\n", fs.Arg(0), usageHint(fs))
		return ExitFailure
	}
	repo, err := openRepo(ctx, dir)
	if err != nil {
		fmt.Fprintln(stderr, "ripple:", err)
		return ExitFailure
	}
	defer repo.Close()
	if *background {
		log, err := startWarm(repo.Top)
		if err != nil {
			fmt.Fprintln(stderr, "ripple: cannot start the warm-up:", err)
			return ExitFailure
		}
		if log != "" {
			fmt.Fprintf(stdout, "preparing the type cache in the background (log: %s)\n", log)
		}
		return ExitOK
	}
	if lock := os.Getenv("RIPPLE_WARM_LOCK"); lock != "" { // the detached process
		lowerSelf()
		defer os.Remove(lock)
	}
	lines, err := warm(ctx, repo)
	for _, l := range lines {
		fmt.Fprintln(stdout, l)
	}
	if err != nil {
		fmt.Fprintln(stderr, "ripple:", err)
		return ExitFailure
	}
	return ExitOK
}

// warm runs every front-end's warm-up on HEAD.
func warm(ctx context.Context, repo *gitio.Repo) ([]string, error) {
	ctx, cancel := context.WithTimeout(ctx, warmTimeout)
	defer cancel()
	sha, err := repo.Resolve(ctx, "HEAD")
	if err != nil {
		return nil, fmt.Errorf("HEAD: %w", err)
	}
	cfg, _, err := config.Resolve(repo.Top, flag.NewFlagSet("warm", flag.ContinueOnError), nil)
	if err != nil {
		cfg = config.Default()
	}
	head := &gitio.RevTree{R: repo, SHA: sha}
	env := &lang.Env{Base: head, Head: head, Ignored: cfg.Ignored, Precision: config.PrecisionTypes}
	var lines []string
	var errs []error
	if repo.Words == nil {
		repo.Words = check.OpenWords(repo)
	}
	var specs []string
	for _, fe := range languages.Frontends() {
		specs = append(specs, fe.Pathspecs()...)
	}
	if err := head.IndexWords(ctx, specs...); err != nil {
		errs = append(errs, fmt.Errorf("word index: %w", err))
	}
	repo.Words.Save()
	for _, fe := range languages.Frontends() {
		w, ok := fe.(lang.Warmer)
		if !ok {
			continue
		}
		line, err := w.Warm(ctx, env)
		if err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", fe.Name(), err))
			continue
		}
		lines = append(lines, line)
	}
	return lines, errors.Join(errs...)
}

// autoWarm starts a warm-up in the background after an install or a
// cold push, when the repository has files of a front-end that warms
// up and RIPPLE_WARM is not "off"; it returns the line to show ("" when
// none was started).
func autoWarm(ctx context.Context, repo *gitio.Repo) string {
	if os.Getenv("RIPPLE_WARM") == "off" {
		return ""
	}
	var specs []string
	for _, fe := range languages.Frontends() {
		if _, ok := fe.(lang.Warmer); ok {
			specs = append(specs, fe.Pathspecs()...)
		}
	}
	if len(specs) == 0 {
		return ""
	}
	out, err := repo.Git(ctx, append([]string{"ls-files", "-z", "--"}, specs...)...)
	if err != nil || len(out) == 0 {
		return ""
	}
	log, err := startWarm(repo.Top)
	switch {
	case err != nil:
		return "ripple: could not start preparing the type cache: " + err.Error()
	case log == "":
		return "" // one is running
	}
	return "ripple: preparing the type cache in the background (log: " + log + ")"
}

// startWarm starts `hook -C top warm` detached, unless one started less
// than warmTimeout ago still holds the lock; it returns the log's path
// ("" when one is running already).
func startWarm(top string) (string, error) {
	dir, err := cacheDir()
	if err != nil {
		return "", err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	lock := filepath.Join(dir, "warm.lock")
	if st, err := os.Stat(lock); err == nil && time.Since(st.ModTime()) < warmTimeout {
		if b, err := os.ReadFile(lock); err == nil && processAlive(strings.TrimSpace(string(b))) {
			return "", nil
		}
	}
	exe, err := os.Executable()
	if err != nil {
		return "", err
	}
	logPath := filepath.Join(dir, "warm.log")
	log, err := os.Create(logPath)
	if err != nil {
		return "", err
	}
	defer log.Close()
	args := []string{exe, "-C", top, "warm"}
	if nice, err := exec.LookPath("nice"); err == nil {
		args = append([]string{nice, "-n", "19"}, args...) // every thread of it, from its start
	}
	cmd := exec.Command(args[0], args[1:]...)
	cmd.Stdout, cmd.Stderr = log, log
	cmd.Env = append(os.Environ(), "RIPPLE_WARM_LOCK="+lock)
	detach(cmd)
	if err := cmd.Start(); err != nil {
		return "", err
	}
	_ = os.WriteFile(lock, []byte(strconv.Itoa(cmd.Process.Pid)), 0o644)
	return logPath, cmd.Process.Release()
}

// cacheDir is Ripple's user cache: $RIPPLE_CACHE, else the user cache
// directory's ripple folder.
func cacheDir() (string, error) {
	if d := os.Getenv("RIPPLE_CACHE"); d != "" && d != "off" {
		return d, nil
	}
	return usercache.ToolDir("") // the user cache's ripple folder, even with the type cache off
}
