/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * examples/linux/app-threads.c — known work per thread.
 *
 * Three workers named uf-worker-1..3 (pthread_setname_np) each spend all
 * their time in one function: uf-worker-N runs only function_N.  The main
 * thread (comm "app-threads") only waits in pthread_join.  A per-thread
 * profile must therefore show function_N under uf-worker-N and nowhere
 * else; tests/record/t-threads.sh checks that.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>

#include "../workloads/workloads.h"
#include "main-common.h"

static int g_argc;
static char **g_argv;

static void *worker(void *arg)
{
	int n = (int)(long)arg;
	char name[16];
	snprintf(name, sizeof name, "uf-worker-%d", n);
	pthread_setname_np(pthread_self(), name);
	struct uf_run run;
	uf_run_init(&run, g_argc, g_argv);
	while (uf_run_more(&run)) {
		switch (n) {
		case 1: function_1(); break;
		case 2: function_2(); break;
		default: function_3(); break;
		}
	}
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_t th[3];
	g_argc = argc;
	g_argv = argv;
	for (long i = 0; i < 3; i++)
		if (pthread_create(&th[i], NULL, worker, (void *)(i + 1)) != 0)
			return 1;
	for (int i = 0; i < 3; i++)
		pthread_join(th[i], NULL);
	return 0;
}
