#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# End-to-end tests of `diff` and of reading SVGs back: flamegraph.pl's
# differential colours, round trips, foreign SVGs, hostile XML.
source "$(dirname "$0")/../lib.sh"
REF="$SHARED/flamegraph-ref"
D="$UF_TOP/tests/data/render"

# 1. flamegraph.pl's two differential cases, in --delta=self mode
if [ -f "$REF/inputs/diff-two-columns.folded" ]; then
	awk '{ $NF = ""; sub(/ +$/, ""); print }' "$REF/inputs/diff-two-columns.folded" > "$TMP/before.folded"
	awk '{ n = $NF; $NF = ""; sub(/ +$/, ""); sub(/ [0-9.]+$/, ""); print $0, n }' \
		"$REF/inputs/diff-two-columns.folded" > "$TMP/after.folded"
	"$UF" diff --delta=self "$TMP/before.folded" "$TMP/after.folded" -o "$TMP/d.svg" &&
	"$UF" diff --delta=self --negate "$TMP/after.folded" "$TMP/before.folded" -o "$TMP/dn.svg"
	python3 - "$TMP" "$REF/expected" "$UF_TOP/tests/render" <<'PY'
import sys
sys.path.insert(0, sys.argv[3])
import compat
for svg, case in (("d.svg", "diff"), ("dn.svg", "diff-negate")):
    probs = compat.compare(compat.our_frames(f"{sys.argv[1]}/{svg}"),
                           compat.expected_frames(f"{sys.argv[2]}/{case}.tsv"), True)
    if probs:
        print(f"FAIL: diff --delta=self matches flamegraph.pl case {case}: {probs[:3]}")
    else:
        print(f"PASS: diff --delta=self matches flamegraph.pl case {case}")
PY
else
	skip "flamegraph.pl differential cases" "no ../shared/flamegraph-ref here"
fi

# Two runs of a known profile: parse grows, gc disappears, jit is new.
printf 'main;parse;lex 10\nmain;parse;ast 20\nmain;eval 30\nmain;gc 5\n' > "$TMP/b.folded"
printf 'main;parse;lex 12\nmain;parse;ast 60\nmain;eval 30\nmain;jit 8\n' > "$TMP/a.folded"

# 2. total-change colouring: a parent that grew only through its children is red
"$UF" diff "$TMP/b.folded" "$TMP/a.folded" -o "$TMP/t.svg" 2> "$TMP/err"; rc=$?
python3 - "$TMP/t.svg" <<'PY' && pass "diff: grown parent red, new purple, unchanged white, gone kept in the BEFORE layer" || fail "diff colours" "see above"
import sys, xml.etree.ElementTree as ET
S = "{http://www.w3.org/2000/svg}"
r = ET.parse(sys.argv[1]).getroot()
def frames(gid):
    out = {}
    for g in r.find(f".//{S}g[@id='{gid}']").findall(f"{S}g"):
        if g.get("class") == "pruned":
            continue
        t = g.find(f"{S}title").text
        out[t.split(" (")[0]] = (t, g.find(f"{S}rect").get("fill"))
    return out
a, b = frames("frames"), frames("frames-before")
def rgb(s):
    return tuple(int(v) for v in s[4:-1].split(","))
assert a["main"][1] == "rgb(255,0,0)", a["main"]                   # grew the most (65 -> 110)
p = rgb(a["parse"][1])                                              # grew through its child: red too
assert p[0] == 255 and p[1] < 40 and p[1] == p[2], p
assert a["eval"][1] == "rgb(255,255,255)", a["eval"]               # unchanged
assert a["jit"][1] == "rgb(190,110,250)", a["jit"]                  # new
assert "gc" not in a and b["gc"][1] == "rgb(110,190,110)", b.get("gc")  # gone: in the BEFORE layer
assert "total 30 \u2192 72" in a["parse"][0], a["parse"][0]
assert "self 0 \u2192 8 (new)" in a["jit"][0], a["jit"][0]
assert r.find(f".//{S}g[@id='legend']") is not None
PY
[ $rc -eq 0 ] || fail "diff exit status" "rc=$rc $(cat "$TMP/err")"

# 3. diff of two SVGs equals diff of their folded sources
"$UF" render "$TMP/b.folded" -o "$TMP/b.svg" && "$UF" render "$TMP/a.folded" -o "$TMP/a.svg"
"$UF" diff "$TMP/b.svg" "$TMP/a.svg" -o "$TMP/t2.svg"
check "diff of SVGs == diff of their folded sources (byte for byte)" cmp -s "$TMP/t.svg" "$TMP/t2.svg"

