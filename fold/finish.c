/*
 * fold/finish.c — totals and flamegraph.pl's sibling order for a trie.
 *
 * flamegraph.pl sorts input lines as byte strings and merges adjacent
 * prefixes, so among one parent's children a child's own line ("name "
 * then the count) and its subtree's lines ("name;...") sort as two keys.
 * Every distinct name therefore gets two ranks, for "name" + ' ' and
 * "name" + ';', computed by one radix sort of 2 * names keys
 * (fold_sort_names, sorted.c).  Each parent's entries are then sorted by
 * those integer ranks (no string compares per node, no global sort of the
 * input), after a check, since the sorted reader already made most
 * parents' children in order.  Totals, depth, who has children and the
 * entry counts come from one pass up the ids (count_up): a parent's id
 * is below its children's.
 *
 * Invariants after fold_trie_finish():
 *  1. total[i] = self[i] + sum of total over i's children.
 *  2. ent[eoff[i] .. eoff[i+1]) lists i's children in flamegraph.pl's
 *     order; an entry with FOLD_ENTRY_SELF stands for the child's own
 *     samples, one without for the child's subtree (its children).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "fold/fold.h"
#include "fold/internal.h"

static int build_entries(fold_trie *t, const uint32_t *rank, const uint64_t *kids);
static void count_up(fold_trie *t, uint64_t *kids);
static int u64_cmp(const void *a, const void *b);

int fold_trie_finish(fold_trie *t)
{
	if (t->finished)
		return 0;
	free(t->total);
	free(t->eoff);
	free(t->ent);
	t->ent = NULL;
	t->total = malloc((size_t)t->nnodes * sizeof *t->total);
	t->eoff = calloc((size_t)t->nnodes + 1, sizeof *t->eoff);
	/* the sorted reader ranked the names already (kept while no name is added) */
	int kept = t->name_rank && t->name_rank_n == t->nnames;
	uint32_t *rank = kept ? t->name_rank : malloc((size_t)t->nnames * 2 * sizeof *rank);
	uint64_t *kids = calloc(t->nnodes / 64 + 1, sizeof *kids); /* who has children: a bit each */
	int rc = -ENOMEM;
	if (!t->total || !t->eoff || !rank || !kids || (!kept && fold_sort_names(t, rank)))
		goto out;
	count_up(t, kids);
	rc = build_entries(t, rank, kids);
	if (rc == 0)
		t->finished = 1;
out:
	free(kids);
	if (!kept)
		free(rank);
	return rc;
}

/* One pass from the last node up (a node's children have higher ids, so
 * each is complete when reached): totals, maxdepth, who has children, and
 * each parent's entry count in eoff[parent]. */
static inline int has_kids(const uint64_t *kids, uint32_t i)
{
	return (int)(kids[i / 64] >> (i % 64) & 1);
}

static void count_up(fold_trie *t, uint64_t *kids)
{
	memcpy(t->total, t->self, (size_t)t->nnodes * sizeof *t->total);
	uint32_t maxdepth = 0;
	for (uint32_t i = t->nnodes - 1; i > 0; i--) {
		uint32_t p = t->parent[i];
		t->total[p] += t->total[i];
		if (t->depth[i] > maxdepth)
			maxdepth = t->depth[i];
		int k = has_kids(kids, i), own = t->self[i] != 0 || (t->base && t->base[i] != 0) || !k;
		t->eoff[p] += (uint32_t)(own + k);
		kids[p / 64] |= 1ull << (p % 64);
	}
	t->maxdepth = maxdepth;
}

/* Sort key of entry e (a child id, FOLD_ENTRY_SELF for its own line). */
static inline uint32_t entry_rank(const fold_trie *t, const uint32_t *rank, uint32_t e)
{
	return rank[2 * t->name[e & ~FOLD_ENTRY_SELF] + !(e & FOLD_ENTRY_SELF)];
}

/* Sorts one parent's entries by rank; they are usually in order already
 * (the sorted reader creates children in name order), so check first. */
static int sort_entries(const fold_trie *t, const uint32_t *rank, uint32_t *e, uint32_t n,
			uint64_t **tmp, size_t *tcap)
{
	uint32_t i = 1;
	while (i < n && entry_rank(t, rank, e[i - 1]) < entry_rank(t, rank, e[i]))
		i++;
	if (i >= n)
		return 0;
	if (n > *tcap) {
		free(*tmp);
		*tcap = n;
		if (!(*tmp = malloc(n * sizeof **tmp)))
			return -ENOMEM;
	}
	for (i = 0; i < n; i++)
		(*tmp)[i] = (uint64_t)entry_rank(t, rank, e[i]) << 32 | e[i];
	qsort(*tmp, n, sizeof **tmp, u64_cmp);
	for (i = 0; i < n; i++)
		e[i] = (uint32_t)(*tmp)[i];
	return 0;
}

static int u64_cmp(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

/* A child contributes a self entry when it has its own line (samples of
 * its own, or no children at all) and a subtree entry when it has
 * children.  eoff[i] holds i's entry count (count_up). */
static int build_entries(fold_trie *t, const uint32_t *rank, const uint64_t *kids)
{
	uint32_t n = t->nnodes;
	for (uint32_t i = 1; i < n; i++)
		t->eoff[i] += t->eoff[i - 1];
	uint32_t m = t->eoff[n - 1];
	t->ent = malloc(((size_t)m + 1) * sizeof *t->ent);
	if (!t->ent)
		return -ENOMEM;
	/* eoff[p] is p's end; filled backwards, it ends at p's start (no
	 * second offset array, nothing to shift); node order, reversed twice,
	 * stays */
	for (uint32_t i = n - 1; i > 0; i--) {
		uint32_t p = t->parent[i];
		int k = has_kids(kids, i);
		if (k)
			t->ent[--t->eoff[p]] = i;
		if (t->self[i] != 0 || (t->base && t->base[i] != 0) || !k)
			t->ent[--t->eoff[p]] = i | FOLD_ENTRY_SELF;
	}
	t->eoff[n] = m;
	uint64_t *tmp = NULL;
	size_t tcap = 0;
	int rc = 0;
	for (uint32_t i = 0; i < n && rc == 0; i++)
		if (t->eoff[i + 1] - t->eoff[i] > 1)
			rc = sort_entries(t, rank, t->ent + t->eoff[i], t->eoff[i + 1] - t->eoff[i], &tmp,
					  &tcap);
	free(tmp);
	return rc;
}
