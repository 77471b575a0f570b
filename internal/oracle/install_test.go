package oracle_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ripple-dev/ripple/internal/lang/python/pyright"
	"github.com/ripple-dev/ripple/internal/lang/typescript/tsc"
	"github.com/ripple-dev/ripple/internal/oracle"
)

// TestInstallSaysSo: a tool missing from PATH and the cache is
// installed with npm, and the line saying so reaches the log the
// context carries before npm runs (here an npm that records that it
// ran and fails, as without a network). Without a log nothing is said.
func TestInstallSaysSo(t *testing.T) {
	bin := t.TempDir()
	ran := filepath.Join(t.TempDir(), "npm-ran")
	npm := "#!/bin/sh\necho \"$@\" > " + ran + "\necho 'npm ERR! network unreachable' >&2\nexit 1\n"
	if err := os.WriteFile(filepath.Join(bin, "npm"), []byte(npm), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", bin) // no tsc, tsgo or pyright on it
	for _, tc := range []struct {
		name   string
		locate func(context.Context, string) error
		want   string
	}{
		{"typescript", func(ctx context.Context, dir string) error {
			_, err := (&tsc.Compiler{CacheDir: dir}).Locate(ctx)
			return err
		}, "ripple: installing typescript@" + tsc.Version + " into "},
		{"pyright", func(ctx context.Context, dir string) error {
			_, err := (&pyright.Oracle{CacheDir: dir}).Locate(ctx)
			return err
		}, "ripple: installing pyright@" + pyright.Version + " into "},
	} {
		os.Remove(ran)
		var log bytes.Buffer
		dir := filepath.Join(t.TempDir(), tc.name)
		err := tc.locate(oracle.WithLog(context.Background(), &log), dir)
		if err == nil || !strings.Contains(err.Error(), "network unreachable") {
			t.Errorf("%s: Locate = %v, want npm's failure", tc.name, err)
		}
		if _, err := os.Stat(ran); err != nil {
			t.Fatalf("%s: npm did not run: %v", tc.name, err)
		}
		if want := tc.want + dir + " (first use; once)\n"; log.String() != want {
			t.Errorf("%s: log = %q, want %q", tc.name, log.String(), want)
		}
		// no log in the context: nothing said, and no panic
		if err := tc.locate(context.Background(), filepath.Join(t.TempDir(), tc.name)); err == nil {
			t.Errorf("%s: Locate without a log succeeded", tc.name)
		}
	}
}
