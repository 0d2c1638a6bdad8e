/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * util/thread.h — the one way a thread is started: on a CPU other than
 * its creator's, then free to go anywhere its creator may; and a part of
 * a job on a two-CPU machine, kept on the CPU its creator is not on and
 * run there by one worker thread that lives until exit.
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
 * Why parts are kept apart on two CPUs: a thread that wakes (from a
 * malloc arena lock the other holds, or a join) is queued on its waker's
 * CPU, and the other CPU idles until a tick pulls it back.  Scheduler
 * traces of 10 renders of tree-64k: the index lanes lived 15.6-28.8 ms,
 * one of them off its CPU up to 12 ms of that; 5.4 ms a render runnable
 * but waiting, with the other CPU idle for much of it.  And a render's
 * parts overlap (the embed thread beside the drawing thread, each then
 * splitting its own work): four threads on two CPUs, each pair crossing
 * onto the other's CPU.  Interleaved runs (bench/README.md, session 18):
 * tree-64k median 52.6 -> 47.2 ms, tree-100k 71.7 -> 68.4, the diff
 * 100.2 -> 97.3, little-100k 128.4 -> 123.2; best times 1-2 ms lower.
 *
 * How: the new thread's affinity is its creator's CPUs less the one the
 * creator runs on, so the kernel must place it elsewhere; its first act is
 * to take back the creator's full set, so it can move as the load asks
 * afterwards.  Nothing is steered when the creator may run on one CPU
 * only, or its CPU or set cannot be read: the thread starts plainly.
 * A part (uf_thread_start_part) when the creator may run on exactly two
 * CPUs keeps to the other one for life, and the creator keeps to its own
 * until it has joined every part it started.  While a part is running,
 * neither it nor its creator starts another part (EAGAIN: the caller runs
 * that half itself, so there is never more than one thread a CPU); once
 * the part's function has returned, its CPU takes the creator's next part
 * even before the join (the embed thread is joined only after the
 * frames: the drawing thread's splits still get the other CPU once the
 * block is done).  A thread a part starts with uf_thread_start stays on
 * the part's CPU; one a pinned creator starts is placed as any thread.
 * With three CPUs or more a part starts as any thread.
 *
 * Why one worker: on two CPUs the parts after the first are run by one
 * thread that stays on the other CPU, not a thread each.  A render of
 * tree-64k starts 14 parts, many of 0.2-0.6 ms with 0.1-0.4 ms between
 * them.  A thread start, its wake-up of the idle CPU (a halted vCPU
 * here), its exit and join cost 70-165 us a split over the work in a
 * fresh process making 14 splits of 0.3 ms halves, 157-198 us with 2 ms
 * halves; the worker's hand-off 10-14 us, because after a part it spins
 * up to 0.5 ms for the next one before it sleeps on a futex (the spin-
 * then-block wait of libgomp and other OpenMP runtimes), and so does a
 * creator waiting in the join.  Interleaved
 * renders (bench/README.md, session 19): tree-64k median 48.5 -> 46.7
 * and 47.7 -> 46.2 ms, tree-100k 61.9 -> 57.9, the diff 84.9 -> 83.5.
 * The cost: the spinning, ~4 ms of CPU in a 45 ms render, on a CPU the
 * render would leave idle; and a thread that lives until exit, asleep.
 * It blocks the signals sent to the process (SIGINT must interrupt the
 * program's own thread) but not those a fault raises; a child of fork()
 * has none and starts its own.  A part asked for while the worker holds
 * another creator's gets a thread of its own, as before.
 *
 * Trade-off: a start costs ~30-40 us more than a plain one (the affinity
 * read, set by pthread_create and set back by the thread, which waits for
 * its creator to finish setting it up: 14-22 -> 46-57 us a start in a
 * loop, bench/README.md; a render makes about 13), against milliseconds;
 * a pairing adds two affinity calls of the creator's.  While paired, a
 * thread cannot flee its CPU: on two CPUs there is nowhere to flee that
 * the other part does not hold, which is why pairing stops at two.  An
 * affinity set from outside while paired is replaced at the join.
 * The caller owns the struct uf_thread, which must stay in place until
 * uf_thread_join (the thread reads it when it starts).
 *
 * Invariants:
 *  1. fn(arg) runs on the new thread with its creator's affinity mask as
 *     its own (unless sched_setaffinity failed: it then stays on the CPUs
 *     it was placed on, a hint lost, never a failure), except as 4 says.
 *  2. Returns pthread_create's error, 0 when the thread runs; a failed
 *     start leaves nothing to join.
 *  3. Never prints, never exits; no allocation of its own (the worker's
 *     stack is pthread's).
 *  4. A part started where the creator may run on two CPUs has the one
 *     the creator is not on as its mask; the creator's mask is its own
 *     CPU until it has joined all its parts, then the two again.  A part
 *     asked for by a part, or by a creator whose part's function has not
 *     returned, returns EAGAIN and starts nothing; a thread a part starts
 *     with uf_thread_start inherits the part's one CPU.  Elsewhere a part
 *     is a thread as in 1.
 *  5. On two CPUs a part is run by the one worker thread (t->pooled) when
 *     the worker is free, else by a thread of its own; the worker runs
 *     with the process's signals blocked, faults' unblocked.  Joining a
 *     pooled part returns fn's value as pthread_join would.
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
	int paired;      /* a part on two CPUs: keeps to the other CPU for life */
	int pinned_creator; /* the creator keeps to from_cpu until the join */
	int *running;    /* the creator's count of its parts still running */
	int pooled;      /* run by the other CPU's worker, not a thread of its own */
	int done;        /* pooled: 0 running, 1 returned, 2 creator asleep in the join */
	void *ret;       /* pooled: fn's return value */
};

/* Starts fn(arg) on a new thread (see above); 0 or pthread_create's error. */
int uf_thread_start(struct uf_thread *t, void *(*fn)(void *), void *arg);
/* The same for a part of a job the caller could run itself; on two CPUs
 * the part and its creator keep one each (see above).  EAGAIN, nothing
 * started, when this thread already has a part beside it there. */
int uf_thread_start_part(struct uf_thread *t, void *(*fn)(void *), void *arg);

/* Waits for the thread; fn's return value. */
void *uf_thread_join(struct uf_thread *t);

#endif
