#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# tests/render/t-config.sh — the data-uf-* attributes the browser script
# reads (templates/flamegraph.js: zoom, search, icicle layout) agree with
# the geometry drawn: inverted iff the root is the top row, width and xpad
# as the root frame spans them, frameheight the row pitch, fontsize as
# given, diff iff a differential, and the details line where flamegraph.pl
# puts it.  A wrong one draws zooms upside down or
# off by a row in the browser, where the SVG itself looks right.
. "$(dirname "$0")/../lib.sh"
command -v python3 >/dev/null || { skip render-config "python3 not installed"; exit 0; }
IN="$UF_TOP/tests/data/render/small.folded"
check_cfg() {
	local name=$1 svg=$2 diff=$3 kind=${4:-}
	python3 - "$svg" "$diff" "$kind" <<'PY' && pass "$name" || fail "$name" "see above"
import sys, xml.etree.ElementTree as ET
S = "{http://www.w3.org/2000/svg}"
r = ET.parse(sys.argv[1]).getroot()
a = lambda k: r.get("data-uf-" + k)
rows = {}
for g in r.find(f".//{S}g[@id='frames']").findall(f"{S}g"):
    name = g.find(f"{S}title").text.split("\n")[0].rsplit(" (", 1)[0]
    rect = g.find(f"{S}rect")
    rows[name] = (float(rect.get("y")), float(rect.get("x")), float(rect.get("width")))
ys = sorted({v[0] for v in rows.values()})
root_top = rows["all"][0] == ys[0]
probs = []
if a("inverted") != ("1" if root_top else "0"):
    probs.append(f"data-uf-inverted={a('inverted')} but the root is {'top' if root_top else 'bottom'}")
if abs(float(a("xpad")) - rows["all"][1]) > 1e-6:
    probs.append(f"data-uf-xpad={a('xpad')}, root x={rows['all'][1]}")
if abs(float(a("width")) - float(r.get("width"))) > 1e-6 or \
        abs(float(a("width")) - 2 * rows["all"][1] - rows["all"][2]) > 0.05:
    probs.append(f"data-uf-width={a('width')}, svg width={r.get('width')}, root spans {rows['all'][1:]}")
if abs(float(a("frameheight")) - (ys[1] - ys[0])) > 1e-6:
    probs.append(f"data-uf-frameheight={a('frameheight')}, row pitch {ys[1] - ys[0]}")
# flamegraph.pl's place for the details line: imageheight - ypad2/2,
# ypad2 = fontsize*2 + 10 (a flame graph without pruned-only rows)
if sys.argv[3] == "flame":
    d = r.find(f".//{S}text[@id='details']")
    want = float(r.get("height")) - (2 * float(a("fontsize")) + 10) / 2
    if abs(float(d.get("y")) - want) > 1e-6:
        probs.append(f"details y={d.get('y')}, flamegraph.pl's {want}")
if a("diff") != sys.argv[2]:
    probs.append(f"data-uf-diff={a('diff')}, want {sys.argv[2]}")
for p in probs:
    print("   ", p)
sys.exit(1 if probs else 0)
PY
}
"$UF" render "$IN" -o "$TMP/flame.svg"
check_cfg "config attributes: flame graph" "$TMP/flame.svg" 0 flame
"$UF" render --inverted "$IN" -o "$TMP/icicle.svg"
check_cfg "config attributes: icicle (--inverted)" "$TMP/icicle.svg" 0
"$UF" render --width 800 --height 20 --fontsize 10 "$IN" -o "$TMP/geo.svg"
check_cfg "config attributes: --width 800 --height 20" "$TMP/geo.svg" 0 flame
grep -q 'data-uf-fontsize="10"' "$TMP/geo.svg" && pass "config attributes: --fontsize 10" ||
	fail "config attributes: --fontsize" "$(grep -o 'data-uf-fontsize="[^"]*"' "$TMP/geo.svg")"
"$UF" diff "$IN" "$IN" -o "$TMP/diff.svg" 2>/dev/null
check_cfg "config attributes: differential" "$TMP/diff.svg" 1
