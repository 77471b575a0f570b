#!/usr/bin/env bash
# bench/tsc.sh: time `hook check` on a real change in microsoft/playwright
# (~1,400 TypeScript files, 12 MB of sources at the fixed commit, one
# root tsconfig.json whose `tsc --noEmit` type-checks the whole
# repository) against `tsc --noEmit` of TypeScript 7 on the same state,
# in the same run: medians, the ratio, peak RSS. See bench/README.md.
#
# Why playwright: issue 12 names microsoft/vscode, whose snapshot (2.1 GB)
# is over what `fetch` brings (500 MB); angular/angular, n8n, backstage
# and Babylon.js are too. Of the large TypeScript repositories that came
# (playwright, eclipse-theia/theia, microsoft/rushstack,
# typescript-eslint, apache/echarts), theia has the most sources (22 MB)
# but no root configuration (97 tsconfig files built with `tsc -b`);
# playwright is the largest with one `tsc --noEmit` for the whole tree.
#
# Environment:
#   BENCH_WORK          work directory (default /tmp/ripple-bench); the
#                       playwright work tree is $BENCH_WORK/playwright, reused
#   PLAYWRIGHT_MIRROR   git mirror of microsoft/playwright
#                       (default /work/.mirror/microsoft+playwright/repo); only read
#   N                   timed runs per mode and of tsc (default 5)
#   MODES               precision modes to time (default "auto syntax types")
#   TSC                 TypeScript 7's tsc (default: the one Ripple installs in
#                       its user cache, installed there with npm when missing)
#   HOOK                a hook binary to time instead of building this tree's
#                       (an older build, to compare two versions in one session)
set -euo pipefail

HERE=$(cd "$(dirname "$0")" && pwd)
RIPPLE_ROOT=$(dirname "$HERE")
BENCH_WORK=${BENCH_WORK:-/tmp/ripple-bench}
MIRROR=${PLAYWRIGHT_MIRROR:-/work/.mirror/microsoft+playwright/repo}
N=${N:-5}
MODES=${MODES:-auto syntax types}
# shellcheck source=bench/lib.sh
. "$HERE/lib.sh"

# The real change. microsoft/playwright 368941457a "feat(codegen): do not
# use contenteditable text in generated fill selectors" (2026-07-31)
# changes the return types of getElementAccessibleName (string →
# AccessibleName) and getElementAccessibleDescription (string →
# AccessibleDescription) in packages/injected/src/roleUtils.ts, and
# updates their users in injectedScript.ts, roleSelectorEngine.ts,
# selectorGenerator.ts and selectorUtils.ts. The partial state keeps the
# commit's version of the seed file only: its users are left as they were.
SEED_COMMIT=368941457a82da112aa8610107e25f4bde94339a
SEED_FILE=packages/injected/src/roleUtils.ts
BRANCH=ripple-bench/partial

need_tools
[ -d "$MIRROR" ] || die "playwright mirror not found at $MIRROR (set PLAYWRIGHT_MIRROR to a clone of github.com/microsoft/playwright)"
git -C "$MIRROR" cat-file -e "$SEED_COMMIT^{commit}" 2>/dev/null ||
	die "commit $SEED_COMMIT is not in $MIRROR (the mirror must hold playwright's history up to 2026-07)"

