#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# tests/browser/t-browser.sh — the SVG's script in a real browser.
#
# Opens SVGs from disk (file://) in headless Chromium and Firefox ESR
# (Debian's /usr/bin/chromium and /usr/bin/firefox-esr, driven by npm's
# puppeteer-core: CDP for Chromium, WebDriver BiDi for Firefox; see
# driver.js), with the same assertions in both, and asserts through
# the DOM: hover details, regex search and Matched % from sample counts,
# names-only matching, literal fallback for an invalid regex, ignore-case,
# click-zoom (width, hidden non-descendants, dimmed ancestors), browser
# Back/Forward, Esc and Reset Zoom, ?s= / ?x=&y= at load, pruned boxes, and
# that hostile names run no script.  See test-svg.js for each group.
#
# Two sets of SVGs go through the same assertions:
#   contract  written by mksvg.js from the fixtures with the current
#             templates/: the script against the DOM contract alone
#   render    written by `$UF render` from the same fixtures: the real thing
# Then, with the real renderer only: drill-down equals `render` of the
# zoomed subtree alone, exact search shares from pruned subtrees, the
# differential drill-down, the no-script image (test-drill.js).
# Trade-off: puppeteer-core is installed from npm on first run (`npm ci`
# from the committed package-lock.json into tests/browser/node_modules);
# no browser is downloaded, Debian's are used.  Firefox ESR is skipped
# (one SKIP line) when not installed.
#
# Env: CHROMIUM (default /usr/bin/chromium), FIREFOX (/usr/bin/firefox-esr),
# UF_SHOTS=DIR keeps screenshots, UF_BROWSERS=chromium leaves Firefox out
# (for make mutate; never in make check).
source "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"
here="$UF_TOP/tests/browser"
data="$UF_TOP/tests/data/browser"
chromium="${CHROMIUM:-/usr/bin/chromium}"
firefox="${FIREFOX:-/usr/bin/firefox-esr}"
export CHROMIUM="$chromium" FIREFOX="$firefox"

for t in "$UF_TOP"/templates/*.js "$UF_TOP"/templates/js/*.js "$UF_TOP"/templates/*.css; do
	if grep -qF ']]>' "$t"; then fail "templates: $(basename "$t")" 'contains the CDATA terminator'; fi
done

if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
	skip browser 'node/npm not installed (apt-get install nodejs npm)'; exit 0
fi
if [ ! -x "$chromium" ]; then
	skip browser "no $chromium (apt-get install chromium)"; exit 0
fi

# Install the pinned puppeteer-core when missing or not the locked version.
want=$(node -p "require('$here/package-lock.json').packages['node_modules/puppeteer-core'].version")
have=$(node -p "try { require('$here/node_modules/puppeteer-core/package.json').version } catch (e) { '' }")
if [ "$want" != "$have" ]; then
	if ! (cd "$here" && npm ci --no-audit --no-fund --loglevel=error) >"$TMP/npm.log" 2>&1; then
		fail browser-deps "npm ci failed: $(tail -1 "$TMP/npm.log")"; exit 1
	fi
fi

shots=()
[ -n "${UF_SHOTS:-}" ] && mkdir -p "$UF_SHOTS" && shots=(--screenshot "$UF_SHOTS")

browsers=(chromium)
if [ "${UF_BROWSERS:-}" = chromium ]; then
	:   # make mutate: one browser is enough to judge a mutant, at half the time
elif [ -x "$firefox" ]; then browsers+=(firefox); else skip firefox "no $firefox (apt-get install firefox-esr)"; fi

# run LABEL DIR: the assertion groups over DIR/{known,inverted,pruned,hostile}.svg,
# in every browser
run() {
	local label=$1 dir=$2 f b
	if command -v xmllint >/dev/null 2>&1; then
		for f in "$dir"/*.svg; do
			xmllint --noout "$f" 2>"$TMP/xml.err" || fail "$label: $(basename "$f") well-formed" "$(head -1 "$TMP/xml.err")"
		done
	fi
	for b in "${browsers[@]}"; do
		timeout 300 node "$here/test-svg.js" --browser "$b" --label "$label" --known "$dir/known.svg" \
			--inverted "$dir/inverted.svg" --pruned "$dir/pruned.svg" --hostile "$dir/hostile.svg" \
			"${shots[@]}"
		if [ $? -eq 124 ]; then fail "$b: $label" 'browser test timed out after 300 s'; fi
	done
	return 0
}

# ALPHA (3 samples = 35.4 px of 1180) is the one frame under --minwidth 40.
mkdir -p "$TMP/contract" "$TMP/render"
c="$TMP/contract"
node "$here/mksvg.js" "$data/known.folded" >"$c/known.svg" &&
node "$here/mksvg.js" --inverted "$data/known.folded" >"$c/inverted.svg" &&
node "$here/mksvg.js" --minwidth 40 "$data/known.folded" >"$c/pruned.svg" &&
node "$here/mksvg.js" "$data/hostile.folded" >"$c/hostile.svg" ||
	{ fail contract 'mksvg.js failed'; exit 1; }
run contract "$c"

r="$TMP/render"
if [ ! -x "$UF" ] || ! "$UF" render --help >/dev/null 2>&1; then
	skip render "no working '$UF render' (build it: make build/asan/uniprof-flame)"; exit 0
fi
"$UF" render "$data/known.folded" -o "$r/known.svg" &&
"$UF" render --inverted "$data/known.folded" -o "$r/inverted.svg" &&
"$UF" render --minwidth 40 "$data/known.folded" -o "$r/pruned.svg" &&
"$UF" render "$data/hostile.folded" -o "$r/hostile.svg" 2>"$TMP/render.err" ||
	{ fail render "uniprof-flame render failed: $(head -1 "$TMP/render.err")"; exit 1; }
run render "$r"

# A differential: the before -> after tooltip of a grown parent, the BEFORE layer.
if "$UF" diff "$data/diff-before.folded" "$data/diff-after.folded" -o "$r/diff.svg"; then
	for b in "${browsers[@]}"; do
		timeout 300 node "$here/test-diff.js" "$r/diff.svg" "$b"
		if [ $? -eq 124 ]; then fail "$b: diff browser" "timed out after 300 s"; fi
	done
else
	fail "diff browser" "uniprof-flame diff failed"
fi

# Drill-down, exact search shares, the plain image (test-drill.js header).
mkdir -p "$TMP/drill"
for b in "${browsers[@]}"; do
	timeout 300 node "$here/test-drill.js" "$UF" "$TMP/drill" "$b"
	if [ $? -eq 124 ]; then fail "$b: drill" "timed out after 300 s"; fi
done
