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

# The C reader against the grammar's limits: the longest header it allows
# is stepped over (fold gives the same profile), one past it is refused.
"$UF" fold "$TMP/plain.svg" >"$TMP/plain.want"
k=0
while IFS= read -r h; do
	python3 "$UF_TOP/tests/browser/block-edit.py" add "$h" "$TMP/plain.svg" "$TMP/g$k.svgx" || fail "contract: block-edit" "$h"
	"$UF" fold "$TMP/g$k.svgx" >"$TMP/g$k.got" 2>"$TMP/g$k.err"
	echo $? >"$TMP/g$k.rc"
	k=$((k + 1))
done < <(python3 "$UF_TOP/tests/render/contract_check.py" --headers)
[ "$(cat "$TMP/g0.rc")" = 0 ] && cmp -s "$TMP/plain.want" "$TMP/g0.got" &&
	pass "contract: the C reader steps over the longest section header the grammar allows" ||
	fail "contract: the C reader steps over the longest section header the grammar allows" "$(head -1 "$TMP/g0.err")"
[ "$(cat "$TMP/g1.rc")" = 2 ] && [ "$(cat "$TMP/g2.rc")" = 2 ] && grep -q 'corrupt block' "$TMP/g1.err" &&
	pass "contract: the C reader refuses a header past the grammar (name, arguments)" ||
	fail "contract: the C reader refuses a header past the grammar (name, arguments)" "exit $(cat "$TMP/g1.rc") / $(cat "$TMP/g2.rc")"

# The test can fail: a contract that drops one attribute and one id must.
mkdir -p "$TMP/top/docs" "$TMP/top/fold/embed" "$TMP/top/fold/model"
ln -s "$UF_TOP/templates" "$TMP/top/templates"
mkdir -p "$TMP/top/tests" && cp "$UF_TOP/tests/embedded-text.py" "$TMP/top/tests/"
for f in fold/embed/embed.c fold/embed/embed-read.c fold/model/loc.c; do cp "$UF_TOP/$f" "$TMP/top/$f"; done
grep -v -e '^attr       data-uf-legendh' -e '^id         matched' "$UF_TOP/docs/svg-contract.md" >"$TMP/top/docs/svg-contract.md"
n=$(UF_TOP=$TMP/top python3 "$UF_TOP/tests/render/contract_check.py" "$TMP"/*.svg | grep -c '^FAIL')
[ "$n" -ge 2 ] && pass "contract: a drifted declaration fails ($n checks)" ||
	fail "contract: a drifted declaration fails" "only $n checks failed"
