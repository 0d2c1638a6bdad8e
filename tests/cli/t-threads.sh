#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# tests/cli/t-threads.sh — the small-input rule of util/split2.h, end to
# end: a render of a small profile (the size of FlameGraph's 646 KB perf
# capture) and a diff of two small perf-script files start no thread, a
# render of a profile over 1 MiB does (its index runs on two).  Threads
# are counted with strace (clone/clone3 of the release binary: ASan's leak
# check clones at exit).  A thread for a small input costs more than its
# work (issue 32: start-up and allocation proportional to the input).
source "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"

if ! command -v strace >/dev/null 2>&1; then
	skip "threads" "strace not installed (Debian: apt-get install strace)"
	exit 0
fi

# clones CMD...: how many threads or processes CMD started (-1: it failed)
clones() {
	if ! strace -f -qq -e trace=clone,clone3 -o "$TMP/st" "$@" >/dev/null 2>"$TMP/err"; then
		echo -1
		return
	fi
	grep -c 'clone' "$TMP/st"
}

python3 "$UF_TOP/tests/gen-profile.py" 5 6800 >"$TMP/small.folded"
python3 "$UF_TOP/tests/gen-profile.py" 5 12000 >"$TMP/big.folded"
small=$(stat -c %s "$TMP/small.folded") big=$(stat -c %s "$TMP/big.folded")
perf_in="$UF_TOP/tests/data/interop/perf-edge.txt"

n=$(clones "$UF_REL" render "$TMP/small.folded" -o "$TMP/s.svg")
if [ "$n" = 0 ]; then
	pass "threads: render of a $small-byte profile starts no thread"
else
	fail "threads: render of a $small-byte profile" "$n clones, want 0: $(head -c 300 "$TMP/st" "$TMP/err" | tr '\n' '|')"
fi

n=$(clones "$UF_REL" diff "$perf_in" "$perf_in" -o "$TMP/d.svg")
if [ "$n" = 0 ]; then
	pass "threads: diff of two small perf-script files starts no thread"
else
	fail "threads: diff of two small perf-script files" "$n clones, want 0: $(head -c 300 "$TMP/st" "$TMP/err" | tr '\n' '|')"
fi

n=$(clones "$UF_REL" render "$TMP/big.folded" -o "$TMP/b.svg")
if [ "$n" -ge 1 ] 2>/dev/null; then
	pass "threads: render of a $big-byte profile reads on two threads ($n started)"
else
	fail "threads: render of a $big-byte profile" "$n clones, want >= 1 (the second index lane)"
fi

