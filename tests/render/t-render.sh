#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# End-to-end tests of `render` and `fold`: flamegraph.pl compatibility,
# determinism, error handling, escaping, the embedded trie round trip.
source "$(dirname "$0")/../lib.sh"
REF="$SHARED/flamegraph-ref"
D="$UF_TOP/tests/data/render"

# 1. flamegraph.pl's frames for every reference case (the one part that
#    needs the oracle in ../shared; everything below runs on inputs the
#    project generates, with a fixed seed, so a user's clone checks the same)
if [ -f "$REF/cases.tsv" ]; then
	python3 "$UF_TOP/tests/render/compat.py" "$UF" "$REF"
else
	skip "compat" "no ../shared/flamegraph-ref here (it comes with the project's shared folder)"
fi
EX="$TMP/profile.folded"   # 3000 stacks, ~250 KB, ~7400 call paths
python3 "$UF_TOP/tests/gen-profile.py" 7 3000 > "$EX"

# 2. byte-identical across runs and input line orders
"$UF" render "$EX" -o "$TMP/a.svg" 2>/dev/null
"$UF" render "$EX" -o "$TMP/b.svg" 2>/dev/null
shuf --random-source=<(yes) "$EX" > "$TMP/shuffled.folded"
"$UF" render "$TMP/shuffled.folded" -o "$TMP/c.svg" 2>/dev/null
check "deterministic across runs" cmp -s "$TMP/a.svg" "$TMP/b.svg"
check "deterministic across input line orders" cmp -s "$TMP/a.svg" "$TMP/c.svg"

# 3. stdin, "-", and -o -
"$UF" render < "$EX" > "$TMP/d.svg" 2>/dev/null
check "stdin in, stdout out" cmp -s "$TMP/a.svg" "$TMP/d.svg"
"$UF" render - -o - < "$EX" > "$TMP/e.svg" 2>/dev/null
check "'-' in, -o - out" cmp -s "$TMP/a.svg" "$TMP/e.svg"

# 4. invalid lines: skipped, reported once with a count and the first FILE:LINE
printf 'a;b 1\nnot a stack\na;c 2\n\nbad count x\na;b 3\n' > "$TMP/mixed.folded"
"$UF" render "$TMP/mixed.folded" -o "$TMP/mixed.svg" 2> "$TMP/err"; rc=$?
if [ $rc -eq 0 ] && [ "$(wc -l < "$TMP/err")" -eq 1 ] &&
   grep -q "skipped 2 invalid lines (first at $TMP/mixed.folded:2)" "$TMP/err"; then
	pass "bad lines reported once with count and first FILE:LINE"
else
	fail "bad lines reported once" "rc=$rc stderr=$(cat "$TMP/err")"
fi
grep -q '<title>a (6 samples, 100.00%)</title>' "$TMP/mixed.svg" &&
	pass "valid lines of a mixed file are drawn" || fail "valid lines drawn" "a should have 6 samples"

# 5. no valid input: exit 2, one line, an existing OUT untouched
echo "keep me" > "$TMP/out.svg"
printf 'garbage\nmore garbage\n' | "$UF" render -o "$TMP/out.svg" 2> "$TMP/err"; rc=$?
if [ $rc -eq 2 ] && grep -q '^uniprof-flame: .*: no valid stacks (2 invalid lines, the first at <stdin>:1)$' "$TMP/err" &&
   [ "$(wc -l < "$TMP/err")" -eq 1 ] &&
   [ "$(cat "$TMP/out.svg")" = "keep me" ] && [ -z "$(ls "$TMP" | grep 'out.svg.tmp')" ]; then
	pass "no valid input: exit 2, one-line error, output untouched"
else
	fail "no valid input" "rc=$rc err=$(cat "$TMP/err") out=$(head -c 20 "$TMP/out.svg")"
fi
"$UF" render /nonexistent/x.folded -o "$TMP/x.svg" 2> "$TMP/err"; rc=$?
[ $rc -eq 2 ] && grep -q "^uniprof-flame: /nonexistent/x.folded: cannot open: no such file or directory$" "$TMP/err" &&
	pass "missing input: exit 2 with the path" || fail "missing input" "rc=$rc $(cat "$TMP/err")"
"$UF" render "$EX" -o /nonexistent/dir/x.svg 2> "$TMP/err"; rc=$?
[ $rc -eq 2 ] && grep -q "^uniprof-flame: /nonexistent/dir/x.svg: cannot create output" "$TMP/err" &&
	pass "unwritable output: exit 2" || fail "unwritable output" "rc=$rc $(cat "$TMP/err")"

