/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * fold/model/libshare.c — how a profile's samples split between its libraries:
 * each library's self and total count, most self first.  One computation
 * for every place that shows it: record's table on stderr (cli/by-lib.c),
 * the SVG's library panel and the `--colors=lib` legend (render/svg.c).
 *
 * Trade-off: a node's total is added to its library unless the library
 * appears above it on its path, found by walking to the root: O(nodes x
 * depth) instead of a second pass that carries a per-path set of
 * libraries; libraries are few and the walk stops at the first match.
 *
 * Invariants:
 *  1. A library's total counts a sample once, however many times the
 *     library appears in its stack (a callback into the app from a library
 *     called by the app counts once for each).
 *  2. Rows are sorted by self count, most first; equal counts by library
 *     name (its bytes), so every view orders ties the same way, and so
 *     does a profile read back from its SVG, whose name ids differ (by
 *     id, two libraries of a short recording with one sample each could
 *     swap rows in the SVG a render of the recorded SVG wrote: CI saw
 *     tests/record/t-lines.sh's round trip fail so).
 *  3. Frames without a library (fold_trie_lib() == FOLD_NONE) are in no
 *     row: the rows' self counts sum to at most the profile's total.
 *  4. A waiting sample's state pseudo-frame ("[runnable]", "[blocked]",
 *     "[offline]", fold/model/when.c) is not a function: its self count
 *     is its parent's library's, as the sample stopped in that function.
 *     So the table and `fold --by=lib` agree whatever the machine's load.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "fold/model/model.h"

static int by_self(const void *a, const void *b, void *trie)
{
	const struct fold_lib_share *x = a, *y = b;
	if (x->self != y->self)
		return x->self < y->self ? 1 : -1;
	size_t xl, yl;
	const char *xs = fold_trie_name(trie, x->lib, &xl), *ys = fold_trie_name(trie, y->lib, &yl);
	int c = memcmp(xs, ys, xl < yl ? xl : yl);
	if (c || xl != yl)
		return c ? c : xl < yl ? -1 : 1;
	return (x->lib > y->lib) - (x->lib < y->lib);
}

/* Is `lib` the library of an ancestor of node? (invariant 1) */
static int lib_above(const fold_trie *t, uint32_t node, uint32_t lib)
{
	for (uint32_t i = t->parent[node]; i != FOLD_ROOT; i = t->parent[i])
		if (fold_trie_lib(t, t->name[i]) == lib)
			return 1;
	return 0;
}

/* Is name id nm one of the state pseudo-frames? (invariant 4) */
static int is_state_frame(const fold_trie *t, uint32_t nm)
{
	size_t len, flen;
	const char *s = fold_trie_name(t, nm, &len);
	if (len < 2 || s[0] != '[')
		return 0;
	for (int st = 0; st < UF_RS_COUNT; st++) {
		const char *f = fold_state_frame((enum uf_runstate)st, &flen);
		if (f && flen == len && memcmp(f, s, len) == 0)
			return 1;
	}
	return 0;
}

/* The node whose library a node's self count belongs to (invariant 4). */
static uint32_t self_owner(const fold_trie *t, uint32_t node)
{
	uint32_t up = t->parent[node];
	return up != FOLD_ROOT && is_state_frame(t, t->name[node]) ? up : node;
}

int fold_lib_shares(const fold_trie *t, struct fold_lib_share **out, uint32_t *n)
{
	*out = NULL;
	*n = 0;
	if (!t->lib_of)
		return 0;
	struct fold_lib_share *rows = calloc(t->nnames ? t->nnames : 1, sizeof *rows);
	uint32_t *slot = malloc((t->nnames ? t->nnames : 1) * sizeof *slot), nrows = 0;
	if (!rows || !slot) {
		free(rows);
		free(slot);
		return -ENOMEM;
	}
	memset(slot, 0xff, (size_t)t->nnames * sizeof *slot);
	for (uint32_t i = 1; i < t->nnodes; i++) {
		uint32_t owner = self_owner(t, i);
		uint32_t lib = fold_trie_lib(t, t->name[owner]);
		if (lib == FOLD_NONE || lib >= t->nnames)
			continue;
		if (slot[lib] == UINT32_MAX) {
			slot[lib] = nrows;
			rows[nrows++].lib = lib;
		}
		rows[slot[lib]].self += t->self[i];
		if (owner == i && !lib_above(t, i, lib))
			rows[slot[lib]].total += t->total[i];
	}
	free(slot);
	qsort_r(rows, nrows, sizeof *rows, by_self, (void *)t);
	*out = rows;
	*n = nrows;
	return 0;
}
