#!/usr/bin/env bash
# bench/terraform.sh: time `hook check` on a real signature change in
# hashicorp/terraform (~640k lines of Go at the fixed commit) against
# `go vet ./...` on the same state, in the same run. See bench/README.md.
#
# Environment:
#   BENCH_WORK        work directory (default /tmp/ripple-bench); the terraform
#                     work tree is $BENCH_WORK/terraform and is reused
#   TERRAFORM_MIRROR  bare git mirror of hashicorp/terraform
#                     (default /work/.mirror/hashicorp+terraform/repo); only read
#   N                 timed runs per precision mode (default 7)
#   MODES             precision modes to time (default "auto syntax types")
#   VET               1 (default) runs go vet ./... twice; 0 skips it
#   MODDOWNLOAD       1 (default) runs `go mod download` first (module proxy only);
#                     0 leaves the module cache as it is
set -euo pipefail

HERE=$(cd "$(dirname "$0")" && pwd)
RIPPLE_ROOT=$(dirname "$HERE")
BENCH_WORK=${BENCH_WORK:-/tmp/ripple-bench}
MIRROR=${TERRAFORM_MIRROR:-/work/.mirror/hashicorp+terraform/repo}
N=${N:-7}
MODES=${MODES:-auto syntax types}
VET=${VET:-1}
MODDOWNLOAD=${MODDOWNLOAD:-1}
# shellcheck source=bench/lib.sh
. "$HERE/lib.sh"

# The real change. hashicorp/terraform a47b89170f40 "Fix ParseVariableValues
# for different command flows" (2026-03-13) adds the parameter
# `constOnly bool` to the exported function backendrun.ParseVariableValues
# and deletes backendrun.ParseConstVariableValues (folded into it); the same
# commit updates the 11 call sites in 6 packages: internal/backend/backendrun
# (test), internal/backend/local (3), internal/backend/remote (2),
# internal/cloud (1), internal/command (4, two of them of the deleted
# function). The partial state keeps the commit's version of the seed file
# only, so all 11 call sites are left inconsistent.
SEED_COMMIT=a47b89170f40e7deaf72e543a86660060f83d4e8
BASE_COMMIT=dea9f7ec388f17dc9a8f9ef540ea01b3a8c334fb # SEED_COMMIT^
SEED_FILE=internal/backend/backendrun/unparsed_value.go
SEED_NAMES='ParseVariableValues|ParseConstVariableValues'
BRANCH=ripple-bench/partial

need_tools
[ -d "$MIRROR" ] || die "terraform mirror not found at $MIRROR (set TERRAFORM_MIRROR to a clone of github.com/hashicorp/terraform)"
git -C "$MIRROR" cat-file -e "$SEED_COMMIT^{commit}" 2>/dev/null ||
	die "commit $SEED_COMMIT is not in $MIRROR (the mirror must hold terraform's history up to 2026-03)"

