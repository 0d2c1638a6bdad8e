#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# tests/record/t-inline.sh — record --inline on app-inline (-O2, mix()
# always inlined into pipeline()): the inlined function is a frame of its
# own, marked _[i], with its true share (+-3 points); without --inline its
# samples are its caller's; the inlined frame survives the SVG round trip.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/lib-record.sh"
need_ptrace inline
APP="$EXAMPLES/app-inline"
[ -x "$APP" ] || { skip inline "app-inline not built (make examples)"; exit 0; }
if ! readelf --debug-dump=info "$APP" 2>/dev/null | grep -q DW_TAG_inlined_subroutine; then
	skip inline "the compiler left no inlined-subroutine scope in app-inline"; exit 0
fi

OUT="$TMP/inl"
record_truth "inline" "$TRUTH/app-inline.truth" \
	"$UF" -F 199 -T 3 --inline -o "$OUT.svg" --folded "$OUT.folded" -- "$APP" 3.5 2>/dev/null
"$UF" fold "$OUT.svg" | grep -v '^#' | cmp -s - "$OUT.folded" &&
	pass "inline: the SVG keeps the inlined frames (fold equals --folded)" || fail "inline: SVG round trip"
"$UF" -F 99 -T 1 --folded "$TMP/plain.folded" -- "$APP" 1.5 2>/dev/null
! grep -q 'mix' "$TMP/plain.folded" && grep -q ';pipeline [0-9]' "$TMP/plain.folded" &&
	pass "inline: without --inline the inlined samples are the caller's" ||
	fail "inline: without --inline" "$(cat "$TMP/plain.folded")"
"$UF" -F 99 -T 1 --inline --flamechart -o "$TMP/x.svg" -- "$APP" 1 >/dev/null 2>"$TMP/e"; rc=$?
[ "$rc" -eq 1 ] && grep -q "'--inline': cannot be combined" "$TMP/e" &&
	pass "inline: with --flamechart: a usage error" || fail "inline: --flamechart" "rc=$rc $(cat "$TMP/e")"