# 4. the differential round trip: diff SVG -> fold -> the three-column folded
"$UF" fold "$TMP/t.svg" > "$TMP/t.back"
printf 'main;eval 30 30\nmain;gc 5 0\nmain;jit 0 8\nmain;parse;ast 20 60\nmain;parse;lex 10 12\n' > "$TMP/t.want"
check "diff SVG folds back to BEFORE/AFTER columns" cmp -s "$TMP/t.back" "$TMP/t.want"

# 5. --normalize compares shares exactly; --min-delta greys small changes
"$UF" diff --normalize --min-delta 5 "$TMP/b.folded" "$TMP/a.folded" -o "$TMP/n.svg"
grep -q 'fill="rgb(225,225,225)"' "$TMP/n.svg" && grep -q 'below min-delta' "$TMP/n.svg" &&
	pass "--min-delta greys out small changes and says so in the legend" || fail "--min-delta" ""
"$UF" diff --palette cb "$TMP/b.folded" "$TMP/a.folded" -o "$TMP/cb.svg"
grep -q 'fill="rgb(230,97,1)"' "$TMP/cb.svg" && pass "colour-blind-safe palette" || fail "--palette cb" ""

# 6. a flamegraph.pl-style SVG (no embedded data) reads back to the counts it
#    drew (a generated profile: the same check with or without ../shared;
#    300 stacks, so few frames are pruned: hundreds of pruned siblings would
#    shift the x of the drawn ones by their summed sub-pixel widths)
python3 "$UF_TOP/tests/gen-profile.py" 7 300 > "$TMP/profile.folded"
"$UF" render --embed=none "$TMP/profile.folded" -o "$TMP/fg.svg"
"$UF" fold "$TMP/fg.svg" > "$TMP/fg.folded" 2> "$TMP/err"
"$UF" render --embed=none "$TMP/fg.folded" -o "$TMP/fg2.svg"
python3 - "$TMP" "$UF_TOP/tests/render" <<'PY'
import sys
sys.path.insert(0, sys.argv[2])
import compat
a = compat.our_frames(f"{sys.argv[1]}/fg.svg")
b = compat.our_frames(f"{sys.argv[1]}/fg2.svg")
probs = compat.compare(b, a, True, tol=0.15)   # counts rebuilt from rounded widths
print("PASS: foreign SVG read back: every drawn frame has its count" if not probs else
      f"FAIL: foreign SVG read back: {probs[:3]}")
PY
grep -q 'approximate' "$TMP/err" && pass "foreign SVG: stderr says the result is approximate" ||
	fail "approximate warning" "$(cat "$TMP/err")"

# 7. hostile and malformed XML: clear error or safe result, no crash, no network
cat > "$TMP/laughs.svg" <<'X'
<?xml version="1.0"?>
<!DOCTYPE svg [
<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;"><!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;">
<!ENTITY d "&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;"><!ENTITY e "&d;&d;&d;&d;&d;&d;&d;&d;&d;&d;"><!ENTITY f "&e;&e;&e;&e;&e;&e;&e;&e;&e;&e;">
<!ENTITY g "&f;&f;&f;&f;&f;&f;&f;&f;&f;&f;"><!ENTITY h "&g;&g;&g;&g;&g;&g;&g;&g;&g;&g;"><!ENTITY i "&h;&h;&h;&h;&h;&h;&h;&h;&h;&h;">
]>
<svg xmlns="http://www.w3.org/2000/svg"><g id="frames"><g><title>&i; (1 samples, 100%)</title><rect x="10" y="10" width="100" height="15"/></g></g></svg>
X
cat > "$TMP/xxe.svg" <<X
<?xml version="1.0"?>
<!DOCTYPE svg [ <!ENTITY x SYSTEM "file:///etc/passwd"> <!ENTITY y SYSTEM "http://127.0.0.1:9/x"> ]>
<svg xmlns="http://www.w3.org/2000/svg"><g><title>&x;&y;leaf (5 samples, 100%)</title><rect x="10" y="10" width="1180" height="15"/></g></svg>
X
head -c 2000 "$TMP/t.svg" > "$TMP/truncated.svg"
python3 -c "
import sys
sys.stdout.write('<svg xmlns=\"http://www.w3.org/2000/svg\"><g><title>x (1 samples, 1%)</title><rect x=\"' + 'A' * (100 * 1024 * 1024) + '\"/></g></svg>')
" > "$TMP/huge.svg"
sed 's|http://www.w3.org/2000/svg|http://example.invalid/not-svg|' "$TMP/fg.svg" 2>/dev/null > "$TMP/ns.svg" ||
	cp "$TMP/truncated.svg" "$TMP/ns.svg"
