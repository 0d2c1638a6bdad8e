#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# tests/record/t-progress.sh — on a terminal, stderr shows a progress line
# (elapsed, samples, rate, missed) redrawn in place; without a terminal
# there is none, only the two summary lines; -q silences both.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/lib-record.sh"
need_ptrace progress
if ! command -v script >/dev/null 2>&1; then
	skip "progress: terminal" "script(1) from util-linux not installed"; exit 0
fi
script -qc "'$UF' -F 99 -T 1.5 --folded '$TMP/a.folded' -- '$EXAMPLES/app-test-1' 2" /dev/null \
	> "$TMP/tty.out" 2>&1
if grep -q $'\r\e\[K[0-9.]* s  [0-9]* samples  [0-9]*/s  [0-9]* missed' "$TMP/tty.out"; then
	pass "progress: redrawn line on a terminal"
else
	fail "progress: terminal" "$(head -c 300 "$TMP/tty.out" | cat -A)"
fi
"$UF" -F 99 -T 0.5 --folded "$TMP/b.folded" -- "$EXAMPLES/app-test-1" 1 2>"$TMP/pipe.err"
if ! grep -q 'samples  ' "$TMP/pipe.err" && [ "$(wc -l < "$TMP/pipe.err")" -ge 2 ] &&
	grep -q 'stopped per sample: median' "$TMP/pipe.err"; then
	pass "progress: none without a terminal, summary only"
else
	fail "progress: not a terminal" "$(cat "$TMP/pipe.err")"
fi
"$UF" -q -F 99 -T 0.5 --folded "$TMP/c.folded" -- "$EXAMPLES/app-test-1" 1 2>"$TMP/q.err"
[ ! -s "$TMP/q.err" ] && pass "progress: -q prints nothing" || fail "progress: -q" "$(cat "$TMP/q.err")"
exit 0
