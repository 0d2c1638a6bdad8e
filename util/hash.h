/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * util/hash.h — fast hashing for the tables, keyed per process.
 *
 * uf_hash_bytes() reads 8 bytes at a time and mixes with multiply/xor
 * folding (the wyhash family's idea, written from scratch).  Its state
 * starts from uf_hash_key, a random 64-bit key that util/hash.c draws
 * from getrandom() once per process, before main.  Every table fed by
 * input (names, (parent, name) nodes, positions, perf's line cache,
 * pprof's function table) hashes with it, so an input cannot be built
 * to collide: without the key, chosen names land in random slots and a
 * table stays linear in its input (issue 28: with a fixed seed, 100k
 * chosen names made the name table quadratic, 17 s against 0.3 s).
 *
 * Trade-off: table order now changes from run to run, so nothing that
 * reaches an output may iterate a keyed table by slot (the trie numbers
 * nodes and names in insertion order; writers sort).  UF_HASH_KEY=<hex>
 * in the environment fixes the key, to replay a run exactly.
 * uf_hash_u64() stays unkeyed for tables whose slot order is written out
 * (the sampler's) and whose keys the input does not choose; input-fed
 * integer keys use uf_hash_u64_keyed().
 *
 * The key enters the state, never a multiplier (a key could make one
 * weak); the state after the first word is then unknown to the input.
 *
 * A scanner that finds a string's end while hashing it (fold/sorted.c)
 * uses the three steps: h = uf_hash_start(); h = uf_hash_step(h, word)
 * per 8 bytes; uf_hash_final(h, tail, len); uf_hash_bytes() is exactly
 * that.
 */
#ifndef UF_UTIL_HASH_H
#define UF_UTIL_HASH_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* Per-process random key, set before main (util/hash.c). */
extern uint64_t uf_hash_key;

#define UF_HASH_K0 0x243f6a8885a308d3ull
#define UF_HASH_K1 0xa0761d6478bd642full
#define UF_HASH_K2 0xe7037ed1a0b428dbull

static inline uint64_t uf_hash_mix(uint64_t a, uint64_t b)
{
	__uint128_t r = (__uint128_t)a * b;
	return (uint64_t)r ^ (uint64_t)(r >> 64);
}

/* Unkeyed: the same value in every process. */
static inline uint64_t uf_hash_u64(uint64_t x)
{
	return uf_hash_mix(x ^ 0x9e3779b97f4a7c15ull, 0xd6e8feb86659fd93ull);
}

/* Keyed by uf_hash_key: for integer keys an input chooses. */
static inline uint64_t uf_hash_u64_keyed(uint64_t x)
{
	uint64_t h = uf_hash_mix(x ^ uf_hash_key, 0xd6e8feb86659fd93ull);
	return uf_hash_mix(h ^ (uf_hash_key >> 17), UF_HASH_K2);
}

static inline uint64_t uf_hash_start(void)
{
	return uf_hash_key ^ UF_HASH_K0;
}

static inline uint64_t uf_hash_step(uint64_t h, uint64_t word)
{
	return uf_hash_mix(h ^ word, UF_HASH_K1);
}

static inline uint64_t uf_hash_final(uint64_t h, uint64_t tail, size_t len)
{
	return uf_hash_mix(h ^ tail ^ ((uint64_t)len << 56), UF_HASH_K2);
}

/* Keyed by uf_hash_key. */
static inline uint64_t uf_hash_bytes(const void *data, size_t len)
{
	const unsigned char *p = data;
	uint64_t h = uf_hash_start(), v;
	size_t n = len;
	while (n >= 8) {
		memcpy(&v, p, 8);
		h = uf_hash_step(h, v);
		p += 8;
		n -= 8;
	}
	v = 0;
	memcpy(&v, p, n);
	return uf_hash_final(h, v, len);
}

#endif
