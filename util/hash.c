/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * util/hash.c — draws util/hash.h's per-process key.
 *
 * A constructor runs before main (and before any table exists), so the
 * inline hashes read a plain global with no once-check on the hot path.
 * getrandom() without GRND_NONBLOCK would block early in boot; with it, a
 * failure falls back to the clock, the pid and an address (ASLR), weaker
 * but still unknown to an input written in advance.  UF_HASH_KEY=<hex>
 * fixes the key, so a slow run can be replayed with the same table layout.
 */
#include <stdint.h>
#include <stdlib.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>

#include "util/hash.h"

uint64_t uf_hash_key = UF_HASH_K0;

__attribute__((constructor)) static void hash_key_init(void)
{
	const char *fixed = getenv("UF_HASH_KEY");
	if (fixed && *fixed) {
		uf_hash_key = strtoull(fixed, NULL, 16);
		return;
	}
	uint64_t k;
	if (getrandom(&k, sizeof k, GRND_NONBLOCK) != (ssize_t)sizeof k) {
		struct timespec ts;
		clock_gettime(CLOCK_MONOTONIC, &ts);
		k = uf_hash_u64((uint64_t)ts.tv_nsec ^ (uint64_t)ts.tv_sec << 30) ^
		    (uint64_t)getpid() << 40 ^ (uint64_t)(uintptr_t)&k;
	}
	uf_hash_key = k;
}
