#!/usr/bin/env bash
# bench/terraform-kinds.sh: the cost of a push on a large repository, over
# several kinds of change. Each kind is an ordinary edit made to
# hashicorp/terraform at a fixed commit (~640k lines of Go), committed on
# its own branch; `hook check` runs N times on each in the default mode
# (auto precision, what the pre-push hook runs) and the script prints, per
# kind, the median wall time, the peak RSS and what was found, then one
# summary line with the median over kinds and the worst peak RSS.
#
# Kinds (all from BASE_COMMIT but the last two):
#   param    a parameter's type changes (addrs.ParseAbsResourceInstanceStr
#            string -> []byte; 30 callers in 15 packages)
#   result   a function gains a result (addrs.NewDefaultProvider returns
#            (Provider, error); ~1500 uses)
#   iface    an interface gains a method (providers.Interface gains Ping;
#            every provider implementation and mock)
#   rename   a function is renamed with its callers in its package
#            (addrs.MustParseProviderPart -> MustParseProviderName)
#   field    a struct field's type changes (configs.Parser.fs afero.Afero
#            -> *afero.Afero)
#   branch   the four edits above as four commits of one pushed branch
#   wide     a parameter added to tfdiags.Sourceless (932 callers)
#   last10   terraform's own last 10 first-parent commits before
#   last50   BASE_COMMIT (and the last 50), pushed as one range
#
# What is timed is `hook check` with its text report, the check the
# pre-push hook runs (the farther frontier, which only notes reach, is
# not walked: the text shows no notes); the counts come from one more,
# untimed, JSON run (errors and warnings are the same; its notes include
# the frontier's). Beside each kind: its CPU seconds as a share of a warm
# `go build ./...` of BASE_COMMIT (GOBUILD=1, the default: built twice,
# the second timed; GOBUILD=0 skips it), the measure of issue 16's
# targets, since CPU time is what a loaded machine does not inflate.
#
# Environment: BENCH_WORK (default /tmp/ripple-bench; the work tree
# $BENCH_WORK/terraform is shared with terraform.sh), TERRAFORM_MIRROR,
# N (default 5), KINDS (default all), MODDOWNLOAD (1: go mod download
# first, the default; 0: leave the module cache as it is; the summary
# states which), CHECKOUT (1, the default: the kind's head is checked out
# while it is timed, as when a developer pushes the branch they are on;
# the search then reads the work tree. 0: HEAD stays elsewhere, as when
# pushing another branch, and the search inflates the commit's blobs;
# the summary states which), HOOK_BIN (a hook binary to time instead of
# building this checkout's: for timing two versions back to back).
set -euo pipefail

HERE=$(cd "$(dirname "$0")" && pwd)
RIPPLE_ROOT=$(dirname "$HERE")
BENCH_WORK=${BENCH_WORK:-/tmp/ripple-bench}
MIRROR=${TERRAFORM_MIRROR:-/work/.mirror/hashicorp+terraform/repo}
N=${N:-5}
KINDS=${KINDS:-param result iface rename field branch wide last10 last50}
GOBUILD=${GOBUILD:-1}
MODDOWNLOAD=${MODDOWNLOAD:-1}
CHECKOUT=${CHECKOUT:-1}
# shellcheck source=bench/lib.sh
. "$HERE/lib.sh"

BASE_COMMIT=dea9f7ec388f17dc9a8f9ef540ea01b3a8c334fb

need_tools
[ -d "$MIRROR" ] || die "terraform mirror not found at $MIRROR (set TERRAFORM_MIRROR)"
git -C "$MIRROR" cat-file -e "$BASE_COMMIT^{commit}" 2>/dev/null || die "commit $BASE_COMMIT is not in $MIRROR"

