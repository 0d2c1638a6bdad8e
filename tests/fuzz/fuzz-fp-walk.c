/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * tests/fuzz/fuzz-fp-walk.c — the frame-pointer walker (walk-oracle.h)
 * over hostile memory through the replay target (sampler/replay.c), which
 * stands for a ptrace'd process; then the stack set that stores it.
 *
 * Input: byte 0 selects the architecture, the depth cap and the layout;
 * bytes 1..24 are pc, sp and fp (sp and fp taken modulo a window around
 * the image unless sp is odd, so that most inputs walk real memory, and
 * the image can sit just below 2^64); the rest is the memory image,
 * mapped at one of four bases (the third one ends near 2^64), in two
 * regions with a page-sized hole between them when byte 24 says so.
 * Oracles: walk-oracle.h, no read while the target runs, the stack set's
 * invariants.
 */
#include "tests/fuzz/walk-oracle.h"

#include "sampler/replay.h"

static const uint64_t bases[4] = {
	0x7fff00000000ull,          /* a user stack */
	0xffff800000100000ull,      /* a kernel / unikernel high half */
	0,                          /* the top: the image ends at 2^64 */
	0x1000ull,                  /* the bottom */
};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 25 || size > 25 + (1u << 20))
		return 0;
	uint64_t pc, sp, fp;
	memcpy(&pc, data + 1, 8);
	memcpy(&sp, data + 9, 8);
	memcpy(&fp, data + 17, 8);
	const uint8_t *img = data + 25;
	size_t len = size - 25, max = 1 + (data[0] & 0x3f) * 8;
	uint64_t base = bases[(data[0] >> 6) & 3];
	if (base == 0)
		base = (0 - (uint64_t)len - 4096) & ~15ull;   /* room for the hole */
	struct replay_target *r = replay_new();
	if (!r)
		abort();
	if (data[24] & 1 && len > 64) { /* two regions with a page-sized hole */
		replay_map(r, base, img, len / 2);
		replay_map(r, base + len / 2 + 4096, img + len / 2, len - len / 2);
	} else {
		replay_map(r, base, img, len);
	}
	if (!(sp & 1)) { /* usually point into the image */
		sp = base + sp % (len + 64);
		fp = base + fp % (len + 8192);
	}
	struct uf_target t;
	replay_target_init(&t, r);
	r->stopped = 1;
	struct uf_regs regs = { .pc = pc, .sp = sp, .fp = fp,
				.arch = data[0] & 0x80 ? UF_ARCH_AARCH64 : UF_ARCH_X86_64 };
	uint64_t pcs[SAMPLER_MAX_DEPTH], reads = 0;
	size_t n = 0;
	struct uf_err err = { 0 };
	uint64_t t0 = walk_cpu_ns();
	int end = walk_fp(&t, 1, &regs, pcs, max, &n, &reads, &err);
	walk_check(end, n, max, reads, len, walk_cpu_ns() - t0);
	if (end < 0 || r->violations)
		fuzz_fail("replay walk failed (%d) or read while running", end);
	struct sampler s;
	sampler_init(&s, 1);
	if (sampler_record(&s, 7, 0, pcs, n) == 0 && sampler_stackset_check(&s.set))
		fuzz_fail("stack set invariants broken");
	sampler_release(&s);
	replay_free(r);
	return 0;
}
