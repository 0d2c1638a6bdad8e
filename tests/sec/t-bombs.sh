#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# tests/sec/t-bombs.sh — issue 28 items 2-5: inputs that expand or collide
# must cost memory proportional to the file (or to its unique stacks) and
# time linear in it.  Each bound is measured here (/usr/bin/time %M and %e
# of the release build) with margins for a loaded machine, yet far under
# what main did before the fix (figures in each comment: release build).
source "$(dirname "$0")/../lib.sh"
HERE="$UF_TOP/tests/sec"

# measure NAME CMD...: runs CMD, sets $rc, $secs, $kb (peak RSS), $TMP/err
measure() {
	/usr/bin/time -f '%e %M' -o "$TMP/time" "$@" > "$TMP/out" 2> "$TMP/err"; rc=$?
	read -r secs kb < <(tail -n 1 "$TMP/time") # after "Command exited with..."
}
under() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a <= b) }'; }

"$UF_REL" render "$UF_TOP/tests/data/render/small.folded" -o "$TMP/small.svg" 2>/dev/null
python3 "$HERE/bombs.py" "$TMP" "$TMP/small.svg"

# item 3: 240 MiB of folded text in 0.37 MB of gzip (before: 21 s, 3.3 GB,
# accepted; after: 2.2 s, 18 MB, refused past 128 MiB; RSS is the
# discriminating bound, time only catches a hang)
measure "$UF_REL" fold "$TMP/bomb.folded.gz"
if [ $rc -eq 2 ] && grep -q "bomb.folded.gz: gzip data expands more than 256 times its size" "$TMP/err" &&
	[ "$(wc -l < "$TMP/err")" -eq 1 ] && [ "$kb" -lt 100000 ] && under "$secs" 30; then
	pass "gzip bomb of folded text: exit 2, one line, ${kb} KB, ${secs} s"
else
	fail "gzip bomb of folded text" "rc=$rc ${kb} KB ${secs} s $(head -c 200 "$TMP/err")"
fi
# a gzipped folded file that expands within the cap still reads whole and
# the same as its plain text, past the 1 MiB hold (the rest is streamed)
python3 -c "
import random; r = random.Random(3)
for i in range(300000): print('main;f%d;g%d %d' % (r.randrange(50), r.randrange(2000), r.randrange(9) + 1))" > "$TMP/ok.folded"
gzip -c "$TMP/ok.folded" > "$TMP/ok.folded.gz"
"$UF_REL" fold "$TMP/ok.folded" > "$TMP/ok.want" 2>/dev/null
"$UF_REL" fold "$TMP/ok.folded.gz" > "$TMP/ok.got" 2> "$TMP/err"
cmp -s "$TMP/ok.want" "$TMP/ok.got" && [ -s "$TMP/ok.want" ] &&
	pass "gzipped folded text past the held part reads as its plain text" ||
	fail "gzipped folded text" "$(head -c 200 "$TMP/err")"

# item 3: an SVG with a 300 MiB comment in 0.3 MB of gzip (before: 1.8 s,
# 329 MB; after: 0.07 s, 19 MB, refused past 16 times the compressed bytes)
measure "$UF_REL" fold "$TMP/bomb.svg.gz"
if [ $rc -eq 2 ] && grep -q "bomb.svg.gz: gzipped SVG expands more than 16 times its size" "$TMP/err" &&
	[ "$kb" -lt 80000 ] && under "$secs" 10; then
	pass "gzip bomb of an SVG: exit 2, one line, ${kb} KB, ${secs} s"
else
	fail "gzip bomb of an SVG" "rc=$rc ${kb} KB ${secs} s $(head -c 200 "$TMP/err")"
fi
gzip -c "$TMP/small.svg" > "$TMP/small.svg.gz"
"$UF_REL" fold "$TMP/small.svg" > "$TMP/s.want" 2>/dev/null
"$UF_REL" fold "$TMP/small.svg.gz" > "$TMP/s.got" 2>/dev/null && cmp -s "$TMP/s.want" "$TMP/s.got" &&
	pass "a gzipped SVG within the cap reads as the SVG" || fail "gzipped SVG" "differs"

# item 2: a packed block of 256 MiB of zeros in 0.4 MB (before: 3.7 s,
# 268 MB; after: 0.15 s, 22 MB, refused past 64 times its deflated size)
measure "$UF_REL" fold "$TMP/pk-bomb.svg"
if [ $rc -eq 2 ] && grep -q "packed block inflates more than 64 times its size" "$TMP/err" &&
	[ "$kb" -lt 80000 ] && under "$secs" 10; then
	pass "deflate bomb in the packed block: exit 2, one line, ${kb} KB, ${secs} s"
else
	fail "deflate bomb in the packed block" "rc=$rc ${kb} KB ${secs} s $(head -c 200 "$TMP/err")"
fi

