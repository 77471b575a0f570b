#!/usr/bin/env bash
# bench/merge-check.sh: what the merge check costs. For each merge commit
# of a repository's history (a pull request as it was merged), time with
# /usr/bin/time the ordinary check of its second parent (the branch)
# from the merge-base, the two checks the merge check adds (the branch's
# changes as they land: base the first parent, head the merged tree; the
# first parent's changes as they land: base the branch, head the merged
# tree), and `hook check -merge` doing all three. Prints one line per run:
# wall seconds, user and system CPU seconds, peak RSS.
#
# Usage: bench/merge-check.sh MIRROR MERGE_COMMIT...
#   MIRROR  a bare git mirror (only read: a shared clone is made beside it
#           in $BENCH_WORK, and the merged trees are written there)
#
# Environment:
#   BENCH_WORK  work directory (default /tmp/ripple-bench)
#   N           runs per kind (default 3)
#   RIPPLE_BIN  the hook binary (default: built from this tree)
#
# Measured (README, "The merge check"): bench/merge-check.sh
# /work/.mirror/cli+cli/repo afa4272bdfac c1897f312213
set -euo pipefail

HERE=$(cd "$(dirname "$0")" && pwd)
RIPPLE_ROOT=$(dirname "$HERE")
BENCH_WORK=${BENCH_WORK:-/tmp/ripple-bench}
N=${N:-3}
MIRROR=${1:?usage: bench/merge-check.sh MIRROR MERGE_COMMIT...}
shift
[ $# -gt 0 ] || { echo "usage: bench/merge-check.sh MIRROR MERGE_COMMIT..." >&2; exit 2; }

mkdir -p "$BENCH_WORK"
if [ -z "${RIPPLE_BIN:-}" ]; then
	RIPPLE_BIN=$BENCH_WORK/hook
	(cd "$RIPPLE_ROOT" && go build -o "$RIPPLE_BIN" ./cmd/hook)
fi
clone=$BENCH_WORK/merge-$(basename "$(dirname "$MIRROR")")
[ -d "$clone" ] || git clone -q --shared --no-checkout "$MIRROR" "$clone"
cd "$clone"

for m in "$@"; do
	p1=$(git rev-parse "$m^1")
	p2=$(git rev-parse "$m^2")
	mb=$(git merge-base "$p1" "$p2")
	tree=$(git merge-tree --write-tree "$p2" "$p1" | head -n 1) || { echo "$m: the merge conflicts; skipped" >&2; continue; }
	echo "# $m: branch $(git rev-list --count "$mb..$p2") commits, base branch $(git rev-list --count "$mb..$p1") commits ahead"
	for run in $(seq "$N"); do
		for kind in ordinary branch-side base-side merge; do
			case $kind in
			ordinary) args=(-base "$mb" -head "$p2") ;;
			branch-side) args=(-base "$p1" -head "$tree") ;;
			base-side) args=(-base "$p2" -head "$tree") ;;
			merge) args=(-base "$mb" -head "$p2" -merge "$p1") ;;
			esac
			/usr/bin/time -f "${m:0:12} $kind run$run %e s wall %U s user %S s sys %M KB" \
				"$RIPPLE_BIN" check "${args[@]}" -format json >/dev/null 2>"$BENCH_WORK/merge-check.err" || true
			tail -n 1 "$BENCH_WORK/merge-check.err"
		done
	done
done
