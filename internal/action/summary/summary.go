package summary

import (
	"fmt"
	"strings"

	"github.com/ripple-dev/ripple/internal/action/findings"
	"github.com/ripple-dev/ripple/internal/action/md"
	"github.com/ripple-dev/ripple/internal/model"
)

// Limits of one summary.
const (
	MaxRows  = 1000
	MaxBytes = 900 << 10 // GitHub's limit is 1 MiB per step
)

// Verdicts.
const (
	Pass  = "pass"
	Fail  = "fail"
	Error = "error"
)

// Input is what a summary shows.
type Input struct {
	Report  *findings.Report // nil when the check did not run
	Links   findings.Links
	Verdict string
	FailOn  string
	// Range says what was checked and how it was chosen.
	Range string
	// Problem is why the check failed (verdict error) or why nothing
	// was checked.
	Problem string
	// Fix is fix mode's section (Markdown written by trusted code, its
	// untrusted parts escaped), shown before Delivery.
	Fix string
	// Languages are Markdown lines (written by trusted code), one per
	// language the range changes: the tier that judged it and what it
	// lacked.
	Languages []string
	// Delivery are Markdown lines (written by trusted code) on where the
	// findings went.
	Delivery []string
}

// Markdown writes the summary.
func Markdown(in Input) string {
	var b strings.Builder
	rep := in.Report
	switch {
	case rep == nil:
		b.WriteString("## Ripple\n\n")
	default:
		fmt.Fprintf(&b, "## Ripple: %s\n\n", findings.Headline(rep))
	}
	switch in.Verdict {
	case Pass:
		fmt.Fprintf(&b, "✅ **pass**: no finding at or above `fail_on: %s`.", in.FailOn)
	case Fail:
		fmt.Fprintf(&b, "❌ **fail**: findings at or above `fail_on: %s`.", in.FailOn)
	case "":
	default:
		b.WriteString("⚠️ **error**: Ripple could not check this change.")
	}
	if in.Problem != "" {
		fmt.Fprintf(&b, " %s", md.Text(in.Problem))
	}
	if in.Verdict != "" || in.Problem != "" {
		b.WriteString("\n\n")
	}
	if rep != nil {
		fmt.Fprintf(&b, "Checked %s against %s", commit(in.Links, rep.Head), commit(in.Links, rep.Base))
		if in.Range != "" {
			fmt.Fprintf(&b, " (%s)", md.Text(in.Range))
		}
		// the changes the headline counts (as the hook's totals line)
		fmt.Fprintf(&b, ": %s, %d errors · %d warnings · %d notes.\n\n", model.Plural(rep.Seeds(), "change", "changes"), rep.Counts.Error, rep.Counts.Warning, rep.Counts.Note)
		writeGroups(&b, rep, in.Links)
	}
	if in.Fix != "" {
		b.WriteString(strings.TrimRight(in.Fix, "\n") + "\n\n")
	}
	if len(in.Languages) > 0 {
		b.WriteString("### Languages\n\n")
		for _, l := range in.Languages {
			b.WriteString("- " + l + "\n")
		}
		b.WriteString("\n")
	}
	if len(in.Delivery) > 0 {
		b.WriteString("### Delivery\n\n")
		for _, d := range in.Delivery {
			b.WriteString("- " + d + "\n")
		}
		b.WriteString("\n")
	}
	if rep != nil {
		writeDetails(&b, rep)
	}
	return md.Truncate(b.String(), MaxBytes, "\n\n_The summary stops here (GitHub's size limit); the SARIF file lists every finding._\n")
}

func commit(l findings.Links, sha string) string {
	if sha == "" {
		return "the work tree"
	}
	u := ""
	if l.Server != "" && l.Repo != "" {
		u = strings.TrimRight(l.Server, "/") + "/" + l.Repo + "/commit/" + sha
	}
	return md.Link(md.Code(findings.Short(sha)), u)
}

func writeGroups(b *strings.Builder, rep *findings.Report, links findings.Links) {
	rows := 0
	defer func() {
		if left := len(rep.Findings) - rows; left > 0 {
			fmt.Fprintf(b, "_…and %d more sites: the table stops at %d rows; the SARIF file lists them all._\n\n", left, MaxRows)
		}
	}()
	for _, g := range rep.Groups() {
		if rows >= MaxRows {
			return
		}
		if c := g.Change; c != nil {
			fmt.Fprintf(b, "### %s: %s\n\n", md.Code(c.Display), md.Text(whatChanged(c)))
			if c.Path != "" {
				where := "Declared at"
				if c.Side == "base" {
					where = "Was declared at"
				}
				label := md.Text(findings.WhereSeed(c))
				if bp := c.Bump; bp != nil {
					// the dependency's file is in no commit: link the
					// manifest's line that bumped it
					fmt.Fprintf(b, "%s %s, bumped at %s", where, label, md.Link(md.Text(fmt.Sprintf("%s:%d", bp.Manifest, bp.Line)), links.Seed(rep, c)))
				} else {
					fmt.Fprintf(b, "%s %s", where, md.Link(label, links.Seed(rep, c)))
				}
				if c.Derived {
					b.WriteString(" (a change Ripple inferred: it must follow the one it wraps)")
				}
				b.WriteString(".\n\n")
			}
		} else {
			b.WriteString("### Other findings\n\n")
		}
		b.WriteString("| Level | Site | Why | Relation path |\n| --- | --- | --- | --- |\n")
		for _, f := range g.Findings {
			if rows >= MaxRows {
				break
			}
			rows++
			site := md.Link(md.Text(findings.Where(f)), links.Site(rep, f))
			if code := md.Code(f.Text); code != "" {
				site += "<br>" + code
			}
			why := md.Text(f.Message)
			if f.Precision != "" {
				why += " <sub>(" + md.Text(f.Precision) + ")</sub>"
			}
			fmt.Fprintf(b, "| %s | %s | %s | %s |\n", md.Text(f.Level), md.Cell(site), md.Cell(why), md.Cell(trail(f)))
		}
		b.WriteString("\n")
	}
}

func whatChanged(c *findings.Change) string { return findings.What(c) }

func trail(f *findings.Finding) string {
	if len(f.Trail) == 0 {
		return ""
	}
	return findings.TrailText(f.Trail, md.Code)
}

func writeDetails(b *strings.Builder, rep *findings.Report) {
	if len(rep.Diagnostics) == 0 && len(rep.PrecisionNotes) == 0 {
		return
	}
	fmt.Fprintf(b, "<details><summary>What limited the analysis (%d)</summary>\n\n", len(rep.Diagnostics)+len(rep.PrecisionNotes))
	for _, d := range rep.Diagnostics {
		loc := ""
		if d.Path != "" {
			loc = d.Path
			if d.Line > 0 {
				loc += fmt.Sprintf(":%d", d.Line)
			}
			loc = md.Code(loc) + ": "
		}
		fmt.Fprintf(b, "- %s%s\n", loc, md.Text(d.Message))
	}
	for _, n := range rep.PrecisionNotes {
		fmt.Fprintf(b, "- %s\n", md.Text(n))
	}
	b.WriteString("\n</details>\n")
}
