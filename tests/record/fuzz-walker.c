/*
 * tests/record/fuzz-walker.c — libFuzzer harness for the frame-pointer
 * walker (built and run by t-fuzz-walker.sh).
 *
 * Input: byte 0 selects the architecture and the depth cap, bytes 1..24
 * are pc, sp and fp (sp and fp taken modulo a window around the image so
 * that many inputs walk real memory), the rest is a memory image mapped
 * at BASE, split in two regions with a hole between them when byte 0 says
 * so.  Asserts the walker's contract: it returns, writes 1..max frames,
 * reports a valid end, stays within SAMPLER_MAX_READS, and never reads
 * while the target is running.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "sampler/replay.h"
#include "sampler/sampler.h"

#define BASE 0x7fff00000000ull

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

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
	struct sampler_walk_stats st = { 0 };
	struct uf_err err = { 0 };
	int end = sampler_walk(&t, 1, &regs, pcs, max, &n, &st, &err);
	if (end < 0 || end >= SAMPLER_WALK_NEND || n < 1 || n > max ||
	    st.reads > SAMPLER_MAX_READS || r->violations)
		abort();
	struct sampler s;
	sampler_init(&s, 1);
	if (sampler_record(&s, 7, 0, pcs, n) == 0 && sampler_stackset_check(&s.set))
		abort();
	sampler_release(&s);
	replay_free(r);
	return 0;
}
