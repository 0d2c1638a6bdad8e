/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * examples/ukguest/main.c — the application of the Unikraft-like guest:
 * a loop that writes an arithmetic expression of random nesting depth,
 * measures it (strlen: libmusl, C), evaluates it (me_eval: libminexpr,
 * recursive, its frames clearing and filling scratch through the
 * assembly memset/memcpy of libmusl), and checksums it (the lib-musl glue
 * in workdir/libs/musl/).
 *
 * Built like a Unikraft application without frame pointers (Makefile): so
 * the profile exercises the walker on frameless leaves without FDEs
 * (memcpy, memset), on stacks whose depth changes by up to ~10 KiB between
 * samples, and the library view on Unikraft's fetched-library layout.
 * The boot code is examples/qemu-guest/boot.S (it calls kmain); the
 * banner "uniprof-flame guest: ukguest" tells tests/gdb/t-qemu.sh the
 * kernel runs its loop.
 *
 * Invariants:
 *  1. uf_rounds counts completed rounds (read through the gdbstub).
 *  2. Serial output happens once, before the loop.
 */
#include <stddef.h>
#include <stdint.h>

#include "minexpr.h"

#define MAX_DEPTH 24
#define NOINLINE __attribute__((noinline))

void *memcpy(void *d, const void *s, size_t n);
size_t strlen(const char *s);
unsigned long uk_musl_checksum(const unsigned char *p, size_t n);
void kmain(const void *mbi);

volatile uint64_t uf_rounds;
volatile unsigned long uf_sink;
static uint64_t seed = 88172645463325252ull;

static inline void outb(uint16_t port, uint8_t v)
{
	__asm__ volatile("outb %0, %1" : : "a"(v), "Nd"(port));
}

static uint64_t next_random(void)
{
	seed ^= seed << 13;
	seed ^= seed >> 7;
	seed ^= seed << 17;
	return seed;
}

/* Appends s to *p (through the C library's memcpy, as an app would). */
static char *put(char *p, const char *s)
{
	size_t n = strlen(s);
	memcpy(p, s, n);
	return p + n;
}

/* "(a+(b*(...)*c)%d+e)": `depth` levels, two literals each. */
NOINLINE void app_write_expr(char *buf, unsigned depth)
{
	static const char *const lits[] = { "7", "13", "101", "4093", "65521", "3" };
	char *p = buf;
	for (unsigned i = 0; i < depth; i++) {
		p = put(p, "(");
		p = put(p, lits[next_random() % 6]);
		p = put(p, i & 1 ? "*" : "+");
	}
	p = put(p, "1");
	for (unsigned i = 0; i < depth; i++) {
		p = put(p, i & 1 ? "%" : "-");
		p = put(p, lits[next_random() % 6]);
		p = put(p, ")");
	}
	*p = 0;
}

/* The app's own work on a result: a few hundred mixing steps. */
NOINLINE void app_mix(long v, unsigned long digest)
{
	unsigned long h = (unsigned long)v ^ digest;
	for (int i = 0; i < 3000; i++)
		h = h * 6364136223846793005ul + 1442695040888963407ul;
	uf_sink = h;
}

NOINLINE void app_round(void)
{
	static char buf[MAX_DEPTH * 16 + 8];
	unsigned long digest;
	app_write_expr(buf, 1 + (unsigned)(next_random() % MAX_DEPTH));
	long v = me_eval(buf, &digest);
	app_mix(v, digest ^ uk_musl_checksum((const unsigned char *)buf, strlen(buf)));
	__asm__ volatile("" ::: "memory");
}

void kmain(const void *mbi)
{
	(void)mbi;
	for (const char *s = "uniprof-flame guest: ukguest\n"; *s; s++)
		outb(0x3f8, (uint8_t)*s);
	for (;;) {
		app_round();
		uf_rounds++;
	}
}
