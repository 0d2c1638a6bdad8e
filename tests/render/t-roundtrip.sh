#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# What an SVG carries back, and what render says about what it leaves out:
# a --flamechart SVG keeps its time order through render --flamechart and
# fold --flamechart (and plain fold says it merged); --nameattr event
# handlers are refused with a warning.
source "$(dirname "$0")/../lib.sh"
F="$TMP/chart.folded"
printf 'main;a 1\nmain;b 1\nmain;a 1\nmain;b 1\nidle 2\nmain;a 1\n' > "$F"
frames() { grep -o '<title>[^<]*</title><rect x="[0-9.]*"' "$1" | sort; }
"$UF" render --flamechart "$F" -o "$TMP/c1.svg" 2>/dev/null
"$UF" render --flamechart "$TMP/c1.svg" -o "$TMP/c2.svg" 2>"$TMP/err"
n1=$(grep -c '<rect x=' "$TMP/c1.svg"); n2=$(grep -c '<rect x=' "$TMP/c2.svg")
[ -s "$TMP/c2.svg" ] && [ "$(frames "$TMP/c1.svg")" = "$(frames "$TMP/c2.svg")" ] && [ ! -s "$TMP/err" ] &&
	pass "flamechart SVG read back by render --flamechart: same $n1 rects, same places" ||
	fail "flamechart round trip" "$n1 rects then $n2: $(cat "$TMP/err")"
"$UF" fold --flamechart "$TMP/c1.svg" > "$TMP/c1.folded" 2>"$TMP/err"
[ "$(cat "$TMP/c1.folded")" = "$(cat "$F")" ] && [ ! -s "$TMP/err" ] &&
	pass "fold --flamechart of a flamechart SVG: the input lines in time order" ||
	fail "fold --flamechart" "$(tr '\n' '|' < "$TMP/c1.folded") $(cat "$TMP/err")"
"$UF" fold "$TMP/c1.svg" > "$TMP/merged.folded" 2>"$TMP/err"
[ "$(cat "$TMP/merged.folded")" = "$(printf 'idle 2\nmain;a 3\nmain;b 2')" ] &&
	grep -q "c1.svg: a flame chart: its time order is kept only with --flamechart" "$TMP/err" &&
	pass "plain fold of a flamechart SVG merges and says the order was not kept" ||
	fail "plain fold of a flamechart SVG" "$(tr '\n' '|' < "$TMP/merged.folded") $(cat "$TMP/err")"
"$UF" render --flamechart --embed-budget 1024 "$TMP/c1.svg" -o "$TMP/c3.svg" 2>/dev/null &&
	[ "$(frames "$TMP/c1.svg")" = "$(frames "$TMP/c3.svg")" ] &&
	pass "time order survives a second embed" || fail "time order survives a second embed"
# a flame chart whose embed is pruned still keeps its order (runs of the
# kept ancestors)
awk 'BEGIN { for (i = 0; i < 3000; i++) printf "main;f%d;g%d %d\nmain;h 1\n", i % 50, i, 1 + i % 3 }' > "$TMP/big.folded"
"$UF" render --flamechart --embed-budget 4096 "$TMP/big.folded" -o "$TMP/big.svg" 2>/dev/null
"$UF" fold --flamechart "$TMP/big.svg" 2>/dev/null | head -4 > "$TMP/big.head"
[ "$(sed -n 2p "$TMP/big.head" | cut -d' ' -f1)" = "main;h" ] &&
	[ "$(sed -n 4p "$TMP/big.head" | cut -d' ' -f1)" = "main;h" ] &&
	pass "pruned flamechart embed: order kept through the kept ancestors" ||
	fail "pruned flamechart embed" "$(tr '\n' '|' < "$TMP/big.head")"

