/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * util/arena.h — a bump allocator freed only as a whole.
 *
 * Blocks of at least UF_ARENA_BLOCK bytes are chained; an allocation never
 * moves, so pointers into an arena stay valid until uf_arena_release().
 * Running out of memory returns NULL (callers turn it into an error; the
 * recorder must still write what it sampled).
 */
#ifndef UF_UTIL_ARENA_H
#define UF_UTIL_ARENA_H

#include <stddef.h>

#define UF_ARENA_BLOCK (256u * 1024u)

struct uf_arena_block;

struct uf_arena {
	struct uf_arena_block *head; /* newest block; older ones chained */
	size_t used;                 /* bytes used in head */
	size_t total;                /* bytes handed out, for reports */
};

void uf_arena_init(struct uf_arena *a);
/* Returns `size` bytes aligned to 8, or NULL when memory runs out. */
void *uf_arena_alloc(struct uf_arena *a, size_t size);
/* Copies `len` bytes and a NUL terminator; NULL when memory runs out. */
char *uf_arena_strndup(struct uf_arena *a, const char *s, size_t len);
void uf_arena_release(struct uf_arena *a);

#endif
