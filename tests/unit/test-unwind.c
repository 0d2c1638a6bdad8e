/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * tests/unit/test-unwind.c — the unwind module: the frame-pointer walk on
 * hand-made memory images served by the replay target (good chains,
 * loops, huge depth, misaligned, wild and unmapped frame pointers, the top
 * of memory, random garbage); the CFI walk on hand-made tables for x86-64
 * and AArch64 (frameless leaves, FP fallback per frame, outermost frames,
 * non-increasing and wrapping CFAs); and tables compiled from real ELF
 * files (this test program through /proc/self/maps, x86-64 and AArch64
 * programs compiled here, .eh_frame and .debug_frame-only builds, AArch64
 * return-address-in-register rules written by hand in assembly, a
 * hand-written x86-64 .debug_frame: CIE augmentation order, a truncated
 * operand); every row of real libraries against libdw's answer at that
 * address (unwind/cfa.c runs each FDE once; libdw is the oracle), and a
 * 100,000-row FDE compiled in bounded time (issue 28 item 6).
 */
#include <dwarf.h>
#include <elfutils/libdw.h>
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <sys/inotify.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <cmocka.h>

#include "sampler/replay.h"
#include "sampler/sampler.h"
#include "unwind/unwind.h"

#define STACK 0x7ffff0000000ull

struct fx {
	struct replay_target *r;
	struct uf_target t;
	uint64_t pcs[SAMPLER_MAX_DEPTH];
	size_t n;
	struct unwind_stats st;
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
	return unwind_walk(&f->t, 1, &regs, NULL, UNWIND_FP, f->pcs, max, &f->n, &f->st, &err);
}

static void unwind_fp_follows_chain(void **state)
{
	struct fx *f = fx_new();
	uint64_t mem[64] = { 0 };
	rec(mem, 4, STACK + 16 * 8, 0x401111);  /* frame at +32 */
	rec(mem, 16, STACK + 30 * 8, 0x402222);
	rec(mem, 30, 0, 0x403333);
	replay_map(f->r, STACK, mem, sizeof mem);
	assert_int_equal(walk(f, 0x400000, STACK, STACK + 32, 512), UNWIND_COMPLETE);
	assert_int_equal(f->n, 4);
	assert_true(f->pcs[0] == 0x400000 && f->pcs[1] == 0x401111);
	assert_true(f->pcs[2] == 0x402222 && f->pcs[3] == 0x403333);
	assert_int_equal(f->st.reads, 1); /* one window for the whole stack */
	fx_free(f);
}

static void unwind_fp_zero_return_ends(void **state)
{
	struct fx *f = fx_new();
	uint64_t mem[8] = { 0 };
	rec(mem, 0, STACK + 32, 0);
	replay_map(f->r, STACK, mem, sizeof mem);
	assert_int_equal(walk(f, 0x1234, STACK, STACK, 512), UNWIND_COMPLETE);
	assert_int_equal(f->n, 1);
	fx_free(f);
}

static void unwind_fp_rejects_self_loop(void **state)
{
	struct fx *f = fx_new();
	uint64_t mem[8] = { 0 };
	rec(mem, 2, STACK + 16, 0x401000); /* points to itself */
	replay_map(f->r, STACK, mem, sizeof mem);
	assert_int_equal(walk(f, 0x400000, STACK, STACK + 16, 512), UNWIND_BAD_FRAME);
	assert_int_equal(f->n, 2);
	fx_free(f);
}

static void unwind_fp_rejects_backward_loop(void **state)
{
	struct fx *f = fx_new();
	uint64_t mem[16] = { 0 };
	rec(mem, 0, STACK + 64, 0x401000);
	rec(mem, 8, STACK, 0x402000); /* back to the first record */
	replay_map(f->r, STACK, mem, sizeof mem);
	assert_int_equal(walk(f, 0x400000, STACK, STACK, 512), UNWIND_BAD_FRAME);
	assert_int_equal(f->n, 3);
	fx_free(f);
}

static void unwind_fp_rejects_overlapping_record(void **state)
{
	struct fx *f = fx_new();
	uint64_t mem[16] = { 0 };
	rec(mem, 0, STACK + 8, 0x401000); /* next record overlaps this one */
	replay_map(f->r, STACK, mem, sizeof mem);
	assert_int_equal(walk(f, 0x400000, STACK, STACK, 512), UNWIND_BAD_FRAME);
	assert_int_equal(f->n, 2);
	fx_free(f);
}

static void unwind_fp_caps_huge_depth(void **state)
{
	struct fx *f = fx_new();
	size_t words = 2 * 100000;
	uint64_t *mem = calloc(words, 8);
	for (size_t i = 0; i + 2 < words; i += 2)
		rec(mem, i, STACK + (i + 2) * 8, 0x400000 + i);
	replay_map(f->r, STACK, mem, words * 8);
	free(mem);
	assert_int_equal(walk(f, 0x1, STACK, STACK, 512), UNWIND_DEPTH);
	assert_int_equal(f->n, 512);
	assert_true(f->st.reads <= 4); /* 511 records of 16 bytes: 8 KiB */
	assert_int_equal(walk(f, 0x1, STACK, STACK, SAMPLER_MAX_DEPTH), UNWIND_DEPTH);
	assert_int_equal(f->n, SAMPLER_MAX_DEPTH);
	fx_free(f);
}

static void unwind_fp_bounds_reads(void **state)
{
	struct fx *f = fx_new();
	/* one record per page: every read covers two frames at most */
	size_t pages = 2 * UNWIND_MAX_READS + 100, words = pages * 512;
	uint64_t *mem = calloc(words, 8);
	for (size_t p = 0; p + 1 < pages; p++)
		rec(mem, p * 512, STACK + (p + 1) * 4096, 0x500000 + p);
	replay_map(f->r, STACK, mem, words * 8);
	free(mem);
	int end = walk(f, 0x1, STACK, STACK, SAMPLER_MAX_DEPTH);
	assert_int_equal(end, UNWIND_UNREADABLE);
	assert_true(f->st.reads <= UNWIND_MAX_READS);
	assert_true(f->n >= UNWIND_MAX_READS / 2);
	fx_free(f);
}

static void unwind_fp_rejects_misaligned(void **state)
{
	struct fx *f = fx_new();
	uint64_t mem[8] = { 0 };
	replay_map(f->r, STACK, mem, sizeof mem);
	assert_int_equal(walk(f, 0x400000, STACK, STACK + 3, 512), UNWIND_BAD_FRAME);
	assert_int_equal(f->n, 1);
	assert_int_equal(f->pcs[0], 0x400000);
	assert_int_equal(f->st.reads, 0);
	fx_free(f);
}

static void unwind_fp_rejects_below_sp_and_wild(void **state)
{
	struct fx *f = fx_new();
	uint64_t mem[8] = { 0 };
	replay_map(f->r, STACK, mem, sizeof mem);
	assert_int_equal(walk(f, 1, STACK, STACK - 16, 512), UNWIND_BAD_FRAME);
	assert_int_equal(walk(f, 1, STACK, 0xdeadbeef0000ull, 512), UNWIND_BAD_FRAME);
	assert_int_equal(walk(f, 1, STACK, STACK + UNWIND_MAX_WINDOW, 512), UNWIND_BAD_FRAME);
	assert_int_equal(f->st.reads, 0);
	fx_free(f);
}

static void unwind_fp_stops_at_unmapped(void **state)
{
	struct fx *f = fx_new();
	uint64_t mem[4] = { 0 };
	rec(mem, 0, STACK + 1024 * 1024, 0x401000); /* next frame: unmapped, in window */
	rec(mem, 2, 0, 0);
	replay_map(f->r, STACK, mem, sizeof mem);
	assert_int_equal(walk(f, 1, STACK, STACK, 512), UNWIND_UNREADABLE);
	assert_int_equal(f->n, 2);
	/* a record cut by the end of the mapping */
	assert_int_equal(walk(f, 1, STACK, STACK + 24, 512), UNWIND_UNREADABLE);
	assert_int_equal(f->n, 1);
	/* nothing mapped at all */
	assert_int_equal(walk(f, 1, STACK + 4096, STACK + 4096, 512), UNWIND_UNREADABLE);
	fx_free(f);
}

