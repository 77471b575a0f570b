package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/ripple-dev/ripple/internal/check"
	"github.com/ripple-dev/ripple/internal/config"
	"github.com/ripple-dev/ripple/internal/gitio"
	"github.com/ripple-dev/ripple/internal/model"
	"github.com/ripple-dev/ripple/internal/prepush"
	"github.com/ripple-dev/ripple/internal/report"
)

// runPrePush is the hook: git passes the remote's name and URL as
// arguments and one line per pushed ref on stdin. Everything goes to
// stderr, the first line saying what blocked the push.
func runPrePush(ctx context.Context, dir string, args []string, stdin io.Reader, stderr io.Writer) int {
	fs := flag.NewFlagSet("pre-push", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: hook pre-push [config flags] REMOTE URL  (git runs it; it reads the pushed refs on stdin)")
		fs.PrintDefaults()
	}
	if wantsHelp(args) {
		config.Default().RegisterFlags(fs)
		fs.Usage()
		return ExitOK
	}
	repo, err := openRepo(ctx, dir)
	if err != nil {
		// not even a repository: never block a push for that
		fmt.Fprintln(stderr, "ripple: push not checked:", err)
		return ExitOK
	}
	defer repo.Close()
	// the flag package's own report of a bad flag (the error, then the
	// whole usage) is silenced: the error is said once, below
	usage := fs.Usage
	badFlag := false
	fs.Usage = func() { badFlag = true }
	fs.SetOutput(io.Discard)
	cfg, _, cfgErr := config.Resolve(repo.Top, fs, args)
	fs.Usage = usage
	fs.SetOutput(stderr)
	if errors.Is(cfgErr, flag.ErrHelp) { // -h=1
		fs.Usage()
		return ExitOK
	}
	if cfgErr != nil {
		cfg = config.Fallback(repo.Top, args)
	}
	fail := func(err error) int { return pushFailure(stderr, cfg, err, false) }
	if cfgErr != nil {
		if badFlag {
			return fail(cfgErr)
		}
		return fail(fmt.Errorf("config: %w", cfgErr))
	}
	remote := ""
	if fs.NArg() > 0 {
		remote = fs.Arg(0)
	}
	updates, err := prepush.Parse(stdin)
	if err != nil {
		return fail(err)
	}
	if len(updates) == 0 {
		// git runs the hook with no refs on every up-to-date push: a line
		// there would be noise on each one; -verbose (a run by hand) says it
		if cfg.Verbose {
			fmt.Fprintln(stderr, "ripple: pre-push read no refs on its input: nothing to check (git runs this hook with the remote's name and URL, and the pushed refs on stdin)")
		}
		return ExitOK
	}
	ctx, cancel := context.WithTimeout(ctx, cfg.Budget+30*time.Second)
	defer cancel()
	ranges, skips, err := prepush.Plan(ctx, repo, remote, updates)
	if err != nil {
		return fail(err)
	}
	// skipped refs are said with -verbose, and always when nothing at all
	// was checked: a silent pass must not look like a clean one
	if cfg.Verbose || len(ranges) == 0 {
		for _, s := range skips {
			fmt.Fprintf(stderr, "ripple: %s: not checked: %s\n", s.Ref, s.Why)
		}
	}
	if len(ranges) == 0 {
		return ExitOK
	}
	sess := check.NewSession(repo, cfg) // one budget for the push: every range and its merge check
	sess.SkipFrontier = !cfg.Verbose
	why, stale, reaches, err := checkRanges(ctx, sess, cfg, remote, ranges)
	if err != nil {
		return pushFailure(stderr, cfg, err, reaches)
	}
	merged := sess.Result()
	merged.PrecisionNotes = append(merged.PrecisionNotes, "checked: "+strings.Join(why, "; "))
	return reportPush(ctx, stderr, repo, cfg, merged, stale)
}

