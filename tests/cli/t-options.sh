#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# --help says what each command does with the options it shares, and every
# command reads single-dash long options as flamegraph.pl's Getopt::Long
# does (the rule is in cli/common.c and the README's render section).
source "$(dirname "$0")/../lib.sh"
F="$TMP/in.folded"
printf 'main;a 3\nmain;b 1\n' > "$F"

# --help: diff's shared block is diff's, not render's; what was missing
"$UF" diff --help > "$TMP/diff.help"
grep -q 'default "Differential Flame Graph"' "$TMP/diff.help" &&
	! grep -q 'default "Flame Graph"' "$TMP/diff.help" &&
	grep -q -- "--negate  *draw BEFORE's widths" "$TMP/diff.help" &&
	! grep -q -- '--negate  *swap' "$TMP/diff.help" &&
	pass "diff --help: its own default title and --negate" || fail "diff --help" "$(grep -e --negate -e title "$TMP/diff.help")"
"$UF" record --help > "$TMP/rec.help"
grep -q -- '--icicle' "$TMP/rec.help" && grep -q 'at most 8192' "$TMP/rec.help" &&
	grep -q '\[IPv6\]:PORT' "$TMP/rec.help" && grep -q "a path" "$TMP/rec.help" &&
	pass "record --help: --icicle, --max-depth's limit, --gdb's address forms" ||
	fail "record --help" "missing --icicle, 8192 or [IPv6]:PORT"
# the ways to name a target come from one table (record/backends.c): the
# "name one target" error, record --help's synopsis and option lines and
# the top-level usage list the same six, in the same order
ways=$("$UF" record -o x.svg 2>&1 | sed -n 's/.*name one target (\(.*\))$/\1/p' | sed 's/, / or /g; s/ or /\n/g')
syn_rec=$("$UF" record --help | sed -n 's/^.*\[options\] -o OUT.svg \(\[\?-x GUEST[^ ]* \)\?//p' | head -20)
syn_top=$("$UF" --help | sed -n 's/^.*\[record options\] -o OUT.svg \(\[\?-x GUEST[^ ]* \)\?//p')
if [ "$(echo "$ways" | wc -l)" = 6 ] && [ "$ways" = "$syn_rec" ] && [ "$ways" = "$syn_top" ] &&
	while read -r w; do grep -qF -- "  ${w%% *}" "$TMP/rec.help" || exit 1; done <<<"$ways"; then
	pass "targets: the error, record --help and --help list the same six ways"
else
	fail "targets: one list" "error: $(echo $ways) | record --help: $(echo $syn_rec) | --help: $(echo $syn_top)"
fi
"$UF" render --help | grep -q -- '--encoding NAME' && pass "render --help: --encoding" ||
	fail "render --help: --encoding"

# single-dash long options, with the value as the next word or after '='
"$UF" render -title 'One dash' -width=800 -colors mem "$F" -o "$TMP/r.svg" &&
	grep -q '>One dash</text>' "$TMP/r.svg" && grep -q 'width="800"' "$TMP/r.svg" &&
	grep -q 'stop-color="#e0ffe0"' "$TMP/r.svg" &&
	pass "render -title X -width=800 -colors mem" || fail "render single-dash"
"$UF" render -tit 'Prefix' "$F" -o "$TMP/p.svg" && grep -q '>Prefix</text>' "$TMP/p.svg" &&
	pass "render -tit: an unambiguous prefix, as Getopt::Long" || fail "render -tit"
(cd "$TMP" && "$UF" render -oout-attached.svg "$F" 2>/dev/null); [ -s "$TMP/out-attached.svg" ] &&
	pass "render -oFILE: a short option with its value attached" || fail "render -oFILE"
"$UF" fold -reverse "$F" > "$TMP/rev.folded" && grep -q '^a;main 3$' "$TMP/rev.folded" &&
	pass "fold -reverse" || fail "fold -reverse" "$(cat "$TMP/rev.folded")"
printf 'main;a 1\n' > "$TMP/before.folded"
"$UF" diff -negate -title=D "$TMP/before.folded" "$F" -o "$TMP/d.svg" && grep -q '>D</text>' "$TMP/d.svg" &&
	pass "diff -negate -title=D" || fail "diff single-dash"
if [ -x "${EXAMPLES:-$UF_TOP/build/examples}/app-test-1" ]; then
	(cd "$TMP" && "$UF" -q -F 199 -cp -title Rec -o rec.svg -- "${EXAMPLES:-$UF_TOP/build/examples}/app-test-1" 1 2>/dev/null)
	[ -s "$TMP/palette.map" ] && grep -q '>Rec</text>' "$TMP/rec.svg" &&
		pass "record -cp -title X: flamegraph.pl's --cp, not -c p" ||
		fail "record -cp" "no palette.map or title"
else
	skip "record -cp" "examples not built (make examples)"
fi

# --encoding: the label flamegraph.pl writes; another label than UTF-8 is said
# to be misleading (the bytes are UTF-8), once
"$UF" render --encoding UTF-8 "$F" -o "$TMP/u.svg" 2>"$TMP/err" && [ ! -s "$TMP/err" ] &&
	head -1 "$TMP/u.svg" | grep -q '^<?xml version="1.0" encoding="UTF-8" standalone="no"?>$' &&
	pass "--encoding UTF-8: flamegraph.pl's declaration, no warning" || fail "--encoding UTF-8" "$(cat "$TMP/err")"
"$UF" render -encoding=ISO-8859-1 "$F" -o "$TMP/l.svg" 2>"$TMP/err" && [ "$(wc -l < "$TMP/err")" -eq 1 ] &&
	grep -q 'warning: --encoding ISO-8859-1: the SVG is written in UTF-8' "$TMP/err" &&
	head -1 "$TMP/l.svg" | grep -q 'encoding="ISO-8859-1"' &&
	pass "--encoding ISO-8859-1: kept as flamegraph.pl does, with one warning" || fail "--encoding latin1" "$(cat "$TMP/err")"
