#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# tests/record/t-states.sh — run state per sample from the ptrace backend
# (issue 30) against known truth:
#   app-phases  one thread: phase_a computes, phase_wait sleeps, phase_b
#               computes, 0.5 s each; it prints its own wall and CPU time
#               per phase, which is the truth (not an earlier profile).
#               Blocked share within 5 pp of phase_wait's wall share, the
#               on-CPU share (running + runnable) within 5 pp of the
#               compute phases', phase_wait's samples >= 95 % blocked,
#               and `fold --on-cpu` shares of phase_a / phase_b within
#               3 pp of their CPU-time split.  The running/runnable split
#               itself is checked loosely (15 pp, see below).
#   app-pool    a producer and four condition-variable workers: `--on-cpu`
#               shares of produce, consume_a, consume_b within POOL_PP
#               (5, issue 30's goal) pp of
#               `perf record -e cpu-clock --call-graph dwarf` (parsed
#               here, independently of our perf reader), while the
#               default profile is mostly waiting workers (>= 50 %).
#               Each side records POOL_S (6) seconds: at 499 Hz that is
#               about 1000 on-CPU samples of ours and 1600 of perf's, so
#               the sampling noise of one difference is about 2 pp and
#               5 pp is 2.5 of it (3 s left 2.8 pp, and a pass by luck).
# Before issue 30's fix the pool missed by 7.5-11.6 pp on `produce`: a
# stop interrupted the sleeping workers before it reached the running
# thread, and a sleeper woken on the running thread's CPU preempted it,
# so it read as runnable (docs/run-state.md, ptrace-if invariant 5).
POOL_PP=${POOL_PP:-5}
POOL_S=${POOL_S:-6}
# A share that misses is measured once more (a loaded 2-core machine can
# starve the target for long stretches; lib-record.sh's record_truth does
# the same) and the second run is judged.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/lib-record.sh"
need_ptrace states
ST="python3 $UF_TOP/tests/record/states.py"

# truth_of ERR PHASE FIELD: the program's own "truth PHASE wall W cpu C"
truth_of() {
	awk -v p="$2" -v f="$3" '$1 == "truth" && $2 == p { for (i = 3; i < NF; i++) if ($i == f) print $(i + 1) }' "$1"
}

# phases_run N: record app-phases; 0 when every check holds (quiet)
phases_run() {
	local d="$TMP/ph$1"
	mkdir -p "$d"
	"$UF" -q -F 499 --raw "$d/raw" --folded "$d/all.folded" -- "$EXAMPLES/app-phases" 3 2>"$d/err" ||
		{ echo "record failed: $(tail -1 "$d/err")" >"$d/why"; return 1; }
	"$UF" fold --on-cpu --symbols "$EXAMPLES/app-phases" "$d/raw" >"$d/on.folded" 2>>"$d/err"
	local ta tw tb tt ca cb
	ta=$(truth_of "$d/err" phase_a wall); tw=$(truth_of "$d/err" phase_wait wall)
	tb=$(truth_of "$d/err" phase_b wall); tt=$(truth_of "$d/err" total wall)
	ca=$(truth_of "$d/err" phase_a cpu); cb=$(truth_of "$d/err" phase_b cpu)
	set -- $($ST state "$d/all.folded")   # running R runnable Q blocked B offline O n N
	local run=$2 rq=$4 blk=$6
	local want_blk want_cpu want_run want_a oncpu
	want_blk=$(awk -v w="$tw" -v t="$tt" 'BEGIN { printf "%.1f", 100 * w / t }')
	want_cpu=$(awk -v a="$ta" -v b="$tb" -v t="$tt" 'BEGIN { printf "%.1f", 100 * (a + b) / t }')
	want_run=$(awk -v a="$ca" -v b="$cb" -v t="$tt" 'BEGIN { printf "%.1f", 100 * (a + b) / t }')
	want_a=$(awk -v a="$ca" -v b="$cb" 'BEGIN { printf "%.1f", 100 * a / (a + b) }')
	oncpu=$(awk -v r="$run" -v q="$rq" 'BEGIN { printf "%.1f", r + q }')
	set -- $($ST share "$d/on.folded" phase_a phase_b phase_wait)
	local ona=$1 onb=$2 onw=$3 wblk
	wblk=$($ST under "$d/all.folded" phase_wait blocked)
	{
		echo "blocked $blk% (truth $want_blk%)"
		echo "running+runnable $oncpu% (truth $want_cpu%)"
		echo "running $run% (CPU-time truth $want_run%)"
		echo "phase_wait blocked $wblk%"
		echo "on-cpu phase_a $ona% phase_b $onb% phase_wait $onw% (truth phase_a $want_a%)"
	} >"$d/why"
	within "$blk" "$want_blk" 5 && within "$oncpu" "$want_cpu" 5 &&
		within "$run" "$want_run" 15 && [ "${wblk%.*}" -ge 95 ] &&
		within "$ona" "$want_a" 3 && within "$onb" "$(awk -v a="$want_a" 'BEGIN { print 100 - a }')" 3 &&
		[ "$onw" = 0.0 ]
}

