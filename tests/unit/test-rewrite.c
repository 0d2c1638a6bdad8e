/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * tests/unit/test-rewrite.c — fold/model/rewrite.c: the three views that
 * rebuild a trie (--by=lib, --inline, --colors chain), each as folded
 * text against hand-computed expectations (flamegraph.pl's chain rule as
 * its header states it), plus rewrite.c's invariants: every sample kept
 * (differential BEFORE too), the input unchanged, the metadata carried,
 * the output finished and valid (fold_trie_check).
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
	assert_int_equal(fold_trie_finish(t), 0);
	return t;
}

/* t as folded text (owned). */
static char *text_of(const fold_trie *t)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	assert_non_null(f);
	assert_int_equal(fold_write_folded(t, f), 0);
	fclose(f);
	return buf;
}

/* Rewrites t with fn and checks the invariants: t unchanged, the view
 * finished, valid, holding every sample and t's metadata.  Returns the
 * view (owned). */
static fold_trie *rewrite_checked(fold_trie *t, int (*fn)(const fold_trie *, fold_trie **))
{
	char *before = text_of(t);
	assert_int_equal(fold_meta_add(t, "target", "pid 42"), 0);
	fold_trie *v = NULL;
	assert_int_equal(fn(t, &v), 0);
	assert_non_null(v);
	assert_true(v->finished);
	assert_int_equal(fold_trie_check(v), 0);
	assert_true(v->total[0] == t->total[0]);
	assert_int_equal(fold_trie_is_diff(v), fold_trie_is_diff(t));
	assert_string_equal(v->meta, t->meta);
	char *after = text_of(t);
	assert_string_equal(before, after);
	free(before);
	free(after);
	return v;
}

static uint32_t name_id(fold_trie *t, const char *s)
{
	uint32_t id = fold_trie_intern(t, s, strlen(s));
	assert_int_not_equal(id, FOLD_NONE);
	return id;
}

static void set_lib(fold_trie *t, const char *name, const char *lib)
{
	assert_int_equal(fold_trie_set_lib(t, name_id(t, name), lib, strlen(lib)), 0);
}

/* --by=lib: frames named after their library, a library calling itself
 * one frame, frames without a library kept, the libraries marked. */
static void rewrite_by_lib_merges_library_runs(void **state)
{
	(void)state;
	fold_trie *t = parse("main;parse;memcpy 3\n"
			     "main;parse;strlen;memcpy 2\n"
			     "main;compute 4\n"
			     "main 1\n");
	set_lib(t, "main", "app");
	set_lib(t, "parse", "app");
	set_lib(t, "memcpy", "libc.so.6");
	set_lib(t, "strlen", "libc.so.6");
	fold_trie *v = rewrite_checked(t, fold_rewrite_by_lib);
	char *s = text_of(v);
	assert_string_equal(s, "app 1\n"
			       "app;compute 4\n"
			       "app;libc.so.6 5\n");
	size_t len;
	uint32_t app = fold_trie_find(v, FOLD_ROOT, name_id(v, "app"));
	assert_int_not_equal(app, FOLD_NONE);
	assert_int_equal(fold_trie_lib(v, v->name[app]), v->name[app]);
	uint32_t compute = fold_trie_find(v, app, name_id(v, "compute"));
	assert_int_equal(fold_trie_lib(v, v->name[compute]), FOLD_NONE);
	(void)fold_node_name(v, compute, &len);
	assert_int_equal(len, 7);
	free(s);
	fold_trie_free(v);
	fold_trie_free(t);
}

/* A differential keeps both columns through --by=lib and chain. */
static void rewrite_keeps_differential_counts(void **state)
{
	(void)state;
	fold_trie *t = parse("main;a;memcpy 3 5\n"
			     "main;b 2 1\n");
	set_lib(t, "a", "liba");
	set_lib(t, "memcpy", "liba");
	fold_trie *v = rewrite_checked(t, fold_rewrite_by_lib);
	char *s = text_of(v);
	assert_string_equal(s, "main;b 2 1\n"
			       "main;liba 3 5\n");
	free(s);
	fold_trie_free(v);
	v = rewrite_checked(t, fold_rewrite_chain);
	s = text_of(v);
	assert_string_equal(s, "main;a;memcpy;-- 3 5\n"
			       "main;b;-- 2 1\n");
	free(s);
	fold_trie_free(v);
	fold_trie_free(t);
}

