#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# tests/record/t-accuracy.sh — the thesis accuracy experiment: app-test-1
# and app-test-2 profiled 5 s at 999 Hz; every function's share of the
# samples is within +-3 percentage points of its .truth file, and the
# call chains the truth names appear.  The uniprof thesis measured
# 11.7/26.7/61.6 % for the true 10/30/60 %.  The programs are built -O2
# -fomit-frame-pointer (examples/Makefile): their stacks come from CFI,
# and >= 95 % of the samples must be rooted at _start / main.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/lib-record.sh"
need_ptrace accuracy

for app in app-test-1 app-test-2; do
	out="$TMP/$app"; OUT=$out
	record_truth "$app" "$TRUTH/$app.truth" \
		"$UF" -F 999 -T 5 -o "$out.svg" --folded "$out.folded" -- "$EXAMPLES/$app" 6 \
		2>"$out.err" || continue
	n=$(awk '{ s += $NF } END { print s + 0 }' "$out.folded")
	if [ "$n" -ge 1000 ]; then pass "$app: $n samples"; else fail "$app: samples" "only $n"; fi
	check_rooted "$app" "$out.folded"
	grep -q 'stopped per sample: median' "$out.err" && pass "$app: summary" ||
		fail "$app: summary" "no stop-time line on stderr"
	grep -q '<svg' "$out.svg" && grep -q 'function_' "$out.svg" && pass "$app: svg" ||
		fail "$app: svg" "no flame graph with the function names"
done
exit 0