if phases_run 1 || phases_run 2; then
	d="$TMP/ph2"; [ -s "$d/why" ] || d="$TMP/ph1"
	while read -r line; do pass "states: app-phases: $line"; done <"$d/why"
else
	fail "states: app-phases" "$(tr '\n' ';' <"$TMP/ph2/why")"
fi

# The pool against perf's CPU profile.
if ! command -v perf >/dev/null 2>&1 || ! perf record -q -e cpu-clock -o "$TMP/probe.data" true 2>/dev/null; then
	if [ "${CI:-}" = true ]; then fail "states: app-pool vs perf" "perf cannot record here"
	else skip "states: app-pool vs perf" "perf cannot record here"; fi
	exit 0
fi
FNS="produce consume_a consume_b"
# The program on CPU 0 and our sampler on CPU 1 (perf's run pinned the
# same way): a sampler that shares a CPU with the busy producer cannot
# run until the producer enters the kernel, so its samples pile up at the
# producer's system calls (pthread_cond_signal, lll_lock_wake: 281 of
# ~470 producer samples where perf has none; main's binary does the same,
# see the report of issue 30).  That bias is the sampling loop's, not the
# run state's, which is what this test is about.
PIN_UF="" PIN_APP=""
if command -v taskset >/dev/null && [ "$(nproc)" -ge 2 ]; then
	PIN_UF="taskset -c 1" PIN_APP="taskset -c 0"
fi
pool_run() {
	local d="$TMP/pool$1" attempt=$1
	mkdir -p "$d"
	$PIN_UF "$UF" -q -F 499 --raw "$d/raw" --folded "$d/all.folded" -- $PIN_APP "$EXAMPLES/app-pool" "$POOL_S" 2>"$d/err" ||
		{ echo "record failed: $(tail -1 "$d/err")" >"$d/why"; return 1; }
	"$UF" fold --on-cpu --symbols "$EXAMPLES/app-pool" "$d/raw" >"$d/on.folded" 2>>"$d/err"
	perf record -q -e cpu-clock -F 499 --call-graph dwarf -o "$d/perf.data" -- \
		$PIN_APP "$EXAMPLES/app-pool" "$POOL_S" 2>/dev/null >/dev/null
	perf script -i "$d/perf.data" -F comm,tid,time,ip,sym,dso 2>/dev/null >"$d/perf.txt"
	local ours theirs waiting ok=0
	ours=($($ST share "$d/on.folded" $FNS))
	theirs=($($ST perf "$d/perf.txt" $FNS))
	set -- $($ST state "$d/all.folded")
	waiting=$(awk -v q="$4" -v b="$6" 'BEGIN { printf "%.1f", q + b }')
	: >"$d/why"
	local i=0
	for fn in $FNS; do
		echo "$fn on-cpu ${ours[$i]}% perf ${theirs[$i]}%" >>"$d/why"
		within "${ours[$i]}" "${theirs[$i]}" "$POOL_PP" || ok=1
		i=$((i + 1))
	done
	echo "default profile waiting $waiting% (workers idle)" >>"$d/why"
	echo "attempt $attempt at load $(cut -d' ' -f1 /proc/loadavg)" >>"$d/why"
	[ "${waiting%.*}" -ge 50 ] || ok=1
	return $ok
}
if pool_run 1 || pool_run 2; then
	d="$TMP/pool2"; [ -s "$d/why" ] || d="$TMP/pool1"
	while read -r line; do pass "states: app-pool: $line"; done <"$d/why"
else
	fail "states: app-pool" "$(tr '\n' ';' <"$TMP/pool2/why")"
fi