# --nameattr: refused attributes are said, once
printf 'main\tonclick=alert(1)\thref=javascript:x\tclass=ok\n' > "$TMP/attrs"
"$UF" render --nameattr "$TMP/attrs" "$F" -o "$TMP/a.svg" 2>"$TMP/err"; rc=$?
if [ $rc -eq 0 ] && [ "$(wc -l < "$TMP/err")" -eq 1 ] &&
	grep -q "^uniprof-flame: warning: --nameattr: refused attribute 'onclick'" "$TMP/err" &&
	! grep -qi '<g [^>]*\(onclick\|javascript:\)' "$TMP/a.svg" && grep -q '<g [^>]*class="ok"' "$TMP/a.svg"; then
	pass "--nameattr: event handler and javascript: refused with one warning, the rest kept"
else
	fail "--nameattr refusal" "rc=$rc $(cat "$TMP/err")"
fi

# --embed=none: the grey "N frames pruned" box is not read back as a
# function; its samples stay in the parent's self time (totals kept)
{ echo 'main;big 100000'; for i in $(seq 1 300); do echo "main;small$i 1"; done; } > "$TMP/pr.folded"
"$UF" render --embed=none "$TMP/pr.folded" -o "$TMP/pr.svg" 2>/dev/null
"$UF" fold "$TMP/pr.svg" > "$TMP/pr.back" 2>/dev/null
if grep -q 'class="pruned"' "$TMP/pr.svg" && ! grep -q 'pruned' "$TMP/pr.back" &&
	[ "$(cat "$TMP/pr.back")" = "$(printf 'main 300\nmain;big 100000')" ]; then
	pass "pruned box of an --embed=none SVG reads back as its parent's self time"
else
	fail "pruned box read back" "$(tr '\n' '|' < "$TMP/pr.back")"
fi

# The block's two deflated halves (columns of 256 KiB or more) joined into
# one zlib stream whose Adler-32 combines the halves' with the second
# half's length, len - len/2 (issue 31 item 11): with an odd column length
# len/2 differs, and zlib, our reader and the browser all refuse the block.
# A profile with an odd column length >= 256 KiB: zlib checks the checksum
# (independently of our reader), then ours reads it back.
python3 - "$UF" "$TMP" "$UF_TOP/tests/gen-profile.py" <<'PY' >"$TMP/odd.out" 2>&1
import base64, re, subprocess, sys, zlib
uf, tmp, gen = sys.argv[1:4]
for n in range(22000, 22010):
    src = subprocess.run(["python3", gen, "5", str(n)], capture_output=True, check=True).stdout
    open(tmp + "/odd.folded", "wb").write(src)
    subprocess.run([uf, "render", tmp + "/odd.folded", "-o", tmp + "/odd.svg"], check=True)
    s = open(tmp + "/odd.svg", "rb").read().decode("latin1")
    m = re.search(r'<metadata id="uniprof-flame-data"([^>]*)>(.*?)</metadata>', s, re.S)
    body = re.sub(r'<!--.*?-->', '', m.group(2), flags=re.S)
    z = base64.b64decode(re.sub(r'\s', '', body))
    d = zlib.decompressobj()
    cols = d.decompress(z)
    if len(cols) % 2 == 1 and len(cols) >= 256 << 10:
        zlib.decompress(z)  # raises on a wrong Adler-32
        print("odd", len(cols))
        sys.exit(0)
print("no odd column length found")
sys.exit(1)
PY
rc=$?
if [ $rc -eq 0 ] && "$UF" fold "$TMP/odd.svg" -o "$TMP/odd.back" 2>"$TMP/odd.err" &&
   "$UF" fold "$TMP/odd.folded" -o "$TMP/odd.want" && cmp -s "$TMP/odd.back" "$TMP/odd.want"; then
	pass "two-half block, odd column length ($(cut -d' ' -f2 "$TMP/odd.out") bytes): zlib's checksum holds, reads back"
else
	fail "two-half block, odd column length" "$(tail -1 "$TMP/odd.out") $(head -c 200 "$TMP/odd.err" 2>/dev/null)"
fi