# 6. usage errors: exit 1
"$UF" render --no-such-option "$EX" >/dev/null 2>&1; r1=$?
"$UF" render --colors nosuch "$EX" >/dev/null 2>&1; r2=$?
"$UF" render --width abc "$EX" >/dev/null 2>&1; r3=$?
"$UF" render --minwidth -1 "$EX" >/dev/null 2>&1; r4=$?
[ "$r1$r2$r3$r4" = 1111 ] && pass "unknown options and bad values exit 1" || fail "usage errors" "got $r1 $r2 $r3 $r4"
"$UF" render --help > "$TMP/help"; rc=$?
missing=""
for o in title subtitle width height minwidth fonttype fontsize fontwidth countname nametype colors \
	 bgcolors hash random cp reverse inverted flamechart negate factor total notes nameattr embed; do
	grep -q -- "--$o" "$TMP/help" || missing="$missing $o"
done
[ $rc -eq 0 ] && [ -z "$missing" ] && pass "--help lists every option" || fail "--help" "missing:$missing"

# 7. hostile names: every byte, </script>, ]]>: well-formed, no script, lossless fold
python3 - "$TMP/hostile.folded" <<'PY'
import sys
lines = []
for b in range(256):
    if b in (10, 59):  # newline and ';' cannot be in a frame name
        continue
    lines.append(b"main;byte_" + bytes([b]) + b"_end 1")
lines.append(b"main;</script><script>alert(1)</script> 2")
lines.append(b"main;]]><x>;&amp;<!-- 3")
lines.append(b"main;\xff\xfe invalid utf8 \xc3( 4")
lines.append(b'main;" onload="alert(1) 5')
open(sys.argv[1], "wb").write(b"\n".join(lines) + b"\n")
PY
"$UF" render "$TMP/hostile.folded" -o "$TMP/hostile.svg" 2> "$TMP/err"; rc=$?
if [ $rc -eq 0 ] && xmllint --noout "$TMP/hostile.svg" 2>> "$TMP/err"; then
	pass "hostile names: SVG is well-formed XML"
else
	fail "hostile names well-formed" "rc=$rc $(head -3 "$TMP/err")"
fi
n=$(grep -o '<script[^>]*>' "$TMP/hostile.svg" | tr '\n' ' ')
[ "$n" = '<script type="application/x-uniprof-flame" id="uf-code"> <script type="text/ecmascript"> ' ] &&
	pass "hostile names: exactly our two script elements (the code block, its loader)" || fail "script count" "$n"
"$UF" fold "$TMP/hostile.svg" -o "$TMP/hostile.back" && "$UF" fold "$TMP/hostile.folded" -o "$TMP/hostile.sorted" &&
	cmp -s "$TMP/hostile.back" "$TMP/hostile.sorted" &&
	pass "hostile names survive the SVG round trip byte for byte" || fail "hostile round trip" "differs"

# 8. fold: merge, sort, deduplicate; SVG round trip; fractional counts kept
printf 'b;c 1\na 2\nb;c 3\n' > "$TMP/f1"; printf 'a 1.5\nb 1\n' > "$TMP/f2"
"$UF" fold "$TMP/f1" "$TMP/f2" > "$TMP/merged"
printf 'a 3.5\nb 1\nb;c 4\n' > "$TMP/want"
check "fold merges, sorts, deduplicates, keeps fractions" cmp -s "$TMP/merged" "$TMP/want"
"$UF" fold "$TMP/a.svg" > "$TMP/back.folded"
"$UF" fold "$EX" > "$TMP/orig.folded"
check "render -> fold recovers the exact folded input" cmp -s "$TMP/back.folded" "$TMP/orig.folded"
python3 "$UF_TOP/tests/gen-profile.py" 3 500 --fractional > "$TMP/fractional.folded"
"$UF" render "$TMP/fractional.folded" -o "$TMP/fr.svg" && "$UF" fold "$TMP/fr.svg" > "$TMP/fr.back"
"$UF" fold "$TMP/fractional.folded" > "$TMP/fr.want"
grep -q '\.[0-9]' "$TMP/fr.want" && check "fractional counts survive the SVG round trip" cmp -s "$TMP/fr.back" "$TMP/fr.want" ||
	fail "fractional counts" "the generated input has no fractions"


# 9. embedded data budget and --embed=none
"$UF" render --embed-budget 2048 "$EX" -o "$TMP/small.svg" 2> "$TMP/err"
if grep -q 'embedded profile data pruned' "$TMP/err" && grep -q 'the embedded profile was pruned' "$TMP/small.svg"; then
	pass "embed budget: pruning said on stderr and in the file"
else
	fail "embed budget" "$(cat "$TMP/err")"
fi
t1=$("$UF" fold "$TMP/small.svg" 2>/dev/null | awk '{s+=$NF} END {print s}')
t0=$(awk '{s+=$NF} END {print s}' "$TMP/orig.folded")
[ "$t1" = "$t0" ] && pass "pruned embed keeps the total ($t0)" || fail "pruned embed total" "$t1 != $t0"
"$UF" render --embed=none "$EX" -o "$TMP/none.svg"
"$UF" fold "$TMP/none.svg" > "$TMP/none.folded" 2> "$TMP/err"; rc=$?
if [ $rc -eq 0 ] && grep -q 'approximate: no embedded profile data: rebuilt from' "$TMP/err"; then
	pass "--embed=none: fold rebuilds from the drawn frames and says it is approximate"
