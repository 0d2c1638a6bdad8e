#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# tests/record/t-lines.sh — source positions of recorded frames, on
# app-lines (-O2, no frame pointers: lines_hot() spends 6 units on one
# line and 3 on another).  Line numbers come from the source's
# UF-LINE:NAME marker comments, never from the program under test.
#   tooltips: the hot leaf's title names its hottest line first with its
#             share of the frame's samples, the caller names its call site;
#             a render of the SVG writes the same bytes (the positions ride
#             in the embedded data); folded text carries no positions
#   --lines:  frames 'FUNC FILE:LINE' with the true shares (+-3 points);
#             with --inline each inlined level has its own line; without
#             DWARF a warning, exit 0, plain function frames
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/lib-record.sh"
need_ptrace lines
APP="$EXAMPLES/app-lines"
SRC="$UF_TOP/examples/linux/app-lines.c"
[ -x "$APP" ] || { skip lines "app-lines not built (make examples)"; exit 0; }
mark() { grep -n "/\* UF-LINE:$1 \*/" "$SRC" | cut -d: -f1; }
LA=$(mark hot-a) LB=$(mark hot-b) LO=$(mark other) LC=$(mark call-hot) LD=$(mark call-other)

# title TEXT of the drawn frame NAME with the most samples (all lines, '|' between)
title() {
	awk -v n="$2" 'BEGIN { RS = "</title>" } { i = index($0, "<title>"); if (!i) next
	  t = substr($0, i + 7); if (index(t, n " (") != 1) next
	  c = substr(t, length(n) + 3); sub(/ .*/, "", c); gsub(/,/, "", c)
	  if (c + 0 > best) { best = c + 0; bt = t } } END { gsub(/\n/, "|", bt); print bt }' "$1"
}
# the share of POS on frame NAME's source line ("" when absent)
pos_pct() {
	title "$1" "$2" | sed -n "s/.*|source: \(.*\)/\1/p" | tr ',' '\n' |
		sed -n "s/^ *$3 (\([0-9]*\)%).*/\1/p"
}

OUT="$TMP/rec"
"$UF" -F 499 -T 2 -o "$OUT.svg" --folded "$OUT.folded" -- "$APP" 2.5 2>"$TMP/err" ||
	{ fail "lines: record" "exit $? $(tail -2 "$TMP/err")"; exit 0; }
t=$(title "$OUT.svg" lines_hot)
first=$(echo "$t" | sed -n 's/.*|source: \([^ ]*\) .*/\1/p')
pa=$(pos_pct "$OUT.svg" lines_hot "app-lines.c:$LA") pb=$(pos_pct "$OUT.svg" lines_hot "app-lines.c:$LB")
[ "$first" = "app-lines.c:$LA" ] && within "$pa" 67 6 && within "$pb" 33 6 &&
	pass "lines: the hot leaf's tooltip: app-lines.c:$LA ($pa%), app-lines.c:$LB ($pb%)" ||
	fail "lines: hot leaf tooltip" "want app-lines.c:$LA ~67% then :$LB ~33%: $t"
pc=$(pos_pct "$OUT.svg" main "app-lines.c:$LC") pd=$(pos_pct "$OUT.svg" main "app-lines.c:$LD")
within "$pc" 90 5 && within "$pd" 10 5 &&
	pass "lines: the caller's tooltip: call sites app-lines.c:$LC ($pc%), :$LD ($pd%)" ||
	fail "lines: caller tooltip" "want call sites :$LC ~90%, :$LD ~10%: $(title "$OUT.svg" main)"
[ "$(pos_pct "$OUT.svg" lines_other "app-lines.c:$LO")" = 100 ] &&
	pass "lines: a one-line leaf: app-lines.c:$LO (100%)" ||
	fail "lines: lines_other" "$(title "$OUT.svg" lines_other)"
"$UF" render "$OUT.svg" -o "$TMP/re.svg" 2>/dev/null && "$UF" render "$TMP/re.svg" -o "$TMP/re2.svg" 2>/dev/null
cmp -s "$OUT.svg" "$TMP/re.svg" && cmp -s "$TMP/re.svg" "$TMP/re2.svg" &&
	pass "lines: render of the recorded SVG writes the same bytes (positions in the embedded data)" ||
	fail "lines: SVG round trip" "$(diff "$OUT.svg" "$TMP/re.svg" | head -4 | tr '\n' '|')"
python3 "$UF_TOP/tests/embedded-text.py" "$OUT.svg" | grep -q '^pos [0-9]* [0-9]*$' &&
	pass "lines: the embedded data has a pos section" ||
	fail "lines: pos section" "missing"
"$UF" render --embed=none "$OUT.svg" -o "$TMP/none.svg" 2>/dev/null
[ "$(title "$TMP/none.svg" lines_hot)" = "$t" ] && ! python3 "$UF_TOP/tests/embedded-text.py" "$TMP/none.svg" > /dev/null &&
	pass "lines: --embed=none keeps the tooltips (the text, not the data)" ||
	fail "lines: --embed=none" "$(title "$TMP/none.svg" lines_hot)"
"$UF" fold "$OUT.svg" | grep -v '^#' | cmp -s - "$OUT.folded" && ! grep -q 'app-lines\.c' "$OUT.folded" &&
	pass "lines: folded text carries no positions (fold of the SVG equals --folded)" ||
	fail "lines: folded" "$(head -3 "$OUT.folded")"

