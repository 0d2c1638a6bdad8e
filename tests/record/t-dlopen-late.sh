#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# tests/record/t-dlopen-late.sh — a library dlopen()ed shortly before the
# program exits still resolves: the maps are taken once more as the main
# thread stops on its way out (the periodic re-read, about once a second,
# comes too late for it and the process is gone at the end).  And no walk
# ends early in a newly mapped library: the first sample that lands in a
# library dlopen()ed (or mapped by the loader) after the tables were built
# re-reads the maps and is walked with the library's CFI ('ended early' 0
# in the summary; it was 1 in nearly every run).
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
"$UF" -F 299 --folded "$TMP/late.folded" -- "$TMP/late" "$TMP/liblate.so" 2>"$TMP/late.err"; rc=$?
n_late=$(awk '/late_spin/ { n += $NF } END { print n + 0 }' "$TMP/late.folded")
n_unk=$(awk '/\[unknown\] [0-9]+$/ && !/early_spin/ { n += $NF } END { print n + 0 }' "$TMP/late.folded")
if [ "$rc" -eq 0 ] && [ "$n_late" -ge 20 ] && [ "$n_unk" -le 3 ]; then
	pass "dlopen 0.35 s before exit: $n_late samples resolve to late_spin, $n_unk [unknown] leaves"
else
	fail "dlopen 0.35 s before exit" "rc=$rc late_spin=$n_late unknown=$n_unk: $(grep -v early "$TMP/late.folded" | head -3 | tr '\n' '|')"
fi

early() { sed -n 's/.* \([0-9]*\) ended early.*/\1/p' "$1" | tail -1; }
e=$(early "$TMP/late.err")
[ $rc -eq 0 ] && [ "$e" = 0 ] && pass "dlopen: no walk ended early ($(grep -o '[0-9]* complete' "$TMP/late.err"))" ||
	fail "dlopen: no walk ended early" "rc=$rc, ended early: '${e}': $(grep walks "$TMP/late.err")"

# the hot path starts in a library: dlopen()ed at once, then 0.3 s in it
# (every first sample there used to be cut at the library's first frame)
cat > "$TMP/hot.c" <<'C'
#include <dlfcn.h>
#include <stddef.h>
int main(int argc, char **argv)
{
	void *h = dlopen(argv[1], RTLD_NOW);
	double (*late)(double) = h ? (double (*)(double))dlsym(h, "late_spin") : NULL;
	return late ? late(0.3) < 0 : 2;
}
C
gcc -O2 -g -fno-omit-frame-pointer -o "$TMP/hot" "$TMP/hot.c" -ldl ||
	{ fail dlopen-hot "cannot build the test program"; exit 0; }
for i in 1 2 3; do
	"$UF" -F 999 --folded "$TMP/hot.folded" -- "$TMP/hot" "$TMP/liblate.so" 2>"$TMP/hot.err"; rc=$?
	e=$(early "$TMP/hot.err")
	[ $rc -eq 0 ] && [ "$e" = 0 ] || break
done
n=$(awk '/main;late_spin/ { n += $NF } END { print n + 0 }' "$TMP/hot.folded")
[ $rc -eq 0 ] && [ "$e" = 0 ] && [ "$n" -ge 50 ] &&
	pass "hot path in a dlopened library: 3 runs, 0 walks ended early, $n samples main;late_spin" ||
	fail "hot path in a dlopened library" "rc=$rc, ended early '$e', main;late_spin $n: $(grep walks "$TMP/hot.err")"
exit 0
