/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * xen-if/mem.c — guest virtual memory through cached foreign mappings.
 *
 * Translation is our own x86-64 4-level walk (2 MiB and 1 GiB pages, the
 * present bit checked at every level); PV page tables hold machine frames,
 * HVM/PVH ones guest frames, and xenforeignmemory_map() takes whichever
 * kind the domain uses, so the walk is the same for both.  Mapped frames
 * stay mapped across samples (page-table pages and stack pages are hit
 * again and again); translations are cached only inside one stop window,
 * when the guest cannot change them.
 *
 * Trade-off: re-walking the tables every window costs four loads per
 * page but needs no invalidation protocol, so a guest that remaps is read
 * correctly.  A frame that fails to map is remembered for the rest of the
 * window only, so a hostile chain cannot make us retry it in a loop.
 *
 * The frame cache is an open-addressed table that starts at FRAMES_MIN
 * slots and doubles while it is at most half full, up to XEN_FRAME_SLOTS:
 * a short session (or one fuzz input) does not set up 256 KiB of slots.
 *
 * Invariants:
 *  1. A walk visits at most 4 tables and never follows a non-present entry.
 *  2. Virtual addresses must be canonical; frames must fit in 40 bits.
 *  3. At most XEN_FRAME_CACHE mappings are live (see xen-priv.h).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "xen-if/xen-priv.h"

#define PAGE_SHIFT 12
#define PAGE_SIZE (1ULL << PAGE_SHIFT)
#define PTE_PRESENT 0x1ULL
#define PTE_PS 0x80ULL
#define PTE_ADDR 0x000ffffffffff000ULL
#define FRAME_MAX (1ULL << 40)
#define FRAMES_MIN 64  /* first size of the frame table (a power of 2) */

static const uint8_t *frame_map(struct xen_state *s, uint64_t frame);
static const uint8_t *translate(struct xen_state *s, const struct xen_vcpu *v, uint64_t va);
static const uint8_t *walk4(struct xen_state *s, uint64_t root, uint64_t va);
static void frames_flush(struct xen_state *s);
static int frames_grow(struct xen_state *s);
static uint32_t frame_slot(uint64_t frame, uint32_t nslots);

int xen_mem_init(struct xen_state *s)
{
	s->nslots = FRAMES_MIN;
	s->nframes = 0;
	s->frames = calloc(s->nslots, sizeof *s->frames);
	return s->frames ? 0 : -ENOMEM;
}

void xen_mem_release(struct xen_state *s)
{
	if (!s->frames)
		return;
	frames_flush(s);
	free(s->frames);
	s->frames = NULL;
}

/* A new stop window: translations of the last one may be stale now. */
void xen_mem_new_window(struct xen_state *s)
{
	memset(s->tlb, 0, sizeof s->tlb);
}

ssize_t xen_mem_read(struct xen_state *s, const struct xen_vcpu *v, uint64_t addr, void *buf,
		     size_t len)
{
	size_t done = 0;

	if (len > XEN_READ_MAX)
		len = XEN_READ_MAX;
	while (done < len) {
		uint64_t va = addr + done;
		size_t off = va & (PAGE_SIZE - 1);
		size_t n = PAGE_SIZE - off;
		if (n > len - done)
			n = len - done;
		if (va < addr)  /* wrapped around the address space */
			break;
		const uint8_t *page = translate(s, v, va);
		if (!page)
			break;
		memcpy((uint8_t *)buf + done, page + off, n);
		done += n;
	}
	return (ssize_t)done;
}

/* va -> host address of its page, through the window's small TLB. */
static const uint8_t *translate(struct xen_state *s, const struct xen_vcpu *v, uint64_t va)
{
	uint64_t vpage = va >> PAGE_SHIFT;
	struct xen_tlb_slot *e = &s->tlb[vpage % XEN_TLB_SLOTS];
	const uint8_t *page;
	/* keyed by address space, not by root alone: a vCPU with paging off
	 * translates 1:1 whatever its cr3 still holds */
	uint64_t space = v->paging == XEN_PG_4LEVEL ? v->root : XEN_SPACE_PHYS;

	if (e->tag == (vpage << 1 | 1) && e->space == space && e->page)
		return e->page;
	switch (v->paging) {
	case XEN_PG_NONE:  /* HVM with paging off: virtual == guest physical */
		page = frame_map(s, vpage);
		break;
	case XEN_PG_4LEVEL:
		page = walk4(s, v->root, va);
		break;
	default:
		return NULL;
	}
	if (page) {
		e->tag = vpage << 1 | 1;
		e->space = space;
		e->page = page;
	}
	return page;
}