// pushFailure decides what a failure of the check does to the push: with
// on_tool_error auto, it blocks when the diff had changed declarations
// others may use (reaches), since broken sites may have gone unreported,
// and lets the push through otherwise. It says so on stderr and returns
// the exit code.
func pushFailure(stderr io.Writer, cfg *config.Config, err error, reaches bool) int {
	switch {
	case cfg.OnToolError == config.OnToolErrorBlock:
		fmt.Fprintf(stderr, "ripple: push blocked: the check failed: %v\n(on_tool_error: block; fix the cause, or push with --no-verify)\n", err)
		return ExitFailure
	case cfg.OnToolError == config.OnToolErrorAuto && reaches:
		fmt.Fprintf(stderr, "ripple: push blocked: the check failed after the diff changed declarations that other code may use, so broken sites may be unreported: %v\n(on_tool_error: auto; fix the cause, push with --no-verify, or set on_tool_error: allow)\n", err)
		return ExitFailure
	}
	fmt.Fprintf(stderr, "ripple: push not checked: %v\n(on_tool_error: %s lets the push through; set it to block to stop pushes when Ripple fails)\n", err, cfg.OnToolError)
	return ExitOK
}

// checkRanges checks each pushed range in sess, with its merge check when
// configured, and adds its result to the session. It returns why each
// range was checked and the stale remote-tracking lines to say once,
// after the report; on an error, reaches says whether the failed range
// had changed declarations others may use (check.Reaches).
func checkRanges(ctx context.Context, sess *check.Session, cfg *config.Config, remote string, ranges []prepush.Range) (why, stale []string, reaches bool, err error) {
	// a stale remote-tracking branch is said once, after the report (the
	// first line says what blocked the push), or alone
	for _, rg := range ranges {
		res, err := sess.Check(ctx, check.Options{Base: rg.Base, Head: rg.Head})
		if err != nil {
			return nil, nil, check.Reaches(res), fmt.Errorf("%s: %w", rg.Ref, err)
		}
		if cfg.MergeCheck {
			mr := &mergeRun{sess: sess, remote: remote, head: rg.Head}
			line, err := mr.run(ctx, res)
			if err != nil {
				return nil, nil, false, fmt.Errorf("%s: %w", rg.Ref, err)
			}
			if line != "" && !slices.Contains(stale, line) {
				stale = append(stale, line)
			}
		}
		sess.Add(res)
		why = append(why, rg.Why)
	}
	return why, stale, false, nil
}

// reportPush writes the push's verdict to stderr: nothing (but the stale
// lines) for a clean push unless verbose, else the headline, the report
// and, when blocked, how to get past it. A cold type cache is warmed for
// the next push.
func reportPush(ctx context.Context, stderr io.Writer, repo *gitio.Repo, cfg *config.Config, merged *model.Result, stale []string) int {
	blocked := check.Failing(merged, cfg)
	reportedAny := false
	for _, f := range merged.Findings {
		if f.Level.Rank() > 0 {
			reportedAny = true
		}
	}
	if merged.Stats.Cold {
		// the next push finds the type cache warm
		if line := autoWarm(ctx, repo); line != "" {
			stale = append(stale, line)
		}
	}
	sayStale := func() {
		for _, l := range stale {
			fmt.Fprintln(stderr, l)
		}
	}
	if !blocked && !reportedAny && !cfg.Verbose {
		sayStale()
		return ExitOK
	}
	fmt.Fprintln(stderr, report.Headline(merged, blocked))
	opts := report.Options{Verbose: cfg.Verbose, Color: isTerminal(stderr), ToolVersion: ToolVersion(), RepoRoot: repo.Top}
	if err := report.Text(stderr, merged, opts); err != nil {
		return pushFailure(stderr, cfg, err, false)
	}
	sayStale()
	if blocked {
		fmt.Fprintln(stderr, "ripple: fix the sites above, or push with --no-verify to skip the check")
		return ExitFindings
	}
	return ExitOK
}