# --lines: frames by line, against the truth with the marker lines filled in
sed -e "s/@hot-a@/$LA/g; s/@hot-b@/$LB/g; s/@other@/$LO/g; s/@call-hot@/$LC/g; s/@call-other@/$LD/g" \
	"$TRUTH/app-lines.truth" >"$TMP/lines.truth"
OUT="$TMP/byline"
record_truth "lines: --lines" "$TMP/lines.truth" \
	"$UF" -F 499 -T 3 --lines -o "$OUT.svg" --folded "$OUT.folded" -- "$APP" 3.5 2>/dev/null
"$UF" fold "$OUT.svg" | grep -v '^#' | cmp -s - "$OUT.folded" &&
	pass "lines: --lines: the SVG keeps the line frames" || fail "lines: --lines SVG" "fold differs"

# --lines in time order (a flame chart): no split pass needed, so allowed
"$UF" -F 299 -T 1 --lines --flamechart -o "$TMP/fc.svg" -- "$APP" 1.5 2>"$TMP/fc.err"; rc=$?
[ $rc -eq 0 ] && grep -q "^<title>lines_hot app-lines.c:$LA (" "$TMP/fc.svg" &&
	pass "lines: --lines --flamechart: line frames in time order" ||
	fail "lines: --lines --flamechart" "rc=$rc $(tail -1 "$TMP/fc.err")"

# --lines --inline: the inlined function at its own line, its caller at the call site
INL="$EXAMPLES/app-inline" ISRC="$UF_TOP/examples/linux/app-inline.c"
if [ -x "$INL" ]; then
	li=$(grep -n 'UF_BURN(units);' "$ISRC" | cut -d: -f1) lc=$(grep -n 'mix(6);' "$ISRC" | cut -d: -f1)
	lo=$(grep -n -A2 'void other(void)' "$ISRC" | sed -n 's/^\([0-9]*\)-.*UF_BURN(2);.*/\1/p')
	printf '%s\t60\tself\t%s\n%s\t20\tself\t%s\n' "mix app-inline.c:${li}_[i]" \
		"pipeline app-inline.c:$lc;mix app-inline.c:${li}_[i]" "other app-inline.c:$lo" \
		"other app-inline.c:$lo" >"$TMP/inl.truth"
	OUT="$TMP/il"
	record_truth "lines: --lines --inline" "$TMP/inl.truth" \
		"$UF" -F 299 -T 3 --lines --inline --folded "$OUT.folded" -- "$INL" 3.5 2>/dev/null
	# without --inline, mix's code counts at pipeline's call site: a line of pipeline's own
	lp=$(grep -n -A2 'void pipeline(void)' "$ISRC" | sed -n 's/^\([0-9]*\)-.*UF_BURN(2);.*/\1/p')
	printf '%s\t60\tself\t%s\n%s\t20\tself\t%s\n' "pipeline app-inline.c:$lc" "main app-inline.c:$(grep -n '^		pipeline();' "$ISRC" | cut -d: -f1);pipeline app-inline.c:$lc" \
		"pipeline app-inline.c:$lp" "pipeline app-inline.c:$lp" >"$TMP/noinl.truth"
	OUT="$TMP/noinl"
	record_truth "lines: --lines without --inline" "$TMP/noinl.truth" \
		"$UF" -F 299 -T 3 --lines --folded "$OUT.folded" -- "$INL" 3.5 2>/dev/null
else
	skip "lines: --lines --inline" "app-inline not built"
fi

# without DWARF: a warning, exit 0, frames are functions
objcopy --strip-debug "$APP" "$TMP/app-nodebug"
"$UF" -F 199 -T 1 --lines -o "$TMP/nd.svg" --folded "$TMP/nd.folded" -- "$TMP/app-nodebug" 1.5 2>"$TMP/nd.err"; rc=$?
[ $rc -eq 0 ] && grep -q '^uniprof-flame: warning: --lines: no frame has a source line (no DWARF line table' "$TMP/nd.err" &&
	grep -q ';lines_hot [0-9]' "$TMP/nd.folded" && ! grep -q '|source: ' <(title "$TMP/nd.svg" lines_hot) &&
	pass "lines: no DWARF: a warning, exit 0, function frames, no source line" ||
	fail "lines: no DWARF" "rc=$rc $(grep warning "$TMP/nd.err") $(head -2 "$TMP/nd.folded")"
"$UF" -F 199 -T 1 -o "$TMP/nd2.svg" -- "$TMP/app-nodebug" 1.5 2>"$TMP/nd2.err"
! grep -q 'warning' "$TMP/nd2.err" && pass "lines: no DWARF without --lines: no warning" ||
	fail "lines: no DWARF, no --lines" "$(grep warning "$TMP/nd2.err")"
"$UF" render --lines "$OUT.svg" -o "$TMP/x.svg" 2>"$TMP/re.err"; rc=$?
[ $rc -eq 1 ] && grep -q "'--lines': unknown option" "$TMP/re.err" &&
	pass "lines: --lines is record's (render: a usage error)" || fail "lines: render --lines" "rc=$rc $(cat "$TMP/re.err")"
