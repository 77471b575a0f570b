# Shared helpers of the bench scripts (sourced, not run).
# shellcheck shell=bash

die() { echo "bench: $*" >&2; exit 2; }

# G is git for the bench's own work trees (never the mirrors): no user or
# system config, a fixed identity and date (reproducible commits), no
# automatic gc or maintenance while timing.
G() {
	env GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null \
		GIT_AUTHOR_NAME="Ripple Bench" GIT_AUTHOR_EMAIL=bench@example.invalid \
		GIT_COMMITTER_NAME="Ripple Bench" GIT_COMMITTER_EMAIL=bench@example.invalid \
		GIT_AUTHOR_DATE=2026-01-01T00:00:00Z GIT_COMMITTER_DATE=2026-01-01T00:00:00Z \
		git -c gc.auto=0 -c maintenance.auto=false -c advice.detachedHead=false -c init.defaultBranch=main "$@"
}

need_tools() {
	command -v go >/dev/null 2>&1 || die "Go is not on PATH (the benchmarks need the Go toolchain, 1.26+)"
	command -v git >/dev/null 2>&1 || die "git is not on PATH"
	command -v jq >/dev/null 2>&1 || die "jq is not on PATH (apt-get install jq)"
	if [ -x /usr/bin/time ]; then
		TIMEBIN=/usr/bin/time
	else
		TIMEBIN=""
		echo "bench: /usr/bin/time not found: peak RSS is not measured (apt-get install time)" >&2
	fi
}

# build_hook builds the current state of the repository's hook binary into
# $BENCH_WORK/bin/hook and sets HOOK.
build_hook() {
	mkdir -p "$BENCH_WORK/bin"
	HOOK="$BENCH_WORK/bin/hook"
	(cd "$RIPPLE_ROOT" && go build -o "$HOOK" ./cmd/hook) || die "go build ./cmd/hook failed in $RIPPLE_ROOT"
	RIPPLE_REV=$(git -C "$RIPPLE_ROOT" rev-parse --short HEAD 2>/dev/null || echo unknown)
	if [ -n "$(git -C "$RIPPLE_ROOT" --no-optional-locks status --porcelain --untracked-files=no 2>/dev/null)" ]; then
		RIPPLE_REV="$RIPPLE_REV+dirty"
	fi
}

# timed OUT_PREFIX CMD...: runs CMD with stdout to OUT_PREFIX.out and stderr
# to OUT_PREFIX.err; sets T_MS (wall-clock milliseconds), T_RSS (peak RSS in
# KB), T_CPU (user+system CPU milliseconds of the command and the children
# it waited for, git included) and T_RC (exit status). T_RSS and T_CPU are
# "" without /usr/bin/time.
#
# With NICE set (e.g. NICE=-10, as root), CMD runs at that scheduling
# priority: on a machine shared with other work this keeps the measured
# process from queueing behind it (the CPU time is unaffected either way).
# Where the kernel groups processes by session (sched_autogroup_enabled),
# a nice value counts only within its group, and each session shares the
# CPUs equally: CMD then runs in a session of its own whose group gets
# the same priority (a spinning process at nice -20 in a shared session
# got a third of a core on a loaded 2-core machine; alone in a session at
# -15, all of one).
timed() {
	local prefix=$1; shift
	local t0 t1
	if [ -n "${NICE:-}" ]; then
		if [ "$(cat /proc/sys/kernel/sched_autogroup_enabled 2>/dev/null)" = 1 ] && command -v setsid >/dev/null; then
			set -- setsid -w sh -c 'echo "$0" > /proc/$$/autogroup 2>/dev/null; exec nice -n "$0" "$@"' "$NICE" "$@"
		else
			set -- nice -n "$NICE" "$@"
		fi
	fi
	t0=$(date +%s%N)
	if [ -n "$TIMEBIN" ]; then
		"$TIMEBIN" -f '%M %U %S' -o "$prefix.rss" "$@" >"$prefix.out" 2>"$prefix.err" && T_RC=0 || T_RC=$?
	else
		"$@" >"$prefix.out" 2>"$prefix.err" && T_RC=0 || T_RC=$?
	fi
	t1=$(date +%s%N)
	T_MS=$(( (t1 - t0) / 1000000 ))
	T_RSS="" T_CPU=""
	if [ -n "$TIMEBIN" ] && [ -s "$prefix.rss" ]; then
		# /usr/bin/time prefixes a "Command exited with non-zero status" line
		read -r T_RSS T_CPU < <(tail -n 1 "$prefix.rss" | awk '{ printf "%d %d\n", $1, ($2 + $3) * 1000 }')
	fi
}

