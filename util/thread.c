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

/* This thread's pairing.  `home`: the set it may use when free, kept
 * while it is pinned.  `is_part`: it is a paired part, on its one CPU for
 * life.  `open_parts`: paired parts it started and has not joined (it
 * keeps to its CPU while there are any); `running_parts`: those of them
 * still in their function (each takes itself off when it returns, from
 * its own thread, hence atomic). */
static __thread cpu_set_t home;
static __thread int is_part, open_parts, running_parts;

static void *thread_main(void *p)
{
	struct uf_thread *t = p;
	t->first_cpu = sched_getcpu();
	if (t->paired) { /* keeps to the other CPU: the creator has this one */
		home = t->home;
		is_part = 1;
	} else if (t->steered) { /* a hint: on failure the thread stays where it was put */
		(void)sched_setaffinity(0, sizeof t->home, &t->home);
	}
	void *ret = t->fn(t->arg);
	if (t->paired) /* its CPU is free for the creator's next part */
		__atomic_sub_fetch(t->running, 1, __ATOMIC_RELEASE);
	return ret;
}

/* The creator's CPUs less the one it is on, into *away; 1 when that
 * leaves a CPU to start on.  A pinned creator's CPUs are its home. */
static int other_cpus(struct uf_thread *t, cpu_set_t *away)
{
	int me = sched_getcpu();
	if (me < 0 || me >= CPU_SETSIZE)
		return 0;
	if (open_parts)
		t->home = home;
	else if (sched_getaffinity(0, sizeof t->home, &t->home) != 0)
		return 0;
	if (!CPU_ISSET(me, &t->home))
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

/* The creator of a paired part keeps to its CPU until it has joined
 * every part (the first pins it: a hint, if that fails it stays free and
 * the parts still keep away). */
static void pin_creator(struct uf_thread *t)
{
	t->pinned_creator = 1;
	if (open_parts++ > 0)
		return;
	cpu_set_t here;
	CPU_ZERO(&here);
	CPU_SET(t->from_cpu, &here);
	home = t->home;
	(void)sched_setaffinity(0, sizeof here, &here);
}

/* A part started now would share a CPU with one of this job's: this
 * thread is a part itself, or one of its parts is still running. */
static int both_cpus_taken(void)
{
	return is_part || __atomic_load_n(&running_parts, __ATOMIC_ACQUIRE) > 0;
}

static int start(struct uf_thread *t, void *(*fn)(void *), void *arg, int part)
{
	t->fn = fn;
	t->arg = arg;
	t->first_cpu = t->from_cpu = -1;
	t->steered = t->paired = t->pinned_creator = 0;
	t->running = &running_parts;
	if (part && both_cpus_taken())
		return EAGAIN; /* the caller runs it here */
	cpu_set_t away;
	if (!is_part && other_cpus(t, &away)) {
		t->paired = part && CPU_COUNT(&t->home) == 2; /* read by the thread */
		if (t->paired)
			__atomic_add_fetch(&running_parts, 1, __ATOMIC_RELAXED);
		if (start_steered(t, &away) == 0) {
			if (t->paired)
				pin_creator(t);
			return 0;
		}
		if (t->paired)
			__atomic_sub_fetch(&running_parts, 1, __ATOMIC_RELAXED);
	}
	/* plainly: on a pinned thread's one CPU, or wherever the kernel puts it */
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
	if (t->pinned_creator && --open_parts == 0) /* free again: the whole set */
		(void)sched_setaffinity(0, sizeof home, &home);
	return ret;
}
