#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# tests/record/t-unwind.sh — CFI unwinding of real programs (issue 10):
#   app-leaf   -O1 -fno-omit-frame-pointer with a frameless leaf: alpha /
#              beta / gamma_ 10/30/60 % above spin (a frame-pointer walk
#              loses them: checked too, so the test sees the difference)
#   app-qsort  -O2 -fomit-frame-pointer, cmp_items called back from inside
#              libc's qsort: whole chain main;...;sort_round;<libc>;cmp_items
#   app-test-1-fp  --unwind=fp on a frame-pointer build: right shares, but
#              incomplete (libc has no frame pointers); auto completes them
#   app-test-1 --unwind=fp on the -O2 build: the summary must not call its
#              short walks complete; --unwind=cfi gives the truth
#   --unwind=bogus: usage error
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/lib-record.sh"
need_ptrace unwind

out="$TMP/leaf"; OUT=$out
record_truth app-leaf "$TRUTH/app-leaf.truth" \
	"$UF" -F 999 -T 4 --folded "$out.folded" -- "$EXAMPLES/app-leaf" 5 2>"$out.err" &&
	check_rooted app-leaf "$out.folded"
"$UF" -q -F 999 -T 2 --unwind=fp --folded "$TMP/leaf-fp.folded" -- "$EXAMPLES/app-leaf" 3
a=$(share "$TMP/leaf-fp.folded" alpha total); g=$(share "$TMP/leaf-fp.folded" gamma_ total)
if awk -v a="$a" -v g="$g" 'BEGIN { exit !(a + g < 10) }' && has_chain "$TMP/leaf-fp.folded" "leaf_round;spin"; then
	pass "app-leaf --unwind=fp: the frameless leaf hides its caller (alpha $a%, gamma_ $g%)"
else
	fail "app-leaf --unwind=fp" "alpha $a% gamma_ $g%: the FP walk should not see them"
fi

out="$TMP/qsort"; OUT=$out
record_truth app-qsort "$TRUTH/app-qsort.truth" \
	"$UF" -F 999 -T 4 --folded "$out.folded" -- "$EXAMPLES/app-qsort" 5 2>"$out.err" &&
	check_rooted app-qsort "$out.folded"
# every cmp_items stack goes up through libc (a frame between sort_round
# and cmp_items) to main
through=$(awk '{ n = $NF; s = substr($0, 1, length($0) - length(n) - 1)
	if (s !~ /;cmp_items$/) next; t += n
	if (s ~ /;main;app_qsort_round;sort_round;[^;]+(;[^;]+)*;cmp_items$/) h += n }
	END { if (t) printf "%d", 100 * h / t; else print 0 }' "$out.folded")
[ "$through" -ge 95 ] && pass "app-qsort: $through% of cmp_items stacks run main;...;sort_round;<libc>;cmp_items" ||
	fail "app-qsort: chain through libc" "$through%: $(grep cmp_items "$out.folded" | head -2 | tr '\n' '|')"
pct=$(complete_pct "$out.err")
[ "${pct:-0}" -ge 95 ] && pass "app-qsort: $pct% of walks complete" || fail "app-qsort: complete walks" "$pct%"

out="$TMP/fp"; OUT=$out
record_truth "app-test-1-fp --unwind=fp" "$TRUTH/app-test-1.truth" \
	"$UF" -F 999 -T 3 --unwind=fp --folded "$out.folded" -- "$EXAMPLES/app-test-1-fp" 4 2>"$out.err"
# libc has no frame pointers: the walk cannot get past __libc_start_call_main
# and must say so; auto mode completes the same stacks through libc's CFI
pct=$(complete_pct "$out.err")
grep -q 'walks (--unwind=fp)' "$out.err" && [ "${pct:-100}" -le 20 ] &&
	pass "app-test-1-fp --unwind=fp: $pct% complete (libc has no frame pointers)" ||
	fail "app-test-1-fp --unwind=fp: complete" "$pct%"
"$UF" -F 999 -T 2 --folded "$TMP/fpauto.folded" -- "$EXAMPLES/app-test-1-fp" 3 2>"$TMP/fpauto.err"
pct=$(complete_pct "$TMP/fpauto.err")
[ "${pct:-0}" -ge 95 ] && pass "app-test-1-fp auto: $pct% complete" ||
	fail "app-test-1-fp auto: complete" "$pct%"
check_rooted "app-test-1-fp auto" "$TMP/fpauto.folded"

"$UF" -F 499 -T 2 --unwind=fp --folded "$TMP/nofp.folded" -- "$EXAMPLES/app-test-1" 3 2>"$TMP/nofp.err"
pct=$(complete_pct "$TMP/nofp.err")
[ "${pct:-100}" -le 20 ] && pass "app-test-1 -O2 --unwind=fp: only $pct% called complete" ||
	fail "app-test-1 -O2 --unwind=fp: complete" "$pct% of one-frame walks called complete"

out="$TMP/cfi"; OUT=$out
record_truth "app-test-1 --unwind=cfi" "$TRUTH/app-test-1.truth" \
	"$UF" -F 999 -T 3 --unwind=cfi --folded "$out.folded" -- "$EXAMPLES/app-test-1" 4 2>"$out.err" &&
	check_rooted "app-test-1 --unwind=cfi" "$out.folded"

"$UF" --unwind=dwarf -o "$TMP/x.svg" -- /bin/true 2>"$TMP/bad.err"; rc=$?
[ $rc -eq 1 ] && grep -q "^uniprof-flame: .*--unwind: 'dwarf' is not auto, cfi or fp" "$TMP/bad.err" &&
	pass "--unwind=dwarf: usage error" || fail "--unwind=dwarf" "exit $rc: $(cat "$TMP/bad.err")"
exit 0
