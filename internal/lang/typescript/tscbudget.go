package typescript

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/ripple-dev/ripple/internal/lang/typescript/tsc"
	"github.com/ripple-dev/ripple/internal/model"
)

// In auto, tsc runs only when it is expected to finish within the time
// budget: a tsc stopped at the deadline settles nothing, and a pre-push
// check that spends its whole budget for nothing is the worst outcome.
// The expectation is the size of what tsc will read, the sites' files
// and what they import (as this front-end resolves imports: relative
// paths, tsconfig paths, workspace packages), at a throughput measured
// for TypeScript 7 on a 2-core machine.

// tscBytesPerSecond is tsc's throughput on the sources of its program
// (parse, bind and check; wall time on 2 cores, rounded down): the
// sites' import closures of the benchmark cases took 0.6 s of CPU time
// for 0.3 MB (trpc) to 2.3 s for 4 MB (typeorm), 1.5 s for zod's 0.6 MB
// of type-level code.
const tscBytesPerSecond = 1 << 20

// tscStartup is what tsc costs before the first source: the process,
// the configuration, the default libraries (lib.dom.d.ts alone is
// 1.4 MB).
const tscStartup = 800 * time.Millisecond

// specifiers appends the module specifiers a source names: the string
// after `from` (import and export declarations), `import` (side-effect
// and dynamic imports) and `require(`. A scan, not a regular expression:
// the closure of a large project's file is megabytes (typeorm's: 4 MB
// in 7 ms, against 0.8 s for the equivalent regexp).
func specifiers(src []byte, out []string) []string {
	space := func(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }
	for _, kw := range [][]byte{[]byte("from"), []byte("import"), []byte("require")} {
		for i := 0; ; {
			j := bytes.Index(src[i:], kw)
			if j < 0 {
				break
			}
			at := i + j
			i = at + len(kw)
			if at > 0 && identByte(src[at-1]) || i < len(src) && identByte(src[i]) {
				continue
			}
			p := i
			for p < len(src) && space(src[p]) {
				p++
			}
			if kw[0] != 'f' && p < len(src) && src[p] == '(' {
				for p++; p < len(src) && space(src[p]); p++ {
				}
			}
			if p >= len(src) || src[p] != '"' && src[p] != '\'' {
				continue
			}
			e := p + 1
			for e < len(src) && src[e] != src[p] && src[e] != '\n' {
				e++
			}
			if e < len(src) && src[e] == src[p] && e > p+1 {
				out = append(out, string(src[p+1:e]))
			}
		}
	}
	return out
}

