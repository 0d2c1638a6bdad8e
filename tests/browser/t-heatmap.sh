#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# tests/browser/t-heatmap.sh — the SVG's time view (issue 30,
# templates/js/88-heatmap.js) in headless Chromium and Firefox ESR
# (test-heatmap.js), on two inputs with a known truth:
#   - app-phases recorded live (`record -o x.svg --raw x.raw`): the heat
#     map's columns against the raw trace's own #sample lines, each phase's
#     columns against the program's printed phase times;
#   - a generated `perf script` with timestamps (three phases of 0.5 s at
#     100 Hz, the middle one blocked in sched_switch waits).
# A file without times has no "time" section and no panel.
source "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"
here="$UF_TOP/tests/browser"
EXAMPLES="${EXAMPLES:-$UF_TOP/build/examples}"
chromium="${CHROMIUM:-/usr/bin/chromium}"
firefox="${FIREFOX:-/usr/bin/firefox-esr}"
export CHROMIUM="$chromium" FIREFOX="$firefox"
command -v python3 >/dev/null || { skip "heatmap browser" "python3 not installed"; exit 0; }
command -v node >/dev/null 2>&1 || { skip "heatmap browser" 'node not installed (apt-get install nodejs npm)'; exit 0; }
[ -x "$chromium" ] || { skip "heatmap browser" "no $chromium (apt-get install chromium)"; exit 0; }
[ -d "$here/node_modules/puppeteer-core" ] ||
	(cd "$here" && npm ci --no-audit --no-fund --loglevel=error) >"$TMP/npm.log" 2>&1 ||
	{ fail "heatmap browser: deps" "npm ci failed: $(tail -1 "$TMP/npm.log")"; exit 1; }

"$UF" -q -o "$TMP/ph.svg" --raw "$TMP/ph.raw" -- "$EXAMPLES/app-phases" 1.5 2>"$TMP/ph.err" ||
	{ fail "heatmap browser: record app-phases" "$(tail -1 "$TMP/ph.err")"; exit 0; }

# a perf script: phase_a runs 0-0.5 s, phase_wait blocks 0.5-1 s (a
# sched_switch every 10 ms, the wait until the next), phase_b runs 1-1.5 s
python3 - "$TMP/perf.txt" <<'PY'
import sys
out = open(sys.argv[1], 'w')
t0 = 5000.0
for i in range(150):
    t = t0 + i * 0.01
    ph = ['phase_a', 'phase_wait', 'phase_b'][i // 50]
    if ph == 'phase_wait':
        out.write('app 77 [000] %.6f: sched:sched_switch: prev_comm=app prev_pid=77 prev_prio=120 prev_state=S ==> next_comm=swapper/0 next_pid=0 next_prio=120\n' % t)
        out.write('\tffffffff81000000 __schedule+0x0 ([kernel.kallsyms])\n\t401000 phase_wait+0x10 (/app)\n\t401100 main+0x20 (/app)\n\n')
    else:
        out.write('app 77 [000] %.6f: 10000000 cpu-clock:\n' % t)
        out.write('\t401000 %s+0x10 (/app)\n\t401100 main+0x20 (/app)\n\n' % ph)
PY
"$UF" render "$TMP/perf.txt" -o "$TMP/perf.svg" 2>"$TMP/perf.err" ||
	{ fail "heatmap browser: render perf" "$(tail -1 "$TMP/perf.err")"; exit 0; }

# the truths: each sample's time (µs since the first) and whether it
# waited, from the raw trace's #sample lines and the generator; phases
# from the program's own "truth PHASE wall SECONDS" lines, in order
python3 - "$TMP/cases.json" "$TMP/ph.svg" "$TMP/ph.raw" "$TMP/ph.err" "$TMP/perf.svg" <<'PY'
import json, re, sys
dst, svg, raw, err, psvg = sys.argv[1:]
ts = []
for l in open(raw):
    m = re.match(r'#sample t_ns=(\d+) state=(\w+)', l)
    if m:
        ts.append((int(m.group(1)), m.group(2) in ('runnable', 'blocked', 'offline')))
t0 = min(t for t, _ in ts)
samples = [[(t - t0) // 1000, w, 1] for t, w in ts]
phases, at = [], 0.0
for l in open(err):
    m = re.match(r'truth (phase_\w+) wall ([\d.]+)', l)
    if m:
        phases.append([m.group(1), at, at + float(m.group(2))])
        at += float(m.group(2))
# perf counts are ns: a cpu-clock sample its period, a wait the ns until
# the thread's next event (fold/in/read-perf.c): 10 ms each here
psamples = [[i * 10000, 50 <= i < 100, 10000000] for i in range(150)]
pphases = [['phase_a', 0, 0.5], ['phase_wait', 0.5, 1.0], ['phase_b', 1.0, 1.5]]
json.dump([{'svg': svg, 'samples': samples, 'phases': phases},
           {'svg': psvg, 'samples': psamples, 'phases': pphases}], open(dst, 'w'))
PY

# no times, no section: a folded input's SVG is what it was
printf 'main;f 3\nmain;g 2\n' >"$TMP/plain.folded"
"$UF" render "$TMP/plain.folded" -o "$TMP/plain.svg"
if python3 - "$TMP/plain.svg" <<'PY'
import base64, re, sys, zlib
s = open(sys.argv[1], encoding='latin1').read()
m = re.search(r'<metadata id="uniprof-flame-data"[^>]*>(.*?)</metadata>', s, re.S)
u = zlib.decompress(base64.b64decode(re.sub(r'\s', '', m.group(1))))
sys.exit(1 if b'\ntime ' in u else 0)
PY
then pass "heatmap: a profile without times has no time section"
else fail "heatmap: a profile without times has no time section" "found one"; fi

browsers=(chromium)
if [ "${UF_BROWSERS:-}" = chromium ]; then
	:
elif [ -x "$firefox" ]; then browsers+=(firefox); else skip "heatmap browser: firefox" "no $firefox"; fi
for b in "${browsers[@]}"; do
	timeout 600 node "$here/test-heatmap.js" "$b" "$UF_REL" "$TMP" "$TMP/cases.json"
	if [ $? -eq 124 ]; then fail "heatmap browser: $b" "timed out after 600 s"; fi
done
