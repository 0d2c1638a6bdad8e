/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * util/memfile.h — a write-only FILE whose bytes land in one malloc'd
 * buffer the caller takes afterwards: open_memstream without its copies.
 *
 * Why: glibc's memstream grows its buffer by malloc, copy, free (a new
 * mapping each time past the mmap threshold), so a 1 MB block written
 * through it touches about twice its pages: render/embed-thread.c's
 * columns were 11.9 % of tree-100k's page faults (issue 32).  Here the
 * buffer is reserved at the size the caller expects (pages never
 * written are never touched) and, past it, grown with realloc, which
 * moves a large block by remapping its pages rather than copying them.
 *
 * Invariants:
 *  1. After fclose(), m->buf holds exactly the bytes written (m->len of
 *     them, then a NUL) and belongs to the caller, who frees it, even
 *     when a write or fclose failed (then the bytes are incomplete).
 *  2. A write that cannot grow the buffer fails (fclose or ferror
 *     reports it); nothing is printed.
 *  3. ftell() works: it counts the bytes written.
 */
#ifndef UF_UTIL_MEMFILE_H
#define UF_UTIL_MEMFILE_H

#include <stddef.h>
#include <stdio.h>

struct uf_memfile {
	char *buf;   /* the bytes, NUL-ended; the caller's after fclose */
	size_t len;  /* bytes written */
	size_t cap;  /* bytes reserved (without the NUL's) */
};

/* A FILE writing into *m, with room for `reserve` bytes from the start
 * (0: grows from 4 KiB).  NULL when out of memory (m->buf is then NULL). */
FILE *uf_memfile_open(struct uf_memfile *m, size_t reserve);

#endif
