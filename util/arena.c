/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * util/arena.c — chained bump blocks; see util/arena.h.
 */
#include <stdlib.h>
#include <string.h>

#include "util/arena.h"

struct uf_arena_block {
	struct uf_arena_block *prev;
	size_t size;
	_Alignas(8) unsigned char data[];
};

void uf_arena_init(struct uf_arena *a)
{
	memset(a, 0, sizeof *a);
}

void *uf_arena_alloc(struct uf_arena *a, size_t size)
{
	size = (size + 7) & ~(size_t)7;
	if (!a->head || a->head->size - a->used < size) {
		size_t bsize = size > UF_ARENA_BLOCK ? size : UF_ARENA_BLOCK;
		struct uf_arena_block *b = malloc(sizeof *b + bsize);
		if (!b)
			return NULL;
		b->prev = a->head;
		b->size = bsize;
		a->head = b;
		a->used = 0;
	}
	void *p = a->head->data + a->used;
	a->used += size;
	a->total += size;
	return p;
}

char *uf_arena_strndup(struct uf_arena *a, const char *s, size_t len)
{
	char *p = uf_arena_alloc(a, len + 1);
	if (p) {
		memcpy(p, s, len);
		p[len] = 0;
	}
	return p;
}

void uf_arena_release(struct uf_arena *a)
{
	struct uf_arena_block *b = a->head;
	while (b) {
		struct uf_arena_block *prev = b->prev;
		free(b);
		b = prev;
	}
	uf_arena_init(a);
}