# stats: reads numbers (one a line) and prints "min median max" (median of
# an even count: the mean of the middle two).
stats() {
	sort -n | awk '{ v[NR] = $1 } END {
		if (NR == 0) { print "- - -"; exit }
		m = (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
		printf "%d %d %d\n", v[1], m, v[NR] }'
}

# secs MS: milliseconds as seconds with two decimals.
secs() { awk -v ms="$1" 'BEGIN { printf "%.2f", ms / 1000 }'; }

# mb KB: kilobytes as megabytes, rounded.
mb() { [ -n "$1" ] && awk -v kb="$1" 'BEGIN { printf "%.0f", kb / 1024 }' || printf -- "-"; }

machine() {
	local cpu
	cpu=$(awk -F': ' '/^model name/ { print $2; exit }' /proc/cpuinfo 2>/dev/null)
	echo "machine: ${NICE:+nice $NICE; }load average $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null) at $(date -u +%H:%MZ); $(nproc) cores, ${cpu:-unknown cpu}, $(awk '/MemTotal/ { printf "%.0f GB", $2 / 1048576 }' /proc/meminfo 2>/dev/null); $(go version | cut -d' ' -f3-); ripple $RIPPLE_REV; $(date -u +%Y-%m-%dT%H:%MZ)"
}

# partial_head DIR MIRROR SEED_COMMIT SEED_FILE BRANCH: a clone of MIRROR
# in DIR (shared objects, made once) with a branch BRANCH holding the
# parent of SEED_COMMIT plus only SEED_FILE as SEED_COMMIT has it (the
# state a developer pushes who changed the declaration and not its
# dependents), checked out; reused when it already holds exactly that.
# Sets base (the parent) and head (the branch's commit).
partial_head() {
	local dir=$1 mirror=$2 seed=$3 file=$4 branch=$5 want h
	if [ ! -d "$dir/.git" ]; then
		echo "cloning (shared with the mirror's objects) into $dir"
		G clone -q --shared --no-checkout "$mirror" "$dir"
	fi
	G -C "$dir" cat-file -e "$seed^{commit}" 2>/dev/null ||
		die "$dir does not see $seed (remove $dir and re-run, or fetch a newer mirror)"
	base=$(G -C "$dir" rev-parse "$seed^")
	want=$(G -C "$dir" rev-parse "$seed:$file")
	head=""
	if h=$(G -C "$dir" rev-parse -q --verify "refs/heads/$branch^{commit}" 2>/dev/null) &&
		[ "$(G -C "$dir" rev-parse "$h^")" = "$base" ] &&
		[ "$(G -C "$dir" rev-parse "$h:$file")" = "$want" ] &&
		[ -z "$(G -C "$dir" diff --name-only "$base" "$h" -- ":!$file")" ]; then
		head=$h
		echo "reusing $branch = $head"
	fi
	if [ -z "$head" ]; then
		G -C "$dir" checkout -q -f --detach "$base"
		G -C "$dir" show "$seed:$file" >"$dir/$file"
		G -C "$dir" add -- "$file"
		G -C "$dir" commit -q -m "ripple bench: partial $seed (seed file only)"
		head=$(G -C "$dir" rev-parse HEAD)
		G -C "$dir" branch -f "$branch" "$head"
		echo "created $branch = $head"
	fi
	if [ "$(G -C "$dir" rev-parse HEAD)" != "$head" ] || [ -n "$(G -C "$dir" status --porcelain --untracked-files=no)" ]; then
		G -C "$dir" checkout -q -f "$branch"
	fi
}
