package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"runtime/debug"
	"runtime/pprof"
	"strings"
	"time"

	"github.com/ripple-dev/ripple/internal/check"
	"github.com/ripple-dev/ripple/internal/config"
	"github.com/ripple-dev/ripple/internal/gitio"
	"github.com/ripple-dev/ripple/internal/hookinstall"
	"github.com/ripple-dev/ripple/internal/languages"
	"github.com/ripple-dev/ripple/internal/oracle"
	"github.com/ripple-dev/ripple/internal/report"
)

// Exit codes.
const (
	ExitOK       = 0
	ExitFindings = 1
	ExitFailure  = 2
)

// Version may be set at build time with -ldflags "-X ...cli.Version=v1.2.3";
// read it through ToolVersion, which prefers what Go recorded in the
// binary (see versionOf).
var Version = "dev"

// usage is the command line's help; what fix proves with comes from the
// registry.
var usage = `usage: hook [-C dir] <command> [flags]

Ripple finds the code your diff left inconsistent.

commands:
  check       check a range of commits, or the uncommitted work tree
  pre-push    the git pre-push hook entry (reads git's ref lines on stdin)
  fix         derive the missing edits, prove them (` + proofs() + `), show or write them
  install     install the pre-push hook in this repository
  uninstall   remove it (restoring a hook it chained)
  warm        prepare the type cache for this repository (install starts it in the background)
  cache       show where Ripple's cache is and its size; cache clean removes it
  tools       list the tools the languages install on first use; tools install installs them
  version     print the version

Run 'hook <command> -h' for a command's flags.
`

// gcPercent is the collector's target in the hook's process, unless
// GOGC sets one: a check is a short process whose heap (syntax trees,
// types) stays live until it ends, so collecting when the heap has
// grown by four times the live heap rather than by once saves CPU for
// little memory, since the soft limit (memlimit.go) bounds a large
// check's heap whatever the target (bench/terraform-kinds.sh, CPU-s:
// GOGC 100 -> 200 saved about 15%, param 0.80 -> 0.68, branch 1.67 ->
// 1.44; 200 -> 400, under the limit, 12 interleaved runs of the last 50
// commits: median 2.74 -> 2.42 CPU s, peak RSS 292 -> 272 MB).
const gcPercent = 400

// Main runs the command line with the process's streams and returns the
// exit code.
func Main() int {
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(gcPercent)
	}
	capMemory()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	return Run(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
}

// Run runs one command line.
func Run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	ctx = oracle.WithLog(ctx, stderr) // a tool's first install says so before it starts
	dir := "."
	for len(args) >= 2 && args[0] == "-C" {
		dir, args = args[1], args[2:]
	}
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return ExitFailure
	}
	cmd, rest := args[0], args[1:]
	switch cmd {
	case "check":
		return runCheck(ctx, dir, rest, stdout, stderr)
	case "pre-push":
		return runPrePush(ctx, dir, rest, stdin, stderr)
	case "fix":
		return runFix(ctx, dir, rest, stdout, stderr)
	case "install", "uninstall":
		return runInstall(ctx, dir, cmd, rest, stdout, stderr)
	case "warm":
		return runWarm(ctx, dir, rest, stdout, stderr)
	case "cache":
		return runCache(rest, stdout, stderr)
	case "tools":
		return runTools(ctx, rest, stdout, stderr)
	case "version", "--version":
		fmt.Fprintln(stdout, "ripple", ToolVersion())
		return ExitOK
	case "help", "-h", "--help":
		fmt.Fprint(stdout, usage)
		return ExitOK
	}
	fmt.Fprintf(stderr, "hook: unknown command %q\n\n%s", cmd, usage)
	return ExitFailure
}

// proofs names what each language's oracle runs ("Go: go build, go
// vet; Python: pyright; ...").
func proofs() string {
	var out []string
	for _, l := range languages.All() {
		if l.Proof != "" {
			out = append(out, l.Title+": "+l.Proof)
		}
	}
	return strings.Join(out, "; ")
}

func openRepo(ctx context.Context, dir string) (*gitio.Repo, error) {
	if abs, err := filepath.Abs(dir); err == nil {
		dir = abs // errors name the directory, not "."
	}
	return gitio.Open(ctx, dir)
}

// wantsHelp reports a -h or -help flag, answered before anything else
// (inside a repository or not).
func wantsHelp(args []string) bool {
	for _, a := range args {
		switch a {
		case "-h", "-help", "--help":
			return true
		case "--":
			return false
		}
	}
	return false
}