/* A backend read error is the walk's error, whatever its errno: -ENETDOWN
 * is -100, the value the walker once used internally for "frame found",
 * which made a failed read pass for a good one (uninitialised words
 * taken as the caller's frame pointer and return address). */
static int read_errno;
static ssize_t failing_read(struct uf_target *t, uint32_t id, uint64_t addr, void *buf,
			    size_t len, struct uf_err *err)
{
	uf_err_set(err, UF_ETARGET, "test", "read failed");
	return -read_errno;
}

static void unwind_read_errors_end_walk(void **state)
{
	static const int errs[] = { EIO, ENETDOWN, ESRCH, ENOMEM };
	for (size_t i = 0; i < sizeof errs / sizeof errs[0]; i++) {
		struct fx *f = fx_new();
		struct uf_target_ops ops = *f->t.ops;
		ops.read = failing_read;
		f->t.ops = &ops;
		read_errno = errs[i];
		memset(f->pcs, 0xa5, sizeof f->pcs);
		assert_int_equal(walk(f, 0x401000, STACK, STACK + 64, 512), -errs[i]);
		assert_int_equal(f->n, 1);   /* only the sampled pc */
		assert_int_equal(f->st.steps_fp + f->st.steps_cfi, 0);
		fx_free(f);
	}
}

static void unwind_fp_top_of_memory(void **state)
{
	struct fx *f = fx_new();
	uint64_t top = 0xfffffffffffff000ull, mem[512];
	for (size_t i = 0; i < 512; i += 2)
		rec(mem, i, top + (i + 2) * 8, 0x401000);
	mem[510] = top + 4088; /* a record that would end past 2^64 */
	replay_map(f->r, top, mem, sizeof mem);
	/* the record at 2^64 - 16 would make sp = fp + 16 wrap to 0: rejected */
	assert_int_equal(walk(f, 1, top, top, 512), UNWIND_BAD_FRAME);
	assert_int_equal(f->n, 256);
	fx_free(f);
}

static void unwind_fp_strips_aarch64_pac(void **state)
{
	struct fx *f = fx_new();
	uint64_t mem[4] = { 0 };
	rec(mem, 0, 0, 0x002a000000401234ull);
	replay_map(f->r, STACK, mem, sizeof mem);
	struct uf_regs regs = { .pc = 0x400000, .sp = STACK, .fp = STACK, .arch = UF_ARCH_AARCH64 };
	struct uf_err err = { 0 };
	assert_int_equal(unwind_walk(&f->t, 1, &regs, NULL, UNWIND_FP, f->pcs, 8, &f->n, NULL, &err),
			 UNWIND_COMPLETE);
	assert_int_equal(f->n, 2);
	assert_int_equal(f->pcs[1], 0x401234);
	fx_free(f);
}

static void unwind_fp_survives_garbage(void **state)
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
		assert_true(end >= 0 && end < UNWIND_NEND);
		assert_true(f->n >= 1 && f->n <= 64);
	}
	free(mem);
	fx_free(f);
}


/* ---- CFI walks on hand-made tables ---------------------------------------- */

#define CODE 0x400000ull

/* A table at CODE whose row i covers [CODE + 0x100 i, CODE + 0x100 (i+1)). */
static struct unwind_space *space_of(const struct unwind_row *rows, size_t n, enum uf_arch arch)
{
	struct unwind_table *t = calloc(1, sizeof *t);
	t->rows = calloc(n + 1, sizeof *t->rows);
	for (size_t i = 0; i < n; i++) {
		t->rows[i] = rows[i];
		t->rows[i].start = (uint32_t)(i * 0x100);
	}
	t->rows[n] = (struct unwind_row){ .start = (uint32_t)(n * 0x100), .cfa = UNWIND_CFA_NONE };
	t->nrows = (uint32_t)n + 1;
	t->base = CODE;
	t->end = CODE + n * 0x100;
	t->arch = arch;
	assert_int_equal(unwind_table_check(t), 0);
	struct unwind_space *sp = unwind_space_new();
	assert_int_equal(unwind_space_add_table(sp, CODE, CODE + 0x10000, 0, t), 0);
	return sp;
}

static int cfi_walk(struct fx *f, const struct unwind_space *sp, enum unwind_mode mode,
		    const struct uf_regs *regs, size_t max)
{
	struct uf_err err = { 0 };
	memset(&f->st, 0, sizeof f->st);
	return unwind_walk(&f->t, 1, regs, sp, mode, f->pcs, max, &f->n, &f->st, &err);
}

/* x86-64: frameless leaf (row 0), a function keeping rbp at CFA-16 with
 * CFA = rbp + 16 (row 1), main with CFA = rsp + 24 (row 2), _start whose
 * return address is undefined (row 3). */
static const struct unwind_row x86_rows[] = {
	{ .cfa = UNWIND_CFA_SP, .cfa_off = 8, .ra = UNWIND_RULE_OFFSET, .ra_off = -8 },
	{ .cfa = UNWIND_CFA_FP, .cfa_off = 16, .ra = UNWIND_RULE_OFFSET, .ra_off = -8,
	  .fp = UNWIND_RULE_OFFSET, .fp_off = -16 },
	{ .cfa = UNWIND_CFA_SP, .cfa_off = 24, .ra = UNWIND_RULE_OFFSET, .ra_off = -8 },
	{ .cfa = UNWIND_CFA_SP, .cfa_off = 8, .ra = UNWIND_RULE_UNDEF },
};

static void cfi_x86_whole_chain(void **state)
{
	struct fx *f = fx_new();
	struct unwind_space *sp = space_of(x86_rows, 4, UF_ARCH_X86_64);
	uint64_t mem[16] = { 0 };
	mem[0] = CODE + 0x110;          /* leaf's return address, into row 1 */
	mem[1] = 0;                     /* row 1: saved rbp (caller's), CFA-16 */
	mem[2] = CODE + 0x220;          /* row 1: return address, CFA-8: row 2 */
	mem[3] = 0x1111;                /* main's locals */
	mem[4] = 0x2222;
	mem[5] = CODE + 0x330;          /* main's return address: row 3 (_start) */
	replay_map(f->r, STACK, mem, sizeof mem);
	/* rbp = STACK + 8: row 1's frame (CFA = rbp + 16 = STACK + 24) */
	struct uf_regs regs = { .pc = CODE + 0x10, .sp = STACK, .fp = STACK + 8,
				.arch = UF_ARCH_X86_64 };
	assert_int_equal(cfi_walk(f, sp, UNWIND_AUTO, &regs, 64), UNWIND_COMPLETE);
	assert_int_equal(f->n, 4);
	assert_true(f->pcs[1] == CODE + 0x110 && f->pcs[2] == CODE + 0x220 &&
		    f->pcs[3] == CODE + 0x330);
	assert_int_equal(f->st.steps_cfi, 3);
	assert_int_equal(f->st.steps_fp, 0);
	assert_int_equal(f->st.reads, 1);
	/* the frame-pointer walk of the same stack skips the leaf's caller */
	assert_int_equal(cfi_walk(f, sp, UNWIND_FP, &regs, 64), UNWIND_COMPLETE);
	assert_int_equal(f->n, 2);
	assert_int_equal(f->pcs[1], CODE + 0x220);
	unwind_space_free(sp);
	fx_free(f);
}

/* A return address is looked up at addr - 1: a call as the last
 * instruction of row 0 returns to the first byte of row 1. */
