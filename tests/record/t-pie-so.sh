#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# tests/record/t-pie-so.sh — names resolve in a position-independent
# executable (load bias from /proc/PID/maps) and in a shared library, both
# when the program is started by us and when we attach to it with -p.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/lib-record.sh"
need_ptrace pie-so

for app in app-test-1-pie app-test-1-so; do
	out="$TMP/$app"; OUT=$out
	record_truth "$app" "$TRUTH/app-test-1.truth" \
		"$UF" -q -F 999 -T 4 --folded "$out.folded" -- "$EXAMPLES/$app" 5 || continue
	# attach to a running copy
	start_bg "$EXAMPLES/$app" 4 || { fail "$app -p: start"; continue; }
	if "$UF" -q -F 499 -T 1 --folded "$out.p.folded" -p "$BG_PID" &&
		has_chain "$out.p.folded" "main;app_test_1_round;function_3"; then
		pass "$app -p: main;app_test_1_round;function_3 resolved"
	else
		fail "$app -p: names" "$(head -3 "$out.p.folded" 2>/dev/null | tr '\n' '|')"
	fi
	kill "$BG_PID" 2>/dev/null; wait "$BG_PID" 2>/dev/null
done
# --addrs: a stripped program's frames name their module and file offset
# instead of [unknown]
cp "$EXAMPLES/app-test-1-pie" "$TMP/stripped-app"; strip --strip-all "$TMP/stripped-app"
"$UF" -q -F 999 -T 1 --folded "$TMP/plain.folded" -- "$TMP/stripped-app" 2
"$UF" -q -F 999 -T 1 --addrs --folded "$TMP/addrs.folded" -- "$TMP/stripped-app" 2
if grep -q '\[unknown\]' "$TMP/plain.folded" && ! grep -q '\[unknown\]' "$TMP/addrs.folded" &&
	grep -q 'stripped-app+0x[0-9a-f]' "$TMP/addrs.folded"; then
	pass "--addrs: module+0xoffset instead of [unknown]"
else
	fail "--addrs" "$(head -2 "$TMP/addrs.folded" | tr '\n' '|')"
fi
# -x: a stripped program symbolized with its unstripped twin
"$UF" -q -F 999 -T 1 -x "$EXAMPLES/app-test-1-pie" --folded "$TMP/x.folded" -- "$TMP/stripped-app" 2
has_chain "$TMP/x.folded" "main;app_test_1_round;function_2" &&
	pass "-x: stripped program resolves through -x ELF" ||
	fail "-x: stripped program" "$(head -2 "$TMP/x.folded" | tr '\n' '|')"
exit 0
