/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * fold/model/finish.c — totals and flamegraph.pl's sibling order for a trie.
 *
 * flamegraph.pl sorts input lines as byte strings and merges adjacent
 * prefixes, so among one parent's children a child's own line ("name "
 * then the count) and its subtree's lines ("name;...") sort as two keys.
 * Every distinct name therefore gets two ranks, for "name" + ' ' and
 * "name" + ';', computed by one radix sort of 2 * names keys
 * (fold_sort_names, sorted.c).  Each parent's entries are then sorted by
 * those integer ranks (no string compares per node, no global sort of the
 * input), after a check, since the sorted reader already made most
 * parents' children in order.  Totals, who has children and the entry
 * counts come from one pass up the ids (count_up): a parent's id is below
 * its children's.  Depth is not stored (fold.h): the deepest node's is
 * the sorted reader's longest line, or one pass down the ids with a
 * scratch array, freed before finish's own arrays are made.  A big trie in pre-order (the sorted reader's)
 * is finished on two threads, each half of the ids on one, with the same
 * result to the bit (see finish_split).
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

#include "fold/model/model.h"
#include "util/bigalloc.h"
#include "util/split2.h"
#include "util/vec.h"

/* Pre-order tries of this many nodes are finished on two threads. */
#define FINISH_SPLIT_MIN 65536u

static int build_entries(fold_trie *t, const uint32_t *rank, const uint64_t *kids);
static void count_up(fold_trie *t, uint64_t *kids);
static int finish_split(fold_trie *t, const uint32_t *rank, uint64_t *kids);
static int u64_cmp(const void *a, const void *b);
static int sort_range(const fold_trie *t, const uint32_t *rank, uint32_t lo, uint32_t hi);
static int entry_ends(fold_trie *t);
static int find_maxdepth(fold_trie *t);

int fold_trie_finish(fold_trie *t)
{
	if (t->finished)
		return 0;
	if (find_maxdepth(t))
		return -ENOMEM;
	free(t->total);
	free(t->eoff);
	free(t->ent);
	t->ent = NULL;
	t->total = malloc((size_t)t->nnodes * sizeof *t->total);
	t->eoff = calloc((size_t)t->nnodes + 1, sizeof *t->eoff);
	uf_thp_hint(t->total, (size_t)t->nnodes * sizeof *t->total); /* util/bigalloc.h */
	uf_thp_hint(t->eoff, ((size_t)t->nnodes + 1) * sizeof *t->eoff);
	/* the sorted reader ranked the names already (kept while no name is added) */
	int kept = t->name_rank && t->name_rank_n == t->nnames;
	uint32_t *rank = kept ? t->name_rank : malloc((size_t)t->nnames * 2 * sizeof *rank);
	uint64_t *kids = calloc(t->nnodes / 64 + 1, sizeof *kids); /* who has children: a bit each */
	int rc = -ENOMEM;
	if (!t->total || !t->eoff || !rank || !kids || (!kept && fold_sort_names(t, rank)))
		goto out;
	if (t->preorder && t->nnodes >= FINISH_SPLIT_MIN) {
		rc = finish_split(t, rank, kids);
	} else {
		count_up(t, kids);
		rc = build_entries(t, rank, kids);
	}
	if (rc == 0)
		t->finished = 1;
out:
	free(kids);
	if (!kept)
		free(rank);
	return rc;
}

/* The deepest node's depth: kept by the sorted reader, else one pass down
 * the ids (a parent's id is below its child's). */
static int find_maxdepth(fold_trie *t)
{
	if (t->preorder) {
		t->maxdepth = t->preorder_depth;
		return 0;
	}
	uint32_t *depth = malloc((size_t)t->nnodes * sizeof *depth), maxdepth = 0;
	if (!depth)
		return -ENOMEM;
	depth[0] = 0;
	for (uint32_t i = 1; i < t->nnodes; i++) {
		depth[i] = depth[t->parent[i]] + 1;
		maxdepth = depth[i] > maxdepth ? depth[i] : maxdepth;
	}
	free(depth);
	t->maxdepth = maxdepth;
	return 0;
}

/* One pass from the last node up (a node's children have higher ids, so
 * each is complete when reached): totals, who has children, and each
 * parent's entry count in eoff[parent]. */
static inline int has_kids(const uint64_t *kids, uint32_t i)
{
	return (int)(kids[i / 64] >> (i % 64) & 1);
}

static inline void set_kids(uint64_t *kids, uint32_t p)
{
	kids[p / 64] |= 1ull << (p % 64);
}

/* Does node i have its own entry (samples of its own, or no children)? */
static inline int own_entry(const fold_trie *t, uint32_t i, int k)
{
	return t->self[i] != 0 || (t->base && t->base[i] != 0) || !k;
}

