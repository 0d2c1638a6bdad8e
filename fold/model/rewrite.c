/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * fold/model/rewrite.c — the views that rebuild a whole trie from its
 * call paths: `--by=lib` (each frame named after its library),
 * `--inline` (a frame whose name holds FOLD_INLINE_SEP becomes one frame
 * per part) and `--colors chain` (flamegraph.pl's waker-chain rewrite).
 * `--state` on folded input (each stack's state read from its leaf
 * pseudo-frame) is the fifth.
 * They live in one file so a new view is written beside the others and
 * the CLI and the renderer only pick one; fold_sandwich (sandwich.c) is
 * the fourth, kept apart for its caps and its own walk.
 *
 * Design: each view walks every node that holds samples (or, for a
 * flame chart's chain, every recorded sample in order) from the root,
 * maps each frame to its new name(s) and adds the counts at the end of
 * the new path in a fresh trie.  O(nodes x depth) time, one path buffer
 * (maxdepth + 2 ids) and a name map; the new trie is at most the old
 * one's size (by-lib) or its size times the parts per name (inline,
 * chain's "--" leaf: one node more per path).  Rebuilding from the call
 * paths instead of from the samples is what makes a view of a recorded
 * SVG equal the live one.
 *
 * Invariants (tests/unit/test-rewrite.c):
 *  1. Every sample is kept: the new trie's total (and BEFORE total) equals
 *     the old one's.
 *  2. The input is not changed; the output is finished, owned by the
 *     caller, with the input's metadata (`meta`).
 *  3. A failure (-ENOMEM) leaves *out untouched and frees what it built.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "fold/model/model.h"

static uint32_t *path_buffer(const fold_trie *t);
static int begin_by_name(const fold_trie *t, fold_trie **v, uint32_t **path, uint32_t **map);
static int add_count(const fold_trie *t, fold_trie *v, uint32_t at, uint32_t node);
static int lib_path(const fold_trie *t, fold_trie *v, uint32_t node, uint32_t *path, uint32_t *map);
static int inline_path(const fold_trie *t, fold_trie *v, uint32_t node, uint32_t *path,
		       uint32_t *last);
static int inline_locs(const fold_trie *t, fold_trie *v, const uint32_t *last);
static int chain_add(const fold_trie *src, fold_trie *dst, uint32_t node, double self, double base,
		     uint32_t *path, char *buf);
static int finish_into(const fold_trie *t, fold_trie *v, int rc, fold_trie **out);
static enum uf_runstate frame_state(const fold_trie *t, uint32_t nm);
static int copy_path(const fold_trie *t, fold_trie *v, uint32_t node, uint32_t *path,
		     uint32_t *map, uint32_t *at);
static int copy_locs(const fold_trie *t, fold_trie *v, uint32_t node, uint32_t at);
static int states_meta(const fold_trie *t, fold_trie *v);

/* ---- public ---------------------------------------------------------------- */

int fold_rewrite_by_lib(const fold_trie *t, fold_trie **out)
{
	fold_trie *v;
	uint32_t *path, *map;
	int rc = begin_by_name(t, &v, &path, &map);
	for (uint32_t i = 1; i < t->nnodes && rc == 0; i++)
		if (t->self[i] != 0 || (t->base && t->base[i] != 0))
			rc = lib_path(t, v, i, path, map);
	if (rc == 0 && (t->self[0] != 0 || (t->base && t->base[0] != 0)))
		rc = add_count(t, v, FOLD_ROOT, FOLD_ROOT);
	free(path);
	free(map);
	return finish_into(t, v, rc, out);
}

int fold_rewrite_inline(const fold_trie *t, fold_trie **out)
{
	fold_trie *v = fold_trie_new();
	uint32_t *path = path_buffer(t);
	uint32_t *last = malloc(((size_t)t->nnodes + 1) * sizeof *last);
	int rc = v && path && last ? 0 : -ENOMEM;
	if (last)
		memset(last, 0xff, ((size_t)t->nnodes + 1) * sizeof *last);
	for (uint32_t i = 1; i < t->nnodes && rc == 0; i++)
		if (t->self[i] != 0 || (t->base && t->base[i] != 0))
			rc = inline_path(t, v, i, path, last);
	if (rc == 0 && t->self[0] != 0)
		rc = fold_trie_add(v, FOLD_ROOT, t->self[0]);
	if (rc == 0 && t->locs)
		rc = inline_locs(t, v, last);
	free(path);
	free(last);
	return finish_into(t, v, rc, out);
}

int fold_rewrite_chain(const fold_trie *t, fold_trie **out)
{
	fold_trie *c = fold_trie_new();
	uint32_t *path = path_buffer(t);
	char *buf = malloc(FOLD_MAX_NAME + 1); /* a name and its "_[w]" */
	int rc = c && path && buf ? 0 : -ENOMEM;
	if (rc == 0 && t->keep_seq && t->seq_len) {
		fold_trie_keep_sequence(c);
		for (size_t i = 0; i < t->seq_len && rc == 0; i++)
			rc = chain_add(t, c, t->seq_node[i], t->seq_count[i],
				       t->seq_base ? t->seq_base[i] : 0, path, buf);
	} else {
		for (uint32_t i = 0; i < t->nnodes && rc == 0; i++)
			if (t->self[i] != 0 || (t->base && t->base[i] != 0))
				rc = chain_add(t, c, i, t->self[i], t->base ? t->base[i] : 0, path, buf);
	}
	free(path);
	free(buf);
	return finish_into(t, c, rc, out);
}

int fold_rewrite_state_frames(const fold_trie *t, unsigned states, fold_trie **out)
{
	size_t ml;
	int told = fold_meta_get(t, "states", &ml) != NULL;
	for (uint32_t nm = 0; nm < t->nnames && !told; nm++)
		told = frame_state(t, nm) != UF_RS_RUNNING;
	if (!told)
		return -ENOENT;
	fold_trie *v;
	uint32_t *path, *map;
	int rc = begin_by_name(t, &v, &path, &map);
	int chart = t->keep_seq && t->seq_len;
	if (chart)
		fold_trie_keep_sequence(v);
	size_t n = chart ? t->seq_len : t->nnodes;
	for (size_t k = 0; k < n && rc == 0; k++) { /* the root: an empty stack, running */
		uint32_t i = chart ? t->seq_node[k] : (uint32_t)k;
		double self = chart ? t->seq_count[k] : t->self[i];
		if (self == 0 && !(t->base && t->base[i] != 0))
			continue;
		enum uf_runstate st = frame_state(t, t->name[i]);
		uint32_t at;
		v->states_seen |= UF_RS_BIT(st);
		if (!(states & UF_RS_BIT(st))) {
			v->cut_dropped += self;
			continue;
		}
		v->state_count[st] += self;
		if ((rc = copy_path(t, v, i, path, map, &at)) != 0)
			break;
		if (chart) /* a flame chart keeps its order; source positions are the tree's */
			rc = fold_trie_add(v, at, self);
		else if ((rc = add_count(t, v, at, i)) == 0)
			rc = copy_locs(t, v, i, at);
	}
	if (rc == 0) {
		v->cut = t->cut;
		v->cut_dropped += t->cut_dropped;
	}
	free(path);
	free(map);
	if ((rc = finish_into(t, v, rc, out)) == 0 && (rc = states_meta(t, *out)) != 0) {
		fold_trie_free(*out);
		*out = NULL;
	}
	return rc;
}

int fold_rewrite_drop_empty(const fold_trie *t, fold_trie **out)
{
	fold_trie *v;
	uint32_t *path, *map;
	int rc = begin_by_name(t, &v, &path, &map);
	for (uint32_t i = 0; i < t->nnodes && rc == 0; i++) {
		uint32_t at;
		if (t->self[i] == 0 && !(t->base && t->base[i] != 0))
			continue;
		if ((rc = copy_path(t, v, i, path, map, &at)) == 0 && (rc = add_count(t, v, at, i)) == 0)
			rc = copy_locs(t, v, i, at);
	}
	if (rc == 0)
		fold_trie_when_merge(v, t);
	free(path);
	free(map);
	return finish_into(t, v, rc, out);
}

/* ---- shared ---------------------------------------------------------------- */

/* Room for any node's path from the root (ids), NULL on OOM. */
static uint32_t *path_buffer(const fold_trie *t)
{
	return malloc(((size_t)t->maxdepth + 2) * sizeof(uint32_t));
}

/* A fresh trie, a path buffer and a name map (t's name id -> v's, all
 * FOLD_NONE) for a view that renames frames one name at a time; -ENOMEM
 * with whatever was made still to free (NULL for what was not). */
static int begin_by_name(const fold_trie *t, fold_trie **v, uint32_t **path, uint32_t **map)
{
	*v = fold_trie_new();
	*path = path_buffer(t);
	*map = malloc(((size_t)t->nnames + 1) * sizeof **map);
	if (*map)
		memset(*map, 0xff, ((size_t)t->nnames + 1) * sizeof **map);
	return *v && *path && *map ? 0 : -ENOMEM;
}

/* Adds t's `node`'s counts (self, and BEFORE when differential) at v's `at`. */
static int add_count(const fold_trie *t, fold_trie *v, uint32_t at, uint32_t node)
{
	return t->base ? fold_trie_add2(v, at, t->base[node], t->self[node]) : fold_trie_add(v, at, t->self[node]);
}

/* Finishes v and hands it out with t's metadata (rc == 0), or frees it. */
static int finish_into(const fold_trie *t, fold_trie *v, int rc, fold_trie **out)
{
	if (rc == 0)
		rc = fold_trie_finish(v);
	if (rc) {
		fold_trie_free(v);
		return -ENOMEM;
	}
	memcpy(v->meta, t->meta, sizeof v->meta);
	*out = v;
	return 0;
}

/* ---- --by=lib -------------------------------------------------------------- */

/* Name id in v of t's name `nm` seen by library: its library's name, or
 * its own when it has none; a library is its own library in v. */
static uint32_t lib_name(const fold_trie *t, fold_trie *v, uint32_t nm, uint32_t *map)
{
	if (map[nm] != UINT32_MAX)
		return map[nm];
	uint32_t lib = fold_trie_lib(t, nm);
	size_t len;
	const char *s = fold_trie_name(t, lib == FOLD_NONE ? nm : lib, &len);
	uint32_t id = fold_trie_intern(v, s, len);
	if (id != FOLD_NONE && lib != FOLD_NONE && fold_trie_set_lib(v, id, s, len) < 0)
		id = FOLD_NONE;
	return map[nm] = id;
}

/* Adds node's counts under its library path in v; consecutive frames of
 * one library become one frame (a library calling itself). */
static int lib_path(const fold_trie *t, fold_trie *v, uint32_t node, uint32_t *path, uint32_t *map)
{
	uint32_t n = 0;
	for (uint32_t i = node; i != FOLD_ROOT; i = t->parent[i])
		path[n++] = i;
	uint32_t at = FOLD_ROOT, prev = FOLD_NONE;
	while (n-- > 0) {
		uint32_t id = lib_name(t, v, t->name[path[n]], map);
		if (id == FOLD_NONE)
			return -ENOMEM;
		if (id == prev)
			continue;
		if ((at = fold_trie_child(v, at, id)) == FOLD_NONE)
			return -ENOMEM;
		prev = id;
	}
	return add_count(t, v, at, node);
}

/* ---- --inline -------------------------------------------------------------- */

/* Adds node's counts under its path in v, each name split at
 * FOLD_INLINE_SEP (every part keeps the name's library); last[i] gets the
 * node in v of old node i's last part. */
static int inline_path(const fold_trie *t, fold_trie *v, uint32_t node, uint32_t *path,
		       uint32_t *last)
{
	uint32_t n = 0, at = FOLD_ROOT;
	for (uint32_t i = node; i != FOLD_ROOT; i = t->parent[i])
		path[n++] = i;
	while (n-- > 0) {
		size_t len;
		uint32_t nm = t->name[path[n]], lib = fold_trie_lib(t, nm);
		const char *s = fold_trie_name(t, nm, &len), *end = s + len;
		size_t ln = 0;
		const char *ls = lib == FOLD_NONE ? NULL : fold_trie_name(t, lib, &ln);
		while (s <= end) {
			const char *sep = memchr(s, FOLD_INLINE_SEP, (size_t)(end - s));
			size_t k = sep ? (size_t)(sep - s) : (size_t)(end - s);
			uint32_t id = fold_trie_intern(v, s, k);
			if (id == FOLD_NONE || (ls && fold_trie_set_lib(v, id, ls, ln) < 0) ||
			    (at = fold_trie_child(v, at, id)) == FOLD_NONE)
				return -ENOMEM;
			s += k + 1;
		}
		last[path[n]] = at;
	}
	return add_count(t, v, at, node);
}

/* The source positions of t's nodes onto v's: a position holds one part
 * per name part (FOLD_INLINE_SEP between them, an empty part unknown),
 * and part j of old node i goes to the j-th of the nodes its name became. */
static int inline_locs(const fold_trie *t, fold_trie *v, const uint32_t *last)
{
	for (uint32_t i = 1; i < t->nnodes; i++) {
		size_t nl, ll;
		const char *nm = fold_node_name(t, i, &nl);
		uint32_t parts = 1, loc;
		double c;
		for (const char *p = nm; (p = memchr(p, FOLD_INLINE_SEP, (size_t)(nm + nl - p))); p++)
			parts++;
		for (uint32_t e = fold_loc_next(t, i, FOLD_NONE, &loc, &c); e != FOLD_NONE && last[i] != FOLD_NONE;
		     e = fold_loc_next(t, i, e, &loc, &c)) {
			const char *p = fold_loc_str(t, loc, &ll), *end = p + ll;
			for (uint32_t j = 0; p <= end && j < parts; j++) {
				const char *sep = memchr(p, FOLD_INLINE_SEP, (size_t)(end - p));
				size_t k = sep ? (size_t)(sep - p) : (size_t)(end - p);
				uint32_t at = last[i];
				for (uint32_t u = j; u + 1 < parts; u++)
					at = v->parent[at];
				uint32_t id = k ? fold_loc_intern(v, p, k) : FOLD_NONE;
				if (k && (id == FOLD_NONE || fold_loc_add(v, at, id, c) < 0))
					return -ENOMEM;
				p += k + 1;
			}
		}
	}
	return 0;
}

/* ---- --colors chain -------------------------------------------------------- */

/* flamegraph.pl rewrites every stack for the chain palette before drawing:
 * the stack is cut at each "--" frame that has a frame on both sides
 * (non-overlapping, left to right); the first part is kept, then "--",
 * then every later part with "_[w]" appended to each of its frames, the
 * parts joined by "--".  A stack without a separator so gains a "--"
 * leaf.  The "_[w]" names key the waker colour (aqua) and their hash, as
 * in flamegraph.pl; tooltips and labels strip the annotation. */
static int chain_path(const fold_trie *src, fold_trie *dst, const uint32_t *path, uint32_t k,
		      char *buf, uint32_t *out_node)
{
	uint32_t node = FOLD_ROOT, dashes = fold_trie_intern(dst, "--", 2);
	int waker = 0;
	uint32_t last_sep = 0;
	for (uint32_t i = 0; i < k && dashes != FOLD_NONE; i++) {
		size_t len;
		const char *nm = fold_node_name(src, path[i], &len);
		uint32_t id;
		if (i >= 1 && i + 2 <= k && len == 2 && !memcmp(nm, "--", 2) &&
		    (!waker || i >= last_sep + 2)) {
			waker = 1, last_sep = i;
			id = dashes;
		} else if (waker && len + 4 <= FOLD_MAX_NAME) {
			memcpy(buf, nm, len);
			memcpy(buf + len, "_[w]", 4);
			id = fold_trie_intern(dst, buf, len + 4);
		} else {
			id = fold_trie_intern(dst, nm, len);
		}
		if (id == FOLD_NONE || (node = fold_trie_child(dst, node, id)) == FOLD_NONE)
			return -ENOMEM;
	}
	if (!waker && (dashes == FOLD_NONE || (node = fold_trie_child(dst, node, dashes)) == FOLD_NONE))
		return -ENOMEM;
	*out_node = node;
	return 0;
}

/* Adds the rewritten path of src's `node` to dst with these counts. */
static int chain_add(const fold_trie *src, fold_trie *dst, uint32_t node, double self, double base,
		     uint32_t *path, char *buf)
{
	uint32_t k = fold_trie_depth(src, node), dn;
	for (uint32_t n = node, i = k; i > 0; n = src->parent[n])
		path[--i] = n;
	int rc = chain_path(src, dst, path, k, buf, &dn);
	if (rc)
		return rc;
	return src->base ? fold_trie_add2(dst, dn, base, self) : fold_trie_add(dst, dn, self);
}

/* ---- --state on folded input ---------------------------------------------- */

/* The state a stack ending in name nm is in: the pseudo-frame's, or running. */
static enum uf_runstate frame_state(const fold_trie *t, uint32_t nm)
{
	size_t len, flen;
	const char *s = fold_trie_name(t, nm, &len);
	if (len < 2 || s[0] != '[')
		return UF_RS_RUNNING;
	for (unsigned st = 0; st < UF_RS_COUNT; st++) {
		const char *f = fold_state_frame((enum uf_runstate)st, &flen);
		if (f && flen == len && memcmp(f, s, len) == 0)
			return (enum uf_runstate)st;
	}
	return UF_RS_RUNNING;
}

/* t's node's path into v, each name keeping its library; *at is the node in v. */
static int copy_path(const fold_trie *t, fold_trie *v, uint32_t node, uint32_t *path,
		     uint32_t *map, uint32_t *at)
{
	uint32_t n = 0;
	for (uint32_t i = node; i != FOLD_ROOT; i = t->parent[i])
		path[n++] = i;
	*at = FOLD_ROOT;
	while (n-- > 0) {
		uint32_t nm = t->name[path[n]];
		if (map[nm] == UINT32_MAX) {
			size_t len, ll;
			const char *s = fold_trie_name(t, nm, &len);
			uint32_t lib = fold_trie_lib(t, nm), id = fold_trie_intern(v, s, len);
			const char *ls = lib == FOLD_NONE ? NULL : fold_trie_name(t, lib, &ll);
			if (id == FOLD_NONE || (ls && fold_trie_set_lib(v, id, ls, ll) < 0))
				return -ENOMEM;
			map[nm] = id;
		}
		if ((*at = fold_trie_child(v, *at, map[nm])) == FOLD_NONE)
			return -ENOMEM;
	}
	return 0;
}

/* t's source positions of node onto v's node at. */
static int copy_locs(const fold_trie *t, fold_trie *v, uint32_t node, uint32_t at)
{
	uint32_t loc;
	double c;
	if (!t->locs)
		return 0;
	for (uint32_t e = fold_loc_next(t, node, FOLD_NONE, &loc, &c); e != FOLD_NONE;
	     e = fold_loc_next(t, node, e, &loc, &c)) {
		size_t len;
		const char *s = fold_loc_str(t, loc, &len);
		uint32_t id = fold_loc_intern(v, s, len);
		if (id == FOLD_NONE || fold_loc_add(v, at, id, c) < 0)
			return -ENOMEM;
	}
	return 0;
}

/* v's metadata: t's, its `states:` line replaced by v's kept counts. */
static int states_meta(const fold_trie *t, fold_trie *v)
{
	v->meta[0] = 0;
	for (const char *p = t->meta; *p;) {
		const char *nl = strchr(p, '\n');
		size_t n = nl ? (size_t)(nl - p) + 1 : strlen(p), have = strlen(v->meta);
		if (strncmp(p, "states: ", 8) != 0 && have + n < sizeof v->meta) {
			memcpy(v->meta + have, p, n);
			v->meta[have + n] = 0;
		}
		p += n;
	}
	char text[256];
	if (fold_trie_state_text(v, text, sizeof text) && fold_meta_add(v, "states", text) < 0)
		return -ENOMEM;
	return 0;
}
