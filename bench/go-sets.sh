#!/usr/bin/env bash
# bench/go-sets.sh: a Go benchmark set (the visible samples in
# ../shared/bench/go or the training set in bench/train/go) run under a
# stated module-cache condition, so that every Go figure says what types
# the check could see.
#
#   bench/go-sets.sh visible|train empty|filled|found [runner flags...]
#
# Conditions:
#   empty   GOMODCACHE is a fresh empty folder and GOPROXY=off: no
#           dependency outside the standard library is typed (a fresh
#           clone, a CI runner without `go mod download`)
#   filled  before each check, `go mod download` in every module of the
#           case's head state, into one cache shared by the run
#           ($BENCH_WORK/gomodcache-filled); the check itself runs with
#           GOPROXY=off. The runner's median_s then includes the
#           download; the check's own median is printed after it
#   found   the machine's module cache as it is (its size is stated)
#
# Environment: BENCH_MIRROR (the fetched repositories), RIPPLE_BIN (the
# hook binary, default bin/hook), SHARED_BENCH (default ../shared/bench),
# BENCH_WORK (default /tmp/ripple-bench). Prints the runner's last lines,
# the warnings on the complete commits, and one line naming the set, the
# condition and Ripple's revision.
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(dirname "$HERE")
[[ $# -ge 2 ]] || { echo "usage: bench/go-sets.sh visible|train empty|filled|found [runner flags...]" >&2; exit 2; }
set_=$1 cond=$2
shift 2
SHARED_BENCH=${SHARED_BENCH:-$(cd "$ROOT/.." && pwd)/shared/bench}
BENCH_WORK=${BENCH_WORK:-/tmp/ripple-bench}
export SHARED_BENCH RIPPLE_BIN=${RIPPLE_BIN:-$ROOT/bin/hook}
[[ -x $RIPPLE_BIN ]] || { echo "bench/go-sets.sh: no hook binary at $RIPPLE_BIN (go build -o bin/hook ./cmd/hook)" >&2; exit 2; }
case $set_ in
visible) runner=$SHARED_BENCH/go/run ;;
train) runner=$ROOT/bench/train/go/run ;;
*) echo "bench/go-sets.sh: unknown set $set_ (visible or train)" >&2; exit 2 ;;
esac
mkdir -p "$BENCH_WORK"
export WARN_LOG=$BENCH_WORK/warnings-$set_-$cond.log
rm -f "$WARN_LOG"
tool="$ROOT/bench/count-warnings.sh {base} {head}"
case $cond in
empty)
	GOMODCACHE=$(mktemp -d "$BENCH_WORK/gomodcache-empty.XXXXXX")
	export GOMODCACHE GOPROXY=off
	trap 'chmod -R u+w "$GOMODCACHE" 2>/dev/null; rm -rf "$GOMODCACHE"' EXIT
	condition="empty (GOMODCACHE a fresh folder, GOPROXY=off)"
	;;
filled)
	export GOMODCACHE=$BENCH_WORK/gomodcache-filled
	mkdir -p "$GOMODCACHE"
	tool="$ROOT/bench/with-modules.sh {base} {head}"
	condition="filled (go mod download per case into $GOMODCACHE)"
	;;
found)
	condition="as found ($(du -sh "$(go env GOMODCACHE)" 2>/dev/null | cut -f1) in $(go env GOMODCACHE))"
	;;
*) echo "bench/go-sets.sh: unknown condition $cond (empty, filled or found)" >&2; exit 2 ;;
esac
TOOL=$tool "$runner" "$@" | tail -3
"$ROOT/bench/count-warnings.sh" --median "$WARN_LOG" full | sed 's/^/warnings on complete commits: /'
awk -F'\t' 'NF >= 3 {print $3}' "$WARN_LOG" | sort -n | awk '{a[NR]=$1} END {if (NR) printf "check median_s %.2f over %d runs\n", (NR%2)?a[(NR+1)/2]:(a[NR/2]+a[NR/2+1])/2, NR}'
echo "go $set_ module_cache $condition ripple $(git -C "$ROOT" rev-parse --short HEAD)"