static void cfi_return_address_minus_one(void **state)
{
	struct fx *f = fx_new();
	const struct unwind_row rows[] = {
		{ .cfa = UNWIND_CFA_SP, .cfa_off = 8, .ra = UNWIND_RULE_OFFSET, .ra_off = -8 },
		{ .cfa = UNWIND_CFA_SP, .cfa_off = 8, .ra = UNWIND_RULE_UNDEF },
	};
	struct unwind_space *sp = space_of(rows, 2, UF_ARCH_X86_64);
	uint64_t mem[4] = { CODE + 0x100, CODE + 0x50, 0, 0 };
	replay_map(f->r, STACK, mem, sizeof mem);
	struct uf_regs regs = { .pc = CODE + 0x10, .sp = STACK, .arch = UF_ARCH_X86_64 };
	/* frame 1 is looked up at CODE + 0xff (row 0 again): reads mem[1]; had
	 * it used row 1 (RA undefined) the walk would end there */
	assert_int_equal(cfi_walk(f, sp, UNWIND_CFI, &regs, 8), UNWIND_COMPLETE);
	assert_int_equal(f->n, 3);
	assert_int_equal(f->pcs[2], CODE + 0x50);
	unwind_space_free(sp);
	fx_free(f);
}

/* Auto: frames without CFI use the frame pointer, then CFI again. */
static void cfi_falls_back_per_frame(void **state)
{
	struct fx *f = fx_new();
	struct unwind_space *sp = space_of(x86_rows, 4, UF_ARCH_X86_64);
	uint64_t mem[16] = { 0 };
	mem[0] = 0x900000;              /* leaf (row 0) returns into code without CFI */
	rec(mem, 4, 0, CODE + 0x330);   /* its frame record at STACK + 32: back into _start */
	replay_map(f->r, STACK, mem, sizeof mem);
	struct uf_regs regs = { .pc = CODE + 0x10, .sp = STACK, .fp = STACK + 32,
				.arch = UF_ARCH_X86_64 };
	assert_int_equal(cfi_walk(f, sp, UNWIND_AUTO, &regs, 64), UNWIND_COMPLETE);
	assert_int_equal(f->n, 3);
	assert_true(f->pcs[1] == 0x900000 && f->pcs[2] == CODE + 0x330);
	assert_int_equal(f->st.steps_cfi, 1);
	assert_int_equal(f->st.steps_fp, 1);
	assert_int_equal(f->st.unmapped, 1);
	/* CFI only: the frame without a row ends the walk */
	assert_int_equal(cfi_walk(f, sp, UNWIND_CFI, &regs, 64), UNWIND_NOINFO);
	assert_int_equal(f->n, 2);
	unwind_space_free(sp);
	fx_free(f);
}

/* The leaf rule: the sampled PC has no row (an assembly memcpy without
 * CFI in a no-frame-pointer build, rbp garbage), the word at sp returns
 * just past `call_bytes` into row 2 (main: CFA = rsp + 24), whose return
 * address leads to _start.  Returns the walk's end; f->pcs as walked. */
static int leaf_walk(struct fx *f, const unsigned char *call_bytes, size_t ncall, uint64_t ra,
		     int map_code)
{
	static uint64_t mem[8];
	static unsigned char code[0x40];
	struct unwind_space *sp = space_of(x86_rows, 4, UF_ARCH_X86_64);
	memset(mem, 0, sizeof mem);
	mem[0] = ra;                    /* the leaf's return address at sp */
	mem[3] = CODE + 0x330;          /* main's: CFA (sp + 8 + 24) - 8 */
	replay_map(f->r, STACK, mem, sizeof mem);
	memset(code, 0x90, sizeof code);  /* nops before the call */
	memcpy(code + 0x20 - ncall, call_bytes, ncall);
	if (map_code)
		replay_map(f->r, ra - 0x20, code, sizeof code);
	struct uf_regs regs = { .pc = CODE + 0x410, .sp = STACK, .fp = 0xdeadbeef,
				.arch = UF_ARCH_X86_64 };
	int end = cfi_walk(f, sp, UNWIND_AUTO, &regs, 64);
	unwind_space_free(sp);
	return end;
}

static void leaf_rule_recovers_caller(void **state)
{
	/* e8 rel32, and ff /2 in its register, SIB, disp8, disp32, RIP and
	 * absolute forms (call *%rax, *(%rsp), *8(%rsp), *0x100(%rbx),
	 * *x(%rip), *0x1000(,%rax,8) */
	static const struct { unsigned char b[7]; size_t n; } calls[] = {
		{ { 0xe8, 1, 2, 3, 4 }, 5 },
		{ { 0xff, 0xd0 }, 2 },
		{ { 0xff, 0x14, 0x24 }, 3 },
		{ { 0xff, 0x54, 0x24, 0x08 }, 4 },
		{ { 0xff, 0x93, 0, 1, 0, 0 }, 6 },
		{ { 0xff, 0x15, 1, 2, 3, 4 }, 6 },
		{ { 0xff, 0x14, 0xc5, 0, 0x10, 0, 0 }, 7 },
	};
	for (size_t i = 0; i < sizeof calls / sizeof calls[0]; i++) {
		struct fx *f = fx_new();
		assert_int_equal(leaf_walk(f, calls[i].b, calls[i].n, CODE + 0x220, 1), UNWIND_COMPLETE);
		assert_int_equal(f->n, 3);
		assert_true(f->pcs[1] == CODE + 0x220 && f->pcs[2] == CODE + 0x330);
		assert_int_equal(f->st.steps_leaf, 1);
		assert_int_equal(f->st.steps_cfi, 1);
		assert_int_equal(f->st.steps_fp, 0);
		fx_free(f);
	}
}

/* Not taken: the bytes before the word do not end in a call (a pushed
 * code pointer, a stale value), or the word points outside code with
 * rules; the frame pointer (garbage here: misaligned) then decides. */
static void leaf_rule_refuses_non_calls(void **state)
{
	static const unsigned char not_call[] = { 0x48, 0x89, 0xc7 };   /* mov %rax,%rdi */
	static const unsigned char jmp_ind[] = { 0xff, 0xe0 };           /* jmp *%rax (ff /4) */
	static const unsigned char call[] = { 0xe8, 1, 2, 3, 4 };
	struct fx *f = fx_new();
	assert_int_equal(leaf_walk(f, not_call, sizeof not_call, CODE + 0x220, 1), UNWIND_BAD_FRAME);
	assert_int_equal(f->n, 1);
	assert_int_equal(f->st.steps_leaf, 0);
	fx_free(f);
	f = fx_new();
	assert_int_equal(leaf_walk(f, jmp_ind, sizeof jmp_ind, CODE + 0x220, 1), UNWIND_BAD_FRAME);
	fx_free(f);
	f = fx_new();   /* a call, but returning into code no table covers */
	assert_int_equal(leaf_walk(f, call, sizeof call, CODE + 0x20000, 1), UNWIND_BAD_FRAME);
	assert_int_equal(f->n, 1);
	fx_free(f);
	f = fx_new();   /* code unreadable (a fused gdb sample): coverage alone decides */
	assert_int_equal(leaf_walk(f, call, sizeof call, CODE + 0x220, 0), UNWIND_COMPLETE);
	assert_int_equal(f->n, 3);
	fx_free(f);
}

/* The interrupt-frame rule: the leaf (row 0) returns into entry code
 * without CFI (CODE + 0x410), which pushed three registers below the frame
 * Xen's upcall left (rip cs rflags rsp ss); the walk continues at the
 * interrupted rip, looked up exactly (CODE + 0x200 is row 2's first byte:
 * as a return address it would be row 1's), and ends at _start. */
