package hookinstall

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestHooksDir(t *testing.T) {
	abs := filepath.Join(t.TempDir(), "shared hooks")
	tests := []struct {
		name string
		// setup configures the repository at top and returns the
		// directory to open and the expected hooks directory.
		setup func(t *testing.T, top string) (open, want string)
	}{
		{"default", func(t *testing.T, top string) (string, string) {
			return top, filepath.Join(top, ".git", "hooks")
		}},
		{"core.hooksPath relative to the top", func(t *testing.T, top string) (string, string) {
			git(t, top, "config", "core.hooksPath", ".husky/_")
			return filepath.Join(top, "sub"), filepath.Join(top, ".husky", "_")
		}},
		{"core.hooksPath absolute", func(t *testing.T, top string) (string, string) {
			git(t, top, "config", "core.hooksPath", abs)
			return top, abs
		}},
		{"linked worktree uses the common dir", func(t *testing.T, top string) (string, string) {
			wt := filepath.Join(filepath.Dir(top), "wt")
			git(t, top, "worktree", "add", "-q", wt)
			return wt, filepath.Join(top, ".git", "hooks")
		}},
		{"linked worktree with a relative core.hooksPath", func(t *testing.T, top string) (string, string) {
			wt := filepath.Join(filepath.Dir(top), "wt")
			git(t, top, "worktree", "add", "-q", wt)
			git(t, top, "config", "core.hooksPath", "hooks")
			return wt, filepath.Join(wt, "hooks")
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := newRepo(t)
			if err := os.MkdirAll(filepath.Join(r.Top, "sub"), 0o755); err != nil {
				t.Fatal(err)
			}
			dir, want := tt.setup(t, r.Top)
			got, err := HooksDir(context.Background(), open(t, dir))
			if err != nil {
				t.Fatal(err)
			}
			if got != want {
				t.Errorf("HooksDir = %s, want %s", got, want)
			}
		})
	}
}

func TestInstallUninstall(t *testing.T) {
	ctx := context.Background()
	r := newRepo(t)
	exe := filepath.Join(t.TempDir(), "ripple")
	hook := filepath.Join(r.GitDir, "hooks", "pre-push")
	os.RemoveAll(filepath.Join(r.GitDir, "hooks")) // also: created when missing

	msg, err := Install(ctx, r, Options{Exe: exe})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(msg, "installed") || !strings.Contains(msg, hook) {
		t.Errorf("message %q does not say it installed %s", msg, hook)
	}
	fi, err := os.Stat(hook)
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm() != 0o755 {
		t.Errorf("mode %v, want 0755", fi.Mode().Perm())
	}
	want, _ := Script(exe)
	if b, _ := os.ReadFile(hook); string(b) != want {
		t.Errorf("hook content:\n%s\nwant:\n%s", b, want)
	}
	if !strings.Contains(want, "\n"+Marker+"\n") {
		t.Errorf("the script has no marker line %q", Marker)
	}

	msg, err = Install(ctx, r, Options{Exe: exe})
	if err != nil || !strings.Contains(msg, "already installed") {
		t.Errorf("second install: %q, %v; want a message saying it is already installed", msg, err)
	}

	msg, err = Uninstall(ctx, r)
	if err != nil || !strings.Contains(msg, "removed") {
		t.Errorf("uninstall: %q, %v", msg, err)
	}
	if present(hook) {
		t.Error("the hook is still there after uninstall")
	}
	_, err = Uninstall(ctx, r)
	if !errors.Is(err, ErrNotInstalled) {
		t.Errorf("uninstall without a hook: got %v, want ErrNotInstalled", err)
	}
}

func TestInstallHooksPath(t *testing.T) {
	abs := filepath.Join(t.TempDir(), "abs hooks")
	tests := []struct {
		name, value string
		dir         func(top string) string
		husky       bool
	}{
		{"relative", ".husky/_", func(top string) string { return filepath.Join(top, ".husky", "_") }, true},
		{"absolute", abs, func(string) string { return abs }, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := newRepo(t)
			git(t, r.Top, "config", "core.hooksPath", tt.value)
			msg, err := Install(context.Background(), r, Options{Exe: "/usr/local/bin/ripple"})
			if err != nil {
				t.Fatal(err)
			}
			hook := filepath.Join(tt.dir(r.Top), "pre-push")
			if b, err := os.ReadFile(hook); err != nil || markerOf(b) != Marker {
				t.Errorf("no ripple hook at %s: %v", hook, err)
			}
			if present(filepath.Join(r.GitDir, "hooks", "pre-push")) {
				t.Error("a hook was written in .git/hooks too")
			}
			for _, w := range []string{"core.hooksPath", "husky and lefthook", "README", hook} {
				if !strings.Contains(msg, w) {
					t.Errorf("message %q does not mention %q", msg, w)
				}
			}
			if got := strings.Contains(msg, ".husky/pre-push"); got != tt.husky {
				t.Errorf("husky advice in %q: %v, want %v", msg, got, tt.husky)
			}
		})
	}
}

