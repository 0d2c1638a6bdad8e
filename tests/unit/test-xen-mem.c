/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * tests/unit/test-xen-mem.c — xen-if's page-table walk and foreign-mapping
 * cache (xen-if/mem.c) against a fake guest, no Xen needed.
 *
 * The test double: xenforeignmemory_map/unmap are defined here, so the
 * executable's definitions win over libxenforeignmemory's; "guest memory"
 * is an array of NFRAMES frames, and a frame beyond it fails to map, as a
 * frame the guest does not own does under Xen.  Built only where the Xen
 * headers exist (without them the Makefile builds xen-if/stub.c only).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>

#include <cmocka.h>

#if __has_include(<xenforeignmemory.h>)
#include "xen-if/xen-priv.h"

#define NFRAMES 64
#define P 0x1ULL   /* present */
#define W 0x2ULL
#define PS 0x80ULL

static uint8_t mem[NFRAMES][4096] __attribute__((aligned(4096)));
static unsigned live_maps;
/* With fresh_maps every mapping is a private copy of the frame that
 * unmap really unmaps, as under Xen: a pointer used after its mapping
 * was dropped (the cache emptied while a walk or copy still held it)
 * then faults or reads garbage instead of passing unnoticed. */
static int fresh_maps;

void *xenforeignmemory_map(xenforeignmemory_handle *fmem, uint32_t dom, int prot, size_t pages,
			   const xen_pfn_t arr[], int err[])
{
	err[0] = arr[0] < NFRAMES ? 0 : -EFAULT;
	if (err[0])
		return NULL;
	live_maps++;
	if (!fresh_maps)
		return mem[arr[0]];
	void *p = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	assert_true(p != MAP_FAILED);
	memcpy(p, mem[arr[0]], 4096);
	return p;
}

int xenforeignmemory_unmap(xenforeignmemory_handle *fmem, void *addr, size_t pages)
{
	live_maps--;
	if (fresh_maps) {
		memset(addr, 0xdd, 4096);   /* garbage first, in case the range is reused */
		munmap(addr, 4096);
	}
	return 0;
}

static void pte(unsigned frame, unsigned idx, uint64_t val)
{
	memcpy(&mem[frame][idx * 8], &val, 8);
}

/* PML4 = frame 1.  PML4[0] -> PDPT (2); PDPT[0] -> PD (3), PDPT[1] = a
 * 1 GiB page at frame 0; PD[0] -> PT (4), PD[1] = a 2 MiB page at frame
 * 0; PT[5] = frame 10, PT[7] = frame 1000 (beyond memory); PT[6] absent. */
static void guest(void)
{
	memset(mem, 0, sizeof mem);
	pte(1, 0, 2 << 12 | P | W);
	pte(2, 0, 3 << 12 | P | W);
	pte(2, 1, 0 | PS | P | W);
	pte(3, 0, 4 << 12 | P | W);
	pte(3, 1, 0 | PS | P | W);
	pte(4, 5, 10 << 12 | P);
	pte(4, 7, 1000ULL << 12 | P);
	memcpy(&mem[10][0x123], "four-k", 7);
	memcpy(&mem[11][0x123], "moved", 6);
	memcpy(&mem[9][8], "two-m", 6);
	memcpy(&mem[7][0], "one-g", 6);
}

struct fix {
	struct uf_target t;
	struct xen_state s;
	struct xen_vcpu v;
};

static struct fix *fix_new(void)
{
	static struct fix f;
	memset(&f, 0, sizeof f);
	guest();
	live_maps = 0;
	fresh_maps = 0;   /* also after a test that failed half-way */
	f.s.t = &f.t;
	f.s.fmem = (xenforeignmemory_handle *)&f;  /* never dereferenced by the double */
	f.s.domid = 1;
	assert_int_equal(xen_mem_init(&f.s), 0);
	f.v = (struct xen_vcpu){ .online = true, .root = 1, .paging = XEN_PG_4LEVEL };
	return &f;
}

static void window(struct fix *f)
{
	f->s.epoch++;
	xen_mem_new_window(&f->s);
}

