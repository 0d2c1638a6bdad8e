#!/usr/bin/env bash
# Hostile input files (issues 13 and 20): format detection shared by the
# readers and the input splitter, numbers that are not finite, names that
# hold any byte, broken embedded data.  Inputs are generated here.
source "$(dirname "$0")/../lib.sh"
D="$UF_TOP/tests/data/render"

# 1. issue 20 item 4: a big SVG that starts with a newline is one SVG for
#    the splitter too (one detector), never halves of folded text
"$UF" render "$D/small.folded" -o "$TMP/small.svg" 2>/dev/null
"$UF" fold "$TMP/small.svg" > "$TMP/small.want" 2>/dev/null
python3 - "$TMP/small.svg" "$TMP/big.svg" <<'PY'
import sys
svg = open(sys.argv[1], 'rb').read()
svg = svg[svg.index(b'<svg'):]           # no XML declaration: "\n<svg" is well-formed
end = svg.index(b'>', svg.index(b'<svg')) + 1
mib = b'<!--\n' + (b'x' * 1023 + b'\n') * 1023 + b'-->\n'  # libxml2 caps one node at 10 MB
# 34 MiB, past the 32 MiB split size; the folded-looking line sits mid-file
comment = mib * 17 + b'<!--\ninjected;by;comment 999999\n-->\n' + mib * 17
open(sys.argv[2], 'wb').write(b'\n' + svg[:end] + comment + svg[end:])
PY
"$UF" fold "$TMP/big.svg" > "$TMP/big.out" 2> "$TMP/err"; rc=$?
if [ $rc -eq 0 ] && cmp -s "$TMP/big.out" "$TMP/small.want" && ! grep -q injected "$TMP/big.out"; then
	pass "34 MiB SVG after a newline: read as one SVG, comment not a stack"
else
	fail "big SVG after a newline" "rc=$rc $(head -c 300 "$TMP/err") $(grep -c . "$TMP/big.out") lines"
fi
"$UF" diff "$TMP/big.svg" "$TMP/small.svg" -o "$TMP/d.svg" 2> "$TMP/err"; rc=$?
if [ $rc -eq 0 ] && ! grep -q injected "$TMP/d.svg"; then
	pass "diff reads the big SVG as an SVG"
else
	fail "diff of big SVG" "rc=$rc $(head -c 300 "$TMP/err")"
fi
rm -f "$TMP/big.svg"
# 1 MiB of blank bytes before anything: refused, not guessed
{ head -c $((1024 * 1024 + 1)) /dev/zero | tr '\0' '\n'; echo 'a;b 1'; } > "$TMP/blank.folded"
"$UF" fold "$TMP/blank.folded" > /dev/null 2> "$TMP/err"; rc=$?
[ $rc -eq 2 ] && grep -q "^uniprof-flame: $TMP/blank.folded: unknown format: more than 1024 KiB of blank bytes at the start$" "$TMP/err" &&
	pass "endless leading blanks: exit 2, one line" || fail "leading blanks" "rc=$rc $(cat "$TMP/err")"
