#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
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

# 2. issue 13 defect 1: empty, unclosed, self-closing embedded block
NS='xmlns="http://www.w3.org/2000/svg"'
printf '<svg %s><metadata id="uniprof-flame-data"></metadata></svg>' "$NS" > "$TMP/empty.svg"
printf '<svg %s><metadata id="uniprof-flame-data">' "$NS" > "$TMP/unclosed.svg"
printf '<svg %s><metadata id="uniprof-flame-data"/></svg>' "$NS" > "$TMP/selfclosed.svg"
bad=""
for f in empty unclosed selfclosed; do
	for cmd in fold render diff; do
		if [ $cmd = diff ]; then "$UF" diff "$TMP/$f.svg" "$TMP/small.svg" -o "$TMP/o.svg" 2> "$TMP/err"; rc=$?
		else "$UF" $cmd "$TMP/$f.svg" -o "$TMP/o.out" 2> "$TMP/err"; rc=$?; fi
		{ [ $rc -eq 2 ] && [ "$(wc -l < "$TMP/err")" -eq 1 ] && grep -q "^uniprof-flame: $TMP/$f.svg: " "$TMP/err"; } ||
			bad="$bad $cmd/$f:rc=$rc:$(head -c 120 "$TMP/err")"
	done
done
[ -z "$bad" ] && pass "empty/unclosed embedded block: exit 2 with one line (fold, render, diff)" ||
	fail "empty/unclosed embedded block" "$bad"

