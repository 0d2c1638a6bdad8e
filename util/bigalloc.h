/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * util/bigalloc.h — zeroed allocations for big random-access tables.
 *
 * A hash table of millions of slots is probed at random: with 4 KiB
 * pages nearly every probe is also a TLB miss.  Tables of 4 MiB and more
 * are mapped directly and marked MADV_HUGEPAGE (transparent huge pages in
 * "madvise" mode, Debian's default), which cuts those misses; smaller
 * ones come from calloc.  The caller passes the size back to free.
 * uf_calloc_written: zeroed memory already faulted in for writing (a
 * table read before it is written, beside another thread).
 *
 * uf_thp_hint: huge pages for a big array about to be written.
 *
 * uf_alloc_keep_freed: the process's malloc keeps freed blocks below
 * UF_KEEP_FREED_MAX for reuse instead of unmapping each one.  A render
 * allocates arrays of a few MiB per phase (lines, keys, nodes, totals,
 * layout, columns) and frees the last phase's: with glibc's defaults each
 * came back as fresh pages, and a fault costs ~2.8 us in this VM (page
 * faults were 12-15 % of tree-64k's CPU samples).  Kept, the next phase
 * reuses the pages: tree-64k's faults 6,850 -> 4,980, CPU -8 %; peak RSS
 * +2.2 MiB (held free blocks), little-100k +1.3 MiB, little-1m +0.3 %.
 * Blocks from UF_KEEP_FREED_MAX up are still mapped and unmapped alone, so
 * what is held is bounded by what a phase allocates below it.  It also
 * puts the heap on huge pages (uf_heap_thp).
 */
#ifndef UF_UTIL_BIGALLOC_H
#define UF_UTIL_BIGALLOC_H

#include <malloc.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

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

/* Zeroed memory whose pages are already written: for a table that is
 * probed (read) before it is filled, on a thread beside another of this
 * process.  calloc's fresh pages are untouched; a read maps the kernel's
 * zero page and the first write to it is a copy-on-write fault whose TLB
 * flush interrupts every other CPU running the process.  Writing the
 * zeros here faults each page in once, writable, with no flush.  The
 * barrier keeps the compiler from turning malloc + memset into calloc.
 * Free with free(). */
static inline void *uf_calloc_written(size_t bytes)
{
	void *p = malloc(bytes ? bytes : 1);
	if (!p)
		return NULL;
	__asm__ volatile("" : : "r"(p) : "memory");
	memset(p, 0, bytes);
	return p;
}

/* Transparent huge pages for an array of UF_BIG_MIN bytes and more that
 * malloc mapped on its own (from UF_KEEP_FREED_MAX up): the 2 MiB-aligned
 * part of [p, p + bytes) is marked MADV_HUGEPAGE before it is written.  A
 * 4 KiB fault costs ~3.3 us in this VM, a huge page ~0.6 us per 4 KiB
 * (a microbenchmark of 16 MiB); little-100k's node, total and entry
 * arrays (2.3M nodes) were ~19k of its 25k faults.  Costs at most one
 * partly used 2 MiB page of RSS per array.  A hint: fine if refused,
 * nothing when the kernel has no THP; call it on a block before writing
 * it (after a growing realloc: only the pages not yet written gain). */
static inline void uf_thp_hint(void *p, size_t bytes)
{
#ifdef MADV_HUGEPAGE
	const uintptr_t huge = (uintptr_t)2 << 20;
	if (!p || bytes < UF_BIG_MIN)
		return;
	uintptr_t a = ((uintptr_t)p + huge - 1) & ~(huge - 1), e = ((uintptr_t)p + bytes) & ~(huge - 1);
	if (e > a)
		(void)madvise((void *)a, e - a, MADV_HUGEPAGE);
#else
	(void)p;
	(void)bytes;
#endif
}

#define UF_KEEP_FREED_MAX (4u << 20)

#define UF_HEAP_PAD (64u << 20)

/* Huge pages for the heap, where the arrays below UF_KEEP_FREED_MAX live
 * (uf_thp_hint reaches only the bigger ones): malloc is told to grow the
 * heap UF_HEAP_PAD at a time, made to grow it once, and the new, untouched
 * part is marked MADV_HUGEPAGE.  Fewer faults while a render writes it
 * and, at exit, 2 MiB pages the kernel drops whole instead of 512 entries
 * each (35 MB of 4 KiB pages cost ~1.1 ms of exit here, of huge pages
 * ~0.2 ms).  tree-100k, 41 interleaved runs: best 71.4 -> 63.5 ms, median
 * 90.9 -> 85.3; diff-tree-64k 109.1 -> 98.5, 131.5 -> 126.3.  The cost is
 * peak RSS (partly used 2 MiB pages; the pad keeps up to UF_HEAP_PAD of
 * freed top-of-heap pages instead of trimming them): +3-5 MiB, 35.5 ->
 * 39.3 and 39.5 -> 44.5 (inferno 44.1 and 50.0), hence only for big
 * inputs, through uf_alloc_keep_freed.  Virtual space until written; a
 * hint: a refusal changes nothing. */
static inline void uf_heap_thp(void)
{
#ifdef MADV_HUGEPAGE
	const uintptr_t huge = (uintptr_t)2 << 20;
	(void)mallopt(M_TOP_PAD, (int)UF_HEAP_PAD);
	uintptr_t from = (uintptr_t)sbrk(0);
	void *grow = malloc(UF_KEEP_FREED_MAX - 4096); /* below the mmap threshold: from the heap */
	free(grow); /* may trim the heap back to the pad: its end is read after */
	uintptr_t to = (uintptr_t)sbrk(0);
	from = (from + huge - 1) & ~(huge - 1);
	to &= ~(huge - 1);
	if (grow && to > from)
		(void)madvise((void *)from, to - from, MADV_HUGEPAGE);
#endif
}

/* Called by the CLI before it reads inputs of 1 MiB and more
 * (cli/inputs.c: a small render keeps the defaults, and its peak RSS);
 * a hint: fine if refused, harmless if called twice. */
static inline void uf_alloc_keep_freed(void)
{
	(void)mallopt(M_MMAP_THRESHOLD, (int)UF_KEEP_FREED_MAX);
	(void)mallopt(M_TRIM_THRESHOLD, (int)(2 * UF_KEEP_FREED_MAX));
	uf_heap_thp();
}

/* The heap of a small render (input under 1 MiB), faulted in at once:
 * malloc is told to keep freed blocks and to serve blocks up to
 * UF_KEEP_FREED_MAX from the heap, the heap is grown by `bytes` once and
 * that range is populated writable in one call (MADV_POPULATE_WRITE),
 * then given back to malloc.  In the Firecracker VM of 2026-11-29 a
 * first touch of a page costs ~10 us when it faults and ~4.5 us once
 * populated (populating ~0.8 us a page): the 646 KB capture's render went
 * from 170 to 72 page faults (67 are the start-up's), median 5.79 ->
 * 5.28 ms over 201 spawns.  The caller passes 3/4 of the input's size
 * (past that the faults no longer fell); peak RSS +0.3 MiB (2.7 -> 3.0,
 * inferno 3.5).  A hint: kernels before 5.14 refuse the populate and
 * nothing else changes. */
static inline void uf_heap_prefault(size_t bytes)
{
#ifdef MADV_POPULATE_WRITE
	const uintptr_t page = 4096;
	(void)mallopt(M_MMAP_THRESHOLD, (int)UF_KEEP_FREED_MAX);
	(void)mallopt(M_TRIM_THRESHOLD, (int)(2 * UF_KEEP_FREED_MAX));
	void *probe = malloc(1); /* the heap's top so far: populate from here */
	void *grow = malloc(bytes);
	uintptr_t from = (uintptr_t)probe & ~(page - 1), to = (uintptr_t)sbrk(0) & ~(page - 1);
	if (probe && grow && to > from)
		(void)madvise((void *)from, to - from, MADV_POPULATE_WRITE);
	free(grow);
	free(probe);
#else
	(void)bytes;
#endif
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
