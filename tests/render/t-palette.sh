#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# tests/render/t-palette.sh — the python and rust palettes against the rule
# they implement (tests/render/palette-rules.py says the rule and the check);
# the --colors=lib legend; --hash and --colors=lib colours exactly against
# their formulas (written again here); --fonttype's sanitising.
. "$(dirname "$0")/../lib.sh"
command -v python3 >/dev/null || { skip palette-rules "python3 not installed"; exit 0; }
python3 "$UF_TOP/tests/render/palette-rules.py" "$UF" "$TMP"

# --colors=lib: the legend names at most 16 libraries, those with the most
# samples first; a profile with 20 (one function each, f<i> in lib<i> with
# 100+i samples, the libraries given as a recorded SVG carries them).
for i in $(seq 0 19); do echo "main;f$i $((100 + i))"; done > "$TMP/l20.folded"
"$UF" render "$TMP/l20.folded" -o "$TMP/l20.svg"
python3 - "$TMP/l20.svg" "$TMP/l20-libs.svg" <<'PY'
import sys
s = open(sys.argv[1]).read()
libs = "".join(f"f{i}\tlib{i}\n" for i in range(20))
i = s.index('<metadata id="uniprof-flame-data"')
open(sys.argv[2], "w").write(s[:i] + '<metadata id="uniprof-flame-libs">\n' + libs + "</metadata>\n" + s[i:])
PY
"$UF" render --colors=lib "$TMP/l20-libs.svg" -o "$TMP/l20-lib.svg" 2>"$TMP/l20.err"; rc=$?
got=$(grep '<text id="legend"' "$TMP/l20-lib.svg" | grep -o '</tspan> lib[0-9]*' | sed 's/<\/tspan> //' | tr '\n' ' ')
want=$(for i in $(seq 19 -1 4); do printf 'lib%d ' $i; done)
[ $rc -eq 0 ] && [ "$got" = "$want" ] && pass "--colors=lib legend: the 16 libraries with the most samples, most first" ||
	fail "--colors=lib legend of 20 libraries" "rc=$rc got '$got' want '$want' $(head -c 200 "$TMP/l20.err")"

# flamegraph.pl's --hash colours, exactly: v1 = namehash(name), v2 = v3 =
# namehash(reversed name) (its sub namehash, written again here in Python),
# through each palette's formula (hot, mem, io); and --colors=lib's hue per
# library, exactly: FNV-1a of the library's name mod 360, at saturation
# 0.55 and value 0.92 (render/palette.c; README's --colors=lib).
names="main parse_request a zz9 memcpy do_work_0 Q LongFunctionNameWithCaps x86_64_sys_read"
for n in $names; do echo "root;$n 3"; done > "$TMP/hash.folded"
for p in hot mem io; do
	"$UF" render --hash --colors "$p" "$TMP/hash.folded" -o "$TMP/hash-$p.svg" || fail "--hash --colors $p" "render failed"
done
python3 - "$TMP" "$TMP/l20-lib.svg" $names <<'PY' && pass "--hash palettes (hot, mem, io) and --colors=lib hues: the exact colour of every frame" || fail "--hash and lib colours" "see above"
import sys, xml.etree.ElementTree as ET
S = "{http://www.w3.org/2000/svg}"
def fills(path):
    r = ET.parse(path).getroot()
    return {g.find(f"{S}title").text.split(" (")[0]: g.find(f"{S}rect").get("fill")
            for g in r.find(f".//{S}g[@id='frames']").findall(f"{S}g")}
def namehash(name):
    vector, weight, mx, mod = 0.0, 1.0, 1.0, 10
    for c in name:
        vector += (ord(c) % mod / (mod - 1)) * weight
        mod += 1
        mx += weight
        weight *= 0.70
        if mod > 12:
            break
    return 1 - vector / mx
formula = {
    "hot": lambda v1, v2: (205 + int(50 * v2), int(230 * v1), int(55 * v2)),
    "mem": lambda v1, v2: (0, 190 + int(50 * v2), int(210 * v1)),
    "io": lambda v1, v2: (80 + int(60 * v1), 80 + int(60 * v1), 190 + int(55 * v2)),
}
bad = []
for p, f in formula.items():
    got = fills(f"{sys.argv[1]}/hash-{p}.svg")
    for n in sys.argv[3:]:
        want = "rgb(%d,%d,%d)" % f(namehash(n), namehash(n[::-1]))
        if got.get(n) != want:
            bad.append(f"{p} {n}: {got.get(n)} want {want}")
def lib_rgb(lib):
    h = 2166136261
    for b in lib.encode():
        h = ((h ^ b) * 16777619) & 0xFFFFFFFF
    hue, s, v = (h % 360) / 60.0, 0.55, 0.92
    k = int(hue)
    f = hue - k
    p, q, t = v * (1 - s), v * (1 - s * f), v * (1 - s * (1 - f))
    r, g, b = [(v, t, p), (q, v, p), (p, v, t), (p, q, v), (t, p, v), (v, p, q)][k]
    return "rgb(%d,%d,%d)" % (int(r * 255), int(g * 255), int(b * 255))
got = fills(sys.argv[2])
for i in range(20):
    if got.get(f"f{i}") != lib_rgb(f"lib{i}"):
        bad.append(f"lib f{i}: {got.get(f'f{i}')} want {lib_rgb(f'lib{i}')}")
if bad:
    print("\n".join(bad[:5]), file=sys.stderr)
sys.exit(1 if bad else 0)
PY

# --fonttype reaches the style sheet with letters, digits, spaces and - , _
# kept and anything else (CSS syntax) dropped
"$UF" render --fonttype 'Noto Sans Mono 10,x_0-z;}<b' "$TMP/hash.folded" -o "$TMP/font.svg" &&
grep -q 'font-family:Noto Sans Mono 10,x_0-zb;' "$TMP/font.svg" && pass "--fonttype: digits kept, CSS syntax dropped" ||
	fail "--fonttype" "$(grep -o 'font-family:[^;]*' "$TMP/font.svg")"