static ssize_t rd(struct fix *f, uint64_t va, void *buf, size_t len)
{
	return xen_mem_read(&f->s, &f->v, va, buf, len);
}

static void fix_done(struct fix *f)
{
	xen_mem_release(&f->s);
	assert_int_equal(live_maps, 0);  /* every mapping undone */
}

static void xen_mem_page_sizes(void **state)
{
	struct fix *f = fix_new();
	char b[8];
	window(f);
	assert_int_equal(rd(f, 0x5123, b, 7), 7);
	assert_string_equal(b, "four-k");
	assert_int_equal(rd(f, 0x200000 + 0x9008, b, 6), 6);
	assert_string_equal(b, "two-m");
	assert_int_equal(rd(f, 0x40000000 + 0x7000, b, 6), 6);
	assert_string_equal(b, "one-g");
	fix_done(f);
}

static void xen_mem_unmapped_is_short(void **state)
{
	struct fix *f = fix_new();
	char b[16];
	window(f);
	assert_int_equal(rd(f, 0x6000, b, 8), 0);                    /* not present */
	assert_int_equal(rd(f, 0x5ff8, b, 16), 8);                   /* runs into it */
	assert_int_equal(rd(f, 0x0000800000000000ULL, b, 8), 0);     /* non-canonical */
	assert_int_equal(rd(f, 0xfffffffffffffff8ULL, b, 16), 0);    /* wraps around */
	fix_done(f);
}

static void xen_mem_maps_cached_across_windows(void **state)
{
	struct fix *f = fix_new();
	char b[8];
	window(f);
	assert_int_equal(rd(f, 0x5123, b, 7), 7);
	uint64_t maps = f->t.n_maps;
	assert_int_equal(maps, 5);  /* 4 table levels + the page */
	for (int i = 0; i < 10; i++) {
		window(f);
		assert_int_equal(rd(f, 0x5123, b, 7), 7);
	}
	assert_int_equal(f->t.n_maps, maps);
	fix_done(f);
}

static void xen_mem_guest_remaps(void **state)
{
	struct fix *f = fix_new();
	char b[8];
	window(f);
	assert_int_equal(rd(f, 0x5123, b, 7), 7);
	pte(4, 5, 11 << 12 | P);  /* the guest points the page elsewhere */
	window(f);
	assert_int_equal(rd(f, 0x5123, b, 6), 6);
	assert_string_equal(b, "moved");
	pte(4, 5, 0);             /* and unmaps it */
	window(f);
	assert_int_equal(rd(f, 0x5123, b, 6), 0);
	fix_done(f);
}

static void xen_mem_bad_frame_not_retried_in_window(void **state)
{
	struct fix *f = fix_new();
	char b[8];
	window(f);
	assert_int_equal(rd(f, 0x7000, b, 8), 0);
	uint64_t maps = f->t.n_maps;
	for (int i = 0; i < 100; i++)
		assert_int_equal(rd(f, 0x7000 + (uint64_t)i * 8 % 4096, b, 8), 0);
	assert_int_equal(f->t.n_maps, maps);
	window(f);  /* a new window may try again: the guest may have fixed it */
	assert_int_equal(rd(f, 0x7000, b, 8), 0);
	assert_int_equal(f->t.n_maps, maps + 1);
	fix_done(f);
}

static void xen_mem_hostile_tables(void **state)
{
	struct fix *f = fix_new();
	char b[8];
	pte(1, 0, 1 << 12 | P);  /* PML4[0] points to the PML4 itself */
	window(f);
	assert_true(rd(f, 0x5123, b, 8) >= 0);  /* bounded: 4 levels at most */
	pte(1, 0, 0xfff0000000000000ULL | P);   /* flag bits above the address */
	window(f);
	assert_int_equal(rd(f, 0x5123, b, 8), 0);
	fix_done(f);
}

