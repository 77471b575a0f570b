package typescript

import (
	"bytes"
	"context"
	"time"
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

// tscCost is the time tsc is expected to take on a program of so many
// bytes of sources.
func tscCost(bytes int64) time.Duration {
	return tscStartup + time.Duration(float64(bytes)/tscBytesPerSecond*float64(time.Second))
}
