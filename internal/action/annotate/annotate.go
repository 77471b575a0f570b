package annotate

import (
	"fmt"
	"strings"

	"github.com/ripple-dev/ripple/internal/action/findings"
	"github.com/ripple-dev/ripple/internal/model"
)

// Limits are GitHub's annotation limits.
type Limits struct {
	PerLevel int // per level per step (10)
	PerJob   int // all levels, per job (50)
	// Keep are slots per level left free for the caller's own
	// annotations.
	Keep map[string]int
}

// GitHub is the limits GitHub documents.
var GitHub = Limits{PerLevel: 10, PerJob: 50}

// Annotation is one workflow-command annotation.
type Annotation struct {
	Level   string // error, warning or notice
	File    string // "" for an overflow count
	Line    int
	Col     int
	Title   string
	Message string
}

// Properties are the workflow command's properties.
func (a Annotation) Properties() map[string]string {
	p := map[string]string{}
	if a.Title != "" {
		p["title"] = a.Title
	}
	if a.File != "" {
		p["file"] = a.File
		p["line"] = fmt.Sprint(a.Line)
		if a.Col > 0 {
			p["col"] = fmt.Sprint(a.Col)
		}
	}
	return p
}

// Result is the chosen annotations and what they left out.
type Result struct {
	Annotations []Annotation
	// Total and Shown count findings per level (error, warning,
	// notice); Shown never includes overflow annotations.
	Total, Shown map[string]int
}

// Omitted is the number of findings without an annotation.
func (r *Result) Omitted() int {
	n := 0
	for l, t := range r.Total {
		n += t - r.Shown[l]
	}
	return n
}

var levels = []string{"error", "warning", "notice"}

func levelOf(f *findings.Finding) string {
	switch f.Level {
	case "error":
		return "error"
	case "warning":
		return "warning"
	}
	return "notice"
}

var nouns = map[string][2]string{
	"error":   {"inconsistent site", "inconsistent sites"},
	"warning": {"site that may be impacted", "sites that may be impacted"},
	"notice":  {"note", "notes"},
}

// Plan chooses the annotations of rep within lim.
func Plan(rep *findings.Report, lim Limits) *Result {
	res := &Result{Total: map[string]int{}, Shown: map[string]int{}}
	by := map[string][]*findings.Finding{}
	for i := range rep.Findings {
		f := &rep.Findings[i]
		l := levelOf(f)
		by[l] = append(by[l], f)
		res.Total[l]++
	}
	left := lim.PerJob
	for _, l := range levels {
		fs := by[l]
		if len(fs) == 0 || left <= 0 {
			continue
		}
		room := min(lim.PerLevel-lim.Keep[l], left)
		if room <= 0 {
			continue
		}
		shown := fs
		if len(fs) > room {
			shown = fs[:room-1] // the last slot says what is left out
		}
		for _, f := range shown {
			res.Annotations = append(res.Annotations, of(rep, f, l))
		}
		res.Shown[l] = len(shown)
		if rest := len(fs) - len(shown); rest > 0 {
			noun, verb := nouns[l][1], "are"
			if rest == 1 {
				noun, verb = nouns[l][0], "is"
			}
			res.Annotations = append(res.Annotations, Annotation{
				Level: l,
				Title: "ripple: more findings than GitHub annotates",
				Message: fmt.Sprintf("ripple: %d more %s %s not annotated (GitHub shows %d %s annotations per step); the job summary lists all %d",
					rest, noun, verb, lim.PerLevel, l, len(fs)),
			})
		}
		left -= min(len(fs), room)
	}
	return res
}

func of(rep *findings.Report, f *findings.Finding, level string) Annotation {
	a := Annotation{Level: level, File: f.Path, Line: f.Line, Col: f.Col}
	c := rep.ChangeOf(f)
	elsewhere := ""
	if f.Rev != "" {
		// the site is a line the head does not have (the merge check's,
		// on the branch merged with): GitHub would show it at that line
		// of the head's file. It stands at the change's declaration when
		// the head has it, else on the run, and says where the site is.
		a.File, a.Line, a.Col = "", 0, 0
		if c != nil && c.Rev == "" && c.Side == "head" && c.Path != "" && c.Line > 0 {
			a.File, a.Line = c.Path, c.Line
		}
		elsewhere = "at " + findings.Where(f) + ": "
	}
	verdict := f.Verdict
	if verdict == "" {
		verdict = f.Level
	}
	a.Title = "ripple: " + verdict
	if c != nil {
		a.Title += " after " + c.Display
	}
	var b strings.Builder
	b.WriteString(elsewhere + f.Message)
	if f.Missing != "" {
		fmt.Fprintf(&b, " (without %s)", f.Missing)
	}
	if len(f.Also) > 0 {
		var ps []string
		for i := range f.Also {
			ps = append(ps, findings.WhereAlso(f, &f.Also[i]))
		}
		fmt.Fprintf(&b, "\nand %s for the same reason: %s", model.Plural(len(f.Also), "more site", "more sites"), strings.Join(ps, ", "))
	}
	if c != nil {
		if findings.TheirChange(c) {
			fmt.Fprintf(&b, "\n%s: %s", c.Display, findings.What(c))
		} else {
			fmt.Fprintf(&b, "\n%s", c.Summary)
		}
		if c.Path != "" {
			where := "declared at"
			if c.Side == "base" {
				where = "was declared at"
			}
			fmt.Fprintf(&b, " (%s %s)", where, findings.WhereSeed(c))
		}
	}
	if len(f.Trail) >= 2 {
		fmt.Fprintf(&b, "\nrelation path: %s", findings.TrailText(f.Trail, nil))
	}
	a.Message = b.String()
	return a
}
