package action

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"runtime/debug"
	"strconv"
	"strings"
	"time"

	githubactions "github.com/sethvargo/go-githubactions"

	"github.com/ripple-dev/ripple/internal/action/annotate"
	"github.com/ripple-dev/ripple/internal/action/event"
	"github.com/ripple-dev/ripple/internal/action/findings"
	"github.com/ripple-dev/ripple/internal/action/fixmode"
	"github.com/ripple-dev/ripple/internal/action/ghapi"
	"github.com/ripple-dev/ripple/internal/action/handoff"
	"github.com/ripple-dev/ripple/internal/action/md"
	"github.com/ripple-dev/ripple/internal/action/review"
	"github.com/ripple-dev/ripple/internal/action/summary"
	"github.com/ripple-dev/ripple/internal/check"
	"github.com/ripple-dev/ripple/internal/cli"
	"github.com/ripple-dev/ripple/internal/config"
	"github.com/ripple-dev/ripple/internal/gitio"
	"github.com/ripple-dev/ripple/internal/model"
	"github.com/ripple-dev/ripple/internal/oracle"
	"github.com/ripple-dev/ripple/internal/report"
)

// Env is what a run reads and writes besides the files the environment
// names.
type Env struct {
	Getenv func(string) string
	Stdout io.Writer
}

// Main runs the action in this process's environment and returns the
// exit code (cli.ExitOK, cli.ExitFindings, cli.ExitFailure).
func Main() int {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	return Run(ctx, Env{Getenv: os.Getenv, Stdout: os.Stdout})
}

// Run runs the action once.
func Run(ctx context.Context, env Env) (code int) {
	r := &run{runner: runner{getenv: env.Getenv, w: env.Stdout}}
	ctx = oracle.WithLog(ctx, env.Stdout) // a tool's first install says so in the log before it starts
	r.gha = githubactions.New(githubactions.WithWriter(env.Stdout), githubactions.WithGetenv(env.Getenv))
	defer func() {
		if p := recover(); p != nil {
			fmt.Fprintf(env.Stdout, "::error title=ripple::ripple: internal error: %v\n", p)
			fmt.Fprintf(env.Stdout, "%s\n", debug.Stack())
			code = cli.ExitFailure
		}
	}()
	return r.main(ctx)
}

// run is the state of one run.
type run struct {
	runner
	in       *inputs
	links    findings.Links
	runURL   string
	delivery []string
}

func (r *run) main(ctx context.Context) int {
	in, err := readInputs(r.gha)
	if err != nil {
		return r.toolError(nil, err)
	}
	r.in = in
	r.mask(in.token)
	r.mask(r.getenv("RIPPLE_LLM_API_KEY"))
	server := r.getenv("GITHUB_SERVER_URL")
	if server == "" {
		server = "https://github.com"
	}
	ev, err := event.FromEnv(r.getenv)
	if err != nil {
		return r.toolError(nil, err)
	}
	r.links = findings.Links{Server: server, Repo: ev.Repo}
	if id := r.getenv("GITHUB_RUN_ID"); id != "" {
		r.runURL = strings.TrimRight(server, "/") + "/" + ev.Repo + "/actions/runs/" + id
	}
	if in.reviewFrom != "" {
		return r.postHandoff(ctx, ev)
	}
	return r.analyse(ctx, ev)
}

// toolError reports that Ripple could not check: an error annotation,
// the summary, the outputs; exit 2.
func (r *run) toolError(rep *findings.Report, err error) int {
	r.errorf("ripple: %v", err)
	r.setOutput("verdict", summary.Error)
	r.addSummary(summary.Markdown(summary.Input{Report: rep, Links: r.links, Verdict: summary.Error, Problem: err.Error(), Delivery: r.delivery}))
	return cli.ExitFailure
}

