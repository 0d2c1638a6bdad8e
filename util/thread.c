/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * util/thread.c — threads started away from their creator's CPU, and
 * parts of a job on two CPUs kept one a CPU, run by one worker there
 * (design, measurements and trade-off in util/thread.h).
 */
#include <errno.h>
#include <linux/futex.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

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

/* ---- the other CPU's worker (design in util/thread.h, "Why one worker") ---- */

/* How long a thread spins for what it waits on before it sleeps: the
 * short gaps between a render's parts (0.1-0.4 ms) pass spinning, a long
 * one costs at most this much CPU before the futex. */
#define SPIN_NS 500000L

static long futex(int *word, int op, int val)
{
	return syscall(SYS_futex, word, op, val, NULL, NULL, 0);
}

static long long now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static inline void cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
	__builtin_ia32_pause();
#elif defined(__aarch64__)
	__asm__ __volatile__("yield");
#endif
}

/* Spins up to SPIN_NS while *word == val; 1 when it changed meanwhile. */
static int spin_while(int *word, int val)
{
	long long end = 0;
	for (unsigned i = 0;; i++) {
		if (__atomic_load_n(word, __ATOMIC_ACQUIRE) != val)
			return 1;
		cpu_relax();
		if ((i & 63) == 63) { /* the clock now and then: a read costs ~20 ns */
			long long t = now_ns();
			if (!end)
				end = t + SPIN_NS;
			else if (t >= end)
				return 0;
		}
	}
}

/* Waits until *word != val: spins, then sleeps on the futex. */
static void wait_while(int *word, int val)
{
	if (spin_while(word, val))
		return;
	while (__atomic_load_n(word, __ATOMIC_ACQUIRE) == val)
		(void)futex(word, FUTEX_WAIT_PRIVATE, val);
}

/* The worker: `tid` once it runs (0: none yet); `busy` while a creator
 * hands it a part or it runs one (taken by a compare-and-swap: one
 * creator at a time, which is also all that starts it); `seq` counts the
 * parts handed to it (its futex word); `cpu` the CPU it keeps to. */
static struct {
	pid_t tid;
	int busy, seq, cpu;
	struct uf_thread *job;
} worker;

static void run_part(struct uf_thread *t);

static void *worker_main(void *unused)
{
	(void)unused;
	is_part = 1; /* every function it runs is a part */
	__atomic_store_n(&worker.tid, (pid_t)syscall(SYS_gettid), __ATOMIC_RELEASE);
	int seen = 0;
	for (;;) {
		wait_while(&worker.seq, seen);
		seen = __atomic_load_n(&worker.seq, __ATOMIC_ACQUIRE);
		run_part(worker.job);
	}
	return NULL;
}

/* A child of fork() has no worker (only the forking thread is copied). */
static void forget_worker(void)
{
	worker.tid = worker.busy = worker.seq = 0;
	worker.job = NULL;
	running_parts = open_parts = 0;
}

/* The signals a worker blocks: all but those a fault raises on the thread
 * that faulted (a crash in a part still reports).  A signal sent to the
 * process (SIGINT, SIGTERM, SIGCHLD, a timer's) goes to a thread that
 * takes it: the program's own, whose blocking call it must interrupt. */
static void async_signals(sigset_t *set)
{
	static const int faults[] = { SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGTRAP, SIGABRT, SIGSYS };
	sigfillset(set);
	for (size_t i = 0; i < sizeof faults / sizeof *faults; i++)
		sigdelset(set, faults[i]);
}

/* Starts the worker on `cpu`, the process's signals blocked. */
static int start_worker(int cpu)
{
	static int atfork;
	cpu_set_t one;
	sigset_t all, old;
	pthread_attr_t at;
	pthread_t th;
	int e = pthread_attr_init(&at);
	if (e)
		return e;
	CPU_ZERO(&one);
	CPU_SET(cpu, &one);
	async_signals(&all);
	pthread_sigmask(SIG_BLOCK, &all, &old);
	if ((e = pthread_attr_setaffinity_np(&at, sizeof one, &one)) == 0 &&
	    (e = pthread_create(&th, &at, worker_main, NULL)) == 0)
		(void)pthread_detach(th);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	pthread_attr_destroy(&at);
	if (e)
		return e;
	if (!atfork++)
		(void)pthread_atfork(NULL, NULL, forget_worker);
	while (!__atomic_load_n(&worker.tid, __ATOMIC_ACQUIRE))
		cpu_relax(); /* its tid, to move it later: set at its first step */
	worker.cpu = cpu;
	return 0;
}