static int intr_walk(struct fx *f, uint64_t flags)
{
	static uint64_t mem[48];
	struct unwind_space *sp = space_of(x86_rows, 4, UF_ARCH_X86_64);
	memset(mem, 0, sizeof mem);
	mem[0] = CODE + 0x410;          /* the leaf's return: into the entry code */
	mem[1] = 0x1234;                /* pushed by the entry: rax, rdi, rbx */
	mem[2] = 7;
	mem[3] = STACK + 0x80;
	mem[4] = CODE + 0x200;          /* the interrupted rip */
	mem[5] = 0xe033;                /* Xen PV FLAT_RING3_CS64 */
	mem[6] = flags;
	mem[7] = STACK + 0x100;         /* the interrupted rsp */
	mem[8] = 0xe02b;
	mem[0x100 / 8 + 2] = CODE + 0x330;   /* main's return (CFA = rsp + 24) */
	replay_map(f->r, STACK, mem, sizeof mem);
	struct uf_regs regs = { .pc = CODE + 0x10, .sp = STACK, .fp = 0xdeadbeef,
				.arch = UF_ARCH_X86_64 };
	int end = cfi_walk(f, sp, UNWIND_AUTO, &regs, 64);
	unwind_space_free(sp);
	return end;
}

static void intr_frame_continues_walk(void **state)
{
	struct fx *f = fx_new();
	assert_int_equal(intr_walk(f, 0x246), UNWIND_COMPLETE);
	assert_int_equal(f->n, 4);
	assert_true(f->pcs[1] == CODE + 0x410 && f->pcs[2] == CODE + 0x200 &&
		    f->pcs[3] == CODE + 0x330);
	assert_int_equal(f->st.steps_intr, 1);
	assert_int_equal(f->st.steps_cfi, 2);
	fx_free(f);
	/* RFLAGS without its always-set bit 1: no interrupt frame; the
	 * frame pointer (garbage) ends the walk */
	f = fx_new();
	assert_int_equal(intr_walk(f, 0x244), UNWIND_BAD_FRAME);
	assert_int_equal(f->n, 2);
	assert_int_equal(f->st.steps_intr, 0);
	fx_free(f);
}

/* A one-frame walk that stops because rbp is 0 is not complete. */
static void cfi_zero_fp_at_leaf_is_noinfo(void **state)
{
	struct fx *f = fx_new();
	uint64_t mem[4] = { 0 };
	replay_map(f->r, STACK, mem, sizeof mem);
	struct uf_regs regs = { .pc = 0x900000, .sp = STACK, .fp = 0, .arch = UF_ARCH_X86_64 };
	assert_int_equal(cfi_walk(f, NULL, UNWIND_AUTO, &regs, 64), UNWIND_NOINFO);
	assert_int_equal(f->n, 1);
	assert_int_equal(cfi_walk(f, NULL, UNWIND_FP, &regs, 64), UNWIND_NOINFO);
	assert_int_equal(f->st.ends[UNWIND_COMPLETE], 0);
	fx_free(f);
}

/* A CFA that does not rise ends the walk (no loop). */
static void cfi_rejects_non_increasing_cfa(void **state)
{
	struct fx *f = fx_new();
	const struct unwind_row rows[] = {
		/* CFA = rsp + 0 at a later frame, or below sp */
		{ .cfa = UNWIND_CFA_SP, .cfa_off = 8, .ra = UNWIND_RULE_OFFSET, .ra_off = -8 },
		{ .cfa = UNWIND_CFA_SP, .cfa_off = 0, .ra = UNWIND_RULE_OFFSET, .ra_off = -8 },
		{ .cfa = UNWIND_CFA_SP, .cfa_off = -64, .ra = UNWIND_RULE_OFFSET, .ra_off = 0 },
		{ .cfa = UNWIND_CFA_SP, .cfa_off = 8, .ra = UNWIND_RULE_SAME },
	};
	struct unwind_space *sp = space_of(rows, 4, UF_ARCH_X86_64);
	uint64_t mem[8] = { CODE + 0x110, CODE + 0x210, 0, 0 };
	replay_map(f->r, STACK, mem, sizeof mem);
	struct uf_regs regs = { .pc = CODE + 0x10, .sp = STACK, .arch = UF_ARCH_X86_64 };
	assert_int_equal(cfi_walk(f, sp, UNWIND_CFI, &regs, 64), UNWIND_BAD_FRAME);
	assert_int_equal(f->n, 2);
	regs.pc = CODE + 0x210;   /* CFA below sp */
	assert_int_equal(cfi_walk(f, sp, UNWIND_CFI, &regs, 64), UNWIND_BAD_FRAME);
	regs.pc = CODE + 0x310;   /* x86-64 return address "same value": impossible */
	assert_int_equal(cfi_walk(f, sp, UNWIND_CFI, &regs, 64), UNWIND_BAD_FRAME);
	assert_int_equal(f->n, 1);
	unwind_space_free(sp);
	fx_free(f);
}

/* Issue 20 item 7: sums near 2^64 never wrap into a long walk. */
static void walk_sums_do_not_wrap(void **state)
{
	struct fx *f = fx_new();
	uint64_t hi = 0xfffffffffffff000ull, mem[512] = { 0 };
	mem[510] = hi + 0xff0;   /* a self-pointing record at 0xfffffffffffffff0 */
	mem[511] = 0x401000;
	replay_map(f->r, hi, mem, sizeof mem);
	struct uf_regs regs = { .pc = 1, .sp = hi, .fp = 0xfffffffffffffff0ull,
				.arch = UF_ARCH_X86_64 };
	assert_int_equal(cfi_walk(f, NULL, UNWIND_FP, &regs, 8192), UNWIND_BAD_FRAME);
	assert_int_equal(f->n, 1);
	assert_int_equal(f->st.reads, 0);
	/* CFI: CFA = sp + 8 past 2^64, and a return-address slot past 2^64 */
	const struct unwind_row rows[] = {
		{ .cfa = UNWIND_CFA_SP, .cfa_off = 32, .ra = UNWIND_RULE_OFFSET, .ra_off = -8 },
		{ .cfa = UNWIND_CFA_FP, .cfa_off = 0x7fffffff, .ra = UNWIND_RULE_OFFSET,
		  .ra_off = 0x7fff },
	};
	struct unwind_space *sp = space_of(rows, 2, UF_ARCH_X86_64);
	regs = (struct uf_regs){ .pc = CODE, .sp = 0xfffffffffffffff0ull, .arch = UF_ARCH_X86_64 };
	assert_int_equal(cfi_walk(f, sp, UNWIND_AUTO, &regs, 8192), UNWIND_BAD_FRAME);
	assert_int_equal(f->n, 1);
	regs = (struct uf_regs){ .pc = CODE + 0x100, .sp = hi, .fp = 0xffffffff80000000ull,
				 .arch = UF_ARCH_X86_64 };
	assert_int_equal(cfi_walk(f, sp, UNWIND_AUTO, &regs, 8192), UNWIND_BAD_FRAME);
	assert_int_equal(f->n, 1);
	/* CFA = rsp + 32 lands on 2^64 - 8: the slot at CFA - 8 is the last
	 * whole word below 2^64 and is read; the next frame (no CFI, fp 0)
	 * is the outermost */
	regs = (struct uf_regs){ .pc = CODE, .sp = 0xffffffffffffffd8ull, .arch = UF_ARCH_X86_64 };
	assert_int_equal(cfi_walk(f, sp, UNWIND_AUTO, &regs, 8192), UNWIND_COMPLETE);
	assert_int_equal(f->n, 2);
	assert_int_equal(f->pcs[1], 0xfffffffffffffff0ull);
	unwind_space_free(sp);
	fx_free(f);
}

/* AArch64: a leaf keeps its return address in x30 (CFA = sp, RA "same"),
 * its caller saved x29/x30 at CFA-16/CFA-8 with CFA = x29 + 16; pointer
 * authentication bits are stripped. */
