/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * fold/embed/internal.h — shared between the block's writer (embed.c)
 * and packer (embed-pack.c); not part of the room's public face
 * (fold/embed/embed.h).
 */
#ifndef UF_FOLD_EMBED_INTERNAL_H
#define UF_FOLD_EMBED_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

/* LEB128 of v into q (at most 5 bytes); returns the length.  The packed
 * embedded block's columns (embed.c writes them, embed-pack.c both). */
static inline size_t fold_varint(uint8_t q[5], uint32_t v)
{
	size_t n = 0;
	do {
		q[n++] = (uint8_t)((v & 127) | (v > 127 ? 128 : 0));
		v >>= 7;
	} while (v);
	return n;
}

#endif
