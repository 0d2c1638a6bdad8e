/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * util/thread.c — threads started away from their creator's CPU (design,
 * measurements and trade-off in util/thread.h).
 */
#include <pthread.h>
#include <sched.h>

#include "util/thread.h"

static void *thread_main(void *p)
{
	struct uf_thread *t = p;
	t->first_cpu = sched_getcpu();
	if (t->steered) /* a hint: on failure the thread stays where it was put */
		(void)sched_setaffinity(0, sizeof t->home, &t->home);
	return t->fn(t->arg);
}

/* The creator's CPUs less the one it is on, into *away; 1 when that
 * leaves a CPU to start on. */
static int other_cpus(struct uf_thread *t, cpu_set_t *away)
{
	int me = sched_getcpu();
	if (me < 0 || me >= CPU_SETSIZE || sched_getaffinity(0, sizeof t->home, &t->home) != 0 ||
	    !CPU_ISSET(me, &t->home))
		return 0;
	*away = t->home;
	CPU_CLR(me, away);
	t->from_cpu = me;
	return CPU_COUNT(away) > 0;
}

/* Starts t on one of the CPUs in *away; 0 or an error (nothing started). */
static int start_steered(struct uf_thread *t, const cpu_set_t *away)
{
	pthread_attr_t at;
	int e = pthread_attr_init(&at);
	if (e)
		return e;
	t->steered = 1; /* read by the thread: set before it starts */
	if ((e = pthread_attr_setaffinity_np(&at, sizeof *away, away)) == 0)
		e = pthread_create(&t->th, &at, thread_main, t);
	pthread_attr_destroy(&at);
	return e;
}

int uf_thread_start(struct uf_thread *t, void *(*fn)(void *), void *arg)
{
	t->fn = fn;
	t->arg = arg;
	t->first_cpu = t->from_cpu = -1;
	cpu_set_t away;
	if (other_cpus(t, &away) && start_steered(t, &away) == 0)
		return 0;
	t->steered = 0; /* plainly, wherever the kernel puts it */
	t->from_cpu = -1;
	return pthread_create(&t->th, NULL, thread_main, t);
}

void *uf_thread_join(struct uf_thread *t)
{
	void *ret = NULL;
	pthread_join(t->th, &ret);
	return ret;
}