for f in laughs xxe truncated huge ns; do
	timeout 60 "$UF" fold "$TMP/$f.svg" > "$TMP/$f.out" 2> "$TMP/$f.err"; rc=$?
	lines=$(wc -l < "$TMP/$f.err")
	if [ $rc -ge 128 ] || [ $rc -eq 124 ] || grep -q 'Sanitizer' "$TMP/$f.err"; then
		fail "hostile SVG $f" "crashed or hung (rc=$rc)"
	elif grep -q 'root:' "$TMP/$f.out"; then
		fail "hostile SVG $f" "external entity was read"
	elif [ $rc -eq 0 ] || { [ $rc -eq 2 ] && grep -q '^uniprof-flame: ' "$TMP/$f.err" && [ "$lines" -le 2 ]; }; then
		pass "hostile SVG $f: rc=$rc, $(head -c 120 "$TMP/$f.err" | tr '\n' ' ')"
	else
		fail "hostile SVG $f" "rc=$rc $(cat "$TMP/$f.err")"
	fi
done

# 8. usage errors
"$UF" diff "$TMP/a.folded" >/dev/null 2>&1; r1=$?
"$UF" diff --delta=both "$TMP/a.folded" "$TMP/b.folded" >/dev/null 2>&1; r2=$?
[ "$r1$r2" = 11 ] && pass "diff usage errors exit 1" || fail "diff usage errors" "$r1 $r2"

# 9. fold --diff writes difffolded.pl's three columns
"$UF" fold --diff "$TMP/b.folded" "$TMP/a.folded" > "$TMP/three"
check "fold --diff: three-column differential, union of stacks" cmp -s "$TMP/three" "$TMP/t.want"
"$UF" fold --diff --normalize "$TMP/b.folded" "$TMP/a.folded" | awk '{a+=$(NF-1); b+=$NF} END {d = a - b; exit !(d < 1e-6 && d > -1e-6)}' &&
	pass "fold --diff --normalize: equal totals (exact shares)" || fail "fold --diff --normalize" ""

# 10. a pruned embed of a differential keeps both totals (BEFORE folds like AFTER)
python3 -c "
for i in range(400): print(f'root;mid_{i%20};leaf_{i} {1 + i % 5}')
" > "$TMP/pb.folded"
python3 -c "
for i in range(400): print(f'root;mid_{i%20};leaf_{i} {1 + i % 7}')
" > "$TMP/pa.folded"
"$UF" diff --embed-budget 2048 "$TMP/pb.folded" "$TMP/pa.folded" -o "$TMP/p.svg" 2>/dev/null
got=$("$UF" fold "$TMP/p.svg" 2>/dev/null | awk '{a+=$(NF-1); b+=$NF} END {print a, b}')
want=$("$UF" fold --diff "$TMP/pb.folded" "$TMP/pa.folded" | awk '{a+=$(NF-1); b+=$NF} END {print a, b}')
[ "$got" = "$want" ] && grep -q 'data-pruned="1"' "$TMP/p.svg" &&
	pass "pruned differential embed keeps BEFORE and AFTER totals ($want)" ||
	fail "pruned differential embed" "got '$got' want '$want'"
# ... and every frame the pruned embed keeps has its own inclusive BEFORE and
# AFTER counts (pruned children fold into their parent's self counts)
"$UF" fold "$TMP/p.svg" > "$TMP/p.back" 2>/dev/null
"$UF" fold --diff "$TMP/pb.folded" "$TMP/pa.folded" > "$TMP/p.full"
python3 - "$TMP/p.back" "$TMP/p.full" <<'PY' && pass "pruned differential embed: each kept frame's BEFORE and AFTER inclusive counts" || fail "pruned differential embed: inclusive counts" "$(head -c 300 "$TMP/p.bad")"
import sys
def incl(path):
    t = {}
    for line in open(path):
        if line.startswith("#") or not line.strip():
            continue
        stack, b, a = line.rsplit(" ", 2)
        fr = stack.split(";")
        for i in range(1, len(fr) + 1):
            k = ";".join(fr[:i])
            ob, oa = t.get(k, (0.0, 0.0))
            t[k] = (ob + float(b), oa + float(a))
    return t
back, full = incl(sys.argv[1]), incl(sys.argv[2])
bad = [f"{k}: {v} vs {full.get(k)}" for k, v in back.items()
       if k not in full or abs(v[0] - full[k][0]) > 1e-9 or abs(v[1] - full[k][1]) > 1e-9]
open(sys.argv[1].replace(".back", ".bad"), "w").write("\n".join(bad[:5]))
sys.exit(1 if bad or len(back) < 10 else 0)
PY

