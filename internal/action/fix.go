package action

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/ripple-dev/ripple/internal/action/event"
	"github.com/ripple-dev/ripple/internal/action/findings"
	"github.com/ripple-dev/ripple/internal/action/fixmode"
	"github.com/ripple-dev/ripple/internal/action/md"
	"github.com/ripple-dev/ripple/internal/action/review"
	"github.com/ripple-dev/ripple/internal/config"
	"github.com/ripple-dev/ripple/internal/fix"
	"github.com/ripple-dev/ripple/internal/gitio"
	"github.com/ripple-dev/ripple/internal/languages"
)

// fixTimeout bounds the fix engine (model calls and oracle rounds).
const fixTimeout = 20 * time.Minute

// fixRemote is the remote fix commits are pushed to: the one
// actions/checkout configures, with its credentials.
const fixRemote = "origin"

// fixTrailer marks Ripple's fix commits; a head commit carrying it is
// never fixed onto again (a loop guard for tokens whose pushes start
// workflows).
const fixTrailer = "Ripple-Fix:"

// secretEnv are blanked in the oracle's environment: the oracle builds,
// vets and may test the pull request's code.
var secretEnv = []string{"INPUT_TOKEN=", "RIPPLE_LLM_API_KEY=", "OPENAI_API_KEY=", "GITHUB_TOKEN=", "GH_TOKEN=",
	"ACTIONS_RUNTIME_TOKEN=", "ACTIONS_ID_TOKEN_REQUEST_TOKEN=", "ACTIONS_ID_TOKEN_REQUEST_URL="}

// fixRun is what fix mode did, for the review and the summary.
type fixRun struct {
	out *fixmode.Outcome
	res *fix.Result
}

// fixPR runs fix mode on the pull request of ev: the fix engine on the
// checked range and, when it proves its edits, one commit per seed
// change pushed to the pull request's branch (or a stacked pull
// request, or suggestions only). It edits rep's findings' fixes so that
// the review carries the right suggestions.
func (r *run) fixPR(ctx context.Context, ev *event.Event, repo *gitio.Repo, rg *event.Range, cfg *config.Config, rep *findings.Report, dm *review.DiffMap) *fixRun {
	fr := &fixRun{out: &fixmode.Outcome{}}
	o := fr.out
	pr := ev.PR
	switch {
	case pr == nil:
		o.State, o.Reason = fixmode.Skipped, fmt.Sprintf("fix mode fixes pull requests; a %s event is only checked", ev.Name)
	case rg.Head != pr.HeadSHA:
		o.State, o.Reason = fixmode.Skipped, fmt.Sprintf("fix mode did not run: the head input (%s) is not the pull request's head (%s), and fixes are committed on the latter", findings.Short(rg.Head), findings.Short(pr.HeadSHA))
	case ev.Name == "pull_request_target" && pr.FromFork():
		o.State, o.Reason = fixmode.Skipped, "fix mode did not run: this pull request comes from a fork ("+orDeleted(pr.HeadRepo)+") and the event is pull_request_target, whose job holds a write token and secrets, while the fix engine builds and vets the pull request's code; run mode: fix on pull_request instead (read-only token, no secrets: suggestions only)"
	case rep.Counts.Error == 0:
		o.State, o.Reason = fixmode.Nothing, "nothing to fix: no inconsistent site"
	}
	if o.State != "" {
		r.logf("ripple: fix mode: %s", o.Reason)
		return fr
	}
	o.Branch = pr.HeadRef

	// why nothing will be pushed, decided before anything runs
	noPush := r.whyNoPush(ctx, ev, repo)

	opts := fix.Options{Base: rg.Base, Head: rg.Head, Config: cfg, Tests: r.in.fixTests, Review: true,
		Oracle: languages.Oracle(languages.Frontends(), secretEnv)}
	m, desc, err := r.fixModel()
	if err != nil {
		o.State, o.Reason = fixmode.Failed, err.Error()
		return fr
	}
	opts.Model, o.Model = m, desc
	var log bytes.Buffer
	opts.Log = &log
	r.logf("ripple: fix mode: planning the edits %s..%s (%s)", findings.Short(rg.Base), findings.Short(rg.Head), orMechanical(desc))
	fctx, cancel := context.WithTimeout(ctx, fixTimeout)
	defer cancel()
	res, err := fix.Run(fctx, repo, opts)
	if log.Len() > 0 {
		r.group("Ripple fix", func() { r.untrusted(log.String()) })
	}
	if err != nil {
		o.State, o.Reason = fixmode.Failed, "the fix engine failed: "+err.Error()
		return fr
	}
	fr.res = res
	switch {
	case !res.Proven:
		o.State, o.Reason = fixmode.Unproven, fixmode.WhyUnproven(res)
		return fr
	case strings.TrimSpace(res.Patch) == "":
		o.State, o.Reason = fixmode.Nothing, "the oracle passes on the pull request's head as it is: nothing to commit"
		return fr
	}
	if p, err := r.writePatch(res.Patch); err != nil {
		r.logf("ripple: fix mode: %v", err)
	} else {
		o.PatchFile = p
		r.setOutput("fix-patch", p)
	}
	g := &fixmode.Git{Dir: repo.Top}
	plan, err := fixmode.Split(ctx, g, res, languages.Frontends())
	if err != nil {
		o.State, o.Reason = fixmode.Failed, err.Error()
		return fr
	}
	o.Unsplit = plan.Unsplit
	if noPush != "" {
		o.State, o.Reason = fixmode.Suggested, noPush
		o.Suggestions = suggest(rep, plan, dm)
		return fr
	}
	r.deliver(ctx, g, ev, plan, o, rep, dm)
	return fr
}