static void cfi_aarch64_leaf_in_lr(void **state)
{
	struct fx *f = fx_new();
	const struct unwind_row rows[] = {
		{ .cfa = UNWIND_CFA_SP, .cfa_off = 0, .ra = UNWIND_RULE_SAME },
		{ .cfa = UNWIND_CFA_FP, .cfa_off = 16, .ra = UNWIND_RULE_OFFSET, .ra_off = -8,
		  .fp = UNWIND_RULE_OFFSET, .fp_off = -16 },
		{ .cfa = UNWIND_CFA_SP, .cfa_off = 0, .ra = UNWIND_RULE_UNDEF },
	};
	struct unwind_space *sp = space_of(rows, 3, UF_ARCH_AARCH64);
	uint64_t mem[8] = { 0 };
	mem[2] = 0;                                  /* caller's x29 */
	mem[3] = 0x002a000000000000ull | (CODE + 0x210); /* signed return address */
	replay_map(f->r, STACK, mem, sizeof mem);
	struct uf_regs regs = { .pc = CODE + 0x10, .sp = STACK, .fp = STACK + 16,
				.lr = CODE + 0x120, .arch = UF_ARCH_AARCH64 };
	assert_int_equal(cfi_walk(f, sp, UNWIND_AUTO, &regs, 64), UNWIND_COMPLETE);
	assert_int_equal(f->n, 3);
	assert_true(f->pcs[1] == CODE + 0x120 && f->pcs[2] == CODE + 0x210);
	/* "same" at a later frame would repeat x30: the CFA must rise */
	const struct unwind_row loop[] = {
		{ .cfa = UNWIND_CFA_SP, .cfa_off = 0, .ra = UNWIND_RULE_SAME },
	};
	struct unwind_space *sp2 = space_of(loop, 1, UF_ARCH_AARCH64);
	regs.lr = CODE + 0x20;
	assert_int_equal(cfi_walk(f, sp2, UNWIND_CFI, &regs, 64), UNWIND_BAD_FRAME);
	assert_int_equal(f->n, 2);
	unwind_space_free(sp2);
	unwind_space_free(sp);
	fx_free(f);
}

static void mode_parse(void **state)
{
	enum unwind_mode m;
	assert_int_equal(unwind_mode_parse("fp", &m), 0);
	assert_int_equal(m, UNWIND_FP);
	assert_int_equal(unwind_mode_parse("cfi", &m), 0);
	assert_int_equal(m, UNWIND_CFI);
	assert_int_equal(unwind_mode_parse("auto", &m), 0);
	assert_int_equal(m, UNWIND_AUTO);
	assert_true(unwind_mode_parse("dwarf", &m) < 0);
}

/* ---- tables from real ELF files ----------------------------------------- */

/* A function with a known entry: CFA = rsp + 8, RA at CFA - 8. */
__attribute__((noinline)) int unwind_probe(int x);
__attribute__((noinline)) int unwind_probe(int x)
{
	return x * 7;
}

static void table_of_this_program(void **state)
{
	struct unwind_space *sp = unwind_space_new();
	assert_int_equal(unwind_space_add_pid(sp, getpid()), 0);
	uint64_t bias;
	const struct unwind_table *t = unwind_space_find(sp, (uint64_t)(uintptr_t)unwind_probe, &bias);
	assert_non_null(t);
	assert_int_equal(unwind_table_check(t), 0);
	const struct unwind_row *r = unwind_table_find(t, (uint64_t)(uintptr_t)unwind_probe - bias);
	assert_non_null(r);
	assert_int_equal(r->cfa, UNWIND_CFA_SP);
	assert_int_equal(r->cfa_off, 8);
	assert_int_equal(r->ra, UNWIND_RULE_OFFSET);
	assert_int_equal(r->ra_off, -8);
	/* libc too (its own mapping, its own bias) */
	t = unwind_space_find(sp, (uint64_t)(uintptr_t)qsort, &bias);
	assert_non_null(t);
	assert_true(t->nrows > 1000 && t->nfde_eh > 100);
	assert_non_null(unwind_table_find(t, (uint64_t)(uintptr_t)qsort - bias));
	/* the bucket index finds what a plain search finds, at every address */
	assert_non_null(t->index);
	struct unwind_table plain = *t;
	plain.index = NULL;
	for (uint64_t a = t->base > 64 ? t->base - 64 : 0; a < t->end + 64; a += 3)
		assert_ptr_equal(unwind_table_find(t, a), unwind_table_find(&plain, a));
	size_t mods, with, rows, bytes;
	unwind_space_stats(sp, &mods, &with, &rows, &bytes);
	assert_true(mods >= 2 && with >= 2 && rows > 1000 && bytes >= rows * 16);
	/* the same maps again add nothing */
	assert_int_equal(unwind_space_add_pid(sp, getpid()), 0);
	size_t mods2;
	unwind_space_stats(sp, &mods2, &with, &rows, &bytes);
	assert_int_equal(mods2, mods);
	unwind_space_free(sp);
}

/* Compiles `src` with `cc` and `flags` into dir/name; 0 when it worked. */
static int compile(const char *cc, const char *flags, const char *src, const char *out)
{
	char cmd[1024], cpath[512];
	snprintf(cpath, sizeof cpath, "%s.c", out);
	FILE *fp = fopen(cpath, "w");
	if (!fp)
		return -1;
	fputs(src, fp);
	fclose(fp);
	snprintf(cmd, sizeof cmd, "%s %s -o %s %s 2>/dev/null", cc, flags, out, cpath);
	return system(cmd) == 0 ? 0 : -1;
}

/* Address of symbol `name` in ELF `path` (nm), 0 when absent. */
static uint64_t sym_addr(const char *path, const char *name)
{
	char cmd[600], line[256];
	unsigned long long a;
	char type, nm[200];
	uint64_t found = 0;
	snprintf(cmd, sizeof cmd, "nm %s", path);
	FILE *p = popen(cmd, "r");
	while (p && fgets(line, sizeof line, p))
		if (sscanf(line, "%llx %c %199s", &a, &type, nm) == 3 && !strcmp(nm, name))
			found = a;
	if (p)
		pclose(p);
	return found;
}

static const char *leaf_src =
	"long leaf(long x);\nlong mid(long x);\nvoid entry(void);\n"
	"__attribute__((noinline)) long leaf(long x) { return x * 3 + 1; }\n"
	"__attribute__((noinline)) long mid(long x) { long a = leaf(x); long b = leaf(x + 1); "
	"__asm__ volatile(\"\" ::: \"memory\"); return a * b + x; }\n"
	"volatile long sink;\nvoid entry(void) { sink = mid(sink); for (;;) ; }\n";

static void table_x86_eh_and_debug_frame(void **state)
{
	char dir[] = "/tmp/uf-unwind-XXXXXX", a[64], b[64];
	assert_non_null(mkdtemp(dir));
	snprintf(a, sizeof a, "%s/eh", dir);
	snprintf(b, sizeof b, "%s/dbg", dir);
	/* -fno-ipa-ra: mid must save a register across its calls (a push) */
	if (compile("cc", "-O2 -fno-ipa-ra -fomit-frame-pointer -nostdlib -static -Wl,-e,entry",
		    leaf_src, a) ||
	    compile("cc", "-O2 -fno-ipa-ra -g -fomit-frame-pointer -fno-asynchronous-unwind-tables "
		    "-nostdlib "
		    "-static -Wl,-e,entry", leaf_src, b))
		skip();
	struct uf_err err = { 0 };
	struct unwind_table *te = unwind_table_open(a, &err), *td = unwind_table_open(b, &err);
	assert_non_null(te);
	assert_non_null(td);
	assert_true(te->nfde_eh >= 3 && te->nfde_debug == 0);
	assert_true(td->nfde_debug >= 3 && td->nfde_eh == 0); /* rules only in .debug_frame */
	for (int k = 0; k < 2; k++) {
		const char *path = k ? b : a;
		struct unwind_table *t = k ? td : te;
		assert_int_equal(unwind_table_check(t), 0);
		const struct unwind_row *r = unwind_table_find(t, sym_addr(path, "leaf"));
		assert_non_null(r);
		assert_true(r->cfa == UNWIND_CFA_SP && r->cfa_off == 8 && r->ra_off == -8);
		/* somewhere in mid the CFA is above rsp + 8 (it pushed or reserved) */
		uint64_t m = sym_addr(path, "mid"), e = sym_addr(path, "entry");
		int deeper = 0;
		for (uint64_t pc = m; pc < e && pc < m + 64; pc++) {
			r = unwind_table_find(t, pc);
			deeper |= r && r->cfa == UNWIND_CFA_SP && r->cfa_off > 8;
		}
		assert_true(deeper);
	}
	unwind_table_free(te);
	unwind_table_free(td);
	assert_null(unwind_table_open(dir, &err)); /* a directory */
	assert_null(unwind_table_open("/dev/null", &err));
	char cmd[128];
	snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
	assert_int_equal(system(cmd), 0);
}

