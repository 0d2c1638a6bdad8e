/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * tests/unit/test-loc.c — the source positions of trie nodes (fold/loc.c):
 * counting, the hottest-first order, the "loc" section of the embedded
 * block (round trip, with a time-order section before it, pruning, and
 * corrupt sections refused), each case ending with fold_trie_check().
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "fold/fold.h"
#include "render/render.h"

static uint32_t node(fold_trie *t, const char *a, const char *b)
{
	uint32_t n = fold_trie_child(t, FOLD_ROOT, fold_trie_intern(t, a, strlen(a)));
	return b ? fold_trie_child(t, n, fold_trie_intern(t, b, strlen(b))) : n;
}

static void add(fold_trie *t, uint32_t n, const char *pos, double c)
{
	assert_int_equal(fold_loc_add(t, n, fold_loc_intern(t, pos, strlen(pos)), c), 0);
}

/* main -> hot (7 samples: a.c:3 x5, a.c:4 x2), main -> cold (1: a.c:9);
 * main's call sites a.c:20 x7, a.c:21 x1. */
static fold_trie *sample_trie(int seq)
{
	fold_trie *t = fold_trie_new();
	assert_non_null(t);
	if (seq)
		fold_trie_keep_sequence(t);
	uint32_t m = node(t, "main", NULL), h = node(t, "main", "hot"), c = node(t, "main", "cold");
	assert_int_equal(fold_trie_add(t, h, 7), 0);
	assert_int_equal(fold_trie_add(t, c, 1), 0);
	add(t, h, "src/a.c:4", 2);
	add(t, h, "src/a.c:3", 3);
	add(t, h, "src/a.c:3", 2);
	add(t, c, "src/a.c:9", 1);
	add(t, m, "src/a.c:20", 7);
	add(t, m, "src/a.c:21", 1);
	assert_int_equal(fold_trie_finish(t), 0);
	return t;
}

/* "POS=COUNT,..." of a node, hottest first. */
static void top(const fold_trie *t, uint32_t n, char *out, size_t size)
{
	uint32_t locs[8];
	double cnt[8];
	uint32_t k = fold_loc_top(t, n, locs, cnt, 8);
	size_t o = 0;
	out[0] = 0;
	for (uint32_t i = 0; i < k && i < 8; i++) {
		size_t len;
		const char *s = fold_loc_str(t, locs[i], &len);
		o += (size_t)snprintf(out + o, size - o, "%s%.*s=%g", i ? "," : "", (int)len, s, cnt[i]);
	}
}

static char *embed(const fold_trie *t, size_t budget)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	struct fold_embed_info info;
	assert_int_equal(fold_embed_write(t, f, budget, &info), 0);
	fclose(f);
	return buf;
}

static void fold_loc_counts_hottest_first(void **state)
{
	(void)state;
	fold_trie *t = sample_trie(0);
	char s[256];
	top(t, node(t, "main", "hot"), s, sizeof s);
	assert_string_equal(s, "src/a.c:3=5,src/a.c:4=2");
	top(t, node(t, "main", NULL), s, sizeof s);
	assert_string_equal(s, "src/a.c:20=7,src/a.c:21=1");
	uint32_t l[1];
	double c[1];
	assert_int_equal(fold_loc_top(t, node(t, "main", "hot"), l, c, 1), 2); /* all it has */
	assert_int_equal(fold_loc_top(t, FOLD_ROOT, l, c, 1), 0);
	/* ties: by bytes, whatever the insertion order */
	uint32_t o = node(t, "other", NULL);
	add(t, o, "b.c:2", 1);
	add(t, o, "a.c:1", 1);
	top(t, o, s, sizeof s);
	assert_string_equal(s, "a.c:1=1,b.c:2=1");
	assert_int_equal(fold_loc_intern(t, "", 0), FOLD_NONE);
	assert_int_equal(fold_trie_check(t), 0);
	fold_trie_free(t);
}