// whyNoPush says why fix mode will push nothing to the pull request of
// ev (a fork, a read-only token, fix-push none, no head branch, a head
// that is Ripple's own fix commit), or "" when it may push.
func (r *run) whyNoPush(ctx context.Context, ev *event.Event, repo *gitio.Repo) string {
	pr := ev.PR
	switch {
	case pr.FromFork():
		return "the pull request comes from a fork (" + orDeleted(pr.HeadRepo) + "); Ripple never pushes to a fork's branch nor opens a pull request from it"
	case ev.ReadOnlyReason() != "":
		return ev.ReadOnlyReason() + ", so the workflow's token is read-only"
	case r.in.fixPush == pushNone:
		return "fix-push is none"
	case pr.HeadRef == "":
		return "the event names no head branch to push to"
	default:
		if msg, err := repo.Git(ctx, "log", "-1", "--format=%B", pr.HeadSHA); err == nil && strings.Contains(string(msg), "\n"+fixTrailer) {
			return "the pull request's head is a fix commit of Ripple's own, and Ripple does not fix its own fixes (a loop guard)"
		}
	}
	return ""
}

// deliver commits the plan's edits and delivers them: pushed to the pull
// request's branch (fix-push branch) when it has not moved on, else as a
// stacked pull request, recording the outcome in o. Whatever is not
// pushed to the branch is also offered as suggestions on the review; a
// push clears rep's fixes, which the branch now holds.
func (r *run) deliver(ctx context.Context, g *fixmode.Git, ev *event.Event, plan *fixmode.Plan, o *fixmode.Outcome, rep *findings.Report, dm *review.DiffMap) {
	pr := ev.PR
	trailer := fixTrailer + " pull request #" + strconv.Itoa(pr.Number)
	if r.runURL != "" {
		trailer = fixTrailer + " " + r.runURL
	}
	commits, err := plan.Commit(ctx, g, r.in.fixAuthor, []string{trailer})
	if err != nil {
		o.State, o.Reason = fixmode.Failed, "making the commits: "+err.Error()
		o.Suggestions = suggest(rep, plan, dm)
		return
	}
	o.Commits = commits
	tip := commits[len(commits)-1].SHA
	refused := "fix-push is pull-request"
	if r.in.fixPush == pushBranch {
		cur, err := fixmode.RemoteHead(ctx, g, fixRemote, pr.HeadRef)
		switch {
		case err != nil:
			o.State, o.Reason = fixmode.Failed, err.Error()
		case cur != pr.HeadSHA:
			o.State, o.Reason = fixmode.Suggested, fmt.Sprintf("the branch %s moved on (it is at %s, the fix was made on %s); the run of its new head takes over", pr.HeadRef, orNone(findings.Short(cur)), findings.Short(pr.HeadSHA))
		default:
			err = fixmode.PushBranch(ctx, g, fixRemote, tip, pr.HeadRef)
			var pe *fixmode.PushError
			switch {
			case err == nil:
				o.State = fixmode.Pushed
				clearFixes(rep)
				return
			case errors.As(err, &pe) && pe.MovedOn:
				o.State, o.Reason = fixmode.Suggested, "the branch "+pr.HeadRef+" moved on while Ripple ran ("+pe.Reason+"); the run of its new head takes over"
			default:
				refused = "push refused: " + err.Error()
			}
		}
		if o.State != "" {
			o.Suggestions = suggest(rep, plan, dm)
			return
		}
	}
	o.Reason = refused
	r.logf("ripple: fix mode: %s; opening a stacked pull request instead", refused)
	st, err := r.stackedPR(ctx, g, ev, commits)
	if err != nil {
		o.State, o.Reason = fixmode.Failed, refused+"; and the stacked pull request failed: "+err.Error()
		o.Suggestions = suggest(rep, plan, dm)
		return
	}
	o.State, o.Stacked = fixmode.PullRequest, st
	r.setOutput("fix-pull-request", st.URL)
	o.Suggestions = suggest(rep, plan, dm)
}

