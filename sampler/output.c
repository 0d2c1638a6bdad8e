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
 *  3. In sequence mode, samples are added in recording order.
 *  4. Source positions come only from o->locate, one lookup per distinct
 *     (address, is-return) like names; each frame's position is counted
 *     at that frame's node with the samples of the stack (fold_loc_add),
 *     so a node's positions add up to its total where all are known.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

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

int sampler_fold(const struct sampler *s, fold_trie *t, const struct sampler_fold_opts *o,
		 struct uf_err *err)
{
	struct caches c = { { 0 }, { 0 } };
	char *buf = malloc(NAME_BUF);
	uint32_t *node = s->pairs_cap ? malloc(s->pairs_cap * sizeof *node) : NULL;
	int rc = -ENOMEM;
	if (!buf || (s->pairs_cap && !node) || cache_grow(&c.names) < 0 ||
	    (o->locate && cache_grow(&c.locs) < 0))
		goto out;
	if (o->sequence)
		fold_trie_keep_sequence(t);
	for (size_t i = 0; i < s->pairs_cap; i++) {
		if (!s->pair_count[i])
			continue;
		node[i] = stack_node(s, t, &c, o, s->pair_key[i], (double)s->pair_count[i], buf);
		if (node[i] == FOLD_NONE)
			goto out;
		if (!o->sequence && fold_trie_add(t, node[i], (double)s->pair_count[i]) < 0)
			goto out;
	}
	for (size_t i = 0; o->sequence && i < s->seq_len; i++) {
		int64_t j = pair_slot(s, (uint64_t)s->seq[i].thread << 32 | s->seq[i].stack);
		if (j < 0 || fold_trie_add(t, node[j], 1.0) < 0)
			goto out;
	}
	rc = 0;
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

int sampler_write_raw(const struct sampler *s, FILE *out, const char *what, struct uf_err *err)
{
	char when[64];
	time_t now = time(NULL);
	struct tm tm;
	strftime(when, sizeof when, "%Y-%m-%d %H:%M:%S %Z (%z)", gmtime_r(&now, &tm));
	fprintf(out, "#unikernel stack tracer using ptrace interface\n#tracing %s on %s\n\n",
		what, when);
	for (size_t i = 0; i < s->seq_len; i++) {
		size_t n;
		const uint64_t *f = sampler_stackset_get(&s->set, s->seq[i].stack, &n);
		for (size_t k = 0; k < n; k++)
			fprintf(out, "0x%" PRIx64 "\n", f[k]);
		fputs("1\n\n", out);
	}
	if (ferror(out)) {
		uf_err_set(err, UF_EINPUT, "raw trace", "write failed");
		return -EIO;
	}
	return 0;
}

/* The trie node of (thread << 32 | stack): thread root if asked, then
 * the frames from the outermost caller down to frame 0, each frame's
 * source position counted at its node (o->locate). */
static uint32_t stack_node(const struct sampler *s, fold_trie *t, struct caches *c,
			   const struct sampler_fold_opts *o, uint64_t key, double count, char *buf)
{
	uint32_t node = FOLD_ROOT, tid = s->threads[key >> 32].id;
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
	return node;
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