// isTerminal reports whether w is a character device (for colour).
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok || os.Getenv("NO_COLOR") != "" || os.Getenv("TERM") == "dumb" {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

func runCheck(ctx context.Context, dir string, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("check", flag.ContinueOnError)
	fs.SetOutput(stderr)
	base := fs.String("base", "", "base `revision` (default: merge-base with the upstream, else with the default branch; HEAD with -worktree)")
	head := fs.String("head", "", "head `revision` (default: HEAD)")
	work := fs.Bool("worktree", false, "check the uncommitted work tree (untracked files included) against -base, default HEAD")
	mergeRef := fs.String("merge", "", "also check the head merged with `branch` (e.g. origin/main): callers it gained since the fork of what the head changed, and the head's uses of what it changed (merge_check alone merges with origin/HEAD)")
	preCommit := fs.Bool("pre-commit", false, "take the range from the pre-commit framework (PRE_COMMIT_FROM_REF, PRE_COMMIT_TO_REF)")
	cpuProfile := fs.String("cpuprofile", "", "write a CPU profile of the check to `file` (for reporting a slow check)")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: hook check [-base REV] [-head REV | -worktree] [-merge BRANCH] [flags]")
		fs.PrintDefaults()
	}
	repo, cfg, code := setUp(ctx, dir, fs, args, stderr)
	if repo == nil {
		return code
	}
	defer repo.Close()
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "ripple: unexpected argument %q (revisions go in -base and -head)\n", fs.Arg(0))
		return ExitFailure
	}
	if *work && *head != "" {
		fmt.Fprintln(stderr, "ripple: -worktree and -head exclude each other")
		return ExitFailure
	}
	if *preCommit {
		*base, *head = os.Getenv("PRE_COMMIT_FROM_REF"), os.Getenv("PRE_COMMIT_TO_REF")
	}
	if *cpuProfile != "" {
		stop, err := startProfile(*cpuProfile)
		if err != nil {
			fmt.Fprintln(stderr, "ripple:", err)
			return ExitFailure
		}
		defer stop()
	}
	merging := *mergeRef != "" || cfg.MergeCheck
	sess := check.NewSession(repo, cfg)                                 // one budget for the check and the merge check
	sess.SkipFrontier = cfg.Format == config.FormatText && !cfg.Verbose // no notes shown: the frontier is not walked
	ctx, cancel := sess.Context(ctx, 30*time.Second)
	defer cancel()
	res, err := sess.Check(ctx, check.Options{Base: *base, Head: *head, WorkTree: *work})
	if err != nil {
		// HEAD is the head of the range, or with -worktree its default
		// base: when it has no commit, say so rather than git's "unknown
		// revision" (asked only after a failure: a push pays nothing)
		if (!*work && *head == "") || (*work && *base == "") {
			if e := noCommits(ctx, repo); e != nil {
				err = e
			}
		}
		fmt.Fprintln(stderr, "ripple:", err)
		return ExitFailure
	}
	switch {
	case merging && *work:
		res.PrecisionNotes = append(res.PrecisionNotes, "merge check: not run with -worktree (uncommitted work cannot be merged); commit, then check with -merge")
	case merging:
		mr := &mergeRun{sess: sess, ref: *mergeRef, head: res.Head}
		stale, err := mr.run(ctx, res)
		if err != nil {
			fmt.Fprintln(stderr, "ripple:", err)
			return ExitFailure
		}
		if stale != "" {
			res.PrecisionNotes = append(res.PrecisionNotes, strings.TrimPrefix(stale, "ripple: "))
		}
	}
	opts := report.Options{Verbose: cfg.Verbose, Color: cfg.Format == "text" && isTerminal(stdout), ToolVersion: ToolVersion(), RepoRoot: repo.Top}
	if err := report.Write(stdout, cfg.Format, res, opts); err != nil {
		fmt.Fprintln(stderr, "ripple:", err)
		return ExitFailure
	}
	if check.Failing(res, cfg) {
		return ExitFindings
	}
	return ExitOK
}