/* AArch64 (cross-compiled here): the leaf's RA stays in x30; mid saves
 * x29/x30 and the walk through the real rows reaches entry. */
static void table_aarch64(void **state)
{
	char dir[] = "/tmp/uf-unwind-XXXXXX", a[64];
	assert_non_null(mkdtemp(dir));
	snprintf(a, sizeof a, "%s/arm", dir);
	if (compile("aarch64-linux-gnu-gcc", "-O2 -g -nostdlib -static -Wl,-e,entry", leaf_src, a))
		skip();
	struct uf_err err = { 0 };
	struct unwind_table *t = unwind_table_open(a, &err);
	assert_non_null(t);
	assert_int_equal(t->arch, UF_ARCH_AARCH64);
	assert_int_equal(unwind_table_check(t), 0);
	uint64_t leaf = sym_addr(a, "leaf"), mid = sym_addr(a, "mid"), entry = sym_addr(a, "entry");
	const struct unwind_row *r = unwind_table_find(t, leaf);
	assert_non_null(r);
	assert_true(r->cfa == UNWIND_CFA_SP && r->cfa_off == 0 && r->ra == UNWIND_RULE_SAME);
	/* the row at mid's first call's return address */
	const struct unwind_row *rm = NULL;
	for (uint64_t pc = mid; pc < mid + 64 && !rm; pc += 4) {
		r = unwind_table_find(t, pc);
		if (r && r->ra == UNWIND_RULE_OFFSET && r->fp == UNWIND_RULE_OFFSET)
			rm = r;
	}
	assert_non_null(rm);
	/* replay: sampled in leaf, x30 = the return address of mid's first
	 * call (stp; mov x1, x0; mov x29, sp; bl leaf) */
	uint64_t ret = mid + 16, cfa, mem[8] = { 0 };
	r = unwind_table_find(t, ret - 1);
	assert_non_null(r);
	assert_int_equal(r->ra, UNWIND_RULE_OFFSET);
	struct fx *f = fx_new();
	cfa = (r->cfa == UNWIND_CFA_SP ? STACK : STACK) + (uint64_t)(int64_t)r->cfa_off;
	assert_true(cfa > STACK && cfa - STACK <= 48);
	mem[(cfa + (uint64_t)(int64_t)r->ra_off - STACK) / 8] = entry + 8;
	replay_map(f->r, STACK, mem, sizeof mem);
	struct unwind_space *sp = unwind_space_new();
	assert_int_equal(unwind_space_add_table(sp, 0, UINT64_MAX, 0, t), 0);
	struct uf_regs regs = { .pc = leaf, .sp = STACK, .fp = STACK, .lr = ret,
				.arch = UF_ARCH_AARCH64 };
	cfi_walk(f, sp, UNWIND_CFI, &regs, 3);
	assert_true(f->n >= 3);
	assert_true(f->pcs[1] == ret && f->pcs[2] == entry + 8);
	unwind_space_free(sp);
	fx_free(f);
	char cmd[128];
	snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
	assert_int_equal(system(cmd), 0);
}

/* AArch64 "x30 saved in register R" rules (DW_CFA_register; libdw gives
 * DW_OP_regx R): saved in x30 itself is where the return address
 * already is (SAME, as at a leaf's entry); saved in x9, a register the
 * walker does not track, cannot be held in a row (EXPR: fall back). */
static const char *ra_reg_src =
	"__asm__(\".text\\n\"\n"
	"\".globl in_self\\n.type in_self,%function\\nin_self:\\n.cfi_startproc\\n nop\\n\"\n"
	"\".cfi_register x30, x30\\n nop\\n ret\\n.cfi_endproc\\n.size in_self, .-in_self\\n\"\n"
	"\".globl in_x9\\n.type in_x9,%function\\nin_x9:\\n.cfi_startproc\\n mov x9, x30\\n\"\n"
	"\".cfi_register x30, x9\\n nop\\n ret x9\\n.cfi_endproc\\n.size in_x9, .-in_x9\\n\");\n"
	"void entry(void) { for (;;) ; }\n";

static void table_aarch64_ra_in_register(void **state)
{
	char dir[] = "/tmp/uf-unwind-XXXXXX", a[64];
	assert_non_null(mkdtemp(dir));
	snprintf(a, sizeof a, "%s/ra", dir);
	if (compile("aarch64-linux-gnu-gcc", "-O2 -nostdlib -static -Wl,-e,entry", ra_reg_src, a))
		skip();
	struct uf_err err = { 0 };
	struct unwind_table *t = unwind_table_open(a, &err);
	assert_non_null(t);
	assert_int_equal(unwind_table_check(t), 0);
	uint64_t self = sym_addr(a, "in_self"), x9 = sym_addr(a, "in_x9");
	assert_true(self && x9);
	for (int k = 0; k < 2; k++) { /* before and after the rule */
		const struct unwind_row *r = unwind_table_find(t, self + 4 * (uint64_t)k);
		assert_non_null(r);
		assert_int_equal(r->cfa, UNWIND_CFA_SP);
		assert_int_equal(r->cfa_off, 0);
		assert_int_equal(r->ra, UNWIND_RULE_SAME);
	}
	const struct unwind_row *r = unwind_table_find(t, x9 + 4);
	assert_non_null(r);
	assert_int_equal(r->ra, UNWIND_RULE_EXPR);
	assert_int_equal(r->cfa, UNWIND_CFA_EXPR);
	r = unwind_table_find(t, x9);
	assert_true(r && r->ra == UNWIND_RULE_SAME && r->cfa == UNWIND_CFA_SP);
	unwind_table_free(t);
	char cmd[128];
	snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
	assert_int_equal(system(cmd), 0);
}

/* Hand-written .debug_frame (x86-64): a CIE whose augmentation "zSR"
 * puts the signal-frame letter before R (any order is valid: only P, L
 * and R carry data) is read, and an FDE whose program's last operand
 * (a CFA expression's length) runs past the FDE's end is dropped before
 * libdw runs it, so f_trunc has no rows. */
static const char *cfi_src =
	".text\n.globl f_ok\nf_ok:\n nop; nop; nop; nop; nop; nop; nop; nop; ret\n"
	".globl f_trunc\nf_trunc:\n .fill 15, 1, 0x90\n ret\n.globl entry\nentry:\n jmp entry\n"
	".section .debug_frame,\"\",@progbits\n"
	"cie1:\n .4byte cie1_end - cie1_start\ncie1_start:\n .4byte 0xffffffff\n .byte 1\n"
	" .asciz \"zSR\"\n .uleb128 1\n .sleb128 -8\n .byte 16\n .uleb128 1\n .byte 0x00\n"
	" .byte 0x0c, 7, 8\n .byte 0x90, 1\n .balign 8, 0\ncie1_end:\n"
	"fde1:\n .4byte fde1_end - fde1_start\nfde1_start:\n .4byte cie1\n .8byte f_ok\n .8byte 9\n"
	" .uleb128 0\n .byte 0x41, 0x0e, 16\n .balign 8, 0\nfde1_end:\n"
	"cie2:\n .4byte cie2_end - cie2_start\ncie2_start:\n .4byte 0xffffffff\n .byte 1\n .asciz \"\"\n"
	" .uleb128 1\n .sleb128 -8\n .byte 16\n .byte 0x0c, 7, 8\n .byte 0x90, 1\n .balign 8, 0\n"
	"cie2_end:\n"
	"fde2:\n .4byte fde2_end - fde2_start\nfde2_start:\n .4byte cie2\n .8byte f_trunc\n .8byte 16\n"
	" .byte 0x44, 0x0e, 16\n .byte 0x44, 0x0f, 40, 0x77\nfde2_end:\n";

