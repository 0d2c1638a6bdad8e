#!/usr/bin/env bash
# tests/render/t-palette.sh — the python and rust palettes against the rule
# they implement (tests/render/palette-rules.py says the rule and the check).
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
