/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * sampler/output.c — a recording turned into names (a fold_trie) or into
 * uniprof's raw trace text, after sampling has ended.
 *
 * Every distinct (address, is-return) pair is resolved exactly once
 * through a cache, then each distinct (thread, stack) pair becomes one
 * trie path.  Trade-off: the cache costs 16 bytes per distinct address,
 * but symbol lookups (binary searches, maybe /proc reads) run once per
 * address instead of once per frame of every stack.
 *
 * Invariants:
 *  1. Names come only from the resolver; an empty answer is "[unknown]".
 *  2. Trie paths run root (outermost caller) to leaf (frame 0).
 *  3. In sequence mode, samples are added in recording order, each with
 *     its time and run state.
 *  4. Source positions come only from o->locate, one lookup per distinct
 *     (address, is-return) like names; each frame's position is counted
 *     at that frame's node with the samples of the stack (fold_loc_add),
 *     so a node's positions add up to its total where all are known.
 *  5. A waiting sample's path ends in its state's pseudo-frame
 *     (fold_trie_state_leaf); the trie's cut (--time, --state) decides
 *     which samples are added at all.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "sampler/sampler.h"
#include "util/hash.h"

#define NAME_BUF 4096

struct name_cache {
	uint64_t *addr;
	uint32_t *name;   /* name id + 1, 0 = empty slot */
	size_t cap;       /* power of two */
	size_t used;
};

static int cache_grow(struct name_cache *c);
static uint32_t frame_name(fold_trie *t, struct name_cache *c, const struct sampler_fold_opts *o,
			   uint64_t addr, int is_return, char *buf);
static uint32_t frame_loc(fold_trie *t, struct name_cache *c, const struct sampler_fold_opts *o,
			  uint64_t addr, int is_return, char *buf);
struct caches {
	struct name_cache names, locs;
};
static uint32_t stack_node(const struct sampler *s, fold_trie *t, struct caches *c,
			   const struct sampler_fold_opts *o, uint64_t key, double count, char *buf);
static int64_t pair_slot(const struct sampler *s, uint64_t key);
static int fold_pairs(const struct sampler *s, fold_trie *t, struct caches *c,
		      const struct sampler_fold_opts *o, uint32_t *node, char *buf);
static int fold_events(const struct sampler *s, fold_trie *t, struct caches *c,
		       const struct sampler_fold_opts *o, uint32_t *node, char *buf);

#define NODE_UNSET (FOLD_NONE - 1) /* a pair's node not built yet */

int sampler_fold(const struct sampler *s, fold_trie *t, const struct sampler_fold_opts *o,
		 struct uf_err *err)
{
	if (t->cut.timed && !s->keep_sequence) {
		uf_err_set(err, UF_EUSAGE, "fold", "a time cut needs the samples' times (the sequence)");
		return -EINVAL;
	}
	struct caches c = { { 0 }, { 0 } };
	char *buf = malloc(NAME_BUF);
	uint32_t *node = s->pairs_cap ? malloc(s->pairs_cap * sizeof *node) : NULL;
	int rc = -ENOMEM;
	if (!buf || (s->pairs_cap && !node) || cache_grow(&c.names) < 0 ||
	    (o->locate && cache_grow(&c.locs) < 0))
		goto out;
	for (size_t i = 0; i < s->pairs_cap; i++)
		node[i] = NODE_UNSET;
	if (o->sequence)
		fold_trie_keep_sequence(t);
	rc = o->sequence || t->cut.timed ? fold_events(s, t, &c, o, node, buf)
					 : fold_pairs(s, t, &c, o, node, buf);
out:
	if (rc < 0)
		uf_err_set(err, UF_EINPUT, "fold", "out of memory");
	free(c.names.addr);
	free(c.names.name);
	free(c.locs.addr);
	free(c.locs.name);
	free(node);
	free(buf);
	return rc;
}

/* Each distinct (state, thread, stack) once, with its count: no times. */
static int fold_pairs(const struct sampler *s, fold_trie *t, struct caches *c,
		      const struct sampler_fold_opts *o, uint32_t *node, char *buf)
{
	for (size_t i = 0; i < s->pairs_cap; i++) {
		if (!s->pair_count[i])
			continue;
		double n = (double)s->pair_count[i];
		enum uf_runstate st = sampler_key_state(s->pair_key[i]);
		if (!fold_trie_sample_keeps(t, FOLD_T_UNKNOWN, st, n))
			continue;
		node[i] = stack_node(s, t, c, o, s->pair_key[i], n, buf);
		if (node[i] == FOLD_NONE || fold_trie_add_sample(t, node[i], n, FOLD_T_UNKNOWN, st) < 0)
			return -ENOMEM;
	}
	return 0;
}

