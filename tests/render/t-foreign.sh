#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# tests/render/t-foreign.sh — read-back of SVGs without embedded data
# (flamegraph.pl's, or ours with --embed=none) when frame names contain
# " (": inlined frames, C++ and Java signatures.  The title is
# "NAME (N samples, P%)": only the LAST " (" starts the counts, so the
# folded text read back must have every name whole and every count exact.
. "$(dirname "$0")/../lib.sh"

# 1. a flamegraph.pl SVG (its exact frame markup, trimmed to the frames)
cat > "$TMP/fg.svg" <<'SVG'
<?xml version="1.0" standalone="no"?>
<svg version="1.1" width="1200" height="134" onload="init(evt)" viewBox="0 0 1200 134" xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink">
<g id="frames">
<g >
<title>foo (inlined) (3 samples, 60.00%)</title><rect x="482.0" y="53" width="708.0" height="15.0" fill="rgb(216,53,12)" rx="2" ry="2" />
<text  x="485.00" y="63.5" >foo (inlined)</text>
</g>
<g >
<title>all (5 samples, 100%)</title><rect x="10.0" y="85" width="1180.0" height="15.0" fill="rgb(213,39,9)" rx="2" ry="2" />
<text  x="13.00" y="95.5" ></text>
</g>
<g >
<title>baz (x) (y) (2 samples, 40.00%)</title><rect x="10.0" y="37" width="472.0" height="15.0" fill="rgb(248,202,48)" rx="2" ry="2" />
<text  x="13.00" y="47.5" >baz (x) (y)</text>
</g>
<g >
<title>main (5 samples, 100.00%)</title><rect x="10.0" y="69" width="1180.0" height="15.0" fill="rgb(243,179,42)" rx="2" ry="2" />
<text  x="13.00" y="79.5" >main</text>
</g>
<g >
<title>Foo::bar(int, char) const (2 samples, 40.00%)</title><rect x="10.0" y="53" width="472.0" height="15.0" fill="rgb(238,155,37)" rx="2" ry="2" />
<text  x="13.00" y="63.5" >Foo::bar(int, char) const</text>
</g>
</g>
</svg>
SVG
want=$(printf 'main;Foo::bar(int, char) const;baz (x) (y) 2\nmain;foo (inlined) 3')
got=$("$UF" fold "$TMP/fg.svg" 2> "$TMP/err")
[ "$got" = "$want" ] && grep -q 'approximate: no embedded profile data' "$TMP/err" &&
	pass "foreign flamegraph.pl svg: names with ' (' read back whole, counts exact" ||
	fail "foreign flamegraph.pl svg" "got '$(echo "$got" | tr '\n' '|')' $(cat "$TMP/err")"

# 2. ours without embedded data: C++, Java and inlined names, every count exact
cat > "$TMP/names.folded" <<'EOF2'
java.lang.Thread.run (Thread.java:748);com.example.Worker.process(Ljava/lang/String;)V 7
main;foo (inlined);bar (inlined) 5
main;std::vector<int, std::allocator<int> >::push_back(int const&) 4
main;operator() (lambda at x.cc:3:5) 3
main;(anonymous namespace)::helper() 2
main;plain 1
EOF2
"$UF" render --embed=none --minwidth 0 "$TMP/names.folded" -o "$TMP/names.svg" &&
	"$UF" fold "$TMP/names.svg" -o "$TMP/back.folded" 2> "$TMP/err"
"$UF" fold "$TMP/names.folded" -o "$TMP/sorted.folded"
cmp -s "$TMP/back.folded" "$TMP/sorted.folded" &&
	pass "svg without embedded data: C++, Java and inlined names round-trip exactly" ||
	fail "svg without embedded data" "$(diff "$TMP/sorted.folded" "$TMP/back.folded" | head -6 | tr '\n' '|')"
