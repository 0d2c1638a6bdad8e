/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * cli/by-lib.c — the views every command can ask of a trie: library-level
 * views of a trie whose names carry their library (fold_trie_set_lib:
 * record sets them, an SVG carries them): `--by=lib` (a library-level
 * flame graph) and record's per-library table (its figures from
 * fold_lib_shares); and `--callers/--callees NAME` (fold_sandwich, the
 * model's rewrite; here only its options and messages).
 *
 * Trade-off: the view is rebuilt from the call paths (every node with
 * self samples walks to the root), O(nodes x depth), instead of being
 * folded that way from the samples: it then works the same on a live
 * recording and on a recorded SVG, which is what makes `fold --by=lib`
 * of the SVG equal the live one.
 *
 * Invariants:
 *  1. The view keeps every sample: its total equals the input's.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/render-opts.h"

static int add_path(const fold_trie *t, fold_trie *v, uint32_t node, uint32_t *path, uint32_t *map);

int cli_by_lib_apply(fold_trie **tp, int by_lib, struct uf_err *err)
{
	fold_trie *t = *tp;
	if (!by_lib)
		return 0;
	fold_trie *v = fold_trie_new();
	uint32_t *path = malloc(((size_t)t->maxdepth + 2) * sizeof *path);
	uint32_t *map = malloc((size_t)t->nnames * sizeof *map); /* name id in t -> in v */
	int rc = v && path && map ? 0 : -ENOMEM;
	if (map)
		memset(map, 0xff, (size_t)t->nnames * sizeof *map);
	for (uint32_t i = 1; i < t->nnodes && rc == 0; i++)
		if (t->self[i] != 0 || (t->base && t->base[i] != 0))
			rc = add_path(t, v, i, path, map);
	if (rc == 0 && (t->self[0] != 0 || (t->base && t->base[0] != 0)))
		rc = t->base ? fold_trie_add2(v, FOLD_ROOT, t->base[0], t->self[0])
			     : fold_trie_add(v, FOLD_ROOT, t->self[0]);
	if (rc == 0)
		rc = fold_trie_finish(v);
	free(path);
	free(map);
	if (rc) {
		fold_trie_free(v);
		uf_err_set(err, UF_EINPUT, "--by=lib", "out of memory");
		return -ENOMEM;
	}
	memcpy(v->meta, t->meta, sizeof v->meta);
	fold_trie_free(t);
	*tp = v;
	return 0;
}

/* Name id in v of t's name `nm` seen by library: its library's name, or
 * its own when it has none; a library is its own library in v. */
static uint32_t view_name(const fold_trie *t, fold_trie *v, uint32_t nm, uint32_t *map)
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

/* Adds node's self (and base) count under its library path in v. */
static int add_path(const fold_trie *t, fold_trie *v, uint32_t node, uint32_t *path, uint32_t *map)
{
	uint32_t n = 0;
	for (uint32_t i = node; i != FOLD_ROOT; i = t->parent[i])
		path[n++] = i;
	uint32_t at = FOLD_ROOT, prev = FOLD_NONE;
	while (n-- > 0) {
		uint32_t id = view_name(t, v, t->name[path[n]], map);
		if (id == FOLD_NONE)
			return -ENOMEM;
		if (id == prev) /* the same library calling itself: one frame */
			continue;
		if ((at = fold_trie_child(v, at, id)) == FOLD_NONE)
			return -ENOMEM;
		prev = id;
	}
	return t->base ? fold_trie_add2(v, at, t->base[node], t->self[node])
		       : fold_trie_add(v, at, t->self[node]);
}

/* Adds node's counts under its path in v, each name split at
 * CLI_INLINE_SEP; last[i] gets the node in v of old node i's last part. */
static int add_split(const fold_trie *t, fold_trie *v, uint32_t node, uint32_t *path, uint32_t *last)
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
			const char *sep = memchr(s, CLI_INLINE_SEP, (size_t)(end - s));
			size_t k = sep ? (size_t)(sep - s) : (size_t)(end - s);
			uint32_t id = fold_trie_intern(v, s, k);
			if (id == FOLD_NONE || (ls && fold_trie_set_lib(v, id, ls, ln) < 0) ||
			    (at = fold_trie_child(v, at, id)) == FOLD_NONE)
				return -ENOMEM;
			s += k + 1;
		}
		last[path[n]] = at;
	}
	return t->base ? fold_trie_add2(v, at, t->base[node], t->self[node]) : fold_trie_add(v, at, t->self[node]);
}

/* The source positions of t's nodes onto v's: a position holds one part
 * per name part (CLI_INLINE_SEP between them, an empty part unknown), and
 * part j of old node i goes to the j-th of the nodes its name became. */