/* --inline: a name holding FOLD_INLINE_SEP becomes one frame per part,
 * each with the name's library; a source position's parts go to the
 * matching frames (an empty part: no position). */
static void rewrite_inline_splits_names_libs_and_positions(void **state)
{
	(void)state;
	fold_trie *t = parse("main;run\x1fstep_[i]\x1fleaf_[i] 3\n"
			     "main;run 2\n");
	set_lib(t, "run\x1fstep_[i]\x1fleaf_[i]", "app");
	uint32_t main = fold_trie_find(t, FOLD_ROOT, name_id(t, "main"));
	uint32_t run3 = fold_trie_find(t, main, name_id(t, "run\x1fstep_[i]\x1fleaf_[i]"));
	assert_int_not_equal(run3, FOLD_NONE);
	const char *pos = "run.c:10\x1f\x1fleaf.h:7";
	uint32_t loc = fold_loc_intern(t, pos, strlen(pos));
	assert_int_equal(fold_loc_add(t, run3, loc, 3), 0);

	fold_trie *v = rewrite_checked(t, fold_rewrite_inline);
	char *s = text_of(v);
	assert_string_equal(s, "main;run 2\n"
			       "main;run;step_[i];leaf_[i] 3\n");
	free(s);
	uint32_t vmain = fold_trie_find(v, FOLD_ROOT, name_id(v, "main"));
	uint32_t run = fold_trie_find(v, vmain, name_id(v, "run"));
	uint32_t step = fold_trie_find(v, run, name_id(v, "step_[i]"));
	uint32_t leaf = fold_trie_find(v, step, name_id(v, "leaf_[i]"));
	assert_int_not_equal(leaf, FOLD_NONE);
	uint32_t app = name_id(v, "app");
	assert_int_equal(fold_trie_lib(v, v->name[run]), app);
	assert_int_equal(fold_trie_lib(v, v->name[step]), app);
	assert_int_equal(fold_trie_lib(v, v->name[leaf]), app);
	uint32_t l;
	double c;
	size_t len;
	assert_int_not_equal(fold_loc_next(v, run, FOLD_NONE, &l, &c), FOLD_NONE);
	const char *p = fold_loc_str(v, l, &len);
	assert_int_equal(len, 8);
	assert_memory_equal(p, "run.c:10", 8);
	assert_true(c == 3);
	assert_int_equal(fold_loc_next(v, step, FOLD_NONE, &l, &c), FOLD_NONE);
	assert_int_not_equal(fold_loc_next(v, leaf, FOLD_NONE, &l, &c), FOLD_NONE);
	p = fold_loc_str(v, l, &len);
	assert_int_equal(len, 8);
	assert_memory_equal(p, "leaf.h:7", 8);
	fold_trie_free(v);
	fold_trie_free(t);
}

/* --state on folded text: a stack's state is its leaf pseudo-frame
 * (running without one); the kept stacks keep their libraries and source
 * positions, the `states:` line counts what was kept, the rest is in
 * cut_dropped; a trie with no state frame and no `states:` line is -ENOENT. */
