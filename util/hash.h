/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * util/hash.h — fast non-cryptographic hashing for the interning tables.
 *
 * uf_hash_bytes() reads 8 bytes at a time and mixes with multiply/xor
 * folding (the wyhash family's idea, written from scratch).  The seed is
 * fixed: output order never depends on hash values, so determinism does
 * not need it, and a hostile input can at worst slow a table down.
 */
#ifndef UF_UTIL_HASH_H
#define UF_UTIL_HASH_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

static inline uint64_t uf_hash_mix(uint64_t a, uint64_t b)
{
	__uint128_t r = (__uint128_t)a * b;
	return (uint64_t)r ^ (uint64_t)(r >> 64);
}

static inline uint64_t uf_hash_u64(uint64_t x)
{
	return uf_hash_mix(x ^ 0x9e3779b97f4a7c15ull, 0xd6e8feb86659fd93ull);
}

static inline uint64_t uf_hash_bytes(const void *data, size_t len)
{
	const unsigned char *p = data;
	uint64_t h = 0x243f6a8885a308d3ull ^ len;
	while (len >= 8) {
		uint64_t v;
		memcpy(&v, p, 8);
		h = uf_hash_mix(h ^ v, 0xa0761d6478bd642full);
		p += 8;
		len -= 8;
	}
	uint64_t v = 0;
	memcpy(&v, p, len);
	return uf_hash_mix(h ^ v ^ ((uint64_t)len << 56), 0xe7037ed1a0b428dbull);
}

#endif
