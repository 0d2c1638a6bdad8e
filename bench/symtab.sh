#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# bench/symtab.sh — symbol lookup speed: a synthetic 1M-symbol nm table
# and the biggest symbol-carrying ELF files at hand.  Prints figures; never
# fails the build (exit 0 even when something is missing).
set -u
cd "$(dirname "$0")/.."
make -s build/uniprof-flame >/dev/null 2>&1 || make -s $(ls symtab/*.c util/*.c | sed 's|^\(.*\)\.c$|build/rel/\1.o|') >/dev/null 2>&1
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
cc -std=gnu11 -O2 -I. -D_GNU_SOURCE -o "$tmp/bench" bench/symtab-bench.c \
	build/rel/symtab/*.o build/rel/util/*.o $(pkg-config --libs libelf) 2>/dev/null \
	|| { echo "symtab bench: cannot build (run make first)"; exit 0; }
# 1M functions 64 bytes apart, 1 data symbol every 16 functions
awk 'BEGIN { for (i = 0; i < 1000000; i++) { printf "%016x T fn_%d\n", 4194304 + i * 64, i;
	if (i % 16 == 15) printf "%016x D data_%d\n", 4194304 + i * 64 + 60, i } }' > "$tmp/big.nm"
echo "# synthetic nm table (1,000,000 functions)"
"$tmp/bench" "$tmp/big.nm" 20000000
for f in build/asan/uniprof-flame /usr/lib/x86_64-linux-gnu/libxml2.so.2 /lib/x86_64-linux-gnu/libc.so.6; do
	[ -f "$f" ] || continue
	echo "# $f"
	"$tmp/bench" "$f" 20000000
done
# uniprof raw trace -> folded through `fold --symbols` (the whole manual
# nm/symbolize/stackcollapse pipeline in one step): 500k stacks of 12
# frames drawn from 5000 distinct call paths (a real profile repeats)
if [ -x build/uniprof-flame ]; then
	awk 'BEGIN { srand(1); print "#unikernel stack tracer using bench\n#tracing bench\n";
		for (p = 0; p < 5000; p++) for (d = 0; d < 12; d++)
			f[p, d] = sprintf("0x%x", 4194304 + int(rand() * 2000 + d * 50000) * 64 + 8);
		for (s = 0; s < 500000; s++) { p = int(rand() * 5000);
			for (d = 0; d < 12; d++) print f[p, d]; print "1\n" } }' > "$tmp/trace.raw"
	mb=$(du -m "$tmp/trace.raw" | cut -f1)
	t0=$(date +%s.%N)
	build/uniprof-flame fold --symbols "$tmp/big.nm" "$tmp/trace.raw" > "$tmp/out.folded"
	t1=$(date +%s.%N)
	printf '0x400008\n1\n\n' > "$tmp/one.raw"
	t2=$(date +%s.%N)
	build/uniprof-flame fold --symbols "$tmp/big.nm" "$tmp/one.raw" > /dev/null
	t3=$(date +%s.%N)
	awk -v a="$t0" -v b="$t1" -v c="$t2" -v d="$t3" -v mb="$mb" -v n="$(wc -l < "$tmp/out.folded")" 'BEGIN {
		printf "fold --symbols: 500000 stacks x 12 frames (%d MB raw, %d distinct) in %.2f s, of which %.2f s loading the 1M-symbol nm table: %.0f stacks/s after loading\n", mb, n, b - a, d - c, 500000 / ((b - a) - (d - c)) }'
fi
exit 0
