#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# tests/cli/t-heap-thp.sh — util/bigalloc.h's uf_heap_thp, end to end: a
# render of a profile over 1 MiB marks part of the heap (between the first
# break and the highest one) MADV_HUGEPAGE; a render of a small one (the
# size of FlameGraph's 646 KB capture) does not, so its peak RSS does not
# grow by partly used 2 MiB pages.  Seen with strace (brk, madvise) on the
# release binary: ASan's malloc does not use the heap.
source "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"

if ! command -v strace >/dev/null 2>&1; then
	skip "heap-thp" "strace not installed (Debian: apt-get install strace)"
	exit 0
fi

# heap_huge CMD...: how many MADV_HUGEPAGE calls CMD made inside its heap (-1: it failed)
heap_huge() {
	if ! strace -f -qq -e trace=brk,madvise -o "$TMP/st" "$@" >/dev/null 2>"$TMP/err"; then
		echo -1
		return
	fi
	python3 - "$TMP/st" <<'PY'
import re, sys
lo = hi = None
n = 0
marks = []
for line in open(sys.argv[1]):
    m = re.search(r'brk\(.*\)\s*=\s*(0x[0-9a-f]+)', line)
    if m:
        v = int(m.group(1), 16)
        lo = v if lo is None else min(lo, v)
        hi = v if hi is None else max(hi, v)
    m = re.search(r'madvise\((0x[0-9a-f]+), \d+, MADV_HUGEPAGE\)', line)
    if m:
        marks.append(int(m.group(1), 16))
print(sum(1 for a in marks if lo is not None and lo <= a < hi))
PY
}

python3 "$UF_TOP/tests/gen-profile.py" 5 6800 >"$TMP/small.folded"
python3 "$UF_TOP/tests/gen-profile.py" 5 12000 >"$TMP/big.folded"
small=$(stat -c %s "$TMP/small.folded") big=$(stat -c %s "$TMP/big.folded")

n=$(heap_huge "$UF_REL" render "$TMP/big.folded" -o "$TMP/b.svg")
if [ "$n" -ge 1 ] 2>/dev/null; then
	pass "heap-thp: render of a $big-byte profile puts its heap on huge pages"
else
	fail "heap-thp: render of a $big-byte profile" "$n MADV_HUGEPAGE in the heap, want >= 1: $(head -c 300 "$TMP/st" "$TMP/err" | tr '\n' '|')"
fi

n=$(heap_huge "$UF_REL" render "$TMP/small.folded" -o "$TMP/s.svg")
if [ "$n" = 0 ]; then
	pass "heap-thp: render of a $small-byte profile keeps 4 KiB heap pages"
else
	fail "heap-thp: render of a $small-byte profile" "$n MADV_HUGEPAGE in the heap, want 0"
fi