static void xen_mem_paging_off_and_cap(void **state)
{
	struct fix *f = fix_new();
	static char big[2 * XEN_READ_MAX];
	char b[8];
	f->v.paging = XEN_PG_NONE;  /* HVM before paging: virtual == guest physical */
	window(f);
	assert_int_equal(rd(f, 10 * 4096 + 0x123, b, 7), 7);
	assert_string_equal(b, "four-k");
	assert_int_equal(rd(f, 0, big, sizeof big), XEN_READ_MAX);
	f->v.paging = XEN_PG_UNSUPPORTED;
	window(f);
	assert_int_equal(rd(f, 10 * 4096, b, 8), 0);
	fix_done(f);
}

/* Two vCPUs in one window, one with paging off whose cr3 still holds the
 * other's page-table root: their translations of one va must not mix
 * (the cache was keyed by root alone). */
static void xen_mem_paging_off_vcpu_own_space(void **state)
{
	struct fix *f = fix_new();
	struct xen_vcpu off = { .online = true, .root = 1, .paging = XEN_PG_NONE };
	char b[8];
	memcpy(&mem[5][0x123], "phys-5", 7);
	window(f);
	assert_int_equal(xen_mem_read(&f->s, &off, 0x5123, b, 7), 7);
	assert_string_equal(b, "phys-5");   /* 1:1: guest frame 5 */
	assert_int_equal(rd(f, 0x5123, b, 7), 7);
	assert_string_equal(b, "four-k");   /* through the tables: frame 10 */
	window(f);
	assert_int_equal(rd(f, 0x5123, b, 7), 7);
	assert_string_equal(b, "four-k");
	assert_int_equal(xen_mem_read(&f->s, &off, 0x5123, b, 7), 7);
	assert_string_equal(b, "phys-5");
	fix_done(f);
}

/* The mapping cache fills up (XEN_FRAME_CACHE mappings; failed frames
 * count too) and is emptied in the middle of a table walk and of a read
 * spanning two pages: every byte must still come from a live mapping.
 * With real foreign mappings a pointer kept across that flush is a
 * use-after-munmap (SIGSEGV in dom0); fresh_maps makes it one here. */
static void xen_mem_flush_mid_walk_and_read(void **state)
{
	static char b[8 + 0x130];
	for (unsigned pre = XEN_FRAME_CACHE - 8; pre < XEN_FRAME_CACHE; pre++) {
		struct fix *f = fix_new();
		struct xen_vcpu off = { .online = true, .paging = XEN_PG_NONE };
		fresh_maps = 1;
		pte(4, 4, 12 << 12 | P);                 /* va 0x4000 -> frame 12 */
		memcpy(&mem[12][4096 - 8], "lowpage", 8);
		window(f);
		/* frames beyond the guest: each fails and takes a cache slot */
		for (unsigned k = 0; k < pre; k++)
			assert_int_equal(xen_mem_read(&f->s, &off, (uint64_t)(NFRAMES + k) << 12, b, 8), 0);
		memset(b, 0, sizeof b);
		/* 7 mappings: PML4, PDPT, PD, PT, frame 12, then frame 10 (tables cached) */
		assert_int_equal(rd(f, 0x5000 - 8, b, sizeof b), sizeof b);
		assert_string_equal(b, "lowpage");
		assert_string_equal(b + 8 + 0x123, "four-k");
		fix_done(f);
		fresh_maps = 0;
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(xen_mem_flush_mid_walk_and_read),
		cmocka_unit_test(xen_mem_paging_off_vcpu_own_space),
		cmocka_unit_test(xen_mem_page_sizes),
		cmocka_unit_test(xen_mem_unmapped_is_short),
		cmocka_unit_test(xen_mem_maps_cached_across_windows),
		cmocka_unit_test(xen_mem_guest_remaps),
		cmocka_unit_test(xen_mem_bad_frame_not_retried_in_window),
		cmocka_unit_test(xen_mem_hostile_tables),
		cmocka_unit_test(xen_mem_paging_off_and_cap),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

#else
static void xen_mem_not_built(void **state)
{
	skip();
}

int main(void)
{
	const struct CMUnitTest tests[] = { cmocka_unit_test(xen_mem_not_built) };
	return cmocka_run_group_tests(tests, NULL, NULL);
}
#endif
