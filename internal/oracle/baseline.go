package oracle

import (
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
// Diagnostics are matched by tool, file and message, as a multiset: the
// change moves lines, so positions cannot be compared, and positions
// quoted inside a message ("other declaration of x at a.go:12:3") are
// blanked out before comparing. Two copies of one message at the base
// excuse two at the head, not three.

// Compare splits the diagnostics of after (the changed state) into those
// the change introduced and those already present in before (the state
// it started from).
func Compare(before, after *Result) (introduced, preexisting []Diagnostic) {
	if after == nil {
		return nil, nil
	}
	left := map[string]int{}
	if before != nil {
		for _, d := range before.Diagnostics {
			left[baselineKey(d)]++
		}
	}
	for _, d := range after.Diagnostics {
		k := baselineKey(d)
		if left[k] > 0 {
			left[k]--
			preexisting = append(preexisting, d)
			continue
		}
		introduced = append(introduced, d)
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
