/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * util/bigalloc.h — zeroed allocations for big random-access tables.
 *
 * A hash table of millions of slots is probed at random: with 4 KiB
 * pages nearly every probe is also a TLB miss.  Tables of 4 MiB and more
 * are mapped directly and marked MADV_HUGEPAGE (transparent huge pages in
 * "madvise" mode, Debian's default), which cuts those misses; smaller
 * ones come from calloc.  The caller passes the size back to free.
 */
#ifndef UF_UTIL_BIGALLOC_H
#define UF_UTIL_BIGALLOC_H

#include <stddef.h>
#include <stdlib.h>
#include <sys/mman.h>

#define UF_BIG_MIN (4u << 20)

static inline void *uf_big_calloc(size_t bytes)
{
	if (bytes < UF_BIG_MIN)
		return calloc(1, bytes);
	void *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return NULL;
#ifdef MADV_HUGEPAGE
	(void)madvise(p, bytes, MADV_HUGEPAGE); /* a hint: fine if refused */
#endif
	return p;
}

static inline void uf_big_free(void *p, size_t bytes)
{
	if (!p)
		return;
	if (bytes < UF_BIG_MIN)
		free(p);
	else
		munmap(p, bytes);
}

#endif
