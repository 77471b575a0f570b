#!/usr/bin/env bash
# count-warnings.sh: a TOOL wrapper for the benchmark runners that also
# logs, per run, the head commit's subject and the number of warning-level
# results, so that the warnings on the complete real commits (which the
# runners do not report) can be counted, and the check's own wall time
# (third column).
#
#   export RIPPLE_BIN=$PWD/bin/hook WARN_LOG=/tmp/warnings.log
#   TOOL="$PWD/bench/count-warnings.sh {base} {head}" ../shared/bench/python/run
#   bench/count-warnings.sh --median /tmp/warnings.log real   # median over subjects matching "real"
#
# Arguments after {base} {head} are passed to `hook check` as flags:
#   TOOL="$PWD/bench/count-warnings.sh {base} {head} -precision types"
set -euo pipefail
if [[ "${1:-}" == --median ]]; then
  grep -i -- "${3:-real}" "$2" | awk -F'\t' '{print $2}' | sort -n | awk '{a[NR]=$1} END {if (NR==0) {print "no runs"; exit} m=(NR%2)?a[(NR+1)/2]:(a[NR/2]+a[NR/2+1])/2; print "runs " NR " median_warnings " m " max " a[NR]}'
  exit 0
fi
base=$1 head=$2
shift 2
out=$(mktemp)
trap 'rm -f "$out"' EXIT
set +e
t0=$(date +%s.%N)
"${RIPPLE_BIN:?set RIPPLE_BIN to the hook binary}" check --base "$base" --head "$head" --format sarif "$@" >"$out"
code=$?
t1=$(date +%s.%N)
set -e
# the commit's subject and the branches that point at it (the Python
# runner names them partial and real)
subject=$(git log -1 --format='%s%d' --decorate=full "$head" 2>/dev/null || echo "?")
# the results at warning level (not the rules' default levels, which a
# grep of the SARIF counts too: before 2026-11-28's seventh session every
# figure was that much higher)
warnings=$(python3 -c 'import json,sys
try:
    d = json.load(open(sys.argv[1]))
except Exception:
    print(0); sys.exit()
print(sum(1 for run in d.get("runs", []) for r in run.get("results", []) if r.get("level", "warning") == "warning"))' "$out")
printf '%s\t%s\t%s\n' "$subject" "$warnings" "$(awk -v a="$t0" -v b="$t1" 'BEGIN {printf "%.3f", b - a}')" >>"${WARN_LOG:?set WARN_LOG}"
cat "$out"
exit $code