func TestInstallChainsAndUninstallRestores(t *testing.T) {
	ctx := context.Background()
	r := newRepo(t)
	dir := filepath.Join(r.GitDir, "hooks")
	hook := filepath.Join(dir, "pre-push")
	recorder(t, hook, 0)
	orig, _ := os.ReadFile(hook)

	msg, err := Install(ctx, r, Options{Exe: "/opt/ripple/bin/ripple"})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(msg, ChainedName) {
		t.Errorf("message %q does not mention %s", msg, ChainedName)
	}
	chained := filepath.Join(dir, ChainedName)
	if b, _ := os.ReadFile(chained); string(b) != string(orig) {
		t.Errorf("chained hook content %q, want the original %q", b, orig)
	}
	if msg, err := Install(ctx, r, Options{Exe: "/opt/ripple/bin/ripple"}); err != nil || !strings.Contains(msg, "already installed") {
		t.Errorf("second install: %q, %v", msg, err)
	}
	if b, _ := os.ReadFile(chained); string(b) != string(orig) {
		t.Error("the second install changed the chained hook")
	}

	msg, err = Uninstall(ctx, r)
	if err != nil || !strings.Contains(msg, "restored") {
		t.Errorf("uninstall: %q, %v", msg, err)
	}
	if b, _ := os.ReadFile(hook); string(b) != string(orig) {
		t.Errorf("pre-push after uninstall is %q, want the original", b)
	}
	if present(chained) {
		t.Error("the chained hook is still there after uninstall")
	}
	if !executable(hook) {
		t.Error("the restored hook is not executable")
	}
}

func TestInstallRefusals(t *testing.T) {
	ctx := context.Background()
	exe := "/opt/ripple/bin/ripple"
	tests := []struct {
		name    string
		setup   func(t *testing.T, hooks string)
		opts    Options
		wantErr error  // errors.Is, or nil to only check text
		errText string // substring of the error
	}{
		{"relative binary path", nil, Options{Exe: "bin/ripple"}, nil, "not absolute"},
		{"hook and chained hook both present", func(t *testing.T, hooks string) {
			writeExec(t, filepath.Join(hooks, "pre-push"), "exit 0\n")
			writeExec(t, filepath.Join(hooks, ChainedName), "exit 0\n")
		}, Options{Exe: exe}, nil, "already exists"},
		{"ripple hook of another version", func(t *testing.T, hooks string) {
			writeExec(t, filepath.Join(hooks, "pre-push"), "# ripple-pre-push-hook v0\nexit 0\n")
		}, Options{Exe: exe}, ErrOtherVersion, `"ripple-pre-push-hook v0"`},
		{"ripple hook for another binary", func(t *testing.T, hooks string) {
			s, _ := Script("/elsewhere/ripple")
			writeExec(t, filepath.Join(hooks, "pre-push"), strings.TrimPrefix(s, "#!/bin/sh\n"))
		}, Options{Exe: exe}, ErrOtherVersion, "--force"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := newRepo(t)
			hooks := filepath.Join(r.GitDir, "hooks")
			if tt.setup != nil {
				tt.setup(t, hooks)
			}
			before := snapshot(t, hooks)
			_, err := Install(ctx, r, tt.opts)
			if err == nil || !strings.Contains(err.Error(), tt.errText) || (tt.wantErr != nil && !errors.Is(err, tt.wantErr)) {
				t.Fatalf("got error %v, want one containing %q (is %v)", err, tt.errText, tt.wantErr)
			}
			if after := snapshot(t, hooks); after != before {
				t.Errorf("the hooks directory changed:\n%s\nwas:\n%s", after, before)
			}
			if tt.wantErr == ErrOtherVersion {
				tt.opts.Force = true
				if msg, err := Install(ctx, r, tt.opts); err != nil || !strings.Contains(msg, "replaced") {
					t.Errorf("with Force: %q, %v", msg, err)
				}
				want, _ := Script(exe)
				if b, _ := os.ReadFile(filepath.Join(hooks, "pre-push")); string(b) != want {
					t.Error("Force did not write the current hook")
				}
			}
		})
	}
}

func TestUninstallLeavesOtherHooks(t *testing.T) {
	ctx := context.Background()
	r := newRepo(t)
	hooks := filepath.Join(r.GitDir, "hooks")
	writeExec(t, filepath.Join(hooks, "pre-push"), "# not ripple\nexit 0\n")
	before := snapshot(t, hooks)
	_, err := Uninstall(ctx, r)
	if !errors.Is(err, ErrNotInstalled) || !strings.Contains(err.Error(), "left alone") {
		t.Errorf("got %v, want ErrNotInstalled saying the hook was left alone", err)
	}
	if after := snapshot(t, hooks); after != before {
		t.Errorf("the hooks directory changed:\n%s\nwas:\n%s", after, before)
	}
}

// snapshot lists a directory's files with their modes and contents.
func snapshot(t *testing.T, dir string) string {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	var b strings.Builder
	for _, e := range ents {
		fi, _ := e.Info()
		c, _ := os.ReadFile(filepath.Join(dir, e.Name()))
		b.WriteString(e.Name() + " " + fi.Mode().String() + "\n" + string(c) + "\n")
	}
	return b.String()
}