static void rewrite_state_frames_cuts_by_the_leaf(void **state)
{
	(void)state;
	fold_trie *t = parse("main;work 5\nmain;work;[runnable] 2\nmain;wait;[blocked] 4\n");
	set_lib(t, "work", "app");
	assert_int_equal(fold_meta_add(t, "target", "pid 42"), 0);
	assert_int_equal(fold_meta_add(t, "states", "running 5, runnable 2, blocked 4"), 0);
	uint32_t main = fold_trie_find(t, FOLD_ROOT, name_id(t, "main"));
	uint32_t work = fold_trie_find(t, main, name_id(t, "work"));
	uint32_t loc = fold_loc_intern(t, "w.c:3", 5);
	assert_int_equal(fold_loc_add(t, work, loc, 5), 0);

	fold_trie *v = NULL;
	assert_int_equal(fold_rewrite_state_frames(t, UF_RS_SET_ONCPU | UF_RS_BIT(UF_RS_RUNNABLE), &v), 0);
	assert_int_equal(fold_trie_check(v), 0);
	char *s = text_of(v);
	assert_string_equal(s, "main;work 5\nmain;work;[runnable] 2\n");
	free(s);
	assert_string_equal(v->meta, "target: pid 42\nstates: running 5, runnable 2\n");
	assert_true(v->cut_dropped == 4);
	uint32_t vwork = fold_trie_find(v, fold_trie_find(v, FOLD_ROOT, name_id(v, "main")), name_id(v, "work"));
	assert_int_equal(fold_trie_lib(v, v->name[vwork]), name_id(v, "app"));
	uint32_t l;
	double c;
	size_t len;
	assert_int_not_equal(fold_loc_next(v, vwork, FOLD_NONE, &l, &c), FOLD_NONE);
	assert_memory_equal(fold_loc_str(v, l, &len), "w.c:3", 5);
	assert_true(c == 5);
	fold_trie_free(v);
	fold_trie_free(t);

	t = parse("main;work 5\n");
	v = NULL;
	assert_int_equal(fold_rewrite_state_frames(t, UF_RS_SET_WAITING, &v), -ENOENT);
	assert_null(v);
	fold_trie_free(t);
}

/* --colors chain, flamegraph.pl's rule: cut at a "--" with a frame on
 * both sides, non-overlapping, left to right; frames after the first cut
 * get "_[w]"; a stack without a cut gains a "--" leaf. */
static void rewrite_chain_follows_flamegraph_pl(void **state)
{
	(void)state;
	fold_trie *t = parse("a;b 1\n"
			     "a;--;c;d 2\n"
			     "--;x 4\n"
			     "y;-- 8\n"
			     "p;--;q;--;r 16\n"
			     "s;--;--;u 32\n");
	fold_trie *v = rewrite_checked(t, fold_rewrite_chain);
	char *s = text_of(v);
	assert_string_equal(s, "--;x;-- 4\n"
			       "a;--;c_[w];d_[w] 2\n"
			       "a;b;-- 1\n"
			       "p;--;q_[w];--;r_[w] 16\n"
			       "s;--;--_[w];u_[w] 32\n"
			       "y;--;-- 8\n");
	free(s);
	fold_trie_free(v);
	fold_trie_free(t);
}

/* A kept sequence (flame chart) is rewritten sample by sample, in order. */
static void rewrite_chain_keeps_the_sequence(void **state)
{
	(void)state;
	fold_trie *t = fold_trie_new();
	assert_non_null(t);
	fold_trie_keep_sequence(t);
	const char *in = "a;--;b 1\nc 2\na;--;b 3\n";
	struct fold_read_opts o = { .label = "mem" };
	struct uf_err err = { 0 };
	struct fold_read_stats st = { 0 };
	assert_int_equal(fold_read_folded_mem(t, in, strlen(in), &o, &st, &err), 0);
	assert_int_equal(fold_trie_finish(t), 0);
	fold_trie *v = rewrite_checked(t, fold_rewrite_chain);
	assert_int_equal(v->seq_len, 3);
	const char *want[] = { "b_[w]", "--", "b_[w]" };
	const double count[] = { 1, 2, 3 };
	for (size_t i = 0; i < 3; i++) {
		size_t len;
		const char *nm = fold_node_name(v, v->seq_node[i], &len);
		assert_int_equal(len, strlen(want[i]));
		assert_memory_equal(nm, want[i], len);
		assert_true(v->seq_count[i] == count[i]);
	}
	fold_trie_free(v);
	fold_trie_free(t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(rewrite_by_lib_merges_library_runs),
		cmocka_unit_test(rewrite_keeps_differential_counts),
		cmocka_unit_test(rewrite_inline_splits_names_libs_and_positions),
		cmocka_unit_test(rewrite_chain_follows_flamegraph_pl),
		cmocka_unit_test(rewrite_chain_keeps_the_sequence),
		cmocka_unit_test(rewrite_state_frames_cuts_by_the_leaf),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
