/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * target/target.h — the interface every target backend implements.
 *
 * A target is something whose threads of execution (Linux threads, Xen
 * vCPUs, gdbstub threads) can be stopped, inspected and resumed from the
 * outside: ptrace-if/, xen-if/, gdb-if/ and the replay target used by the
 * unit tests.  The sampling loop (sampler.h) drives it; backends never
 * walk stacks or symbolize.
 *
 * States and the call behind each transition:
 *
 *     (new) --attach--> RUNNING --stop--> STOPPED --resume--> RUNNING
 *                          |                 |
 *                          +-----detach------+--> (closed)
 *
 * Invariants:
 *  1. Between stop() and resume() the target is frozen: registers and
 *     memory read in that window belong to one instant.
 *  2. detach() is always safe and always leaves the target running (if it
 *     still exists): it is the cleanup path for Ctrl-C, errors and our
 *     exit.  It may be called in any state, more than once.
 *  3. Every byte a backend returns from the target is untrusted: callers
 *     bound and validate it; backends bound their own protocol parsing.
 *  4. Backends never print or exit; failures fill struct uf_err.
 */
#ifndef UF_TARGET_TARGET_H
#define UF_TARGET_TARGET_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include "util/err.h"
#include "util/runstate.h"

enum uf_arch {
	UF_ARCH_X86_64 = 1,
	UF_ARCH_AARCH64 = 2,
};

/* The registers a frame-pointer or CFI walk starts from. */
struct uf_regs {
	uint64_t pc;   /* rip / pc */
	uint64_t sp;   /* rsp / sp */
	uint64_t fp;   /* rbp / x29 */
	uint64_t lr;   /* x30 on AArch64; 0 on x86-64 */
	enum uf_arch arch;
};

#define UF_TARGET_MAX_THREADS 4096

struct uf_target;

/* Status returned by ops that observe the target. */
enum uf_target_status {
	UF_TARGET_OK = 0,
	UF_TARGET_GONE = 1,    /* target exited / domain destroyed / socket closed */
};

/* What a target can do (uf_target_ops.caps): callers ask these, never
 * which backend a target is. */
#define UF_TARGET_CAP_VCPUS    1u  /* threads are vCPUs ("vcpu-N", --per-vcpu) */
#define UF_TARGET_CAP_PROCMAPS 2u  /* a Linux process: /proc/<pid>/maps and its
				    * mapped files give symbols and CFI */
#define UF_TARGET_CAP_COST     4u  /* n_hypercalls / n_maps are the cost of a
				    * sample worth reporting (Xen) */
#define UF_TARGET_CAP_RUNSTATE 8u  /* ops->runstate says whether a thread was
				    * on a CPU or waiting (util/runstate.h) */

struct uf_target_ops {
	const char *name;   /* "ptrace", "xen", "gdb", "replay" */
	unsigned caps;      /* UF_TARGET_CAP_* */

	/* Freeze every thread.  Returns 0, UF_TARGET_GONE, or <0 with *err. */
	int (*stop)(struct uf_target *t, struct uf_err *err);
	/* Let it run again.  Same returns as stop(). */
	int (*resume)(struct uf_target *t, struct uf_err *err);
	/* Fill ids[0..*n) with the current threads/vCPUs (at most max).
	 * Called while stopped. */
	int (*threads)(struct uf_target *t, uint32_t *ids, size_t max, size_t *n,
		       struct uf_err *err);
	/* Registers of one thread, while stopped. */
	int (*regs)(struct uf_target *t, uint32_t id, struct uf_regs *r, struct uf_err *err);
	/* Copy up to len bytes at guest/process virtual address `addr` as seen
	 * by thread `id`.  Returns the number of bytes copied (short at an
	 * unmapped page; 0 when nothing is readable) or <0 with *err. */
	ssize_t (*read)(struct uf_target *t, uint32_t id, uint64_t addr, void *buf, size_t len,
			struct uf_err *err);
	/* Leave the target running and release everything (invariant 2). */
	void (*detach)(struct uf_target *t);
	/* Optional (NULL: the loop just sleeps).  Called while running: wait
	 * until the absolute CLOCK_MONOTONIC time `deadline_ns`, serving the
	 * backend's events meanwhile (a ptraced thread that gets a signal
	 * stays stopped until its tracer passes the signal on).  May return
	 * early, e.g. when our process gets a signal.  Returns 0,
	 * UF_TARGET_GONE, or <0 with *err. */
	int (*idle)(struct uf_target *t, uint64_t deadline_ns, struct uf_err *err);
	/* Optional, present with UF_TARGET_CAP_RUNSTATE.  Called while
	 * stopped, before regs: what thread `id` was doing when it was
	 * stopped, and its cumulative on-CPU time in ns (0 when the backend
	 * cannot tell).  Returns 0, UF_TARGET_GONE, or <0 with *err.
	 * Where stopping changes the answer (a ptraced thread is 't' once
	 * stopped; a paused Xen domain runs nothing), stop() takes a
	 * snapshot just before it freezes each thread and runstate()
	 * reports that snapshot; a thread first seen during the stop is
	 * UF_RS_UNKNOWN.  The backend may read registers here and keep them
	 * for regs() (ptrace, gdb), so calling it costs little extra. */
	int (*runstate)(struct uf_target *t, uint32_t id, enum uf_runstate *state,
			uint64_t *run_ns, struct uf_err *err);
	/* Optional (NULL: "vcpu-ID" with UF_TARGET_CAP_VCPUS, else "thread-ID").
	 * The root frame naming thread `id`, also after detach: writes up to
	 * size-1 bytes, returns the length. */
	size_t (*thread_name)(const struct uf_target *t, uint32_t id, char *buf, size_t size);
	/* Optional.  1 and *status (a wait status) when the target is a
	 * process whose exit was seen, else 0. */
	int (*exit_status)(const struct uf_target *t, int *status);
	/* Optional (NULL: detach released everything).  Frees what detach
	 * kept for thread_name / exit_status; called once, after detach. */
	void (*release)(struct uf_target *t);
};

struct uf_target {
	const struct uf_target_ops *ops;
	void *priv;           /* backend state */
	enum uf_arch arch;
	/* Counters the backend bumps, reported in the summary and benchmarks. */
	uint64_t n_hypercalls;  /* or syscalls / round trips, per backend */
	uint64_t n_maps;        /* foreign mappings created (Xen) */
	pid_t pid;              /* with UF_TARGET_CAP_PROCMAPS: whose /proc/PID */
};

/* The root-frame name of thread `id` (ops->thread_name or the default). */
static inline size_t uf_target_thread_name(const struct uf_target *t, uint32_t id, char *buf,
					   size_t size)
{
	if (t->ops->thread_name)
		return t->ops->thread_name(t, id, buf, size);
	int n = snprintf(buf, size, "%s-%u", t->ops->caps & UF_TARGET_CAP_VCPUS ? "vcpu" : "thread",
			 id);
	return n < 0 ? 0 : (size_t)n < size ? (size_t)n : size - 1;
}

#endif
