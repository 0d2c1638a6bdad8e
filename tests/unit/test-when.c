/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * tests/unit/test-when.c — fold/model/when.c: the --time/--state cut
 * (half-open range from the first timed sample, state sets, what is left
 * out counted), the pseudo-frame that sets waiting samples apart, the
 * per-state counts and metadata, and the time and state each sequence
 * entry keeps (what the viewer's heat map will read).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "fold/model/model.h"

#define S 1000000000ull

/* Adds one sample of `st` at t (input clock) ending at leaf "f" under
 * "main", the way a reader does: the cut first, then the path. */
static int sample(fold_trie *t, uint64_t at, enum uf_runstate st)
{
	if (!fold_trie_sample_keeps(t, at, st, 1))
		return 0;
	uint32_t node = fold_trie_child(t, FOLD_ROOT, fold_trie_intern(t, "main", 4));
	node = fold_trie_child(t, node, fold_trie_intern(t, "f", 1));
	node = fold_trie_state_leaf(t, node, st);
	assert_int_equal(fold_trie_add_sample(t, node, 1, at, st), 0);
	return 1;
}

static void cut_is_half_open_from_the_first_timed_sample(void **state)
{
	fold_trie *t = fold_trie_new();
	fold_trie_set_cut(t, &(struct fold_cut){ .timed = 1, .from_ns = 1 * S, .to_ns = 2 * S });
	/* t0 = 100 s: the first timed sample, even one the cut leaves out */
	assert_int_equal(sample(t, 100 * S, UF_RS_RUNNING), 0);
	assert_int_equal(sample(t, FOLD_T_UNKNOWN, UF_RS_RUNNING), 0); /* no time: out */
	assert_int_equal(sample(t, 101 * S - 1, UF_RS_RUNNING), 0);
	assert_int_equal(sample(t, 101 * S, UF_RS_RUNNING), 1);      /* FROM is in */
	assert_int_equal(sample(t, 102 * S - 1, UF_RS_BLOCKED), 1);
	assert_int_equal(sample(t, 102 * S, UF_RS_RUNNING), 0);      /* TO is out */
	assert_true(t->cut_dropped == 4);
	assert_true(fold_trie_kept(t) == 2);
	assert_int_equal(t->timed_seen, 5);
	fold_trie_free(t);
}

static void state_cut_and_pseudo_frames(void **state)
{
	fold_trie *t = fold_trie_new();
	fold_trie_set_cut(t, &(struct fold_cut){ .states = UF_RS_SET_WAITING });
	enum uf_runstate all[] = { UF_RS_UNKNOWN, UF_RS_RUNNING, UF_RS_RUNNABLE, UF_RS_BLOCKED,
				   UF_RS_OFFLINE, UF_RS_BLOCKED };
	int kept = 0;
	for (size_t i = 0; i < sizeof all / sizeof all[0]; i++)
		kept += sample(t, FOLD_T_UNKNOWN, all[i]);
	assert_int_equal(kept, 3);
	assert_true(t->state_count[UF_RS_BLOCKED] == 2 && t->state_count[UF_RS_RUNNABLE] == 1);
	/* main;f;[blocked] and main;f;[runnable], nothing at main;f itself */
	uint32_t f = fold_trie_find(t, fold_trie_find(t, FOLD_ROOT, fold_trie_intern(t, "main", 4)),
				    fold_trie_intern(t, "f", 1));
	assert_true(t->self[f] == 0);
	uint32_t b = fold_trie_find(t, f, fold_trie_intern(t, "[blocked]", 9));
	uint32_t r = fold_trie_find(t, f, fold_trie_intern(t, "[runnable]", 10));
	assert_true(b != FOLD_NONE && t->self[b] == 2);
	assert_true(r != FOLD_NONE && t->self[r] == 1);
	/* running and unknown samples get no frame */
	assert_null(fold_state_frame(UF_RS_RUNNING, NULL));
	assert_null(fold_state_frame(UF_RS_UNKNOWN, NULL));
	assert_int_equal(fold_trie_state_leaf(t, f, UF_RS_RUNNING), f);
	assert_int_equal(fold_trie_state_meta(t), 0);
	size_t len;
	const char *v = fold_meta_get(t, "states", &len);
	assert_non_null(v);
	assert_memory_equal(v, "runnable 1, blocked 2", len);
	fold_trie_free(t);
}

static void sequence_keeps_time_and_state(void **state)
{
	fold_trie *t = fold_trie_new();
	fold_trie_keep_when(t);
	/* a plain addition (folded input) keeps no sequence... */
	fold_trie_add(t, fold_trie_child(t, FOLD_ROOT, fold_trie_intern(t, "x", 1)), 5);
	assert_int_equal(t->seq_len, 0);
	/* ...the first timed sample turns it on: time since t0 and state each */
	sample(t, 50 * S, UF_RS_RUNNING);
	sample(t, 50 * S + 7, UF_RS_BLOCKED);
	sample(t, FOLD_T_UNKNOWN, UF_RS_UNKNOWN);
	assert_int_equal(t->seq_len, 3);
	assert_true(fold_seq_t_ns(t, 0) == 0 && fold_seq_state(t, 0) == UF_RS_RUNNING);
	assert_true(fold_seq_t_ns(t, 1) == 7 && fold_seq_state(t, 1) == UF_RS_BLOCKED);
	assert_true(fold_seq_t_ns(t, 2) == FOLD_T_UNKNOWN && fold_seq_state(t, 2) == UF_RS_UNKNOWN);
	assert_true(fold_seq_t_ns(t, 99) == FOLD_T_UNKNOWN);
	/* no waits, only unknown: no metadata line */
	fold_trie *u = fold_trie_new();
	sample(u, FOLD_T_UNKNOWN, UF_RS_UNKNOWN);
	char buf[64];
	assert_int_equal(fold_trie_state_text(u, buf, sizeof buf), 0);
	fold_trie_state_meta(u);
	assert_null(fold_meta_get(u, "states", &(size_t){ 0 }));
	fold_trie_free(u);
	fold_trie_free(t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(cut_is_half_open_from_the_first_timed_sample),
		cmocka_unit_test(state_cut_and_pseudo_frames),
		cmocka_unit_test(sequence_keeps_time_and_state),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