// stackedPR pushes the fix to Ripple's branch ripple/fix/<number> and
// opens (or finds) the pull request of that branch into the pull
// request's own.
func (r *run) stackedPR(ctx context.Context, g *fixmode.Git, ev *event.Event, commits []fixmode.Commit) (*fixmode.StackedPR, error) {
	pr := ev.PR
	branch := "ripple/fix/" + strconv.Itoa(pr.Number)
	was, err := fixmode.RemoteHead(ctx, g, fixRemote, branch)
	if err != nil {
		return nil, err
	}
	if err := fixmode.PushOwn(ctx, g, fixRemote, commits[len(commits)-1].SHA, branch, was); err != nil {
		return nil, fmt.Errorf("pushing %s: %w", branch, err)
	}
	api, err := r.newAPI(ev.Repo)
	if err != nil {
		return nil, err
	}
	var body strings.Builder
	fmt.Fprintf(&body, "Ripple's fix for #%d: the edits its change to %s left to be made, proven by the oracle (the build and vet passed on the result). Merge this pull request into %s to take them.\n\n",
		pr.Number, md.Code(pr.HeadRef), md.Code(pr.HeadRef))
	for _, c := range commits {
		fmt.Fprintf(&body, "- %s %s\n", findings.Short(c.SHA), md.Text(c.Subject))
	}
	if r.runURL != "" {
		fmt.Fprintf(&body, "\nThe plan and the patch are in the job summary of [this run](%s).\n", r.runURL)
	}
	title := fmt.Sprintf("ripple: fix what #%d left inconsistent", pr.Number)
	return fixmode.OpenStacked(ctx, api, branch, pr.HeadRef, title, body.String())
}

// fixModel is the model of this run: the llm-base-url and llm-model
// inputs (else RIPPLE_LLM_BASE_URL and RIPPLE_LLM_MODEL), the key from
// RIPPLE_LLM_API_KEY. No model means mechanical fixes only.
func (r *run) fixModel() (fix.Model, string, error) {
	mc := fix.ModelConfig{
		BaseURL: firstOf(r.in.llmBaseURL, r.getenv("RIPPLE_LLM_BASE_URL")),
		Model:   firstOf(r.in.llmModel, r.getenv("RIPPLE_LLM_MODEL")),
		APIKey:  r.getenv("RIPPLE_LLM_API_KEY"),
		Budget:  r.in.tokenBudget,
		Timeout: 90 * time.Second,
	}
	if mc.BaseURL == "" && mc.Model != "" && mc.APIKey != "" {
		mc.BaseURL = "https://api.openai.com/v1"
	}
	switch {
	case mc.BaseURL == "" && mc.Model == "":
		return nil, "", nil
	case mc.Model == "":
		return nil, "", errors.New("llm-base-url is set but llm-model is not: name the model (or the Azure deployment)")
	case mc.BaseURL == "":
		return nil, "", errors.New("llm-model is set but llm-base-url is not (and there is no RIPPLE_LLM_API_KEY to use OpenAI's endpoint with)")
	}
	m, err := fix.NewOpenAI(mc)
	if err != nil {
		return nil, "", err
	}
	return m, mc.Model + " at " + fixmode.Scrub(mc.BaseURL), nil
}

