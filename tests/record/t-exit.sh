#!/usr/bin/env bash
# tests/record/t-exit.sh — the target ends before -T: spawned (profiled
# until it exits, its exit status reported) and attached with -p (the
# process exits mid-run); both still write their outputs.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/lib-record.sh"
need_ptrace exit

start=$(date +%s.%N)
"$UF" -F 999 -T 20 -o "$TMP/spawn.svg" --folded "$TMP/spawn.folded" -- "$EXAMPLES/app-test-1" 1 \
	2>"$TMP/spawn.err"; rc=$?
took=$(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }')
[ "$rc" -eq 0 ] && pass "spawn: exit 0" || fail "spawn: exit status" "$rc: $(tail -1 "$TMP/spawn.err")"
awk -v t="$took" 'BEGIN { exit !(t < 6) }' && pass "spawn: ended with the program (${took}s)" ||
	fail "spawn: ended with the program" "took ${took}s"
grep -q 'exited with status 0' "$TMP/spawn.err" && pass "spawn: exit status reported" ||
	fail "spawn: exit status reported" "$(cat "$TMP/spawn.err")"
grep -q function_3 "$TMP/spawn.svg" && pass "spawn: SVG written" || fail "spawn: SVG written"

# -T shorter than the program: outputs are written, then the recorder
# waits for its child instead of leaving it running behind the shell
start=$(date +%s.%N)
"$UF" -F 99 -T 0.3 --folded "$TMP/short.folded" -- "$EXAMPLES/app-test-1" 2 2>"$TMP/short.err"
took=$(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }')
if awk -v t="$took" 'BEGIN { exit !(t >= 1.9) }' && [ -s "$TMP/short.folded" ] &&
	grep -q 'waiting for' "$TMP/short.err" && ! pgrep -f "$EXAMPLES/app-test-1 2\$" >/dev/null; then
	pass "spawn, -T over: waits for the program (${took}s), no stray process"
else
	fail "spawn, -T over" "took ${took}s: $(tail -1 "$TMP/short.err")"
fi

# a program that exits with a status
"$UF" -q -F 99 -T 10 --folded "$TMP/false.folded" -- sh -c '"$1" 1; exit 7' sh "$EXAMPLES/app-test-1"
rc=$?
[ "$rc" -eq 0 ] && [ -s "$TMP/false.folded" ] && pass "spawn: program's own status does not fail the recording" ||
	fail "spawn: nonzero program" "exit $rc"

start_bg "$EXAMPLES/app-test-2" 3 || fail "attach: start"
"$UF" -F 999 -T 20 -o "$TMP/attach.svg" --folded "$TMP/attach.folded" -p "$BG_PID" 2>"$TMP/attach.err"
rc=$?
wait "$BG_PID"; trc=$?
[ "$rc" -eq 0 ] && pass "attach, target exits: exit 0" || fail "attach, target exits" "exit $rc: $(tail -1 "$TMP/attach.err")"
[ "$trc" -eq 0 ] && pass "attach: target's own exit status intact" || fail "attach: target exit status" "$trc"
grep -q t2_function_4 "$TMP/attach.folded" && grep -q '<svg' "$TMP/attach.svg" &&
	pass "attach, target exits: outputs written" || fail "attach, target exits: outputs"

# a signal sent to the traced target is passed on (not swallowed by the
# tracer): SIGTERM kills it mid-run, and the recording says so
start_bg "$EXAMPLES/app-test-1" 30 || fail "signal: start"
"$UF" -F 499 -T 20 --folded "$TMP/killed.folded" -p "$BG_PID" 2>"$TMP/killed.err" & uf=$!
sleep 1.5
kill -TERM "$BG_PID"
wait "$uf"; rc=$?
wait "$BG_PID"; trc=$?
[ "$trc" -eq 143 ] && pass "signal to target passed on (killed by SIGTERM)" ||
	fail "signal to target passed on" "target status $trc"
[ "$rc" -eq 0 ] && [ -s "$TMP/killed.folded" ] && pass "signal: recording ends, output written" ||
	fail "signal: recording" "exit $rc: $(tail -1 "$TMP/killed.err")"

# a target that is gone before the first sample: exit 3
"$UF" -q -T 1 --folded "$TMP/none.folded" -- true 2>"$TMP/none.err"; rc=$?
[ "$rc" -eq 3 ] && grep -q 'no samples' "$TMP/none.err" && pass "no sample at all: exit 3" ||
	fail "no sample at all" "exit $rc: $(cat "$TMP/none.err")"
exit 0
