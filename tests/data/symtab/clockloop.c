/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * tests/data/symtab/clockloop.c — a program that spends its time in the
 * vDSO: read_clock() calls clock_gettime(CLOCK_MONOTONIC) in a loop, which
 * glibc answers from the kernel's [vdso] image without a system call.
 * For tests/symtab/t-vdso.sh.  Argument: seconds to run (default 2).
 */
#include <stdlib.h>
#include <time.h>

static volatile long sink;

__attribute__((noinline)) double read_clock(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	sink += ts.tv_nsec;
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	double secs = argc > 1 ? atof(argv[1]) : 2.0, end = read_clock() + secs;
	while (read_clock() < end)
		;
	return 0;
}
