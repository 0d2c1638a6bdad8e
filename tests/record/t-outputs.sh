#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# tests/record/t-outputs.sh — render options reach the recorder's SVG:
# --flamechart draws samples in time order (many more frames than the
# merged graph, title "Flame Chart"), --title is used, and -o - writes the
# SVG to stdout.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/lib-record.sh"
need_ptrace outputs

"$UF" -q -F 499 -T 1 --flamechart --per-thread -o "$TMP/chart.svg" --folded "$TMP/chart.folded" \
	-- "$EXAMPLES/app-threads" 2
"$UF" -q -F 499 -T 1 --title 'my run <1>' -o - -- "$EXAMPLES/app-threads" 2 > "$TMP/graph.svg"
chart=$(grep -c '<g' "$TMP/chart.svg"); graph=$(grep -c '<g' "$TMP/graph.svg")
if grep -q 'Flame Chart' "$TMP/chart.svg" && [ "$chart" -gt $((graph * 5)) ]; then
	pass "--flamechart: time order ($chart groups vs $graph merged)"
else
	fail "--flamechart" "$chart groups vs $graph merged"
fi
grep -q 'my run &lt;1&gt;' "$TMP/graph.svg" && pass "--title reaches the SVG, escaped; -o - is stdout" ||
	fail "--title / -o -" "$(head -c 200 "$TMP/graph.svg")"
# the folded output of a flame chart recording still merges identical stacks
dups=$(awk '{ $NF = ""; print }' "$TMP/chart.folded" | sort | uniq -d | wc -l)
[ "$dups" -eq 0 ] && pass "--folded stays merged with --flamechart" || fail "--folded with --flamechart" "$dups duplicate stacks"
# --max-depth caps every stack (frames counted from the leaf; a waiting
# sample's [runnable]/[blocked]/[offline] pseudo-frame is not one of them,
# and on a loaded machine the single thread is runnable now and then)
"$UF" -q -F 499 -T 1 --max-depth 2 --folded "$TMP/d.folded" -- "$EXAMPLES/app-test-1" 2
deep=$(sed -E 's/;\[(runnable|blocked|offline)\] / /' "$TMP/d.folded" |
	awk '{ n = split(substr($0, 1, length($0) - length($NF) - 1), f, ";"); if (n > 2) print }' | wc -l)
[ -s "$TMP/d.folded" ] && [ "$deep" -eq 0 ] && grep -q 'app_test_1_round;function_3 ' "$TMP/d.folded" &&
	pass "--max-depth 2: leaf and its caller only" || fail "--max-depth" "$(head -3 "$TMP/d.folded" | tr '\n' '|')"
exit 0