// analyse checks the range of ev and delivers the verdict: the report
// and SARIF file, the pull request's review and fix mode, the outputs and
// the job summary. It returns the step's exit code.
func (r *run) analyse(ctx context.Context, ev *event.Event) int {
	dir := r.in.workingDirectory
	if dir == "" {
		dir = "."
	}
	repo, err := gitio.Open(ctx, dir)
	if err != nil {
		return r.toolError(nil, fmt.Errorf("working-directory %s: %w (did actions/checkout run before ripple?)", dir, err))
	}
	defer repo.Close()
	fs := flag.NewFlagSet("ripple-action", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	cfg, _, err := config.Resolve(repo.Top, fs, r.in.configArgs)
	if err != nil {
		return r.toolError(nil, fmt.Errorf("configuration: %w", err))
	}
	if !cfg.Explicit("precision") {
		// CI can afford what a pre-push cannot: unless the repository or
		// the workflow says otherwise, every reference the syntax cannot
		// settle is type-checked, with no time bound
		cfg.Precision = config.PrecisionTypes
	}
	rg, err := event.Plan(ctx, repo, ev, event.Options{
		Base: r.in.base, Head: r.in.head, Deepen: r.in.deepen,
		Log: func(s string) { r.logf("ripple: fetching history: %s", s) },
	})
	if err != nil {
		return r.toolError(nil, err)
	}
	if rg.Nothing != "" {
		r.setOutput("verdict", summary.Pass)
		r.noticef("ripple: %s", rg.Nothing)
		r.addSummary(summary.Markdown(summary.Input{Verdict: summary.Pass, FailOn: cfg.FailOn, Problem: rg.Nothing}))
		return cli.ExitOK
	}
	r.logf("ripple: checking %s against %s (%s)", findings.Short(rg.Head), findings.Short(rg.Base), rg.Why)
	sess := check.NewSession(repo, cfg) // one budget for the check and the merge check
	cctx, cancel := sess.Context(ctx, time.Minute)
	defer cancel()
	res, err := sess.Check(cctx, check.Options{Base: rg.Base, Head: rg.Head})
	if err != nil {
		return r.toolError(nil, err)
	}
	r.mergeCheck(cctx, sess, ev, rg, res)
	files := changedFiles(ctx, repo, rg.Base, rg.Head)
	languages := languageLines(files, res, cfg, r.getenv)
	problem := ""
	if m := onlyManifests(files); m != "" && len(res.Findings) == 0 {
		if unread := unreadManifests(files, res.Bumps); unread != "" {
			// a pass would read as "the bump is safe": say what it is
			problem = "Ripple checked nothing it could judge: this pull request changes only dependency manifests (" + m + "), and it read no dependency version change from " + unread + " (a bump of an ecosystem Ripple does not read yet is not a change it follows: the callers of what the new versions changed are not walked), so this pass says nothing about it."
			r.noticef("ripple: %s", problem)
		}
	}
	rep, err := findings.FromResult(res)
	if err != nil {
		return r.toolError(nil, err)
	}
	if err := r.publish(repo, cfg, res, rep); err != nil {
		return r.toolError(rep, err)
	}
	fr := r.respond(ctx, ev, repo, rg, cfg, res, rep)
	verdict, code := summary.Pass, cli.ExitOK
	if check.Failing(res, cfg) {
		verdict, code = summary.Fail, cli.ExitFindings
	}
	r.setOutput("verdict", verdict)
	r.setCounts(rep)
	r.setOutput("base", rg.Base)
	r.setOutput("head", rg.Head)
	fixSection := ""
	if fr != nil {
		fixSection = fixmode.Section(fr.res, fr.out, r.links)
	}
	r.addSummary(summary.Markdown(summary.Input{Report: rep, Links: r.links, Verdict: verdict, FailOn: cfg.FailOn, Range: rg.Why, Problem: problem, Fix: fixSection, Languages: languages, Delivery: r.delivery}))
	if code == cli.ExitFindings {
		r.logf("ripple: %s; the step fails (fail_on: %s)", findings.Headline(rep), cfg.FailOn)
	}
	return code
}

// publish delivers the report where the job shows it: the text report in
// the log, the SARIF file (an error when it cannot be written) and, when
// enabled, the annotations; each delivery is said in the summary.
func (r *run) publish(repo *gitio.Repo, cfg *config.Config, res *model.Result, rep *findings.Report) error {
	ropts := report.Options{Verbose: cfg.Verbose, ToolVersion: cli.ToolVersion(), RepoRoot: repo.Top}
	var text bytes.Buffer
	if err := report.Text(&text, res, ropts); err == nil {
		r.group("Ripple report", func() { r.untrusted(report.Headline(res, false) + "\n" + text.String()) })
	}
	sarif, err := r.writeSARIF(res, ropts)
	if err != nil {
		return err
	}
	r.delivery = append(r.delivery, fmt.Sprintf("SARIF: `%s` (%d results, with the relation path from each change to each site) for `github/codeql-action/upload-sarif`.", sarif, rep.Counts.Total()))
	r.setOutput("sarif-file", sarif)
	if r.in.annotations {
		r.annotateAll(rep)
	} else {
		r.delivery = append(r.delivery, "Annotations: off (annotations: false).")
	}
	return nil
}

// respond acts on the pull request, when the event has one: the handoff
// file, fix mode (when asked) and the review. Without a pull request
// there is no review, and fix mode says why it did not run. It returns
// fix mode's run, nil when it was not asked.
func (r *run) respond(ctx context.Context, ev *event.Event, repo *gitio.Repo, rg *event.Range, cfg *config.Config, res *model.Result, rep *findings.Report) *fixRun {
	var fr *fixRun
	if ev.PR != nil {
		if p, err := r.writeHandoff(ev, res); err != nil {
			r.logf("ripple: %v", err)
			r.delivery = append(r.delivery, "Handoff file: not written: "+md.Text(err.Error())+".")
		} else {
			r.setOutput("handoff-file", p)
		}
		dm, dmErr := r.prDiff(ctx, repo, rg)
		if r.in.mode == modeFix {
			fr = r.fixPR(ctx, ev, repo, rg, cfg, rep, dm)
			r.reportFix(fr)
		}
		r.reviewPR(ctx, ev, rg, rep, dm, dmErr, fr)
	} else {
		r.setOutput("review", review.Skipped)
		if r.in.mode == modeFix {
			fr = r.fixPR(ctx, ev, repo, rg, cfg, rep, nil)
			r.reportFix(fr)
		}
	}
	return fr
}

// mergeCheck runs the merge check of a pull request: its head merged
// with the base commit of the event (what GitHub would merge), on by
// default, off with merge-check: false (or merge_check: false in the
// repository's config). Its findings join res; a failure of the merge
// check is a warning, never the job's failure: the ordinary check's
// findings stand.
func (r *run) mergeCheck(ctx context.Context, sess *check.Session, ev *event.Event, rg *event.Range, res *model.Result) {
	cfg := sess.Config
	on := ev.PR != nil
	if cfg.Explicit("merge_check") {
		on = cfg.MergeCheck
	}
	switch {
	case !on:
		return
	case ev.PR == nil:
		res.PrecisionNotes = append(res.PrecisionNotes, "merge check: not run: it runs on pull requests, against their base commit")
		return
	}
	name := ev.PR.BaseRef
	if name == "" {
		name = findings.Short(ev.PR.BaseSHA)
	}
	r.logf("ripple: merge check: %s merged with %s (%s)", findings.Short(rg.Head), name, findings.Short(ev.PR.BaseSHA))
	if err := sess.Merge(ctx, res, check.MergeOptions{Ref: ev.PR.BaseSHA, Name: name, Head: rg.Head}); err != nil {
		r.warningf("ripple: the merge check did not run: %v", err)
		r.delivery = append(r.delivery, "Merge check: did not run: "+md.Text(err.Error())+".")
	}
}

func (r *run) setCounts(rep *findings.Report) {
	r.setOutput("errors", strconv.Itoa(rep.Counts.Error))
	r.setOutput("warnings", strconv.Itoa(rep.Counts.Warning))
	r.setOutput("notes", strconv.Itoa(rep.Counts.Note))
	r.setOutput("findings", strconv.Itoa(rep.Counts.Total()))
}

// tempPath is name in RUNNER_TEMP (outside the work tree), else in the
// system's temporary directory.
func (r *run) tempPath(name string) string {
	dir := r.getenv("RUNNER_TEMP")
	if dir == "" {
		dir = os.TempDir()
	}
	return filepath.Join(dir, name)
}

func (r *run) writeSARIF(res *model.Result, o report.Options) (string, error) {
	p := r.in.sarifFile
	if p == "" {
		p = r.tempPath("ripple.sarif")
	}
	var buf bytes.Buffer
	if err := report.SARIF(&buf, res, o); err != nil {
		return "", err
	}
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return "", fmt.Errorf("sarif-file: %w", err)
	}
	if err := os.WriteFile(p, buf.Bytes(), 0o644); err != nil {
		return "", fmt.Errorf("sarif-file: %w", err)
	}
	return p, nil
}

