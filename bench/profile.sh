#!/usr/bin/env bash
# bench/profile.sh: a CPU profile of the check on a benchmark repository.
#
#   bench/profile.sh terraform [precision]        # the terraform change (run terraform.sh once first)
#   bench/profile.sh series/1000000 [precision]   # a generated repository (run series.sh once first)
#   bench/profile.sh DIR BASE HEAD [precision]    # any repository and range
#
# Runs one untimed check (warming the page cache and Ripple's on-disk
# caches), then RUNS checks, each in a fresh process under the CPU profiler
# (a hook run is one process), writes $BENCH_WORK/out/profile/<name>.<precision>.<i>.pprof
# and prints the top of `go tool pprof -top` over them all, by flat and by
# cumulative time.
# Environment: BENCH_WORK (default /tmp/ripple-bench), RUNS (default 3),
# TOP (lines shown, default 35).
set -euo pipefail

HERE=$(cd "$(dirname "$0")" && pwd)
RIPPLE_ROOT=$(dirname "$HERE")
BENCH_WORK=${BENCH_WORK:-/tmp/ripple-bench}
RUNS=${RUNS:-3}
TOP=${TOP:-35}
# shellcheck source=bench/lib.sh
. "$HERE/lib.sh"
need_tools

[ $# -ge 1 ] || die "usage: bench/profile.sh terraform|series/SIZE|DIR BASE HEAD [precision]"
case $1 in
terraform)
	DIR=$BENCH_WORK/terraform
	[ -d "$DIR/.git" ] || die "no $DIR: run bench/terraform.sh first"
	BASE=$(git -C "$DIR" rev-parse ripple-bench/partial^)
	HEAD=$(git -C "$DIR" rev-parse ripple-bench/partial)
	PREC=${2:-auto}
	NAME=terraform
	;;
series/*)
	DIR=$BENCH_WORK/$1
	[ -d "$DIR/.git" ] || die "no $DIR: run bench/series.sh first"
	BASE=HEAD~1 HEAD=HEAD PREC=${2:-auto}
	NAME=${1//\//-}
	;;
*)
	[ $# -ge 3 ] || die "usage: bench/profile.sh DIR BASE HEAD [precision]"
	DIR=$1 BASE=$2 HEAD=$3 PREC=${4:-auto}
	NAME=$(basename "$DIR")
	;;
esac

mkdir -p "$BENCH_WORK/bin" "$BENCH_WORK/out/profile"
PROF="$BENCH_WORK/bin/prof"
(cd "$RIPPLE_ROOT" && go build -o "$PROF" ./bench/prof) || die "go build ./bench/prof failed"
OUTP="$BENCH_WORK/out/profile/$NAME.$PREC"
rm -f "$OUTP".*.pprof
"$PROF" -C "$DIR" -base "$BASE" -head "$HEAD" -precision "$PREC" -n 1 -cpuprofile /dev/null 2>&1 | sed 's/^run 1/warm-up/'
profs=()
for ((i = 1; i <= RUNS; i++)); do
	"$PROF" -C "$DIR" -base "$BASE" -head "$HEAD" -precision "$PREC" -n 1 -cpuprofile "$OUTP.$i.pprof" 2>&1 | sed "s/^run 1/run $i/"
	profs+=("$OUTP.$i.pprof")
done
echo
go tool pprof -top -nodecount=1 "$PROF" "${profs[@]}" 2>/dev/null | grep -m1 'Total samples' | sed "s/^/$RUNS runs: /"
echo "== flat (top $TOP)"
go tool pprof -top -nodecount="$TOP" "$PROF" "${profs[@]}" 2>/dev/null | sed -n '1,/^ *flat/d;p' | head -n "$TOP"
echo
echo "== cumulative (top $TOP)"
go tool pprof -top -cum -nodecount="$TOP" "$PROF" "${profs[@]}" 2>/dev/null | sed -n '1,/^ *flat/d;p' | head -n "$TOP"
echo "(profiles: $OUTP.*.pprof; go tool pprof -http=: $PROF $OUTP.*.pprof)"
