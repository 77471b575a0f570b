package fixmode

import (
	"fmt"
	"sort"
	"strings"

	"github.com/ripple-dev/ripple/internal/action/findings"
	"github.com/ripple-dev/ripple/internal/action/md"
	"github.com/ripple-dev/ripple/internal/fix"
	"github.com/ripple-dev/ripple/internal/model"
)

// States of a fix-mode run (the action's fix output).
const (
	Pushed      = "pushed"       // commits pushed to the pull request's branch
	PullRequest = "pull-request" // pushed to ripple/fix/N, stacked pull request opened
	Suggested   = "suggested"    // proven, not pushed: suggestions and the patch file
	Unproven    = "unproven"     // the oracle did not pass: nothing committed
	Nothing     = "nothing"      // nothing to fix
	Skipped     = "skipped"      // fix mode does not apply here (Reason)
	Failed      = "failed"       // the engine or the delivery failed (Reason)
)

// Outcome is what fix mode did.
type Outcome struct {
	State string
	// Reason is plain text: why it was skipped, failed or only suggested.
	Reason      string
	Branch      string // the pull request's branch
	Commits     []Commit
	Stacked     *StackedPR
	Suggestions int    // suggestions placed on lines of the diff
	PatchFile   string // the proven patch, for the workflow's artifacts
	Model       string // "model at URL", "" when mechanical only
	Unsplit     string // why the fix is one commit
}

// maxPatch bounds the patch shown in the job summary.
const maxPatch = 60000

