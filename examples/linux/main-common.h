/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * examples/linux/main-common.h — how long every Linux example runs:
 *
 *     PROGRAM            until killed
 *     PROGRAM SECONDS    for SECONDS of wall time
 *     PROGRAM -r ROUNDS  exactly ROUNDS rounds of its workload (fixed work,
 *                        for slowdown benchmarks)
 *
 * With UF_EXAMPLE_TIME set in the environment, the program prints
 * "elapsed SECONDS cpu SECONDS" on stderr when it ends (bench/record.sh
 * measures slowdown with it, excluding the profiler's own start-up).
 *
 * The clock is read once per round, outside the workload functions, so it
 * adds no frames of its own to the measured shares.
 */
#ifndef UF_EXAMPLES_MAIN_COMMON_H
#define UF_EXAMPLES_MAIN_COMMON_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

struct uf_run {
	double start; /* wall clock at init */
	double end;   /* wall-clock end, 0 = none */
	long rounds;  /* rounds left, -1 = unlimited */
};

static double uf_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void uf_run_init(struct uf_run *r, int argc, char **argv)
{
	r->start = uf_now();
	r->end = 0;
	r->rounds = -1;
	if (argc > 2 && !strcmp(argv[1], "-r"))
		r->rounds = atol(argv[2]);
	else if (argc > 1 && atof(argv[1]) > 0)
		r->end = uf_now() + atof(argv[1]);
}

static void uf_run_report(const struct uf_run *r)
{
	struct timespec cpu;
	if (!getenv("UF_EXAMPLE_TIME"))
		return;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &cpu);
	fprintf(stderr, "elapsed %.6f cpu %.6f\n", uf_now() - r->start,
		(double)cpu.tv_sec + (double)cpu.tv_nsec / 1e9);
}

/* Is there another round to run? (counts the round down; reports the
 * times after the last one) */
static int uf_run_more(struct uf_run *r)
{
	int more = r->rounds >= 0 ? r->rounds-- > 0 : r->end <= 0 || uf_now() < r->end;
	if (!more)
		uf_run_report(r);
	return more;
}

#endif
