/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * tests/fuzz/fuzz-xen-walk.c — xen-if's page-table walk and mapping cache
 * (xen-if/mem.c) under the frame-pointer walker, over a hostile guest
 * whose physical memory is the fuzz input.
 *
 * The test double (as in tests/unit/test-xen-mem.c): xenforeignmemory_map
 * and _unmap are defined here, so they win over libxenforeignmemory's.
 * Guest frame F is input page F % NPAGES, except that frames with bit 20
 * set fail to map (a frame the guest does not own): small frame numbers,
 * the common case in a PTE, always map, and aliasing (many frames, one
 * page) is allowed, as a hostile guest may do.  Self-referencing and
 * looping page tables, 1 GiB and 2 MiB pages, non-present entries all
 * come from the bytes.
 *
 * Input: a 32-byte header (pc, sp, fp, root frame, paging mode, number of
 * stop windows), then the pages.  Oracles: walk-oracle.h per sample (reads,
 * frames, CPU time); at most XEN_FRAME_CACHE live mappings at any time;
 * mappings per walk bounded by reads x 3 pages x (4 tables + 1); nothing
 * left mapped after release.
 */
#include "tests/fuzz/walk-oracle.h"

#include "xen-if/xen-priv.h"

#define HDR 32
#define MAX_PAGES 64

static uint8_t pages[MAX_PAGES][4096] __attribute__((aligned(4096)));
static size_t npages;
static size_t live_maps, max_live;

void *xenforeignmemory_map(xenforeignmemory_handle *fmem, uint32_t dom, int prot, size_t n,
			   const xen_pfn_t arr[], int err[]);
int xenforeignmemory_unmap(xenforeignmemory_handle *fmem, void *addr, size_t n);

void *xenforeignmemory_map(xenforeignmemory_handle *fmem, uint32_t dom, int prot, size_t n,
			   const xen_pfn_t arr[], int err[])
{
	if (n != 1)
		fuzz_fail("mapped %zu frames at once", n);
	err[0] = (arr[0] >> 20) & 1 ? -EFAULT : 0;
	if (err[0])
		return NULL;
	if (++live_maps > max_live)
		max_live = live_maps;
	return pages[arr[0] % npages];
}

int xenforeignmemory_unmap(xenforeignmemory_handle *fmem, void *addr, size_t n)
{
	if (live_maps == 0)
		fuzz_fail("unmapped more than mapped");
	live_maps--;
	return 0;
}

static ssize_t x_read(struct uf_target *t, uint32_t id, uint64_t addr, void *buf, size_t len,
		      struct uf_err *err)
{
	struct xen_state *s = t->priv;
	return xen_mem_read(s, &s->vcpu[0], addr, buf, len);
}

static const struct uf_target_ops x_ops = { .name = "xen-fuzz", .read = x_read };

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < HDR + 8 || size > HDR + MAX_PAGES * 4096)
		return 0;
	uint64_t h[4];
	memcpy(h, data, sizeof h);
	npages = (size - HDR + 4095) / 4096;
	memset(pages, 0, npages * 4096);
	memcpy(pages, data + HDR, size - HDR);
	static struct xen_state s;
	static struct xen_vcpu v;
	struct uf_target t = { .ops = &x_ops, .priv = &s };
	memset(&s, 0, sizeof s);
	s.t = &t;
	s.fmem = (xenforeignmemory_handle *)&s;   /* never dereferenced by the double */
	s.vcpu = &v;
	s.nvcpu_slots = 1;
	live_maps = max_live = 0;
	if (xen_mem_init(&s) != 0)
		abort();
	uint8_t mode = (uint8_t)(h[3] >> 32);
	v = (struct xen_vcpu){ .online = true, .root = (uint32_t)h[3],
			       .paging = mode % 4 == 3 ? XEN_PG_NONE
						       : mode % 4 == 2 ? XEN_PG_UNSUPPORTED
								       : XEN_PG_4LEVEL };
	struct uf_regs regs = { .pc = h[0], .sp = h[1], .fp = h[2], .arch = UF_ARCH_X86_64 };
	size_t max = 1 + (size_t)((h[3] >> 40) & 0x3f) * 16, windows = 1 + ((h[3] >> 48) & 3);
	for (size_t w = 0; w < windows; w++) {
		s.epoch++;
		xen_mem_new_window(&s);
		uint64_t pcs[SAMPLER_MAX_DEPTH], maps0 = t.n_maps, t0 = walk_cpu_ns(), reads = 0;
		size_t n = 0;
		struct uf_err err = { 0 };
		int end = walk_fp(&t, 0, &regs, pcs, max, &n, &reads, &err);
		walk_check(end, n, max, reads, SIZE_MAX, walk_cpu_ns() - t0);
		if (t.n_maps - maps0 > reads * 3 * 5)
			fuzz_fail("%llu mappings for %llu reads",
				  (unsigned long long)(t.n_maps - maps0), (unsigned long long)reads);
		regs.sp += 8 * w;   /* the next window: the guest moved a little */
	}
	if (max_live > XEN_FRAME_CACHE)
		fuzz_fail("%zu live mappings", max_live);
	xen_mem_release(&s);
	if (live_maps != 0)
		fuzz_fail("%zu mappings left after release", live_maps);
	return 0;
}