static void table_hand_written_cfi(void **state)
{
	char dir[] = "/tmp/uf-unwind-XXXXXX", a[64], src[80], cmd[256];
	assert_non_null(mkdtemp(dir));
	snprintf(a, sizeof a, "%s/cfi", dir);
	snprintf(src, sizeof src, "%s.s", a);
	FILE *fp = fopen(src, "w");
	assert_non_null(fp);
	fputs(cfi_src, fp);
	fclose(fp);
	snprintf(cmd, sizeof cmd, "cc -nostdlib -static -no-pie -Wl,-e,entry -o %s %s 2>/dev/null", a, src);
	if (system(cmd) != 0)
		skip();
	struct uf_err err = { 0 };
	struct unwind_table *t = unwind_table_open(a, &err);
	assert_non_null(t);
	assert_int_equal(unwind_table_check(t), 0);
	assert_int_equal(t->nfde_debug, 1);   /* f_ok's; f_trunc's dropped */
	uint64_t ok = sym_addr(a, "f_ok"), tr = sym_addr(a, "f_trunc");
	assert_true(ok && tr);
	const struct unwind_row *r = unwind_table_find(t, ok);
	assert_true(r && r->cfa == UNWIND_CFA_SP && r->cfa_off == 8 && r->ra == UNWIND_RULE_OFFSET &&
		    r->ra_off == -8);
	r = unwind_table_find(t, ok + 1);
	assert_true(r && r->cfa == UNWIND_CFA_SP && r->cfa_off == 16);
	for (uint64_t pc = tr; pc < tr + 16; pc++) {
		r = unwind_table_find(t, pc);
		assert_true(!r || r->cfa == UNWIND_CFA_NONE);
	}
	unwind_table_free(t);
	snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
	assert_int_equal(system(cmd), 0);
}

/* A fuzzed ELF whose CIE names register 2,096,656 (tests/fuzz/crashes):
 * libdw sized every row's register table by it (1 s and 340 MiB per file
 * under ASan).  The FDE is dropped before libdw runs it: no rows from it. */
static void table_refuses_huge_register(void **state)
{
	const char *path = "tests/fuzz/crashes/cfi-table/libdw-register-2096656";
	if (access(path, R_OK) != 0) {   /* run from elsewhere than the tree's top */
		if (getenv("CI") && !strcmp(getenv("CI"), "true"))
			fail_msg("%s not found (run from the tree's top)", path);
		skip();
	}
	struct uf_err err = { 0 };
	struct unwind_table *t = unwind_table_open(path, &err);
	assert_non_null(t);
	assert_int_equal(t->nexpr, 0);
	assert_true(t->nrows <= 2);
	assert_int_equal(unwind_table_check(t), 0);
	unwind_table_free(t);
}

/* Issue 28 item 1: a path named by maps that is a symlink to a FIFO (a
 * device in the attack) is looked at, never opened: no IN_OPEN event,
 * and the module is there without CFI. */
static void space_never_opens_a_fifo(void **state)
{
	(void)state;
	char sdir[] = "/tmp/uf-unwind-space.XXXXXX", fifo[128], link[128];
	assert_non_null(mkdtemp(sdir));
	snprintf(fifo, sizeof fifo, "%s/fifo", sdir);
	snprintf(link, sizeof link, "%s/lib.so", sdir);
	assert_int_equal(mkfifo(fifo, 0600), 0);
	assert_int_equal(symlink("/fifo", link), 0);   /* resolved inside sdir */
	int in = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
	assert_true(in >= 0 && inotify_add_watch(in, fifo, IN_OPEN) >= 0);
	static const char maps[] = "10000-20000 r-xp 00000000 00:00 0 /lib.so (deleted)\n"
				   "20000-30000 r-xp 00000000 00:00 0 /fifo\n";
	struct unwind_space *sp = unwind_space_new();
	assert_int_equal(unwind_space_add_maps(sp, maps, sizeof maps - 1, sdir), 0);
	size_t mods, cfi, rows, bytes;
	unwind_space_stats(sp, &mods, &cfi, &rows, &bytes);
	assert_int_equal(mods, 2);
	assert_int_equal(cfi, 0);
	char buf[1024] __attribute__((aligned(__alignof__(struct inotify_event))));
	assert_true(read(in, buf, sizeof buf) < 0 && errno == EAGAIN);   /* no open at all */
	close(in);
	unwind_space_free(sp);
	unlink(link);
	unlink(fifo);
	rmdir(sdir);
}

/* ---- CFI rows against libdw (issue 28 item 6) ------------------------- */

/* libdw's rules at `addr` as a row: the pre-issue-28 compiler (one
 * dwarf_cfi_addrframe per row), kept here as the oracle.  0, or -1 when
 * libdw has no frame there. */
static int libdw_row(Dwarf_CFI *cfi, uint64_t addr, const int rn[3], struct unwind_row *row)
{
	Dwarf_Frame *fr;
	Dwarf_Op *ops, mem[3];
	size_t nops;
	if (!cfi || dwarf_cfi_addrframe(cfi, addr, &fr) != 0)
		return -1;
	memset(row, 0, sizeof *row);
	row->cfa = UNWIND_CFA_EXPR;
	if (dwarf_frame_cfa(fr, &ops, &nops) == 0 && nops == 1 && ops[0].atom == DW_OP_bregx &&
	    (int64_t)ops[0].number2 >= INT32_MIN && (int64_t)ops[0].number2 <= INT32_MAX) {
		row->cfa = ops[0].number == (Dwarf_Word)rn[0]   ? UNWIND_CFA_SP
			   : ops[0].number == (Dwarf_Word)rn[1] ? UNWIND_CFA_FP
								 : UNWIND_CFA_EXPR;
		row->cfa_off = (int32_t)(int64_t)ops[0].number2;
	}
	for (int k = 1; k <= 2; k++) {   /* fp, then ra */
		uint8_t rule = UNWIND_RULE_EXPR;
		int16_t off = 0;
		if (dwarf_frame_register(fr, rn[k], mem, &ops, &nops) == 0) {
			int64_t v = nops == 2 && ops[1].atom == DW_OP_plus_uconst ? (int64_t)ops[1].number : 0;
			if (nops == 0)
				rule = ops ? UNWIND_RULE_UNDEF : UNWIND_RULE_SAME;
			else if (nops == 1 && ops[0].atom == DW_OP_regx && ops[0].number == (Dwarf_Word)rn[k])
				rule = UNWIND_RULE_SAME;
			else if (ops[0].atom == DW_OP_call_frame_cfa && (nops == 1 || (nops == 2 &&
				 ops[1].atom == DW_OP_plus_uconst)) && v >= INT16_MIN && v <= INT16_MAX)
				rule = UNWIND_RULE_OFFSET, off = (int16_t)v;
		}
		if (k == 1) {
			row->fp = rule == UNWIND_RULE_UNDEF ? UNWIND_RULE_SAME : rule;
			row->fp_off = off;
		} else {
			row->ra = rule;
			row->ra_off = off;
		}
	}
	if (row->ra == UNWIND_RULE_EXPR)
		row->cfa = UNWIND_CFA_EXPR;
	free(fr);
	return 0;
}

static int same_rules(const struct unwind_row *a, const struct unwind_row *b)
{
	return a->cfa == b->cfa && a->cfa_off == b->cfa_off && a->ra == b->ra &&
	       a->ra_off == b->ra_off && a->fp == b->fp && a->fp_off == b->fp_off;
}

