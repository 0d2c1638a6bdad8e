/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * examples/linux/app-pool.c — a thread pool that mostly waits: the shape
 * of `zstd -T4` that issue 30 met, with fixed work so on-CPU shares are
 * known.
 *
 * The main thread is the producer: per job it computes in `produce`
 * (40 units, about 1 ms), queues the job, and naps 2 ms.  POOL_WORKERS
 * workers named pool-N wait on a condition variable for jobs and run
 * `consume_a` (20 units) or `consume_b` (40 units) for alternate jobs.  So the workers
 * spend most of their time blocked in pthread_cond_wait, and the CPU
 * time splits produce : consume_a : consume_b = 4 : 1 : 2 (57 / 14 /
 * 29 %).  A profile of every sample is dominated by the waiting
 * workers; an on-CPU profile must match perf's cpu-clock profile
 * (tests/record/t-states.sh compares them function by function).
 *
 * Usage: app-pool SECONDS (the producer stops queueing then; the workers
 * finish the queue and the program exits).
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "../workloads/workloads.h"

#define POOL_WORKERS 4
#define QUEUE_MAX 64

static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t have_job = PTHREAD_COND_INITIALIZER;
static unsigned long queued, taken;   /* jobs ever queued / taken, under mu */
static int done;

UF_NOINLINE void produce(void)
{
	UF_BURN(40);
}

UF_NOINLINE void consume_a(void)
{
	UF_BURN(20);
}

UF_NOINLINE void consume_b(void)
{
	UF_BURN(40);
}

/* Waits for the next job; returns its number, or 0 when there are no more. */
static unsigned long next_job(void)
{
	pthread_mutex_lock(&mu);
	while (taken == queued && !done)
		pthread_cond_wait(&have_job, &mu);
	unsigned long job = taken < queued ? ++taken : 0;
	pthread_mutex_unlock(&mu);
	return job;
}

static void *worker(void *arg)
{
	char name[16];
	snprintf(name, sizeof name, "pool-%ld", (long)(intptr_t)arg);
	pthread_setname_np(pthread_self(), name);
	for (unsigned long job; (job = next_job()) != 0;) {
		if (job % 2)
			consume_a();
		else
			consume_b();
		UF_NOTAIL();
	}
	return NULL;
}

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	double secs = argc > 1 ? atof(argv[1]) : 0;
	if (secs <= 0) {
		fprintf(stderr, "usage: app-pool SECONDS\n");
		return 2;
	}
	pthread_t th[POOL_WORKERS];
	for (long i = 0; i < POOL_WORKERS; i++)
		if (pthread_create(&th[i], NULL, worker, (void *)(intptr_t)(i + 1)) != 0)
			return 1;
	const struct timespec nap = { 0, 2000000 };
	for (double end = now_s() + secs; now_s() < end;) {
		produce();
		pthread_mutex_lock(&mu);
		if (queued - taken < QUEUE_MAX)
			queued++;
		pthread_cond_signal(&have_job);
		pthread_mutex_unlock(&mu);
		nanosleep(&nap, NULL);
	}
	pthread_mutex_lock(&mu);
	done = 1;
	pthread_cond_broadcast(&have_job);
	pthread_mutex_unlock(&mu);
	for (int i = 0; i < POOL_WORKERS; i++)
		pthread_join(th[i], NULL);
	fprintf(stderr, "jobs %lu\n", taken);
	return 0;
}
