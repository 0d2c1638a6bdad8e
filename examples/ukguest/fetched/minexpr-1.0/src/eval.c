/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * examples/ukguest/fetched/minexpr-1.0/src/eval.c — "minexpr", the C
 * library the guest application uses: a recursive-descent evaluator of
 * integer expressions (+ - * % and parentheses), built the way Unikraft
 * builds a fetched library (the Makefile copies it to
 * workdir/build/libminexpr/origin/minexpr-1.0/ and compiles it there
 * through a relative path, so DWARF names it "src/eval.c" in that
 * directory).
 *
 * Design: one C frame per grammar level (me_expr -> me_term -> me_factor
 * -> me_expr ...), each factor with a scratch buffer that it clears and
 * fills through the C library's memset/memcpy (assembly leaves without
 * CFI), so the stack depth follows the nesting of the input: the guest's
 * inputs vary it from one round to the next by up to ~10 KiB.
 */
#include <stddef.h>

#include "minexpr.h"

void *memcpy(void *d, const void *s, size_t n);
void *memset(void *d, int c, size_t n);

#define NOINLINE __attribute__((noinline))

static long me_expr(struct me_state *st);

/* The value of a decimal literal, mixed through a few hash rounds (the
 * library's "real work" at each leaf of the expression). */
NOINLINE long me_number(struct me_state *st)
{
	long v = 0;
	while (*st->p >= '0' && *st->p <= '9')
		v = v * 10 + (*st->p++ - '0');
	unsigned long h = (unsigned long)v;
	for (int i = 0; i < 600; i++)
		h = (h ^ (h >> 13)) * 0x9e3779b97f4a7c15ul + (unsigned long)i;
	st->digest ^= h;
	return v;
}

NOINLINE long me_factor(struct me_state *st)
{
	char scratch[ME_SCRATCH];
	size_t n = ME_SCRATCH - (st->depth & 63);
	memset(scratch, st->depth & 0x7f, n);
	memcpy(scratch, st->p, n / 2);
	st->digest += (unsigned char)scratch[n / 3];
	if (*st->p != '(')
		return me_number(st);
	st->p++;
	st->depth++;
	long v = me_expr(st);
	st->depth--;
	if (*st->p == ')')
		st->p++;
	__asm__ volatile("" ::: "memory");   /* keep the calls calls, not jumps */
	return v;
}

NOINLINE long me_term(struct me_state *st)
{
	long v = me_factor(st);
	while (*st->p == '*' || *st->p == '%') {
		char op = *st->p++;
		long r = me_factor(st);
		v = op == '*' ? v * r : (r ? v % r : v);
	}
	__asm__ volatile("" ::: "memory");
	return v;
}

NOINLINE static long me_expr(struct me_state *st)
{
	long v = me_term(st);
	while (*st->p == '+' || *st->p == '-') {
		char op = *st->p++;
		long r = me_term(st);
		v = op == '+' ? v + r : v - r;
	}
	__asm__ volatile("" ::: "memory");
	return v;
}

long me_eval(const char *text, unsigned long *digest)
{
	struct me_state st = { .p = text, .depth = 0, .digest = 0 };
	long v = me_expr(&st);
	*digest = st.digest;
	__asm__ volatile("" ::: "memory");
	return v;
}