/* Hands part t to the worker on `cpu` (the one its creator is not on);
 * 0, or nonzero when the worker is busy or cannot be started. */
static int hand_to_worker(struct uf_thread *t, int cpu)
{
	int idle = 0;
	if (!__atomic_compare_exchange_n(&worker.busy, &idle, 1, 0, __ATOMIC_ACQUIRE, __ATOMIC_RELAXED))
		return EAGAIN;
	int e = worker.tid ? 0 : start_worker(cpu);
	if (e) {
		__atomic_store_n(&worker.busy, 0, __ATOMIC_RELEASE);
		return e;
	}
	if (worker.cpu != cpu) { /* the creator is on the worker's CPU now */
		cpu_set_t one;
		CPU_ZERO(&one);
		CPU_SET(cpu, &one);
		(void)sched_setaffinity(worker.tid, sizeof one, &one);
		worker.cpu = cpu;
	}
	t->pooled = t->steered = 1;
	t->done = 0;
	worker.job = t;
	__atomic_add_fetch(&worker.seq, 1, __ATOMIC_RELEASE);
	(void)futex(&worker.seq, FUTEX_WAKE_PRIVATE, 1);
	return 0;
}

/* The part's function on the worker, then its end made known: the CPU is
 * free for the next part, and a creator asleep in the join is woken (the
 * wake after the store touches only the word's address, which the
 * creator may already have left: a waiter there loops on its value). */
static void run_part(struct uf_thread *t)
{
	t->first_cpu = sched_getcpu();
	t->ret = t->fn(t->arg);
	__atomic_store_n(&worker.busy, 0, __ATOMIC_RELEASE);
	__atomic_sub_fetch(t->running, 1, __ATOMIC_RELEASE);
	if (__atomic_exchange_n(&t->done, 1, __ATOMIC_ACQ_REL) == 2)
		(void)futex(&t->done, FUTEX_WAKE_PRIVATE, 1);
}

/* The creator's side: spins, then marks itself asleep (2) and sleeps. */
static void join_pooled(struct uf_thread *t)
{
	int running = 0;
	if (spin_while(&t->done, 0) ||
	    !__atomic_compare_exchange_n(&t->done, &running, 2, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
		return; /* it returned meanwhile */
	while (__atomic_load_n(&t->done, __ATOMIC_ACQUIRE) == 2)
		(void)futex(&t->done, FUTEX_WAIT_PRIVATE, 2);
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

/* The lowest CPU in *set (a part's one CPU: the set has one). */
static int only_cpu(const cpu_set_t *set)
{
	for (int c = 0; c < CPU_SETSIZE; c++)
		if (CPU_ISSET(c, set))
			return c;
	return 0;
}

static int start(struct uf_thread *t, void *(*fn)(void *), void *arg, int part)
{
	t->fn = fn;
	t->arg = arg;
	t->first_cpu = t->from_cpu = -1;
	t->steered = t->paired = t->pinned_creator = t->pooled = 0;
	t->running = &running_parts;
	if (part && both_cpus_taken())
		return EAGAIN; /* the caller runs it here */
	cpu_set_t away;
	if (!is_part && other_cpus(t, &away)) {
		t->paired = part && CPU_COUNT(&t->home) == 2; /* read by the thread */
		if (t->paired)
			__atomic_add_fetch(&running_parts, 1, __ATOMIC_RELAXED);
		if ((t->paired && hand_to_worker(t, only_cpu(&away)) == 0) ||
		    start_steered(t, &away) == 0) {
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
	if (t->pooled) {
		join_pooled(t);
		ret = t->ret;
	} else {
		pthread_join(t->th, &ret);
	}
	if (t->pinned_creator && --open_parts == 0) /* free again: the whole set */
		(void)sched_setaffinity(0, sizeof home, &home);
	return ret;
}