else
	fail "--embed=none" "rc=$rc $(cat "$TMP/err")"
fi

# 10. honest pruning: narrow children become one grey box per parent
python3 -c "
print('main;big 100000')
for i in range(200): print(f'main;tiny_{i:03d} 1')
" > "$TMP/prune.folded"
"$UF" render "$TMP/prune.folded" -o "$TMP/prune.svg"
if grep -q '<g class="pruned">' "$TMP/prune.svg" && grep -q '<title>200 frames pruned (200 samples, 0.20%)</title>' "$TMP/prune.svg"; then
	pass "pruned children: one grey aggregate with frame and sample counts"
else
	fail "pruned aggregate" "$(grep -A1 'class="pruned"' "$TMP/prune.svg" | head -3)"
fi
[ "$(grep -c '<title>tiny_' "$TMP/prune.svg")" -eq 0 ] && pass "pruned children are not drawn" || fail "pruned drawn" ""

# 11. --cp writes a palette map that the next run honours
( cd "$TMP" && "$UF" render --cp "$D/small.folded" -o cp1.svg && sed -i 's/^a->.*/a->rgb(1,2,3)/' palette.map &&
  "$UF" render --cp "$D/small.folded" -o cp2.svg )
grep -q 'fill="rgb(1,2,3)"' "$TMP/cp2.svg" && grep -q '^main->rgb(' "$TMP/palette.map" &&
	pass "--cp reads and updates palette.map" || fail "--cp" "$(cat "$TMP/palette.map" 2>/dev/null)"

# 12. icicle: frames top-down, header inside the view
"$UF" render --inverted --subtitle sub "$D/small.folded" -o "$TMP/ice.svg"
python3 - "$TMP/ice.svg" <<'PY' && pass "icicle: root at the top, title/subtitle/details inside the view" || fail "icicle" ""
import sys, xml.etree.ElementTree as ET
S = "{http://www.w3.org/2000/svg}"
r = ET.parse(sys.argv[1]).getroot()
vb = [float(v) for v in r.get("viewBox").split()]
ys = {}
for g in r.find(f".//{S}g[@id='frames']").findall(f"{S}g"):
    ys[g.find(f"{S}title").text.split(" (")[0]] = float(g.find(f"{S}rect").get("y"))
assert ys["all"] < ys["main"] < ys["c"], ys
for tid in ("title", "subtitle", "details"):
    t = r.find(f".//{S}text[@id='{tid}']")
    y = float(t.get("y"))
    assert vb[1] <= y <= vb[1] + vb[3], (tid, y, vb)
    if tid != "details":
        assert y < ys["all"], (tid, y)
PY

# 13. -o to a non-regular file (/dev/null, a FIFO) writes in place, never replaces it
mkfifo "$TMP/fifo"
( cat "$TMP/fifo" > "$TMP/from-fifo" ) &
"$UF" render "$D/small.folded" -o "$TMP/fifo"; rc=$?
wait
if [ $rc -eq 0 ] && [ -p "$TMP/fifo" ] && grep -q '</svg>' "$TMP/from-fifo"; then
	pass "-o FIFO: written through the pipe, the FIFO stays a FIFO"
else
	fail "-o FIFO" "rc=$rc"
fi

# 14. a binary file is refused, never drawn from its strings (issue 31 item 4):
#     /bin/ls has help-text lines ending in a number that read as stacks
for bin in /bin/ls "$UF"; do
	"$UF" render "$bin" -o "$TMP/bin.svg" 2>"$TMP/err"; rc=$?
	if [ $rc -eq 2 ] && [ ! -e "$TMP/bin.svg" ] && [ "$(wc -l <"$TMP/err")" -eq 1 ] &&
	   grep -q "binary file, not folded text" "$TMP/err"; then
		pass "binary input $(basename "$bin"): exit 2, 'binary file, not folded text'"
	else
		fail "binary input $(basename "$bin")" "rc=$rc: $(head -c 300 "$TMP/err")"
	fi
	rm -f "$TMP/bin.svg"
done
# the same gzipped through stdin, and a first stack line with a NUL and no count
gzip -c /bin/ls | "$UF" render -o "$TMP/bin.svg" 2>"$TMP/err"; rc=$?
[ $rc -eq 2 ] && grep -q "binary file" "$TMP/err" && pass "binary input gzipped on stdin: exit 2" ||
	fail "binary input gzipped on stdin" "rc=$rc: $(head -c 300 "$TMP/err")"
printf '# a comment\nmain;a\0b\nmain 3\n' | "$UF" fold - >/dev/null 2>"$TMP/err"; rc=$?
[ $rc -eq 2 ] && grep -q "binary file" "$TMP/err" && pass "a NUL in a first line with no count: exit 2" ||
	fail "a NUL in a first line with no count" "rc=$rc: $(head -c 300 "$TMP/err")"