/* Every row of `path`'s table, at its first and last address, equals
 * libdw's rules there.  Returns the rows checked (0: file absent). */
static size_t check_against_libdw(const char *path)
{
	struct uf_err err = { 0 };
	struct unwind_table *t = unwind_table_open(path, &err);
	if (!t)
		return 0;
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	assert_true(fd >= 0);
	Elf *elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	Dwarf_CFI *eh = dwarf_getcfi_elf(elf);
	Dwarf *dw = dwarf_begin_elf(elf, DWARF_C_READ, NULL);
	Dwarf_CFI *dbg = dw ? dwarf_getcfi(dw) : NULL;
	static const int x86[3] = { 7, 6, 16 }, arm[3] = { 31, 29, 30 };   /* sp, fp, ra */
	const int *rn = t->arch == UF_ARCH_AARCH64 ? arm : x86;
	size_t checked = 0;
	for (uint32_t i = 0; i + 1 < t->nrows; i++) {
		const struct unwind_row *r = &t->rows[i];
		if (r->cfa == UNWIND_CFA_NONE)
			continue;
		uint64_t at[2] = { t->base + r->start, t->base + t->rows[i + 1].start - 1 };
		for (int k = 0; k < 2; k++) {
			struct unwind_row want;
			if (libdw_row(eh, at[k], rn, &want) < 0)
				assert_int_equal(libdw_row(dbg, at[k], rn, &want), 0);
			if (!same_rules(r, &want))
				fail_msg("%s: row %u at 0x%llx: cfa %d%+d ra %d%+d fp %d%+d, libdw cfa %d%+d "
					 "ra %d%+d fp %d%+d", path, i, (unsigned long long)at[k], r->cfa,
					 r->cfa_off, r->ra, r->ra_off, r->fp, r->fp_off, want.cfa,
					 want.cfa_off, want.ra, want.ra_off, want.fp, want.fp_off);
			checked++;
		}
	}
	if (eh)
		dwarf_cfi_end(eh);
	if (dw)
		dwarf_end(dw);
	elf_end(elf);
	close(fd);
	unwind_table_free(t);
	return checked;
}

static void table_rows_equal_libdw(void **state)
{
	(void)state;
	const char *paths[] = { "/proc/self/exe", "/lib/x86_64-linux-gnu/libc.so.6",
				"/lib64/ld-linux-x86-64.so.2", "/lib/x86_64-linux-gnu/libdw.so.1",
				"/lib/x86_64-linux-gnu/libstdc++.so.6",
				"/lib/x86_64-linux-gnu/libxml2.so.2",
				"/usr/aarch64-linux-gnu/lib/libc.so.6",   /* negate_ra_state */
				"/usr/aarch64-linux-gnu/lib/ld-linux-aarch64.so.1" };
	size_t total = 0, files = 0;
	for (size_t i = 0; i < sizeof paths / sizeof *paths; i++) {
		size_t n = check_against_libdw(paths[i]);
		total += n;
		files += n > 0;
	}
	print_message("checked %zu row ends in %zu files against libdw\n", total, files);
	assert_true(files >= 3 && total > 50000);
}

/* An FDE with 100,000 rows (one function alternating push and pop, each
 * a CFA change): compiled in one pass, under a second even with ASan;
 * libdw row by row took 105 s for it inside `record -p -T 1`. */
static void table_100k_row_fde_is_linear(void **state)
{
	(void)state;
	enum { PAIRS = 50000 };
	static const char head[] = "\t.text\n\t.globl big\n\t.type big,@function\nbig:\n"
				   "\t.cfi_startproc\n";
	static const char pair[] = "\tpush %rax\n\t.cfi_adjust_cfa_offset 8\n"
				   "\tpop %rax\n\t.cfi_adjust_cfa_offset -8\n";
	static const char tail[] = "\tret\n\t.cfi_endproc\n\t.size big,.-big\n"
				   "\t.section .note.GNU-stack,\"\",@progbits\n";
	size_t cap = sizeof head + PAIRS * (sizeof pair - 1) + sizeof tail, n = 0;
	char *src = malloc(cap);
	assert_non_null(src);
	n += (size_t)snprintf(src + n, cap - n, "%s", head);
	for (int i = 0; i < PAIRS; i++)
		n += (size_t)snprintf(src + n, cap - n, "%s", pair);
	snprintf(src + n, cap - n, "%s", tail);
	char dir[] = "/tmp/uf-unwind-big.XXXXXX", so[128], cpath[160];
	assert_non_null(mkdtemp(dir));
	snprintf(so, sizeof so, "%s/libbig.so", dir);
	assert_int_equal(compile("cc", "-shared -x assembler", src, so), 0);
	free(src);
	struct timespec t0, t1;
	struct uf_err err = { 0 };
	clock_gettime(CLOCK_MONOTONIC, &t0);
	struct unwind_table *t = unwind_table_open(so, &err);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	double secs = (double)(t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9;
	print_message("100,000-row FDE: %u rows in %.3f s\n", t ? t->nrows : 0, secs);
	assert_non_null(t);
	assert_true(secs < 1.0);
	assert_true(t->nrows >= 2 * PAIRS);
	assert_int_equal(unwind_table_check(t), 0);
	uint64_t big = sym_addr(so, "big");
	assert_true(big != 0);
	const struct unwind_row *r = unwind_table_find(t, big);       /* at entry */
	assert_true(r && r->cfa == UNWIND_CFA_SP && r->cfa_off == 8);
	r = unwind_table_find(t, big + 2 * 1000 + 1);                  /* after a push */
	assert_true(r && r->cfa == UNWIND_CFA_SP && r->cfa_off == 16);
	unwind_table_free(t);
	snprintf(cpath, sizeof cpath, "%s.c", so);
	unlink(cpath);
	unlink(so);
	rmdir(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(unwind_fp_follows_chain),
		cmocka_unit_test(unwind_fp_zero_return_ends),
		cmocka_unit_test(unwind_fp_rejects_self_loop),
		cmocka_unit_test(unwind_fp_rejects_backward_loop),
		cmocka_unit_test(unwind_fp_rejects_overlapping_record),
		cmocka_unit_test(unwind_fp_caps_huge_depth),
		cmocka_unit_test(unwind_fp_bounds_reads),
		cmocka_unit_test(unwind_fp_rejects_misaligned),
		cmocka_unit_test(unwind_fp_rejects_below_sp_and_wild),
		cmocka_unit_test(unwind_fp_stops_at_unmapped),
		cmocka_unit_test(unwind_fp_top_of_memory),
		cmocka_unit_test(unwind_read_errors_end_walk),
		cmocka_unit_test(unwind_fp_strips_aarch64_pac),
		cmocka_unit_test(unwind_fp_survives_garbage),
		cmocka_unit_test(cfi_x86_whole_chain),
		cmocka_unit_test(cfi_return_address_minus_one),
		cmocka_unit_test(cfi_falls_back_per_frame),
		cmocka_unit_test(cfi_zero_fp_at_leaf_is_noinfo),
		cmocka_unit_test(leaf_rule_recovers_caller),
		cmocka_unit_test(leaf_rule_refuses_non_calls),
		cmocka_unit_test(intr_frame_continues_walk),
		cmocka_unit_test(cfi_rejects_non_increasing_cfa),
		cmocka_unit_test(walk_sums_do_not_wrap),
		cmocka_unit_test(cfi_aarch64_leaf_in_lr),
		cmocka_unit_test(mode_parse),
		cmocka_unit_test(table_of_this_program),
		cmocka_unit_test(table_x86_eh_and_debug_frame),
		cmocka_unit_test(table_aarch64),
		cmocka_unit_test(table_aarch64_ra_in_register),
		cmocka_unit_test(table_hand_written_cfi),
		cmocka_unit_test(table_refuses_huge_register),
		cmocka_unit_test(space_never_opens_a_fifo),
		cmocka_unit_test(table_rows_equal_libdw),
		cmocka_unit_test(table_100k_row_fde_is_linear),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