TF=$BENCH_WORK/terraform
OUT=$BENCH_WORK/out/terraform
mkdir -p "$BENCH_WORK" "$OUT"
rm -f "$OUT"/*

echo "== setup"
# the work tree holds the head state (for go vet)
partial_head "$TF" "$MIRROR" "$SEED_COMMIT" "$SEED_FILE" "$BRANCH"
[ "$base" = "$BASE_COMMIT" ] || die "the parent of $SEED_COMMIT is $base, not $BASE_COMMIT"
go_lines=$(G -C "$TF" ls-files -z -- '*.go' | (cd "$TF" && xargs -0 cat) | wc -l)
go_files=$(G -C "$TF" ls-files -- '*.go' | wc -l)
echo "terraform at $head (base $base): $go_files Go files, $go_lines lines"

# The expected inconsistent sites: every call of the seed functions outside
# the seed file (only the seed file differs, so base and head lines agree).
G -C "$TF" grep -n -E "(^|[^A-Za-z0-9_])($SEED_NAMES)\\(" "$head" -- '*.go' ":!$SEED_FILE" |
	sed -E "s/^$head://" | awk -F: '$3 !~ /^[[:space:]]*\/\// { print $1 ":" $2 }' | sort >"$OUT/expected.txt"
expected=$(wc -l <"$OUT/expected.txt")
echo "expected inconsistent sites: $expected"

export GOTOOLCHAIN=${GOTOOLCHAIN:-local}
if [ "$MODDOWNLOAD" = 1 ]; then
	echo "go mod download (through the module proxy; cached after the first run)"
	(cd "$TF" && go mod download) || die "go mod download failed in $TF"
fi

build_hook
machine

# run_mode MODE: N timed runs of the check; prints one table row.
declare -A MED
run_mode() {
	local mode=$1 i flags=()
	[ "$mode" = auto ] || flags=(-precision="$mode")
	: >"$OUT/$mode.ms"; : >"$OUT/$mode.rss"; : >"$OUT/$mode.internal"; : >"$OUT/$mode.cpu"
	for ((i = 1; i <= N; i++)); do
		timed "$OUT/$mode.$i" "$HOOK" -C "$TF" check --base "$base" --head "$head" --format json "${flags[@]}"
		if [ "$T_RC" -gt 1 ]; then
			cat "$OUT/$mode.$i.err" >&2
			die "hook check ($mode) failed with exit status $T_RC"
		fi
		echo "$T_MS" >>"$OUT/$mode.ms"
		echo "${T_RSS:-0}" >>"$OUT/$mode.rss"
		echo "${T_CPU:-0}" >>"$OUT/$mode.cpu"
		jq -r .stats.millis "$OUT/$mode.$i.out" >>"$OUT/$mode.internal"
	done
	local last="$OUT/$mode.$N.out" min med max rss imed errs warns typed found extra
	read -r min med max < <(stats <"$OUT/$mode.ms")
	rss=$(sort -n "$OUT/$mode.rss" | tail -n 1)
	read -r _ imed _ < <(stats <"$OUT/$mode.internal")
	read -r _ cmed _ < <(stats <"$OUT/$mode.cpu")
	errs=$(jq .counts.error "$last")
	warns=$(jq .counts.warning "$last")
	typed=$(jq .stats.typed_packages "$last")
	jq -r '.findings[] | select(.level == "error") | .path + ":" + (.line | tostring)' "$last" | sort -u >"$OUT/$mode.sites"
	found=$(comm -12 "$OUT/expected.txt" "$OUT/$mode.sites" | wc -l)
	extra=$(comm -13 "$OUT/expected.txt" "$OUT/$mode.sites" | wc -l)
	MED[$mode]=$med
	RSS[$mode]=$rss
	printf "%-7s %7s %7s %7s %7s %8s %8s %7s %6s %8s %6s\n" "$mode" "$(secs "$min")" "$(secs "$med")" "$(secs "$max")" \
		"$(secs "$cmed")" "$(mb "$rss")" "$(secs "$imed")" "$errs" "$warns" "$found/$expected" "$typed"
	jq -r '.precision_notes[]' "$last" | sed 's/^/        note: /' | cut -c1-200
	[ "$extra" -eq 0 ] || comm -13 "$OUT/expected.txt" "$OUT/$mode.sites" | sed 's/^/        unexpected error at /'
}

declare -A RSS
echo
echo "== hook check --base ${base:0:12} --head ${head:0:12} --format json   ($N runs per mode, after 1 warm-up run)"
timed "$OUT/warmup" "$HOOK" -C "$TF" check --base "$base" --head "$head" --format json
echo "warm-up run: $(secs "$T_MS")s, exit $T_RC"
printf "%-7s %7s %7s %7s %7s %8s %8s %7s %6s %8s %6s\n" mode min_s med_s max_s cpu_s rss_MB inner_s errors warns sites typed
for m in $MODES; do run_mode "$m"; done

# The complete real commit, as its developer pushed it: every caller
# rewritten, nothing inconsistent. Checked out in its own worktree, as a
# pre-push runs on the pushed commit (the work tree is searched).
echo
echo "== the complete commit: hook check --base ${BASE_COMMIT:0:12} --head ${SEED_COMMIT:0:12} ($N runs per mode; expected: 0 errors)"
TFC=$BENCH_WORK/terraform-complete
if [ "$(G -C "$TFC" rev-parse HEAD 2>/dev/null)" != "$SEED_COMMIT" ]; then
	G -C "$TF" worktree remove --force "$TFC" 2>/dev/null || rm -rf "$TFC"
	G -C "$TF" worktree prune
	G -C "$TF" worktree add -q --detach "$TFC" "$SEED_COMMIT"
fi
printf "%-9s %7s %7s %7s %8s %7s %6s %6s %6s\n" mode min_s med_s max_s rss_MB errors warns ok typed
for m in $MODES; do
	flags=()
	[ "$m" = auto ] || flags=(-precision="$m")
	: >"$OUT/complete.$m.ms"; : >"$OUT/complete.$m.rss"
	timed "$OUT/complete.$m.0" "$HOOK" -C "$TFC" check --base "$BASE_COMMIT" --head "$SEED_COMMIT" --format json -verbose "${flags[@]}"
	for ((i = 1; i <= N; i++)); do
		timed "$OUT/complete.$m.$i" "$HOOK" -C "$TFC" check --base "$BASE_COMMIT" --head "$SEED_COMMIT" --format json -verbose "${flags[@]}"
		[ "$T_RC" -le 1 ] || { cat "$OUT/complete.$m.$i.err" >&2; die "hook check (complete, $m) failed with exit status $T_RC"; }
		echo "$T_MS" >>"$OUT/complete.$m.ms"
		echo "${T_RSS:-0}" >>"$OUT/complete.$m.rss"
	done
	last="$OUT/complete.$m.$N.out"
	read -r min med max < <(stats <"$OUT/complete.$m.ms")
	MED[complete.$m]=$med
	RSS[complete.$m]=$(sort -n "$OUT/complete.$m.rss" | tail -n 1)
	printf "%-9s %7s %7s %7s %8s %7s %6s %6s %6s\n" "$m" "$(secs "$min")" "$(secs "$med")" "$(secs "$max")" "$(mb "${RSS[complete.$m]}")" \
		"$(jq .counts.error "$last")" "$(jq .counts.warning "$last")" "$(jq '[.findings[] | select(.verdict == "consistent")] | length' "$last")" "$(jq .stats.typed_packages "$last")"
done

vet_ms=""
if [ "$VET" = 1 ]; then
	echo
	echo "== go vet ./... on the head state (the partial state: some packages do not type-check)"
	timed "$OUT/vet1" sh -c "cd '$TF' && go vet ./..."
	echo "go vet run 1: $(secs "$T_MS")s (cpu $(secs "${T_CPU:-0}")s), exit $T_RC"
	timed "$OUT/vet2" sh -c "cd '$TF' && go vet ./..."
	vet_ms=$T_MS
	echo "go vet run 2 (warm build cache): $(secs "$T_MS")s (cpu $(secs "${T_CPU:-0}")s), exit $T_RC; $(grep -c '^#' "$OUT/vet2.err" || true) packages reported"
fi

echo
auto=${MED[auto]:-}
line="terraform check"
[ -n "$auto" ] && line="$line median $(secs "$auto")s"
tiers=""
[ -n "${MED[syntax]:-}" ] && tiers="syntax $(secs "${MED[syntax]}")s"
[ -n "${MED[types]:-}" ] && tiers="${tiers:+$tiers, }types $(secs "${MED[types]}")s"
[ -n "$tiers" ] && line="$line ($tiers)"
[ -n "$auto" ] && line="$line peak_rss $(mb "${RSS[auto]}")MB"
[ -n "${MED[complete.auto]:-}" ] && line="$line; complete commit $(secs "${MED[complete.auto]}")s peak_rss $(mb "${RSS[complete.auto]}")MB"
if [ -n "$vet_ms" ]; then
	line="$line; go vet $(secs "$vet_ms")s"
	[ -n "$auto" ] && line="$line; ratio $(awk -v a="$auto" -v v="$vet_ms" 'BEGIN { printf "%.1f%%", 100 * a / v }')"
fi
echo "$line"
echo "(raw outputs in $OUT)"
