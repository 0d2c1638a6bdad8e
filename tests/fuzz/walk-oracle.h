/*
 * tests/fuzz/walk-oracle.h — the contract every stack walk must keep
 * whatever the memory holds, checked by the walker harnesses
 * (fuzz-fp-walk.c, fuzz-xen-walk.c, fuzz-gdb-target.c).
 *
 * Bounded work per sample: at most SAMPLER_MAX_READS target reads, at most
 * `max` frames, and at most one frame per distinct 16-byte record of
 * readable memory (frame pointers strictly increase, so each frame needs
 * a record of its own: a self-pointing record yields one frame, not
 * thousands); and a CPU-time bound far above any real walk.
 */
#ifndef UF_TESTS_FUZZ_WALK_ORACLE_H
#define UF_TESTS_FUZZ_WALK_ORACLE_H

#include <time.h>

#include "sampler/sampler.h"
#include "tests/fuzz/fuzz.h"

#define WALK_MAX_CPU_NS (200ull * 1000 * 1000)

static inline uint64_t walk_cpu_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* Checks one walk's outcome; `readable` bounds the bytes the target could
 * ever return (SIZE_MAX when unknown). */
static inline void walk_check(int end, size_t n, size_t max, const struct sampler_walk_stats *st,
			      size_t readable, uint64_t cpu_ns)
{
	if (end < 0)
		return;   /* a target error, reported as such */
	if (end >= SAMPLER_WALK_NEND)
		fuzz_fail("walk ended with %d", end);
	if (n < 1 || n > max)
		fuzz_fail("walk wrote %zu frames, max %zu", n, max);
	if (st->reads > SAMPLER_MAX_READS)
		fuzz_fail("walk issued %llu reads", (unsigned long long)st->reads);
	if (fuzz_oracle() && n - 1 > readable / 16)
		fuzz_fail("walk gave %zu frames from %zu readable bytes (a frame loop)", n,
			  readable);
	if (fuzz_oracle() && cpu_ns > WALK_MAX_CPU_NS)
		fuzz_fail("walk took %llu ms of CPU", (unsigned long long)(cpu_ns / 1000000));
}

#endif
