package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"runtime/debug"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"

	"github.com/ripple-dev/ripple/internal/testrepo"
)

func TestVersionOf(t *testing.T) {
	const rev = "864a751abcdef0123456789abcdef0123456789a"
	vcs := func(modified string) []debug.BuildSetting {
		return []debug.BuildSetting{
			{Key: "-compiler", Value: "gc"},
			{Key: "vcs", Value: "git"},
			{Key: "vcs.revision", Value: rev},
			{Key: "vcs.time", Value: "2026-01-02T03:04:05Z"},
			{Key: "vcs.modified", Value: modified},
		}
	}
	info := func(version string, settings []debug.BuildSetting) *debug.BuildInfo {
		return &debug.BuildInfo{Main: debug.Module{Path: "github.com/ripple-dev/ripple", Version: version}, Settings: settings}
	}
	for _, tc := range []struct {
		name    string
		bi      *debug.BuildInfo
		ldflags string
		want    string
	}{
		{"go install module@version", info("v1.2.3", nil), "dev", "v1.2.3"},
		{"module version over ldflags", info("v1.2.3", nil), "v9.9.9", "v1.2.3"},
		{"checkout of a tag, modified", info("v1.2.3+dirty", vcs("true")), "dev", "v1.2.3+dirty"},
		{"checkout, clean", info("(devel)", vcs("false")), "dev", "864a751abcde"},
		{"checkout, modified", info("(devel)", vcs("true")), "dev", "864a751abcde (modified)"},
		{"pseudo-version of the commit", info("v0.0.0-20260102030405-864a751abcde+dirty", vcs("true")), "dev", "864a751abcde (modified)"},
		{"pseudo-version of another commit", info("v0.0.0-20250101000000-0123456789ab", vcs("false")), "dev", "v0.0.0-20250101000000-0123456789ab"},
		{"no VCS, ldflags", info("(devel)", nil), "v1.0.0", "v1.0.0"},
		{"empty version, ldflags", info("", nil), "v1.0.0", "v1.0.0"},
		{"nothing known", info("(devel)", nil), "dev", "dev"},
		{"no build info", nil, "dev", "dev"},
		{"no build info, ldflags", nil, "v1.0.0", "v1.0.0"},
		{"short revision", info("(devel)", []debug.BuildSetting{{Key: "vcs.revision", Value: "abc"}}), "dev", "abc"},
	} {
		if got := versionOf(tc.bi, tc.ldflags); got != tc.want {
			t.Errorf("%s: versionOf = %q, want %q", tc.name, got, tc.want)
		}
	}
}

// TestReportToolVersion: the SARIF that `hook check` writes names the
// version of the build, as `hook version` prints it (it named the
// -ldflags variable, "dev" in any build that did not set it).
func TestReportToolVersion(t *testing.T) {
	const rev = "864a751abcdef0123456789abcdef0123456789a"
	saved := readBuildInfo
	t.Cleanup(func() { readBuildInfo = saved })
	readBuildInfo = func() (*debug.BuildInfo, bool) {
		return &debug.BuildInfo{
			Main:     debug.Module{Path: "github.com/ripple-dev/ripple", Version: "(devel)"},
			Settings: []debug.BuildSetting{{Key: "vcs.revision", Value: rev}, {Key: "vcs.modified", Value: "false"}},
		}, true
	}
	const want = "864a751abcde"

	var out, errb bytes.Buffer
	if code := Run(context.Background(), []string{"version"}, strings.NewReader(""), &out, &errb); code != ExitOK || out.String() != "ripple "+want+"\n" {
		t.Fatalf("hook version: exit %d, %q (stderr %q); want %q", code, out.String(), errb.String(), "ripple "+want)
	}

	sc := testrepo.FromTxtar(t, txtar.Parse([]byte(renamed)))
	out.Reset()
	errb.Reset()
	code := Run(context.Background(), []string{"-C", sc.Dir, "check", "-base", sc.Base, "-format", "sarif"}, strings.NewReader(""), &out, &errb)
	if code != ExitFindings {
		t.Fatalf("hook check: exit %d, want %d; stderr:\n%s", code, ExitFindings, errb.String())
	}
	var log struct {
		Runs []struct {
			Tool struct {
				Driver struct {
					Name, Version string
				}
			}
			Results []json.RawMessage
		}
	}
	if err := json.Unmarshal(out.Bytes(), &log); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, out.String())
	}
	if len(log.Runs) != 1 || len(log.Runs[0].Results) == 0 {
		t.Fatalf("want one run with results (the caller left on Old):\n%s", out.String())
	}
	if d := log.Runs[0].Tool.Driver; d.Name != "ripple" || d.Version != want {
		t.Errorf("tool.driver = %s %q, want ripple %q", d.Name, d.Version, want)
	}
}
