package report

import (
	"bufio"
	"fmt"
	"io"
	"strings"

	"github.com/ripple-dev/ripple/internal/model"
)

// lineWidth is the width text output aims at; longer source lines are
// cut with "…".
const (
	lineWidth   = 120
	minSnippet  = 40
	siteIndent  = "  "
	levelIndent = "      "
)

// ANSI SGR sequences.
const (
	ansiReset  = "\x1b[0m"
	ansiBold   = "\x1b[1m"
	ansiRed    = "\x1b[31m"
	ansiGreen  = "\x1b[32m"
	ansiYellow = "\x1b[33m"
	ansiCyan   = "\x1b[36m"
	ansiDim    = "\x1b[2m"
)

// Text writes the human report: one block per change with reported
// findings, in change order, each site on one line with its verdict
// below; then diagnostics, precision notes and a totals line.
//
//	func (*Client).Do: parameter ctx context.Context added; 3 call sites not updated, 1 may be impacted
//	  declared at client/client.go:42
//	  cmd/get/main.go:17: resp, err := c.Do(req)
//	      error: call passes 1 argument; Do now takes 2
//
//	ripple: 3 inconsistent, 1 may be impacted (4 changes checked, 3.2s)
//
// The totals line counts the developer's changes checked, as Headline
// does.
func Text(w io.Writer, r *model.Result, o Options) error {
	p := prepare(r)
	t := &textWriter{w: bufio.NewWriter(w), color: o.Color}
	var total tally
	shown, hidden := 0, 0
	for _, g := range p.groups(o.Verbose) {
		total.add(g.findings)
		for _, f := range g.findings {
			if !o.Verbose && frontier(f) {
				hidden++
			}
		}
		if !o.Verbose && onlyFrontier(g.findings) {
			continue // the farther frontier: -verbose shows it
		}
		if shown > 0 {
			t.line("")
		}
		shown++
		t.group(g, o.Verbose)
	}

	var tail []string
	for _, d := range p.r.Diagnostics {
		tail = append(tail, t.paint(ansiCyan, "note:")+" "+d.String())
	}
	for _, n := range p.r.PrecisionNotes {
		tail = append(tail, t.paint(ansiCyan, "note:")+" "+n)
	}
	if shown > 0 {
		t.line("") // between the blocks and what follows; nothing before a report without blocks
	}
	for _, s := range tail {
		t.line(s)
	}
	t.line(totals(p, total, o.Verbose, hidden))
	return t.w.Flush()
}

type textWriter struct {
	w     *bufio.Writer
	color bool
}

func (t *textWriter) line(s string) {
	t.w.WriteString(s)
	t.w.WriteByte('\n')
}

func (t *textWriter) paint(code, s string) string {
	if !t.color || s == "" {
		return s
	}
	return code + s + ansiReset
}

func (t *textWriter) group(g group, verbose bool) {
	var c tally
	c.add(g.findings)
	t.line(t.paint(ansiBold, heading(g.change)+"; "+headingCounts(g.findings, c)))

	if b, base := seed(g.change); b != nil && b.Path != "" {
		where := "declared at"
		if base {
			where = "deleted from"
		}
		t.line(siteIndent + where + " " + t.paint(ansiBold, at(seedRev(g.change), g.change.Merged, b.Path, b.NameLine)))
	}
	if g.change != nil {
		if g.change.Derived && g.change.Cause != nil {
			t.line(siteIndent + "derived from " + heading(g.change.Cause))
		}
		if len(g.change.Escapes) > 0 {
			t.line(siteIndent + "reaches callers through " + strings.Join(g.change.Escapes, ", "))
		}
	}
	for _, f := range g.findings {
		if !verbose && frontier(f) {
			continue
		}
		t.site(f, verbose)
	}
}

// frontier reports a finding of the farther frontier (model.MayFollow,
// reported as a note), which the text report lists with -verbose only
// and counts otherwise.
func frontier(f *model.Finding) bool {
	return f.Verdict == model.MayFollow && f.Level == model.LevelNote
}

// onlyFrontier reports findings that are all of the farther frontier.
func onlyFrontier(fs []*model.Finding) bool {
	for _, f := range fs {
		if !frontier(f) {
			return false
		}
	}
	return len(fs) > 0
}

// headingCounts is "3 call sites not updated, 1 may be impacted".
func headingCounts(fs []*model.Finding, c tally) string {
	var rep []*model.Finding
	for _, f := range fs {
		if reported(f) {
			rep = append(rep, f)
		}
	}
	if len(rep) == 0 {
		rep = fs
	}
	rel := mainRelation(rep)
	var parts []string
	add := func(n int, what string) {
		if n == 0 {
			return
		}
		if len(parts) == 0 {
			parts = append(parts, nounFor(rel, n)+" "+what)
		} else {
			parts = append(parts, fmt.Sprintf("%d %s", n, what))
		}
	}
	switch {
	case rel != model.Uses:
		add(c.inconsistent, "not updated")
	case !compiled(rep) && c.inconsistent == 1:
		// new code judged by the syntax (binding, lookup): no compiler said it
		add(c.inconsistent, "is broken")
	case !compiled(rep):
		add(c.inconsistent, "are broken")
	case c.inconsistent == 1:
		add(c.inconsistent, "does not compile") // new code the diff wrote: nothing to update
	default:
		add(c.inconsistent, "do not compile")
	}
	add(c.mayBe, "may be impacted")
	add(c.noted, "noted")
	add(c.consistent, "consistent")
	add(c.off, "not reported")
	return strings.Join(parts, ", ")
}

