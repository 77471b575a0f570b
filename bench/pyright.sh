#!/usr/bin/env bash
# bench/pyright.sh: time `hook check` on a real change in sqlalchemy
# (~630k lines of Python) against pyright on the same state, in the same
# run. See bench/README.md.
#
# Environment:
#   BENCH_WORK   work directory (default /tmp/ripple-bench); the sqlalchemy work
#                tree is $BENCH_WORK/sqlalchemy and is reused
#   SQLA_MIRROR  bare git mirror of sqlalchemy/sqlalchemy
#                (default /work/.mirror/sqlalchemy+sqlalchemy/repo); only read
#   N            timed runs of the check (default 7)
#   PN           timed runs of pyright (default 3)
#   PYRIGHT      pyright command (default: $BENCH_WORK/pyright/node_modules/.bin/pyright,
#                installed there from npm, pyright@1.1.414, when missing)
#   PYRIGHT_ARGS what pyright checks (default: the whole project, as configured
#                by its pyproject.toml)
set -euo pipefail

HERE=$(cd "$(dirname "$0")" && pwd)
RIPPLE_ROOT=$(dirname "$HERE")
BENCH_WORK=${BENCH_WORK:-/tmp/ripple-bench}
MIRROR=${SQLA_MIRROR:-/work/.mirror/sqlalchemy+sqlalchemy/repo}
N=${N:-7}
PN=${PN:-3}
PYRIGHT_VERSION=1.1.414
PYRIGHT=${PYRIGHT:-$BENCH_WORK/pyright/node_modules/.bin/pyright}
PYRIGHT_ARGS=${PYRIGHT_ARGS:-}
# shellcheck source=bench/lib.sh
. "$HERE/lib.sh"

# The real change. sqlalchemy/sqlalchemy 87e27693ad "proposal: remove
# _execute_compiled()" deletes Connection._execute_compiled() from
# lib/sqlalchemy/engine/base.py and, in the same commit, the tests that
# called it (test/engine/test_execute.py, test/sql/test_query.py). The
# partial state keeps the commit's version of the seed file only, so the
# calls are left in place: what a developer pushes when they forgot them.
SEED_COMMIT=87e27693ad
SEED_FILE=lib/sqlalchemy/engine/base.py
SEED_NAME=_execute_compiled
BRANCH=ripple-bench/partial

need_tools
command -v node >/dev/null 2>&1 || die "node is not on PATH (pyright runs on Node.js)"
[ -d "$MIRROR" ] || die "sqlalchemy mirror not found at $MIRROR (set SQLA_MIRROR, or fetch github:sqlalchemy/sqlalchemy)"
SEED_COMMIT=$(git -C "$MIRROR" rev-parse -q --verify "$SEED_COMMIT^{commit}") ||
	die "commit 87e27693ad is not in $MIRROR"
BASE_COMMIT=$(git -C "$MIRROR" rev-parse "$SEED_COMMIT^")

if [ ! -x "$PYRIGHT" ]; then
	command -v npm >/dev/null 2>&1 || die "npm is not on PATH; set PYRIGHT to a pyright command"
	echo "installing pyright@$PYRIGHT_VERSION into $BENCH_WORK/pyright"
	mkdir -p "$BENCH_WORK/pyright"
	npm install --prefix "$BENCH_WORK/pyright" --no-audit --no-fund "pyright@$PYRIGHT_VERSION" >/dev/null ||
		die "npm install pyright@$PYRIGHT_VERSION failed"
fi

