#!/usr/bin/env bash
# bench/series.sh: how `hook check` grows with repository size for a fixed
# diff. Generates synthetic modules (bench/gen) of SIZES lines, commits each,
# commits the same signature change (a parameter added to base.Lookup, 50
# callers left inconsistent), and times the check. See bench/README.md.
#
# Environment:
#   BENCH_WORK  work directory (default /tmp/ripple-bench); repositories in
#               $BENCH_WORK/series/<lines>, reused while bench/gen is unchanged
#   SIZES       target sizes in lines (default "100000 300000 1000000")
#   N           timed runs per size and mode (default 5)
#   MODES       precision modes (default "auto syntax"; "types" also works)
#   CALLERS     call sites of the seed function (default 50)
set -euo pipefail

HERE=$(cd "$(dirname "$0")" && pwd)
RIPPLE_ROOT=$(dirname "$HERE")
BENCH_WORK=${BENCH_WORK:-/tmp/ripple-bench}
SIZES=${SIZES:-100000 300000 1000000}
N=${N:-5}
MODES=${MODES:-auto syntax}
CALLERS=${CALLERS:-50}
# shellcheck source=bench/lib.sh
. "$HERE/lib.sh"

need_tools
mkdir -p "$BENCH_WORK/bin" "$BENCH_WORK/series"
GEN="$BENCH_WORK/bin/gen"
(cd "$RIPPLE_ROOT" && go build -o "$GEN" ./bench/gen) || die "go build ./bench/gen failed"
stamp="prep2 $(sha256sum "$HERE/gen/main.go" | cut -c1-16) callers=$CALLERS"
build_hook
machine

# prepare SIZE: generates and commits the repository of SIZE lines unless
# an up-to-date one is there; sets DIR.
prepare() {
	local size=$1
	DIR=$BENCH_WORK/series/$size
	if [ -f "$DIR.stamp" ] && [ "$(cat "$DIR.stamp")" = "$stamp" ] && [ -d "$DIR/.git" ]; then
		return
	fi
	rm -rf "$DIR" "$DIR.stamp" "$DIR.json"
	"$GEN" -out "$DIR" -lines "$size" -callers "$CALLERS" -manifest "$DIR.json" 2>&1 | sed 's/^/  /'
	G -C "$DIR" init -q
	G -C "$DIR" add -A
	G -C "$DIR" commit -q -m "generated module, $size lines"
	"$GEN" -out "$DIR" -change
	G -C "$DIR" commit -q -a -m "base.Lookup: add ctx parameter (callers not updated)"
	# packed, like any real clone (loose objects make every git read slower)
	G -C "$DIR" repack -adq
	echo "$stamp" >"$DIR.stamp"
}

declare -A MED
OUT=$BENCH_WORK/out/series
mkdir -p "$OUT"
rm -f "$OUT"/*
echo
echo "hook check --base HEAD~1 --head HEAD --format json   ($N runs per size and mode, after 1 warm-up run)"
printf "%9s %6s %5s %-7s %7s %7s %7s %7s %7s %8s %7s %7s %6s\n" lines files pkgs mode min_s med_s max_s cpu_s rss_MB inner_s errors sites extra
for size in $SIZES; do
	prepare "$size"
	jq -r '.callers[]' "$DIR.json" | sort >"$OUT/$size.expected"
	expected=$(wc -l <"$OUT/$size.expected")
	lines=$(jq .lines "$DIR.json")
	files=$(jq .files "$DIR.json")
	pkgs=$(jq .packages "$DIR.json")
	timed "$OUT/$size.warmup" "$HOOK" -C "$DIR" check --base HEAD~1 --head HEAD --format json
	for mode in $MODES; do
		flags=()
		[ "$mode" = auto ] || flags=(-precision="$mode")
		: >"$OUT/$size.$mode.ms"; : >"$OUT/$size.$mode.rss"; : >"$OUT/$size.$mode.internal"; : >"$OUT/$size.$mode.cpu"
		for ((i = 1; i <= N; i++)); do
			timed "$OUT/$size.$mode.$i" "$HOOK" -C "$DIR" check --base HEAD~1 --head HEAD --format json "${flags[@]}"
			if [ "$T_RC" -gt 1 ]; then
				cat "$OUT/$size.$mode.$i.err" >&2
				die "hook check failed on $DIR ($mode), exit status $T_RC"
			fi
			echo "$T_MS" >>"$OUT/$size.$mode.ms"
			echo "${T_RSS:-0}" >>"$OUT/$size.$mode.rss"
			echo "${T_CPU:-0}" >>"$OUT/$size.$mode.cpu"
			jq -r .stats.millis "$OUT/$size.$mode.$i.out" >>"$OUT/$size.$mode.internal"
		done
		last="$OUT/$size.$mode.$N.out"
		read -r min med max < <(stats <"$OUT/$size.$mode.ms")
		read -r _ imed _ < <(stats <"$OUT/$size.$mode.internal")
		read -r _ cmed _ < <(stats <"$OUT/$size.$mode.cpu")
		rss=$(sort -n "$OUT/$size.$mode.rss" | tail -n 1)
		jq -r '.findings[] | select(.level == "error") | .path + ":" + (.line | tostring)' "$last" | sort -u >"$OUT/$size.$mode.sites"
		found=$(comm -12 "$OUT/$size.expected" "$OUT/$size.$mode.sites" | wc -l)
		extra=$(comm -13 "$OUT/$size.expected" "$OUT/$size.$mode.sites" | wc -l)
		MED[$size.$mode]=$med
		verdict="all callers found"
		[ "$found" -eq "$expected" ] || verdict="MISSED $((expected - found)): $(comm -23 "$OUT/$size.expected" "$OUT/$size.$mode.sites" | head -n 3 | tr '\n' ' ')"
		printf "%9s %6s %5s %-7s %7s %7s %7s %7s %7s %8s %7s %7s %6s  %s\n" "$lines" "$files" "$pkgs" "$mode" \
			"$(secs "$min")" "$(secs "$med")" "$(secs "$max")" "$(secs "$cmed")" "$(mb "$rss")" "$(secs "$imed")" \
			"$(jq .counts.error "$last")" "$found/$expected" "$extra" "$verdict"
	done
done

echo
for mode in $MODES; do
	line="series $mode:"
	for size in $SIZES; do
		line="$line $((size / 1000))k $(secs "${MED[$size.$mode]}")s"
	done
	echo "$line"
done
echo "(raw outputs in $OUT)"
