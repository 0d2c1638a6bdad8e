#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# tests/render/t-mirrors.sh — the script's parts (templates/js/*.js) and
# the C they mirror: every "mirrors FILE:FUNC()" comment names a function
# that exists (mirrors_check.py), the parts make one IIFE, and the joined
# script parses (node --check).  Then the test must fail: a tree where one
# mirrored C function is renamed.
. "$(dirname "$0")/../lib.sh"
command -v python3 >/dev/null || { skip mirrors "python3 not installed"; exit 0; }
export UF_TOP
python3 "$UF_TOP/tests/render/mirrors_check.py"
if command -v node >/dev/null; then
	cat "$UF_TOP"/templates/js/*.js >"$TMP/joined.js"
	node --check "$TMP/joined.js" 2>"$TMP/node.err" &&
		pass "mirrors: the joined script parses" ||
		fail "mirrors: the joined script parses" "$(head -1 "$TMP/node.err")"
else
	skip "mirrors: the joined script parses" "node not installed"
fi

# A rename on the C side fails the check until the comment follows it.
mkdir -p "$TMP/top/render" "$TMP/top/templates"
ln -s "$UF_TOP/templates/js" "$TMP/top/templates/js"
for d in fold util; do ln -s "$UF_TOP/$d" "$TMP/top/$d"; done
for f in "$UF_TOP"/render/*.c; do cp "$f" "$TMP/top/render/"; done
sed -i 's/^static void count_text(/static void count_text_renamed(/' "$TMP/top/render/frames.c"
out=$(UF_TOP=$TMP/top python3 "$UF_TOP/tests/render/mirrors_check.py" | grep '^FAIL: mirrors: every named')
case $out in
*render/frames.c:count_text\(\)*) pass "mirrors: a renamed C function fails the check" ;;
*) fail "mirrors: a renamed C function fails the check" "got: ${out:-no failure}" ;;
esac
