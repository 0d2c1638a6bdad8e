/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * tests/unit/test-sandwich.c — fold/sandwich.c: the callers and callees of
 * one function, as folded text, against hand-computed expectations
 * (recursion counted once per sample, annotated names matched, both
 * counts of a differential kept, the callers' node cap).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <errno.h>

#include "fold/fold.h"

static fold_trie *parse(const char *text)
{
	fold_trie *t = fold_trie_new();
	assert_non_null(t);
	struct fold_read_opts o = { .label = "mem" };
	struct uf_err err = { 0 };
	struct fold_read_stats st = { 0 };
	assert_int_equal(fold_read_folded_mem(t, text, strlen(text), &o, &st, &err), 0);
	return t;
}

/* The half as sorted folded text (owned). */
static char *half_text(const char *input, const char *name, enum fold_half half)
{
	fold_trie *t = parse(input), *h = NULL;
	assert_int_equal(fold_sandwich(t, name, strlen(name), half, &h), 0);
	assert_int_equal(fold_trie_finish(h), 0);
	assert_int_equal(fold_trie_check(h), 0);
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	assert_int_equal(fold_write_folded(h, f), 0);
	fclose(f);
	fold_trie_free(h);
	fold_trie_free(t);
	return buf;
}

static const char *PROFILE =
	"main;a;memcpy 3\n"
	"main;b;memcpy 2\n"
	"main;b;c;memcpy 1\n"
	"main;a 4\n"
	"other;memcpy_[k] 5\n";

static void callers_merge_every_call_site(void **state)
{
	(void)state;
	char *s = half_text(PROFILE, "memcpy", FOLD_CALLERS);
	assert_string_equal(s, "memcpy;a;main 3\n"
			       "memcpy;b;main 2\n"
			       "memcpy;c;b;main 1\n"
			       "memcpy;other 5\n");
	free(s);
}

static void callees_start_at_the_function(void **state)
{
	(void)state;
	char *s = half_text("main;f;g;h 2\nmain;f 1\nx;f;g 4\nmain;g 7\n", "f", FOLD_CALLEES);
	assert_string_equal(s, "f 1\nf;g 4\nf;g;h 2\n");
	free(s);
}

/* f -> g -> f -> h: one sample, counted once, at the outermost f. */
static void recursion_counts_each_sample_once(void **state)
{
	(void)state;
	const char *rec = "main;f;g;f;h 10\nmain;f 1\n";
	char *callees = half_text(rec, "f", FOLD_CALLEES);
	assert_string_equal(callees, "f 1\nf;g;f;h 10\n");
	char *callers = half_text(rec, "f", FOLD_CALLERS);
	assert_string_equal(callers, "f;main 11\n");
	free(callees);
	free(callers);
}

static void a_missing_function_is_enoent(void **state)
{
	(void)state;
	fold_trie *t = parse(PROFILE), *h = NULL;
	assert_int_equal(fold_sandwich(t, "memcp", 5, FOLD_CALLERS, &h), -ENOENT);
	assert_null(h);
	fold_trie_free(t);
}

static void a_differential_keeps_both_counts(void **state)
{
	(void)state;
	char *s = half_text("main;a;f 3 5\nmain;b;f 2 0\nmain 1 1\n", "f", FOLD_CALLERS);
	assert_string_equal(s, "f;a;main 3 5\nf;b;main 2 0\n");
	free(s);
}

/* The callers of a chain with f below every level form a triangle: the
 * cap stops it at 16 x nodes + 1M, well before memory runs out. */
static void the_callers_triangle_is_capped(void **state)
{
	(void)state;
	fold_trie *t = fold_trie_new();
	assert_non_null(t);
	uint32_t f = fold_trie_intern(t, "f", 1), node = FOLD_ROOT;
	char name[16];
	for (int d = 0; d < FOLD_MAX_DEPTH; d++) {
		int n = snprintf(name, sizeof name, "c%d", d);
		node = fold_trie_child(t, node, fold_trie_intern(t, name, (size_t)n));
		assert_int_equal(fold_trie_add(t, fold_trie_child(t, node, f), 1), 0);
	}
	fold_trie *h = NULL;
	/* 16k nodes -> ~33M-node triangle: refused */
	assert_int_equal(fold_sandwich(t, "f", 1, FOLD_CALLERS, &h), -E2BIG);
	assert_null(h);
	/* the callees stay as small as the source */
	assert_int_equal(fold_sandwich(t, "f", 1, FOLD_CALLEES, &h), 0);
	assert_int_equal(h->nnodes, 2);
	fold_trie_free(h);
	fold_trie_free(t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(callers_merge_every_call_site),
		cmocka_unit_test(callees_start_at_the_function),
		cmocka_unit_test(recursion_counts_each_sample_once),
		cmocka_unit_test(a_missing_function_is_enoent),
		cmocka_unit_test(a_differential_keeps_both_counts),
		cmocka_unit_test(the_callers_triangle_is_capped),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
