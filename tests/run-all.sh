#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Runs every test suite and ends with one line: "N passed, N failed, N skipped".
#
# Suites:
#   build/asan/tests/test-*     cmocka unit tests (ASan+UBSan)
#   tests/<area>/t-*.sh         end-to-end tests; each prints lines
#                               "PASS: name", "FAIL: name: why", "SKIP: name: why"
# With CI=true a skip counts as a failure: CI must run everything.
# TESTS=pattern runs only suites whose path matches the pattern.
set -u
cd "$(dirname "$0")/.."
export UF="${UF:-$PWD/build/asan/uniprof-flame}"
export UF_REL="$PWD/build/uniprof-flame"
export UF_TOP="$PWD"
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=0}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"
pass=0 fail=0 skip=0
log=build/test-logs; mkdir -p "$log"

count_cmocka() {
	local out=$1 p f
	p=$(grep -c '^\[       OK \]' "$out")
	f=$(grep -c '^\[  FAILED  \] [a-z_]' "$out")
	pass=$((pass + p)); fail=$((fail + f))
	grep '^\[  FAILED  \] [a-z_]' "$out" | sed 's/^/  /'
}

for t in build/asan/tests/test-*; do
	[ -x "$t" ] || continue
	[ -n "${TESTS:-}" ] && [[ "$t" != *$TESTS* ]] && continue
	out="$log/$(basename "$t").log"
	"$t" >"$out" 2>&1; rc=$?
	before=$fail
	count_cmocka "$out"
	if [ $rc -ne 0 ] && [ $fail -eq $before ]; then
		echo "  FAIL: $t exited $rc"; tail -20 "$out" | sed 's/^/    /'; fail=$((fail + 1))
	fi
	echo "unit  $(basename "$t"): rc=$rc"
done

for t in tests/*/t-*.sh; do
	[ -f "$t" ] || continue
	[ -n "${TESTS:-}" ] && [[ "$t" != *$TESTS* ]] && continue
	out="$log/$(echo "$t" | tr / _).log"
	bash "$t" >"$out" 2>&1; rc=$?
	p=$(grep -c '^PASS: ' "$out"); f=$(grep -c '^FAIL: ' "$out"); s=$(grep -c '^SKIP: ' "$out")
	grep -E '^(FAIL|SKIP): ' "$out" | sed 's/^/  /'
	if [ $rc -ne 0 ] && [ "$f" -eq 0 ]; then
		echo "  FAIL: $t exited $rc"; tail -20 "$out" | sed 's/^/    /'; f=1
	fi
	pass=$((pass + p)); fail=$((fail + f))
	if [ "${CI:-}" = true ]; then fail=$((fail + s)); else skip=$((skip + s)); fi
	echo "e2e   $t: $p passed, $f failed, $s skipped"
done

echo "$pass passed, $fail failed, $skip skipped"
[ $fail -eq 0 ]