# 2b. the packed block (fold/embed-pack.c): damaged base64, a cut stream, an
#     unknown encoding, a zlib bomb past 1 GiB: exit 2, one line naming why;
#     the same profile as plain uf-trie/1 text (older files) still reads
python3 - "$TMP/small.svg" "$TMP" <<'PY'
import base64, re, sys, zlib
s = open(sys.argv[1]).read()
m = re.search(r'(<metadata id="uniprof-flame-data"[^>]*>)(.*?)(</metadata>)', s, re.S)
b64 = re.sub(r'<!--.*?-->|\s', '', m.group(2), flags=re.S)
put = lambda name, head, body: open(sys.argv[2] + '/' + name, 'w').write(s[:m.start(1)] + head + body + m.group(3) + s[m.end(3):])
put('pk-star.svg', m.group(1), b64[:8] + '*' + b64[8:])
put('pk-cut.svg', m.group(1), b64[:len(b64) // 8 * 4])
put('pk-enc.svg', m.group(1).replace('pack-deflate-base64', 'brotli'), b64)
z = zlib.compressobj(1)
bomb = z.compress(b'uf-trie/1 1 1 0 0\n\n') + b''.join(z.compress(bytes(1 << 24)) for _ in range(65)) + z.flush()
put('pk-bomb.svg', m.group(1), base64.b64encode(bomb).decode())
u = zlib.decompress(base64.b64decode(b64))    # the plain text, unpacked independently of fold/
nl = u.index(b'\n'); h = u[:nl].split(); nn, n = int(h[1]), int(h[2]); p = nl + 1
for _ in range(nn): p = u.index(b'\n', p) + 1
head, cols = u[:p], []
for _ in range(2):
    col = []
    for _ in range(n):
        v = sh = 0
        while True:
            c = u[p]; p += 1; v |= (c & 127) << sh; sh += 7
            if not c & 128: break
        col.append(v)
    cols.append(col)
rest, lines, prev = u[p:].split(b'\n'), [], -1
for i in range(n):
    prev = prev + 1 - cols[0][i]
    lines.append(b'%d %d %s' % (prev, cols[1][i], rest[i]))
plain = (head + b'\n'.join(lines + rest[n:])).decode()
put('pk-plain.svg', m.group(1).replace(' data-encoding="pack-deflate-base64"', ''), plain)
PY
bad=""
for f in star:"packed block is not base64" cut:"packed block is not a whole deflate stream" \
	 enc:"$TMP/pk-enc.svg: embedded profile data has an unknown encoding" bomb:"packed block inflates more than 64 times its size (a deflate bomb?)"; do
	"$UF" fold "$TMP/pk-${f%%:*}.svg" > /dev/null 2> "$TMP/err"; rc=$?
	{ [ $rc -eq 2 ] && [ "$(wc -l < "$TMP/err")" -eq 1 ] && grep -q "^uniprof-flame: .*${f#*:}$" "$TMP/err"; } ||
		bad="$bad ${f%%:*}:rc=$rc:$(head -c 120 "$TMP/err")"
done
[ -z "$bad" ] && pass "damaged packed block (base64, cut stream, unknown encoding, 1 GiB bomb): exit 2, one line" ||
	fail "damaged packed block" "$bad"
"$UF" fold "$TMP/pk-plain.svg" > "$TMP/pk-plain.out" 2> "$TMP/err" && cmp -s "$TMP/pk-plain.out" "$TMP/small.want" &&
	pass "a plain uf-trie/1 block (files before packing) reads the same profile" ||
	fail "plain block" "$(head -c 200 "$TMP/err")"

# a flamegraph.pl-style SVG (no embedded data) with frames given as ROOT/MAIN/LEAF y and counts
foreign() { # $1 leaf y, $2 leaf count text, $3 leaf x
	printf '<svg %s>\n' "$NS"
	printf '<g><title>all (10 samples, 100%%)</title><rect x="10" y="100" width="1180" height="15"/></g>\n'
	printf '<g><title>main (10 samples, 100%%)</title><rect x="10" y="84" width="1180" height="15"/></g>\n'
	printf '<g><title>work (%s samples, 40%%)</title><rect x="%s" y="%s" width="472" height="15"/></g>\n' "$2" "${3:-10}" "$1"
	printf '</svg>\n'
}
# 3. issue 13 defect 2: y="-1e300" is not converted out of range (UBSan would
#    stop the ASan build); the frame is left out and the warning says so
foreign -1e300 4 > "$TMP/far.svg"
"$UF" fold "$TMP/far.svg" > "$TMP/far.out" 2> "$TMP/err"; rc=$?
if [ $rc -eq 0 ] && [ "$(cat "$TMP/far.out")" = "main 10" ] &&
   grep -q "1 frame without a drawn parent left out" "$TMP/err" && ! grep -q "runtime error" "$TMP/err"; then
	pass "rect y=-1e300: no undefined behaviour, the frame's loss is reported"
else
	fail "rect y=-1e300" "rc=$rc out=$(cat "$TMP/far.out") err=$(cat "$TMP/err")"
fi
foreign 68 4 > "$TMP/near.svg"
"$UF" fold "$TMP/near.svg" > "$TMP/near.out" 2> /dev/null
[ "$(tr '\n' ' ' < "$TMP/near.out")" = "main 6 main;work 4 " ] &&
	pass "foreign SVG frames rebuilt (control for the cases around it)" || fail "foreign SVG control" "$(cat "$TMP/near.out")"

# 4. issue 20 item 3: numbers from files are capped and finite
foreign 68 "$(printf '9%.0s' $(seq 400))" > "$TMP/inf.svg"
for cmd in fold render; do
	"$UF" $cmd "$TMP/inf.svg" > "$TMP/inf.out" 2> "$TMP/err"; rc=$?
	[ $rc -eq 2 ] && grep -q "^uniprof-flame: $TMP/inf.svg: a frame's count has more than 63 digits$" "$TMP/err" &&
		! grep -q nan "$TMP/inf.out" && pass "$cmd: 400-digit count in a <title>: exit 2" ||
		fail "$cmd: 400-digit count" "rc=$rc $(cat "$TMP/err") $(head -c 200 "$TMP/inf.out")"
done
for v in inf 1e999 nan; do
	foreign 68 4 "$v" > "$TMP/nf.svg"
	"$UF" fold "$TMP/nf.svg" > /dev/null 2> "$TMP/err"; rc=$?
	[ $rc -eq 2 ] && grep -q "a frame's x, y or width is not a finite number$" "$TMP/err" &&
		pass "x=\"$v\": exit 2" || fail "x=\"$v\"" "rc=$rc $(cat "$TMP/err")"
done

# 5. issue 13 defect 3 and issue 20 item 5: `fold | fold` is the identity,
#    for every byte a name may hold (names from embedded data, any byte)
roundtrip() { # $1 name; stdin: input; fold twice, compare, check against $2 (expected first output)
	"$UF" fold - > "$TMP/rt1" 2> "$TMP/err" && "$UF" fold "$TMP/rt1" > "$TMP/rt2" 2>> "$TMP/err"
	local rc=$?
	if [ $rc -eq 0 ] && cmp -s "$TMP/rt1" "$TMP/rt2" && [ "$(cat "$TMP/rt1")" = "$2" ]; then
		pass "fold | fold identity: $1"
	else
		fail "fold | fold identity: $1" "rc=$rc first=$(head -c 200 "$TMP/rt1") second=$(head -c 200 "$TMP/rt2") $(cat "$TMP/err")"
	fi
}
printf ';x 2\nx 3\n' | roundtrip "empty first frame" "$(printf ';x 2\nx 3')"
printf 'a;x 5; 3\n' | roundtrip "last frame ending in whitespace and digits" "a;x 5; 3"
printf 'a;x\t7.5; 1\nb;y 2\n' | roundtrip "same, with a tab and a fraction" "$(printf 'a;x\t7.5; 1\nb;y 2')"
big=1$(printf '0%.0s' $(seq 62))                       # 1e62, 63 digits
printf 'a %s\n' "$big" | roundtrip "count of 1e62 (63 digits)" "a $big"
nine=9$(printf '0%.0s' $(seq 62))                     # 9e62: a sum of two needs 64 digits
printf 'a %s\na %s\n' "$nine" "$nine" | "$UF" fold - > /dev/null 2> "$TMP/err"; rc=$?
[ $rc -eq 2 ] && grep -q "a count does not fit in the 63 characters folded text allows$" "$TMP/err" &&
	pass "a sum past 63 digits: refused with exit 2, not written unreadable" || fail "sum past 63 digits" "rc=$rc $(cat "$TMP/err")"
# the injected line of issue 20 item 5, in embedded data
printf '<svg %s><metadata id="uniprof-flame-data">uf-trie/1 3 3 0 0\n\nmain\nwork%%201000000%%0Aforged%%3Bstack%%3Bfrom%%3Bsvg\n0 0 0\n1 1 0\n2 2 10\nend\n</metadata></svg>\n' "$NS" > "$TMP/forge.svg"
"$UF" fold "$TMP/forge.svg" | roundtrip "name with newline and ';' from an SVG" 'main;work 1000000\x0aforged\x3bstack\x3bfrom\x3bsvg 10'
"$UF" render "$TMP/rt1" -o "$TMP/forge2.svg" 2>/dev/null && "$UF" fold "$TMP/forge2.svg" > "$TMP/rt3" &&
	cmp -s "$TMP/rt1" "$TMP/rt3" && pass "escaped name survives folded -> SVG -> folded" ||
	fail "escaped name through SVG" "$(cat "$TMP/rt3")"
out=$("$UF" fold --flamechart "$TMP/forge.svg" 2>&1)
[ "$out" = 'main;work 1000000\x0aforged\x3bstack\x3bfrom\x3bsvg 10' ] &&
	pass "fold --flamechart escapes names by the same rule" || fail "fold --flamechart escape" "$out"
printf 'a;back\\x41slash;lit\\x0a 4\n' | roundtrip "literal \\xHH in names is read as the byte" 'a;backAslash;lit\x0a 4'
# every byte value in a name (except the 0 the shell cannot pass): from an SVG, through fold twice
python3 - "$TMP/bytes.svg" <<'PY'
import sys
names = [bytes([b]) * 2 + b'x' for b in range(1, 256)] + [b'\\x41', b'\\x5c', b'a\\', b'x 5', b'x\t9.']
esc = lambda n: ''.join(chr(c) if 0x21 <= c < 0x7f and chr(c) not in '%<>&"\']' else '%%%02X' % c for c in n)
lines = ['uf-trie/1 %d %d 0 0' % (len(names) + 1, len(names) + 1), ''] + [esc(n) for n in names]
lines += ['0 0 0'] + ['1 %d %d' % (i + 1, i + 1) for i in range(len(names))] + ['end']
svg = '<svg xmlns="http://www.w3.org/2000/svg"><metadata id="uniprof-flame-data">%s\n</metadata></svg>\n' % '\n'.join(lines)
open(sys.argv[1], 'w').write(svg)
PY
"$UF" fold "$TMP/bytes.svg" > "$TMP/b1" 2> "$TMP/err" && "$UF" fold "$TMP/b1" > "$TMP/b2" 2>> "$TMP/err" &&
	"$UF" render --embed=full "$TMP/b1" -o "$TMP/b.svg" 2>> "$TMP/err" && "$UF" fold "$TMP/b.svg" > "$TMP/b3" 2>> "$TMP/err"
rc=$?
if [ $rc -eq 0 ] && cmp -s "$TMP/b1" "$TMP/b2" && cmp -s "$TMP/b1" "$TMP/b3" && [ "$(wc -l < "$TMP/b1")" -eq 260 ]; then
	pass "names with every byte: fold | fold and fold | render | fold are identities (260 stacks)"
else
	fail "names with every byte" "rc=$rc lines=$(wc -l < "$TMP/b1") $(head -c 300 "$TMP/err")"
fi

# 6. issue 13 defect 4: diff reads two SVGs on two threads; libxml2 is
#    initialised once up front, so no leak (was about 1 run in 25 here)
"$UF" render "$D/small.folded" -o "$TMP/d1.svg" 2> /dev/null
printf 'main;a 5\nmain;b 9\nmain;c;d 2\n' | "$UF" render -o "$TMP/d2.svg" 2> /dev/null
leaks=0
for i in $(seq 60); do
	"$UF" diff "$TMP/d1.svg" "$TMP/d2.svg" -o "$TMP/dd.svg" 2> "$TMP/err" || leaks=$((leaks + 1))
done
[ $leaks -eq 0 ] && pass "diff of two SVGs 60 times under ASan: no leak" || fail "diff leak" "$leaks of 60 runs failed: $(head -5 "$TMP/err")"
