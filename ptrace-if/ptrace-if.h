/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * ptrace-if/ptrace-if.h — Linux processes as sampling targets (ptrace).
 *
 * Every thread is attached with PTRACE_SEIZE (threads created later are
 * attached by the kernel through PTRACE_O_TRACECLONE), stopped with
 * PTRACE_INTERRUPT, inspected with PTRACE_GETREGS / GETREGSET and
 * process_vm_readv, and resumed with PTRACE_CONT.  A ptraced thread that
 * receives a signal stops until its tracer passes the signal on, so the
 * backend's idle() serves such stops between samples (SIGCHLD is blocked
 * while attached and waited for with sigtimedwait).  Spawn mode forks,
 * seizes the child while it waits on a pipe, then lets it exec.
 *
 * Invariants:
 *  1. A thread is continued with exactly the signal it stopped with: the
 *     target's signals are delayed by at most one sampling period, never
 *     lost or invented.
 *  2. detach() leaves every remaining thread running (or group-stopped
 *     if the user had stopped it with SIGSTOP) and unblocks SIGCHLD.
 *  3. No thread stays stopped longer than PTRACE_IF_STOP_BUDGET_NS per
 *     stop(): a thread that does not stop in time is left out of that
 *     sample.
 */
#ifndef UF_PTRACE_IF_H
#define UF_PTRACE_IF_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "target/target.h"
#include "util/err.h"

/* A thread that is runnable but not running (more threads than CPUs)
 * stops only when the scheduler runs it; waiting longer than this would
 * keep every other thread stopped too. */
#define PTRACE_IF_STOP_BUDGET_NS 20000000ull /* 20 ms */

/* What the caller may want to know after the run (owned by the target). */
struct ptrace_info {
	pid_t pid;        /* thread-group id */
	int spawned;      /* we started it (spawn mode) */
	int exited;       /* its exit was seen */
	int status;       /* waitpid status, valid when exited */
	size_t tracked;   /* threads in the live table (exited ones are moved
			   * out between samples, so a process that creates
			   * many threads does not slow every sample down) */
	size_t exited_threads; /* threads seen exiting (their names are kept) */
	size_t spare_cpus;     /* CPUs the sampler runs on apart from the target's
			   * (ptrace.c invariant 6); 0 = it shares theirs */
};

/* Attaches to every thread of process `pid`.  Errors (UF_ETARGET, exit 3):
 * no such process, permission denied, already traced.  The target keeps
 * running; free with ptrace_target_free() after detach. */
int ptrace_target_attach(struct uf_target *t, pid_t pid, struct uf_err *err);
/* Runs argv[0] (PATH searched) with argv, attached from its first
 * instruction after exec, and returns with it held there (stopped at its
 * exec event): the caller reads its maps, builds its tables, and the
 * first resume() (the sampler's first round) lets it run, so the first
 * sample is its first instruction.  A program that cannot be executed is
 * UF_ETARGET. */
int ptrace_target_spawn(struct uf_target *t, char *const argv[], struct uf_err *err);
/* The info record (borrowed from t); NULL before attach. */
const struct ptrace_info *ptrace_target_info(const struct uf_target *t);
/* Name of thread `tid` as "comm-pid/tid" (the last comm seen while the
 * thread lived, also for threads that have exited; a reused tid gives
 * the latest thread's); returns the length written (cut to size - 1). */
size_t ptrace_target_thread_name(const struct uf_target *t, uint32_t tid, char *buf, size_t size);
/* Releases the memory of a detached target. */
void ptrace_target_free(struct uf_target *t);

#endif
