#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# tests/browser/t-lines.sh — source positions in a recorded SVG, in the
# browser: record app-lines (-O2, no frame pointers) with ptrace, then
# test-lines.js in headless Chromium (and Firefox ESR when installed)
# checks the hot leaf's tooltip and details bar name the line marked
# UF-LINE:hot-a in the source, the caller's its call site, and that a
# frame the script draws on zoom has the file's own tooltip.
source "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"
here="$UF_TOP/tests/browser"
APP="${EXAMPLES:-$UF_TOP/build/examples}/app-lines"
SRC="$UF_TOP/examples/linux/app-lines.c"
chromium="${CHROMIUM:-/usr/bin/chromium}"
firefox="${FIREFOX:-/usr/bin/firefox-esr}"
export CHROMIUM="$chromium" FIREFOX="$firefox"

command -v node >/dev/null 2>&1 || { skip "lines browser" 'node not installed (apt-get install nodejs npm)'; exit 0; }
[ -x "$chromium" ] || { skip "lines browser" "no $chromium (apt-get install chromium)"; exit 0; }
[ -x "$APP" ] || { skip "lines browser" "app-lines not built (make examples)"; exit 0; }
[ -d "$here/node_modules/puppeteer-core" ] ||
	(cd "$here" && npm ci --no-audit --no-fund --loglevel=error) >"$TMP/npm.log" 2>&1 ||
	{ fail "lines browser: deps" "npm ci failed: $(tail -1 "$TMP/npm.log")"; exit 1; }
if ! "$UF" -F 499 -T 2 -o "$TMP/rec.svg" -- "$APP" 2.5 >/dev/null 2>"$TMP/rec.err"; then
	if grep -q 'ptrace\|operation not permitted' "$TMP/rec.err"; then
		skip "lines browser" "cannot ptrace here: $(tail -1 "$TMP/rec.err")"; exit 0
	fi
	fail "lines browser: record" "$(tail -1 "$TMP/rec.err")"; exit 0
fi
mark() { grep -n "/\* UF-LINE:$1 \*/" "$SRC" | cut -d: -f1; }
browsers=(chromium)
if [ "${UF_BROWSERS:-}" = chromium ]; then
	:   # make mutate: one browser judges a mutant (as t-browser.sh)
elif [ -x "$firefox" ]; then browsers+=(firefox); else skip "lines browser: firefox" "no $firefox"; fi
for b in "${browsers[@]}"; do
	# lines_hot runs 6 of its 9 units on hot-a: 67 %
	timeout 300 node "$here/test-lines.js" "$TMP/rec.svg" "$b" lines_hot "app-lines.c:$(mark hot-a)" 67 \
		main "app-lines.c:$(mark call-hot)"
	if [ $? -eq 124 ]; then fail "lines browser: $b" "timed out after 300 s"; fi
done
