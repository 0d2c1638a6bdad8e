/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * sampler/sampler.h — the sampling loop, the stack set and the
 * per-sample sequence (stacks are walked by the caller's walker, normally
 * unwind/unwind.h's unwind_walk, plugged in by record/).
 *
 * The loop wakes at absolute CLOCK_MONOTONIC deadlines (start + k/Hz, so
 * there is no drift), stops the target, reads every thread's registers,
 * walks each stack into raw addresses, resumes the target, and only then
 * stores what it saw.  Nothing is symbolized while the target is stopped:
 * sampler_fold() turns the address stacks into names afterwards through a
 * resolver callback (normally symtab/).  Stacks are unwound inside the
 * pause by the walker (unwind/: CFI tables built beforehand, frame pointers where
 * there is no CFI), which copies whole stack windows rather than two words
 * per frame: a few microseconds of memcpy instead of a target round trip
 * per frame — round trips dominate every backend.
 *
 * States of one sampling run and the call behind each transition:
 *
 *     IDLE --sampler_run--> SLEEPING --deadline--> STOPPED (target->stop)
 *       STOPPED --walk all threads--> target->resume --> SLEEPING
 *       any state --stop flag | -T elapsed | target gone | error--> DONE
 *                                   (the target is always resumed first)
 *
 * Invariants:
 *  1. A stack in the set is stored once; sample memory grows with unique
 *     (thread, stack) pairs, plus 16 bytes per sample only when the
 *     sequence is kept (flame charts, --raw).
 *  2. Walks terminate for every memory image (unwind.h invariant 1) and
 *     the depth is capped by max_depth.
 *  3. Frame 0 of a stack is the program counter; frames 1.. are return
 *     addresses (symbolized as addr - 1).  Stacks are stored leaf first.
 *  4. sampler_run() always leaves the target resumed, whatever happened.
 *  5. Stack ids and thread-table indices are dense uint32_t from 0.
 */
#ifndef UF_SAMPLER_SAMPLER_H
#define UF_SAMPLER_SAMPLER_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "fold/fold.h"
#include "target/target.h"
#include "util/err.h"

#define SAMPLER_DEFAULT_HZ 99.0
#define SAMPLER_DEFAULT_DEPTH 512u
#define SAMPLER_MAX_DEPTH 8192u             /* --max-depth cap (FOLD_MAX_DEPTH) */

/* ---- the stack set ----------------------------------------------------- */

struct sampler_stackset {
	uint64_t *frames;          /* all stacks' frames back to back */
	size_t nframes, frames_cap;
	uint64_t *off;             /* stack i: frames[off[i] .. off[i] + len[i]) */
	uint32_t *len;
	uint64_t *hash;
	uint32_t nstacks;
	size_t stacks_cap;
	uint32_t *slots;           /* open addressing: stack id + 1, 0 = empty */
	uint32_t slots_mask;
};

void sampler_stackset_init(struct sampler_stackset *s);
void sampler_stackset_release(struct sampler_stackset *s);
/* Returns the id of the stack pcs[0..n) (borrowed, copied when new), or
 * -ENOMEM (-EINVAL for n == 0).  Ids are dense and stable. */
int64_t sampler_stackset_add(struct sampler_stackset *s, const uint64_t *pcs, size_t n);
/* The frames of stack `id` (leaf first); pointer goes stale on the next add. */
static inline const uint64_t *sampler_stackset_get(const struct sampler_stackset *s, uint32_t id,
						   size_t *n)
{
	*n = s->len[id];
	return s->frames + s->off[id];
}
/* Checks the invariants (every stack findable, ids dense); 0 or 1. */
int sampler_stackset_check(const struct sampler_stackset *s);

/* ---- one recording ------------------------------------------------------ */

/* A sample of one thread, in time order (kept only when asked).  The
 * state shares the thread's word so an event stays 16 bytes. */
#define SAMPLER_MAX_THREADS (1u << 28)     /* thread indices per recording */
struct sampler_event {
	uint64_t t_ns;       /* since the first sample */
	uint32_t thread : 28; /* index into sampler.threads */
	uint32_t state : 4;  /* enum uf_runstate */
	uint32_t stack;      /* stack id */
};

/* Log-linear histogram of durations: about 3 % resolution, fixed size. */
#define SAMPLER_HIST_SUB 32u
#define SAMPLER_HIST_BUCKETS (64u * SAMPLER_HIST_SUB)

struct sampler_hist {
	uint64_t b[SAMPLER_HIST_BUCKETS];
	uint64_t max_ns, sum_ns, n;
};

void sampler_hist_add(struct sampler_hist *h, uint64_t ns);
/* Quantile q in [0,1], in ns (bucket midpoint, at most the maximum); 0
 * when empty. */
uint64_t sampler_hist_quantile(const struct sampler_hist *h, double q);

struct sampler_stats {
	uint64_t samples;          /* sampling rounds (target stops) */
	uint64_t thread_samples;   /* stacks recorded (rounds x threads) */
	uint64_t missed;           /* deadlines already past when reached */
	uint64_t stop_failures;    /* rounds where stop/regs failed and were skipped */
	uint64_t elapsed_ns;       /* first deadline to end */
	/* Per round: `stop` runs from the stop request to the end of resume
	 * (what the target may lose, including waiting for a thread to get a
	 * CPU); `frozen` from the moment every thread was stopped to the end
	 * of resume (registers, walks, resume: our own cost). */
	struct sampler_hist stop, frozen;
	uint32_t max_threads;      /* most threads seen in one round */
	uint64_t state_samples[UF_RS_COUNT]; /* stacks recorded, by run state
				    (all unknown unless the target has
				    UF_TARGET_CAP_RUNSTATE) */
	uint64_t runstate_failures; /* runstate calls that failed (state unknown) */
	int target_gone;           /* the run ended because the target went away */
	int interrupted;           /* the run ended on the stop flag */
};

struct sampler_thread {
	uint32_t id;               /* backend id (Linux tid, vCPU number) */
};

struct sampler {
	struct sampler_stackset set;
	/* (state, thread index, stack id) -> count, open addressing: a state
	 * change makes another pair, so memory grows with distinct
	 * (thread, stack, state) triples, 8 + 8 bytes each */
	uint64_t *pair_key;        /* state << 60 | thread << 32 | stack */
	uint64_t *pair_count;
	uint32_t npairs;
	size_t pairs_cap;          /* power of two; 0 = empty */
	struct sampler_thread *threads;
	uint32_t nthreads;
	size_t threads_cap;
	uint32_t thread_hint;      /* where the next thread lookup starts */
	struct sampler_event *seq; /* NULL unless keep_sequence */
	size_t seq_len, seq_cap;
	int keep_sequence;
	struct sampler_stats stats;
};

void sampler_init(struct sampler *s, int keep_sequence);
void sampler_release(struct sampler *s);
/* Records one walked stack of backend thread `tid` at time t_ns.
 * Returns 0 or -ENOMEM. */
int sampler_record(struct sampler *s, uint32_t tid, uint64_t t_ns, const uint64_t *pcs, size_t n);
/* The same, with the thread's run state at the sample. */
int sampler_record_in(struct sampler *s, uint32_t tid, uint64_t t_ns, enum uf_runstate state,
		      const uint64_t *pcs, size_t n);
/* A pair key's parts (see struct sampler). */
static inline uint32_t sampler_key_thread(uint64_t key) { return (uint32_t)(key >> 32) & 0x0fffffffu; }
static inline enum uf_runstate sampler_key_state(uint64_t key) { return (enum uf_runstate)(key >> 60); }
static inline uint64_t sampler_key(uint32_t thread, enum uf_runstate st, uint32_t stack)
{
	return (uint64_t)st << 60 | (uint64_t)thread << 32 | stack;
}

/* Progress callback: called about every 250 ms from the loop (never while
 * the target is stopped). */
typedef void (*sampler_progress_fn)(void *ctx, const struct sampler_stats *st);

struct sampler_opts {
	double hz;                     /* samples per second (SAMPLER_DEFAULT_HZ) */
	double seconds;                /* wall time, 0 = until the target ends or stop */
	unsigned max_depth;            /* frames per stack */
	volatile sig_atomic_t *stop;   /* set asynchronously to end the run; may be NULL */
	sampler_progress_fn progress;  /* may be NULL */
	void *progress_ctx;
	/* Walks the stack of stopped thread `id` of `t` from `regs` into
	 * pcs[0..*n) (at most max, *n >= 1), leaf first (invariant 3); called
	 * inside the pause.  Returns >= 0, or <0 with *err (ends the run).
	 * NULL: the program counter alone.  unwind/ sits above the sampler,
	 * so the sampler names no unwinder: the caller plugs one in. */
	int (*walk)(void *ctx, struct uf_target *t, uint32_t id, const struct uf_regs *regs,
		    uint64_t *pcs, size_t max, size_t *n, struct uf_err *err);
	void *walk_ctx;
};

void sampler_opts_init(struct sampler_opts *o);

/* Samples `t` (attached, running; borrowed) into `s` until the time is up,
 * *o->stop is set, or the target goes away (stats.target_gone).  Returns 0
 * (also for those three), or <0 with *err; in every case the samples taken
 * so far stay in `s` and the target is left running (invariant 4). */
int sampler_run(struct sampler *s, struct uf_target *t, const struct sampler_opts *o,
		struct uf_err *err);

/* ---- after sampling: names ---------------------------------------------- */

/* Resolves one address to a frame name: writes up to size-1 bytes into buf
 * and returns the length (>0), or 0 when unknown.  `is_return` says the
 * address is a return address (look up addr - 1). */
typedef size_t (*sampler_resolve_fn)(void *ctx, uint64_t addr, int is_return, char *buf,
				     size_t size);
/* Names the root frame of thread `tid` for per-thread graphs. */
typedef size_t (*sampler_thread_name_fn)(void *ctx, uint32_t tid, char *buf, size_t size);

struct sampler_fold_opts {
	sampler_resolve_fn resolve;      /* NULL: every frame is "[unknown]" */
	void *resolve_ctx;
	/* Non-NULL: the source position(s) of a frame, as "FILE:LINE" text
	 * (same signature as resolve; 0 = unknown), added to each frame's
	 * node with the samples of the stack (fold_loc_add).  A frame whose
	 * name holds several parts (record --inline) gives one position per
	 * part, joined by the same separator. */
	sampler_resolve_fn locate;
	void *locate_ctx;
	sampler_thread_name_fn thread_name; /* non-NULL: thread is the root frame */
	void *thread_ctx;
	int sequence;                    /* add in time order (flame chart); needs the sequence */
};

/* Adds every sample of `s` into `t` (both borrowed): each distinct address
 * is resolved once, each stack becomes a path root to leaf, and a waiting
 * sample ends in its state's pseudo-frame (fold_trie_state_leaf).  With
 * o->sequence the trie keeps time order (fold_trie_keep_sequence is called
 * here) and each entry its time and state.  The trie's cut (--time,
 * --state) applies; a time cut needs the sampler's sequence.  Returns 0,
 * -EINVAL (a time cut without the sequence) or -ENOMEM with *err. */
int sampler_fold(const struct sampler *s, fold_trie *t, const struct sampler_fold_opts *o,
		 struct uf_err *err);

/* Writes the samples in uniprof's raw trace format through fold/out's
 * one writer (fold/out/write-raw.c has the format): per sample and
 * thread a "#sample" line (time, state, thread id), the frames as
 * hexadecimal addresses leaf first, a count line "1", an empty line.
 * Needs the sequence.  `what` names the target in the header. */
int sampler_write_raw(const struct sampler *s, FILE *out, const char *what, struct uf_err *err);

#endif