func (r *run) writeHandoff(ev *event.Event, res *model.Result) (string, error) {
	p := r.tempPath("ripple-handoff.json")
	return p, handoff.Write(p, ev.Repo, ev.PR.Number, res)
}

func (r *run) annotateAll(rep *findings.Report) {
	// one warning slot stays free for "the review was not posted", and
	// in fix mode one notice slot for what the fix did
	limits := annotate.Limits{PerLevel: annotate.GitHub.PerLevel, PerJob: annotate.GitHub.PerJob - 1, Keep: map[string]int{"warning": 1}}
	if r.in.mode == modeFix {
		limits.PerJob--
		limits.Keep["notice"] = 1
	}
	plan := annotate.Plan(rep, limits)
	for _, a := range plan.Annotations {
		r.annotate(a)
	}
	var parts []string
	for _, l := range []string{"error", "warning", "notice"} {
		if t := plan.Total[l]; t > 0 {
			parts = append(parts, fmt.Sprintf("%d of %d %ss", plan.Shown[l], t, l))
		}
	}
	switch {
	case len(parts) == 0:
		r.delivery = append(r.delivery, "Annotations: none (no findings).")
	case plan.Omitted() > 0:
		r.delivery = append(r.delivery, fmt.Sprintf("Annotations: %s annotated. GitHub shows at most %d annotations per level per step and %d per job: the last annotation of a level counts the %d findings left out, and every one of them is in the tables above.",
			strings.Join(parts, ", "), annotate.GitHub.PerLevel, annotate.GitHub.PerJob, plan.Omitted()))
		r.logf("ripple: %d findings are over GitHub's annotation limits; the job summary lists them", plan.Omitted())
	default:
		r.delivery = append(r.delivery, fmt.Sprintf("Annotations: %s annotated.", strings.Join(parts, ", ")))
	}
}