SQ=$BENCH_WORK/sqlalchemy
OUT=$BENCH_WORK/out/pyright
mkdir -p "$BENCH_WORK" "$OUT"
rm -f "$OUT"/*

echo "== setup"
if [ ! -d "$SQ/.git" ]; then
	echo "cloning (shared with the mirror's objects) into $SQ"
	G clone -q --shared --no-checkout "$MIRROR" "$SQ"
fi
want_blob=$(G -C "$SQ" rev-parse "$SEED_COMMIT:$SEED_FILE")
head=""
if h=$(G -C "$SQ" rev-parse -q --verify "refs/heads/$BRANCH^{commit}" 2>/dev/null) &&
	[ "$(G -C "$SQ" rev-parse "$h^")" = "$BASE_COMMIT" ] &&
	[ "$(G -C "$SQ" rev-parse "$h:$SEED_FILE")" = "$want_blob" ]; then
	head=$h
	echo "reusing $BRANCH = $head"
fi
if [ -z "$head" ]; then
	G -C "$SQ" checkout -q -f --detach "$BASE_COMMIT"
	G -C "$SQ" checkout "$SEED_COMMIT" -- "$SEED_FILE"
	G -C "$SQ" commit -q -m "partial: $SEED_FILE of $SEED_COMMIT only"
	head=$(G -C "$SQ" rev-parse HEAD)
	G -C "$SQ" branch -f "$BRANCH" "$head"
	echo "created $BRANCH = $head"
fi
G -C "$SQ" checkout -q -f "$BRANCH"
G -C "$SQ" clean -q -f -d -x

build_hook
files=$(G -C "$SQ" ls-files '*.py' | wc -l)
lines=$(G -C "$SQ" ls-files -z '*.py' | (cd "$SQ" && xargs -0 cat) | wc -l)
# the sites the change leaves inconsistent: calls of the deleted method
expected=$(G -C "$SQ" grep -n -w "$SEED_NAME" -- '*.py' | grep -v "^$SEED_FILE:" | grep -c "$SEED_NAME(" || true)
machine
echo "repository: sqlalchemy at ${BASE_COMMIT:0:12} ($files Python files, $lines lines); change ${SEED_COMMIT:0:12} with $SEED_FILE only"

echo "== hook check (warm-up, then $N runs)"
(cd "$SQ" && "$HOOK" check --base "$BASE_COMMIT" --head "$head" --format json >"$OUT/warmup.json" 2>/dev/null) || true
: >"$OUT/hook.ms"
: >"$OUT/hook.cpu"
rss=0
for i in $(seq "$N"); do
	cd "$SQ"
	timed "$OUT/hook.$i" "$HOOK" check --base "$BASE_COMMIT" --head "$head" --format json
	cd "$HERE"
	[ "$T_RC" -le 1 ] || die "hook check failed: $(tail -n 3 "$OUT/hook.$i.err")"
	echo "$T_MS" >>"$OUT/hook.ms"
	[ -n "$T_CPU" ] && echo "$T_CPU" >>"$OUT/hook.cpu"
	[ -n "$T_RSS" ] && [ "$T_RSS" -gt "$rss" ] && rss=$T_RSS
done
read -r hmin hmed hmax < <(stats <"$OUT/hook.ms")
read -r _ hcpu _ < <(stats <"$OUT/hook.cpu")
errors=$(jq '[.findings[] | select(.level == "error")] | length' "$OUT/hook.1.out")
warnings=$(jq '[.findings[] | select(.level == "warning")] | length' "$OUT/hook.1.out")
files_parsed=$(jq '.stats.parsed_files' "$OUT/hook.1.out")
sites=$(jq -r --arg n "$SEED_NAME" '[.findings[] | select(.level == "error" and (.site.text | test($n + "\\(")))] | length' "$OUT/hook.1.out")
hrss=$rss

echo "== pyright $PYRIGHT_VERSION (warm-up, then $PN runs)"
# shellcheck disable=SC2086
(cd "$SQ" && "$PYRIGHT" --outputjson $PYRIGHT_ARGS >"$OUT/pyright.warmup.json" 2>/dev/null) || true
: >"$OUT/pyright.ms"
: >"$OUT/pyright.cpu"
rss=0
for i in $(seq "$PN"); do
	cd "$SQ"
	# shellcheck disable=SC2086
	timed "$OUT/pyright.$i" "$PYRIGHT" --outputjson $PYRIGHT_ARGS
	cd "$HERE"
	echo "$T_MS" >>"$OUT/pyright.ms"
	[ -n "$T_CPU" ] && echo "$T_CPU" >>"$OUT/pyright.cpu"
	[ -n "$T_RSS" ] && [ "$T_RSS" -gt "$rss" ] && rss=$T_RSS
done
read -r pmin pmed pmax < <(stats <"$OUT/pyright.ms")
read -r _ pcpu _ < <(stats <"$OUT/pyright.cpu")
panalyzed=$(jq '.summary.filesAnalyzed' "$OUT/pyright.1.out" 2>/dev/null || echo "-")
pdiag=$(jq --arg n "$SEED_NAME" '[.generalDiagnostics[] | select(.message | contains($n))] | length' "$OUT/pyright.1.out" 2>/dev/null || echo "-")

echo
printf '%-8s %6s %6s %6s %6s %7s  %s\n' tool min_s med_s max_s cpu_s rss_MB what
printf '%-8s %6s %6s %6s %6s %7s  %s\n' hook "$(secs "$hmin")" "$(secs "$hmed")" "$(secs "$hmax")" "$(secs "${hcpu:-0}")" "$(mb "$hrss")" \
	"errors $errors (sites $sites/$expected), warnings $warnings, parsed $files_parsed files"
printf '%-8s %6s %6s %6s %6s %7s  %s\n' pyright "$(secs "$pmin")" "$(secs "$pmed")" "$(secs "$pmax")" "$(secs "${pcpu:-0}")" "$(mb "$rss")" \
	"analyzed $panalyzed files, $pdiag diagnostics naming $SEED_NAME"
awk -v h="$hmed" -v p="$pmed" -v hc="${hcpu:-0}" -v pc="${pcpu:-0}" 'BEGIN {
	printf "ratio: hook median / pyright median = %.1f%% wall", 100 * h / p
	if (pc > 0) printf ", %.1f%% cpu", 100 * hc / pc
	printf " (target <= 10%%)\n" }'
