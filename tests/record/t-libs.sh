#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# tests/record/t-libs.sh — the library of every frame, on app-uklibs (a
# Linux program laid out as a Unikraft tree, examples/uklibs): record's
# per-library table, `fold --by=lib` of the recorded SVG (the libraries
# travel in it) against the true shares (+-3 points), the table against
# the SVG's view, render --by=lib, and the rule table on Unikraft paths.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/lib-record.sh"
need_ptrace libs
APP="$EXAMPLES/app-uklibs"
[ -x "$APP" ] || { skip libs "app-uklibs not built (make examples)"; exit 0; }

OUT="$TMP/uk"
rec() {
	"$UF" -F 199 -T 4 -o "$OUT.svg" -- "$APP" 5 2>"$OUT.err" &&
		"$UF" fold --by=lib "$OUT.svg" >"$OUT.folded"
}
record_truth "libs: fold --by=lib of the recorded SVG" "$TRUTH/uklibs.truth" rec

# the summary's table (computed live, from the addresses) equals the
# library view read back from the SVG
table=$(awk '/uniprof-flame: library +self +total/ { on = 1; next }
	on && /^uniprof-flame:   [^ (]/ { gsub("%", ""); print $2, $3, $4 }' "$OUT.err")
[ -n "$table" ] && pass "libs: record prints a per-library table" || fail "libs: per-library table" "$(cat "$OUT.err")"
first=$(echo "$table" | head -1 | cut -d' ' -f1)
[ "$first" = libukalloc ] && pass "libs: the table is sorted by self share (libukalloc first)" ||
	fail "libs: table order" "$table"
bad=
while read -r lib self total; do
	s=$(share "$OUT.folded" "$lib" self) t=$(share "$OUT.folded" "$lib" total)
	within "$s" "$self" 0.1 && within "$t" "$total" 0.1 || bad="$bad $lib:$self/$total vs $s/$t"
done <<<"$table"
[ -z "$bad" ] && pass "libs: the table equals fold --by=lib of the SVG (self and total)" ||
	fail "libs: table vs SVG" "$bad"

# the SVG names each function's library; render --by=lib draws the same view
grep -q '^uk_malloc	libukalloc$' "$OUT.svg" && grep -q '^ukplat_monotonic	libkvmplat$' "$OUT.svg" &&
	pass "libs: the SVG carries each function's library" || fail "libs: library table in the SVG"
"$UF" render --by=lib "$OUT.svg" -o "$TMP/bylib.svg" && "$UF" fold "$TMP/bylib.svg" | grep -v '^#' >"$TMP/bylib.folded"
cmp -s "$TMP/bylib.folded" <(grep -v '^#' "$OUT.folded") && pass "libs: render --by=lib equals fold --by=lib" ||
	fail "libs: render --by=lib" "$(diff "$TMP/bylib.folded" <(grep -v '^#' "$OUT.folded") | head -3)"
# record --by=lib draws the library view live
"$UF" -F 99 -T 2.5 --by=lib --folded "$TMP/live.folded" -- "$APP" 3 2>/dev/null
grep -q '^app-uklibs;.*libuksched;libkvmplat [0-9]' "$TMP/live.folded" && ! grep -q uk_malloc "$TMP/live.folded" &&
	pass "libs: record --by=lib folds by library live" || fail "libs: record --by=lib" "$(head -3 "$TMP/live.folded")"
# a Linux process's other files are named after the mapping
"$UF" -F 99 -T 1 -o "$TMP/so.svg" -- "$EXAMPLES/app-test-1-so" 2 2>/dev/null
grep -q '	libufwork.so$' "$TMP/so.svg" && grep -q '	libc.so.6$' "$TMP/so.svg" &&
	pass "libs: shared objects named by their mapped file (libufwork.so, libc.so.6)" ||
	fail "libs: mapped file names"
# usage errors
"$UF" fold --by=func "$OUT.svg" >/dev/null 2>"$TMP/e1"; rc=$?
[ "$rc" -eq 1 ] && grep -q "'--by': 'func' is not lib" "$TMP/e1" && pass "libs: --by=func is a usage error" ||
	fail "libs: --by=func" "rc=$rc $(cat "$TMP/e1")"
# --colors=lib: a hue per library (the same in every render), a legend
# naming the libraries, every tooltip naming its frame's library
"$UF" render --colors=lib "$OUT.svg" -o "$TMP/c1.svg" && "$UF" render --colors=lib "$OUT.svg" -o "$TMP/c2.svg"
fill_of() { # SVG FUNCTION -> the fills of its frames, unique
	awk -v f="$2" 'index($0, "<title>" f " (") == 1 { want = 1; next }
		want && /<rect/ { match($0, /fill="[^"]*"/); print substr($0, RSTART + 6, RLENGTH - 7); want = 0 }' "$1" | sort -u
}
legend=$(grep -o '<text id="legend".*</text>' "$TMP/c1.svg")
a=$(fill_of "$TMP/c1.svg" uk_malloc) k=$(fill_of "$TMP/c1.svg" ukplat_monotonic)
if [ "$(echo "$a" | wc -l)" = 1 ] && [ -n "$a" ] && [ "$a" != "$k" ] &&
	grep -qF "<tspan fill=\"$a\">■</tspan> libukalloc" <<<"$legend" &&
	grep -qF "<tspan fill=\"$k\">■</tspan> libkvmplat" <<<"$legend" && cmp -s "$TMP/c1.svg" "$TMP/c2.svg"; then
	pass "libs: --colors=lib: one hue per library ($a, $k), in the legend, stable"
else
	fail "libs: --colors=lib" "uk_malloc '$a' ukplat_monotonic '$k' legend '$legend'"
fi
grep -A2 '<title>tcp_input (' "$TMP/c1.svg" | grep -qE '^library: liblwip(</title>)?$' &&
	pass "libs: tooltips name the library" || fail "libs: tooltips name the library"