/* The 4-level walk (invariant 1); `root` is the frame of the PML4. */
static const uint8_t *walk4(struct xen_state *s, uint64_t root, uint64_t va)
{
	uint64_t frame = root;
	int64_t sva = (int64_t)(va << 16) >> 16;

	if ((uint64_t)sva != va)  /* non-canonical: never mapped */
		return NULL;
	for (int level = 4; level >= 1; level--) {
		const uint8_t *table = frame_map(s, frame);
		if (!table)
			return NULL;
		unsigned shift = PAGE_SHIFT + 9 * (level - 1);
		uint64_t pte;
		memcpy(&pte, table + ((va >> shift) & 511) * 8, sizeof pte);
		if (!(pte & PTE_PRESENT))
			return NULL;
		frame = (pte & PTE_ADDR) >> PAGE_SHIFT;
		if ((level == 3 || level == 2) && (pte & PTE_PS)) {
			/* 1 GiB / 2 MiB page: bits below the page size are
			 * the offset (bit 12 of such an entry is PAT). */
			uint64_t span = 1ULL << (shift - PAGE_SHIFT);
			frame = (frame & ~(span - 1)) + ((va >> PAGE_SHIFT) & (span - 1));
			return frame_map(s, frame);
		}
	}
	return frame_map(s, frame);
}

/* Frame -> host page, mapping it on a miss (invariants 2 and 3). */
static const uint8_t *frame_map(struct xen_state *s, uint64_t frame)
{
	if (frame >= FRAME_MAX)
		return NULL;
	uint32_t h = frame_slot(frame, s->nslots);
	for (uint32_t i = 0; i < s->nslots; i++) {
		struct xen_frame_slot *e = &s->frames[(h + i) % s->nslots];
		if (!e->used)
			break;
		if (e->frame != frame)
			continue;
		if (e->page || e->epoch == s->epoch)
			return e->page;
		break;  /* failed in an earlier window: try again below */
	}
	if (s->nframes >= XEN_FRAME_CACHE)
		frames_flush(s);
	else if ((s->nframes + 1) * 2 > s->nslots && frames_grow(s) != 0)
		frames_flush(s);  /* no memory to grow: start empty rather than fill up */
	h = frame_slot(frame, s->nslots);
	xen_pfn_t pfn = frame;
	int merr = 0;
	void *p = xenforeignmemory_map(s->fmem, s->domid, PROT_READ, 1, &pfn, &merr);
	s->t->n_maps++;
	if (p && merr) {
		xenforeignmemory_unmap(s->fmem, p, 1);
		p = NULL;
	}
	for (uint32_t i = 0; i < s->nslots; i++) {
		struct xen_frame_slot *e = &s->frames[(h + i) % s->nslots];
		if (e->used && e->frame != frame)
			continue;
		if (!e->used)
			s->nframes++;
		*e = (struct xen_frame_slot){ .frame = frame, .page = p, .epoch = s->epoch, .used = true };
		break;
	}
	return p;
}

static uint32_t frame_slot(uint64_t frame, uint32_t nslots)
{
	return (uint32_t)((frame * 0x9E3779B97F4A7C15ULL) >> 32) % nslots;
}

/* Doubles the frame table (up to XEN_FRAME_SLOTS); mappings stay. */
static int frames_grow(struct xen_state *s)
{
	uint32_t n = s->nslots * 2;
	if (n > XEN_FRAME_SLOTS)
		return 0;   /* full size: XEN_FRAME_CACHE keeps it half empty */
	struct xen_frame_slot *f = calloc(n, sizeof *f);
	if (!f)
		return -ENOMEM;
	for (uint32_t i = 0; i < s->nslots; i++) {
		if (!s->frames[i].used)
			continue;
		uint32_t j = frame_slot(s->frames[i].frame, n);
		while (f[j].used)
			j = (j + 1) % n;
		f[j] = s->frames[i];
	}
	free(s->frames);
	s->frames = f;
	s->nslots = n;
	return 0;
}

static void frames_flush(struct xen_state *s)
{
	for (uint32_t i = 0; i < s->nslots; i++)
		if (s->frames[i].used && s->frames[i].page)
			xenforeignmemory_unmap(s->fmem, s->frames[i].page, 1);
	memset(s->frames, 0, s->nslots * sizeof *s->frames);
	s->nframes = 0;
	memset(s->tlb, 0, sizeof s->tlb);
}
