#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# tests/render/t-minwidth.sh — pruning exactly at --minwidth, in pixels and
# in percent: flamegraph.pl drops a frame only when it is narrower
# (`if (($etime-$stime) < $minwidth_time)`), so a frame exactly at the
# limit is drawn and one a hair below is not.  The cases are chosen so the
# limit is exact in binary floating point (0.5 px per sample), plus one
# (0.3 % of 1000) where the order of the arithmetic matters; the expected
# frame sets are what flamegraph.pl draws for the same input and options.
. "$(dirname "$0")/../lib.sh"
command -v python3 >/dev/null || { skip minwidth "python3 not installed"; exit 0; }
printf 'main;big 197\nmain;edge 2\nmain;under 1\n' > "$TMP/b1.folded"
printf 'main;big 994\nmain;edge 3\nmain;under 2.99\n' > "$TMP/b2.folded"
printf 'main;big 197\nmain;edge;deeper 2\nmain;under 1\n' > "$TMP/b3.folded"

# frames NAME INPUT OPTS... : the drawn frame names (pruned aggregates not
# counted), sorted, on one line
frames() {
	local in=$1; shift
	"$UF" render "$@" "$in" -o "$TMP/o.svg" 2> "$TMP/err" || { echo "exit $?: $(cat "$TMP/err")"; return; }
	python3 - "$TMP/o.svg" <<'EOF'
import os, sys
sys.path.insert(0, os.environ["UF_TOP"] + "/tests/render")
from compat import our_frames
print(" ".join(sorted(f[5] for f in our_frames(sys.argv[1]))))
EOF
}
export UF_TOP

expect() {
	local name=$1 want=$2; shift 2
	local got
	got=$(frames "$@")
	[ "$got" = "$want" ] && pass "$name" || fail "$name" "frames '$got', want '$want'"
}

# 120 px wide: 100 px for 200 samples, 0.5 px a sample; 1 px = 2 samples
expect "minwidth 1 px: a frame of exactly 1 px is kept, 0.5 px pruned" \
	"all big edge main" "$TMP/b1.folded" --width 120 --minwidth 1
expect "minwidth 1 px: a frame's children at exactly 1 px are kept too" \
	"all big deeper edge main" "$TMP/b3.folded" --width 120 --minwidth 1
expect "minwidth 1.01 px: the 1 px frame is pruned" \
	"all big main" "$TMP/b1.folded" --width 120 --minwidth 1.01
expect "minwidth 1 %: a frame of exactly 1 % is kept, 0.5 % pruned" \
	"all big edge main" "$TMP/b1.folded" --minwidth 1%
expect "minwidth 0.3 % of 1000 samples: 3 samples kept, 2.99 pruned" \
	"all big edge main" "$TMP/b2.folded" --minwidth 0.3%
expect "minwidth 0: nothing pruned" \
	"all big edge main under" "$TMP/b1.folded" --width 120 --minwidth 0

# diff: the before layer (shown by the script) is pruned by the same rule
# (it is written when a frame is gone: "under" is not in AFTER)
printf 'main;big 198\nmain;edge 2\n' > "$TMP/b1-after.folded"
"$UF" diff --minwidth 1% "$TMP/b1.folded" "$TMP/b1-after.folded" -o "$TMP/d.svg" 2> "$TMP/err"
got=$(python3 - "$TMP/d.svg" <<'EOF2'
import sys, xml.etree.ElementTree as ET
S = "{http://www.w3.org/2000/svg}"
g = ET.parse(sys.argv[1]).getroot().find(f".//{S}g[@id='frames-before']")
print(" ".join(sorted(x.find(f"{S}title").text.split("\n")[0].rsplit(" (", 1)[0]
                      for x in g.findall(f"{S}g") if x.get("class") != "pruned")))
EOF2
)
[ "$got" = "all big edge main" ] && pass "minwidth 1 % in a diff's before layer: exactly 1 % kept" ||
	fail "minwidth in a diff's before layer" "frames '$got': $(cat "$TMP/err")"
