/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * util/thread.c — threads started away from their creator's CPU, and
 * parts of a job on two CPUs kept one a CPU (design, measurements and
 * trade-off in util/thread.h).
 */
#include <errno.h>
#include <pthread.h>
#include <sched.h>

#include "util/thread.h"

/* This thread's pairing: while `paired`, it keeps to one of two CPUs
 * (a part for its life; a creator until it joins its part) and `home` is
 * the set it may use when free. */
static __thread cpu_set_t home;
static __thread int paired;

static void *thread_main(void *p)
{
	struct uf_thread *t = p;
	t->first_cpu = sched_getcpu();
	if (t->paired) { /* keeps to the other CPU: the creator has this one */
		home = t->home;
		paired = 1;
	} else if (t->steered) { /* a hint: on failure the thread stays where it was put */
		(void)sched_setaffinity(0, sizeof t->home, &t->home);
	}
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

/* The creator of a paired part keeps to its CPU until the join (a hint:
 * if that fails it stays free, and the part still keeps away). */
static void pin_creator(struct uf_thread *t)
{
	cpu_set_t here;
	CPU_ZERO(&here);
	CPU_SET(t->from_cpu, &here);
	if (sched_setaffinity(0, sizeof here, &here) == 0) {
		home = t->home;
		paired = 1;
		t->pinned_creator = 1;
	}
}

static int start(struct uf_thread *t, void *(*fn)(void *), void *arg, int part)
{
	t->fn = fn;
	t->arg = arg;
	t->first_cpu = t->from_cpu = -1;
	t->steered = t->paired = t->pinned_creator = 0;
	if (part && paired)
		return EAGAIN; /* both CPUs have a part of this job: run it here */
	cpu_set_t away;
	if (!paired && other_cpus(t, &away)) {
		t->paired = part && CPU_COUNT(&t->home) == 2; /* read by the thread */
		if (start_steered(t, &away) == 0) {
			if (t->paired)
				pin_creator(t);
			return 0;
		}
	}
	/* plainly: on a paired creator's CPU, or wherever the kernel puts it */
	t->steered = t->paired = 0;
	t->from_cpu = -1;
	return pthread_create(&t->th, NULL, thread_main, t);
}

int uf_thread_start(struct uf_thread *t, void *(*fn)(void *), void *arg)
{
	return start(t, fn, arg, 0);
}

int uf_thread_start_part(struct uf_thread *t, void *(*fn)(void *), void *arg)
{
	return start(t, fn, arg, 1);
}

void *uf_thread_join(struct uf_thread *t)
{
	void *ret = NULL;
	pthread_join(t->th, &ret);
	if (t->pinned_creator) { /* free again: the whole set */
		paired = 0;
		(void)sched_setaffinity(0, sizeof home, &home);
	}
	return ret;
}
