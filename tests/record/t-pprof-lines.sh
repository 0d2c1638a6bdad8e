#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# tests/record/t-pprof-lines.sh — `record -o x.pb.gz` without -x has the
# source lines the SVG of the same run has: the recorder knows the
# executable and reads its DWARF, as it does for the SVG's tooltips.
# Oracle: `go tool pprof -lines` (Debian golang-go).
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/lib-record.sh"
need_ptrace pprof-lines
command -v go >/dev/null || { skip pprof-lines "no go (apt-get install golang-go)"; exit 0; }
app="$EXAMPLES/app-test-1"
timeout 60 "$UF" -q -F 200 -o "$TMP/rec.pb.gz" -- "$app" 1 >/dev/null 2>&1; rc=$?
timeout 120 go tool pprof -lines -top "$TMP/rec.pb.gz" >"$TMP/top.txt" 2>"$TMP/err"
if [ $rc -eq 0 ] && grep -qE ' function_3 workloads/workloads\.c:[0-9]+$' "$TMP/top.txt"; then
	pass "record -o .pb.gz without -x: file:line from the executable ($(grep -m1 ' function_3 ' "$TMP/top.txt" | awk '{ print $NF }'))"
else
	fail "record -o .pb.gz without -x: file:line" "rc=$rc: $(grep -m2 function_3 "$TMP/top.txt" | tr '\n' '|') $(tail -1 "$TMP/err")"
fi
# the mapping of the executable says it has lines (pprof -raw: Mappings)
timeout 120 go tool pprof -raw "$TMP/rec.pb.gz" >"$TMP/raw.txt" 2>/dev/null
sed -n '/^Mappings/,$p' "$TMP/raw.txt" | grep -F "$app" | grep -qF '[FL]' &&
	pass "record -o .pb.gz without -x: the executable's mapping has lines" ||
	fail "record pprof mapping lines" "$(sed -n '/^Mappings/,$p' "$TMP/raw.txt" | grep -F "$app" | head -2)"
exit 0
