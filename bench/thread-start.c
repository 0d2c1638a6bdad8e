/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * bench/thread-start.c — how long a fresh process waits for its second
 * thread: util/thread.c's start (away from the creator's CPU) beside a
 * plain pthread_create, in alternate fresh processes.
 *
 *   cc -O2 -I. -o thread-start bench/thread-start.c util/thread.c -lpthread
 *   ./thread-start [RUNS]          # 20 fresh processes of each kind
 *
 * Each child process makes one thread and spins WORK_MS on both threads;
 * the figure is the wall time from before the thread's creation to its
 * join.  Two CPUs free give WORK_MS plus tens of microseconds; a thread
 * that waited for a CPU adds up to a scheduler tick (4 ms at HZ=250).
 * Needs two CPUs the process may use: with one, both kinds wait.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "util/thread.h"

#define WORK_MS 10.0
#define LATE_MS 0.5 /* over WORK_MS by this much: the thread waited */

static double now_ms(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

static void *spin(void *arg)
{
	double end = now_ms() + WORK_MS;
	while (now_ms() < end)
		;
	return arg;
}

/* One child's figure: ms from creation to join, or -1. */
static double child(int steered)
{
	double t0 = now_ms();
	if (steered) {
		struct uf_thread t;
		if (uf_thread_start(&t, spin, NULL) != 0)
			return -1;
		spin(NULL);
		uf_thread_join(&t);
	} else {
		pthread_t th;
		if (pthread_create(&th, NULL, spin, NULL) != 0)
			return -1;
		spin(NULL);
		pthread_join(th, NULL);
	}
	return now_ms() - t0;
}

/* Runs `self --child KIND` and reads its figure. */
static double fresh(const char *self, int steered)
{
	char cmd[4096];
	snprintf(cmd, sizeof cmd, "'%s' --child %d", self, steered);
	FILE *p = popen(cmd, "r");
	double ms = -1;
	if (!p || fscanf(p, "%lf", &ms) != 1)
		ms = -1;
	if (p)
		pclose(p);
	return ms;
}

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

static void report(const char *name, double *v, int n)
{
	int late = 0;
	for (int i = 0; i < n; i++)
		late += v[i] > WORK_MS + LATE_MS;
	qsort(v, (size_t)n, sizeof *v, cmp);
	printf("%-22s median %6.2f ms  worst %6.2f ms  late (> %.1f ms) in %d of %d\n", name, v[n / 2],
	       v[n - 1], WORK_MS + LATE_MS, late, n);
}

int main(int argc, char **argv)
{
	if (argc == 3 && !strcmp(argv[1], "--child")) {
		printf("%.3f\n", child(atoi(argv[2])));
		return 0;
	}
	int n = argc > 1 ? atoi(argv[1]) : 20;
	if (n < 1 || n > 1000)
		n = 20;
	double *plain = calloc((size_t)n, sizeof *plain), *steer = calloc((size_t)n, sizeof *steer);
	if (!plain || !steer)
		return 1;
	for (int i = 0; i < n; i++) {
		plain[i] = fresh(argv[0], 0);
		steer[i] = fresh(argv[0], 1);
		if (plain[i] < 0 || steer[i] < 0) {
			fprintf(stderr, "thread-start: a child failed\n");
			return 1;
		}
	}
	printf("a fresh process's second thread beside %.0f ms of work, %d processes each, interleaved:\n",
	       WORK_MS, n);
	report("pthread_create", plain, n);
	report("uf_thread_start", steer, n);
	free(plain);
	free(steer);
	return 0;
}
