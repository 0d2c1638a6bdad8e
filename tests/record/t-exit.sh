#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
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

# -- PROGRAM returns the program's status (as perf record does), once the
# outputs are written: while sampling, after -T (waited for), by a signal
"$UF" -F 99 -T 10 --folded "$TMP/false.folded" -- sh -c '"$1" 1; exit 7' sh "$EXAMPLES/app-test-1" \
	2>"$TMP/false.err"
rc=$?
[ "$rc" -eq 7 ] && [ -s "$TMP/false.folded" ] && grep -q 'exited with status 7' "$TMP/false.err" &&
	pass "spawn: the program's status 7 is reported and returned, outputs written" ||
	fail "spawn: program's status" "exit $rc: $(tail -1 "$TMP/false.err")"
"$UF" -F 99 -T 0.5 --folded "$TMP/late9.folded" -- sh -c '"$1" 1; exit 9' sh "$EXAMPLES/app-test-1" \
	2>"$TMP/late9.err"
rc=$?
[ "$rc" -eq 9 ] && [ -s "$TMP/late9.folded" ] && grep -q 'waiting for' "$TMP/late9.err" &&
	grep -q 'exited with status 9' "$TMP/late9.err" &&
	pass "spawn, -T over: waited for, status 9 reported and returned" ||
	fail "spawn, -T over: status" "exit $rc: $(tr '\n' '|' < "$TMP/late9.err")"
"$UF" -q -F 99 -T 10 --folded "$TMP/usr1.folded" -- sh -c '"$1" 1; kill -USR1 $$' sh "$EXAMPLES/app-test-1"
rc=$?
[ "$rc" -eq 138 ] && pass "spawn: killed by SIGUSR1 returns 128+10" || fail "spawn: killed by a signal" "exit $rc"
"$UF" -q -F 99 -o /nonexistent/dir/x.svg -- sh -c 'exit 5' 2>/dev/null; rc=$?
[ "$rc" -eq 2 ] && pass "spawn: our own error (2) wins over the program's status" ||
	fail "spawn: our error wins" "exit $rc"

# -o -: the profile owns stdout, the program's output goes to stderr; with
# the profile in a file the program keeps the terminal's stdout
"$UF" -q -F 199 -o - -- sh -c 'echo hello-from-prog; "$1" 1' sh "$EXAMPLES/app-test-1" \
	>"$TMP/stdout.svg" 2>"$TMP/stdout.err"
# (the command line, quoted in the SVG's metadata, names the text: skip it)
if xmllint --noout "$TMP/stdout.svg" 2>/dev/null &&
	! sed '/<metadata id="uniprof-flame-meta">/,/<\/metadata>/d' "$TMP/stdout.svg" | grep -q hello-from-prog &&
	grep -q hello-from-prog "$TMP/stdout.err"; then
	pass "-o - with -- PROGRAM: valid SVG on stdout, the program's output on stderr"
else
	fail "-o - with -- PROGRAM" "$(head -c 200 "$TMP/stdout.svg" | tr '\n' '|')"
fi
"$UF" -q -F 199 --folded "$TMP/f.folded" -- sh -c 'echo hello-from-prog; "$1" 1' sh "$EXAMPLES/app-test-1" \
	>"$TMP/prog.out" 2>/dev/null
[ "$(cat "$TMP/prog.out")" = hello-from-prog ] && pass "profile in a file: the program keeps stdout" ||
	fail "profile in a file: program's stdout" "$(head -2 "$TMP/prog.out")"

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

# a program that ends at once is still sampled: it is held at its first
# instruction until the tables exist, and that is its first sample
"$UF" -q -T 1 --folded "$TMP/none.folded" -- true 2>"$TMP/none.err"; rc=$?
n=$(awk '{ n += $NF } END { print n + 0 }' "$TMP/none.folded" 2>/dev/null)
[ "$rc" -eq 0 ] && [ "${n:-0}" -ge 1 ] && pass "-- true: sampled at its first instruction ($n sample), exit 0" ||
	fail "-- true sampled" "exit $rc, ${n:-no} samples: $(cat "$TMP/none.err")"
exit 0
