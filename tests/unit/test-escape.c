/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * tests/unit/test-escape.c — the folded format's name escape
 * (fold/name-escape.c) and the writer's round trip (write-folded.c):
 * for names of any bytes, write -> read gives the same trie.  Random
 * tries come from a fixed seed, so every run tests the same cases.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "fold/fold.h"

static uint64_t rng = 0x9e3779b97f4a7c15ull;
static uint32_t rnd(uint32_t n)
{
	rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
	return (uint32_t)(rng % n);
}

static void escape_examples(void **state)
{
	char out[64];
	size_t n = fold_name_escape(out, "a\nb;c\\x41\\d\\x", 13);
	assert_int_equal(n, 22);
	assert_memory_equal(out, "a\\x0ab\\x3bc\\x5cx41\\d\\x", n);
	char back[64];
	assert_int_equal(fold_name_unescape(back, out, n), 13);
	assert_memory_equal(back, "a\nb;c\\x41\\d\\x", 13);
	assert_int_equal(fold_name_needs_escape("plain name<T>::f()", 18), 0);
	assert_int_equal(fold_name_needs_escape("\\xZZ \\x4", 8), 0);
	assert_int_equal(fold_name_needs_escape("\\xfF", 4), 1);
	assert_int_equal(fold_name_leaf_ambiguous("x 5", 3), 1);
	assert_int_equal(fold_name_leaf_ambiguous("x\t5.0", 5), 1);
	assert_int_equal(fold_name_leaf_ambiguous("v1.5", 4), 0);
	assert_int_equal(fold_name_leaf_ambiguous("5", 1), 0);
	assert_int_equal(fold_name_leaf_ambiguous("x 5a", 4), 0);
}

/* Invariant 1 of name-escape.c on random byte strings drawn mostly from
 * the bytes that matter (\n ; \ x hex digits). */
static void escape_round_trip_random(void **state)
{
	static const char hot[] = "\n;\\x0a5cF ";
	char s[32], e[128], d[128];
	for (int iter = 0; iter < 200000; iter++) {
		size_t len = rnd(12);
		for (size_t i = 0; i < len; i++)
			s[i] = rnd(4) ? hot[rnd(sizeof hot - 1)] : (char)rnd(256);
		size_t el = fold_name_escape(e, s, len);
		assert_true(el <= 4 * len);
		assert_null(memchr(e, '\n', el));
		assert_null(memchr(e, ';', el));
		assert_int_equal(fold_name_needs_escape(s, len), el != len || memcmp(e, s, len) != 0);
		size_t dl = fold_name_unescape(d, e, el);
		assert_int_equal(dl, len);
		assert_memory_equal(d, s, len);
	}
}

static char *write_text(const fold_trie *t, size_t *len, int *rc)
{
	char *buf = NULL;
	FILE *f = open_memstream(&buf, len);
	*rc = fold_write_folded(t, f);
	fclose(f);
	return buf;
}

/* Random tries whose names hold any byte (empty names only inside a
 * stack, where folded text can carry them): written, read back, written
 * again — the same text, and the same trie shape. */
static void writer_round_trip_any_bytes(void **state)
{
	for (int round = 0; round < 300; round++) {
		fold_trie *t = fold_trie_new();
		assert_non_null(t);
		int diff = round % 5 == 4;
		for (int line = 0; line < 20; line++) {
			uint32_t node = FOLD_ROOT, depth = 1 + rnd(5);
			for (uint32_t k = 0; k < depth; k++) {
				char name[8];
				size_t len = rnd(6) + (k + 1 == depth);
				for (size_t i = 0; i < len; i++)
					name[i] = rnd(3) ? "\n;\\x4 9."[rnd(8)] : (char)rnd(256);
				node = fold_trie_child(t, node, fold_trie_intern(t, name, len));
				assert_int_not_equal(node, FOLD_NONE);
			}
			double c = rnd(4) ? rnd(1000) + 1 : rnd(1000) / 8.0 + 0.125;
			assert_int_equal(diff ? fold_trie_add2(t, node, rnd(7), c) : fold_trie_add(t, node, c), 0);
		}
		assert_int_equal(fold_trie_finish(t), 0);
		size_t n1, n2;
		int rc;
		char *a = write_text(t, &n1, &rc);
		assert_int_equal(rc, 0);
		fold_trie *u = fold_trie_new();
		struct fold_read_opts o = { .label = "mem" };
		struct fold_read_stats st = { 0 };
		struct uf_err err = { 0 };
		assert_int_equal(fold_read_folded_mem(u, a, n1, &o, &st, &err), 0);
		assert_int_equal(st.bad, 0);
		assert_int_equal(fold_trie_finish(u), 0);
		assert_int_equal(fold_trie_is_diff(u), diff);
		assert_int_equal(u->nnodes, t->nnodes);
		char *b = write_text(u, &n2, &rc);
		assert_int_equal(rc, 0);
		assert_int_equal(n1, n2);
		assert_memory_equal(a, b, n1);
		free(a);
		free(b);
		fold_trie_free(t);
		fold_trie_free(u);
	}
}

/* What folded text cannot carry is refused, never written changed. */
static void writer_refuses_what_cannot_round_trip(void **state)
{
	fold_trie *t = fold_trie_new();
	uint32_t a = fold_trie_child(t, FOLD_ROOT, fold_trie_intern(t, "a", 1));
	uint32_t e = fold_trie_child(t, a, fold_trie_intern(t, "", 0));
	assert_int_equal(fold_trie_add(t, e, 3), 0);
	assert_int_equal(fold_trie_finish(t), 0);
	size_t n;
	int rc;
	free(write_text(t, &n, &rc));
	assert_int_equal(rc, -EDOM);
	fold_trie_free(t);

	t = fold_trie_new();
	a = fold_trie_child(t, FOLD_ROOT, fold_trie_intern(t, "a", 1));
	assert_int_equal(fold_trie_add(t, a, 1e70), 0);
	assert_int_equal(fold_trie_finish(t), 0);
	free(write_text(t, &n, &rc));
	assert_int_equal(rc, -ERANGE);
	fold_trie_free(t);
}

static void format_count_shortest_and_capped(void **state)
{
	char b[64];
	assert_int_equal(fold_format_count(b, sizeof b, 1e62), 63);
	assert_string_equal(b + 60, "000");
	assert_int_equal(b[0], '1');
	assert_true(fold_format_count(b, sizeof b, 1e63) < 0);
	assert_int_equal(fold_format_count(b, sizeof b, 1e-40), 42);
	assert_true(fold_format_count(b, sizeof b, 1e-70) < 0);
	assert_int_equal(fold_format_count(b, sizeof b, 2.5), 3);
	assert_string_equal(b, "2.5");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(escape_examples),
		cmocka_unit_test(escape_round_trip_random),
		cmocka_unit_test(writer_round_trip_any_bytes),
		cmocka_unit_test(writer_refuses_what_cannot_round_trip),
		cmocka_unit_test(format_count_shortest_and_capped),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
