#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# tests/record/t-dlopen-late.sh — a library dlopen()ed shortly before the
# program exits still resolves: the maps are taken once more as the main
# thread stops on its way out (the periodic re-read, about once a second,
# comes too late for it and the process is gone at the end).
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/lib-record.sh"
need_ptrace dlopen-late
command -v gcc >/dev/null || { skip dlopen-late "no gcc"; exit 0; }
cat > "$TMP/late.c" <<'C'
#include <time.h>
__attribute__((noinline)) double late_spin(double s)
{
	struct timespec a, b;
	double x = 0;
	clock_gettime(CLOCK_MONOTONIC, &a);
	do {
		for (int i = 0; i < 10000; i++)
			x += i * 0.5;
		clock_gettime(CLOCK_MONOTONIC, &b);
	} while ((b.tv_sec - a.tv_sec) + (b.tv_nsec - a.tv_nsec) / 1e9 < s);
	return x;
}
C
cat > "$TMP/main.c" <<'C'
#include <dlfcn.h>
#include <stdio.h>
#include <time.h>
__attribute__((noinline)) static double early_spin(double s)
{
	struct timespec a, b;
	double x = 0;
	clock_gettime(CLOCK_MONOTONIC, &a);
	do {
		for (int i = 0; i < 10000; i++)
			x += i * 0.5;
		clock_gettime(CLOCK_MONOTONIC, &b);
	} while ((b.tv_sec - a.tv_sec) + (b.tv_nsec - a.tv_nsec) / 1e9 < s);
	return x;
}
int main(int argc, char **argv)
{
	double x = early_spin(1.6);
	void *h = dlopen(argv[1], RTLD_NOW);
	double (*late)(double) = h ? (double (*)(double))dlsym(h, "late_spin") : NULL;
	if (!late)
		return 2;
	x += late(0.35);
	return x < 0;
}
C
gcc -O2 -g -fno-omit-frame-pointer -shared -fPIC -o "$TMP/liblate.so" "$TMP/late.c" &&
	gcc -O2 -g -fno-omit-frame-pointer -o "$TMP/late" "$TMP/main.c" -ldl ||
	{ fail dlopen-late "cannot build the test program"; exit 0; }
"$UF" -q -F 299 --folded "$TMP/late.folded" -- "$TMP/late" "$TMP/liblate.so"; rc=$?
n_late=$(awk '/late_spin/ { n += $NF } END { print n + 0 }' "$TMP/late.folded")
n_unk=$(awk '/\[unknown\] [0-9]+$/ && !/early_spin/ { n += $NF } END { print n + 0 }' "$TMP/late.folded")
if [ "$rc" -eq 0 ] && [ "$n_late" -ge 20 ] && [ "$n_unk" -le 3 ]; then
	pass "dlopen 0.35 s before exit: $n_late samples resolve to late_spin, $n_unk [unknown] leaves"
else
	fail "dlopen 0.35 s before exit" "rc=$rc late_spin=$n_late unknown=$n_unk: $(grep -v early "$TMP/late.folded" | head -3 | tr '\n' '|')"
fi