static void count_up(fold_trie *t, uint64_t *kids)
{
	memcpy(t->total, t->self, (size_t)t->nnodes * sizeof *t->total);
	for (uint32_t i = t->nnodes - 1; i > 0; i--) {
		uint32_t p = t->parent[i];
		t->total[p] += t->total[i];
		int k = has_kids(kids, i);
		t->eoff[p] += (uint32_t)(own_entry(t, i, k) + k);
		set_kids(kids, p);
	}
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
	if (entry_ends(t))
		return -ENOMEM;
	/* eoff[p] is p's end; filled backwards, it ends at p's start (no
	 * second offset array, nothing to shift); node order, reversed twice,
	 * stays */
	for (uint32_t i = n - 1; i > 0; i--) {
		uint32_t p = t->parent[i];
		int k = has_kids(kids, i);
		if (k)
			t->ent[--t->eoff[p]] = i;
		if (own_entry(t, i, k))
			t->ent[--t->eoff[p]] = i | FOLD_ENTRY_SELF;
	}
	return sort_range(t, rank, 0, n);
}

/* eoff[i]: from i's entry count to the end of its entries (eoff[n] the
 * total), and ent allocated for them.  Returns 0 or -ENOMEM. */
static int entry_ends(fold_trie *t)
{
	uint32_t n = t->nnodes;
	for (uint32_t i = 1; i < n; i++)
		t->eoff[i] += t->eoff[i - 1];
	uint32_t m = t->eoff[n - 1];
	t->eoff[n] = m;
	t->ent = malloc(((size_t)m + 1) * sizeof *t->ent);
	uf_thp_hint(t->ent, ((size_t)m + 1) * sizeof *t->ent);
	return t->ent ? 0 : -ENOMEM;
}

/* Sorts the entries of nodes lo .. hi - 1. */
static int sort_range(const fold_trie *t, const uint32_t *rank, uint32_t lo, uint32_t hi)
{
	uint64_t *tmp = NULL;
	size_t tcap = 0;
	int rc = 0;
	for (uint32_t i = lo; i < hi && rc == 0; i++)
		if (t->eoff[i + 1] - t->eoff[i] > 1)
			rc = sort_entries(t, rank, t->ent + t->eoff[i], t->eoff[i + 1] - t->eoff[i], &tmp,
					  &tcap);
	free(tmp);
	return rc;
}

/* ---- two threads, for a pre-order trie ------------------------------------- *
 *
 * The ids are cut at b (a multiple of 64, so the halves never share a word
 * of the kids bitmap).  In pre-order, a node below b is the parent of a
 * node from b on only when it is an ancestor of b: the chain, one node a
 * depth.  Each half makes the pass of count_up and of the entry fill over
 * its own ids, as one thread would, except for what goes into a chain
 * node: counts into it are logged (its child's id), and applied after both
 * halves, deepest first, in the one-thread order (the upper half's
 * children, then the lower half's, each by decreasing id), so every total
 * is summed in the same order and the result is the same to the bit.  In
 * the fill, the upper half writes a chain node's last entries through a
 * cursor of its own, the lower half its first ones.
 *
 * Which parents are chain nodes, with no depth stored: for the upper half,
 * every parent below b (its place in the chain by a binary search: the
 * chain's ids rise with depth, and such parents are rare).  For the lower
 * half, every chain node below i is an ancestor of i (its subtree spans
 * i .. b), so i's parent is in the chain exactly when it is the deepest
 * chain node below i: a cursor that only moves up the chain as i falls. */

struct chain {
	uint32_t b;          /* the cut */
	uint32_t n;          /* chain nodes: b's depth */
	uint32_t *id;        /* id[d]: b's ancestor at depth d */
	uint32_t *up;        /* the upper half's entries in id[d] (count_up), then
				its fill cursor there */
};

struct half {
	fold_trie *t;
	uint64_t *kids;
	const struct chain *c;
	const uint32_t *rank;
	uint32_t lo, hi;     /* its ids */
	int upper;
	uint32_t (*log)[2];  /* counts into chain nodes: depth, child */
	size_t nlog, cap;
	int rc;
};

/* The depth of chain node p (c->id[d] == p). */
static uint32_t chain_depth(const struct chain *c, uint32_t p)
{
	uint32_t lo = 0, hi = c->n;
	while (hi - lo > 1) {
		uint32_t mid = lo + (hi - lo) / 2;
		if (c->id[mid] <= p)
			lo = mid;
		else
			hi = mid;
	}
	return lo;
}

/* In the lower half, going down from b: the deepest chain node below i. */
static inline uint32_t chain_below(const struct chain *c, uint32_t *cur, uint32_t i)
{
	while (c->id[*cur] >= i)
		--*cur;
	return *cur;
}

static int log_push(struct half *h, uint32_t d, uint32_t child)
{
	if (uf_vec_grow(&h->log, &h->cap, h->nlog + 1, sizeof *h->log))
		return -ENOMEM;
	h->log[h->nlog][0] = d;
	h->log[h->nlog++][1] = child;
	return 0;
}

