#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# tests/record/t-signals.sh — Ctrl-C (SIGINT) or SIGTERM in the middle of a
# recording: the outputs are still written, the exit status is 0, and the
# target keeps running, no longer traced and not stopped.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/lib-record.sh"
need_ptrace signals

for sig in INT TERM; do
	start_bg "$EXAMPLES/app-test-1" 30 || { fail "SIG$sig: start target"; continue; }
	target=$BG_PID
	"$UF" -F 999 -o "$TMP/$sig.svg" --folded "$TMP/$sig.folded" -p "$target" 2>"$TMP/$sig.err" &
	uf=$!
	sleep 3
	kill -"$sig" "$uf"
	wait "$uf"; rc=$?
	[ "$rc" -eq 0 ] && pass "SIG$sig: exit 0" || fail "SIG$sig: exit status" "$rc: $(tail -1 "$TMP/$sig.err")"
	if grep -q '<svg' "$TMP/$sig.svg" 2>/dev/null && grep -q function_3 "$TMP/$sig.svg"; then
		pass "SIG$sig: SVG written"
	else
		fail "SIG$sig: SVG written" "missing or without samples"
	fi
	n=$(awk '{ s += $NF } END { print s + 0 }' "$TMP/$sig.folded" 2>/dev/null)
	[ "${n:-0}" -ge 20 ] && pass "SIG$sig: $n samples kept" || fail "SIG$sig: samples kept" "${n:-0}"
	sleep 0.2
	st=$(proc_state "$target")
	tracer=$(awk '/^TracerPid:/ { print $2 }' "/proc/$target/status" 2>/dev/null)
	if [ "$st" = R ] || [ "$st" = S ] && [ "$tracer" = 0 ]; then
		pass "SIG$sig: target still running (state $st), detached"
	else
		fail "SIG$sig: target state" "state $st, TracerPid $tracer"
	fi
	# it really runs: its CPU time keeps growing
	a=$(awk '{ print $14 }' "/proc/$target/stat" 2>/dev/null); sleep 0.3
	b=$(awk '{ print $14 }' "/proc/$target/stat" 2>/dev/null)
	[ -n "$a" ] && [ "$b" -gt "$a" ] && pass "SIG$sig: target makes progress" ||
		fail "SIG$sig: target makes progress" "utime $a -> $b"
	kill "$target" 2>/dev/null; wait "$target" 2>/dev/null
done
exit 0