// Section is the job summary's "Fix" section.
func Section(res *fix.Result, o *Outcome, links findings.Links) string {
	var b strings.Builder
	b.WriteString("### Fix\n\n")
	switch o.State {
	case Skipped, Nothing:
		fmt.Fprintf(&b, "%s\n\n", md.Text(capital(o.Reason)))
		return b.String()
	case Failed:
		if res == nil {
			fmt.Fprintf(&b, "⚠️ **Fix mode failed**: %s. Nothing was committed or pushed.\n\n", md.Text(o.Reason))
			return b.String()
		}
	}
	if res == nil {
		return b.String()
	}
	if res.Proven {
		fmt.Fprintf(&b, "✅ **Proven**: the oracle passed on the fixed state (%s). ", ran(res))
	} else {
		fmt.Fprintf(&b, "❌ **Not proven**: %s. **Nothing was committed or pushed**; the plan is below. ", md.Text(WhyUnproven(res)))
	}
	fmt.Fprintf(&b, "%s edited mechanically, %s by the model", model.Plural(res.Mechanical, "block", "blocks"), model.Plural(res.ByModel, "block", "blocks"))
	if res.Rejected > 0 {
		fmt.Fprintf(&b, ", %s refused", model.Plural(res.Rejected, "model reply", "model replies"))
	}
	if res.In+res.Out > 0 {
		fmt.Fprintf(&b, " (%d tokens in, %d out)", res.In, res.Out)
	}
	if o.Model == "" {
		b.WriteString("; no model is configured (`llm-base-url`, `llm-model`), so only mechanical fixes were tried")
	} else if res.ModelUnreachable != "" {
		fmt.Fprintf(&b, "; the %s, so only mechanical fixes were made", md.Text(res.ModelUnreachable))
	}
	b.WriteString(".\n\n")
	switch o.State {
	case Pushed:
		fmt.Fprintf(&b, "Pushed %s to %s:\n\n", model.Plural(len(o.Commits), "commit", "commits"), md.Code(o.Branch))
		commitList(&b, o.Commits, links)
		b.WriteString("\nGitHub starts no workflow run for commits pushed with the workflow's own `GITHUB_TOKEN`: if actions/checkout used it, this pull request's checks will not run on them until someone pushes again. A personal access token or a GitHub App token in actions/checkout's `token` makes them run (docs/action.md, \"Fix mode\").\n\n")
	case PullRequest:
		verb := "opened"
		if o.Stacked.Existing {
			verb = "updated"
		}
		fmt.Fprintf(&b, "Pushing to %s was refused (%s), so Ripple %s %s (%s → %s) with %s:\n\n",
			md.Code(o.Branch), md.Text(o.Reason), verb, md.Link(md.Text(fmt.Sprintf("#%d", o.Stacked.Number)), o.Stacked.URL),
			md.Code(o.Stacked.Head), md.Code(o.Stacked.Base), model.Plural(len(o.Commits), "commit", "commits"))
		commitList(&b, o.Commits, links)
		b.WriteString("\nMerge it into the pull request's branch to take the fix.\n\n")
	case Suggested:
		fmt.Fprintf(&b, "Not pushed: %s. ", md.Text(o.Reason))
		if o.Suggestions > 0 {
			fmt.Fprintf(&b, "%s on lines of the diff; ", model.Plural(o.Suggestions, "suggestion sits", "suggestions sit"))
		}
		b.WriteString("the whole patch is below")
		if o.PatchFile != "" {
			fmt.Fprintf(&b, " and in %s (the `fix-patch` output, for actions/upload-artifact; apply it with `git apply`)", md.Code(o.PatchFile))
		}
		b.WriteString(".\n\n")
	case Failed:
		fmt.Fprintf(&b, "⚠️ The proven fix could not be delivered: %s.\n\n", md.Text(o.Reason))
	}
	if o.Unsplit != "" {
		fmt.Fprintf(&b, "The fix is one commit, not one per change: %s.\n\n", md.Text(o.Unsplit))
	}
	planTable(&b, res)
	if !res.Proven && res.Oracle != nil && len(res.Oracle.Diagnostics) > 0 {
		b.WriteString("The oracle's problems:\n\n")
		for i, d := range res.Oracle.Diagnostics {
			if i == 10 {
				fmt.Fprintf(&b, "- …and %d more\n", len(res.Oracle.Diagnostics)-10)
				break
			}
			fmt.Fprintf(&b, "- %s\n", md.Text(d.String()))
		}
		b.WriteString("\n")
	}
	if res.Oracle != nil && len(res.Oracle.Preexisting) > 0 {
		fmt.Fprintf(&b, "The oracle also reports %s the base branch already had; they are not the change's doing and were not counted.\n\n",
			model.Plural(len(res.Oracle.Preexisting), "problem", "problems"))
	}
	if len(res.Notes) > 0 {
		b.WriteString("<details><summary>Notes of the fix engine</summary>\n\n")
		for _, n := range res.Notes {
			fmt.Fprintf(&b, "- %s\n", md.Text(n))
		}
		b.WriteString("\n</details>\n\n")
	}
	if res.Proven && res.Patch != "" {
		patch := md.Truncate(res.Patch, maxPatch, "\n… (cut: the whole patch is in the fix-patch file)\n")
		fence := md.Fence(patch)
		fmt.Fprintf(&b, "<details><summary>The patch</summary>\n\n%sdiff\n%s\n%s\n\n</details>\n\n", fence, strings.TrimSuffix(patch, "\n"), fence)
	}
	return b.String()
}

// Note is the paragraph fix mode adds to the review's body (Markdown),
// "" when it has nothing to say there.
func Note(o *Outcome, links findings.Links) string {
	switch o.State {
	case Pushed:
		var b strings.Builder
		fmt.Fprintf(&b, "**Ripple fixed these sites** in %s pushed to %s; the oracle passed on the result:\n\n", model.Plural(len(o.Commits), "commit", "commits"), md.Code(o.Branch))
		commitList(&b, o.Commits, links)
		return b.String()
	case PullRequest:
		var b strings.Builder
		fmt.Fprintf(&b, "**Ripple could not push to %s** (%s), so its fix is in %s (%s → %s), %s on which the oracle passed:\n\n",
			md.Code(o.Branch), md.Text(o.Reason), md.Link(md.Text(fmt.Sprintf("#%d", o.Stacked.Number)), o.Stacked.URL),
			md.Code(o.Stacked.Head), md.Code(o.Stacked.Base), model.Plural(len(o.Commits), "commit", "commits"))
		commitList(&b, o.Commits, links)
		return b.String()
	case Suggested:
		s := fmt.Sprintf("**Ripple's fix is proven** (the oracle passed) **but not pushed**: %s.", md.Text(o.Reason))
		if o.Suggestions > 0 {
			s += fmt.Sprintf(" %s on the lines of this diff; the job summary has the whole patch.", model.Plural(o.Suggestions, "suggestion sits", "suggestions sit"))
		} else {
			s += " No edited block lies within this diff, so the job summary has the patch."
		}
		return s
	case Unproven:
		return "Ripple tried to fix these sites but could not prove the edits, so **nothing was committed**: " + md.Text(o.Reason) + ". The job summary lists the plan."
	}
	return ""
}

