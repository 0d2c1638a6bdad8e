#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# tests/browser/t-header.sh — the header of every kind of SVG we write, in
# Chromium and Firefox ESR (test-header.js): at --width 700, 1200 (the
# default) and 1800; plain and differential; with and without the
# "Libraries" button; a differential of runs with different totals (its
# --normalize note), a long title, a long subtitle (as record writes).  No two header texts overlap and
# each fits the canvas (issue 31 items 1 and 2: the diff legend drawn over
# "Libraries" and the title, "Matched: ..." cut at the right edge).
# Libraries come from a uniprof-flame-libs block added to an SVG of ours,
# as `record` writes it, so no program is recorded here.
source "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"
here="$UF_TOP/tests/browser"
data="$UF_TOP/tests/data/browser"
export CHROMIUM="${CHROMIUM:-/usr/bin/chromium}" FIREFOX="${FIREFOX:-/usr/bin/firefox-esr}"

if ! command -v node >/dev/null 2>&1 || [ ! -x "$CHROMIUM" ]; then
	skip header 'node or chromium not installed'; exit 0
fi
if [ ! -d "$here/node_modules/puppeteer-core" ]; then
	(cd "$here" && npm ci --no-audit --no-fund --loglevel=error) >"$TMP/npm.log" 2>&1 ||
		{ fail header-deps "npm ci failed: $(tail -1 "$TMP/npm.log")"; exit 0; }
fi
browsers=(chromium)
if [ "${UF_BROWSERS:-}" != chromium ]; then
	if [ -x "$FIREFOX" ]; then browsers+=(firefox); else skip firefox "no $FIREFOX"; fi
fi

# with_libs IN.folded OUT.svg: IN drawn, then drawn again from an SVG that
# says each function's library (main/alpha in the app, the rest in libc)
with_libs() {
	"$UF" render "$1" -o "$TMP/nolibs.svg" || return 1
	python3 - "$1" "$TMP/nolibs.svg" "$TMP/libs-in.svg" <<'PY' || return 1
import sys
names = set()
for line in open(sys.argv[1]):
    names.update(line.rsplit(" ", 1)[0].split(";"))
s = open(sys.argv[2]).read()
block = "".join(f"{n}\t{'app' if n in ('main', 'alpha') else 'libc.so.6'}\n" for n in sorted(names))
i = s.index(">", s.index("<svg ")) + 1
open(sys.argv[3], "w").write(s[:i] + '\n<metadata id="uniprof-flame-libs">\n' + block + "</metadata>" + s[i:])
PY
	"$UF" render "$TMP/libs-in.svg" -o "$2"
}

d="$TMP/svg"; mkdir -p "$d"
with_libs "$data/diff-before.folded" "$TMP/before-libs.svg" &&
with_libs "$data/diff-after.folded" "$TMP/after-libs.svg" || { fail header "could not make the library fixtures"; exit 0; }
for w in 700 1200 1800; do
	"$UF" render --width $w "$data/known.folded" -o "$d/plain-$w.svg" &&
	"$UF" render --width $w "$TMP/after-libs.svg" -o "$d/plain-libs-$w.svg" &&
	"$UF" diff --width $w "$data/diff-before.folded" "$data/diff-after.folded" -o "$d/diff-$w.svg" 2>/dev/null &&
	"$UF" diff --width $w "$TMP/before-libs.svg" "$TMP/after-libs.svg" -o "$d/diff-libs-$w.svg" 2>/dev/null &&
	"$UF" diff --width $w --title "A differential of two recorded runs of the unikernel, before and after" \
		"$TMP/before-libs.svg" "$TMP/after-libs.svg" -o "$d/diff-libs-longtitle-$w.svg" 2>/dev/null &&
	"$UF" render --width $w --subtitle "$(printf 'app-test-1 (pid 4242), 2026-11-27T01:50:55Z, 5.0 s, 4,950 samples at 990/999 Hz, %.0s' 1 2)" \
		"$TMP/after-libs.svg" -o "$d/plain-libs-subtitle-$w.svg" ||
		{ fail "header: width $w" "could not render"; exit 0; }
done
grep -q '<text id="libbutton"' "$d/diff-libs-700.svg" && grep -q 'id="diffhint"' "$d/diff-libs-700.svg" ||
	fail "header: fixtures" "the library or --normalize fixture lacks its button or note"

for b in "${browsers[@]}"; do
	timeout 300 node "$here/test-header.js" "$b" "$d"/*.svg
	[ $? -eq 124 ] && fail "$b: header" "timed out after 300 s"
done
exit 0
