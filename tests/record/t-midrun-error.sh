#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# tests/record/t-midrun-error.sh — an error in the middle of a run (the
# gdb stub answers 5 stops correctly, then sends a broken reply): record
# writes what it sampled and exits with the error's code (3, a target
# error), the error on one line.  Dropping the line of record/record.c
# that turns the sampling error into the exit status makes this fail.
. "$(dirname "$0")/../lib.sh"
command -v python3 >/dev/null || { skip midrun-error "no python3"; exit 0; }

# midrun MODE PATTERN: record against the stub in MODE
midrun() {
	local mode=$1 pat=$2 sock=$TMP/stub-$1.sock
	python3 "$UF_TOP/tests/gdb/fake-stub.py" "$mode" "$sock" &
	local spid=$!
	for _ in $(seq 400); do [ -S "$sock" ] && break; sleep 0.05; done
	timeout 30 "$UF" --gdb "$sock" --addrs -F 200 -o "$TMP/$mode.svg" --folded "$TMP/$mode.folded" \
		>"$TMP/$mode.out" 2>"$TMP/$mode.err"; local rc=$?
	kill $spid 2>/dev/null; wait $spid 2>/dev/null
	local n errs
	n=$(awk '{ n += $NF } END { print n + 0 }' "$TMP/$mode.folded" 2>/dev/null)
	errs=$(grep -c "^uniprof-flame: gdb stub '.*': .*$pat" "$TMP/$mode.err")
	if [ $rc -eq 3 ] && [ "$errs" = 1 ] && [ "$n" = 5 ] && grep -q '<svg' "$TMP/$mode.svg" 2>/dev/null &&
		! grep -q 'Sanitizer\|runtime error' "$TMP/$mode.err"; then
		pass "midrun-error $mode: exit 3, '$pat' once, the 5 samples taken written (SVG, folded)"
	else
		fail "midrun-error $mode" "rc=$rc (want 3), error lines $errs, samples written ${n:-none}: $(head -2 "$TMP/$mode.err" | tr '\n' '|')"
	fi
}

midrun lateregs 'malformed register reply'
midrun latestop 'unexpected stop reply'
exit 0