func runInstall(ctx context.Context, dir, cmd string, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet(cmd, flag.ContinueOnError)
	fs.SetOutput(stderr)
	force := new(bool)
	if cmd == "install" {
		fs.BoolVar(force, "force", false, "replace a Ripple hook of another version")
		fs.Usage = func() {
			fmt.Fprintln(stderr, `usage: hook install [-force]

Installs Ripple's pre-push hook in this repository (in git's hooks
directory, core.hooksPath included); a pre-push hook of another tool is
kept and run first.`)
			fs.PrintDefaults()
		}
	} else {
		fs.Usage = func() {
			fmt.Fprintln(stderr, `usage: hook uninstall

Removes Ripple's pre-push hook from this repository, putting back the
hook it chained; a hook that is not Ripple's is left alone.`)
		}
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
	var msg string
	if cmd == "install" {
		exe, err := os.Executable()
		if err != nil {
			fmt.Fprintln(stderr, "ripple: cannot locate the ripple binary:", err)
			return ExitFailure
		}
		msg, err = hookinstall.Install(ctx, repo, hookinstall.Options{Exe: exe, Force: *force})
		if err != nil {
			fmt.Fprintln(stderr, "ripple:", err)
			return ExitFailure
		}
		if line := autoWarm(ctx, repo); line != "" {
			msg = strings.TrimRight(msg, "\n") + "\n" + strings.TrimPrefix(line, "ripple: ")
		}
	} else {
		msg, err = hookinstall.Uninstall(ctx, repo)
		if err != nil {
			fmt.Fprintln(stderr, "ripple:", err)
			return ExitFailure
		}
	}
	fmt.Fprintln(stdout, strings.TrimRight(msg, "\n"))
	return ExitOK
}

// noCommits is the error of a command that needs HEAD when HEAD has no
// commit: a repository without any (just after git init), or a branch
// not yet committed to. Without it the command fails on git's "unknown
// revision HEAD", which does not say why.
func noCommits(ctx context.Context, repo *gitio.Repo) error {
	if repo.HeadCommit(ctx) != "" {
		return nil
	}
	out, err := repo.Git(ctx, "for-each-ref", "--count=1", "--format=%(refname)")
	if err == nil && strings.TrimSpace(string(out)) == "" {
		return fmt.Errorf("%s has no commits yet; nothing to check", repo.Top)
	}
	if b := repo.CurrentBranch(ctx); b != "" {
		return fmt.Errorf("branch %s has no commits yet; nothing to check", b)
	}
	return fmt.Errorf("HEAD has no commit in %s; nothing to check", repo.Top)
}

// startProfile starts a CPU profile written to path.
func startProfile(path string) (func(), error) {
	f, err := os.Create(path)
	if err != nil {
		return nil, fmt.Errorf("cpu profile: %w", err)
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		f.Close()
		return nil, fmt.Errorf("cpu profile: %w", err)
	}
	return func() { pprof.StopCPUProfile(); f.Close() }, nil
}

// setUp is the prologue of the commands that check a repository: -h,
// opening the repository, and the configuration (defaults < file <
// flags, parsed on fs). A nil repo means the command is done, with code.
func setUp(ctx context.Context, dir string, fs *flag.FlagSet, args []string, stderr io.Writer) (*gitio.Repo, *config.Config, int) {
	if wantsHelp(args) {
		config.Default().RegisterFlags(fs)
		fs.Usage()
		return nil, nil, ExitOK
	}
	repo, err := openRepo(ctx, dir)
	if err != nil {
		fmt.Fprintln(stderr, "ripple:", err)
		return nil, nil, ExitFailure
	}
	var cfg *config.Config
	code, ok := parseFlags(fs, stderr, func() (err error) {
		cfg, _, err = config.Resolve(repo.Top, fs, args)
		return err
	})
	if !ok {
		repo.Close()
		return nil, nil, code
	}
	return repo, cfg, ExitOK
}

// parseFlags runs parse (fs.Parse, or config.Resolve, which calls it)
// with the flag package's own reporting silenced: on a bad flag it would
// print the error and the whole usage, and the caller the error again.
// A bad flag is said once, with a hint (the flag package calls fs.Usage
// on every error of its own, which tells them from the errors of the
// config file); -h (-h=1, -help) prints the usage. ok is false when the
// command is done, with code.
func parseFlags(fs *flag.FlagSet, stderr io.Writer, parse func() error) (code int, ok bool) {
	usage, out := fs.Usage, fs.Output()
	badFlag := false
	fs.Usage = func() { badFlag = true }
	fs.SetOutput(io.Discard)
	err := parse()
	fs.Usage = usage
	fs.SetOutput(out)
	switch {
	case err == nil:
		return ExitOK, true
	case errors.Is(err, flag.ErrHelp):
		fs.Usage()
		return ExitOK, false
	case badFlag:
		fmt.Fprintf(stderr, "ripple: %v\n%s\n", err, usageHint(fs))
		return ExitFailure, false
	}
	fmt.Fprintln(stderr, "ripple:", err)
	return ExitFailure, false
}

// usageHint is the line that follows a usage error.
func usageHint(fs *flag.FlagSet) string {
	return fmt.Sprintf("run 'hook %s -h' for usage", fs.Name())
}
