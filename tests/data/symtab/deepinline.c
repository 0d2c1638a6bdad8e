/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * tests/data/symtab/deepinline.c — a program whose hot code is inlined
 * four levels deep, for tests/symtab/t-inline-addr2line.sh: built -O2 -g,
 * recorded with --inline --lines, and each sampled address's expansion
 * compared with binutils' `addr2line -f -i`.
 *
 * Design: two noinline entry points (stage_a, stage_b) reach the same
 * always_inline chain mix4 -> mix3 -> mix2 -> mix1 through different call
 * sites, with loops (lexical blocks in DWARF) between levels, so an
 * expansion that loses a level or takes a line from the abstract
 * definition instead of the caller's instance differs from addr2line.
 * The hot loops call nothing, so every sample's stack from main down is
 * this program's code.  Argument: seconds to run (default 2).
 */
#include <stdlib.h>
#include <time.h>

#define AI static inline __attribute__((always_inline))
#define NOINLINE __attribute__((noinline, noclone))

static volatile unsigned long sink;

AI unsigned long mix1(unsigned long x)
{
	for (int i = 0; i < 64; i++)
		x = x * 6364136223846793005ul + 1442695040888963407ul;
	return x;
}

AI unsigned long mix2(unsigned long x)
{
	unsigned long y = x;
	for (int i = 0; i < 4; i++) {
		unsigned long t = mix1(y + (unsigned long)i);
		y ^= t >> 7;
	}
	return y;
}

AI unsigned long mix3(unsigned long x)
{
	unsigned long y = mix2(x);
	for (int i = 0; i < 2; i++)
		y += mix1(y ^ 0x9e3779b97f4a7c15ul);
	return y + mix2(y);
}

AI unsigned long mix4(unsigned long x)
{
	unsigned long acc = 0;
	for (int i = 0; i < 3; i++)
		acc += mix3(x + (unsigned long)i);
	return acc;
}

NOINLINE unsigned long stage_a(unsigned long x)
{
	unsigned long r = mix4(x);
	sink = r;
	return r;
}

NOINLINE unsigned long stage_b(unsigned long x)
{
	unsigned long r = mix3(x * 3);
	r ^= mix2(r);
	sink = r;
	return r;
}

NOINLINE unsigned long pipeline(unsigned long x)
{
	return stage_a(x) + stage_b(x ^ 0x55);
}

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	double secs = argc > 1 ? atof(argv[1]) : 2.0, end = now() + secs;
	unsigned long x = 1;
	while (now() < end)
		for (int i = 0; i < 2000; i++)
			x = pipeline(x);
	sink = x;
	return 0;
}
