/*
 * examples/linux/main-common.h — the run-time limit every Linux example
 * shares: `PROGRAM [SECONDS]` runs for SECONDS of wall time (default: until
 * killed).  The clock is read once per round, outside the workload
 * functions, so it adds no frames of its own to the measured shares.
 */
#ifndef UF_EXAMPLES_MAIN_COMMON_H
#define UF_EXAMPLES_MAIN_COMMON_H

#include <stdlib.h>
#include <time.h>

static double uf_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Seconds to run from argv[1]; 0 = forever. */
static double uf_seconds(int argc, char **argv)
{
	return argc > 1 ? atof(argv[1]) : 0.0;
}

#endif
