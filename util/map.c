/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * util/map.c — the cold half of util/map.h (design there): making,
 * growing and freeing the slot array; finding and inserting are inline.
 * Growth walks the old slots, so a table may hold any subset of the
 * caller's ids.
 */
#include <errno.h>
#include <stdlib.h>

#include "util/map.h"

int uf_map_init(struct uf_map *m, uint32_t slots)
{
	uint32_t n = 16;
	while (n < slots && n < (1u << 31))
		n *= 2;
	m->slot = calloc(n, sizeof *m->slot);
	m->mask = n - 1;
	m->n = 0;
	return m->slot ? 0 : -ENOMEM;
}

void uf_map_release(struct uf_map *m)
{
	free(m->slot);
	m->slot = NULL;
	m->mask = 0;
	m->n = 0;
}

int uf_map_grow(struct uf_map *m, uf_map_hash_fn hash, const void *ctx)
{
	size_t old = (size_t)m->mask + 1, ncap = old * 2;
	if (ncap > (1u << 31))
		return -ENOMEM;
	uint32_t *s = calloc(ncap, sizeof *s), mask = (uint32_t)(ncap - 1);
	if (!s)
		return -ENOMEM;
	for (size_t k = 0; k < old; k++) {
		uint32_t v = m->slot[k];
		if (!v)
			continue;
		uint32_t i = (uint32_t)hash(ctx, v - 1) & mask;
		while (s[i])
			i = (i + 1) & mask;
		s[i] = v;
	}
	free(m->slot);
	m->slot = s;
	m->mask = mask;
	return 0;
}
