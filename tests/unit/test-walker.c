/*
 * tests/unit/test-walker.c — the frame-pointer walker on hand-made memory
 * images served by the replay target: good chains, loops, huge depth,
 * misaligned, wild and unmapped frame pointers, the top of memory, and
 * random garbage.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "sampler/replay.h"
#include "sampler/sampler.h"

#define STACK 0x7ffff0000000ull

struct fx {
	struct replay_target *r;
	struct uf_target t;
	uint64_t pcs[SAMPLER_MAX_DEPTH];
	size_t n;
	struct sampler_walk_stats st;
};

static struct fx *fx_new(void)
{
	struct fx *f = calloc(1, sizeof *f);
	f->r = replay_new();
	replay_target_init(&f->t, f->r);
	f->r->stopped = 1; /* the walker runs while stopped */
	return f;
}

static void fx_free(struct fx *f)
{
	assert_int_equal(f->r->violations, 0);
	replay_free(f->r);
	free(f);
}

/* Writes a frame record {next, ret} at word index i of `mem`. */
static void rec(uint64_t *mem, size_t i, uint64_t next, uint64_t ret)
{
	mem[i] = next;
	mem[i + 1] = ret;
}

static int walk(struct fx *f, uint64_t pc, uint64_t sp, uint64_t fp, size_t max)
{
	struct uf_regs regs = { .pc = pc, .sp = sp, .fp = fp, .arch = UF_ARCH_X86_64 };
	struct uf_err err = { 0 };
	return sampler_walk(&f->t, 1, &regs, f->pcs, max, &f->n, &f->st, &err);
}

static void walker_follows_chain(void **state)
{
	struct fx *f = fx_new();
	uint64_t mem[64] = { 0 };
	rec(mem, 4, STACK + 16 * 8, 0x401111);  /* frame at +32 */
	rec(mem, 16, STACK + 30 * 8, 0x402222);
	rec(mem, 30, 0, 0x403333);
	replay_map(f->r, STACK, mem, sizeof mem);
	assert_int_equal(walk(f, 0x400000, STACK, STACK + 32, 512), SAMPLER_WALK_COMPLETE);
	assert_int_equal(f->n, 4);
	assert_true(f->pcs[0] == 0x400000 && f->pcs[1] == 0x401111);
	assert_true(f->pcs[2] == 0x402222 && f->pcs[3] == 0x403333);
	assert_int_equal(f->st.reads, 1); /* one window for the whole stack */
	fx_free(f);
}

static void walker_zero_return_ends(void **state)
{
	struct fx *f = fx_new();
	uint64_t mem[8] = { 0 };
	rec(mem, 0, STACK + 32, 0);
	replay_map(f->r, STACK, mem, sizeof mem);
	assert_int_equal(walk(f, 0x1234, STACK, STACK, 512), SAMPLER_WALK_COMPLETE);
	assert_int_equal(f->n, 1);
	fx_free(f);
}

static void walker_rejects_self_loop(void **state)
{
	struct fx *f = fx_new();
	uint64_t mem[8] = { 0 };
	rec(mem, 2, STACK + 16, 0x401000); /* points to itself */
	replay_map(f->r, STACK, mem, sizeof mem);
	assert_int_equal(walk(f, 0x400000, STACK, STACK + 16, 512), SAMPLER_WALK_BAD_FP);
	assert_int_equal(f->n, 2);
	fx_free(f);
}

static void walker_rejects_backward_loop(void **state)
{
	struct fx *f = fx_new();
	uint64_t mem[16] = { 0 };
	rec(mem, 0, STACK + 64, 0x401000);
	rec(mem, 8, STACK, 0x402000); /* back to the first record */
	replay_map(f->r, STACK, mem, sizeof mem);
	assert_int_equal(walk(f, 0x400000, STACK, STACK, 512), SAMPLER_WALK_BAD_FP);
	assert_int_equal(f->n, 3);
	fx_free(f);
}

static void walker_rejects_overlapping_record(void **state)
{
	struct fx *f = fx_new();
	uint64_t mem[16] = { 0 };
	rec(mem, 0, STACK + 8, 0x401000); /* next record overlaps this one */
	replay_map(f->r, STACK, mem, sizeof mem);
	assert_int_equal(walk(f, 0x400000, STACK, STACK, 512), SAMPLER_WALK_BAD_FP);
	assert_int_equal(f->n, 2);
	fx_free(f);
}

static void walker_caps_huge_depth(void **state)
{
	struct fx *f = fx_new();
	size_t words = 2 * 100000;
	uint64_t *mem = calloc(words, 8);
	for (size_t i = 0; i + 2 < words; i += 2)
		rec(mem, i, STACK + (i + 2) * 8, 0x400000 + i);
	replay_map(f->r, STACK, mem, words * 8);
	free(mem);
	assert_int_equal(walk(f, 0x1, STACK, STACK, 512), SAMPLER_WALK_DEPTH);
	assert_int_equal(f->n, 512);
	assert_true(f->st.reads <= 4); /* 511 records of 16 bytes: 8 KiB */
	assert_int_equal(walk(f, 0x1, STACK, STACK, SAMPLER_MAX_DEPTH), SAMPLER_WALK_DEPTH);
	assert_int_equal(f->n, SAMPLER_MAX_DEPTH);
	fx_free(f);
}

