package review

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/ripple-dev/ripple/internal/action/findings"
	"github.com/ripple-dev/ripple/internal/action/md"
	"github.com/ripple-dev/ripple/internal/model"
)

// Markers: HTML comments GitHub does not render, by which a later run
// recognises Ripple's comments and reviews.
const (
	stateResolved   = "resolved"
	stateSuperseded = "superseded"
	// MaxBody is the longest review or comment body Ripple writes, in
	// bytes: GitHub's limit is 65,536 characters, and a character is
	// at least one byte.
	MaxBody = 60000
	// maxGitHubBody is GitHub's limit.
	maxGitHubBody = 65536
)

var (
	fpRE     = regexp.MustCompile(`<!-- ripple:fp=([0-9a-f]{16,128}) -->`)
	stateRE  = regexp.MustCompile(`<!-- ripple:state=(\w+) -->`)
	reviewRE = regexp.MustCompile(`<!-- ripple:review digest=([0-9a-f]{64}) -->`)
	// sugRE opens a suggestion block (md.Fence: backticks only)
	sugRE = regexp.MustCompile("(?m)^(```+)suggestion$")
)

func fpMarker(fp string) string      { return "<!-- ripple:fp=" + fp + " -->" }
func stateMarker(s string) string    { return "<!-- ripple:state=" + s + " -->" }
func reviewMarker(dg string) string  { return "<!-- ripple:review digest=" + dg + " -->" }
func parseFP(body string) string     { return submatch(fpRE, body) }
func parseState(body string) string  { return submatch(stateRE, body) }
func parseDigest(body string) string { return submatch(reviewRE, body) }
func submatch(re *regexp.Regexp, s string) string {
	if m := re.FindStringSubmatch(s); m != nil {
		return m[1]
	}
	return ""
}

// Digest identifies the set of reported findings: the same findings at
// the same levels give the same digest, wherever their lines moved.
func Digest(rep *findings.Report) string {
	keys := make([]string, 0, len(rep.Findings))
	for _, f := range rep.Findings {
		keys = append(keys, f.Level+" "+f.Fingerprint)
	}
	slices.Sort(keys)
	sum := sha256.Sum256([]byte(strings.Join(keys, "\n")))
	return hex.EncodeToString(sum[:])
}

// maxAlso is the most other sites one comment names; the job summary
// lists them all.
const maxAlso = 20

// commentBody is the text of an inline comment on f, with the
// suggestion s when one is given and the comment can hold it (suggested
// reports whether it does): a suggestion is never cut, since a cut one
// would apply half an edit. The text is at most MaxBody bytes and ends
// with the fingerprint marker.
func commentBody(rep *findings.Report, f *findings.Finding, s *Suggestion, links findings.Links) (body string, suggested bool) {
	var b strings.Builder
	fmt.Fprintf(&b, "**Ripple · %s** · %s · precision %s\n\n", md.Text(f.Level), md.Text(f.Verdict), md.Text(f.Precision))
	fmt.Fprintf(&b, "%s\n\n", md.Text(f.Message))
	if f.Missing != "" {
		fmt.Fprintf(&b, "Established without %s.\n", md.Text(f.Missing))
	}
	if len(f.Also) > 0 {
		var ps []string
		for i, s := range f.Also {
			if i == maxAlso {
				ps = append(ps, fmt.Sprintf("and %d more in the job summary", len(f.Also)-maxAlso))
				break
			}
			ps = append(ps, md.Link(md.Text(findings.WhereAlso(f, &s)), links.Also(rep, &s)))
		}
		fmt.Fprintf(&b, "The same holds at %s: %s.\n", model.Plural(len(f.Also), "more site", "more sites"), strings.Join(ps, ", "))
	}
	if c := rep.ChangeOf(f); findings.TheirChange(c) {
		fmt.Fprintf(&b, "This site depends on %s, changed on %s since this pull request forked: %s.\n", seedLink(rep, c, links), md.Text(c.Merged.Ref), md.Text(findings.What(&findings.Change{Summary: c.Summary, Display: c.Display})))
	} else if c != nil {
		fmt.Fprintf(&b, "This site depends on %s, changed by this pull request: %s.\n", seedLink(rep, c, links), md.Text(changeWhat(c)))
	}
	if p := trailText(f); p != "" {
		fmt.Fprintf(&b, "Relation path: %s.\n", p)
	}
	marker := fpMarker(f.Fingerprint)
	if s != nil {
		block := suggestionBlock(s)
		if b.Len()+len(block)+1+len(marker) <= MaxBody {
			b.WriteString(block)
			suggested = true
		} else {
			fmt.Fprintf(&b, "\nRipple has a suggested change for lines %d–%d, too long for a review comment (GitHub's limit is %d characters).\n", s.StartLine, s.EndLine, maxGitHubBody)
		}
	}
	return md.TruncateMarkdown(b.String(), MaxBody-1-len(marker), "\n…\n") + "\n" + marker, suggested
}

// suggestionBlock is a suggestion that replaces the comment's lines with
// s.Replacement, fenced by more backticks than the replacement ever
// holds in a row, so that no line of it closes the block early.
func suggestionBlock(s *Suggestion) string {
	// whole lines: one final newline is the block's own; an empty
	// replacement deletes the lines
	repl := strings.TrimSuffix(s.Replacement, "\n")
	fence := md.Fence(repl)
	if repl != "" {
		repl += "\n"
	}
	intro := "Suggested change"
	if s.Note != "" {
		intro += " (" + md.Text(s.Note) + ")"
	}
	return fmt.Sprintf("\n%s:\n\n%ssuggestion\n%s%s\n", intro, fence, repl, fence)
}