// newAPI makes the REST client of this run.
func (r *run) newAPI(repo string) (*ghapi.API, error) {
	api, err := ghapi.New(r.getenv("GITHUB_API_URL"), r.in.token, repo)
	if err != nil {
		return nil, err
	}
	api.Log = func(s string) { r.logf("ripple: GitHub API: %s", s) }
	return api, nil
}

func (r *run) reviewOptions() review.Options {
	n := r.in.maxComments
	if n == 0 {
		n = -1 // every finding in the body
	}
	return review.Options{MaxComments: n, Links: r.links, RunURL: r.runURL}
}

// prDiff is the pull request's diff (the range checked), as a map of
// the lines GitHub takes review comments on.
func (r *run) prDiff(ctx context.Context, repo *gitio.Repo, rg *event.Range) (*review.DiffMap, error) {
	patch, err := repo.Git(ctx, "diff", "--no-ext-diff", "--no-textconv", "--no-color", "-U3", "-M", "--src-prefix=a/", "--dst-prefix=b/", rg.Base, rg.Head)
	if err != nil {
		return nil, fmt.Errorf("reading the pull request's diff: %v", err)
	}
	return review.ParseGitDiff(patch)
}

func (r *run) reviewPR(ctx context.Context, ev *event.Event, rg *event.Range, rep *findings.Report, dm *review.DiffMap, dmErr error, fr *fixRun) {
	if !r.in.review {
		r.setOutput("review", review.Skipped)
		r.delivery = append(r.delivery, "Review: off (review: false).")
		return
	}
	if rg.Head != ev.PR.HeadSHA {
		r.setOutput("review", review.Skipped)
		r.delivery = append(r.delivery, fmt.Sprintf("Review: not posted: the head input (%s) is not the pull request's head (%s), and review comments can only sit on the latter.", findings.Short(rg.Head), findings.Short(ev.PR.HeadSHA)))
		return
	}
	api, err := r.newAPI(ev.Repo)
	if err != nil {
		r.reviewFailed(err.Error())
		return
	}
	if dmErr != nil {
		r.reviewFailed(dmErr.Error())
		return
	}
	o := r.reviewOptions()
	if fr != nil {
		o.Note = fixmode.Note(fr.out, r.links)
		// new commits on the branch, or a pull request opened now, are
		// news; an earlier run's pull request found again is not
		o.NoteIsNews = fr.out.State == fixmode.Pushed || fr.out.State == fixmode.PullRequest && !fr.out.Stacked.Existing
	}
	out := r.postReview(ctx, api, ev.PR.Number, rg.Head, rep, dm, o)
	if out.State == review.Failed && out.Kind == ghapi.KindForbidden {
		if why := ev.ReadOnlyReason(); why != "" {
			r.delivery = append(r.delivery, fmt.Sprintf("This is expected here: %s, so the workflow's token is read-only. Annotations, this summary and the SARIF file carry every finding; to get the review as well, use the two-phase set-up of docs/action.md, whose input is this run's handoff file.", why))
		}
	}
}