func identByte(c byte) bool {
	return c == '_' || c == '$' || c == '.' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

// closure returns the size in bytes and the number of the head-state
// files the given files reach through their imports (themselves
// included), at most maxFiles of them.
func (a *analyzer) closure(ctx context.Context, read func([]string) map[string][]byte, roots []string, maxFiles int) (bytes int64, files int) {
	seen := map[string]bool{}
	level := []string{}
	for _, r := range roots {
		if !seen[r] {
			seen[r] = true
			level = append(level, r)
		}
	}
	for len(level) > 0 && len(seen) <= maxFiles {
		srcs := read(level)
		var next []string
		for _, p := range level {
			src, ok := srcs[p]
			if !ok {
				continue
			}
			bytes += int64(len(src))
			files++
			for _, spec := range specifiers(src, nil) {
				f := a.resolve(p, spec)
				if f != "" && !seen[f] {
					seen[f] = true
					next = append(next, f)
				}
			}
		}
		level = next
	}
	return bytes, files
}

// In auto, the pre-push default, the check also stays within a tenth of
// what a full `tsc --noEmit` of the sites' projects would take (issue
// 12's bar for the default mode): tsc runs only when the time the check
// has spent and tsc's expected time on the sites' files fit in that
// tenth. tsc's own fixed cost (its process and the default library,
// lib.dom.d.ts alone 2.3 MB) is more than a tenth of a full check of
// any but large projects, so in practice auto type-checks only where
// the sites' files are a small part of a large project; precision
// types always does. Both estimates are from runs on a 2-core machine
// at high priority (bench/tsc.sh with NICE=-15): the sites' files of
// the benchmark cases, one checker, 0.32-0.52 s for 0.3-0.6 MB of
// sources (zod, hono, playwright), 0.95 s for 3.9 MB (typeorm); a full
// tsc of playwright, four checkers on both cores, 2.5-3.7 s for 16.7 MB.
// The check's own estimate errs long and the full one short, so that
// auto keeps its promise.

// tscFloor is the floor under the tenth: a project whose full tsc is
// expected to take less than this is type-checked in auto (within the
// budget) whatever the tenth says. The tenth alone never let auto check
// a small project (tsc's fixed cost is more than a tenth of any full tsc
// under about 3 s), where a full tsc costs the check least.
const tscFloor = 2 * time.Second

// tscRooted is what auto may spend, with the check's own time so far, on
// a program rooted at the sites' files whatever a tenth of a full tsc
// would allow: a program of the sites' files and what they import that
// tsc is expected to check within it proves errors the syntax can only
// suspect (issue 31: on the TypeScript visible set, 17 of the 34 units
// found only as warnings carried a tsc error in the partial state, on
// projects whose full tsc is 2.5-4 s, where the tenth never let tsc
// run). Sites' programs of the benchmark projects are estimated at
// 0.3-1.2 s (0.3-3.9 MB).
const tscRooted = 1500 * time.Millisecond

// tscQuick is the time tsc is expected to take on the sites' files and
// the sources they import (bytes).
func tscQuick(bytes int64) time.Duration {
	return 250*time.Millisecond + time.Duration(float64(bytes)/(4<<20)*float64(time.Second))
}

// tscFull is the time a full tsc of projects of so many bytes of
// sources is expected to take, at the least.
func tscFull(bytes int64) time.Duration {
	return 200*time.Millisecond + time.Duration(float64(bytes)/(7<<20)*float64(time.Second))
}

// fullCost estimates a full tsc of the projects holding the sites: the
// sizes of their files when their projects are known (the work tree
// holds the head state), else the repository's file count at the
// average size of the files the sites import. what names it.
func (a *analyzer) fullCost(ctx context.Context, prep *tscPrepared, todo []*tscSite, closureBytes int64, closureFiles int) (time.Duration, string) {
	if prep.projects != nil && prep.wt != "" {
		seen := map[*tsc.Project]bool{}
		files := map[string]bool{}
		var bytes int64
		for _, s := range todo {
			p := prep.projects.For(ctx, filepath.Join(prep.wt, filepath.FromSlash(s.ref.Site.Path)))
			if p == nil || seen[p] {
				continue
			}
			seen[p] = true
			for _, f := range p.Files {
				if files[f] {
					continue
				}
				files[f] = true
				if st, err := os.Stat(f); err == nil {
					bytes += st.Size()
				}
			}
		}
		if bytes > 0 {
			return tscFull(bytes), fmt.Sprintf("%s (%d files, %.1f MB)", model.Plural(len(seen), "project", "projects"), len(files), float64(bytes)/(1<<20))
		}
	}
	avg := int64(0)
	if closureFiles > 0 {
		avg = closureBytes / int64(closureFiles)
	}
	n := len(a.files)
	return tscFull(int64(n) * avg), fmt.Sprintf("the repository (%d files, estimated)", n)
}

// fitsTenth applies auto's rule: the check's time so far and tsc's on the
// sites' files (bytes) within a tenth of a full tsc (full, of what) or
// within tscRooted, or a full tsc under tscFloor; it notes why not when
// they do not fit.
func (a *analyzer) fitsTenth(roots []string, bytes int64, full time.Duration, what string) bool {
	quick, spent := tscQuick(bytes), time.Since(a.started)
	trace("tsc on the sites' files: about %v, with the %v spent; a full tsc of %s: about %v", quick.Round(10*time.Millisecond), spent.Round(10*time.Millisecond), what, full.Round(10*time.Millisecond))
	if spent+quick <= max(full/10, tscRooted) || full < tscFloor {
		return true
	}
	files := "the site's file and what it imports"
	if len(roots) > 1 {
		files = fmt.Sprintf("the %d sites' files and what they import", len(roots))
	}
	a.note("typescript-budget", fmt.Sprintf("typescript: types not checked: tsc on %s (%.1f MB) would take about %v, more than a tenth of a full tsc of %s (about %v) with the check's own %v; auto stays within that tenth or %v, whichever is more, above a full tsc of %v (use precision: types)",
		files, float64(bytes)/(1<<20), quick.Round(10*time.Millisecond), what, full.Round(100*time.Millisecond), spent.Round(10*time.Millisecond), tscRooted, tscFloor))
	return false
}

// repoFullCost bounds a full tsc of any project from above: every
// TypeScript and JavaScript file of the repository as the work tree
// holds it, summed until the bound reaches enough (a tenth of it would
// hold what the check needs: more is not needed to decide). ok is false
// without a work tree.
func (a *analyzer) repoFullCost(enough time.Duration) (time.Duration, string, bool) {
	top := workTop(a.env.Head)
	if top == "" {
		return 0, "", false
	}
	var bytes int64
	n := 0
	for p := range a.files {
		if tscFull(bytes) >= enough {
			return tscFull(bytes), fmt.Sprintf("the whole repository (over %d files, %.1f MB)", n, float64(bytes)/(1<<20)), true
		}
		if st, err := os.Stat(filepath.Join(top, filepath.FromSlash(p))); err == nil {
			bytes += st.Size()
		}
		n++
	}
	return tscFull(bytes), fmt.Sprintf("the whole repository (%d files, %.1f MB)", len(a.files), float64(bytes)/(1<<20)), true
}

// tscCost is the time tsc is expected to take on a program of so many
// bytes of sources.
func tscCost(bytes int64) time.Duration {
	return tscStartup + time.Duration(float64(bytes)/tscBytesPerSecond*float64(time.Second))
}
