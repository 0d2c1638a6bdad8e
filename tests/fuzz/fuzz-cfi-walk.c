/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * tests/fuzz/fuzz-cfi-walk.c — the CFI unwinder (unwind/walk.c) over
 * hostile rules and hostile memory: the table is made from the input as
 * well as the stack, through the replay target (sampler/replay.c).
 *
 * Input: byte 0: mode (auto, cfi, fp), architecture, depth cap, and
 * whether the stack ends at 2^64 (every CFA and record sum there wraps
 * unless checked); bytes 1..32: pc, sp, fp, lr; byte 33: number of rows
 * N; N rows of 8 bytes (start delta, CFA kind and offset, RA and FP rules
 * and offsets), made into a valid table (sorted, non-overlapping) for
 * code at 0x400000; the rest is the stack image (sp and fp mostly inside
 * it, pc in the table's code).  Oracles: the walker's caps (reads,
 * frames), CPU time per walk, no read while the target runs, and below
 * 2^64 no more caller frames than bytes left above sp (each step raises
 * sp, none may wrap).
 */
#include "tests/fuzz/walk-oracle.h"

#include "sampler/replay.h"
#include "unwind/unwind.h"

#define CODE 0x400000ull
#define STACK 0x7ffd00000000ull

static struct unwind_table *table_from(const uint8_t *p, size_t nrows, enum uf_arch arch)
{
	struct unwind_table *t = calloc(1, sizeof *t);
	struct unwind_row *rows = calloc(nrows + 1, sizeof *rows);
	if (!t || !rows)
		abort();
	uint32_t at = 0;
	for (size_t i = 0; i < nrows; i++, p += 8) {
		int16_t cfa_off, ra8 = (int8_t)p[5], fp8 = (int8_t)p[6];
		memcpy(&cfa_off, p + 3, 2);
		rows[i] = (struct unwind_row){ .start = at, .cfa = p[2] & 3,
					       .cfa_off = cfa_off, .ra = (p[7] & 3),
					       .ra_off = (int16_t)(ra8 * 8), .fp = (p[7] >> 2) & 3,
					       .fp_off = (int16_t)(fp8 * 8) };
		at += 1 + (p[0] | p[1] << 8);
	}
	*t = (struct unwind_table){ .base = CODE, .end = CODE + at, .rows = rows,
				    .nrows = (uint32_t)nrows, .arch = arch };
	return t;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 34)
		return 0;
	size_t nrows = data[33] % 64;
	if (size < 34 + 8 * nrows)
		return 0;
	uint64_t reg[4];
	memcpy(reg, data + 1, sizeof reg);
	enum uf_arch arch = data[0] & 4 ? UF_ARCH_AARCH64 : UF_ARCH_X86_64;
	enum unwind_mode mode = (enum unwind_mode)(data[0] & 3) % 3;
	size_t max = 1 + ((data[0] >> 3) & 15) * 8;
	const uint8_t *img = data + 34 + 8 * nrows;
	size_t len = size - 34 - 8 * nrows;
	struct unwind_space *s = unwind_space_new();
	struct replay_target *r = replay_new();
	if (!s || !r)
		abort();
	struct unwind_table *t = table_from(data + 34, nrows, arch);
	uint64_t end = t->end;
	if (unwind_space_add_table(s, CODE, end > CODE ? end : CODE + 1, 0, t) != 0)
		abort();
	uint64_t stack = data[0] & 0x80 ? (0 - (uint64_t)len) & ~15ull : STACK;
	replay_map(r, stack, img, len);
	struct uf_regs regs = { .pc = reg[0], .sp = reg[1], .fp = reg[2], .lr = reg[3],
				.arch = arch };
	if (!(regs.sp & 1)) {   /* mostly in the image and the code */
		regs.sp = stack + regs.sp % (len + 64);
		regs.fp = stack + regs.fp % (len + 4096);
		regs.pc = CODE + regs.pc % (end - CODE + 16);
	}
	struct uf_target tg;
	replay_target_init(&tg, r);
	r->stopped = 1;
	uint64_t pcs[SAMPLER_MAX_DEPTH];
	size_t n = 0;
	struct unwind_stats st = { 0 };
	struct uf_err err = { 0 };
	uint64_t t0 = walk_cpu_ns();
	int e = unwind_walk(&tg, 1, &regs, s, mode, pcs, max, &n, &st, &err);
	uint64_t cpu = walk_cpu_ns() - t0;
	if (e < 0 || e >= UNWIND_NEND || n < 1 || n > max || st.reads > UNWIND_MAX_READS ||
	    r->violations)
		fuzz_fail("walk: end %d, %zu frames (max %zu), %llu reads", e, n, max,
			  (unsigned long long)st.reads);
	/* frame 0 may keep sp (CFA == sp), every later step raises it */
	if (fuzz_oracle() && regs.sp != 0 && n >= 2 && n - 2 > 0 - regs.sp)
		fuzz_fail("%zu frames with %llu bytes above sp: a sum wrapped past 2^64", n,
			  (unsigned long long)(0 - regs.sp));
	if (fuzz_oracle() && cpu > WALK_MAX_CPU_NS)
		fuzz_fail("walk took %llu ms of CPU", (unsigned long long)(cpu / 1000000));
	unwind_space_free(s);
	replay_free(r);
	return 0;
}
