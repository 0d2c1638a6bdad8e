/*
 * tests/record/fuzz-walker.c — libFuzzer harness for the stack walker,
 * frame pointers and CFI (built and run by t-fuzz-walker.sh).
 *
 * Input: byte 0 selects the architecture and the depth cap, bytes 1..24
 * are pc, sp and fp (sp and fp taken modulo a window around the image so
 * that many inputs walk real memory), the rest is a memory image mapped
 * at BASE, split in two regions with a hole between them when byte 0 says
 * so.  When the image is long enough, its first 256 bytes also become 16
 * CFI rows (any rule, offset and register, sums near 2^64 included) of a
 * table covering every address, walked in mode auto or cfi.
 * Asserts the walker's contract: it returns, writes 1..max frames,
 * reports a valid end, stays within UNWIND_MAX_READS, and never reads
 * while the target is running.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "sampler/replay.h"
#include "sampler/sampler.h"
#include "unwind/unwind.h"

#define BASE 0x7fff00000000ull

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* 16 rows from 256 bytes of input, each row covering 16 bytes of code
 * from address `base`. */
static struct unwind_space *fuzz_space(const uint8_t *img, uint64_t base)
{
	struct unwind_space *s = unwind_space_new();
	struct unwind_table *t = calloc(1, sizeof *t);
	if (t)
		t->rows = calloc(17, sizeof *t->rows);
	if (!s || !t || !t->rows) {
		if (t)
			free(t->rows);
		free(t);
		unwind_space_free(s);
		return NULL;
	}
	for (uint32_t i = 0; i < 16; i++) {
		struct unwind_row *r = &t->rows[i];
		memcpy(r, img + 16 * i, sizeof *r);
		r->start = i * 16;
		r->cfa %= 4;
		r->ra %= 4;
		r->fp %= 4;
	}
	t->rows[16] = (struct unwind_row){ .start = 256, .cfa = UNWIND_CFA_NONE };
	t->nrows = 17;
	t->base = base;
	t->end = base + 256;
	t->arch = img[0] & 1 ? UF_ARCH_AARCH64 : UF_ARCH_X86_64;
	if (unwind_space_add_table(s, base & ~0xfffull, (base & ~0xfffull) + 0x10000, 0, t) < 0) {
		unwind_space_free(s);
		return NULL;
	}
	return s;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 25)
		return 0;
	uint64_t pc, sp, fp;
	memcpy(&pc, data + 1, 8);
	memcpy(&sp, data + 9, 8);
	memcpy(&fp, data + 17, 8);
	const uint8_t *img = data + 25;
	size_t len = size - 25, max = 1 + (data[0] & 0x3f) * 8;
	struct replay_target *r = replay_new();
	if (!r)
		return 0;
	if (data[0] & 0x40 && len > 64) { /* two regions with a page-sized hole */
		replay_map(r, BASE, img, len / 2);
		replay_map(r, BASE + len / 2 + 4096, img + len / 2, len - len / 2);
	} else {
		replay_map(r, BASE, img, len);
	}
	if (!(sp & 1)) { /* usually point into the image */
		sp = BASE + sp % (len + 64);
		fp = BASE + fp % (len + 8192);
	}
	struct uf_target t;
	replay_target_init(&t, r);
	r->stopped = 1;
	struct uf_regs regs = { .pc = pc, .sp = sp, .fp = fp,
				.arch = data[0] & 0x80 ? UF_ARCH_AARCH64 : UF_ARCH_X86_64 };
	uint64_t pcs[SAMPLER_MAX_DEPTH];
	size_t n = 0;
	struct unwind_stats st = { 0 };
	struct uf_err err = { 0 };
	struct unwind_space *space = len >= 256 ? fuzz_space(img, pc & ~0xffull) : NULL;
	enum unwind_mode mode = !space ? UNWIND_FP : (img[1] & 1) ? UNWIND_CFI : UNWIND_AUTO;
	regs.lr = sp ^ fp;
	int end = unwind_walk(&t, 1, &regs, space, mode, pcs, max, &n, &st, &err);
	unwind_space_free(space);
	if (end < 0 || end >= UNWIND_NEND || n < 1 || n > max ||
	    st.reads > UNWIND_MAX_READS || r->violations)
		abort();
	struct sampler s;
	sampler_init(&s, 1);
	if (sampler_record(&s, 7, 0, pcs, n) == 0 && sampler_stackset_check(&s.set))
		abort();
	sampler_release(&s);
	replay_free(r);
	return 0;
}
