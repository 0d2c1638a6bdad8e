/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * util/thread.h — the one way a thread is started: on a CPU other than
 * its creator's, then free to go anywhere its creator may.
 *
 * Why: a render's second thread must run at once, beside the first, or it
 * gains nothing.  Linux places a new thread with its creator's CPU among
 * the candidates, and in a process just exec'd (every render) it often
 * puts it there: one of the two threads then waits while the other CPU
 * stays idle until its next scheduler tick pulls the waiter over, up to
 * 4 ms at HZ=250.  Measured on this project's 2-core VM (Linux 6.18,
 * HZ=250), a fresh process making one thread beside 10 ms of its own
 * work: plain pthread_create took 10.4-13.9 ms for both, over 10.5 ms in
 * 9 of 10 processes; started here, 10.23-10.36 ms in 10 of 10
 * (bench/thread-start.c).  In a render of the bench's 64k-stack call tree
 * the index's two lanes started up to 4.6 ms apart.
 *
 * How: the new thread's affinity is its creator's CPUs less the one the
 * creator runs on, so the kernel must place it elsewhere; its first act is
 * to take back the creator's full set, so it can move as the load asks
 * afterwards.  Nothing is steered when the creator may run on one CPU
 * only, or its CPU or set cannot be read: the thread starts plainly.
 *
 * Trade-off: a start costs ~30-40 us more than a plain one (the affinity
 * read, set by pthread_create and set back by the thread, which waits for
 * its creator to finish setting it up: 14-22 -> 46-57 us a start in a
 * loop, bench/README.md; a render makes about 13), against milliseconds.
 * The caller owns the struct uf_thread, which must stay in place until
 * uf_thread_join (the thread reads it when it starts).
 *
 * Invariants:
 *  1. fn(arg) runs on the new thread with its creator's affinity mask as
 *     its own (unless sched_setaffinity failed: it then stays on the CPUs
 *     it was placed on, a hint lost, never a failure).
 *  2. Returns pthread_create's error, 0 when the thread runs; a failed
 *     start leaves nothing to join.
 *  3. Never prints, never exits; no allocation of its own.
 */
#ifndef UF_UTIL_THREAD_H
#define UF_UTIL_THREAD_H

#include <pthread.h>
#include <sched.h>

struct uf_thread {
	pthread_t th;
	void *(*fn)(void *);
	void *arg;
	cpu_set_t home;  /* the creator's CPUs: the thread's own once it runs */
	int steered;     /* placed away from the creator's CPU, from_cpu */
	int from_cpu;    /* the creator's CPU at the start, -1 when not steered */
	int first_cpu;   /* the CPU the thread started on, -1 when unknown */
};

/* Starts fn(arg) on a new thread (see above); 0 or pthread_create's error. */
int uf_thread_start(struct uf_thread *t, void *(*fn)(void *), void *arg);

/* Waits for the thread; fn's return value. */
void *uf_thread_join(struct uf_thread *t);

#endif
