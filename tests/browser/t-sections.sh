#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# tests/browser/t-sections.sh — the embedded block's tagged sections
# (fold/embed/embed.c, item 5; docs/svg-contract.md): a block with
# sections no reader knows, and a block as writers before the tagging
# wrote it (untagged "loc"), read exactly as the file the renderer wrote,
# by the C reader (`fold`, `fold --flamechart` and `render` of the SVG give
# the same bytes) and by the script in Chromium and Firefox ESR
# (test-sections.js: the same drill-down frames and tooltips, source lines
# included).  The edited files are made by block-edit.py, independently
# of uniprof-flame; the legacy one is checked against main's writer too:
# with UF_OLD=/tmp/uf-base (main before the tagging), its binary re-renders
# it keeping the same block.
source "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"
here="$UF_TOP/tests/browser"
APP="${EXAMPLES:-$UF_TOP/build/examples}/app-lines"
chromium="${CHROMIUM:-/usr/bin/chromium}"
firefox="${FIREFOX:-/usr/bin/firefox-esr}"
export CHROMIUM="$chromium" FIREFOX="$firefox"
command -v python3 >/dev/null || { skip sections "python3 not installed"; exit 0; }
[ -x "$APP" ] || { skip sections "app-lines not built (make examples)"; exit 0; }

# A recording (names, libraries, source positions) and a flame chart (seq).
if ! "$UF_REL" -q -F 499 -T 2 -o "$TMP/rec.svg" -- "$APP" 1.5 >/dev/null 2>"$TMP/rec.err"; then
	if grep -q 'ptrace\|Operation not permitted' "$TMP/rec.err"; then
		skip sections "cannot ptrace here: $(tail -1 "$TMP/rec.err")"; exit 0
	fi
	fail "sections: record" "$(tail -1 "$TMP/rec.err")"; exit 0
fi
printf 'main;a;b 5\nmain;c 3\nmain;a;b 2\nidle 1\nmain;c 4\n' >"$TMP/seq.folded"
"$UF" render --flamechart "$TMP/seq.folded" -o "$TMP/chart.svg" || { fail "sections: flame chart" "render failed"; exit 0; }

for src in rec chart; do
	python3 "$here/block-edit.py" unknown "$TMP/$src.svg" "$TMP/$src-unknown.svg" ||
		{ fail "sections: block-edit unknown $src" "no packed block"; exit 0; }
done
python3 "$here/block-edit.py" legacy "$TMP/rec.svg" "$TMP/rec-legacy.svg" ||
	{ fail "sections: block-edit legacy" "no pos section in the recording"; exit 0; }
python3 "$UF_TOP/tests/embedded-text.py" "$TMP/rec-unknown.svg" | grep -qx 'zz-future 3' &&
	python3 "$UF_TOP/tests/embedded-text.py" "$TMP/rec-legacy.svg" | grep -q '^loc [0-9]* [0-9]*$' &&
	! python3 "$UF_TOP/tests/embedded-text.py" "$TMP/rec-legacy.svg" | grep -q '^pos ' &&
	pass "sections: the edited blocks carry what the test needs" ||
	fail "sections: the edited blocks carry what the test needs" "block-edit.py did not edit"

# same NAME CMD...: CMD on the reference and on each edited file gives the same bytes
same() {
	local name=$1 ref=$2; shift 2
	local f out=0
	"$@" "$TMP/$ref.svg" >"$TMP/want" 2>"$TMP/err" || { fail "sections: $name" "$(head -1 "$TMP/err")"; return; }
	for f in "$TMP/$ref"-*.svg; do
		if ! "$@" "$f" >"$TMP/got" 2>"$TMP/err" || ! cmp -s "$TMP/want" "$TMP/got"; then
			fail "sections: $name: $(basename "$f")" "$(head -1 "$TMP/err")$(diff "$TMP/want" "$TMP/got" | head -3 | tr '\n' ' ')"
			out=1
		fi
	done
	[ $out = 0 ] && pass "sections: $name"
}
render_stdout() { "$UF" render "$1" -o -; }
same "fold reads past unknown sections and the old loc" rec "$UF" fold
same "render keeps names, counts and source positions" rec render_stdout
same "fold --flamechart keeps the time order past an unknown section" chart "$UF" fold --flamechart
same "render of a flame chart is the same" chart render_stdout
# render of the legacy file writes the tagged form: the positions were read
python3 "$UF_TOP/tests/embedded-text.py" <("$UF" render "$TMP/rec-legacy.svg" -o -) | grep -q '^pos [0-9]* [0-9]*$' &&
	pass "sections: an old loc section is read and written back tagged" ||
	fail "sections: an old loc section is read and written back tagged" "no pos section in the re-render"
# main's writer wrote exactly this legacy form: its binary re-renders the
# legacy file byte for byte (it keeps what it reads)
if [ -n "${UF_OLD:-}" ] && [ -x "$UF_OLD" ]; then
	"$UF_OLD" render "$TMP/rec-legacy.svg" -o "$TMP/old-again.svg" 2>/dev/null &&
		python3 "$UF_TOP/tests/embedded-text.py" "$TMP/old-again.svg" >"$TMP/a.txt" &&
		python3 "$UF_TOP/tests/embedded-text.py" "$TMP/rec-legacy.svg" >"$TMP/b.txt" && cmp -s "$TMP/a.txt" "$TMP/b.txt" &&
		pass "sections: the legacy block is what $UF_OLD writes" ||
		fail "sections: the legacy block is what $UF_OLD writes" "$(diff "$TMP/a.txt" "$TMP/b.txt" | head -3 | tr '\n' ' ')"
else
	echo "NOTE: sections: UF_OLD unset: the legacy block is not checked against an older binary (UF_OLD=/tmp/uf-base)"
fi

if ! command -v node >/dev/null 2>&1; then skip "sections browser" 'node not installed'; exit 0; fi
[ -x "$chromium" ] || { skip "sections browser" "no $chromium"; exit 0; }
[ -d "$here/node_modules/puppeteer-core" ] ||
	(cd "$here" && npm ci --no-audit --no-fund --loglevel=error) >"$TMP/npm.log" 2>&1 ||
	{ fail "sections browser: deps" "npm ci failed: $(tail -1 "$TMP/npm.log")"; exit 1; }
browsers=(chromium)
if [ "${UF_BROWSERS:-}" = chromium ]; then
	:
elif [ -x "$firefox" ]; then browsers+=(firefox); else skip "sections browser: firefox" "no $firefox"; fi
for b in "${browsers[@]}"; do
	timeout 300 node "$here/test-sections.js" "$b" "$TMP/rec.svg" "$TMP/rec-unknown.svg" "$TMP/rec-legacy.svg"
	if [ $? -eq 124 ]; then fail "sections browser: $b" "timed out after 300 s"; fi
done
