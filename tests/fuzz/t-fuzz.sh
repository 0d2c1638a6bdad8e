#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# tests/fuzz/t-fuzz.sh — every fuzz harness (tests/fuzz/fuzz-*.c) replays
# its seed corpus and every past crash (tests/fuzz/corpus/NAME/,
# tests/fuzz/crashes/NAME/): a regression of a fixed bug fails here in
# seconds.  With CI=true (or FUZZ_CI_S set) each harness also fuzzes for
# FUZZ_CI_S seconds (default 3) from a scratch copy of its corpus.
# Needs clang with libFuzzer (libclang-rt-14-dev); builds with
# `make fuzz-build`.
. "$(dirname "$0")/../lib.sh"
cd "$UF_TOP"
if ! command -v "${FUZZ_CC:-clang}" >/dev/null 2>&1; then skip fuzz-build "clang not installed"; exit 0; fi
if ! nice make --no-print-directory -j2 fuzz-build >"$TMP/build.log" 2>&1; then
	if grep -q 'fuzzer' "$TMP/build.log" && ! ls /usr/lib/llvm-*/lib/clang/*/lib/linux/libclang_rt.fuzzer-x86_64.a >/dev/null 2>&1; then
		skip fuzz-build "clang has no libFuzzer (libclang-rt-14-dev)"; exit 0
	fi
	fail fuzz-build "$(grep -m3 -E 'error|Error' "$TMP/build.log" | tr '\n' ' ')"; exit 0
fi
pass fuzz-build
secs=${FUZZ_CI_S:-}
[ -z "$secs" ] && [ "${CI:-}" = true ] && secs=3
for bin in build/fuzz/fuzz-*; do
	[ -x "$bin" ] || continue
	name=${bin#build/fuzz/fuzz-}
	inputs=()
	for d in tests/fuzz/corpus/$name tests/fuzz/crashes/$name; do
		[ -d "$d" ] && for f in "$d"/*; do [ -f "$f" ] && inputs+=("$f"); done
	done
	if [ ${#inputs[@]} -eq 0 ]; then fail "fuzz-replay-$name" "no seed corpus in tests/fuzz/corpus/$name"; continue; fi
	if "$bin" -timeout=20 "${inputs[@]}" >"$TMP/$name.log" 2>&1; then
		pass "fuzz-replay-$name (${#inputs[@]} inputs)"
	else
		bad=$(grep -o 'Running: [^ ]*' "$TMP/$name.log" | tail -1)
		fail "fuzz-replay-$name" "${bad#Running: }: $(grep -m1 -E 'fuzz oracle|runtime error|ERROR' "$TMP/$name.log")"
	fi
	[ -n "$secs" ] || continue
	mkdir -p "$TMP/c-$name"
	cp tests/fuzz/corpus/$name/* "$TMP/c-$name/"
	dict=()
	[ -f tests/fuzz/dict/$name.dict ] && dict=(-dict=tests/fuzz/dict/$name.dict)
	opts=()
	[ -f tests/fuzz/$name.options ] && read -r -a opts <tests/fuzz/$name.options
	if "$bin" -max_total_time="$secs" -timeout=60 -rss_limit_mb=2048 -print_final_stats=1 \
		-artifact_prefix="$TMP/" "${opts[@]}" "${dict[@]}" "$TMP/c-$name" >"$TMP/$name.fuzz.log" 2>&1; then
		pass "fuzz-run-$name ($(grep -o 'number_of_executed_units: *[0-9]*' "$TMP/$name.fuzz.log" | grep -o '[0-9]*$') execs in ${secs}s)"
	else
		fail "fuzz-run-$name" "$(grep -m1 -E 'fuzz oracle|runtime error|ERROR' "$TMP/$name.fuzz.log"); input: $(ls "$TMP"/crash-* "$TMP"/leak-* "$TMP"/timeout-* 2>/dev/null | head -1 | xargs -r base64 -w0 | head -c 400)"
	fi
done
exit 0
