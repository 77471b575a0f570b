package hookinstall

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const pushInput = "refs/heads/main 1111111111111111111111111111111111111111 refs/heads/main 2222222222222222222222222222222222222222\n" +
	"refs/tags/v1 3333333333333333333333333333333333333333 refs/tags/v1 0000000000000000000000000000000000000000\n"

// installScript writes the hook for exe into a fresh hooks directory, with
// an optional chained hook, and returns the hook's path.
func installScript(t *testing.T, exe string, chained func(path string)) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "hooks dir 'q'")
	s, err := Script(exe)
	if err != nil {
		t.Fatal(err)
	}
	hook := filepath.Join(dir, "pre-push")
	writeExec(t, hook, strings.TrimPrefix(s, "#!/bin/sh\n"))
	if chained != nil {
		chained(filepath.Join(dir, ChainedName))
	}
	return hook
}

// The hook runs the chained hook, then ripple, with the same arguments and
// input, and exits with the status of the first that fails.
func TestScriptChaining(t *testing.T) {
	args := []string{"origin", "git@example.com:team/repo with space.git"}
	wantArgs := strings.Join(args, "\n") + "\n"
	tests := []struct {
		name          string
		chained       int // exit status of the chained hook; -1: none; -2: not executable
		ripple        int
		want          int
		wantRippleRan bool
	}{
		{"no chained hook, ripple passes", -1, 0, 0, true},
		{"no chained hook, ripple blocks", -1, 1, 1, true},
		{"chained passes, ripple passes", 0, 0, 0, true},
		{"chained passes, ripple blocks with its status", 0, 3, 3, true},
		{"chained fails: its status, ripple not run", 7, 0, 7, false},
		{"chained not executable: skipped", -2, 0, 0, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			hermetic(t)
			fake := filepath.Join(t.TempDir(), "ripple")
			recorder(t, fake, tt.ripple)
			var chainedPath string
			hook := installScript(t, "/nonexistent/ripple", func(p string) {
				chainedPath = p
				switch tt.chained {
				case -1:
				case -2:
					recorder(t, p, 9)
					os.Chmod(p, 0o644)
				default:
					recorder(t, p, tt.chained)
				}
			})
			tmp := t.TempDir()
			code, stderr := runHook(t, hook, pushInput, []string{"RIPPLE_BIN=" + fake, "TMPDIR=" + tmp}, args...)
			if code != tt.want {
				t.Errorf("exit status %d, want %d; stderr:\n%s", code, tt.want, stderr)
			}
			gotArgs, gotIn, ran := recorded(t, fake)
			if ran != tt.wantRippleRan {
				t.Fatalf("ripple ran: %v, want %v; stderr:\n%s", ran, tt.wantRippleRan, stderr)
			}
			if ran && (gotArgs != "pre-push\n"+wantArgs || gotIn != pushInput) {
				t.Errorf("ripple got args %q stdin %q, want %q %q", gotArgs, gotIn, "pre-push\n"+wantArgs, pushInput)
			}
			cArgs, cIn, cRan := recorded(t, chainedPath)
			if cRan != (tt.chained >= 0) {
				t.Errorf("chained hook ran: %v", cRan)
			}
			if cRan && (cArgs != wantArgs || cIn != pushInput) {
				t.Errorf("chained hook got args %q stdin %q, want %q %q", cArgs, cIn, wantArgs, pushInput)
			}
			if ents, _ := os.ReadDir(tmp); len(ents) != 0 {
				t.Errorf("the temporary file was not removed: %v", ents)
			}
		})
	}
}

// A ripple binary that is gone lets the push go, with a message, after
// the chained hook ran.
func TestScriptMissingBinary(t *testing.T) {
	hermetic(t)
	exe := "/nonexistent dir/it's/ripple"
	var chained string
	hook := installScript(t, exe, func(p string) { chained = p; recorder(t, p, 0) })
	code, stderr := runHook(t, hook, pushInput, []string{"PATH=" + toolsPath(t)}, "origin", "url")
	want := "ripple: the ripple binary (" + exe + ") is missing; push not checked. Reinstall with 'hook install'.\n"
	if code != 0 || !strings.HasSuffix(stderr, want) {
		t.Errorf("got status %d, stderr %q; want 0 and %q", code, stderr, want)
	}
	if _, in, ran := recorded(t, chained); !ran || in != pushInput {
		t.Errorf("the chained hook did not run with the input (ran %v, stdin %q)", ran, in)
	}
}

// Without the installed binary, `hook` on PATH is used.
func TestScriptFallsBackToPath(t *testing.T) {
	hermetic(t)
	bin := t.TempDir()
	recorder(t, filepath.Join(bin, "hook"), 4)
	hook := installScript(t, "/nonexistent/ripple", nil)
	code, stderr := runHook(t, hook, pushInput, []string{"PATH=" + bin + string(os.PathListSeparator) + toolsPath(t)}, "origin", "url")
	if code != 4 {
		t.Errorf("exit status %d, want 4 (the status of hook on PATH); stderr:\n%s", code, stderr)
	}
	if args, in, ran := recorded(t, filepath.Join(bin, "hook")); !ran || args != "pre-push\norigin\nurl\n" || in != pushInput {
		t.Errorf("hook on PATH: ran %v, args %q, stdin %q", ran, args, in)
	}
}

// The binary path is quoted for sh: spaces, quotes, $ and backquotes.
func TestScriptQuotesThePath(t *testing.T) {
	hermetic(t)
	exe := filepath.Join(t.TempDir(), `it's a "dir" with $HOME and `+"`x`", "ripple")
	recorder(t, exe, 0)
	hook := installScript(t, exe, nil)
	code, stderr := runHook(t, hook, pushInput, nil, "origin", "url")
	if code != 0 {
		t.Fatalf("exit status %d; stderr:\n%s", code, stderr)
	}
	if args, _, ran := recorded(t, exe); !ran || args != "pre-push\norigin\nurl\n" {
		t.Errorf("the binary at a path with quotes did not run (ran %v, args %q); stderr:\n%s", ran, args, stderr)
	}
}

func TestShQuote(t *testing.T) {
	for in, want := range map[string]string{
		"/usr/bin/ripple": `'/usr/bin/ripple'`,
		"/a b/it's":       `'/a b/it'\''s'`,
		"''":              `''\'''\'''`,
	} {
		if got := shQuote(in); got != want {
			t.Errorf("shQuote(%q) = %s, want %s", in, got, want)
		}
	}
}

func TestMarkerOf(t *testing.T) {
	s, _ := Script("/x/ripple")
	for in, want := range map[string]string{
		s:                                        Marker,
		"#!/bin/sh\n# ripple-pre-push-hook v7\n": "# ripple-pre-push-hook v7",
		"#!/bin/sh\necho hi\n":                   "",
		"1\n2\n3\n4\n5\n6\n# ripple-pre-push-hook v1\n": "",
	} {
		if got := markerOf([]byte(in)); got != want {
			t.Errorf("markerOf(%q) = %q, want %q", in, got, want)
		}
	}
}