static void fold_loc_embed_round_trip(void **state)
{
	(void)state;
	for (int seq = 0; seq < 2; seq++) {
		fold_trie *t = sample_trie(seq);
		char *a = embed(t, 0);
		assert_non_null(strstr(a, "\npos 10 5\n")); /* 5 strings + 5 records */
		if (seq) /* the time order first, the positions after it */
			assert_true(strstr(a, "\nseq ") < strstr(a, "\npos "));
		fold_trie *u = fold_trie_new();
		if (seq)
			fold_trie_keep_sequence(u);
		struct uf_err err = { 0 };
		assert_int_equal(fold_embed_read(u, a, strlen(a), &err), 0);
		assert_int_equal(fold_trie_finish(u), 0);
		char s[256];
		top(u, node(u, "main", "hot"), s, sizeof s);
		assert_string_equal(s, "src/a.c:3=5,src/a.c:4=2");
		top(u, node(u, "main", "cold"), s, sizeof s);
		assert_string_equal(s, "src/a.c:9=1");
		char *b = embed(u, 0); /* write, read, write: the same bytes */
		assert_string_equal(a, b);
		/* read into a trie holding the same profile: counts add up */
		assert_int_equal(fold_embed_read(u, a, strlen(a), &err), 0);
		top(u, node(u, "main", NULL), s, sizeof s);
		assert_string_equal(s, "src/a.c:20=14,src/a.c:21=2");
		assert_int_equal(fold_trie_check(u), 0);
		free(a);
		free(b);
		fold_trie_free(t);
		fold_trie_free(u);
	}
}

static void fold_loc_pruned_embed_keeps_kept_nodes(void **state)
{
	(void)state;
	fold_trie *t = fold_trie_new();
	uint32_t m = node(t, "main", NULL);
	add(t, m, "m.c:1", 1000);
	char name[32];
	for (int i = 0; i < 400; i++) { /* many small leaves to prune */
		snprintf(name, sizeof name, "leaf%03d", i);
		uint32_t n = node(t, "main", name);
		assert_int_equal(fold_trie_add(t, n, i == 0 ? 601 : 1), 0);
		snprintf(name, sizeof name, "l%03d.c:%d", i, i + 1);
		add(t, n, name, i == 0 ? 601 : 1);
	}
	assert_int_equal(fold_trie_finish(t), 0);
	char *a = embed(t, 600);
	fold_trie *u = fold_trie_new();
	struct uf_err err = { 0 };
	assert_int_equal(fold_embed_read(u, a, strlen(a), &err), 0);
	assert_int_equal(fold_trie_finish(u), 0);
	assert_true(u->nnodes < t->nnodes);
	char s[256];
	top(u, node(u, "main", "leaf000"), s, sizeof s);
	assert_string_equal(s, "l000.c:1=601");
	top(u, node(u, "main", NULL), s, sizeof s);
	assert_string_equal(s, "m.c:1=1000"); /* a kept node's positions stay whole */
	assert_null(strstr(a, "l399.c")); /* a pruned node's are not written */
	assert_int_equal(fold_trie_check(u), 0);
	free(a);
	fold_trie_free(t);
	fold_trie_free(u);
}

