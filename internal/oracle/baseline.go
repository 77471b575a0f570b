package oracle

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strings"
)

// The baseline rule: a diagnostic the oracle already reported on the
// state before the change is not the change's doing. It neither blocks
// proof nor becomes an obligation for the fix engine; only the
// diagnostics the change introduced do. Most real repositories carry a
// few (a vet warning nobody fixed, pyright errors in an untyped corner),
// and without this rule no fix could ever be proven there.
//
// Diagnostics are matched as a multiset, in two passes. First by tool,
// file, message and the text of the line they stand at (Source): the
// change moves lines, so line numbers cannot be compared, but an old
// diagnostic on a line the change did not edit still stands at the same
// text, and a new one at a new line does not take its place. Then the
// rest by tool, file and message alone: a diagnostic whose line the
// change rewrote is excused by one of the same message the base had in
// that file and that no other diagnostic matched. Two copies of one
// message at the base excuse two at the head, not three. Positions
// quoted inside a message ("other declaration of x at a.go:12:3") are
// blanked out before comparing.
//
// A diagnostic that shows the checker lacked something (Lacks: a module
// that is not installed, the JSX types) is excused wherever it stands
// when the base lacked the same: it is the environment's gap, not the
// change's (one more JSX element in a checkout without node_modules is
// one more such error).

// Compare splits the diagnostics of after (the changed state) into those
// the change introduced and those already present in before (the state
// it started from).
func Compare(before, after *Result) (introduced, preexisting []Diagnostic) {
	if after == nil {
		return nil, nil
	}
	exact, loose, lacked := map[string]int{}, map[string]int{}, map[string]bool{}
	if before != nil {
		for _, d := range before.Diagnostics {
			exact[exactKey(d)]++
			loose[baselineKey(d)]++
			if d.Lacks != "" {
				lacked[d.Tool+"\x00"+d.Lacks] = true
			}
		}
	}
	matched := make([]bool, len(after.Diagnostics))
	for i, d := range after.Diagnostics {
		if k := exactKey(d); exact[k] > 0 {
			exact[k]--
			loose[baselineKey(d)]--
			matched[i] = true
		}
	}
	for i, d := range after.Diagnostics {
		if !matched[i] {
			if k := baselineKey(d); loose[k] > 0 {
				loose[k]--
				matched[i] = true
			} else if d.Lacks != "" && lacked[d.Tool+"\x00"+d.Lacks] {
				matched[i] = true
			}
		}
		if matched[i] {
			preexisting = append(preexisting, d)
		} else {
			introduced = append(introduced, d)
		}
	}
	return introduced, preexisting
}

// Relative is after judged against before: its diagnostics are the
// introduced ones, Preexisting holds the rest, and it passes when the
// change introduced none. A run that failed without a single diagnostic
// (a tool that crashed) still fails.
func Relative(before, after *Result) *Result {
	if after == nil || after.Pass {
		return after
	}
	intro, pre := Compare(before, after)
	r := *after
	r.Diagnostics = intro
	r.Preexisting = pre
	r.Pass = len(intro) == 0 && len(pre) > 0
	return &r
}

// quotedPos is a file position quoted inside a message.
var quotedPos = regexp.MustCompile(`([\w./-]+\.\w+):\d+(:\d+)?`)

func baselineKey(d Diagnostic) string {
	msg := quotedPos.ReplaceAllString(strings.TrimSpace(d.Message), "$1")
	return d.Tool + "\x00" + d.Path + "\x00" + msg
}

func exactKey(d Diagnostic) string { return baselineKey(d) + "\x00" + d.Source }

// AddSources sets the Source of each diagnostic with a file and a line:
// that line of the file under dir, its spaces trimmed. An oracle calls it
// on what it reports, so that the baseline can tell an old diagnostic
// from a new one of the same message.
func AddSources(dir string, ds []Diagnostic) {
	files := map[string][][]byte{}
	for i := range ds {
		d := &ds[i]
		if d.Path == "" || d.Line <= 0 {
			continue
		}
		lines, ok := files[d.Path]
		if !ok {
			src, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(d.Path)))
			if err == nil {
				lines = bytes.Split(src, []byte("\n"))
			}
			files[d.Path] = lines
		}
		if d.Line <= len(lines) {
			d.Source = string(bytes.TrimSpace(lines[d.Line-1]))
		}
	}
}
