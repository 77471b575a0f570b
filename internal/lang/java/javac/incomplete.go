package javac

import (
	"fmt"
	"sort"
	"strings"

	"github.com/ripple-dev/ripple/internal/oracle"
)

// missingAcc gathers, over a check's javac runs, the errors a missing
// jar caused: which jars, which files, what javac could not find.
type missingAcc struct {
	jars   []Missing
	seen   map[string]bool
	files  map[string][]string // file -> what javac could not find in it
	count  int                 // errors set apart
	notes  []string
	plain  bool // a plain module's: no build names its jars
	levels []string
}

// add parses a run's output and splits it into the code's errors and
// those a missing jar caused (recorded).
func (a *missingAcc) add(p *Project, m *Module, r *run) (real, missing []oracle.Diagnostic) {
	ds := Parse(r.out, p.Dir)
	var why []string
	if !p.complete(m) {
		why = p.classify(ds)
	}
	for i, d := range ds {
		if why == nil || why[i] == "" {
			real = append(real, d)
			continue
		}
		missing = append(missing, d)
		a.note(d.Path, why[i])
	}
	if len(missing) > 0 {
		jars, notes := p.missingOf(m)
		for _, j := range jars {
			if !a.seen["jar\x00"+j.Coord] {
				a.mark("jar\x00" + j.Coord)
				a.jars = append(a.jars, j)
			}
		}
		for _, n := range notes {
			if !a.seen["note\x00"+n] {
				a.mark("note\x00" + n)
				a.notes = append(a.notes, n)
			}
		}
		a.plain = a.plain || m.Build == "plain"
	}
	if r.levelNote != "" && len(real) > 0 && !a.seen["level\x00"+r.levelNote] {
		a.mark("level\x00" + r.levelNote)
		a.levels = append(a.levels, r.levelNote)
	}
	return real, missing
}

func (a *missingAcc) mark(k string) {
	if a.seen == nil {
		a.seen = map[string]bool{}
	}
	a.seen[k] = true
}

func (a *missingAcc) note(file, what string) {
	if a.files == nil {
		a.files = map[string][]string{}
	}
	a.count++
	for _, w := range a.files[file] {
		if w == what {
			return
		}
	}
	a.files[file] = append(a.files[file], what)
}

// String is Result.Unanalysed: "" when javac had everything it needed.
func (a *missingAcc) String() string {
	var parts []string
	if a.count > 0 {
		var coords []string
		for _, j := range a.jars {
			coords = append(coords, j.Coord)
		}
		var files []string
		for f := range a.files {
			files = append(files, f)
		}
		sort.Strings(files)
		head := "javac had no jar for " + strings.Join(coords, ", ")
		switch {
		case len(coords) == 0 && a.plain:
			head = "javac had no jars for the imports of a folder no build file describes"
		case len(coords) == 0:
			head = "javac could not read the whole build (" + strings.Join(a.notes, "; ") + ")"
		}
		parts = append(parts, fmt.Sprintf("%s: %d errors in %s are about what it could not find (%s), and those files are not proven",
			head, a.count, list(files, 5), list(a.what(), 6)))
	}
	parts = append(parts, a.levels...)
	return strings.Join(parts, "; ")
}

// what is everything javac could not find, deduplicated and sorted.
func (a *missingAcc) what() []string {
	seen := map[string]bool{}
	var out []string
	for _, ws := range a.files {
		for _, w := range ws {
			if !seen[w] && !strings.HasPrefix(w, "a member") {
				seen[w] = true
				out = append(out, w)
			}
		}
	}
	sort.Strings(out)
	if len(out) == 0 {
		out = []string{"inherited members"}
	}
	return out
}

// list joins up to n items and says how many more there are.
func list(items []string, n int) string {
	if len(items) <= n {
		return strings.Join(items, ", ")
	}
	return strings.Join(items[:n], ", ") + fmt.Sprintf(" and %d more", len(items)-n)
}
