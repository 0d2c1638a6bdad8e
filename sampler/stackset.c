/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * sampler/stackset.c — identical address stacks stored once.
 *
 * Frames of all stacks live back to back in one flat array; a stack is
 * (offset, length, hash) addressed by a dense uint32_t id, found through
 * one open-addressing table of ids.  Trade-off: no removal and no
 * per-stack allocation, so adding a known stack costs one hash and one
 * memcmp and never allocates.
 *
 * Invariants:
 *  1. Every id 0..nstacks-1 is in exactly one slot; the table is at most
 *     half full.
 *  2. Stacks are immutable once added; the arrays only grow (pointers from
 *     sampler_stackset_get() go stale on the next add).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "sampler/sampler.h"
#include "util/hash.h"
#include "util/vec.h"

static int grow_table(struct sampler_stackset *s);
static uint32_t *find_slot(const struct sampler_stackset *s, const uint64_t *pcs, size_t n,
			   uint64_t h);

void sampler_stackset_init(struct sampler_stackset *s)
{
	memset(s, 0, sizeof *s);
}

void sampler_stackset_release(struct sampler_stackset *s)
{
	free(s->frames);
	free(s->off);
	free(s->len);
	free(s->hash);
	free(s->slots);
	memset(s, 0, sizeof *s);
}

int64_t sampler_stackset_add(struct sampler_stackset *s, const uint64_t *pcs, size_t n)
{
	if (n == 0)
		return -EINVAL;
	if (n > UINT32_MAX || s->nstacks >= UINT32_MAX / 2)
		return -ENOMEM;
	uint64_t h = uf_hash_bytes(pcs, n * sizeof *pcs);
	if (s->slots) {
		uint32_t *slot = find_slot(s, pcs, n, h);
		if (*slot)
			return *slot - 1;
	}
	if ((size_t)(s->nstacks + 1) * 2 > (size_t)s->slots_mask + (s->slots ? 1 : 0) &&
	    grow_table(s) < 0)
		return -ENOMEM;
	size_t cap = s->stacks_cap, need = (size_t)s->nstacks + 1;
	if (uf_vec_grow(&s->off, &cap, need, sizeof *s->off) < 0)
		return -ENOMEM;
	cap = s->stacks_cap;
	if (uf_vec_grow(&s->len, &cap, need, sizeof *s->len) < 0)
		return -ENOMEM;
	cap = s->stacks_cap;
	if (uf_vec_grow(&s->hash, &cap, need, sizeof *s->hash) < 0)
		return -ENOMEM;
	s->stacks_cap = cap;
	if (uf_vec_grow(&s->frames, &s->frames_cap, s->nframes + n, sizeof *s->frames) < 0)
		return -ENOMEM;
	uint32_t id = s->nstacks++;
	memcpy(s->frames + s->nframes, pcs, n * sizeof *pcs);
	s->off[id] = s->nframes;
	s->len[id] = (uint32_t)n;
	s->hash[id] = h;
	s->nframes += n;
	*find_slot(s, pcs, n, h) = id + 1;
	return id;
}

int sampler_stackset_check(const struct sampler_stackset *s)
{
	for (uint32_t i = 0; i < s->nstacks; i++) {
		size_t n;
		const uint64_t *f = sampler_stackset_get(s, i, &n);
		uint32_t *slot = find_slot(s, f, n, s->hash[i]);
		if (*slot != i + 1)
			return 1;
	}
	return 0;
}

/* Doubles the slot table (16 slots at first) and reinserts every id. */
static int grow_table(struct sampler_stackset *s)
{
	size_t nslots = s->slots ? ((size_t)s->slots_mask + 1) * 2 : 16;
	if (nslots > (size_t)UINT32_MAX + 1)
		return -ENOMEM;
	uint32_t *slots = calloc(nslots, sizeof *slots);
	if (!slots)
		return -ENOMEM;
	free(s->slots);
	s->slots = slots;
	s->slots_mask = (uint32_t)(nslots - 1);
	for (uint32_t i = 0; i < s->nstacks; i++) {
		uint32_t j = (uint32_t)s->hash[i] & s->slots_mask;
		while (s->slots[j])
			j = (j + 1) & s->slots_mask;
		s->slots[j] = i + 1;
	}
	return 0;
}

/* The slot holding stack pcs[0..n), or the empty slot where it belongs. */
static uint32_t *find_slot(const struct sampler_stackset *s, const uint64_t *pcs, size_t n,
			   uint64_t h)
{
	uint32_t j = (uint32_t)h & s->slots_mask;
	for (;;) {
		uint32_t v = s->slots[j];
		if (!v)
			return &s->slots[j];
		uint32_t id = v - 1;
		if (s->hash[id] == h && s->len[id] == n &&
		    !memcmp(s->frames + s->off[id], pcs, n * sizeof *pcs))
			return &s->slots[j];
		j = (j + 1) & s->slots_mask;
	}
}