TF=$BENCH_WORK/terraform-kinds
OUT=$BENCH_WORK/out/terraform-kinds
mkdir -p "$BENCH_WORK" "$OUT"
rm -f "$OUT"/*
if [ ! -d "$TF/.git" ]; then
	G clone -q --shared --no-checkout "$MIRROR" "$TF"
fi

# edit KIND: makes the kind's edit in the work tree (perl, anchored on
# the declaration; fails loudly when the anchor is gone)
edit() {
	local f
	case $1 in
	param)
		f=internal/addrs/parse_target.go
		perl -0pi -e 's/func ParseAbsResourceInstanceStr\(str string\)/func ParseAbsResourceInstanceStr(str []byte)/ or die "anchor"' "$TF/$f" ;;
	result)
		f=internal/addrs/provider.go
		perl -0pi -e 's/func NewDefaultProvider\(name string\) Provider \{(.*?)\n\t\}\n\}/func NewDefaultProvider(name string) (Provider, error) {$1\n\t}, nil\n}/s or die "anchor"' "$TF/$f" ;;
	iface)
		f=internal/providers/provider.go
		perl -0pi -e 's/(type Interface interface \{\n)/$1\t\/\/ Ping checks that the provider is alive.\n\tPing() error\n\n/ or die "anchor"' "$TF/$f" ;;
	rename)
		f=internal/addrs/provider.go
		perl -0pi -e 's/MustParseProviderPart\(/MustParseProviderName(/g or die "anchor"' "$TF/$f" ;;
	field)
		f=internal/configs/parser.go
		perl -0pi -e 's/\tfs afero\.Afero\n/\tfs *afero.Afero\n/ or die "anchor"' "$TF/$f" ;;
	wide)
		f=internal/tfdiags/sourceless.go
		perl -0pi -e 's/func Sourceless\(severity Severity, summary, detail string\) Diagnostic/func Sourceless(severity Severity, summary, detail string, code int) Diagnostic/ or die "anchor"' "$TF/$f" ;;
	*) die "unknown kind $1" ;;
	esac
	G -C "$TF" add -- "$f"
	G -C "$TF" commit -q -m "ripple bench: $1"
}

# branch KIND: the kind's branch, made once from BASE_COMMIT
make_branch() {
	local kind=$1 ref=refs/heads/ripple-kinds/$1
	if G -C "$TF" rev-parse -q --verify "$ref" >/dev/null; then
		return
	fi
	G -C "$TF" checkout -q -f --detach "$BASE_COMMIT"
	if [ "$kind" = branch ]; then
		for k in param rename field iface; do edit "$k"; done
	else
		edit "$kind"
	fi
	G -C "$TF" update-ref "$ref" HEAD
}

if [ -n "${HOOK_BIN:-}" ]; then
	HOOK=$HOOK_BIN RIPPLE_REV=$(basename "$HOOK_BIN")
else
	build_hook
fi
if [ "$MODDOWNLOAD" = 1 ]; then
	G -C "$TF" checkout -q -f --detach "$BASE_COMMIT"
	(cd "$TF" && go mod download) || die "go mod download failed (module proxy unreachable? run with MODDOWNLOAD=0)"
	CACHE="filled (go mod download)"
else
	CACHE="as found ($(du -sh "$(go env GOMODCACHE)" 2>/dev/null | cut -f1) in $(go env GOMODCACHE))"
fi

# the warm go build of the base: built once (module and build caches
# filled), timed the second time
BUILD_CPU=""
if [ "$GOBUILD" = 1 ]; then
	G -C "$TF" checkout -q -f --detach "$BASE_COMMIT"
	(cd "$TF" && go build ./... >/dev/null 2>&1) || die "go build ./... failed at $BASE_COMMIT (modules missing? run with MODDOWNLOAD=1)"
	timed "$OUT/gobuild" sh -c "cd '$TF' && go build ./..."
	BUILD_CPU=$T_CPU
	echo "warm go build ./...: $(secs "$T_MS") s wall, $(secs "$T_CPU") CPU s, $(mb "$T_RSS") MB"
fi
pct() { [ -n "$BUILD_CPU" ] && awk -v c="$1" -v b="$BUILD_CPU" 'BEGIN { printf "%.1f%%", 100 * c / b }' || printf -- "-"; }

printf "%-7s %7s %7s %7s %7s %7s %7s %7s %6s %6s %6s %6s\n" kind wall_s min_s max_s cpu_s cpu_pct inner_s rss_MB errors warns notes typed
medians="" peak=0
for kind in $KINDS; do
	case $kind in
	last10 | last50)
		base=$(G -C "$TF" rev-parse "$BASE_COMMIT~${kind#last}")
		head=$BASE_COMMIT ;;
	*)
		make_branch "$kind"
		base=$BASE_COMMIT
		head=$(G -C "$TF" rev-parse "refs/heads/ripple-kinds/$kind") ;;
	esac
	if [ "$CHECKOUT" = 1 ]; then
		G -C "$TF" checkout -q -f --detach "$head"
	else
		G -C "$TF" checkout -q -f --detach "$base"
	fi
	# the pre-push range: what the branch adds over the base
	: >"$OUT/$kind.ms"; : >"$OUT/$kind.rss"; : >"$OUT/$kind.cpu"
	timed "$OUT/$kind.warm" "$HOOK" -C "$TF" check --base "$base" --head "$head"
	for i in $(seq 1 "$N"); do
		timed "$OUT/$kind.$i" "$HOOK" -C "$TF" check --base "$base" --head "$head"
		[ "$T_RC" -le 1 ] || die "$kind: hook check exited $T_RC: $(head -c 400 "$OUT/$kind.$i.err")"
		echo "$T_MS" >>"$OUT/$kind.ms"
		echo "${T_RSS:-0}" >>"$OUT/$kind.rss"
		echo "${T_CPU:-0}" >>"$OUT/$kind.cpu"
	done
	read -r min med max < <(stats <"$OUT/$kind.ms")
	read -r _ cmed _ < <(stats <"$OUT/$kind.cpu")
	rss=$(sort -n "$OUT/$kind.rss" | tail -n 1)
	timed "$OUT/$kind.json" "$HOOK" -C "$TF" check --base "$base" --head "$head" --format json
	last="$OUT/$kind.json.out"
	imed=$(jq -r '.stats.millis // 0' "$last")
	errs=$(jq '[.findings[]? | select(.level=="error")] | length' "$last")
	warns=$(jq '[.findings[]? | select(.level=="warning")] | length' "$last")
	notes=$(jq '[.findings[]? | select(.level=="note")] | length' "$last")
	typed=$(jq '.stats.typed_packages // 0' "$last")
	printf "%-7s %7s %7s %7s %7s %7s %7s %7s %6s %6s %6s %6s\n" "$kind" "$(secs "$med")" "$(secs "$min")" "$(secs "$max")" "$(secs "$cmed")" "$(pct "$cmed")" "$(secs "$imed")" "$(mb "$rss")" "$errs" "$warns" "$notes" "$typed"
	medians="$medians$med"$'\n'
	[ "$rss" -gt "$peak" ] && peak=$rss
done
read -r _ kmed kmax < <(printf "%s" "$medians" | stats)
echo "terraform kinds $(echo "$KINDS" | wc -w) median_of_medians $(secs "$kmed")s worst_median $(secs "$kmax")s peak_rss $(mb "$peak")MB go_build_cpu ${BUILD_CPU:+$(secs "$BUILD_CPU")s} ripple $RIPPLE_REV module_cache $CACHE head_checked_out $CHECKOUT"
