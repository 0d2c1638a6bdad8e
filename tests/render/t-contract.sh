#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# tests/render/t-contract.sh — the C-JS contract (docs/svg-contract.md)
# against the script and against real SVGs of every kind: plain, icicle,
# flame chart, subtitle, differential and a recording with libraries and
# source positions.  Then a drifted copy of the contract must fail.
. "$(dirname "$0")/../lib.sh"
command -v python3 >/dev/null || { skip contract "python3 not installed"; exit 0; }
export UF_TOP
printf 'main;a;b 5\nmain;c 3\n' >"$TMP/a.folded"
printf 'main;a;b 2\nmain;d 3\n' >"$TMP/b.folded"
"$UF" render "$TMP/a.folded" -o "$TMP/plain.svg" &&
	"$UF" render --inverted --subtitle S "$TMP/a.folded" -o "$TMP/icicle.svg" &&
	"$UF" render --flamechart "$TMP/a.folded" -o "$TMP/chart.svg" &&
	"$UF" diff "$TMP/a.folded" "$TMP/b.folded" -o "$TMP/diff.svg" 2>/dev/null ||
	{ fail contract "a render failed"; exit 0; }
prog=$UF_TOP/build/examples/app-test-1-so
if [ ! -x "$prog" ]; then
	skip contract "$prog not built (make examples)"
	exit 0
fi
"$UF_REL" -q -F 199 -o "$TMP/rec.svg" -- "$prog" 1 >/dev/null 2>"$TMP/rec.err" ||
	{ fail contract "record failed: $(head -n 1 "$TMP/rec.err")"; exit 0; }
python3 "$UF_TOP/tests/render/contract_check.py" "$TMP"/*.svg

# The test can fail: a contract that drops one attribute and one id must.
mkdir -p "$TMP/top/docs" "$TMP/top/fold/embed" "$TMP/top/fold/model"
ln -s "$UF_TOP/templates" "$TMP/top/templates"
for f in fold/embed/embed.c fold/embed/embed-read.c fold/model/loc.c; do cp "$UF_TOP/$f" "$TMP/top/$f"; done
grep -v -e '^attr       data-uf-legendh' -e '^id         matched' "$UF_TOP/docs/svg-contract.md" >"$TMP/top/docs/svg-contract.md"
n=$(UF_TOP=$TMP/top python3 "$UF_TOP/tests/render/contract_check.py" "$TMP"/*.svg | grep -c '^FAIL')
[ "$n" -ge 2 ] && pass "contract: a drifted declaration fails ($n checks)" ||
	fail "contract: a drifted declaration fails" "only $n checks failed"
