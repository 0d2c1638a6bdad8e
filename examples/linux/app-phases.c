/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * examples/linux/app-phases.c — one thread that alternates computing and
 * waiting, with its own record of how long each phase took: the known
 * truth for run-state profiles (issue 30, tests/record/t-states.sh).
 *
 * A cycle is three phases of PHASE_S seconds of wall time each:
 *     phase_a     computes (a burn loop that reads the clock every unit)
 *     phase_wait  blocked in clock_nanosleep for the whole phase
 *     phase_b     computes, like phase_a
 * so a sampler should see the thread running 2/3 of the time (phase_a
 * and phase_b about half each of that) and blocked 1/3, under phase_wait.
 *
 * Usage: app-phases SECONDS.  On exit it prints one truth line per phase
 * on stderr, measured by the program itself, not taken from a profile:
 *     truth PHASE wall SECONDS cpu SECONDS
 * (wall: time inside the phase; cpu: CLOCK_THREAD_CPUTIME_ID inside it,
 * less than wall when a loaded machine queues the thread), then
 *     truth total wall SECONDS
 * from start to exit.  The test compares state shares with cpu / total
 * (running), (wall - cpu) / total of the compute phases (runnable) and
 * the wait phase's wall / total (blocked).
 *
 * Trade-off: the compute phases end by the clock, not by a fixed amount
 * of work, so each takes its share of wall time however loaded the
 * machine is; the clock read (vDSO, no system call) is a small leaf
 * under each phase.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "../workloads/workloads.h"

#define PHASE_S 0.5

enum { PH_A, PH_WAIT, PH_B, PH_N };
static const char *const phase_names[PH_N] = { "phase_a", "phase_wait", "phase_b" };
static double wall_in[PH_N], cpu_in[PH_N];

static double clock_s(clockid_t id)
{
	struct timespec ts;
	clock_gettime(id, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Burns units until the wall clock reaches `until`. */
static void burn_until(double until)
{
	while (clock_s(CLOCK_MONOTONIC) < until)
		UF_BURN(1);
}

UF_NOINLINE void phase_a(double until)
{
	burn_until(until);
	UF_NOTAIL();
}

UF_NOINLINE void phase_b(double until)
{
	burn_until(until);
	UF_NOTAIL();
}

/* Blocked in the kernel until `until` (restarted after a signal). */
UF_NOINLINE void phase_wait(double until)
{
	struct timespec ts = { (time_t)until, (long)((until - (double)(time_t)until) * 1e9) };
	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) != 0)
		;
	UF_NOTAIL();
}

/* Runs one phase until `end` at the latest, adding its times. */
static void run_phase(int ph, double end)
{
	double w0 = clock_s(CLOCK_MONOTONIC), c0 = clock_s(CLOCK_THREAD_CPUTIME_ID);
	double until = w0 + PHASE_S < end ? w0 + PHASE_S : end;
	if (ph == PH_A)
		phase_a(until);
	else if (ph == PH_B)
		phase_b(until);
	else
		phase_wait(until);
	wall_in[ph] += clock_s(CLOCK_MONOTONIC) - w0;
	cpu_in[ph] += clock_s(CLOCK_THREAD_CPUTIME_ID) - c0;
}

int main(int argc, char **argv)
{
	double secs = argc > 1 ? atof(argv[1]) : 0;
	if (secs <= 0) {
		fprintf(stderr, "usage: app-phases SECONDS\n");
		return 2;
	}
	double start = clock_s(CLOCK_MONOTONIC), end = start + secs;
	for (int ph = 0; clock_s(CLOCK_MONOTONIC) < end; ph = (ph + 1) % PH_N)
		run_phase(ph, end);
	for (int ph = 0; ph < PH_N; ph++)
		fprintf(stderr, "truth %s wall %.6f cpu %.6f\n", phase_names[ph], wall_in[ph],
			cpu_in[ph]);
	fprintf(stderr, "truth total wall %.6f\n", clock_s(CLOCK_MONOTONIC) - start);
	return 0;
}