static int split_locs(const fold_trie *t, fold_trie *v, const uint32_t *last)
{
	for (uint32_t i = 1; i < t->nnodes; i++) {
		size_t nl, ll;
		const char *nm = fold_node_name(t, i, &nl);
		uint32_t parts = 1, loc;
		double c;
		for (const char *p = nm; (p = memchr(p, CLI_INLINE_SEP, (size_t)(nm + nl - p))); p++)
			parts++;
		for (uint32_t e = fold_loc_next(t, i, FOLD_NONE, &loc, &c); e != FOLD_NONE && last[i] != FOLD_NONE;
		     e = fold_loc_next(t, i, e, &loc, &c)) {
			const char *p = fold_loc_str(t, loc, &ll), *end = p + ll;
			for (uint32_t j = 0; p <= end && j < parts; j++) {
				const char *sep = memchr(p, CLI_INLINE_SEP, (size_t)(end - p));
				size_t k = sep ? (size_t)(sep - p) : (size_t)(end - p);
				uint32_t node = last[i];
				for (uint32_t u = j; u + 1 < parts; u++)
					node = v->parent[node];
				uint32_t id = k ? fold_loc_intern(v, p, k) : FOLD_NONE;
				if (k && (id == FOLD_NONE || fold_loc_add(v, node, id, c) < 0))
					return -ENOMEM;
				p += k + 1;
			}
		}
	}
	return 0;
}

int cli_split_inline(fold_trie **tp, struct uf_err *err)
{
	fold_trie *t = *tp, *v = fold_trie_new();
	uint32_t *path = malloc(((size_t)t->maxdepth + 2) * sizeof *path);
	uint32_t *last = malloc((size_t)t->nnodes * sizeof *last);
	int rc = v && path && last ? 0 : -ENOMEM;
	if (last)
		memset(last, 0xff, (size_t)t->nnodes * sizeof *last);
	for (uint32_t i = 1; i < t->nnodes && rc == 0; i++)
		if (t->self[i] != 0 || (t->base && t->base[i] != 0))
			rc = add_split(t, v, i, path, last);
	if (rc == 0 && t->self[0] != 0)
		rc = fold_trie_add(v, FOLD_ROOT, t->self[0]);
	if (rc == 0 && t->locs)
		rc = split_locs(t, v, last);
	if (rc == 0)
		rc = fold_trie_finish(v);
	free(path);
	free(last);
	if (rc) {
		fold_trie_free(v);
		uf_err_set(err, UF_EINPUT, "--inline", "out of memory");
		return -ENOMEM;
	}
	memcpy(v->meta, t->meta, sizeof v->meta);
	fold_trie_free(t);
	*tp = v;
	return 0;
}

char *cli_lib_table(const fold_trie *t)
{
	if (!t->lib_of || t->total[0] <= 0)
		return NULL;
	struct fold_lib_share *rows;
	uint32_t nrows;
	char *text = NULL;
	size_t tlen = 0;
	if (fold_lib_shares(t, &rows, &nrows) != 0)
		return NULL;
	FILE *f = open_memstream(&text, &tlen);
	if (!f)
		goto out;
	fprintf(f, "uniprof-flame: %-24s %7s %7s\n", "library", "self", "total");
	for (uint32_t k = 0; k < nrows && k < 20; k++) {
		size_t len;
		const char *s = fold_trie_name(t, rows[k].lib, &len);
		fprintf(f, "uniprof-flame:   %-22.*s %6.1f%% %6.1f%%\n", (int)(len < 60 ? len : 60), s,
			100 * rows[k].self / t->total[0], 100 * rows[k].total / t->total[0]);
	}
	if (nrows > 20)
		fprintf(f, "uniprof-flame:   (%u more libraries)\n", nrows - 20);
	fclose(f);
out:
	free(rows);
	return text;
}

int cli_sandwich_apply(fold_trie **tp, const char *callers, const char *callees, struct uf_err *err)
{
	const char *name = callers ? callers : callees;
	const char *opt = callers ? "--callers" : "--callees";
	if (!name)
		return 0;
	if (callers && callees) {
		uf_err_set(err, UF_EUSAGE, "--callers", "cannot be combined with --callees (one half at a time)");
		return -EINVAL;
	}
	fold_trie *v = NULL;
	int rc = fold_sandwich(*tp, name, strlen(name), callers ? FOLD_CALLERS : FOLD_CALLEES, &v);
	if (rc == 0 && (rc = fold_trie_finish(v)) != 0)
		fold_trie_free(v);
	if (rc == -ENOENT)
		uf_err_set(err, UF_EINPUT, opt, "no frame is named '%s' (names as the tooltips show them)", name);
	else if (rc == -E2BIG)
		uf_err_set(err, UF_EINPUT, opt, "the callers of '%s' would take more than 16 x the profile's frames",
			   name);
	else if (rc)
		uf_err_set(err, UF_EINPUT, opt, "out of memory");
	if (rc)
		return rc == -ENOMEM ? -ENOMEM : -EINVAL;
	fold_trie_free(*tp);
	*tp = v;
	return 0;
}