// compiled reports findings a type checker gave (a front-end's compiler
// or checker rejected the line), rather than the syntax's binding rules.
func compiled(fs []*model.Finding) bool {
	for _, f := range fs {
		if f.Precision == model.PrecisionTypes {
			return true
		}
	}
	return false
}

func position(path string, line int) string {
	if line > 0 {
		return fmt.Sprintf("%s:%d", path, line)
	}
	return path
}

func (t *textWriter) site(f *model.Finding, verbose bool) {
	pos := at(f.Site.Rev, f.Merged, f.Site.Path, f.Site.Line)
	s := siteIndent + t.paint(ansiBold, pos)
	if src := strings.ReplaceAll(trimmed(f.Site), "\t", " "); src != "" {
		width := max(lineWidth-len(siteIndent)-len(pos)-2, minSnippet)
		s += ": " + truncate(src, width)
	}
	t.line(s)

	var tag, msg string
	switch {
	case f.Level == model.LevelError:
		tag = t.paint(ansiRed, "error:")
	case f.Level == model.LevelWarning:
		tag = t.paint(ansiYellow, "warning:")
	case f.Level == model.LevelNote:
		tag = t.paint(ansiCyan, "note:")
	case f.Verdict == model.Consistent:
		tag = t.paint(ansiGreen, "ok:")
	default: // inconsistent or may be impacted, switched off by the config
		tag = t.paint(ansiDim, "not reported:")
	}
	msg = f.Message
	if !reported(f) && f.Verdict == model.Consistent {
		switch {
		case f.Updated && msg != "":
			msg = "updated in this diff; " + msg
		case f.Updated:
			msg = "updated in this diff"
		case msg == "":
			msg = "consistent with the change"
		}
	}
	if len(f.Trail) > 2 { // seed, intermediate blocks, site
		msg += " (via " + trailText(f.Trail) + ")"
	}
	if f.Missing != "" {
		msg += " (without " + f.Missing + ")"
	}
	if verbose && f.Precision != "" {
		msg += " [" + string(f.Precision) + "]"
	}
	t.line(levelIndent + tag + " " + msg)
	if len(f.Also) > 0 {
		t.line(levelIndent + "and " + model.Plural(len(f.Also), "more site", "more sites") + " for the same reason: " + alsoText(f.Also, f.Merged, verbose))
	}
}

// alsoText lists an aggregate's other sites: the first few, or all with
// -verbose.
func alsoText(sites []model.Site, m *model.Merged, verbose bool) string {
	const shown = 5
	var ps []string
	for i, s := range sites {
		if i == shown && !verbose {
			ps = append(ps, fmt.Sprintf("... (%d more; -verbose or -format json lists them)", len(sites)-shown))
			break
		}
		ps = append(ps, at(s.Rev, m, s.Path, s.Line))
	}
	return strings.Join(ps, ", ")
}

func trailText(tr []model.Step) string {
	names := make([]string, len(tr))
	for i, s := range tr {
		names[i] = s.Display
	}
	return strings.Join(names, " → ")
}

// totals is the last line: "ripple: 9 inconsistent, 2 may be impacted (14
// changes checked, 3.2s)" or "ripple: no inconsistent sites (3 changes
// checked)". It counts the developer's changes, not the derived ones.
// totals is the last line; hidden counts the findings of the farther
// frontier the report did not show (without -verbose).
func totals(p *prepared, c tally, verbose bool, hidden int) string {
	var parts []string
	if c.reported() == 0 {
		parts = append(parts, "no inconsistent sites")
	} else {
		if c.inconsistent > 0 {
			parts = append(parts, fmt.Sprintf("%d inconsistent", c.inconsistent))
		}
		if c.mayBe > 0 {
			parts = append(parts, fmt.Sprintf("%d may be impacted", c.mayBe))
		}
		switch {
		case c.noted > 0 && c.noted == hidden:
			parts = append(parts, fmt.Sprintf("%d noted (-verbose lists them)", c.noted))
			hidden = 0
		case c.noted > 0:
			parts = append(parts, fmt.Sprintf("%d noted", c.noted))
		}
	}
	if verbose && c.consistent > 0 {
		parts = append(parts, fmt.Sprintf("%d consistent", c.consistent))
	}
	if verbose && c.off > 0 {
		parts = append(parts, fmt.Sprintf("%d not reported", c.off))
	}
	if hidden > 0 {
		them := "them"
		if hidden == 1 {
			them = "it"
		}
		parts = append(parts, model.Plural(hidden, "note", "notes")+" not shown (-verbose lists "+them+")")
	}
	changes := model.Plural(p.seeds(), "change", "changes") + " checked"
	if ms := p.r.Stats.Millis; ms > 0 {
		changes += ", " + duration(ms)
	}
	return "ripple: " + strings.Join(parts, ", ") + " (" + changes + ")"
}