// reviewFailed reports a review that could not even be attempted.
func (r *run) reviewFailed(reason string) {
	r.setOutput("review", review.Failed)
	r.delivery = append(r.delivery, describeOutcome(&review.Outcome{State: review.Failed, Reason: reason}))
	r.warningf("ripple: the review was not posted: %s", reason)
}

// postReview runs the review flow and reports its outcome.
func (r *run) postReview(ctx context.Context, api *ghapi.API, pr int, head string, rep *findings.Report, dm *review.DiffMap, o review.Options) *review.Outcome {
	out := review.Run(ctx, api, review.Target{Number: pr, HeadSHA: head}, rep, dm, o)
	r.logf("ripple: review: %s (%d API requests)", out.State, api.Requests())
	r.setOutput("review", out.State)
	if out.ReviewURL != "" {
		r.setOutput("review-url", out.ReviewURL)
	}
	r.delivery = append(r.delivery, describeOutcome(out))
	if out.State == review.Failed {
		r.warningf("ripple: the review was not posted: %s", out.Reason)
	}
	return out
}

func describeOutcome(o *review.Outcome) string {
	switch o.State {
	case review.Posted:
		s := "Review: posted"
		if o.ReviewURL != "" {
			s = "Review: [posted](" + o.ReviewURL + ")"
		}
		s += fmt.Sprintf(" with %s; %s in its body", model.Plural(o.Inline, "new inline comment", "new inline comments"), model.Plural(o.InBody, "site listed", "sites listed"))
		if o.Kept > 0 {
			s += "; " + model.Plural(o.Kept, "earlier comment still applies", "earlier comments still apply")
		}
		if o.Resolved > 0 {
			s += "; " + model.Plural(o.Resolved, "earlier comment marked resolved", "earlier comments marked resolved")
		}
		if o.BodyOnly {
			s += " (GitHub refused the inline comments, so every finding is in the body)"
		}
		if o.Reason != "" {
			s += "; " + o.Reason
		}
		return s + "."
	case review.Unchanged:
		if o.Kept == 0 && o.Reason == review.NoFindings {
			return "Review: none needed: no findings, and no earlier Ripple review to update."
		}
		return fmt.Sprintf("Review: not posted again: %s (%s).", o.Reason, model.Plural(o.Kept, "inline comment still applies", "inline comments still apply"))
	case review.Skipped:
		return "Review: skipped."
	}
	return "Review: not posted: " + o.Reason + ". Annotations, this summary and the SARIF file carry every finding."
}

