#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# tests/diff/t-legend.sh — a differential's legend tells the truth: the
# "grew" and "shrank" swatches are the colours of the frames whose change
# is the largest (full scale), for both scales (red-blue and cb).  Here a
# grows by exactly as much as b shrinks, so both are at full scale.
. "$(dirname "$0")/../lib.sh"
command -v python3 >/dev/null || { skip diff-legend "python3 not installed"; exit 0; }
printf 'm;a 10\nm;b 10\n' > "$TMP/before.folded"
printf 'm;a 15\nm;b 5\n' > "$TMP/after.folded"
for pal in red-blue cb; do
	"$UF" diff --palette $pal "$TMP/before.folded" "$TMP/after.folded" -o "$TMP/d.svg" 2> "$TMP/err"
	python3 - "$TMP/d.svg" <<'PY' && pass "diff legend ($pal): swatches are the full-scale frame colours" ||
import sys, xml.etree.ElementTree as ET
S = "{http://www.w3.org/2000/svg}"
r = ET.parse(sys.argv[1]).getroot()
legend = r.find(f".//{S}g[@id='legend']")
sw = {t.text: rc.get("fill") for rc, t in zip(legend.findall(f"{S}rect"), legend.findall(f"{S}text"))}
fill = {}
for g in r.find(f".//{S}g[@id='frames']").findall(f"{S}g"):
    fill[g.find(f"{S}title").text.split("\n")[0].rsplit(" (", 1)[0]] = g.find(f"{S}rect").get("fill")
ok = sw.get("grew") == fill["a"] and sw.get("shrank") == fill["b"] and fill["a"] != fill["b"]
if not ok:
    print(f"    legend {sw}, frames a={fill['a']} b={fill['b']}")
sys.exit(0 if ok else 1)
PY
		fail "diff legend ($pal)" "$(cat "$TMP/err")"
done

# The legend lists what the colours can mean here, no more: "new"/"gone"
# only with --delta=total (self deltas colour those as grew/shrank), the
# grey "below min-delta" swatch only when --min-delta is set (0.5: under 1).
legend() { sed -n '/<g id="legend">/,/<\/g>/p' "$1" | grep -o '<text[^>]*>[^<(]*</text>' | sed 's/<[^>]*>//g' | tr '\n' ',' ; }
"$UF" diff "$TMP/before.folded" "$TMP/after.folded" -o "$TMP/l1.svg" 2>/dev/null
"$UF" diff --min-delta 0.5 "$TMP/before.folded" "$TMP/after.folded" -o "$TMP/l2.svg" 2>/dev/null
"$UF" diff --delta=self --min-delta 0.5 "$TMP/before.folded" "$TMP/after.folded" -o "$TMP/l3.svg" 2>/dev/null
got="$(legend "$TMP/l1.svg")|$(legend "$TMP/l2.svg")|$(legend "$TMP/l3.svg")"
want="grew,shrank,new,gone,|grew,shrank,new,gone,below min-delta,|grew,shrank,"
[ "$got" = "$want" ] && pass "diff legend: swatches for the colours the options allow" ||
	fail "diff legend: swatches" "got '$got' want '$want'"