// seedLink is `display` linked to the declaration.
func seedLink(rep *findings.Report, c *findings.Change, links findings.Links) string {
	return md.Link(md.Code(c.Display), links.Seed(rep, c))
}

// changeWhat is the change's summary without its leading display name.
func changeWhat(c *findings.Change) string { return findings.What(c) }

// trailText is the relation path: `seed` → called by `wrapper` → ...
func trailText(f *findings.Finding) string {
	if len(f.Trail) < 2 {
		return ""
	}
	return findings.TrailText(f.Trail, md.Code)
}

// resolvedBody is an earlier comment's text once its finding is no
// longer reported.
func resolvedBody(old, head string) string {
	return fmt.Sprintf("~~Ripple no longer reports this site~~ — resolved as of %s.\n\n<details><summary>Earlier comment</summary>\n\n%s\n\n</details>\n%s",
		findings.Short(head), stripMarkers(old), stateMarker(stateResolved)+"\n"+fpMarker(parseFP(old)))
}

// supersededBody is an outdated comment's text once its finding is
// commented again at its new line.
func supersededBody(old, where string) string {
	return fmt.Sprintf("Outdated: Ripple still reports this finding, now at %s; see its latest review.\n\n<details><summary>Earlier comment</summary>\n\n%s\n\n</details>\n%s",
		where, stripMarkers(old), stateMarker(stateSuperseded)+"\n"+fpMarker(parseFP(old)))
}

func stripMarkers(s string) string {
	s = fpRE.ReplaceAllString(s, "")
	s = stateRE.ReplaceAllString(s, "")
	if i := strings.Index(s, "<details><summary>Earlier comment</summary>"); i >= 0 {
		s = s[:i] // do not nest earlier texts
	}
	// an earlier suggestion is shown, not offered: GitHub would still
	// let it be committed from the edited comment
	s = sugRE.ReplaceAllString(s, "${1}text")
	return md.TruncateMarkdown(strings.TrimSpace(s), MaxBody/4, "\n…\n")
}

// reviewBody is the text of the review: what is inline, and every
// finding that is not, grouped by change with permalinks.
func reviewBody(rep *findings.Report, p *Plan, o Options) string {
	var b strings.Builder
	total := len(rep.Findings)
	switch {
	case total == 0:
		b.WriteString("### Ripple: no inconsistent sites remain\n\n")
	default:
		fmt.Fprintf(&b, "### Ripple: %s\n\n", findings.Headline(rep))
	}
	if o.Note != "" {
		b.WriteString(o.Note + "\n\n")
	}
	var notes []string
	if n := len(p.Comments); n > 0 {
		notes = append(notes, model.Plural(n, "new inline comment", "new inline comments"))
	}
	if p.Kept > 0 {
		notes = append(notes, model.Plural(p.Kept, "earlier inline comment still applies", "earlier inline comments still apply"))
	}
	if p.Resolved > 0 {
		notes = append(notes, model.Plural(p.Resolved, "earlier comment is resolved", "earlier comments are resolved"))
	}
	if len(notes) > 0 {
		b.WriteString(strings.Join(notes, "; ") + ".\n\n")
	}
	if p.Note != "" {
		b.WriteString(p.Note + "\n\n")
	}
	if len(p.InBody) > 0 {
		switch out := len(p.InBody) - p.OverCap; {
		case p.OverCap == 0:
			fmt.Fprintf(&b, "%s outside this pull request's diff:\n\n", model.Plural(out, "site lies", "sites lie"))
		case out == 0:
			fmt.Fprintf(&b, "%s past the limit of inline comments:\n\n", model.Plural(p.OverCap, "site is", "sites are"))
		default:
			fmt.Fprintf(&b, "%s outside this pull request's diff, and %s past the limit of inline comments:\n\n", model.Plural(out, "site lies", "sites lie"), model.Plural(p.OverCap, "site is", "sites are"))
		}
		var cur *findings.Change
		first := true
		var list strings.Builder
		for i, f := range p.InBody {
			c := rep.ChangeOf(f)
			if first || c != cur {
				if c != nil {
					fmt.Fprintf(&list, "\n**%s**: %s\n\n", seedLink(rep, c, o.Links), md.Text(changeWhat(c)))
				} else {
					list.WriteString("\n**Other findings**\n\n")
				}
				cur, first = c, false
			}
			line := fmt.Sprintf("- %s %s: %s", md.Text(f.Level), md.Link(md.Text(findings.Where(f)), o.Links.Site(rep, f)), md.Text(f.Message))
			if code := md.Code(f.Text); code != "" {
				line += " — " + code
			}
			if list.Len()+len(line) > MaxBody-2000 {
				fmt.Fprintf(&list, "- …and %d more: see the job summary%s\n", len(p.InBody)-i, runLink(o.RunURL))
				break
			}
			list.WriteString(line + "\n")
		}
		b.WriteString(strings.TrimLeft(list.String(), "\n"))
		b.WriteString("\n")
	}
	if o.RunURL != "" && total > 0 {
		fmt.Fprintf(&b, "Every finding with its relation path is in the job summary of [this run](%s).\n", o.RunURL)
	}
	marker := reviewMarker(p.Digest)
	cut := fmt.Sprintf("\n_The review stops here (GitHub's size limit); the job summary%s lists every finding._\n", runLink(o.RunURL))
	return md.TruncateMarkdown(b.String(), MaxBody-1-len(marker), cut) + "\n" + marker
}

func runLink(u string) string {
	if u == "" {
		return ""
	}
	return " of [this run](" + u + ")"
}