static void walker_bounds_reads(void **state)
{
	struct fx *f = fx_new();
	/* one record per page: every read covers two frames at most */
	size_t pages = 2 * SAMPLER_MAX_READS + 100, words = pages * 512;
	uint64_t *mem = calloc(words, 8);
	for (size_t p = 0; p + 1 < pages; p++)
		rec(mem, p * 512, STACK + (p + 1) * 4096, 0x500000 + p);
	replay_map(f->r, STACK, mem, words * 8);
	free(mem);
	int end = walk(f, 0x1, STACK, STACK, SAMPLER_MAX_DEPTH);
	assert_int_equal(end, SAMPLER_WALK_UNREADABLE);
	assert_true(f->st.reads <= SAMPLER_MAX_READS);
	assert_true(f->n >= SAMPLER_MAX_READS / 2);
	fx_free(f);
}

static void walker_rejects_misaligned(void **state)
{
	struct fx *f = fx_new();
	uint64_t mem[8] = { 0 };
	replay_map(f->r, STACK, mem, sizeof mem);
	assert_int_equal(walk(f, 0x400000, STACK, STACK + 3, 512), SAMPLER_WALK_BAD_FP);
	assert_int_equal(f->n, 1);
	assert_int_equal(f->pcs[0], 0x400000);
	assert_int_equal(f->st.reads, 0);
	fx_free(f);
}

static void walker_rejects_below_sp_and_wild(void **state)
{
	struct fx *f = fx_new();
	uint64_t mem[8] = { 0 };
	replay_map(f->r, STACK, mem, sizeof mem);
	assert_int_equal(walk(f, 1, STACK, STACK - 16, 512), SAMPLER_WALK_BAD_FP);
	assert_int_equal(walk(f, 1, STACK, 0xdeadbeef0000ull, 512), SAMPLER_WALK_BAD_FP);
	assert_int_equal(walk(f, 1, STACK, STACK + SAMPLER_MAX_WINDOW, 512), SAMPLER_WALK_BAD_FP);
	assert_int_equal(f->st.reads, 0);
	fx_free(f);
}

static void walker_stops_at_unmapped(void **state)
{
	struct fx *f = fx_new();
	uint64_t mem[4] = { 0 };
	rec(mem, 0, STACK + 1024 * 1024, 0x401000); /* next frame: unmapped, in window */
	rec(mem, 2, 0, 0);
	replay_map(f->r, STACK, mem, sizeof mem);
	assert_int_equal(walk(f, 1, STACK, STACK, 512), SAMPLER_WALK_UNREADABLE);
	assert_int_equal(f->n, 2);
	/* a record cut by the end of the mapping */
	assert_int_equal(walk(f, 1, STACK, STACK + 24, 512), SAMPLER_WALK_UNREADABLE);
	assert_int_equal(f->n, 1);
	/* nothing mapped at all */
	assert_int_equal(walk(f, 1, STACK + 4096, STACK + 4096, 512), SAMPLER_WALK_UNREADABLE);
	fx_free(f);
}

static void walker_top_of_memory(void **state)
{
	struct fx *f = fx_new();
	uint64_t top = 0xfffffffffffff000ull, mem[512];
	for (size_t i = 0; i < 512; i += 2)
		rec(mem, i, top + (i + 2) * 8, 0x401000);
	mem[510] = top + 4088; /* a record that would end past 2^64 */
	replay_map(f->r, top, mem, sizeof mem);
	assert_int_equal(walk(f, 1, top, top, 512), SAMPLER_WALK_UNREADABLE);
	assert_int_equal(f->n, 257);
	fx_free(f);
}

static void walker_strips_aarch64_pac(void **state)
{
	struct fx *f = fx_new();
	uint64_t mem[4] = { 0 };
	rec(mem, 0, 0, 0x002a000000401234ull);
	replay_map(f->r, STACK, mem, sizeof mem);
	struct uf_regs regs = { .pc = 0x400000, .sp = STACK, .fp = STACK, .arch = UF_ARCH_AARCH64 };
	struct uf_err err = { 0 };
	assert_int_equal(sampler_walk(&f->t, 1, &regs, f->pcs, 8, &f->n, NULL, &err),
			 SAMPLER_WALK_COMPLETE);
	assert_int_equal(f->n, 2);
	assert_int_equal(f->pcs[1], 0x401234);
	fx_free(f);
}

static void walker_survives_garbage(void **state)
{
	struct fx *f = fx_new();
	uint64_t *mem = malloc(64 * 1024);
	srand(1234);
	for (int round = 0; round < 200; round++) {
		for (size_t i = 0; i < 8192; i++) {
			uint64_t v = ((uint64_t)rand() << 33) ^ ((uint64_t)rand() << 2) ^ (uint64_t)rand();
			/* half the words point back into the image */
			mem[i] = (rand() & 1) ? STACK + (v % (64 * 1024)) : v;
		}
		replay_free(f->r);
		f->r = replay_new();
		replay_target_init(&f->t, f->r);
		f->r->stopped = 1;
		replay_map(f->r, STACK, mem, 64 * 1024);
		int end = walk(f, 1, STACK, STACK + (uint64_t)(rand() % 4096) * 8, 64);
		assert_true(end >= 0 && end < SAMPLER_WALK_NEND);
		assert_true(f->n >= 1 && f->n <= 64);
	}
	free(mem);
	fx_free(f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(walker_follows_chain),
		cmocka_unit_test(walker_zero_return_ends),
		cmocka_unit_test(walker_rejects_self_loop),
		cmocka_unit_test(walker_rejects_backward_loop),
		cmocka_unit_test(walker_rejects_overlapping_record),
		cmocka_unit_test(walker_caps_huge_depth),
		cmocka_unit_test(walker_bounds_reads),
		cmocka_unit_test(walker_rejects_misaligned),
		cmocka_unit_test(walker_rejects_below_sp_and_wild),
		cmocka_unit_test(walker_stops_at_unmapped),
		cmocka_unit_test(walker_top_of_memory),
		cmocka_unit_test(walker_strips_aarch64_pac),
		cmocka_unit_test(walker_survives_garbage),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