// suggest turns the plan's edits of blocks inside the diff into the
// findings' fixes, for `suggestion` blocks in the review, and returns
// how many it placed. The block's edit replaces the check's own
// one-line fixes of sites in that block (a model's edit, or a mechanical
// one that spans more than a line).
func suggest(rep *findings.Report, plan *fixmode.Plan, dm *review.DiffMap) int {
	if dm == nil {
		return 0
	}
	sugs := plan.Suggestions(dm.InOneHunk)
	has := map[string]bool{}
	for _, s := range sugs {
		has[s.Path+"\x00"+s.Block] = true
	}
	for _, g := range plan.Groups {
		for _, be := range g.Blocks {
			k := be.Path + "\x00" + be.Block
			if !has[k] && be.Method == "mechanical" {
				continue // the check's own fixes are these edits
			}
			for i := range rep.Findings {
				if f := &rep.Findings[i]; f.Path == be.Path && f.Enclosing == be.Block {
					f.Fix = nil
				}
			}
		}
	}
	n := 0
	for _, s := range sugs {
		var anchor *findings.Finding
		for i := range rep.Findings {
			f := &rep.Findings[i]
			if f.Path != s.Path || f.Enclosing != s.Block {
				continue
			}
			if f.Line >= s.StartLine && f.Line <= s.EndLine {
				anchor = f
				break
			}
			if anchor == nil {
				anchor = f
			}
		}
		if anchor == nil {
			continue
		}
		how := "edited mechanically"
		if s.Method != "mechanical" {
			how = "edited by the model"
		}
		repl := s.Replacement
		anchor.Fix = &findings.Fix{StartLine: s.StartLine, EndLine: s.EndLine, Replacement: &repl,
			Note: "Ripple's fix of " + s.Block + ", " + how + "; the oracle passed on the whole fix"}
		n++
	}
	return n
}

// clearFixes drops every suggestion: the fix is on the branch already.
func clearFixes(rep *findings.Report) {
	for i := range rep.Findings {
		rep.Findings[i].Fix = nil
	}
}

func (r *run) writePatch(patch string) (string, error) {
	p := r.tempPath("ripple-fix.patch")
	if err := os.WriteFile(p, []byte(patch), 0o644); err != nil {
		return "", fmt.Errorf("writing the fix's patch: %w", err)
	}
	return p, nil
}

// reportFix puts fix mode's outcome in the outputs, the log, one notice
// and the delivery lines.
func (r *run) reportFix(fr *fixRun) {
	o := fr.out
	r.setOutput("fix", o.State)
	var shas []string
	for _, c := range o.Commits {
		shas = append(shas, c.SHA)
	}
	if o.State == fixmode.Pushed || o.State == fixmode.PullRequest {
		r.setOutput("fix-commits", strings.Join(shas, " "))
	}
	var line string
	switch o.State {
	case fixmode.Pushed:
		line = fmt.Sprintf("pushed %d commits to %s", len(o.Commits), o.Branch)
	case fixmode.PullRequest:
		verb := "opened"
		if o.Stacked.Existing {
			verb = "updated"
		}
		line = fmt.Sprintf("pushing to %s was refused; %s the stacked pull request #%d (%s → %s)", o.Branch, verb, o.Stacked.Number, o.Stacked.Head, o.Stacked.Base)
	case fixmode.Suggested:
		line = fmt.Sprintf("the fix is proven but not pushed: %s (%d suggestions on lines of the diff; the patch is in the job summary)", o.Reason, o.Suggestions)
	case fixmode.Unproven:
		line = "the fix is not proven (" + o.Reason + "): nothing was committed; the job summary lists the plan"
	case fixmode.Failed:
		line = "fix mode failed: " + o.Reason + "; nothing was pushed"
	default:
		line = o.Reason
	}
	r.logf("ripple: fix mode: %s", line)
	if o.State != fixmode.Nothing {
		r.noticef("ripple: fix mode: %s", line)
	}
	r.delivery = append(r.delivery, "Fix: "+md.Text(line)+" (see Fix above).")
}

func orDeleted(repo string) string {
	if repo == "" {
		return "a deleted repository"
	}
	return repo
}

func orNone(s string) string {
	if s == "" {
		return "nothing: it was deleted"
	}
	return s
}

func orMechanical(model string) string {
	if model == "" {
		return "mechanical fixes only: no model configured"
	}
	return "model " + model
}

func firstOf(xs ...string) string {
	for _, x := range xs {
		if x != "" {
			return x
		}
	}
	return ""
}
