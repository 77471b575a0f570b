#!/usr/bin/env bash
# with-modules.sh: a TOOL wrapper for the benchmark runners that fills the
# module cache with the dependencies of every module of the head state
# (`go mod download`, errors ignored: a module that cannot be downloaded
# stays missing, as it would on the developer's machine), then runs
# count-warnings.sh with GOPROXY=off so that the check itself never
# downloads. Used by go-sets.sh's "filled" condition.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
while IFS= read -r -d '' mod; do
	(cd "$(dirname "$mod")" && GOFLAGS=-mod=mod go mod download >/dev/null 2>&1) || true
done < <(git ls-files -z -- 'go.mod' '*/go.mod' | grep -zv -e '/testdata/' -e '^vendor/' -e '/vendor/' || true)
GOPROXY=off exec "$here/count-warnings.sh" "$@"
