#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# tests/render/t-heatroom.sh — the time view's room (render/svg.c
# heat_room, docs/svg-contract.md): a profile with sample times keeps 124
# px free above the header for the panel the script draws there, so no
# frame moves when it appears.  Checked against the same stacks without
# times: every frame, text and header element is written byte for byte the
# same; only the canvas (viewBox, height, background) grows upward by the
# room, which holds the note for viewers that run no script.  No room where
# the script draws no panel: no times, a flame chart, a differential,
# --no-js, --embed=none.  tests/browser/t-heatmap.sh checks in the browsers
# that the panel fills the room and changes no attribute of the canvas.
. "$(dirname "$0")/../lib.sh"
command -v python3 >/dev/null || { skip heatroom "python3 not installed"; exit 0; }

# a perf script with timestamps: 30 samples in two functions, 10 ms apart
python3 - "$TMP/perf.txt" <<'PY'
import sys
out = open(sys.argv[1], 'w')
for i in range(30):
    fn = 'work_a' if i % 3 else 'work_b'
    out.write('app 77 [000] %.6f: 10000000 cpu-clock:\n' % (100 + i * 0.01))
    out.write('\t401000 %s+0x10 (/app)\n\t401100 main+0x20 (/app)\n\n' % fn)
PY
"$UF" fold "$TMP/perf.txt" >"$TMP/plain.folded" 2>"$TMP/err" ||
	{ fail "heatroom: fold" "$(tail -1 "$TMP/err")"; exit 0; }

render() { # OUT ARGS...: renders, or fails the case with stderr's last line
	local out=$1
	shift
	"$UF" render "$@" -o "$TMP/$out" 2>"$TMP/err" || { fail "heatroom: render $*" "$(tail -1 "$TMP/err")"; return 1; }
}
render timed.svg "$TMP/perf.txt" && render plain.svg "$TMP/plain.folded" || exit 0

# compare TIMED PLAIN: the room's facts, one line each, "ok" when they hold
compare() {
	python3 - "$1" "$2" <<'PY'
import re, sys
timed, plain = (open(f).read() for f in sys.argv[1:])
def root(s):
    return re.search(r'<svg [^>]*>', s).group(0)
def attr(tag, name):
    m = re.search(r'\s' + name + r'="([^"]*)"', tag)
    return m.group(1) if m else None
rt, rp = root(timed), root(plain)
room = attr(rt, 'data-uf-heatroom')
print('room', room)
vt, vp = [list(map(float, attr(r, 'viewBox').split())) for r in (rt, rp)]
print('viewBox', 'ok' if vt[1] == vp[1] - 124 and vt[3] == vp[3] + 124 and vt[0::2] == vp[0::2] else (vt, vp))
print('height', 'ok' if float(attr(rt, 'height')) == float(attr(rp, 'height')) + 124 else (attr(rt, 'height'), attr(rp, 'height')))
bg = lambda s: re.search(r'<rect class="background"[^>]*>', s).group(0)
bt, bp = bg(timed), bg(plain)
print('background', 'ok' if float(attr(bt, 'y')) == float(attr(bp, 'y')) - 124 and
      float(attr(bt, 'height')) == float(attr(bp, 'height')) + 124 else (bt, bp))
note = re.search(r'<text id="uf-heatnote"[^>]*>([^<]*)</text>', timed)
print('note', 'ok' if note and vt[1] < float(attr(note.group(0), 'y')) < vt[1] + 124 and 'browser' in note.group(1) else note)
# everything from the title to the end of the frames, byte for byte
span = lambda s: s[s.index('<text id="title"'):s.index('<metadata id="uniprof-flame-data"')]
print('frames', 'ok' if span(timed) == span(plain) else 'differ')
PY
}
compare "$TMP/timed.svg" "$TMP/plain.svg" >"$TMP/facts" 2>&1
facts() { grep "^$1 " "$TMP/facts" | cut -d' ' -f2-; }
same() { # NAME WANT GOT
	[ "$2" = "$3" ] && pass "$1" || fail "$1" "got '$3', want '$2'"
}
same "heatroom: a timed profile declares 124 px of room" "124" "$(facts room)"
same "heatroom: the viewBox grows upward by the room, nothing else moves" "ok" "$(facts viewBox)"
same "heatroom: the height attribute grows by the room" "ok" "$(facts height)"
same "heatroom: the background covers the room" "ok" "$(facts background)"
same "heatroom: the room holds the note for viewers without a script" "ok" "$(facts note)"
same "heatroom: header, frames and texts are the untimed file's, byte for byte" "ok" "$(facts frames)"

# no panel, no room
no_room() { # LABEL FILE
	if grep -q 'data-uf-heatroom="\|<text id="uf-heatnote"' "$TMP/$2"; then
		fail "heatroom: no room for $1" "$(grep -o 'data-uf-heatroom="[^"]*"' "$TMP/$2")"
	else
		pass "heatroom: no room for $1"
	fi
}
no_room "a profile without times" plain.svg
render chart.svg --flamechart "$TMP/perf.txt" && no_room "a flame chart (the script draws no panel)" chart.svg
render nojs.svg --no-js "$TMP/perf.txt" && no_room "--no-js" nojs.svg
render noembed.svg --embed=none "$TMP/perf.txt" && no_room "--embed=none (no block, no times)" noembed.svg
render icicle.svg --inverted "$TMP/perf.txt" &&
	same "heatroom: an icicle graph keeps the room too" "124" \
		"$(grep -o 'data-uf-heatroom="[0-9]*"' "$TMP/icicle.svg" | tr -dc 0-9)"
if "$UF" diff "$TMP/perf.txt" "$TMP/perf.txt" -o "$TMP/diff.svg" 2>"$TMP/err"; then
	no_room "a differential (the script draws no panel)" diff.svg
else
	fail "heatroom: diff" "$(tail -1 "$TMP/err")"
fi
