package hookinstall

import (
	"context"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// A real `git push` runs the installed hook: a failing ripple stops the
// push and the remote ref stays where it was; a passing one lets it go.
// Both hooks see what git wrote.
func TestRealPush(t *testing.T) {
	tests := []struct {
		name        string
		chained     int // exit status of a previous hook; -1: none
		ripple      int
		wantPushed  bool
		wantRipple  bool
		wantStderrs []string // in the output of git push
	}{
		{"ripple blocks", -1, 1, false, true, []string{"recorder", "exits 1"}},
		{"ripple passes", -1, 0, true, true, nil},
		{"chained hook blocks, ripple not run", 1, 0, false, false, []string{"pre-push.ripple-chained exits 1"}},
		{"chained hook and ripple pass", 0, 0, true, true, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx := context.Background()
			r := newRepo(t)
			remote := filepath.Join(t.TempDir(), "remote.git")
			git(t, r.Top, "init", "-q", "--bare", "-b", "main", remote)
			git(t, r.Top, "remote", "add", "origin", remote)
			git(t, r.Top, "push", "-q", "--no-verify", "origin", "main")
			old := git(t, r.Top, "rev-parse", "HEAD")
			git(t, r.Top, "commit", "-q", "--allow-empty", "-m", "c2")
			head := git(t, r.Top, "rev-parse", "HEAD")

			hooks := filepath.Join(r.GitDir, "hooks")
			// the previous hook records to pre-push.args even once renamed
			previous := filepath.Join(hooks, "pre-push")
			if tt.chained >= 0 {
				recorder(t, previous, tt.chained)
			}
			fake := filepath.Join(t.TempDir(), "fake ripple")
			recorder(t, fake, tt.ripple)
			// the installed path does not exist: RIPPLE_BIN must win
			if _, err := Install(ctx, r, Options{Exe: "/nonexistent/ripple"}); err != nil {
				t.Fatal(err)
			}
			t.Setenv("RIPPLE_BIN", fake)

			cmd := exec.Command("git", "push", "origin", "main")
			cmd.Dir = r.Top
			out, err := cmd.CombinedOutput()
			if pushed := err == nil; pushed != tt.wantPushed {
				t.Fatalf("git push succeeded: %v, want %v\n%s", pushed, tt.wantPushed, out)
			}
			for _, w := range tt.wantStderrs {
				if !strings.Contains(string(out), w) {
					t.Errorf("git push output does not contain %q:\n%s", w, out)
				}
			}
			want := old
			if tt.wantPushed {
				want = head
			}
			if got := git(t, r.Top, "--git-dir="+remote, "rev-parse", "refs/heads/main"); got != want {
				t.Errorf("remote main is at %s, want %s", got, want)
			}

			input := "refs/heads/main " + head + " refs/heads/main " + old + "\n"
			args, in, ran := recorded(t, fake)
			if ran != tt.wantRipple {
				t.Fatalf("ripple ran: %v, want %v\n%s", ran, tt.wantRipple, out)
			}
			if ran && (args != "pre-push\norigin\n"+remote+"\n" || in != input) {
				t.Errorf("ripple got args %q stdin %q, want pre-push origin %s and %q", args, in, remote, input)
			}
			if tt.chained >= 0 {
				args, in, ran := recorded(t, previous)
				if !ran || args != "origin\n"+remote+"\n" || in != input {
					t.Errorf("chained hook: ran %v, args %q, stdin %q; want origin %s and %q", ran, args, in, remote, input)
				}
			}
		})
	}
}
