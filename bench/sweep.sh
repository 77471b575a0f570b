#!/usr/bin/env bash
# bench/sweep.sh: the check on a repository's real history, commit by
# commit, as a pre-push hook would see each one: what it reports on
# commits that landed (mostly consistent: an error there is a false alarm
# to read, or a breakage the history fixed later), whether it ever fails
# (exit 2) or runs out of time, and what a push costs. This is the
# "never block a correct push" measure at scale, on repositories the
# tool was not tuned on; the benchmark sets check 30 to 90 commits.
#
#   bench/sweep.sh MIRROR [N]
#
# MIRROR is a fetched repository (a git directory, bare or not); the last
# N (default 100) first-parent commits of its HEAD that change a .go,
# .py, .ts, .tsx, .js or .jsx file are checked, each against its first
# parent (a merge of a pull request is checked as the whole pull request,
# as its push to the default branch would be), from the git objects
# alone (no checkout). For each commit one
# line: the short id, the exit status, errors, warnings, notes, seconds,
# and the subject. Then a summary line:
#
#   sweep REPO commits N with_errors E (share) failures F median_s S p95_s P max_s M ripple REV module_cache C
#
# and the findings of every commit with errors, in $BENCH_WORK/out/sweep/
# (one JSON report each), for reading by hand.
#
# Environment: BENCH_WORK (default /tmp/ripple-bench), HOOK_BIN (a hook
# binary to use instead of building this checkout's), TIMEOUT (seconds a
# check may take, default 120), GOMODCACHE/GOPROXY as for any check (the
# summary states the module cache's size).
set -euo pipefail

HERE=$(cd "$(dirname "$0")" && pwd)
RIPPLE_ROOT=$(dirname "$HERE")
BENCH_WORK=${BENCH_WORK:-/tmp/ripple-bench}
TIMEOUT=${TIMEOUT:-120}
# shellcheck source=bench/lib.sh
. "$HERE/lib.sh"

[ $# -ge 1 ] || die "usage: bench/sweep.sh MIRROR [N]"
MIRROR=$1
N=${2:-100}
git -C "$MIRROR" rev-parse --git-dir >/dev/null 2>&1 || die "$MIRROR is not a git repository"
need_tools
if [ -n "${HOOK_BIN:-}" ]; then
	HOOK=$HOOK_BIN
	RIPPLE_REV=$("$HOOK" version 2>/dev/null | head -1 | awk '{print $NF}')
else
	build_hook
fi
name=$(basename "$(dirname "$MIRROR")")
[ "$name" = . ] && name=$(basename "$MIRROR")
OUT=$BENCH_WORK/out/sweep/$name
mkdir -p "$OUT"
rm -f "$OUT"/*.json "$OUT"/*.err
# the hook runs in a repository with a work tree: a clone sharing the
# mirror's objects, nothing checked out (every state is read from git)
REPO=$BENCH_WORK/sweep/$name
if [ ! -d "$REPO/.git" ]; then
	G clone -q --shared --no-checkout "$MIRROR" "$REPO" || die "cannot clone $MIRROR"
fi

mapfile -t commits < <(git -C "$MIRROR" log --first-parent --format=%H -n "$((N * 4))" HEAD -- \
	'*.go' '*.py' '*.ts' '*.tsx' '*.js' '*.jsx' ':!vendor/**' ':!node_modules/**' | head -n "$N")
[ ${#commits[@]} -gt 0 ] || die "no commit of $MIRROR changes a source file Ripple reads"

times=()
with_errors=0 failures=0
for c in "${commits[@]}"; do
	short=${c:0:10}
	parent=$(git -C "$MIRROR" rev-parse -q --verify "$c^1" 2>/dev/null) || continue
	set +e
	t0=$(date +%s.%N)
	timeout "$TIMEOUT" "$HOOK" -C "$REPO" check --base "$parent" --head "$c" --format json >"$OUT/$short.json" 2>"$OUT/$short.err"
	rc=$?
	t1=$(date +%s.%N)
	set -e
	secs=$(awk -v a="$t0" -v b="$t1" 'BEGIN {printf "%.2f", b - a}')
	times+=("$secs")
	e=- w=- n=-
	read -r e w n < <(jq -r '[.findings[]? | .level] | "\(map(select(. == "error")) | length) \(map(select(. == "warning")) | length) \(map(select(. == "note")) | length)"' "$OUT/$short.json" 2>/dev/null) || true
	subject=$(git -C "$MIRROR" log -1 --format=%s "$c" | cut -c1-70)
	printf '%s exit %s errors %s warnings %s notes %s %ss %s\n' "$short" "$rc" "${e:--}" "${w:--}" "${n:--}" "$secs" "$subject"
	case $rc in
	0) rm -f "$OUT/$short.json" "$OUT/$short.err" ;;
	1) with_errors=$((with_errors + 1)) ;;
	*) failures=$((failures + 1)) ;;
	esac
done
total=${#times[@]}
stats=$(printf '%s\n' "${times[@]}" | sort -n | awk '{a[NR]=$1} END {m=(NR%2)?a[(NR+1)/2]:(a[NR/2]+a[NR/2+1])/2; p=a[int(NR*0.95+0.999)]; printf "median_s %.2f p95_s %.2f max_s %.2f", m, p, a[NR]}')
cache=$(du -sh "$(go env GOMODCACHE)" 2>/dev/null | cut -f1)
share=$(awk -v e="$with_errors" -v t="$total" 'BEGIN {printf "%.3f", t ? e / t : 0}')
echo "sweep $name commits $total with_errors $with_errors ($share) failures $failures $stats ripple $RIPPLE_REV module_cache ${cache:-?}"
echo "(reports of commits with errors or failures in $OUT)"
