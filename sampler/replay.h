/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * sampler/replay.h — a target made of a memory image and a register
 * script, for unit tests (no root, no live process).
 *
 * Memory is a list of regions copied in; a read returns the bytes up to
 * the first address not covered (a short read, like an unmapped page).
 * The script is a list of rounds; each stop() moves to the next round,
 * whose threads and registers the sampler then sees.  After the last
 * round the target is gone, or the script starts over when `loop` is set.
 * Rounds may carry each thread's run state (replay_add_round_states),
 * answered by the optional runstate op.  Fault injection: stop() fails with -EIO in round `fail_stop_at`;
 * threads() reports the target gone in round `gone_threads_at` (every
 * thread exited between the stop and the listing).
 *
 * Invariants:
 *  1. Registers and memory can only be read while stopped; a read while
 *     running is counted in `violations` (tests assert it stays 0).
 *  2. stops == resumes after every sampler_run(), whatever happened.
 */
#ifndef UF_SAMPLER_REPLAY_H
#define UF_SAMPLER_REPLAY_H

#include <stddef.h>
#include <stdint.h>

#include "target/target.h"

struct replay_region {
	uint64_t addr;
	size_t len;
	unsigned char *bytes;        /* owned */
};

struct replay_round {
	size_t n;
	uint32_t *tids;              /* owned */
	struct uf_regs *regs;        /* owned */
	uint8_t *states;             /* owned, enum uf_runstate per thread; NULL = none */
};

struct replay_target {
	struct replay_region *regions;
	size_t nregions;
	struct replay_round *rounds;
	size_t nrounds;
	size_t cur;                  /* round shown by the last stop() */
	int loop;                    /* restart the script instead of going away */
	long fail_stop_at;           /* stop() number that fails with -EIO; -1 = never */
	long gone_threads_at;        /* round whose threads() says gone; -1 = never */
	int stopped;
	int detached;
	int has_states;              /* a round has states: the target says
					UF_TARGET_CAP_RUNSTATE (replay_target_init) */
	uint64_t runstate_calls;
	uint64_t stops, resumes, reads, violations;
};

/* Returns an owned empty replay target, NULL on OOM. */
struct replay_target *replay_new(void);
void replay_free(struct replay_target *r);
/* Copies `len` bytes to appear at `addr`.  0 or -ENOMEM. */
int replay_map(struct replay_target *r, uint64_t addr, const void *bytes, size_t len);
/* Appends a round of n threads (arrays copied).  0 or -ENOMEM. */
int replay_add_round(struct replay_target *r, const uint32_t *tids, const struct uf_regs *regs,
		     size_t n);
/* The same with each thread's run state (states copied); the target then
 * advertises UF_TARGET_CAP_RUNSTATE and its runstate op answers them
 * (call replay_target_init after adding such rounds).  0 or -ENOMEM. */
int replay_add_round_states(struct replay_target *r, const uint32_t *tids,
			    const struct uf_regs *regs, const enum uf_runstate *states, size_t n);
/* Points `t` at `r` (borrowed; keep r alive while t is used). */
void replay_target_init(struct uf_target *t, struct replay_target *r);

#endif
