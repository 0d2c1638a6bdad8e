#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# tests/browser/t-libpanel.sh — the per-library panel of a recorded SVG:
# record app-uklibs (examples/uklibs: a program laid out as a Unikraft
# tree, -O2, no frame pointers) with ptrace; the panel in the SVG holds
# record's per-library table (checked here from the file, and by
# test-libpanel.js in headless Chromium, and Firefox ESR when installed:
# opened by its button, drawn over the frames, closed by a click or Escape).
source "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"
here="$UF_TOP/tests/browser"
APP="${EXAMPLES:-$UF_TOP/build/examples}/app-uklibs"
chromium="${CHROMIUM:-/usr/bin/chromium}"
firefox="${FIREFOX:-/usr/bin/firefox-esr}"
export CHROMIUM="$chromium" FIREFOX="$firefox"

[ -x "$APP" ] || { skip "libpanel" "app-uklibs not built (make examples)"; exit 0; }
if ! "$UF" -F 199 -T 2 -o "$TMP/rec.svg" -- "$APP" 2.5 >/dev/null 2>"$TMP/rec.err"; then
	if grep -q 'ptrace\|operation not permitted' "$TMP/rec.err"; then
		skip "libpanel" "cannot ptrace here: $(tail -1 "$TMP/rec.err")"; exit 0
	fi
	fail "libpanel: record" "$(tail -1 "$TMP/rec.err")"; exit 0
fi
# record's table: "lib self total" per row, shares without %
table=$(awk '/uniprof-flame: library +self +total/ { on = 1; next }
	on && /^uniprof-flame:   [^ (]/ { gsub("%", ""); print $2, $3, $4 }' "$TMP/rec.err" | paste -sd, -)
# the panel's rows, read from the file: name, self, total texts in order
panel=$(sed -n '/<g id="libpanel"/,/<\/g>/p' "$TMP/rec.svg" | grep -o '>[^<]*</text>' | sed 's/^>//; s/<\/text>$//; s/%$//' |
	tail -n +4 | sed '$d' | paste -d' ' - - - | paste -sd, -)
[ -n "$table" ] && [ "$panel" = "$table" ] && pass "libpanel: the SVG's panel is record's per-library table" ||
	fail "libpanel: panel vs table" "panel '$panel', record '$table'"
grep -q '<text id="libbutton"[^>]*>Libraries</text>' "$TMP/rec.svg" && pass "libpanel: the SVG has the Libraries button" ||
	fail "libpanel: button" "no #libbutton"
# a profile without libraries (folded text) has neither
printf 'a;b 3\na;c 1\n' | "$UF" render -o "$TMP/plain.svg" - &&
	! grep -q '<g id="libpanel"\|<text id="libbutton"' "$TMP/plain.svg" && pass "libpanel: none without libraries" ||
	fail "libpanel: a profile without libraries has a panel"
# --no-js: no panel (without the script's style it would cover the frames)
"$UF" render --no-js "$TMP/rec.svg" -o "$TMP/nojs.svg" 2>/dev/null &&
	! grep -q '<g id="libpanel"\|<text id="libbutton"' "$TMP/nojs.svg" && pass "libpanel: none without the script" ||
	fail "libpanel: --no-js" "$(grep -c libpanel "$TMP/nojs.svg")"

command -v node >/dev/null 2>&1 || { skip "libpanel browser" 'node not installed (apt-get install nodejs npm)'; exit 0; }
[ -x "$chromium" ] || { skip "libpanel browser" "no $chromium (apt-get install chromium)"; exit 0; }
[ -d "$here/node_modules/puppeteer-core" ] ||
	(cd "$here" && npm ci --no-audit --no-fund --loglevel=error) >"$TMP/npm.log" 2>&1 ||
	{ fail "libpanel browser: deps" "npm ci failed: $(tail -1 "$TMP/npm.log")"; exit 1; }
browsers=(chromium)
if [ "${UF_BROWSERS:-}" = chromium ]; then
	:   # make mutate: one browser judges a mutant (as t-browser.sh)
elif [ -x "$firefox" ]; then browsers+=(firefox); else skip "libpanel browser: firefox" "no $firefox"; fi
for b in "${browsers[@]}"; do
	timeout 300 node "$here/test-libpanel.js" "$TMP/rec.svg" "$b" "$table"
	if [ $? -eq 124 ]; then fail "libpanel browser: $b" "timed out after 300 s"; fi
done
