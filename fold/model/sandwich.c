/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * fold/model/sandwich.c — the callers and callees of one function, as tries of
 * their own (the "sandwich" view; `fold --callers/--callees NAME`).
 *
 * Of every call path through a function F, the part from F's OUTERMOST
 * frame down to the leaf is a callee path, and the part from the root down
 * to that frame, read upwards, is a caller path:
 *
 *     main;a;F;b;F;c 5     callees: F;b;F;c 5      callers: F;a;main 5
 *
 * Both halves are rooted at F, so F's own width is the number of samples
 * with F anywhere on the stack, each counted once however deep F recurses
 * (pprof's rule for a function's cumulative value).  In a differential trie
 * both counts (BEFORE and AFTER) are carried.
 *
 * A frame matches NAME when its name is NAME, or NAME plus a one-letter
 * annotation ("_[k]", "_[i]", ...), so `--callers memcpy` finds inlined and
 * kernel copies alike.
 *
 * Design: one forward pass over the nodes (a child's id is greater than its
 * parent's) finds each node's outermost F ancestor; the callee half maps
 * those nodes into the new trie as they are.  For the caller half only the
 * TOTAL under each outermost F matters, and every F child of one parent
 * shares its caller path, so counts are summed per parent first and each
 * distinct parent's path is inserted once.
 *
 * Bounds: the callee half has at most as many nodes as the source.  The
 * caller half can be larger (a chain with an F hanging off every level
 * inverts to a triangle): it is capped at 16 x the source's nodes + 1M;
 * past that the call fails with -E2BIG rather than take memory the input
 * did not bring.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "fold/model/model.h"

#define SANDWICH_NODE_FACTOR 16u
#define SANDWICH_NODE_SLACK (1u << 20)

/* Does a name equal `want`, or `want` + "_[x]"? */
static int name_matches(const char *s, size_t len, const char *want, size_t wlen)
{
	if (len == wlen)
		return memcmp(s, want, wlen) == 0;
	return len == wlen + 4 && memcmp(s, want, wlen) == 0 && s[wlen] == '_' &&
	       s[wlen + 1] == '[' && s[wlen + 3] == ']';
}

/* matches[name id] = 1 for every name that is the function; returns how
 * many names matched, -ENOMEM on failure (*out owned by the caller). */
static int match_names(const fold_trie *t, const char *want, size_t wlen, unsigned char **out)
{
	unsigned char *m = calloc(t->nnames ? t->nnames : 1, 1);
	if (!m)
		return -ENOMEM;
	int n = 0;
	for (uint32_t id = 1; id < t->nnames; id++) {
		size_t len;
		const char *s = fold_trie_name(t, id, &len);
		m[id] = (unsigned char)name_matches(s, len, want, wlen);
		n += m[id];
	}
	*out = m;
	return n;
}

/* outer[i]: node i's outermost ancestor-or-self that is the function, or
 * FOLD_NONE.  Parents come before children, so one pass fills it. */
static uint32_t *outermost(const fold_trie *t, const unsigned char *is_f)
{
	uint32_t *outer = malloc((size_t)t->nnodes * sizeof *outer);
	if (!outer)
		return NULL;
	outer[FOLD_ROOT] = FOLD_NONE;
	for (uint32_t i = 1; i < t->nnodes; i++) {
		uint32_t up = outer[t->parent[i]];
		outer[i] = up != FOLD_NONE ? up : is_f[t->name[i]] ? i : FOLD_NONE;
	}
	return outer;
}

/* Interns node `src_node`'s name in dst; FOLD_NONE on OOM. */
static uint32_t copy_name(fold_trie *dst, const fold_trie *src, uint32_t src_node)
{
	size_t len;
	const char *s = fold_node_name(src, src_node, &len);
	return fold_trie_intern(dst, s, len);
}

static int add_counts(fold_trie *dst, uint32_t node, const fold_trie *src, double before, double after)
{
	if (src->base)
		return fold_trie_add2(dst, node, before, after);
	return after != 0 ? fold_trie_add(dst, node, after) : 0;
}

static int build_callees(fold_trie *dst, const fold_trie *src, const uint32_t *outer, uint32_t froot)
{
	uint32_t *map = malloc((size_t)src->nnodes * sizeof *map);
	if (!map)
		return -ENOMEM;
	int rc = 0;
	for (uint32_t i = 1; i < src->nnodes && rc == 0; i++) {
		if (outer[i] == FOLD_NONE)
			continue;
		if (outer[i] == i) {
			map[i] = froot;
		} else {
			uint32_t name = copy_name(dst, src, i);
			map[i] = name == FOLD_NONE ? FOLD_NONE : fold_trie_child(dst, map[src->parent[i]], name);
		}
		if (map[i] == FOLD_NONE)
			rc = -ENOMEM;
		else
			rc = add_counts(dst, map[i], src, src->base ? src->base[i] : 0, src->self[i]);
	}
	free(map);
	return rc;
}

/* Sums each node's counts into its outermost F's parent: after this,
 * sum[p] is every sample whose outermost F hangs directly below p. */
static void sum_by_caller(const fold_trie *src, const uint32_t *outer, double *sum, double *bsum)
{
	for (uint32_t i = 1; i < src->nnodes; i++) {
		if (outer[i] == FOLD_NONE)
			continue;
		uint32_t p = src->parent[outer[i]];
		sum[p] += src->self[i];
		if (bsum)
			bsum[p] += src->base[i];
	}
}

/* Inserts F;p;parent(p);...;top with the counts; p == root adds at F. */
static int insert_caller_path(fold_trie *dst, const fold_trie *src, uint32_t froot, uint32_t p,
			      double before, double after, uint32_t cap)
{
	uint32_t node = froot;
	for (; p != FOLD_ROOT; p = src->parent[p]) {
		uint32_t name = copy_name(dst, src, p);
		if (name == FOLD_NONE || (node = fold_trie_child(dst, node, name)) == FOLD_NONE)
			return -ENOMEM;
		if (dst->nnodes > cap)
			return -E2BIG;
	}
	return add_counts(dst, node, src, before, after);
}

static int build_callers(fold_trie *dst, const fold_trie *src, const uint32_t *outer, uint32_t froot)
{
	double *sum = calloc(src->nnodes, sizeof *sum);
	double *bsum = src->base ? calloc(src->nnodes, sizeof *bsum) : NULL;
	int rc = (!sum || (src->base && !bsum)) ? -ENOMEM : 0;
	uint64_t cap64 = (uint64_t)src->nnodes * SANDWICH_NODE_FACTOR + SANDWICH_NODE_SLACK;
	uint32_t cap = cap64 > FOLD_MAX_NODES ? FOLD_MAX_NODES : (uint32_t)cap64;
	if (rc == 0)
		sum_by_caller(src, outer, sum, bsum);
	for (uint32_t p = 0; p < src->nnodes && rc == 0; p++) {
		if (sum[p] != 0 || (bsum && bsum[p] != 0))
			rc = insert_caller_path(dst, src, froot, p, bsum ? bsum[p] : 0, sum[p], cap);
	}
	free(sum);
	free(bsum);
	return rc;
}

int fold_sandwich(const fold_trie *src, const char *name, size_t len, enum fold_half half, fold_trie **out)
{
	unsigned char *is_f = NULL;
	uint32_t *outer = NULL;
	fold_trie *dst = NULL;
	int rc = match_names(src, name, len, &is_f);
	if (rc == 0)
		rc = -ENOENT;
	if (rc > 0)
		rc = (outer = outermost(src, is_f)) && (dst = fold_trie_new()) ? 0 : -ENOMEM;
	if (rc == 0 && src->base)
		rc = fold_trie_make_diff(dst);
	uint32_t fname = rc == 0 ? fold_trie_intern(dst, name, len) : FOLD_NONE;
	uint32_t froot = fname == FOLD_NONE ? FOLD_NONE : fold_trie_child(dst, FOLD_ROOT, fname);
	if (rc == 0 && froot == FOLD_NONE)
		rc = -ENOMEM;
	if (rc == 0)
		rc = half == FOLD_CALLEES ? build_callees(dst, src, outer, froot)
					  : build_callers(dst, src, outer, froot);
	if (rc == 0) {
		memcpy(dst->meta, src->meta, sizeof dst->meta);
		*out = dst;
		dst = NULL;
	}
	fold_trie_free(dst);
	free(outer);
	free(is_f);
	return rc;
}
