#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# tests/interop/t-runstate.sh — time and run state per sample (issue 30),
# end to end through `fold`, against an independent Python computation of
# the same input (tests/interop/runstate_oracle.py, which takes perf
# frame names from stackcollapse-perf.pl):
#   - a raw trace with "#sample" lines (times, states, threads; some
#     stacks in uniprof's old format) and a `perf script` with cpu-clock
#     and sched:sched_switch events (generated, and a real capture when
#     perf can record here): the default graph sets waiting samples apart
#     in [runnable]/[blocked]/[offline] frames, --on-cpu drops them,
#     --state and --time keep exactly the samples the oracle keeps, stack
#     by stack and count by count;
#   - --on-cpu of a perf script equals stackcollapse-perf.pl's collapse of
#     the same script without its sched_switch events;
#   - the pprof export carries each sample's state and time:
#     `go tool pprof -raw` gives back the oracle's samples one by one,
#     `-tags` lists the states kept and the time label;
#   - old raw traces read as before (unknown state, no time, no frame
#     added: byte-identical to the release binary of main when present);
#   - the errors: a cut of an input without times or states, an empty cut,
#     bad --time and --state values.
source "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"
here="$UF_TOP/tests/interop"
oracle="$here/runstate_oracle.py"
export GOCACHE="$TMP/gocache" GOFLAGS=-mod=mod HOME="${HOME:-$TMP}"

# same_cut NAME INPUT CUT [fold options...]: fold's output against the oracle
same_cut() {
	local name=$1 kind=$2 in=$3 cut=$4
	shift 4
	python3 "$oracle" "$kind" "$in" "$cut" $SC >"$TMP/want.json" || { fail "$name" "oracle failed"; return; }
	"$UF" fold "$@" "$in" >"$TMP/got.folded" 2>"$TMP/err" || { fail "$name" "fold: $(head -1 "$TMP/err")"; return; }
	python3 "$oracle" same-folded "$TMP/want.json" "$TMP/got.folded" >"$TMP/cmp" &&
		pass "$name: $(cat "$TMP/cmp")" || fail "$name" "$(cat "$TMP/cmp")"
}

# same_pprof NAME KIND INPUT CUT [fold options...]: one pprof sample per oracle sample
same_pprof() {
	local name=$1 kind=$2 in=$3 cut=$4
	shift 4
	if ! command -v go >/dev/null 2>&1; then
		skip "$name" "no go (apt-get install golang-go)"
		return
	fi
	python3 "$oracle" "$kind" "$in" "$cut" $SC >"$TMP/want.json"
	"$UF" fold "$@" -o "$TMP/p.pb.gz" "$in" 2>"$TMP/err" &&
		go tool pprof -raw "$TMP/p.pb.gz" >"$TMP/raw.txt" 2>"$TMP/err" ||
		{ fail "$name" "$(tail -1 "$TMP/err")"; return; }
	python3 "$oracle" same-pprof "$TMP/want.json" "$TMP/raw.txt" >"$TMP/cmp" &&
		pass "$name: $(cat "$TMP/cmp")" || fail "$name" "$(cat "$TMP/cmp")"
}

# ---- a raw trace ------------------------------------------------------
SC=
python3 "$oracle" gen-raw "$TMP/t.raw" 7
R="--raw"
same_cut "raw: default, waiting samples end in their state's frame" raw "$TMP/t.raw" "|" $R
same_cut "raw: --on-cpu keeps the running samples" raw "$TMP/t.raw" "running|" $R --on-cpu
same_cut "raw: --state waiting --time 1.5-3" raw "$TMP/t.raw" "waiting|1.5-3" $R --state waiting --time 1.5-3
same_cut "raw: --time 2- (open end)" raw "$TMP/t.raw" "|2-" $R --time 2-
same_cut "raw: --time -0.5 --state offline,running" raw "$TMP/t.raw" "offline,running|-0.5" $R --time -0.5 --state offline,running
same_cut "raw: --state unknown (the old-format stacks)" raw "$TMP/t.raw" "unknown|" $R --state unknown
"$UF" fold --raw "$TMP/t.raw" >"$TMP/d.folded"
"$UF" fold --raw --on-cpu "$TMP/t.raw" >"$TMP/on.folded"
nb=$(grep -c ';\[blocked\] ' "$TMP/d.folded"); nr=$(grep -c ';\[runnable\] ' "$TMP/d.folded")
head -1 "$TMP/d.folded" | grep -q '^# states: "unknown [0-9]*, running [0-9]*, runnable [0-9]*, blocked [0-9]*, offline [0-9]*"$' &&
	[ "$nb" -gt 0 ] && [ "$nr" -gt 0 ] && ! grep -q '\[' "$TMP/on.folded" &&
	pass "raw: default sets $nb blocked and $nr runnable stacks apart, counts per state in its metadata; --on-cpu has none" ||
	fail "raw: set apart" "$(head -1 "$TMP/d.folded"); $nb blocked, $nr runnable; on-cpu: $(grep -c '\[' "$TMP/on.folded")"
