#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# tests/browser/t-sandwich-view.sh — the sandwich view inside the SVG
# (templates/js/86-sandwich.js) in headless Chromium and Firefox ESR
# (test-sandwich.js): for functions called from many places in FlameGraph's
# real perf capture (a kernel lock, a libpthread frame), a recursive one
# (Interpreter there, and f in a small generated profile) and a
# differential, the halves equal `render --callers/--callees NAME` of the
# same SVG frame for frame, NAME's count is the samples with it on the
# stack counted once (an independent Python count of the folded text),
# and search inside the sandwich gives the share Python computes; on a
# generated tree big enough for quick halves, the first frame's shapes are
# the full view's (position, colour, tooltip).
source "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"
here="$UF_TOP/tests/browser"
chromium="${CHROMIUM:-/usr/bin/chromium}"
firefox="${FIREFOX:-/usr/bin/firefox-esr}"
export CHROMIUM="$chromium" FIREFOX="$firefox"
command -v python3 >/dev/null || { skip "sandwich browser" "python3 not installed"; exit 0; }
command -v node >/dev/null 2>&1 || { skip "sandwich browser" 'node not installed (apt-get install nodejs npm)'; exit 0; }
[ -x "$chromium" ] || { skip "sandwich browser" "no $chromium (apt-get install chromium)"; exit 0; }
[ -d "$here/node_modules/puppeteer-core" ] ||
	(cd "$here" && npm ci --no-audit --no-fund --loglevel=error) >"$TMP/npm.log" 2>&1 ||
	{ fail "sandwich browser: deps" "npm ci failed: $(tail -1 "$TMP/npm.log")"; exit 1; }

printf 'main;f;g;f;h 3\nmain;f;f;f 2\nmain;k;f 4\nmain;k;x 1\nidle 5\nmain;f_[i];g 2\n' >"$TMP/rec.folded"
printf 'main;f;g;f;h 1\nmain;f;f;f 6\nmain;k;f 2\nmain;k;x 3\nidle 5\n' >"$TMP/before.folded"
"$UF" render "$TMP/rec.folded" -o "$TMP/rec.svg" &&
	"$UF" diff "$TMP/before.folded" "$TMP/rec.folded" -o "$TMP/diff.svg" 2>/dev/null ||
	{ fail "sandwich browser: render" "render failed"; exit 0; }
inputs=("$TMP/rec.folded|$TMP/rec.svg|f|g" "$TMP/rec.folded|$TMP/diff.svg|f|^h$")
ex=$SHARED/flamegraph-ref/inputs/example-perf.folded
if [ -s "$ex" ]; then
	"$UF" render "$ex" -o "$TMP/ex.svg" || { fail "sandwich browser: render ex" "render failed"; exit 0; }
	inputs+=("$ex|$TMP/ex.svg|_raw_spin_lock_irqsave|^tcp_" "$ex|$TMP/ex.svg|[libpthread-2.19.so]|"
		"$ex|$TMP/ex.svg|Interpreter|JavaCalls")
else
	skip "sandwich browser: real capture" "$ex not found (../shared is the project's oracle folder)"
fi
# A generated call tree (bench/browser/gen-tree.js) whose sandwich of its
# hottest name has frames narrower than half a pixel: the view's first
# frame comes from quick halves (86-sandwich.js), the full view next.
node "$UF_TOP/bench/browser/gen-tree.js" 4000 7 "$TMP/tree.folded" >/dev/null &&
	"$UF" render "$TMP/tree.folded" -o "$TMP/tree.svg" &&
	inputs+=("$TMP/tree.folded|$TMP/tree.svg|parse_0|^alloc|quick") ||
	fail "sandwich browser: render tree" "gen-tree.js or render failed"

# The truth from the folded text: samples with NAME (or NAME_[x]) on the
# stack, each once; of those, the share with a frame matching the search.
python3 - "$TMP/cases.json" "${inputs[@]}" <<'EOF'
import json, re, sys
cases = []
for spec in sys.argv[2:]:
    folded, svg, name, search, *quick = spec.split('|')
    isf = re.compile(re.escape(name) + '$')
    n = m = 0
    top = {}   # matched function -> samples, once per sample, in the callees half
    for line in open(folded, encoding='latin1'):
        st, w = line.rstrip('\n').rsplit(' ', 1)
        frames = [re.sub(r'_\[.\]$', '', f) for f in st.split(';')]   # as the viewer shows them
        at = next((i for i, f in enumerate(frames) if isf.match(f)), None)
        if at is None:
            continue
        n += int(w)
        if search and any(re.search(search, f) for f in frames):
            m += int(w)
        callees = [name] + frames[at + 1:]
        for f in set(callees):
            if search and re.search(search, f):
                top[f] = top.get(f, 0) + int(w)
    c = {'svg': svg, 'name': name, 'count': n, 'quick': quick == ['quick']}
    if search:
        v = 100 * m / n
        c['search'] = search
        c['matchedView'] = '0' if v <= 0 else '<0.01' if v < 0.005 else ('%.2f' % v).rstrip('0').rstrip('.')
        best = sorted(top.items(), key=lambda e: -e[1])
        if best and (len(best) == 1 or best[0][1] > best[1][1]):
            c['topFirst'], c['topCount'] = best[0]
    cases.append(c)
json.dump(cases, open(sys.argv[1], 'w'))
EOF
browsers=(chromium)
if [ "${UF_BROWSERS:-}" = chromium ]; then
	:
elif [ -x "$firefox" ]; then browsers+=(firefox); else skip "sandwich browser: firefox" "no $firefox"; fi
for b in "${browsers[@]}"; do
	timeout 600 node "$here/test-sandwich.js" "$b" "$UF_REL" "$TMP" "$TMP/cases.json"
	if [ $? -eq 124 ]; then fail "sandwich browser: $b" "timed out after 600 s"; fi
done