/* Every sample in recording order, with its time and state.  First the
 * cut picks the samples (one byte each), then each pair with kept samples
 * gets its path, its source positions counted with what was kept, so a
 * cut leaves no empty node; then the kept samples are added in order. */
static int fold_events(const struct sampler *s, fold_trie *t, struct caches *c,
		       const struct sampler_fold_opts *o, uint32_t *node, char *buf)
{
	uint8_t *kept = malloc(s->seq_len + 1);
	double *n = s->pairs_cap ? calloc(s->pairs_cap, sizeof *n) : NULL;
	int64_t *slot = malloc((s->seq_len + 1) * sizeof *slot);
	int rc = kept && slot && (n || !s->pairs_cap) ? 0 : -ENOMEM;
	for (size_t i = 0; rc == 0 && i < s->seq_len; i++) {
		const struct sampler_event *ev = &s->seq[i];
		slot[i] = pair_slot(s, sampler_key(ev->thread, (enum uf_runstate)ev->state, ev->stack));
		kept[i] = slot[i] >= 0 &&
			  fold_trie_sample_keeps(t, ev->t_ns, (enum uf_runstate)ev->state, 1.0);
		if (kept[i])
			n[slot[i]] += 1;
	}
	for (size_t j = 0; rc == 0 && j < s->pairs_cap; j++)
		if (s->pair_count[j] && n[j] > 0 &&
		    (node[j] = stack_node(s, t, c, o, s->pair_key[j], n[j], buf)) == FOLD_NONE)
			rc = -ENOMEM;
	for (size_t i = 0; rc == 0 && i < s->seq_len; i++)
		if (kept[i] && fold_trie_add_sample(t, node[slot[i]], 1.0, s->seq[i].t_ns,
						    (enum uf_runstate)s->seq[i].state) < 0)
			rc = -ENOMEM;
	free(kept);
	free(n);
	free(slot);
	return rc;
}

int sampler_write_raw(const struct sampler *s, FILE *out, const char *what, struct uf_err *err)
{
	int rc = fold_raw_write_header(out, what);
	for (size_t i = 0; rc == 0 && i < s->seq_len; i++) {
		size_t n;
		const struct sampler_event *ev = &s->seq[i];
		const uint64_t *f = sampler_stackset_get(&s->set, ev->stack, &n);
		struct fold_raw_sample meta = { ev->t_ns, (enum uf_runstate)ev->state,
						s->threads[ev->thread].id };
		rc = fold_raw_write_sample(out, &meta, f, n, 1);
	}
	if (rc < 0 || ferror(out)) {
		uf_err_set(err, UF_EINPUT, "raw trace", "write failed");
		return -EIO;
	}
	return 0;
}

/* The trie node of a pair key: thread root if asked, then the frames
 * from the outermost caller down to frame 0, each frame's source position
 * counted at its node (o->locate), then the state's pseudo-frame for a
 * waiting sample. */
static uint32_t stack_node(const struct sampler *s, fold_trie *t, struct caches *c,
			   const struct sampler_fold_opts *o, uint64_t key, double count, char *buf)
{
	uint32_t node = FOLD_ROOT, tid = s->threads[sampler_key_thread(key)].id;
	if (o->thread_name) {
		size_t len = o->thread_name(o->thread_ctx, tid, buf, NAME_BUF);
		uint32_t nm = fold_trie_intern(t, buf, len < NAME_BUF ? len : NAME_BUF - 1);
		node = nm == FOLD_NONE ? FOLD_NONE : fold_trie_child(t, node, nm);
	}
	size_t n;
	const uint64_t *f = sampler_stackset_get(&s->set, (uint32_t)key, &n);
	for (size_t k = n; k-- > 0 && node != FOLD_NONE;) {
		uint32_t nm = frame_name(t, &c->names, o, f[k], k > 0, buf);
		node = nm == FOLD_NONE ? FOLD_NONE : fold_trie_child(t, node, nm);
		uint32_t loc = node != FOLD_NONE && o->locate ? frame_loc(t, &c->locs, o, f[k], k > 0, buf)
							       : FOLD_NONE;
		if (loc != FOLD_NONE && fold_loc_add(t, node, loc, count) < 0)
			node = FOLD_NONE;
	}
	return fold_trie_state_leaf(t, node, sampler_key_state(key));
}