# --state on folded text (no per-sample states): a stack's state is its
# leaf pseudo-frame, running when it has none (the raw trace's unknown
# samples are such stacks), so each cut equals the raw trace's own
for cut in blocked waiting offline,runnable "running,unknown on-cpu"; do
	want=${cut%% *} got=${cut##* }
	"$UF" fold --raw --state "$want" "$TMP/t.raw" | grep -v '^#' >"$TMP/want.folded"
	"$UF" fold --state "$got" "$TMP/d.folded" >"$TMP/got.folded" 2>"$TMP/err"
	if [ -s "$TMP/want.folded" ] && cmp -s "$TMP/want.folded" <(grep -v '^#' "$TMP/got.folded") &&
		grep -q '^# states: ' "$TMP/got.folded"; then
		pass "folded: --state $got of the folded output equals the raw trace's --state $want ($(wc -l <"$TMP/want.folded") stacks)"
	else
		fail "folded: --state $got" "$(diff "$TMP/want.folded" "$TMP/got.folded" | head -3; cat "$TMP/err")"
	fi
done
same_pprof "raw: pprof carries each sample's state and time" raw "$TMP/t.raw" "blocked,offline|0.5-3.5" $R --state blocked,offline --time 0.5-3.5
if command -v go >/dev/null 2>&1; then
	go tool pprof -tags "$TMP/p.pb.gz" >"$TMP/tags" 2>/dev/null
	grep -q '^ *state: Total' "$TMP/tags" && grep -q ': blocked$' "$TMP/tags" && grep -q ': offline$' "$TMP/tags" &&
		! grep -q ': running$' "$TMP/tags" && grep -q '^ *time: Total' "$TMP/tags" &&
		pass "raw: go tool pprof -tags lists the states kept and the time label" ||
		fail "raw: pprof -tags" "$(head -12 "$TMP/tags" | tr '\n' '|')"
fi

# speedscope: the samples in time order, one per kept sample
"$UF" fold --raw --state running "$TMP/t.raw" -o "$TMP/s.speedscope.json"
python3 "$oracle" raw "$TMP/t.raw" "running|" >"$TMP/want.json"
python3 - "$TMP/s.speedscope.json" "$TMP/want.json" >"$TMP/cmp" <<'EOF' && pass "raw: speedscope: $(cat "$TMP/cmp")" || fail "raw: speedscope" "$(cat "$TMP/cmp")"
import json, sys
d, want = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
fr = [f["name"] for f in d["shared"]["frames"]]
p = d["profiles"][0]
got = [";".join(fr[i] for i in s) for s in p["samples"]]
exp = [s[0] for s in sorted(want, key=lambda s: s[3] if s[3] is not None else -1)]
ok = got == exp and len(p["weights"]) == len(got)
print("%d samples in time order" % len(got) if ok else "%d samples, want %d in time order" % (len(got), len(exp)))
sys.exit(0 if ok else 1)
EOF

# ---- old raw traces and folded input: as before ----------------------
old="$UF_TOP/tests/data/symtab/uniprof.raw"
"$UF" fold --raw "$old" >"$TMP/old.folded"
if [ -x /tmp/uf-base ]; then
	/tmp/uf-base fold --raw "$old" >"$TMP/old-base.folded"
	cmp -s "$TMP/old.folded" "$TMP/old-base.folded" &&
		pass "old raw trace: byte-identical to main's fold --raw" || fail "old raw trace" "differs from main's"
fi
! grep -q '^#\|\[blocked\]\|\[runnable\]' "$TMP/old.folded" &&
	pass "old raw trace: no state metadata, no state frame" || fail "old raw trace" "$(head -2 "$TMP/old.folded")"

# ---- perf script: generated, and a real capture -------------------------
SC=${STACKCOLLAPSE_PERF:-}
for c in "$HOME/.cache/uniprof-flame-peers/FlameGraph/stackcollapse-perf.pl" \
	"/root/.cache/uniprof-flame-peers/FlameGraph/stackcollapse-perf.pl" \
	"$SHARED/flamegraph-ref/stackcollapse-perf.pl"; do
	[ -z "$SC" ] && [ -f "$c" ] && SC=$c
done
perf_cases() { # TAG INPUT FROM-TO FROM- (two time cuts inside the capture)
	local tag=$1 in=$2 r1=$3 r2=$4
	same_cut "$tag: default, waits weigh their ns off the CPU" perf "$in" "|"
	same_cut "$tag: --on-cpu" perf "$in" "running|" --on-cpu
	same_cut "$tag: --state waiting --time $r1" perf "$in" "waiting|$r1" --state waiting --time "$r1"
	same_cut "$tag: --state blocked --time $r2" perf "$in" "blocked|$r2" --state blocked --time "$r2"
	# --on-cpu is stackcollapse-perf.pl's collapse without the sched_switch events
	awk 'BEGIN { RS = ""; ORS = "\n\n" } !/sched:sched_switch:/' "$in" >"$TMP/nosched.txt"
	perl "$SC" "$TMP/nosched.txt" | sort >"$TMP/sc.folded"
	"$UF" fold --on-cpu "$in" | grep -v '^#' | sort >"$TMP/on.folded"
	cmp -s "$TMP/sc.folded" "$TMP/on.folded" && [ -s "$TMP/sc.folded" ] &&
		pass "$tag: --on-cpu = stackcollapse-perf.pl without sched_switch ($(wc -l <"$TMP/sc.folded") stacks)" ||
		fail "$tag: --on-cpu vs stackcollapse-perf.pl" "$(diff "$TMP/sc.folded" "$TMP/on.folded" | head -2 | tr '\n' '|')"
	same_pprof "$tag: pprof carries each sample's state and time" perf "$in" "runnable,blocked|0.2-" --state waiting --time 0.2-
}
if [ -z "$SC" ]; then
	skip "perf script states" "no stackcollapse-perf.pl (STACKCOLLAPSE_PERF=...; /work/shared/peers/build-peers.sh)"
else
	python3 "$oracle" gen-perf "$TMP/gen.perf" 11
	perf_cases "perf (generated)" "$TMP/gen.perf" 0.3-1.2 0.5-
	if command -v perf >/dev/null 2>&1 &&
	   perf record -q -e cpu-clock -e sched:sched_switch -g -o "$TMP/perf.data" -- python3 -c '
import threading, time
def w():
    time.sleep(0.2)
    s = 0
    for i in range(300000): s += i * i
ts = [threading.Thread(target=w) for _ in range(3)]
[t.start() for t in ts]
time.sleep(0.3)
s = sum(range(2000000))
[t.join() for t in ts]' >/dev/null 2>"$TMP/rec.err" &&
	   perf script -i "$TMP/perf.data" >"$TMP/real.perf" 2>/dev/null &&
	   [ "$(grep -c 'sched:sched_switch:' "$TMP/real.perf")" -ge 5 ]; then
		perf_cases "perf (real capture)" "$TMP/real.perf" 0.05-0.3 0.1-
	else
		skip "perf (real capture)" "perf cannot record cpu-clock and sched:sched_switch here: $(tail -1 "$TMP/rec.err" 2>/dev/null)"
	fi
fi

# ---- render and diff: the SVG sets waits apart, its metadata counts them --
"$UF" fold --raw "$TMP/t.raw" -o "$TMP/raw.folded" 2>/dev/null
python3 "$oracle" gen-perf "$TMP/g.perf" 5
"$UF" render "$TMP/g.perf" -o "$TMP/g.svg" 2>/dev/null && "$UF" render --on-cpu "$TMP/g.perf" -o "$TMP/g-on.svg" 2>/dev/null
want=$(python3 "$oracle" perf "$TMP/g.perf" "|" "$SC" | python3 -c '
import json, sys
c = {}
for s, w, st, t in json.load(sys.stdin):
    c[st] = c.get(st, 0) + w
print(", ".join("%s %d" % (k, c[k]) for k in ("unknown", "running", "runnable", "blocked", "offline") if k in c))')
grep -qE "states: $want($|<)" "$TMP/g.svg" && grep -q '\[blocked\]' "$TMP/g.svg" && ! grep -q '\[blocked\]\|\[runnable\]\|\[offline\]' "$TMP/g-on.svg" &&
	pass "render: SVG metadata 'states: $want' (the oracle's weights), [blocked] frames; --on-cpu draws none" ||
	fail "render: states" "want 'states: $want': $(grep -o 'states: [^<]*' "$TMP/g.svg")"
"$UF" fold "$TMP/g.svg" | grep -v '^#' | sort >"$TMP/back.folded"
"$UF" fold "$TMP/g.perf" | grep -v '^#' | sort >"$TMP/direct.folded"
cmp -s "$TMP/back.folded" "$TMP/direct.folded" && pass "render: the SVG folds back to the same stacks, state frames included" ||
	fail "render: fold back" "$(diff "$TMP/back.folded" "$TMP/direct.folded" | head -2)"
# a cut of the SVG's timed samples equals the cut of the perf script it
# came from, with no "STACK 0" line for the stacks left out
for cut in "--time 1-2.5" "--time 0.7- --state blocked"; do
	"$UF" fold $cut "$TMP/g.svg" | grep -v '^#' | sort >"$TMP/cut-svg.folded"
	"$UF" fold $cut "$TMP/g.perf" | grep -v '^#' | sort >"$TMP/cut-perf.folded"
	[ -s "$TMP/cut-perf.folded" ] && cmp -s "$TMP/cut-svg.folded" "$TMP/cut-perf.folded" &&
		! grep -q ' 0$' "$TMP/cut-svg.folded" &&
		pass "svg: fold $cut of the SVG equals the perf script's ($(wc -l <"$TMP/cut-perf.folded") stacks, none empty)" ||
		fail "svg: fold $cut" "$(diff "$TMP/cut-svg.folded" "$TMP/cut-perf.folded" | head -3)"
done
"$UF" diff --state waiting "$TMP/g.perf" "$TMP/gen.perf" -o "$TMP/d.svg" 2>"$TMP/err" &&
	"$UF" fold "$TMP/d.svg" | grep -v '^#' >"$TMP/d.folded" && [ -s "$TMP/d.folded" ] &&
	! grep -qv ';\[\(blocked\|runnable\)\] ' "$TMP/d.folded" &&
	pass "diff --state waiting: every drawn stack is a wait" || fail "diff --state" "$(head -1 "$TMP/err")"

# ---- errors -------------------------------------------------------------
printf 'a;b 3\n' >"$TMP/f.folded"
check_err() {
	local name=$1 want_rc=$2 want=$3
	shift 3
	"$UF" "$@" >/dev/null 2>"$TMP/err"
	local rc=$?
	[ "$rc" = "$want_rc" ] && [ "$(wc -l <"$TMP/err")" = 1 ] && grep -q -- "$want" "$TMP/err" &&
		pass "error: $name (exit $rc)" || fail "error: $name" "exit $rc: $(cat "$TMP/err")"
}
check_err "folded input has no times" 2 "this input has no sample times" fold --time 1-2 "$TMP/f.folded"
check_err "folded input without state frames" 2 "this input has no run states (no \\[runnable\\]" fold --state blocked "$TMP/f.folded"
check_err "per-sample states and folded text cut together" 2 "cannot cut inputs with per-sample states and folded" fold --state blocked "$TMP/g.perf" "$TMP/f.folded"
check_err "a cut that keeps nothing" 2 "no samples left by --time/--state" fold --raw --time 1000- "$TMP/t.raw"
check_err "--time 3-1" 1 "'--time': '3-1' is not FROM-TO" fold --time 3-1 "$TMP/t.raw"
check_err "--time abc" 1 "'--time': 'abc' is not FROM-TO" render --time abc "$TMP/t.raw"
check_err "--state sleepy" 1 "'--state': 'sleepy' is not a state" fold --state sleepy "$TMP/t.raw"
check_err "--on-cpu with another --state" 1 "given twice" fold --on-cpu --state blocked "$TMP/t.raw"
exit 0