// postHandoff is phase two of the two-phase set-up: post the review a
// pull_request run prepared, from a workflow_run event, without checking
// out or analysing anything.
func (r *run) postHandoff(ctx context.Context, ev *event.Event) int {
	if ev.Run == nil {
		return r.toolError(nil, fmt.Errorf("review-from is for workflow_run events (phase two of the two-phase set-up), not for %s", ev.Name))
	}
	f, rep, dropped, err := handoff.Read(r.in.reviewFrom)
	if err != nil {
		return r.toolError(nil, err)
	}
	if dropped > 0 {
		r.warningf("ripple: %d findings of the handoff were dropped: their paths or lines cannot be real", dropped)
	}
	switch {
	case !strings.EqualFold(f.Repository, ev.Repo):
		return r.toolError(nil, fmt.Errorf("review-from: the handoff is for %s, this workflow runs in %s", f.Repository, ev.Repo))
	case f.HeadSHA != ev.Run.HeadSHA:
		return r.toolError(nil, fmt.Errorf("review-from: the handoff is for commit %s, but the finished run was for %s: download the artifact of that run (actions/download-artifact with run-id: github.event.workflow_run.id)", findings.Short(f.HeadSHA), findings.Short(ev.Run.HeadSHA)))
	case len(ev.Run.PRNumbers) > 0 && !containsInt(ev.Run.PRNumbers, f.PullRequest):
		return r.toolError(nil, fmt.Errorf("review-from: the handoff names pull request #%d, not one of the run's (%v)", f.PullRequest, ev.Run.PRNumbers))
	}
	r.logf("ripple: posting the review of pull request #%d at %s from %s", f.PullRequest, findings.Short(f.HeadSHA), r.in.reviewFrom)
	r.setCounts(rep)
	sum := func() {
		r.addSummary(summary.Markdown(summary.Input{Report: rep, Links: r.links, Range: fmt.Sprintf("the handoff of pull request #%d", f.PullRequest), Delivery: r.delivery}))
	}
	api, err := r.newAPI(ev.Repo)
	if err != nil {
		return r.toolError(rep, err)
	}
	if err := review.VerifyPR(ctx, api, f.PullRequest, ev.Run.HeadSHA); err != nil {
		if errors.Is(err, review.ErrMovedOn) {
			r.noticef("ripple: %v", err)
			r.setOutput("review", review.Skipped)
			r.delivery = append(r.delivery, "Review: skipped: "+err.Error()+".")
			sum()
			return cli.ExitOK
		}
		return r.toolError(rep, err)
	}
	dm, err := review.FetchDiff(ctx, api, f.PullRequest)
	if err != nil {
		return r.toolError(rep, err)
	}
	out := r.postReview(ctx, api, f.PullRequest, f.HeadSHA, rep, dm, r.reviewOptions())
	sum()
	if out.State == review.Failed {
		return cli.ExitFailure
	}
	return cli.ExitOK
}

func containsInt(xs []int, x int) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}
