/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * tests/fuzz/fuzz-raw.c — uniprof's raw stack-trace reader
 * (fold/read-raw.c), with and without a resolver.
 *
 * Input: a raw trace (the resolver's behaviour is keyed on the bytes, so
 * the input stays plain text).  Oracles: the trie passes
 * fold_trie_check(); the counts add up: stacks read + empty ones never
 * exceed the lines, and the trie's total is finite.
 */
#include <math.h>

#include "tests/fuzz/fuzz.h"

#include "fold/fold.h"
#include "fold/in/in.h"

/* A resolver that answers like a symbol table would and sometimes does
 * not: names may hold the separator, be empty, or be unknown. */
static const char *resolve(void *ctx, uint64_t addr, int is_ret, size_t *len)
{
	static const char *names[] = { "main", "f;g", "", "[k]", "a b 3" };
	if (addr % 7 == 0)
		return NULL;
	const char *n = names[(addr + (uint64_t)is_ret) % 5];
	*len = strlen(n);
	return n;
}

static int fuzz_input(const uint8_t *data, size_t size)
{
	fold_trie *t = fold_trie_new();
	struct fold_read_opts o = { .label = "fuzz", .reverse = size % 3 == 1 };
	struct fold_read_stats st = { 0 };
	struct fold_raw_counts cnt = { 0 };
	struct uf_err err = { 0 };
	if (!t)
		abort();
	int rc = fold_raw_read_mem(t, (const char *)data, size, size % 2 ? resolve : NULL, NULL,
				   &o, &st, &cnt, &err);
	if (rc == 0) {
		if (fold_trie_check(t) != 0)
			fuzz_fail("fold_trie_check failed after reading a raw trace");
		if (cnt.stacks + cnt.empty > st.lines + 1)
			fuzz_fail("%llu stacks from %llu lines", (unsigned long long)cnt.stacks,
				  (unsigned long long)st.lines);
		if (fold_trie_finish(t) == 0 && !isfinite(t->total[FOLD_ROOT]))
			fuzz_fail("total is not finite");
	}
	fold_trie_free(t);
	return 0;
}

FUZZ_READER(fuzz_input)
