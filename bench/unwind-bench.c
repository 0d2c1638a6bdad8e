/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * bench/unwind-bench.c — figures for unwind/ (issue 10), printed, never
 * judged:
 *
 *   unwind-bench table FILE...   per file: table build time (best and
 *                                median of 9, wall and cpu), rows, bytes,
 *                                FDEs from .eh_frame / .debug_frame
 *   unwind-bench walk LIBC       cpu ns per frame of the CFI walk through real
 *                                rows of LIBC (a 64-frame stack made to
 *                                match them, served by the replay target
 *                                from one window: "once memory is read"),
 *                                and of the frame-pointer walk, for scale
 *
 * Trade-off: the walk runs against the replay target, so the cost of a
 * backend's read (a syscall, a packet, a foreign map) is left out on
 * purpose: that is what bench/unwind.sh's stopped-time figures measure.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "sampler/replay.h"
#include "unwind/unwind.h"

#define RUNS 9
#define FRAMES 64
#define STACK 0x7ff000000000ull
#define LIBC_AT 0x7f0000000000ull

static double now(clockid_t c)
{
	struct timespec ts;
	clock_gettime(c, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int cmp_d(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

static int table(const char *path)
{
	double wall[RUNS], cpu[RUNS];
	struct unwind_table *t = NULL;
	for (int i = 0; i < RUNS; i++) {
		struct uf_err err = { 0 };
		unwind_table_free(t);
		double w = now(CLOCK_MONOTONIC), c = now(CLOCK_PROCESS_CPUTIME_ID);
		t = unwind_table_open(path, &err);
		cpu[i] = now(CLOCK_PROCESS_CPUTIME_ID) - c;
		wall[i] = now(CLOCK_MONOTONIC) - w;
		if (!t) {
			printf("%s: %s\n", path, err.why);
			return 1;
		}
	}
	qsort(wall, RUNS, sizeof *wall, cmp_d);
	qsort(cpu, RUNS, sizeof *cpu, cmp_d);
	printf("table %-44s build best %6.2f ms, median %6.2f ms (cpu best %6.2f ms); "
	       "%u rows, %zu KiB; FDEs: %u .eh_frame, %u .debug_frame; %u expr rows\n",
	       path, wall[0] * 1e3, wall[RUNS / 2] * 1e3, cpu[0] * 1e3, t->nrows,
	       ((size_t)t->nrows * sizeof(struct unwind_row) + 1023) / 1024, t->nfde_eh,
	       t->nfde_debug, t->nexpr);
	unwind_table_free(t);
	return 0;
}

/* Picks FRAMES rows of `t` with CFA = rsp + off and RA at CFA - 8, and
 * lays out a stack where each frame returns into the next row's range. */
static int make_stack(const struct unwind_table *t, uint64_t *mem, size_t words, uint64_t *pcs)
{
	size_t k = 0;
	uint64_t sp = STACK;
	for (uint32_t i = 1; i + 1 < t->nrows && k < FRAMES; i += t->nrows / (FRAMES * 2)) {
		const struct unwind_row *r = &t->rows[i];
		if (r->cfa != UNWIND_CFA_SP || r->ra != UNWIND_RULE_OFFSET || r->cfa_off <= 8 ||
		    r->cfa_off > 256 || t->rows[i + 1].start - r->start < 2)
			continue;
		pcs[k++] = LIBC_AT + t->base + r->start + 1; /* as a return address: -1 is inside */
	}
	if (k < FRAMES)
		return -1;
	for (size_t f = 0; f < FRAMES; f++) {
		const struct unwind_row *r = unwind_table_find(t, pcs[f] - LIBC_AT - (f > 0));
		uint64_t cfa = sp + (uint64_t)(int64_t)r->cfa_off;
		size_t slot = (cfa + (uint64_t)(int64_t)r->ra_off - STACK) / 8;
		if (slot >= words)
			return -1;
		mem[slot] = f + 1 < FRAMES ? pcs[f + 1] : 0;
		sp = cfa;
	}
	return 0;
}

static double walk_ns(struct uf_target *tg, const struct unwind_space *s, enum unwind_mode m,
		      const struct uf_regs *regs, size_t max, size_t *n)
{
	uint64_t pcs[FRAMES + 1];
	struct uf_err err = { 0 };
	double best = 1e9;
	for (int rep = 0; rep < 7; rep++) {
		double a = now(CLOCK_THREAD_CPUTIME_ID);
		for (int i = 0; i < 20000; i++)
			unwind_walk(tg, 1, regs, s, m, pcs, max, n, NULL, &err);
		double ns = (now(CLOCK_THREAD_CPUTIME_ID) - a) / 20000 * 1e9;
		best = ns < best ? ns : best;
	}
	return best;
}

static int walk(const char *libc)
{
	struct uf_err err = { 0 };
	struct unwind_table *t = unwind_table_open(libc, &err);
	if (!t) {
		printf("%s: %s\n", libc, err.why);
		return 1;
	}
	size_t words = 2 * UNWIND_CHUNK / 8;
	uint64_t *mem = calloc(words, 8), pcs[FRAMES];
	if (make_stack(t, mem, words, pcs) < 0) {
		printf("walk: cannot build a %d-frame stack from %s\n", FRAMES, libc);
		return 1;
	}
	struct unwind_space *s = unwind_space_new();
	unwind_space_add_table(s, LIBC_AT, LIBC_AT + (1ull << 32), LIBC_AT, t);
	struct replay_target *r = replay_new();
	struct uf_target tg;
	replay_map(r, STACK, mem, words * 8);
	replay_target_init(&tg, r);
	r->stopped = 1;
	struct uf_regs regs = { .pc = pcs[0] - 1, .sp = STACK, .arch = UF_ARCH_X86_64 };
	size_t n1, n;
	/* two frames: the window is read; the rest is per-frame work */
	double one = walk_ns(&tg, s, UNWIND_CFI, &regs, 2, &n1);
	double all = walk_ns(&tg, s, UNWIND_CFI, &regs, FRAMES + 1, &n);
	/* frame pointers: the same number of records, one window */
	uint64_t *fpm = calloc(words, 8);
	for (size_t f = 0; f < FRAMES; f++) {
		fpm[2 * f] = f + 1 < FRAMES ? STACK + 16 * (f + 1) : 0;
		fpm[2 * f + 1] = pcs[f];
	}
	struct replay_target *r2 = replay_new();
	struct uf_target tg2;
	replay_map(r2, STACK, fpm, words * 8);
	replay_target_init(&tg2, r2);
	r2->stopped = 1;
	struct uf_regs fregs = { .pc = 1, .sp = STACK, .fp = STACK, .arch = UF_ARCH_X86_64 };
	size_t fn1, fn;
	double fone = walk_ns(&tg2, NULL, UNWIND_FP, &fregs, 2, &fn1);
	double fall = walk_ns(&tg2, NULL, UNWIND_FP, &fregs, FRAMES + 1, &fn);
	printf("walk  CFI through %u real rows of %s: %zu frames in %.0f ns cpu (window read "
	       "included); per frame once memory is read: %.1f ns\n",
	       t->nrows, libc, n, all, (all - one) / (double)(n - n1));
	printf("walk  frame pointers, same depth: %zu frames in %.0f ns; per frame %.1f ns\n", fn,
	       fall, (fall - fone) / (double)(fn - fn1));
	unwind_space_free(s);
	replay_free(r);
	replay_free(r2);
	free(mem);
	free(fpm);
	return 0;
}

int main(int argc, char **argv)
{
	int rc = 0;
	if (argc >= 3 && !strcmp(argv[1], "table")) {
		for (int i = 2; i < argc; i++)
			rc |= table(argv[i]);
		return rc;
	}
	if (argc == 3 && !strcmp(argv[1], "walk"))
		return walk(argv[2]);
	fprintf(stderr, "usage: unwind-bench table FILE... | walk LIBC\n");
	return 1;
}
