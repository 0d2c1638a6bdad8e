/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * tests/fuzz/walk-oracle.h — one frame-pointer walk and the contract it
 * must keep whatever the memory holds, for the walker harnesses
 * (fuzz-fp-walk.c, fuzz-xen-walk.c, fuzz-gdb-target.c).
 *
 * walk_fp() walks with unwind/'s walker in frame-pointer mode where that
 * module exists, else with sampler/walk.c (the walker before CFI), so the
 * harnesses build on either tree.
 *
 * Bounded work per sample: at most the walker's read cap, at most `max`
 * frames, and at most one frame per distinct 16-byte record of readable
 * memory (frame pointers strictly increase, so each frame needs a record
 * of its own: a self-pointing record yields one frame, not thousands);
 * and a CPU-time bound far above any real walk.
 */
#ifndef UF_TESTS_FUZZ_WALK_ORACLE_H
#define UF_TESTS_FUZZ_WALK_ORACLE_H

#include <time.h>

#include "sampler/sampler.h"
#include "tests/fuzz/fuzz.h"

#define WALK_MAX_CPU_NS (200ull * 1000 * 1000)

#if __has_include("unwind/unwind.h")
#include "unwind/unwind.h"
#define WALK_NEND UNWIND_NEND
#define WALK_MAX_READS UNWIND_MAX_READS

static inline int walk_fp(struct uf_target *t, uint32_t id, const struct uf_regs *r,
			  uint64_t *pcs, size_t max, size_t *n, uint64_t *reads,
			  struct uf_err *err)
{
	struct unwind_stats st = { 0 };
	int end = unwind_walk(t, id, r, NULL, UNWIND_FP, pcs, max, n, &st, err);
	*reads = st.reads;
	return end;
}
#else
#define WALK_NEND SAMPLER_WALK_NEND
#define WALK_MAX_READS SAMPLER_MAX_READS

static inline int walk_fp(struct uf_target *t, uint32_t id, const struct uf_regs *r,
			  uint64_t *pcs, size_t max, size_t *n, uint64_t *reads,
			  struct uf_err *err)
{
	struct sampler_walk_stats st = { 0 };
	int end = sampler_walk(t, id, r, pcs, max, n, &st, err);
	*reads = st.reads;
	return end;
}
#endif

static inline uint64_t walk_cpu_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* Checks one walk's outcome; `readable` bounds the bytes the target could
 * ever return (SIZE_MAX when unknown). */
static inline void walk_check(int end, size_t n, size_t max, uint64_t reads, size_t readable,
			      uint64_t cpu_ns)
{
	if (end < 0)
		return;   /* a target error, reported as such */
	if (end >= WALK_NEND)
		fuzz_fail("walk ended with %d", end);
	if (n < 1 || n > max)
		fuzz_fail("walk wrote %zu frames, max %zu", n, max);
	if (reads > WALK_MAX_READS)
		fuzz_fail("walk issued %llu reads", (unsigned long long)reads);
	if (fuzz_oracle() && n - 1 > readable / 16)
		fuzz_fail("walk gave %zu frames from %zu readable bytes (a frame loop)", n,
			  readable);
	if (fuzz_oracle() && cpu_ns > WALK_MAX_CPU_NS)
		fuzz_fail("walk took %llu ms of CPU", (unsigned long long)(cpu_ns / 1000000));
}

#endif
