/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * util/map.h — the project's open-addressing table of ids: a power-of-two
 * array of uint32_t slots, linear probing, where the caller keeps the keys
 * in its own arrays and supplies the hash and the equality (issue 29).
 *
 * Why this shape: every hand-rolled table in the tree already was one (a
 * trie's nodes, a profile's positions, the sampler's stacks): the keys
 * live in flat arrays indexed by id, the table holds only ids, so a slot
 * is 4 bytes and converting a table changes no output byte and no memory
 * figure.  A slot holds id + 1; 0 is empty.
 *
 * Hashing: an input-fed table must hash with util/hash.h's per-process
 * key (uf_hash_bytes, uf_hash_u64_keyed; README "Security model",
 * tests/sec/t-bombs.sh), so an input cannot pick keys that pile into one
 * run of slots.  The map never hashes by itself: the caller passes h.
 * Nothing may write a table out in slot order (the key changes it).
 *
 * Use:
 *     uint32_t slot, id = uf_map_find(&m, h, same_key, ctx, &slot);
 *     if (id == UF_MAP_NONE) {       // not there: slot is where it goes
 *             if (uf_map_over(&m, 1, 1, 2) && uf_map_grow(&m, hash_of, ctx))
 *                     return -ENOMEM;
 *             ... append the key at id = n ...
 *             uf_map_insert(&m, h, id);   // probes again after a growth
 *     }
 * uf_map_find is static inline so that a static `same_key` is inlined
 * into the probe loop: no call per probe.
 *
 * Not for: tables whose slot must carry more than an id to save a cache
 * miss per probe (the trie's name slots hold a hash tag and the name's
 * offset, its node slots the (parent, name) key: a probe there compares
 * without reading the key arrays; fold/model/trie.c says why).
 *
 * Invariants:
 *  1. mask + 1 slots, a power of two; n ids stored, each once.
 *  2. The caller keeps n below the load it chose (uf_map_over), so a
 *     probe always meets an empty slot.
 */
#ifndef UF_UTIL_MAP_H
#define UF_UTIL_MAP_H

#include <stddef.h>
#include <stdint.h>

#define UF_MAP_NONE UINT32_MAX

struct uf_map {
	uint32_t *slot;          /* id + 1; 0: empty */
	uint32_t mask;           /* slots - 1 */
	uint32_t n;              /* ids stored */
};

/* Equality of the caller's key (ctx) with stored id's key. */
typedef int (*uf_map_eq_fn)(const void *ctx, uint32_t id);
/* The (keyed) hash of stored id's key, for growing. */
typedef uint64_t (*uf_map_hash_fn)(const void *ctx, uint32_t id);

/* An empty table of `slots` slots (rounded up to a power of two, at
 * least 16).  0 or -ENOMEM. */
int uf_map_init(struct uf_map *m, uint32_t slots);
void uf_map_release(struct uf_map *m);

/* Twice the slots, every id placed again by hash(ctx, id).  0 or
 * -ENOMEM (m unchanged then). */
int uf_map_grow(struct uf_map *m, uf_map_hash_fn hash, const void *ctx);

/* Would n + more ids fill more than num/den of the slots? */
static inline int uf_map_over(const struct uf_map *m, uint32_t more, uint32_t num, uint32_t den)
{
	return ((uint64_t)m->n + more) * den > ((uint64_t)m->mask + 1) * num;
}

/* The id whose key equals ctx's (eq), or UF_MAP_NONE; *slot (may be NULL)
 * gets the empty slot where it would go. */
static inline uint32_t uf_map_find(const struct uf_map *m, uint64_t h, uf_map_eq_fn eq,
				   const void *ctx, uint32_t *slot)
{
	uint32_t i = (uint32_t)h & m->mask;
	for (;; i = (i + 1) & m->mask) {
		uint32_t v = m->slot[i];
		if (!v)
			break;
		if (eq(ctx, v - 1))
			return v - 1;
	}
	if (slot)
		*slot = i;
	return UF_MAP_NONE;
}

/* Stores id (not there yet) in the empty slot `slot` uf_map_find gave,
 * with no growth between. */
static inline void uf_map_put(struct uf_map *m, uint32_t slot, uint32_t id)
{
	m->slot[slot] = id + 1;
	m->n++;
}

/* Stores id (not there yet) under hash h: the first empty slot. */
static inline void uf_map_insert(struct uf_map *m, uint64_t h, uint32_t id)
{
	uint32_t i = (uint32_t)h & m->mask;
	while (m->slot[i])
		i = (i + 1) & m->mask;
	uf_map_put(m, i, id);
}

#endif