/* Position id of one frame (FOLD_NONE: unknown), resolving each
 * (address, is_return) once; the cache keeps id + 2, 1 = unknown. */
static uint32_t frame_loc(fold_trie *t, struct name_cache *c, const struct sampler_fold_opts *o,
			  uint64_t addr, int is_return, char *buf)
{
	uint64_t key = addr ^ ((uint64_t)is_return << 63);
	size_t j = uf_hash_u64(key) & (c->cap - 1);
	for (; c->name[j]; j = (j + 1) & (c->cap - 1))
		if (c->addr[j] == key)
			return c->name[j] - 2; /* 1 - 2 wraps to FOLD_NONE */
	size_t len = o->locate(o->locate_ctx, addr, is_return, buf, NAME_BUF);
	uint32_t loc = len ? fold_loc_intern(t, buf, len < NAME_BUF ? len : NAME_BUF - 1) : FOLD_NONE;
	if ((c->used + 1) * 2 > c->cap && cache_grow(c) < 0)
		return loc;
	for (j = uf_hash_u64(key) & (c->cap - 1); c->name[j]; j = (j + 1) & (c->cap - 1))
		;
	c->addr[j] = key;
	c->name[j] = loc == FOLD_NONE ? 1 : loc + 2;
	c->used++;
	return loc;
}

/* Name id of one frame, resolving each (address, is_return) once. */
static uint32_t frame_name(fold_trie *t, struct name_cache *c, const struct sampler_fold_opts *o,
			   uint64_t addr, int is_return, char *buf)
{
	uint64_t key = addr ^ ((uint64_t)is_return << 63);
	size_t j = uf_hash_u64(key) & (c->cap - 1);
	for (; c->name[j]; j = (j + 1) & (c->cap - 1))
		if (c->addr[j] == key)
			return c->name[j] - 1;
	size_t len = o->resolve ? o->resolve(o->resolve_ctx, addr, is_return, buf, NAME_BUF) : 0;
	if (len >= NAME_BUF)
		len = NAME_BUF - 1;
	uint32_t nm = len ? fold_trie_intern(t, buf, len) : fold_trie_intern(t, "[unknown]", 9);
	if (nm == FOLD_NONE)
		return FOLD_NONE;
	if ((c->used + 1) * 2 > c->cap && cache_grow(c) < 0)
		return nm; /* still correct, just not cached */
	for (j = uf_hash_u64(key) & (c->cap - 1); c->name[j]; j = (j + 1) & (c->cap - 1))
		;
	c->addr[j] = key;
	c->name[j] = nm + 1;
	c->used++;
	return nm;
}

static int cache_grow(struct name_cache *c)
{
	size_t ncap = c->cap ? c->cap * 2 : 1024;
	uint64_t *addr = calloc(ncap, sizeof *addr);
	uint32_t *name = calloc(ncap, sizeof *name);
	if (!addr || !name) {
		free(addr);
		free(name);
		return -ENOMEM;
	}
	for (size_t i = 0; i < c->cap; i++) {
		if (!c->name[i])
			continue;
		size_t j = uf_hash_u64(c->addr[i]) & (ncap - 1);
		while (name[j])
			j = (j + 1) & (ncap - 1);
		addr[j] = c->addr[i];
		name[j] = c->name[i];
	}
	free(c->addr);
	free(c->name);
	c->addr = addr;
	c->name = name;
	c->cap = ncap;
	return 0;
}

/* Slot of an existing pair key in the sampler's table; -1 when absent. */
static int64_t pair_slot(const struct sampler *s, uint64_t key)
{
	if (!s->pairs_cap)
		return -1;
	size_t mask = s->pairs_cap - 1, j = uf_hash_u64(key) & mask;
	for (; s->pair_count[j]; j = (j + 1) & mask)
		if (s->pair_key[j] == key)
			return (int64_t)j;
	return -1;
}