// WhyUnproven says in a sentence why a fix was not proven.
func WhyUnproven(res *fix.Result) string {
	var why []string
	failed := 0
	for _, ob := range latest(res) {
		if ob.Status == fix.Failed || ob.Status == fix.Pending {
			failed++
		}
	}
	if failed > 0 {
		why = append(why, model.Plural(failed, "block", "blocks")+" could not be edited")
	}
	switch {
	case res.Oracle == nil:
		why = append(why, "no oracle ran")
	case !res.Oracle.Pass:
		why = append(why, "the oracle reports "+model.Plural(len(res.Oracle.Diagnostics), "problem", "problems"))
	}
	if len(why) == 0 {
		return "the oracle did not pass"
	}
	return strings.Join(why, " and ")
}

// latest is the last obligation of each block, in the order blocks were
// first planned.
func latest(res *fix.Result) []*fix.Obligation {
	idx := map[string]int{}
	var out []*fix.Obligation
	obs := append([]*fix.Obligation(nil), res.Obligations...)
	sort.SliceStable(obs, func(i, j int) bool { return obs[i].ID < obs[j].ID })
	for _, ob := range obs {
		k := ob.Path + "\x00" + ob.Block
		if i, ok := idx[k]; ok {
			if ob.Status != fix.Pending || out[i].Status == fix.Pending {
				out[i] = ob
			}
			continue
		}
		idx[k] = len(out)
		out = append(out, ob)
	}
	return out
}

func planTable(b *strings.Builder, res *fix.Result) {
	obs := latest(res)
	if len(obs) == 0 {
		return
	}
	b.WriteString("| Block | Why | Edit |\n| --- | --- | --- |\n")
	for i, ob := range obs {
		if i == 200 {
			fmt.Fprintf(b, "| …and %d more blocks | | |\n", len(obs)-200)
			break
		}
		var why []string
		for _, r := range ob.Reasons {
			if !contains(why, r.Message) {
				why = append(why, r.Message)
			}
		}
		edit := string(ob.Status)
		if ob.Method != "" {
			edit += " (" + ob.Method + ")"
		}
		if ob.Note != "" {
			edit += ": " + ob.Note
		}
		where := fmt.Sprintf("%s:%d", ob.Path, ob.Span.StartLine)
		if ob.Declare != "" {
			where = ob.Path // a new declaration, appended
		}
		fmt.Fprintf(b, "| %s %s | %s | %s |\n", md.Code(where), md.Code(ob.Block),
			md.Cell(md.Text(strings.Join(why, "; "))), md.Cell(md.Text(edit)))
	}
	b.WriteString("\n")
}

func commitList(b *strings.Builder, cs []Commit, links findings.Links) {
	for _, c := range cs {
		u := ""
		if links.Server != "" && links.Repo != "" {
			u = strings.TrimRight(links.Server, "/") + "/" + links.Repo + "/commit/" + c.SHA
		}
		fmt.Fprintf(b, "- %s %s\n", md.Link(md.Code(short(c.SHA)), u), md.Text(c.Subject))
	}
}

func ran(res *fix.Result) string {
	if res.Oracle == nil || len(res.Oracle.Ran) == 0 {
		return "no command needed"
	}
	// the commands without their scratch paths (go build -o DIR/)
	var parts []string
	for _, r := range res.Oracle.Ran {
		f := strings.Fields(r)
		var keep []string
		for i := 0; i < len(f); i++ {
			if f[i] == "-o" && i+1 < len(f) {
				i++
				continue
			}
			keep = append(keep, f[i])
		}
		if c := md.Code(strings.Join(keep, " ")); !contains(parts, c) {
			parts = append(parts, c)
		}
	}
	return strings.Join(parts, ", ")
}

func capital(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}
