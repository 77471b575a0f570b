package hookinstall

import (
	"bufio"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
)

// Marker is the line that identifies Ripple's hook, of this version.
const Marker = markerPrefix + "1"

// markerPrefix identifies Ripple's hook of any version.
const markerPrefix = "# ripple-pre-push-hook v"

// ChainedName is the name a previous pre-push hook is kept under.
const ChainedName = "pre-push.ripple-chained"

// Script returns the pre-push hook that runs the ripple binary exe.
//
// The script reads the pushed refs once into a temporary file so that a
// chained hook and ripple both get the same standard input; the chained
// hook runs first with the same arguments and a failure stops the push
// with its status. RIPPLE_BIN overrides exe; when neither is an
// executable file the `hook` command on PATH is used; when there is none
// the push goes on unchecked, with a message (a deleted binary must not
// block every push).
func Script(exe string) (string, error) {
	if exe == "" {
		return "", errors.New("the path of the ripple binary is empty")
	}
	if strings.ContainsAny(exe, "\x00\n\r") {
		return "", fmt.Errorf("the path of the ripple binary %q contains a control character", exe)
	}
	if !filepath.IsAbs(exe) {
		return "", fmt.Errorf("the path of the ripple binary %q is not absolute", exe)
	}
	// Git for Windows runs hooks with its sh, which wants forward slashes.
	exe = filepath.ToSlash(exe)
	return strings.Replace(scriptTemplate, "@EXE@", shQuote(exe), 1), nil
}

// shQuote quotes s as one word for a POSIX shell: inside single quotes
// nothing is special but the single quote itself, which is closed,
// escaped and reopened:
//
//	it's -> 'it'\''s'
func shQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// markerOf returns the marker line of a Ripple hook, or "" when script is
// not one. Only the first lines are looked at, so that a user's hook that
// merely mentions the marker further down is not taken for Ripple's.
func markerOf(script []byte) string {
	sc := bufio.NewScanner(strings.NewReader(string(script)))
	for i := 0; i < 5 && sc.Scan(); i++ {
		if l := strings.TrimSpace(sc.Text()); strings.HasPrefix(l, markerPrefix) {
			return l
		}
	}
	return ""
}

// scriptTemplate is the hook; @EXE@ is replaced by the quoted binary path.
// Every variable is prefixed ripple_ (the chained hook inherits none of
// them: they are not exported).
const scriptTemplate = `#!/bin/sh
` + Marker + `
# Ripple's pre-push hook, written by 'hook install'; remove it with
# 'hook uninstall'. A pre-push hook that was here before is kept as
# ` + ChainedName + ` next to this file and runs first.
# RIPPLE_BIN overrides the path of the ripple binary.
ripple_default=@EXE@
RIPPLE=${RIPPLE_BIN:-$ripple_default}

case $0 in
*/*) ripple_hooks=${0%/*} ;;
*) ripple_hooks=. ;;
esac
ripple_chained=$ripple_hooks/` + ChainedName + `

# git writes the refs being pushed once: keep them for both hooks.
ripple_in=$(mktemp "${TMPDIR:-/tmp}/ripple-pre-push.XXXXXX") || {
	echo "ripple: cannot create a temporary file (mktemp failed); push stopped. Free space in ${TMPDIR:-/tmp} or push with --no-verify." >&2
	exit 1
}
trap 'rm -f "$ripple_in"' EXIT
trap 'exit 129' HUP
trap 'exit 130' INT
trap 'exit 143' TERM
cat >"$ripple_in" || {
	echo "ripple: cannot save the pushed refs to $ripple_in; push stopped." >&2
	exit 1
}

if [ -f "$ripple_chained" ] && [ -x "$ripple_chained" ]; then
	"$ripple_chained" "$@" <"$ripple_in"
	ripple_status=$?
	if [ "$ripple_status" -ne 0 ]; then
		exit "$ripple_status"
	fi
fi

if [ ! -f "$RIPPLE" ] || [ ! -x "$RIPPLE" ]; then
	ripple_found=$(command -v hook 2>/dev/null) || ripple_found=
	if [ -n "$ripple_found" ] && [ -f "$ripple_found" ] && [ -x "$ripple_found" ]; then
		RIPPLE=$ripple_found
	else
		printf '%s\n' "ripple: the ripple binary ($RIPPLE) is missing; push not checked. Reinstall with 'hook install'." >&2
		exit 0
	fi
fi

"$RIPPLE" pre-push "$@" <"$ripple_in"
exit $?
`
