/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * tests/unit/test-embed-time.c — the embedded block's "time" section
 * (fold/embed/embed.c, item 5; issue 30's time view): written from the
 * sequence's times and states, delta-coded in whole microseconds (exact
 * across an out-of-order sample and an unknown time), read back by
 * fold_embed_read so a --time cut of the block equals the cut of the
 * samples it came from, and never written for a profile without times.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "fold/embed/embed.h"

#define MS 1000000ull

static void add(fold_trie *t, const char *leaf, uint64_t at, enum uf_runstate st)
{
	assert_true(fold_trie_sample_keeps(t, at, st, 1));
	uint32_t node = fold_trie_child(t, FOLD_ROOT, fold_trie_intern(t, "main", 4));
	node = fold_trie_child(t, node, fold_trie_intern(t, leaf, strlen(leaf)));
	node = fold_trie_state_leaf(t, node, st);
	assert_int_equal(fold_trie_add_sample(t, node, 1, at, st), 0);
}

/* The block's text (plain, not packed) of trie t. */
static char *block(fold_trie *t, size_t *len)
{
	assert_int_equal(fold_trie_finish(t), 0);
	char *buf = NULL;
	FILE *f = open_memstream(&buf, len);
	struct fold_embed_info info;
	assert_int_equal(fold_embed_write(t, f, 0, &info), 0);
	fclose(f);
	return buf;
}

/* The leaf's self count in the block read back with cut c. */
static double cut_count(const char *text, size_t len, const struct fold_cut *c, const char *leaf, const char *wait)
{
	fold_trie *t = fold_trie_new();
	fold_trie_set_cut(t, c);
	struct uf_err err = { 0 };
	assert_int_equal(fold_embed_read(t, text, len, &err), 0);
	assert_int_equal(fold_trie_finish(t), 0);
	uint32_t n = fold_trie_find(t, FOLD_ROOT, fold_trie_intern(t, "main", 4));
	n = n == FOLD_NONE ? n : fold_trie_find(t, n, fold_trie_intern(t, leaf, strlen(leaf)));
	if (n != FOLD_NONE && wait)
		n = fold_trie_find(t, n, fold_trie_intern(t, wait, strlen(wait)));
	double v = n == FOLD_NONE ? 0 : t->self[n];
	fold_trie_free(t);
	return v;
}

static void time_section_round_trip(void **state)
{
	fold_trie *t = fold_trie_new();
	fold_trie_keep_when(t);
	/* t0 = 1000 ms; a then b; one sample out of order; one without time */
	add(t, "a", 1000 * MS, UF_RS_RUNNING);
	add(t, "a", 1010 * MS + 999, UF_RS_RUNNING);   /* floored to 10.000 ms */
	add(t, "w", 1500 * MS, UF_RS_BLOCKED);
	add(t, "w", 1400 * MS, UF_RS_BLOCKED);         /* out of order */
	add(t, "b", FOLD_T_UNKNOWN, UF_RS_RUNNING);
	add(t, "b", 2000 * MS, UF_RS_RUNNABLE);
	size_t len;
	char *text = block(t, &len);
	const char *sec = strstr(text, "\ntime 6\n");
	assert_non_null(sec);
	assert_null(strstr(text, "\nseq ")); /* the order is in "time" */
	/* deltas in µs: 0, 10000, 490000, -100000, unknown, 600000 */
	assert_non_null(strstr(sec, "\n0 "));
	assert_non_null(strstr(sec, "\n10000 "));
	assert_non_null(strstr(sec, "\n-100000 "));
	assert_non_null(strstr(sec, "\n- "));
	assert_non_null(strstr(sec, "\n600000 "));
	struct fold_cut first = { .timed = 1, .from_ns = 0, .to_ns = 500 * MS };
	struct fold_cut later = { .timed = 1, .from_ns = 400 * MS, .to_ns = 1001 * MS };
	struct fold_cut waits = { .states = UF_RS_SET_WAITING };
	assert_true(cut_count(text, len, &first, "a", NULL) == 2);
	assert_true(cut_count(text, len, &first, "w", "[blocked]") == 1); /* the one at 400 ms */
	assert_true(cut_count(text, len, &later, "w", "[blocked]") == 2);
	assert_true(cut_count(text, len, &later, "b", "[runnable]") == 1);
	assert_true(cut_count(text, len, &later, "b", NULL) == 0); /* no time: in no range */
	assert_true(cut_count(text, len, &waits, "w", "[blocked]") == 2);
	assert_true(cut_count(text, len, &waits, "a", NULL) == 0);
	free(text);
	fold_trie_free(t);
}

static void no_times_no_section(void **state)
{
	fold_trie *t = fold_trie_new();
	fold_trie_keep_when(t);
	fold_trie_add(t, fold_trie_child(t, FOLD_ROOT, fold_trie_intern(t, "x", 1)), 5);
	size_t len;
	char *text = block(t, &len);
	assert_null(strstr(text, "\ntime "));
	/* and a cut of it says it has no times (nothing checked) */
	fold_trie *u = fold_trie_new();
	fold_trie_set_cut(u, &(struct fold_cut){ .timed = 1, .from_ns = 0, .to_ns = MS });
	struct uf_err err = { 0 };
	assert_int_equal(fold_embed_read(u, text, len, &err), 0);
	assert_int_equal(u->samples_checked, 0);
	fold_trie_free(u);
	free(text);
	fold_trie_free(t);
}

static void corrupt_time_section_is_refused(void **state)
{
	fold_trie *t = fold_trie_new();
	fold_trie_keep_when(t);
	add(t, "a", 5 * MS, UF_RS_RUNNING);
	size_t len;
	char *text = block(t, &len);
	char *sec = strstr(text, "\ntime 1\n");
	assert_non_null(sec);
	sec[8] = 'x'; /* the record's delta */
	fold_trie *u = fold_trie_new();
	fold_trie_set_cut(u, &(struct fold_cut){ .timed = 1, .from_ns = 0, .to_ns = MS });
	struct uf_err err = { 0 };
	assert_int_equal(fold_embed_read(u, text, len, &err), -EINVAL);
	fold_trie_free(u);
	free(text);
	fold_trie_free(t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(time_section_round_trip),
		cmocka_unit_test(no_times_no_section),
		cmocka_unit_test(corrupt_time_section_is_refused),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