# item 4: 100k names that all collide under a fixed-seed hash, against
# 100k random ones (before: 26 s against 0.18 s; perf lines 75 s against
# 0.2 s; after: 0.08 s and 0.19 s).  Bound: 5x the control + 2 s.
python3 "$HERE/flood.py" folded 100000 > "$TMP/flood.folded"
python3 "$HERE/flood.py" random 100000 > "$TMP/rand.folded"
python3 "$HERE/flood.py" perf 100000 > "$TMP/flood.perf"
measure "$UF_REL" fold "$TMP/rand.folded"; base=$secs
for f in flood.folded:100000 flood.perf:1000; do
	want=${f#*:} f=${f%%:*}
	measure "$UF_REL" fold "$TMP/$f"
	lines=$(grep -c . "$TMP/out")
	if [ $rc -eq 0 ] && [ "$lines" -eq "$want" ] && under "$secs" "$(awk -v b="$base" 'BEGIN { print 5 * b + 2 }')"; then
		pass "hash flood ($f): 100000 names in ${secs} s (random names: ${base} s)"
	else
		fail "hash flood ($f)" "rc=$rc $lines stacks in ${secs} s, random names ${base} s"
	fi
done
# the inputs are real floods: with the key fixed to the old seed (the name
# hash's old start is key 0; perf's, K0 ^ the line length, is key 0x1c)
# 40k folded names and 20k perf stacks cost far more than under the random
# key (measured in session 23: 1.09 s against 0.03 s, 0.79 s against 0.02 s;
# 20k folded names took only 0.24 s, too near the bound, and CI once saw
# 0.23 s), so the checks above can fail.
# The keyed time is the best of three: a run slowed by other work on the
# machine must not make the control look like a flood.
head -n 40000 "$TMP/flood.folded" > "$TMP/f40k"
{ head -n 20200 "$TMP/flood.perf"; echo; } > "$TMP/p20k"
for f in f40k:0 p20k:1c; do
	k=${f#*:} f=${f%%:*}
	keyed=
	for _ in 1 2 3; do
		measure "$UF_REL" fold "$TMP/$f"
		keyed=$(awk -v a="$secs" -v b="$keyed" 'BEGIN { print (b == "" || a + 0 < b + 0) ? a : b }')
	done
	measure env UF_HASH_KEY="$k" "$UF_REL" fold "$TMP/$f"
	under "$(awk -v k="$keyed" 'BEGIN { print 5 * k + 0.2 }')" "$secs" &&
		pass "flood input $f collides under the old fixed seed: ${secs} s against ${keyed} s keyed" ||
		fail "flood input $f is no flood" "${secs} s with UF_HASH_KEY=$k, ${keyed} s keyed"
done
gzip -c "$TMP/flood.folded" > "$TMP/flood.folded.gz"
measure "$UF_REL" render "$TMP/flood.folded.gz" -o "$TMP/flood.svg"
[ $rc -eq 0 ] && under "$secs" "$(awk -v b="$base" 'BEGIN { print 10 * b + 4 }')" &&
	pass "hash flood, gzipped, rendered: ${secs} s" || fail "hash flood rendered" "rc=$rc ${secs} s"

# item 5: pprof of a chain of 1500 frames ending in a binary tree of
# height 13 (before: 108 MB against the folded writer's 9.6 MB; after:
# 9.5 MB).  Bound: the folded writer's RSS + 32 MB.
measure "$UF_REL" fold "$TMP/tree.svg"; fkb=$kb
measure "$UF_REL" fold "$TMP/tree.svg" --format pprof -o "$TMP/tree.pb.gz"
if [ $rc -eq 0 ] && [ "$kb" -lt $((fkb + 32000)) ]; then
	pass "pprof export streams: ${kb} KB (folded writer: ${fkb} KB)"
else
	fail "pprof export memory" "rc=$rc ${kb} KB against ${fkb} KB $(head -c 200 "$TMP/err")"
fi

# pprof strings are UTF-8 (proto3 string): invalid bytes become U+FFFD
printf 'main;bad\xff\xfename;ok\xc3\xa9 3\nmain;\xed\xa0\x80surrogate 1\n' > "$TMP/u.folded"
"$UF" fold "$TMP/u.folded" --format pprof -o "$TMP/u.pb.gz" 2> "$TMP/err"; rc=$?
python3 - "$TMP/u.pb.gz" > "$TMP/u.txt" 2>&1 <<'PY'
import gzip, sys
b = gzip.open(sys.argv[1]).read()
def varint(b, i):
    v = s = 0
    while True:
        c = b[i]; i += 1; v |= (c & 127) << s; s += 7
        if c < 128: return v, i
i = 0
while i < len(b):
    key, i = varint(b, i)
    wt = key & 7
    if wt == 0: _, i = varint(b, i)
    elif wt == 2:
        n, i = varint(b, i)
        if key >> 3 == 6: print(b[i:i + n].decode('utf-8'))   # raises on invalid UTF-8
        i += n
    else: sys.exit('wire type %d' % wt)
PY
prc=$?
if [ $rc -eq 0 ] && [ $prc -eq 0 ] && grep -qx 'bad��name' "$TMP/u.txt" && grep -qx 'oké' "$TMP/u.txt" &&
	grep -qx '���surrogate' "$TMP/u.txt"; then
	pass "pprof strings are valid UTF-8, invalid bytes replaced by U+FFFD"
else
	fail "pprof UTF-8" "rc=$rc prc=$prc $(head -c 300 "$TMP/u.txt") $(head -c 200 "$TMP/err")"
fi
if command -v go > /dev/null; then
	go tool pprof -raw "$TMP/u.pb.gz" > "$TMP/raw" 2> "$TMP/err" && grep -q 'oké' "$TMP/raw" &&
		pass "go tool pprof reads the repaired strings" || fail "go tool pprof" "$(head -c 300 "$TMP/err")"
else
	skip "go tool pprof reads the repaired strings" "go not installed"
fi
