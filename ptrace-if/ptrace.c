/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * ptrace-if/ptrace.c — the ptrace backend of target/target.h.
 *
 * States of one thread and the call behind each transition:
 *
 *     RUNNING --stop(): PTRACE_INTERRUPT + waitpid--> STOPPED
 *     RUNNING --a signal / clone event, seen by waitpid--> STOPPED
 *     STOPPED --resume() / idle(): PTRACE_CONT(sig) or PTRACE_LISTEN--> RUNNING
 *     any --waitpid: exited / killed--> GONE (kept for its name)
 *
 * Main trade-off: one waitpid(-1) loop serves every thread, so events
 * are matched to threads by tid and a thread we have not heard of yet
 * (a clone whose first stop beats its parent's clone event) is adopted
 * on sight.
 *
 * Invariants: see ptrace-if.h; in addition
 *  1. `stopped` is set only from a waitpid stop report and cleared only
 *     by a successful CONT / LISTEN / DETACH (or the thread's death).
 *  2. Only STOPPED threads are listed by threads() and inspected, and
 *     never one past its exit event.
 *  3. PTRACE_O_TRACEEXIT is set only for the end of a process: when the
 *     main thread is the last to reach its exit event, it is held there
 *     (`held`, no longer counted live, so the run ends) until detach, so
 *     its maps and mapped files can still be read for symbols (a library
 *     dlopen()ed just before exit); every other exit event is let go at
 *     once.
 *  4. A thread's run state is read in p_stop just before its
 *     PTRACE_INTERRUPT (once stopped, /proc says 't' for every thread):
 *     the state letter of /proc/PID/task/TID/stat and the run and queue
 *     times of .../schedstat, both by pread on descriptors kept open (at
 *     most KEEP_FDS of them; past that, open-read-close).  runstate()
 *     only reports that snapshot.
 *  5. p_stop snapshots every thread before it interrupts any, then
 *     interrupts the threads the snapshot saw in R and waits for their
 *     stops, and only then interrupts the sleepers.  An interrupted
 *     sleeper wakes up to enter its stop and, on the CPU of a running
 *     thread, preempts it: interrupted first, the running thread was
 *     queued by the time we reached it and read as runnable (app-pool's
 *     workers, later in the list than the producer, were `running` in
 *     half their on-CPU samples; their share of the on-CPU profile fell
 *     from perf's 44 % to 32 %).
 *  6. While attached, the sampling thread runs on the CPUs it may use that
 *     no thread of the target may use, when there are such CPUs
 *     (place_sampler, from idle() at most every PLACE_EVERY_NS, so a
 *     `taskset` that execs the program is seen within 100 ms): a sampler
 *     that shares a CPU with a busy thread is run only when that thread
 *     enters the kernel, so its samples pile up at system calls.  With
 *     no spare CPU (the usual unpinned program) it keeps the CPUs it had;
 *     detach() gives them back in every case.
 *
 * Run state (util/runstate.h) from the snapshot: S, D, P, I, W -> blocked;
 * T (job control) -> offline; R -> running, or runnable when its
 * queue-wait time (schedstat's second field) grew between the snapshot
 * and the stop (queued_since): a thread on a CPU stops at once, a queued
 * one waits for a CPU first, and the kernel accounts that wait.  On a
 * loaded machine a thread in R is often not on a CPU; an average over
 * the interval since the last sample would misplace the waits (a
 * producer preempted right after it wakes a worker is queued in
 * pthread_cond_signal, not in the loop it spent the interval in).  The
 * observer counts too: our own wake-up at each deadline pushes a thread
 * that last ran on our CPU off it until we wait for its stop, so for
 * that thread a wait under DISPLACED_MAX_NS (1 ms) is not counted
 * (without it, a loaded machine showed app-phases' phase_a queued at
 * 98 % of its samples and phase_b at 3 %, depending on which CPU the
 * scheduler put it on).  R
 * inside an interrupted system call (x86-64: orig_rax >= 0 and
 * rax a restart code), or stopped at a `syscall` instruction (the restart
 * rewound it there), is blocked: the thread was still on its way back
 * into the wait our previous stop interrupted.  The cost: two preads per
 * thread per sample before its stop, one more for a thread in R after
 * it (a few us each; the summary's stop histogram shows them), and for
 * threads in R the register read the walk needs anyway.
 */
#include <dirent.h>
#include <sched.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/uio.h>
#include <sys/user.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <elf.h>

#include "ptrace-if/ptrace-if.h"
#include "util/vec.h"

struct thr {
	pid_t tid;
	int stopped;      /* in a ptrace-stop we have seen */
	int group_stop;   /* that stop is a job-control stop: resume with LISTEN */
	int sig;          /* signal to pass on when continuing */
	int gone;
	int exiting;      /* past PTRACE_EVENT_EXIT: never sampled again */
	int held;         /* the main thread held at its exit event (invariant 3) */
	int detached;     /* PTRACE_DETACH succeeded: no longer ours */
	char comm[17];
	/* run state snapshot (invariant 4) */
	int stat_fd, sched_fd;          /* -1: not kept open */
	int rs_valid;                   /* taken at this stop */
	enum uf_runstate rs;
	uint64_t run_ns, wait_ns;       /* schedstat: on-CPU, queued (ns) at the snapshot */
	int have_times;                 /* run_ns / wait_ns are this snapshot's */
	int on_our_cpu;                 /* it last ran on the CPU p_stop runs on */
	int asked;                      /* interrupted in this stop, its stop not yet seen */
#if defined(__x86_64__)
	struct user_regs_struct uregs;  /* read by runstate() at this stop */
	int uregs_valid;
#endif
};

/* A thread on the CPU the sampler runs on was pushed off it by the
 * sampler's own wake-up at the deadline; a queue wait that short during
 * the stop is ours, not the program's (queued_since). */
#define DISPLACED_MAX_NS 1000000ull
#define KEEP_FDS 512                /* /proc descriptors kept open for snapshots */
#define PLACE_EVERY_NS 100000000ull /* place_sampler() at most every 100 ms */

struct dead {              /* an exited thread: only its name is needed */
	pid_t tid;
	uint32_t seq;         /* exit order: the latest of a reused tid wins */
	char comm[17];
};

struct ptr {
	struct ptrace_info info;
	struct thr *thr;          /* live threads (and gone ones until compact()) */
	size_t nthr, thr_cap;
	struct dead *dead;        /* exited threads, for their names */
	size_t ndead, dead_cap;
	int dead_sorted;
	size_t live;              /* threads not gone */
	sigset_t old_mask;        /* our signal mask before attach */
	int attached;
	uint64_t last_names_ns;   /* last /proc comm refresh */
	size_t kept_fds;          /* /proc descriptors open for snapshots */
	int our_cpu;              /* where p_stop runs (sched_getcpu), for queued_since */
	cpu_set_t own_cpus;       /* the sampler's CPUs at attach (invariant 6) */
	int own_cpus_ok;          /* own_cpus was read */
	int placed;               /* the sampler is on a subset of own_cpus now */
	uint64_t last_place_ns;   /* last place_sampler() */
};

static int p_stop(struct uf_target *t, struct uf_err *err);
static int p_resume(struct uf_target *t, struct uf_err *err);
static int p_threads(struct uf_target *t, uint32_t *ids, size_t max, size_t *n,
		     struct uf_err *err);
static int p_regs(struct uf_target *t, uint32_t id, struct uf_regs *r, struct uf_err *err);
static ssize_t p_read(struct uf_target *t, uint32_t id, uint64_t addr, void *buf, size_t len,
		      struct uf_err *err);
static void p_detach(struct uf_target *t);
static int p_idle(struct uf_target *t, uint64_t deadline_ns, struct uf_err *err);
static int p_exit_status(const struct uf_target *t, int *status);
static int p_runstate(struct uf_target *t, uint32_t id, enum uf_runstate *state,
		      uint64_t *run_ns, struct uf_err *err);

static const struct uf_target_ops ptrace_ops = {
	.name = "ptrace",
	.caps = UF_TARGET_CAP_PROCMAPS | UF_TARGET_CAP_RUNSTATE,
	.stop = p_stop,
	.resume = p_resume,
	.threads = p_threads,
	.regs = p_regs,
	.read = p_read,
	.detach = p_detach,
	.idle = p_idle,
	.runstate = p_runstate,
	.thread_name = ptrace_target_thread_name,
	.exit_status = p_exit_status,
	.release = ptrace_target_free,
};

static struct ptr *ptr_new(struct uf_target *t, pid_t pid);
static int seize_all(struct ptr *p, struct uf_err *err);
static int seize_one(struct ptr *p, pid_t tid, const char *what, struct uf_err *err);
static int wait_exec(struct ptr *p, struct uf_err *err, const char *what);
static void child_exec(const int go[2], const int fail[2], char *const argv[])
	__attribute__((noreturn));
static struct thr *thr_find(struct ptr *p, pid_t tid);
static struct thr *thr_add(struct ptr *p, pid_t tid);
static void on_status(struct ptr *p, pid_t tid, int status);
static int drain(struct ptr *p);
static void cont_all(struct ptr *p);
static int wait_sigchld(uint64_t ns);
static void read_comm(struct ptr *p, struct thr *h);
static void compact(struct ptr *p);
static const struct dead *dead_find(struct ptr *p, pid_t tid);
static uint64_t mono_ns(void);
static int on_exit_event(struct ptr *p, struct thr *h);
static void snapshot(struct ptr *p, struct thr *h);
static size_t interrupt_some(struct uf_target *t, struct ptr *p, int in_r);
static void collect_stops(struct uf_target *t, struct ptr *p, size_t n, uint64_t until);
static int snapped_in_r(const struct thr *h);
static void place_sampler(struct ptr *p);
static void unplace_sampler(struct ptr *p);
static int in_syscall_wait(struct uf_target *t, struct thr *h);
static int queued_since(struct ptr *p, struct thr *h);
static int read_times(struct ptr *p, struct thr *h, uint64_t *run, uint64_t *wait);
static ssize_t proc_read(struct ptr *p, pid_t tid, const char *name, int *fd, char *buf,
			 size_t size);
static void close_fds(struct ptr *p, struct thr *h);

#if defined(__x86_64__)
#define NATIVE_ARCH UF_ARCH_X86_64
#elif defined(__aarch64__)
#define NATIVE_ARCH UF_ARCH_AARCH64
#else
#error "ptrace-if supports x86-64 and AArch64 hosts"
#endif

/* ---- public ------------------------------------------------------------- */

int ptrace_target_attach(struct uf_target *t, pid_t pid, struct uf_err *err)
{
	char what[64];
	snprintf(what, sizeof what, "pid %d", (int)pid);
	if (pid <= 0 || (kill(pid, 0) < 0 && errno == ESRCH)) {
		uf_err_set(err, UF_ETARGET, what, "no such process");
		return -ESRCH;
	}
	if (pid == getpid()) {
		uf_err_set(err, UF_ETARGET, what, "cannot profile ourselves");
		return -EINVAL;
	}
	struct ptr *p = ptr_new(t, pid);
	if (!p) {
		uf_err_set(err, UF_ETARGET, what, "out of memory");
		return -ENOMEM;
	}
	int rc = seize_all(p, err);
	if (rc < 0) {
		p_detach(t);
		ptrace_target_free(t);
	}
	return rc;
}

int ptrace_target_spawn(struct uf_target *t, char *const argv[], struct uf_err *err)
{
	int go[2], fail[2];
	if (pipe2(go, O_CLOEXEC) < 0 || pipe2(fail, O_CLOEXEC) < 0) {
		uf_err_set(err, UF_ETARGET, argv[0], "pipe: %s", UF_STRERROR(errno));
		return -errno;
	}
	pid_t pid = fork();
	if (pid == 0)
		child_exec(go, fail, argv);
	close(go[0]);
	close(fail[1]);
	int rc = pid < 0 ? -errno : 0;
	struct ptr *p = rc ? NULL : ptr_new(t, pid);
	if (p) {
		p->info.spawned = 1;
		rc = seize_all(p, err);
	} else if (!rc) {
		rc = -ENOMEM;
	}
	close(go[1]); /* the child execs now (or dies with us on error) */
	int e = 0;
	ssize_t got = 0;
	while (pid > 0 && (got = read(fail[0], &e, sizeof e)) < 0 && errno == EINTR)
		;
	close(fail[0]);
	if (!rc && got == (ssize_t)sizeof e) {
		uf_err_set(err, UF_ETARGET, argv[0], "cannot run: %s", UF_STRERROR(e));
		rc = -e;
	} else if (rc && !err->cls) {
		uf_err_set(err, UF_ETARGET, argv[0], "cannot start: %s", UF_STRERROR(-rc));
	} else if (!rc) {
		rc = wait_exec(p, err, argv[0]);
	}
	if (rc && p) {
		p_detach(t);
		ptrace_target_free(t);
	}
	if (rc && pid > 0)
		waitpid(pid, NULL, 0);
	return rc;
}

const struct ptrace_info *ptrace_target_info(const struct uf_target *t)
{
	struct ptr *p = t->priv;
	return p ? &p->info : NULL;
}

static int p_exit_status(const struct uf_target *t, int *status)
{
	const struct ptr *p = t->priv;
	if (!p || !p->info.exited)
		return 0;
	*status = p->info.status;
	return 1;
}

size_t ptrace_target_thread_name(const struct uf_target *t, uint32_t tid, char *buf, size_t size)
{
	struct ptr *p = t->priv;
	struct thr *h = p ? thr_find(p, (pid_t)tid) : NULL;
	const struct dead *d = p && !h ? dead_find(p, (pid_t)tid) : NULL;
	const char *comm = h ? h->comm : d ? d->comm : "";
	int n = snprintf(buf, size, "%s-%d/%u", comm[0] ? comm : "?", p ? (int)p->info.pid : 0, tid);
	return n < 0 ? 0 : (size_t)n < size ? (size_t)n : size - 1;
}

void ptrace_target_free(struct uf_target *t)
{
	struct ptr *p = t->priv;
	if (!p)
		return;
	free(p->thr);
	free(p->dead);
	free(p);
	t->priv = NULL;
}

/* ---- ops ---------------------------------------------------------------- */

static int p_stop(struct uf_target *t, struct uf_err *err)
{
	struct ptr *p = t->priv;
	/* no drain first: a stop not yet reported is collected below like
	 * the interrupt stops (PTRACE_INTERRUPT on it succeeds) */
	(void)err;
	p->our_cpu = sched_getcpu();
	for (size_t i = 0; i < p->nthr; i++) {
		struct thr *h = &p->thr[i];
		h->rs_valid = 0;
#if defined(__x86_64__)
		h->uregs_valid = 0;
#endif
		if (h->gone || h->detached)
			continue;
		snapshot(p, h);   /* invariant 4: every thread before any stop */
		t->n_hypercalls += 2;
	}
	/* invariant 5: the threads in R first, the sleepers once those stopped */
	uint64_t until = mono_ns() + PTRACE_IF_STOP_BUDGET_NS;
	size_t asked = interrupt_some(t, p, 1);
	collect_stops(t, p, asked, until);
	asked = interrupt_some(t, p, 0);
	collect_stops(t, p, asked, until);
	return p->live ? 0 : UF_TARGET_GONE;
}

/* PTRACE_INTERRUPT on every live thread not yet stopped whose snapshot
 * is R (`in_r`) or is not; returns how many were asked (each gets
 * `asked` set until its stop is seen). */
static size_t interrupt_some(struct uf_target *t, struct ptr *p, int in_r)
{
	size_t n = 0;
	for (size_t i = 0; i < p->nthr; i++) {
		struct thr *h = &p->thr[i];
		h->asked = 0;
		if (h->gone || h->detached || h->stopped || snapped_in_r(h) != in_r)
			continue;
		t->n_hypercalls++;
		if (ptrace(PTRACE_INTERRUPT, h->tid, 0, 0) == 0) {
			h->asked = 1;
			n++;
		}
	}
	return n;
}

/* Waits until the `n` asked threads have stopped (or gone), or `until`
 * (invariant 3); any other report on the way is taken in too. */
static void collect_stops(struct uf_target *t, struct ptr *p, size_t n, uint64_t until)
{
	while (n) {
		int st;
		pid_t tid = waitpid(-1, &st, __WALL | WNOHANG);
		t->n_hypercalls++;
		if (tid > 0) {
			struct thr *h = thr_find(p, tid);
			int was = h && h->asked && !h->gone && !h->stopped;
			on_status(p, tid, st);
			h = thr_find(p, tid);
			if (was && (h->stopped || h->gone)) {
				h->asked = 0;
				n--;
			}
			continue;
		}
		uint64_t now = mono_ns();
		if ((tid < 0 && errno == ECHILD) || now >= until || wait_sigchld(until - now) < 0)
			return;
	}
}

/* The snapshot saw the thread in R (on a CPU or queued for one); a
 * thread without a snapshot counts as R, so it is stopped early too. */
static int snapped_in_r(const struct thr *h)
{
	return !h->rs_valid || h->rs == UF_RS_RUNNING;
}

static int p_resume(struct uf_target *t, struct uf_err *err)
{
	struct ptr *p = t->priv;
	cont_all(p);
	return p->live ? 0 : UF_TARGET_GONE;
}

static int p_threads(struct uf_target *t, uint32_t *ids, size_t max, size_t *n,
		     struct uf_err *err)
{
	struct ptr *p = t->priv;
	*n = 0;
	for (size_t i = 0; i < p->nthr && *n < max; i++)
		if (p->thr[i].stopped && !p->thr[i].gone && !p->thr[i].exiting)
			ids[(*n)++] = (uint32_t)p->thr[i].tid;
	return 0;
}

static int p_regs(struct uf_target *t, uint32_t id, struct uf_regs *r, struct uf_err *err)
{
	memset(r, 0, sizeof *r);
	r->arch = NATIVE_ARCH;
#if defined(__x86_64__)
	struct user_regs_struct u;
	struct thr *h = thr_find(t->priv, (pid_t)id);
	if (h && h->uregs_valid)
		u = h->uregs;   /* read by p_runstate at this stop */
	else if (++t->n_hypercalls, ptrace(PTRACE_GETREGS, (pid_t)id, 0, &u) < 0)
		goto fail;
	r->pc = u.rip;
	r->sp = u.rsp;
	r->fp = u.rbp;
#else
	struct user_pt_regs u;
	struct iovec iov = { &u, sizeof u };
	t->n_hypercalls++;
	if (ptrace(PTRACE_GETREGSET, (pid_t)id, (void *)NT_PRSTATUS, &iov) < 0)
		goto fail;
	r->pc = u.pc;
	r->sp = u.sp;
	r->fp = u.regs[29];
	r->lr = u.regs[30];
#endif
	return 0;
fail:
	uf_err_set(err, UF_ETARGET, "ptrace", "registers of thread %u: %s", id, UF_STRERROR(errno));
	return -errno;
}

/* Reports the snapshot p_stop took (invariant 4); unknown for a thread
 * first seen during this stop (a clone) or whose /proc files vanished. */
static int p_runstate(struct uf_target *t, uint32_t id, enum uf_runstate *state,
		      uint64_t *run_ns, struct uf_err *err)
{
	struct ptr *p = t->priv;
	struct thr *h = thr_find(p, (pid_t)id);
	(void)err;
	*state = h && h->rs_valid ? h->rs : UF_RS_UNKNOWN;
	*run_ns = h && h->rs_valid ? h->run_ns : 0;
	if (*state == UF_RS_RUNNING && in_syscall_wait(t, h))
		*state = UF_RS_BLOCKED;
	else if (*state == UF_RS_RUNNING && queued_since(p, h))
		*state = UF_RS_RUNNABLE;
	return 0;
}

/* A thread in R at the snapshot was queued, not on a CPU, when its
 * queue-wait time grew between the snapshot and now: a thread on a CPU
 * enters its stop at once (the interrupt's IPI), a queued one must first
 * be given a CPU, and the kernel adds that wait to schedstat's second
 * field when it is.  One pread; t->n_hypercalls counts it. */
static int queued_since(struct ptr *p, struct thr *h)
{
	uint64_t run, wait;
	if (!h->have_times || read_times(p, h, &run, &wait) != 0)
		return 0;
	return wait - h->wait_ns > (h->on_our_cpu ? DISPLACED_MAX_NS : 0);
}

/* schedstat's on-CPU and queue-wait times (ns) of thread h; 0 or -1. */
static int read_times(struct ptr *p, struct thr *h, uint64_t *run, uint64_t *wait)
{
	char buf[96];
	unsigned long long r, w;
	if (proc_read(p, h->tid, "schedstat", &h->sched_fd, buf, sizeof buf) <= 0 ||
	    sscanf(buf, "%llu %llu", &r, &w) != 2)
		return -1;
	*run = r;
	*wait = w;
	return 0;
}

/* A thread in R at the snapshot may still be on its way back into the
 * wait our previous stop interrupted (a loaded machine takes
 * milliseconds to run it): stopped inside a system call whose result is
 * a restart code, it was waiting.  x86-64 only (AArch64 keeps the
 * syscall number in another regset; there the letter alone decides).
 * The registers are kept for p_regs, so this costs no extra call. */
static int in_syscall_wait(struct uf_target *t, struct thr *h)
{
#if defined(__x86_64__)
	t->n_hypercalls++;
	if (ptrace(PTRACE_GETREGS, h->tid, 0, &h->uregs) < 0)
		return 0;
	h->uregs_valid = 1;
	long ret = (long)h->uregs.rax;
	if ((long)h->uregs.orig_rax >= 0)   /* stopped inside a system call */
		return (ret >= -516 && ret <= -512) || ret == -EINTR;   /* -ERESTART*, -EINTR */
	/* restarted already but not yet back in: at a `syscall` instruction */
	struct ptr *p = t->priv;
	uint8_t insn[2];
	struct iovec local = { insn, 2 }, remote = { (void *)(uintptr_t)h->uregs.rip, 2 };
	t->n_hypercalls++;
	return process_vm_readv(p->info.pid, &local, 1, &remote, 1, 0) == 2 &&
	       insn[0] == 0x0f && insn[1] == 0x05;
#else
	(void)t;
	(void)h;
	return 0;
#endif
}

/* process_vm_readv reads the whole process, stopped thread or not; a
 * fault returns what was copied before it. */
static ssize_t p_read(struct uf_target *t, uint32_t id, uint64_t addr, void *buf, size_t len,
		      struct uf_err *err)
{
	struct ptr *p = t->priv;
	struct iovec local = { buf, len }, remote = { (void *)(uintptr_t)addr, len };
	t->n_hypercalls++;
	ssize_t n = process_vm_readv(p->info.pid, &local, 1, &remote, 1, 0);
	if (n >= 0)
		return n;
	if (errno == EFAULT || errno == ESRCH || errno == EINVAL)
		return 0;
	uf_err_set(err, UF_ETARGET, "ptrace", "reading memory: %s", UF_STRERROR(errno));
	return -errno;
}

/* Stops what still runs, detaches every thread with its pending signal,
 * and gives our signal mask back.  Safe to call twice. */
static void p_detach(struct uf_target *t)
{
	struct ptr *p = t->priv;
	if (!p || !p->attached)
		return;
	struct uf_err e = { 0 };
	/* A thread that did not stop within p_stop's budget (a loaded
	 * machine) cannot be detached yet; it would stay in its stop, traced,
	 * once it gets there, and a spawned program waited for would never
	 * end.  So stop and detach again until every thread is let go or
	 * gone (about 2 s at most; past that it is released when we exit). */
	for (int pass = 0; pass < 100; pass++) {
		p_stop(t, &e);
		size_t left = 0;
		for (size_t i = 0; i < p->nthr; i++) {
			struct thr *h = &p->thr[i];
			if (h->gone || h->detached)
				continue;
			long sig = h->group_stop ? 0 : h->sig;
			if (h->stopped && ptrace(PTRACE_DETACH, h->tid, 0, (void *)sig) == 0) {
				h->stopped = 0;
				h->detached = 1;
			} else if (!(h->stopped && errno == ESRCH)) {
				left++;  /* not stopped yet (ESRCH on a stopped one: it died) */
			}
		}
		if (!left)
			break;
	}
	drain(p);
	for (size_t i = 0; i < p->nthr; i++)
		close_fds(p, &p->thr[i]);
	p->attached = 0;
	unplace_sampler(p);
	pthread_sigmask(SIG_SETMASK, &p->old_mask, NULL);
}

static int p_idle(struct uf_target *t, uint64_t deadline_ns, struct uf_err *err)
{
	const uint64_t margin = 200000; /* leave the last 200 us to clock_nanosleep */
	struct ptr *p = t->priv;
	for (;;) {
		drain(p);
		compact(p); /* no thread pointer is held here */
		cont_all(p);
		if (!p->live)
			return UF_TARGET_GONE;
		uint64_t now = mono_ns();
		if (now - p->last_place_ns > PLACE_EVERY_NS) {
			p->last_place_ns = now;
			place_sampler(p);
		}
		if (now - p->last_names_ns > 1000000000ull) {
			p->last_names_ns = now;
			for (size_t i = 0; i < p->nthr; i++)
				if (!p->thr[i].gone)
					read_comm(p, &p->thr[i]);
		}
		if (now + margin >= deadline_ns)
			return 0;
		if (wait_sigchld(deadline_ns - margin - now) < 0)
			return 0; /* timeout, or a signal for us: the loop decides */
	}
}

/* ---- helpers ------------------------------------------------------------ */

/* In the child: wait until the parent has seized us (it closes the pipe),
 * then exec; report an exec failure's errno through `fail`. */
static void child_exec(const int go[2], const int fail[2], char *const argv[])
{
	char c;
	sigset_t none;
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	close(go[1]);
	while (read(go[0], &c, 1) < 0 && errno == EINTR)
		;
	execvp(argv[0], argv);
	int e = errno;
	ssize_t w = write(fail[1], &e, sizeof e);
	(void)w;
	_exit(127);
}

static struct ptr *ptr_new(struct uf_target *t, pid_t pid)
{
	struct ptr *p = calloc(1, sizeof *p);
	if (!p)
		return NULL;
	p->info.pid = pid;
	memset(t, 0, sizeof *t);
	t->pid = pid;
	t->ops = &ptrace_ops;
	t->priv = p;
	t->arch = NATIVE_ARCH;
	sigset_t chld;
	sigemptyset(&chld);
	sigaddset(&chld, SIGCHLD);
	pthread_sigmask(SIG_BLOCK, &chld, &p->old_mask);
	p->attached = 1;
	p->own_cpus_ok = sched_getaffinity(0, sizeof p->own_cpus, &p->own_cpus) == 0;
	return p;
}

/* Seizes every thread in /proc/PID/task, listing again until a pass finds
 * no new thread (threads may be created while we attach). */
static int seize_all(struct ptr *p, struct uf_err *err)
{
	char path[64], what[64];
	snprintf(path, sizeof path, "/proc/%d/task", (int)p->info.pid);
	snprintf(what, sizeof what, "pid %d", (int)p->info.pid);
	for (int pass = 0, added = 1; added && pass < 100; pass++) {
		DIR *d = opendir(path);
		if (!d) {
			uf_err_set(err, UF_ETARGET, what, "no such process");
			return -ESRCH;
		}
		added = 0;
		for (struct dirent *de; (de = readdir(d));) {
			pid_t tid = (pid_t)atoi(de->d_name);
			if (tid <= 0 || thr_find(p, tid))
				continue;
			int rc = seize_one(p, tid, what, err);
			if (rc < 0) {
				closedir(d);
				return rc;
			}
			added |= rc;
		}
		closedir(d);
	}
	if (!p->live) {
		uf_err_set(err, UF_ETARGET, what, "no threads to trace (process exited?)");
		return -ESRCH;
	}
	return 0;
}

/* Returns 1 when tid was seized, 0 when it has just exited, or <0. */
/* Spawn mode: waits for the exec event of the program (the exec itself
 * succeeded: the fail pipe closed empty), which leaves it stopped before
 * its first instruction.  Other reports (none are expected) are taken as
 * they come; an exit before exec is an error. */
static int wait_exec(struct ptr *p, struct uf_err *err, const char *what)
{
	for (;;) {
		int st;
		pid_t w = waitpid(p->info.pid, &st, __WALL);
		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0) {
			uf_err_set(err, UF_ETARGET, what, "cannot start: %s", UF_STRERROR(errno));
			return -errno;
		}
		on_status(p, w, st);
		if (WIFSTOPPED(st) && (unsigned)st >> 16 == PTRACE_EVENT_EXEC)
			return 0;
		if (p->info.exited) {
			uf_err_set(err, UF_ETARGET, what, "exited before its first instruction");
			return -ESRCH;
		}
		cont_all(p);
	}
}

static int seize_one(struct ptr *p, pid_t tid, const char *what, struct uf_err *err)
{
	/* a spawned program is held at its exec (ptrace_target_spawn) */
	long opts = PTRACE_O_TRACECLONE | PTRACE_O_TRACEEXIT |
		    (p->info.spawned ? PTRACE_O_TRACEEXEC : 0);
	if (ptrace(PTRACE_SEIZE, tid, 0, (void *)opts) < 0) {
		int e = errno;
		if (e == ESRCH)
			return 0;
		uf_err_set(err, UF_ETARGET, what, "cannot trace: %s%s", UF_STRERROR(e),
			   e == EPERM ? " (another tracer, or not permitted: "
			   "see /proc/sys/kernel/yama/ptrace_scope)" : "");
		return -e;
	}
	struct thr *h = thr_add(p, tid);
	if (!h) {
		uf_err_set(err, UF_ETARGET, what, "out of memory");
		return -ENOMEM;
	}
	read_comm(p, h);
	return 1;
}

static struct thr *thr_find(struct ptr *p, pid_t tid)
{
	for (size_t i = p->nthr; i-- > 0;)
		if (p->thr[i].tid == tid)
			return &p->thr[i];
	return NULL;
}

/* Adds a running thread; the array may move (hold tids, not pointers). */
static struct thr *thr_add(struct ptr *p, pid_t tid)
{
	if (uf_vec_grow(&p->thr, &p->thr_cap, p->nthr + 1, sizeof *p->thr) < 0)
		return NULL;
	struct thr *h = &p->thr[p->nthr++];
	memset(h, 0, sizeof *h);
	h->tid = tid;
	h->stat_fd = h->sched_fd = -1;
	p->live++;
	return h;
}

/* Applies one waitpid report to the thread it is about. */
static void on_status(struct ptr *p, pid_t tid, int st)
{
	struct thr *h = thr_find(p, tid);
	if (!h && !(h = thr_add(p, tid)))
		return; /* out of memory: the thread runs on untracked */
	if (WIFEXITED(st) || WIFSIGNALED(st)) {
		if (!h->gone && !h->held)
			p->live--;
		h->gone = 1;
		h->stopped = 0;
		if (tid == p->info.pid) {
			p->info.exited = 1;
			p->info.status = st;
		}
		return;
	}
	if (!WIFSTOPPED(st))
		return;
	int sig = WSTOPSIG(st), ev = (unsigned)st >> 16;
	if (ev == PTRACE_EVENT_EXIT && on_exit_event(p, h))
		return;
	h->stopped = 1;
	h->group_stop = 0;
	if (ev == PTRACE_EVENT_STOP) {
		h->group_stop = sig == SIGSTOP || sig == SIGTSTP || sig == SIGTTIN || sig == SIGTTOU;
	} else if (ev == PTRACE_EVENT_CLONE) {
		unsigned long nt = 0;
		if (ptrace(PTRACE_GETEVENTMSG, tid, 0, &nt) == 0 && !thr_find(p, (pid_t)nt)) {
			struct thr *n = thr_add(p, (pid_t)nt);
			if (n)
				read_comm(p, n);
		}
	} else if (ev == 0) {
		h->sig = sig; /* signal-delivery-stop: pass it on */
	}
}

/* A thread at its exit event (invariant 3).  Returns 1 when handled (let
 * go, or held), 0 when it is to be treated as stopped. */
static int on_exit_event(struct ptr *p, struct thr *h)
{
	h->exiting = 1;
	size_t others = 0;
	for (size_t i = 0; i < p->nthr; i++)
		others += !p->thr[i].gone && !p->thr[i].exiting;
	if (h->tid == p->info.pid && others == 0) {
		unsigned long code;
		if (ptrace(PTRACE_GETEVENTMSG, h->tid, 0, &code) == 0) {
			p->info.exited = 1; /* the process's wait status */
			p->info.status = (int)code;
		}
		h->held = 1;
		h->stopped = 1;
		h->group_stop = 0;
		h->sig = 0;
		p->live--;
		return 1;
	}
	/* let it go; a stop still pending for it is resumed, never sampled */
	return ptrace(PTRACE_CONT, h->tid, 0, 0) == 0;
}

/* Collects every pending waitpid report without blocking.  Returns the
 * number of reports. */
static int drain(struct ptr *p)
{
	int n = 0, st;
	pid_t tid;
	while ((tid = waitpid(-1, &st, __WALL | WNOHANG)) > 0) {
		on_status(p, tid, st);
		n++;
	}
	if (tid < 0 && errno == ECHILD) {
		for (size_t i = 0; i < p->nthr; i++)
			p->thr[i].gone = 1;
		p->live = 0;
	}
	return n;
}

static void cont_all(struct ptr *p)
{
	for (size_t i = 0; i < p->nthr; i++) {
		struct thr *h = &p->thr[i];
		if (!h->stopped || h->gone || h->held)
			continue;
		long rc = h->group_stop ? ptrace(PTRACE_LISTEN, h->tid, 0, 0)
					: ptrace(PTRACE_CONT, h->tid, 0, (void *)(long)h->sig);
		if (rc == 0 || errno == ESRCH) {
			h->stopped = 0; /* ESRCH: killed meanwhile; waitpid will say */
			h->sig = 0;
		}
	}
}

/* Sleeps until SIGCHLD or `ns` pass.  0 on SIGCHLD, -1 on timeout or
 * when another signal interrupts (our SIGINT handler). */
static int wait_sigchld(uint64_t ns)
{
	sigset_t chld;
	sigemptyset(&chld);
	sigaddset(&chld, SIGCHLD);
	struct timespec ts = { (time_t)(ns / 1000000000ull), (long)(ns % 1000000000ull) };
	return sigtimedwait(&chld, NULL, &ts) == SIGCHLD ? 0 : -1;
}

static void read_comm(struct ptr *p, struct thr *h)
{
	char path[64];
	snprintf(path, sizeof path, "/proc/%d/task/%d/comm", (int)p->info.pid, (int)h->tid);
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return;
	ssize_t n = read(fd, h->comm, sizeof h->comm - 1);
	close(fd);
	if (n <= 0)
		return;
	h->comm[n] = 0;
	h->comm[strcspn(h->comm, "\n")] = 0;
}

/* Moves exited threads out of the live table into the name list, so
 * per-sample loops and lookups scale with the threads alive now.  Moves
 * entries: call only where no struct thr pointer is held. */
static void compact(struct ptr *p)
{
	size_t k = 0;
	for (size_t i = 0; i < p->nthr; i++) {
		struct thr *h = &p->thr[i];
		if (!h->gone) {
			p->thr[k++] = *h;
			continue;
		}
		close_fds(p, h);
		if (uf_vec_grow(&p->dead, &p->dead_cap, p->ndead + 1, sizeof *p->dead) < 0) {
			p->thr[k++] = *h; /* out of memory: keep it, it is only slower */
			continue;
		}
		struct dead *d = &p->dead[p->ndead];
		d->tid = h->tid;
		d->seq = (uint32_t)p->ndead++;
		memcpy(d->comm, h->comm, sizeof d->comm);
		p->dead_sorted = 0;
		p->info.exited_threads++;
	}
	p->nthr = k;
	p->info.tracked = k;
}

static int dead_cmp(const void *a, const void *b)
{
	const struct dead *x = a, *y = b;
	if (x->tid != y->tid)
		return x->tid < y->tid ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* The latest exited thread with this tid, or NULL.  Sorts on first use
 * after additions (names are asked for at output time, once per stack). */
static const struct dead *dead_find(struct ptr *p, pid_t tid)
{
	if (!p->ndead)
		return NULL;
	if (!p->dead_sorted) {
		qsort(p->dead, p->ndead, sizeof *p->dead, dead_cmp);
		p->dead_sorted = 1;
	}
	size_t lo = 0, hi = p->ndead; /* first entry with a tid > tid */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (p->dead[mid].tid <= tid)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo > 0 && p->dead[lo - 1].tid == tid ? &p->dead[lo - 1] : NULL;
}

/* Reads /proc/PID/task/TID/<name> into buf (NUL-terminated) through the
 * kept descriptor *fd, opening it when the budget allows.  Returns the
 * length, or -1. */
static ssize_t proc_read(struct ptr *p, pid_t tid, const char *name, int *fd, char *buf,
			 size_t size)
{
	if (*fd < 0) {
		char path[64];
		snprintf(path, sizeof path, "/proc/%d/task/%d/%s", (int)p->info.pid, (int)tid,
			 name);
		int f = open(path, O_RDONLY | O_CLOEXEC);
		if (f < 0)
			return -1;
		if (p->kept_fds >= KEEP_FDS) {   /* over budget: open-read-close */
			ssize_t n = pread(f, buf, size - 1, 0);
			close(f);
			buf[n > 0 ? n : 0] = 0;
			return n;
		}
		*fd = f;
		p->kept_fds++;
	}
	ssize_t n = pread(*fd, buf, size - 1, 0);
	buf[n > 0 ? n : 0] = 0;
	return n;
}

/* Field 39 of a stat line, the CPU the thread last ran on; -1 if absent. */
static int stat_cpu(const char *line)
{
	const char *q = strrchr(line, ')');
	for (int field = 2; q && field < 39; field++)
		q = strchr(q + 1, ' ');
	return q ? atoi(q + 1) : -1;
}

/* The state letter of a stat line: the first field after the last ')'
 * (a comm may hold spaces and parentheses); 0 when there is none. */
static char stat_letter(const char *line)
{
	const char *rp = strrchr(line, ')');
	return rp && rp[1] == ' ' ? rp[2] : 0;
}

static enum uf_runstate from_letter(const struct thr *h, char c)
{
	switch (c) {
	case 'R':   /* on a CPU or queued: runstate() tells (queued_since) */
		return UF_RS_RUNNING;
	case 'S': case 'D': case 'P': case 'I': case 'W':
		return UF_RS_BLOCKED;
	case 'T':
		return UF_RS_OFFLINE;
	case 't':   /* stopped by us for an event not yet resumed, or job control */
		return h->group_stop ? UF_RS_OFFLINE : UF_RS_RUNNING;
	default:
		return UF_RS_UNKNOWN;   /* Z, X: exiting */
	}
}

/* Invariant 4: the thread's state and times now, before it is stopped. */
static void snapshot(struct ptr *p, struct thr *h)
{
	char line[512];
	if (proc_read(p, h->tid, "stat", &h->stat_fd, line, sizeof line) <= 0)
		return;
	h->rs = from_letter(h, stat_letter(line));
	h->on_our_cpu = stat_cpu(line) == p->our_cpu;
	h->rs_valid = 1;
	h->have_times = read_times(p, h, &h->run_ns, &h->wait_ns) == 0;
}

static void close_fds(struct ptr *p, struct thr *h)
{
	int *fds[2] = { &h->stat_fd, &h->sched_fd };
	for (int i = 0; i < 2; i++)
		if (*fds[i] >= 0) {
			close(*fds[i]);
			*fds[i] = -1;
			p->kept_fds--;
		}
}

/* Invariant 6: the CPUs the sampler may use (own_cpus) that no thread of
 * the target may run on; when there are some, the sampler moves there,
 * when there are none (any more), it goes back to all of own_cpus.  A
 * thread whose mask cannot be read counts as running anywhere. */
static void place_sampler(struct ptr *p)
{
	if (!p->own_cpus_ok)
		return;
	cpu_set_t spare, theirs;
	CPU_ZERO(&theirs);
	for (size_t i = 0; i < p->nthr; i++) {
		cpu_set_t m;
		if (p->thr[i].gone || p->thr[i].exiting)
			continue;
		if (sched_getaffinity(p->thr[i].tid, sizeof m, &m) != 0)
			return;
		CPU_OR(&theirs, &theirs, &m);
	}
	CPU_ZERO(&spare);
	for (int c = 0; c < CPU_SETSIZE; c++)
		if (CPU_ISSET(c, &p->own_cpus) && !CPU_ISSET(c, &theirs))
			CPU_SET(c, &spare);
	if (CPU_COUNT(&spare) == 0) {
		unplace_sampler(p);
		return;
	}
	p->placed = sched_setaffinity(0, sizeof spare, &spare) == 0;
	p->info.spare_cpus = p->placed ? (size_t)CPU_COUNT(&spare) : 0;
}

/* Back to the CPUs the sampler had at attach. */
static void unplace_sampler(struct ptr *p)
{
	if (p->placed && sched_setaffinity(0, sizeof p->own_cpus, &p->own_cpus) == 0)
		p->placed = 0;
	p->info.spare_cpus = 0;
}

static uint64_t mono_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}
