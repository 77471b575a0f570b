package report

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ripple-dev/ripple/internal/langtest"
)

// update rewrites the golden files: the -update flag, which the scenario
// runner this package's contract test imports defines.
var update = langtest.Update

// goldenCases are the outputs written for each fixture, as
// testdata/<fixture>.<suffix>.golden.
var goldenCases = []struct {
	suffix, format string
	verbose        bool
}{
	{"text", "text", false},
	{"verbose.text", "text", true},
	{"json", "json", false},
	{"sarif", "sarif", false},
}

func goldenOptions(verbose bool) Options {
	return Options{Verbose: verbose, ToolName: "ripple", ToolVersion: "0.0.0-test", RepoRoot: "/src/my repo"}
}

func TestGolden(t *testing.T) {
	for _, fx := range fixtures() {
		for _, c := range goldenCases {
			name := fx.name + "." + c.suffix
			t.Run(name, func(t *testing.T) {
				var buf bytes.Buffer
				if err := Write(&buf, c.format, fx.r(), goldenOptions(c.verbose)); err != nil {
					t.Fatal(err)
				}
				checkGolden(t, filepath.Join("testdata", name+".golden"), buf.String())
			})
		}
	}
}

// TestOrderIndependent checks that the order findings arrive in does not
// change any output.
func TestOrderIndependent(t *testing.T) {
	for _, fx := range fixtures() {
		for _, c := range goldenCases {
			var want bytes.Buffer
			if err := Write(&want, c.format, fx.r(), goldenOptions(c.verbose)); err != nil {
				t.Fatal(err)
			}
			for seed := range uint64(5) {
				r := fx.r()
				rng := rand.New(rand.NewPCG(seed, 1))
				rng.Shuffle(len(r.Findings), func(i, j int) { r.Findings[i], r.Findings[j] = r.Findings[j], r.Findings[i] })
				var got bytes.Buffer
				if err := Write(&got, c.format, r, goldenOptions(c.verbose)); err != nil {
					t.Fatal(err)
				}
				if got.String() != want.String() {
					t.Errorf("%s.%s: output depends on finding order (shuffle %d):\n%s", fx.name, c.suffix, seed, lineDiff(want.String(), got.String()))
				}
			}
		}
	}
}

// checkGolden compares got with the golden file, or rewrites the file
// with -update.
func checkGolden(t *testing.T, file, got string) {
	t.Helper()
	if *update {
		if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(file, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(file)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if string(want) != got {
		t.Errorf("output differs from %s (- want, + got; run go test -update to accept):\n%s", file, lineDiff(string(want), got))
	}
}

// lineDiff is a minimal line diff of want and got with three lines of
// context, enough to read a golden mismatch.
func lineDiff(want, got string) string {
	split := func(s string) []string {
		l := strings.SplitAfter(s, "\n")
		if l[len(l)-1] == "" {
			l = l[:len(l)-1]
		}
		return l
	}
	a, b := split(want), split(got)
	// Longest common subsequence table, from the end.
	lcs := make([][]int, len(a)+1)
	for i := range lcs {
		lcs[i] = make([]int, len(b)+1)
	}
	for i := len(a) - 1; i >= 0; i-- {
		for j := len(b) - 1; j >= 0; j-- {
			if a[i] == b[j] {
				lcs[i][j] = lcs[i+1][j+1] + 1
			} else {
				lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
			}
		}
	}
	type line struct {
		op   byte
		text string
	}
	var lines []line
	i, j := 0, 0
	for i < len(a) || j < len(b) {
		switch {
		case i < len(a) && j < len(b) && a[i] == b[j]:
			lines = append(lines, line{' ', a[i]})
			i, j = i+1, j+1
		case i < len(a) && (j == len(b) || lcs[i+1][j] >= lcs[i][j+1]):
			lines = append(lines, line{'-', a[i]})
			i++
		default:
			lines = append(lines, line{'+', b[j]})
			j++
		}
	}
	const context = 3
	var out strings.Builder
	last := -1
	for k, l := range lines {
		near := false
		for d := max(0, k-context); d <= min(len(lines)-1, k+context); d++ {
			if lines[d].op != ' ' {
				near = true
				break
			}
		}
		if !near {
			continue
		}
		if last >= 0 && k > last+1 {
			out.WriteString("...\n")
		}
		text := l.text
		if !strings.HasSuffix(text, "\n") {
			text += "\n\\ no newline at end\n"
		}
		fmt.Fprintf(&out, "%c %s", l.op, text)
		last = k
	}
	return out.String()
}

func TestLineDiff(t *testing.T) {
	got := lineDiff("a\nb\nc\n", "a\nB\nc\n")
	want := "  a\n- b\n+ B\n  c\n"
	if got != want {
		t.Errorf("lineDiff = %q, want %q", got, want)
	}
}
