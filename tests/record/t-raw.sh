#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# tests/record/t-raw.sh — --raw writes uniprof's raw trace: '#' header
# lines, then per sample and thread a "#sample" line (time, state where
# the target tells it, thread id), one hexadecimal address per line (PC
# first), a count line "1" and an empty line; one block per sample, the
# same number as the folded output counts; addresses symbolize through the
# program's `nm -n` table the way uniprof's symbolize tool does.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/lib-record.sh"
need_ptrace raw

"$UF" -q -F 999 -T 2 --raw "$TMP/t.raw" --folded "$TMP/t.folded" -- "$EXAMPLES/app-test-1" 3
head -1 "$TMP/t.raw" | grep -q '^#unikernel stack tracer' && pass "raw: header" || fail "raw: header"
bad=$(awk 'NR > 2 && !/^(0x[0-9a-f]+|1|)$/ && !/^#sample t_ns=[0-9]+( state=[a-z]+)? thread=[0-9]+$/' "$TMP/t.raw" | head -1)
[ -z "$bad" ] && pass "raw: only #sample lines, addresses, counts and blank lines" || fail "raw: line format" "$bad"
# one #sample line per block, times from 0 never going back, thread ids of the process
awk '/^#sample/ { n++; split($2, a, "="); if (a[2] + 0 < last) back = 1; last = a[2] + 0; if (n == 1) first = a[2] }
	/^1$/ { b++ } END { exit !(n == b && n > 0 && !back && first + 0 < 100000000) }' "$TMP/t.raw" &&
	pass "raw: a #sample line per block, times in order from the first sample" ||
	fail "raw: #sample lines" "$(grep -c '^#sample' "$TMP/t.raw") of $(grep -c '^1$' "$TMP/t.raw") blocks"
blocks=$(grep -c '^1$' "$TMP/t.raw")
n=$(awk '{ s += $NF } END { print s + 0 }' "$TMP/t.folded")
[ "$blocks" -eq "$n" ] && [ "$n" -gt 0 ] && pass "raw: $blocks blocks = folded samples" ||
	fail "raw: block count" "$blocks blocks, $n folded samples"
# every block ends "1" then an empty line
awk 'prev == "1" && $0 != "" { bad = 1 } { prev = $0 } END { exit bad }' "$TMP/t.raw" &&
	pass "raw: blocks end with 1 and an empty line" || fail "raw: block ends"
# leaf PCs symbolize with nm -n (non-PIE: absolute addresses)
nm -n "$EXAMPLES/app-test-1" > "$TMP/syms"
f3=$(awk '$3 == "function_3" { print $1 }' "$TMP/syms")
e3=$(awk -v a="$f3" '$1 ~ /^[0-9a-f]+$/ && $1 > a { print $1; exit }' "$TMP/syms")
hits=$(awk -v lo="$f3" -v hi="$e3" 'BEGIN { blk = 1 }
	blk && /^0x/ { a = substr($0, 3); a = sprintf("%016s", a); gsub(/ /, "0", a); if (a >= lo && a < hi) h++ }
	{ blk = ($0 == "" || (blk && /^#sample/)) } END { print h + 0 }' "$TMP/t.raw")
awk -v h="$hits" -v n="$n" 'BEGIN { exit !(n > 0 && h / n > 0.4 && h / n < 0.8) }' &&
	pass "raw: $hits of $n leaf PCs inside function_3 per nm -n" ||
	fail "raw: leaf PCs" "$hits of $n inside function_3 [$f3,$e3)"
# uniprof-flame fold reads the trace back with the program's symbols: the
# same count per workload function as the recording's own folded output
"$UF" fold --symbols "$EXAMPLES/app-test-1" "$TMP/t.raw" > "$TMP/back.folded" 2>"$TMP/back.err"
ok=1
for fn in function_1 function_2 function_3; do
	a=$(awk -v f=";$fn" 'index($0, f " ") { s += $NF } END { print s + 0 }' "$TMP/t.folded")
	b=$(awk -v f=";$fn" 'index($0, f " ") { s += $NF } END { print s + 0 }' "$TMP/back.folded")
	[ "$a" -eq "$b" ] && [ "$a" -gt 0 ] || { ok=0; fail "raw: fold --symbols $fn" "recorded $a, read back $b"; }
done
[ $ok = 1 ] && pass "raw: fold --symbols reads it back with the same counts"
exit 0
