package cli

import (
	"runtime/debug"
	"strings"
)

// ToolVersion is the version of this build of ripple, as versionOf
// derives it from the build information of the running binary: what
// `hook version` prints after "ripple", and the tool version every
// report names (SARIF's tool.driver.version), from the hook and the
// Action alike.
func ToolVersion() string {
	bi, _ := readBuildInfo()
	return versionOf(bi, Version)
}

// readBuildInfo is debug.ReadBuildInfo; tests replace it, a test binary
// having no VCS information.
var readBuildInfo = debug.ReadBuildInfo

// versionOf says which build of ripple this is, from the build
// information Go records in the binary (bi, nil when there is none) and
// the version set with -ldflags (ldflags, "dev" when not set):
//
//   - the main module's version, as `go install module@version` records
//     it ("v1.2.3"; a build in a checkout of a tag: "v1.2.3+dirty" when
//     the tree was modified);
//   - else the commit built, from the VCS settings, with "(modified)"
//     when the work tree had uncommitted changes ("864a751abcde
//     (modified)"). Go also records a pseudo-version made from that
//     commit; the commit alone says the same, shorter;
//   - else ldflags, when set;
//   - else "dev".
func versionOf(bi *debug.BuildInfo, ldflags string) string {
	if bi == nil {
		bi = &debug.BuildInfo{}
	}
	var rev string
	var modified bool
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			modified = s.Value == "true"
		}
	}
	if len(rev) > 12 {
		rev = rev[:12]
	}
	v := bi.Main.Version
	if v != "" && v != "(devel)" && (rev == "" || !strings.Contains(v, "-"+rev)) {
		return v
	}
	if rev != "" {
		if modified {
			return rev + " (modified)"
		}
		return rev
	}
	if ldflags != "" {
		return ldflags
	}
	return "dev"
}