static void *count_half(void *arg)
{
	struct half *h = arg;
	fold_trie *t = h->t;
	const struct chain *c = h->c;
	memcpy(t->total + h->lo, t->self + h->lo, (size_t)(h->hi - h->lo) * sizeof *t->total);
	uint32_t cur = c->n - 1; /* c->id[0] is the root, below every i */
	for (uint32_t i = h->hi; i-- > (h->lo ? h->lo : 1);) {
		uint32_t p = t->parent[i], d = 0;
		int in_chain, k;
		if (h->upper) {
			in_chain = p < c->b;
			d = in_chain ? chain_depth(c, p) : 0;
			k = has_kids(h->kids, i);
		} else {
			d = chain_below(c, &cur, i);
			in_chain = c->id[d] == p;
			/* a chain node has children (the next one, or b) */
			k = (d + 1 < c->n && c->id[d + 1] == i) || has_kids(h->kids, i);
		}
		uint32_t e = (uint32_t)(own_entry(t, i, k) + k);
		if (in_chain) {
			if (log_push(h, d, i)) {
				h->rc = -ENOMEM;
				break;
			}
			if (h->upper)
				c->up[d] += e;
			else
				t->eoff[p] += e;
		} else {
			t->total[p] += t->total[i];
			t->eoff[p] += e;
		}
		if (!h->upper || p >= c->b)
			set_kids(h->kids, p);
	}
	return NULL;
}

/* The logged counts into chain nodes, deepest first: per node the upper
 * half's (by decreasing id), then the lower half's. */
static int apply_logs(fold_trie *t, const struct chain *c, struct half *hv)
{
	uint32_t *at = calloc((size_t)c->n + 1, sizeof *at);
	uint32_t *order = malloc((hv[0].nlog + hv[1].nlog + 1) * sizeof *order);
	if (!at || !order) {
		free(at);
		free(order);
		return -ENOMEM;
	}
	/* a stable bucket sort by depth, the upper half first */
	for (int s = 1; s >= 0; s--)
		for (size_t k = 0; k < hv[s].nlog; k++)
			at[hv[s].log[k][0] + 1]++;
	for (uint32_t d = 0; d < c->n; d++)
		at[d + 1] += at[d];
	for (int s = 1; s >= 0; s--)
		for (size_t k = 0; k < hv[s].nlog; k++)
			order[at[hv[s].log[k][0]]++] = hv[s].log[k][1];
	/* at[d] is now the end of depth d's children */
	for (uint32_t d = c->n; d-- > 0;) {
		uint32_t a = c->id[d], lo = d ? at[d - 1] : 0;
		t->total[a] = t->self[a];
		for (uint32_t k = lo; k < at[d]; k++)
			t->total[a] += t->total[order[k]];
		t->eoff[a] += c->up[d];
	}
	free(at);
	free(order);
	return 0;
}

static void *fill_half(void *arg)
{
	struct half *h = arg;
	fold_trie *t = h->t;
	const struct chain *c = h->c;
	for (uint32_t i = h->hi; i-- > (h->lo ? h->lo : 1);) {
		uint32_t p = t->parent[i];
		int k = has_kids(h->kids, i);
		uint32_t *at = h->upper && p < c->b ? &c->up[chain_depth(c, p)] : &t->eoff[p];
		if (k)
			t->ent[--*at] = i;
		if (own_entry(t, i, k))
			t->ent[--*at] = i | FOLD_ENTRY_SELF;
	}
	return NULL;
}

static void *sort_half(void *arg)
{
	struct half *h = arg;
	h->rc = sort_range(h->t, h->rank, h->lo, h->hi);
	return NULL;
}

/* Runs f on both halves, the upper one on a second thread (a split trie
 * has FINISH_SPLIT_MIN nodes at least: always worth one). */
static void both(void *(*f)(void *), struct half *hv)
{
	uf_split2(f, &hv[0], &hv[1], 1);
}

static int finish_split(fold_trie *t, const uint32_t *rank, uint64_t *kids)
{
	uint32_t n = t->nnodes, b = n / 2 & ~63u;
	struct chain c = { .b = b, .n = fold_trie_depth(t, b) };
	c.id = malloc(((size_t)c.n + 1) * sizeof *c.id);
	c.up = calloc((size_t)c.n + 1, sizeof *c.up);
	struct half hv[2] = { { t, kids, &c, rank, 0, b, 0, NULL, 0, 0, 0 },
			      { t, kids, &c, rank, b, n, 1, NULL, 0, 0, 0 } };
	int rc = c.id && c.up ? 0 : -ENOMEM;
	for (uint32_t a = b, d = c.n; rc == 0 && d-- > 0;)
		c.id[d] = a = t->parent[a];
	if (rc == 0) {
		both(count_half, hv);
		rc = hv[0].rc ? hv[0].rc : hv[1].rc;
	}
	if (rc == 0)
		rc = apply_logs(t, &c, hv);
	if (rc == 0) {
		for (uint32_t d = 0; d < c.n; d++)
			set_kids(kids, c.id[d]);
		rc = entry_ends(t);
	}
	if (rc == 0) {
		for (uint32_t d = 0; d < c.n; d++) { /* the upper half's entries end each chain node's */
			uint32_t a = c.id[d], end = t->eoff[a];
			t->eoff[a] -= c.up[d];
			c.up[d] = end;
		}
		both(fill_half, hv);
		both(sort_half, hv);
		rc = hv[0].rc ? hv[0].rc : hv[1].rc;
	}
	free(c.id);
	free(c.up);
	free(hv[0].log);
	free(hv[1].log);
	return rc;
}