# 11. the same stack on several three-column lines: flamegraph.pl's colour
#     scale is the largest change of one line (9 here), so a frame's summed
#     change (18) lies past its end: the frame takes the end colour, where
#     flamegraph.pl writes components below 0 (rgb(-210,-210,255))
printf 'main;a 10 1\nmain;a 10 1\nmain;b 1 10\nmain;b 1 10\nmain;c 5 6\n' > "$TMP/dup.folded"
for neg in "" --negate; do
	"$UF" render $neg "$TMP/dup.folded" -o "$TMP/dup.svg" 2> "$TMP/err" &&
	python3 - "$TMP/dup.svg" "$neg" 2> "$TMP/err" <<'PY' && pass "render ${neg:-(plain)}: a change past the per-line scale takes the scale's end colour" || fail "render ${neg:-(plain)}: change past the scale" "$(cat "$TMP/err")"
import sys, xml.etree.ElementTree as ET
S = "{http://www.w3.org/2000/svg}"
r = ET.parse(sys.argv[1]).getroot()
fill = {g.find(f"{S}title").text.split(" (")[0]: g.find(f"{S}rect").get("fill")
        for g in r.find(f".//{S}g[@id='frames']").findall(f"{S}g")}
red, blue = "rgb(255,0,0)", "rgb(0,0,255)"
want = {"a": blue, "b": red, "c": "rgb(255,186,186)"}      # c: +1 of 9
if sys.argv[2]:
    want = {"a": red, "b": blue, "c": "rgb(186,186,255)"}
got = {k: fill.get(k) for k in want}
if got != want:
    print(f"got {got}, want {want}", file=sys.stderr)
    sys.exit(1)
PY
done

# Issue 31 item 3: what a first differential of two runs tells its user.
printf 'main;a 60\nmain;b 40\nmain;c 1\n' > "$TMP/h-before.folded"   # 101 samples
printf 'main;a 100\nmain;b 71\n' > "$TMP/h-after.folded"            # 171: x1.69, c gone
printf 'main;a 60\nmain;b 40\n' > "$TMP/h-same.folded"
"$UF" diff "$TMP/h-before.folded" "$TMP/h-after.folded" -o "$TMP/h.svg" 2>"$TMP/h.err"
"$UF" diff --normalize "$TMP/h-before.folded" "$TMP/h-after.folded" -o "$TMP/hn.svg" 2>"$TMP/hn.err"
grep -q 'warning: BEFORE has 101 samples, AFTER 171 (x1.69): .*--normalize' "$TMP/h.err" && [ ! -s "$TMP/hn.err" ] &&
	pass "diff: totals that differ: a warning names --normalize (none once normalized)" ||
	fail "diff: --normalize warning" "$(cat "$TMP/h.err" "$TMP/hn.err")"
# totals that differ: a note naming --normalize, in the legend; none once normalized
hint=$(grep -o '<text id="diffhint"[^>]*>[^<]*' "$TMP/h.svg" | sed 's/.*>//')
[ "$hint" = "totals differ (101 → 171, ×1.69): diff --normalize compares shares" ] &&
	! grep -q 'id="diffhint"' "$TMP/hn.svg" && pass "diff: totals that differ get a --normalize note, normalized none" ||
	fail "diff: --normalize note" "got '$hint', normalized: $(grep -c diffhint "$TMP/hn.svg")"
# normalized (fractional) counts: at most two decimals in every tooltip
long=$(grep -o 'before → after: [^<]*' "$TMP/hn.svg" | grep -oE '[0-9]+\.[0-9]{3,}' | head -3 | tr '\n' ' ')
grep -q 'total 60 → 100 (59.41% → 58.48%' "$TMP/h.svg" && grep -q 'total 101.58 → 100 ' "$TMP/hn.svg" && [ -z "$long" ] &&
	pass "diff: normalized counts show two decimals (101.58, not 101.58415841584159)" ||
	fail "diff: normalized counts" "long numbers: '$long'; $(grep -o 'before → after: total [0-9.]* → 100 [^<]*' "$TMP/hn.svg" | head -1)"
# "Show before" only when a frame disappeared
"$UF" diff "$TMP/h-same.folded" "$TMP/h-after.folded" -o "$TMP/hs.svg" 2>/dev/null
grep -q 'id="showbefore"' "$TMP/h.svg" && ! grep -q 'id="showbefore"\|id="frames-before"' "$TMP/hs.svg" &&
	pass "diff: 'Show before' only when a frame is gone" ||
	fail "diff: Show before" "with c gone: $(grep -c showbefore "$TMP/h.svg"), nothing gone: $(grep -c showbefore "$TMP/hs.svg")"