PW=$BENCH_WORK/playwright
OUT=$BENCH_WORK/out/tsc
mkdir -p "$BENCH_WORK" "$OUT"
rm -f "$OUT"/*

echo "== setup"
# the work tree holds the head state (for tsc); no node_modules, as in a
# fresh checkout: tsc and the check see the same files
partial_head "$PW" "$MIRROR" "$SEED_COMMIT" "$SEED_FILE" "$BRANCH"
[ ! -e "$PW/node_modules" ] || echo "note: $PW/node_modules exists: tsc and the check resolve packages through it"
ts_files=$(G -C "$PW" ls-files -- '*.ts' '*.tsx' | wc -l)
ts_mb=$(G -C "$PW" ls-files -z -- '*.ts' '*.tsx' | (cd "$PW" && xargs -0 cat) | wc -c | awk '{ printf "%.1f", $1 / 1048576 }')
echo "playwright at $head (base ${base:0:12}): $ts_files TypeScript files, $ts_mb MB"

if [ -z "${TSC:-}" ]; then
	# the compiler the check itself uses: found or installed as on first
	# use (`hook tools install` reads the version from the registry)
	TSC=$(cd "$RIPPLE_ROOT" && go run ./cmd/hook tools install 2>/dev/null | sed -n 's/^typescript [^:]*: //p')
	TSC=${TSC/#\~/$HOME}
	[ -n "$TSC" ] || die "tsc (TypeScript 7) could not be found or installed (hook tools install; set TSC)"
fi
echo "tsc: $TSC ($("$TSC" --version))"

if [ -n "${HOOK:-}" ]; then
	[ -x "$HOOK" ] || die "HOOK=$HOOK is not an executable"
	RIPPLE_REV="$HOOK"
else
	build_hook
fi
machine

declare -A MED RSS CPU
run_mode() {
	local mode=$1 i flags=()
	[ "$mode" = auto ] || flags=(-precision="$mode")
	: >"$OUT/$mode.ms"; : >"$OUT/$mode.rss"; : >"$OUT/$mode.cpu"
	for ((i = 1; i <= N; i++)); do
		timed "$OUT/$mode.$i" "$HOOK" -C "$PW" check --base "$base" --head "$head" --format json "${flags[@]}"
		if [ "$T_RC" -gt 1 ]; then
			cat "$OUT/$mode.$i.err" >&2
			die "hook check ($mode) failed with exit status $T_RC"
		fi
		echo "$T_MS" >>"$OUT/$mode.ms"
		echo "${T_RSS:-0}" >>"$OUT/$mode.rss"
		echo "${T_CPU:-0}" >>"$OUT/$mode.cpu"
	done
	local last="$OUT/$mode.$N.out" min med max cmed
	read -r min med max < <(stats <"$OUT/$mode.ms")
	read -r _ cmed _ < <(stats <"$OUT/$mode.cpu")
	MED[$mode]=$med
	CPU[$mode]=$cmed
	RSS[$mode]=$(sort -n "$OUT/$mode.rss" | tail -n 1)
	printf "%-7s %7s %7s %7s %7s %8s %7s %6s %6s\n" "$mode" "$(secs "$min")" "$(secs "$med")" "$(secs "$max")" \
		"$(secs "$cmed")" "$(mb "${RSS[$mode]}")" "$(jq .counts.error "$last")" "$(jq .counts.warning "$last")" "$(jq .stats.typed_packages "$last")"
	jq -r '.precision_notes[]' "$last" | sed 's/^/        note: /' | cut -c1-200
}

echo
echo "== hook check --base ${base:0:12} --head ${head:0:12} --format json   ($N runs per mode, after 1 warm-up run)"
timed "$OUT/warmup" "$HOOK" -C "$PW" check --base "$base" --head "$head" --format json
echo "warm-up run: $(secs "$T_MS")s, exit $T_RC"
printf "%-7s %7s %7s %7s %7s %8s %7s %6s %6s\n" mode min_s med_s max_s cpu_s rss_MB errors warns typed
for m in $MODES; do run_mode "$m"; done

echo
echo "== tsc --noEmit -p . on the head state ($N runs, after 1 warm-up run)"
timed "$OUT/tsc0" sh -c "cd '$PW' && '$TSC' --noEmit --pretty false -p ."
echo "warm-up run: $(secs "$T_MS")s, exit $T_RC, $(grep -c 'error TS' "$OUT/tsc0.out" || true) errors (most: packages not installed)"
: >"$OUT/tsc.ms"; : >"$OUT/tsc.rss"; : >"$OUT/tsc.cpu"
for ((i = 1; i <= N; i++)); do
	timed "$OUT/tsc$i" sh -c "cd '$PW' && '$TSC' --noEmit --pretty false -p ."
	echo "$T_MS" >>"$OUT/tsc.ms"
	echo "${T_RSS:-0}" >>"$OUT/tsc.rss"
	echo "${T_CPU:-0}" >>"$OUT/tsc.cpu"
done
read -r tmin tmed tmax < <(stats <"$OUT/tsc.ms")
read -r _ tcpu _ < <(stats <"$OUT/tsc.cpu")
trss=$(sort -n "$OUT/tsc.rss" | tail -n 1)
printf "%-7s %7s %7s %7s %7s %8s\n" mode min_s med_s max_s cpu_s rss_MB
printf "%-7s %7s %7s %7s %7s %8s\n" tsc "$(secs "$tmin")" "$(secs "$tmed")" "$(secs "$tmax")" "$(secs "$tcpu")" "$(mb "$trss")"

echo
line="playwright: tsc --noEmit median $(secs "$tmed")s (cpu $(secs "$tcpu")s) peak_rss $(mb "$trss")MB"
for m in $MODES; do
	line="$line; check $m median $(secs "${MED[$m]}")s (cpu $(secs "${CPU[$m]}")s) peak_rss $(mb "${RSS[$m]}")MB ratio $(awk -v a="${MED[$m]}" -v t="$tmed" 'BEGIN { printf "%.1f%%", 100 * a / t }')"
done
echo "$line"
echo "(raw outputs in $OUT)"