static void fold_loc_rejects_corrupt_sections(void **state)
{
	(void)state;
	static const char *bad[] = {
		"loc 1 1\na.c:1\n5 0 1\nend\n",     /* node index out of range */
		"loc 1 1\na.c:1\n1 3 1\nend\n",     /* string index out of range */
		"loc 1 1\na.c:1\n1 0 x\nend\n",     /* count not a number */
		"loc 1 1\na.c:1\n1 0 -1\nend\n",    /* negative */
		"loc 1 1\na.c:1\n1 0 1\n",          /* no end */
		"loc 1 1\na%zz:1\n1 0 1\nend\n",    /* bad escape */
		"loc 1 1\na%2\n1 0 1\nend\n",       /* short escape */
		"loc 99999 1\na.c:1\n",             /* header beyond the text */
		"loc 1 2\na.c:1\n1 0 1\nend\n",     /* fewer records than said */
		"loc 1\n",                          /* short header */
		"pos 2 1\na.c:1\n5 0 1\nend\n",      /* tagged: node index out of range */
		"pos 1 2\na.c:1\nend\n",            /* tagged: more strings than lines */
		"pos 3 1\na.c:1\n1 0 1\nend\n",      /* tagged: fewer lines than said */
		"future 1\n",                       /* an unknown section cut short */
		"future 1\nx\n",                    /* an unknown section without its end */
		"seq 1\n0 1\nend\nseq 1\n0 1\nend\n", /* one section twice */
		"Bad 1\nx\nend\n",                  /* not a section header */
		"future 1 7\nx\nend\n",              /* a later section we do not know: skipped */
	};
	const char *head = "uf-trie/1 2 2 0 0\n\nf\n0 0 0\n1 1 3\nend\n";
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		char text[512];
		snprintf(text, sizeof text, "%s%s", head, bad[i]);
		fold_trie *u = fold_trie_new();
		struct uf_err err = { 0 };
		int rc = fold_embed_read(u, text, strlen(text), &err);
		if (i == sizeof bad / sizeof bad[0] - 1)
			assert_int_equal(rc, 0);
		else if (rc != -EINVAL)
			fail_msg("case %zu: rc %d", i, rc);
		fold_trie_free(u);
	}
	/* a good one, and nothing after "end" at all */
	char text[512];
	static const char *good[] = {
		"loc 1 1\na%20b.c:1\n1 0 3\nend\n",                   /* as older writers wrote it */
		"pos 2 1\na%20b.c:1\n1 0 3\nend\n",                   /* tagged */
		"zzz 1\nloc 9 9\nend\npos 2 1\na%20b.c:1\n1 0 3\nend\nafter 0\nend\n", /* unknown around it */
	};
	for (size_t i = 0; i < sizeof good / sizeof good[0]; i++) {
		snprintf(text, sizeof text, "%s%s", head, good[i]);
		fold_trie *u = fold_trie_new();
		struct uf_err err = { 0 };
		assert_int_equal(fold_embed_read(u, text, strlen(text), &err), 0);
		assert_int_equal(fold_trie_finish(u), 0);
		char s[64];
		top(u, 1, s, sizeof s);
		assert_string_equal(s, "a b.c:1=3");
		assert_int_equal(fold_trie_check(u), 0);
		fold_trie_free(u);
	}
}

/* The tooltip's source line: the three hottest with shares of the node's
 * samples, base names, "+N more", hostile bytes escaped; none on a node
 * without positions and none on the root. */
static void fold_loc_tooltip_line(void **state)
{
	(void)state;
	fold_trie *t = fold_trie_new();
	uint32_t h = node(t, "main", "hot"), m = node(t, "main", NULL);
	assert_int_equal(fold_trie_add(t, h, 8), 0);
	assert_int_equal(fold_trie_add(t, node(t, "other", NULL), 2), 0);
	add(t, h, "/src/dir/a.c:3", 4);
	add(t, h, "x/we<i&rd\"\x01\xff.c:9", 2);
	add(t, h, "b.c:1", 1);
	add(t, h, "b.c:2", 1);
	add(t, m, "/src/main.c:20", 8);
	assert_int_equal(fold_trie_finish(t), 0);
	struct render_opts o;
	render_opts_init(&o);
	o.no_script = 1;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	struct render_report rep;
	struct uf_err err = { 0 };
	assert_int_equal(render_svg(t, &o, f, &rep, &err), 0);
	fclose(f);
	assert_non_null(strstr(buf, "<title>hot (8 samples, 80.00%)\nsource: a.c:3 (50%), "
				    "we&lt;i&amp;rd&quot;\\x01\\xFF.c:9 (25%), b.c:1 (12%), +1 more</title>"));
	assert_non_null(strstr(buf, "<title>main (8 samples, 80.00%)\nsource: main.c:20 (100%)</title>"));
	assert_non_null(strstr(buf, "<title>other (2 samples, 20.00%)</title>"));
	assert_non_null(strstr(buf, "<title>all (10 samples, 100%)</title>"));
	free(buf);
	fold_trie_free(t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(fold_loc_counts_hottest_first),
		cmocka_unit_test(fold_loc_embed_round_trip),
		cmocka_unit_test(fold_loc_pruned_embed_keeps_kept_nodes),
		cmocka_unit_test(fold_loc_rejects_corrupt_sections),
		cmocka_unit_test(fold_loc_tooltip_line),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
