#!/usr/bin/env bash
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
exit 0
