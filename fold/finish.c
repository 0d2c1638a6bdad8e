/*
 * fold/finish.c — totals and flamegraph.pl's sibling order for a trie.
 *
 * flamegraph.pl sorts input lines as byte strings and merges adjacent
 * prefixes, so among one parent's children a child's own line ("name "
 * then the count) and its subtree's lines ("name;...") sort as two keys.
 * Every distinct name therefore gets two ranks, for "name" + ' ' and
 * "name" + ';', computed by sorting 2 * names keys once.  Each parent's
 * entries are then sorted by those integer ranks: no string compares per
 * node, and no global sort of the input.
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

struct key {
	const unsigned char *s;
	uint32_t len;
	uint32_t id;       /* name id * 2 + (terminator == ';') */
};

static int key_cmp(const void *a, const void *b);
static uint32_t *rank_names(const fold_trie *t);
static int build_entries(fold_trie *t, const uint32_t *rank, const uint32_t *nkids);
static int u64_cmp(const void *a, const void *b);

int fold_trie_finish(fold_trie *t)
{
	if (t->finished)
		return 0;
	free(t->total);
	t->total = malloc((size_t)t->nnodes * sizeof *t->total);
	uint32_t *nkids = calloc(t->nnodes, sizeof *nkids);
	uint32_t *rank = rank_names(t);
	int rc = -ENOMEM;
	if (!t->total || !nkids || !rank)
		goto out;
	memcpy(t->total, t->self, (size_t)t->nnodes * sizeof *t->total);
	t->maxdepth = 0;
	for (uint32_t i = t->nnodes - 1; i > 0; i--) {
		t->total[t->parent[i]] += t->total[i];
		nkids[t->parent[i]]++;
		if (t->depth[i] > t->maxdepth)
			t->maxdepth = t->depth[i];
	}
	rc = build_entries(t, rank, nkids);
	if (rc == 0)
		t->finished = 1;
out:
	free(nkids);
	free(rank);
	return rc;
}

/* Byte order of name + terminator, as flamegraph.pl's sort sees it. */
static int key_cmp(const void *a, const void *b)
{
	const struct key *x = a, *y = b;
	uint32_t m = x->len < y->len ? x->len : y->len;
	int c = memcmp(x->s, y->s, m);
	if (c)
		return c;
	int tx = (x->id & 1) ? ';' : ' ', ty = (y->id & 1) ? ';' : ' ';
	if (x->len == y->len)
		return tx - ty;
	if (x->len < y->len)
		return tx == y->s[m] ? -1 : tx - (int)y->s[m];
	return x->s[m] == ty ? 1 : (int)x->s[m] - ty;
}

/* rank[2*name + t]: position of name + (t ? ';' : ' ') in byte order. */
static uint32_t *rank_names(const fold_trie *t)
{
	size_t n = (size_t)t->nnames * 2;
	struct key *keys = malloc(n * sizeof *keys);
	uint32_t *rank = malloc(n * sizeof *rank);
	if (!keys || !rank) {
		free(keys);
		free(rank);
		return NULL;
	}
	for (uint32_t i = 0; i < t->nnames; i++)
		for (uint32_t k = 0; k < 2; k++)
			keys[2 * i + k] = (struct key){ (const unsigned char *)t->nbuf + t->noff[i],
							t->nlen[i], 2 * i + k };
	qsort(keys, n, sizeof *keys, key_cmp);
	for (size_t i = 0; i < n; i++)
		rank[keys[i].id] = (uint32_t)i;
	free(keys);
	return rank;
}

static int u64_cmp(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

/* A child contributes a self entry when it has its own line (samples of
 * its own, or no children at all) and a subtree entry when it has children. */
static int build_entries(fold_trie *t, const uint32_t *rank, const uint32_t *nkids)
{
	uint32_t n = t->nnodes;
	free(t->eoff);
	free(t->ent);
	t->ent = NULL;
	t->eoff = calloc((size_t)n + 1, sizeof *t->eoff);
	if (!t->eoff)
		return -ENOMEM;
	for (uint32_t i = 1; i < n; i++) {
		int own = t->self[i] != 0 || (t->base && t->base[i] != 0) || nkids[i] == 0;
		t->eoff[t->parent[i] + 1] += (uint32_t)own + (nkids[i] != 0);
	}
	for (uint32_t i = 0; i < n; i++)
		t->eoff[i + 1] += t->eoff[i];
	uint32_t m = t->eoff[n];
	uint64_t *tmp = malloc(((size_t)m + 1) * sizeof *tmp);
	uint32_t *fill = malloc((size_t)n * sizeof *fill);
	t->ent = malloc(((size_t)m + 1) * sizeof *t->ent);
	if (!tmp || !fill || !t->ent) {
		free(tmp);
		free(fill);
		return -ENOMEM;
	}
	memcpy(fill, t->eoff, (size_t)n * sizeof *fill);
	for (uint32_t i = 1; i < n; i++) {
		uint32_t p = t->parent[i], nm = t->name[i];
		if (t->self[i] != 0 || (t->base && t->base[i] != 0) || nkids[i] == 0)
			tmp[fill[p]++] = ((uint64_t)rank[2 * nm] << 32) | i | FOLD_ENTRY_SELF;
		if (nkids[i])
			tmp[fill[p]++] = ((uint64_t)rank[2 * nm + 1] << 32) | i;
	}
	for (uint32_t i = 0; i < n; i++) {
		uint32_t a = t->eoff[i], b = t->eoff[i + 1];
		if (b - a > 1)
			qsort(tmp + a, b - a, sizeof *tmp, u64_cmp);
		for (uint32_t k = a; k < b; k++)
			t->ent[k] = (uint32_t)tmp[k];
	}
	free(tmp);
	free(fill);
	return 0;
}
