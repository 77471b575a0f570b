package cli

import (
	"runtime/debug"
	"testing"
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
