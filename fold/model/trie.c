/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * fold/trie.c — the implementation of the call-path trie and the name
 * interning table (see fold/model/model.h for the design and invariants).
 *
 * Both tables are open addressing with linear probing over power-of-two
 * slot arrays, kept at most 5/8 full.  A name slot holds a hash tag and
 * where the name's record (length, id, bytes) sits in nbuf, so a hit
 * costs the slot and one record, not also the id's length and offset
 * (three misses became two: interning was a sixth of a render of
 * little-sharing stacks); a node slot holds its key
 * (parent, name) beside the id, 12 bytes instead of 4, because on a
 * large profile each probe is a cache miss and comparing through the
 * node arrays would add two more.
 *
 * Both hash with util/hash.h's per-process key (names: uf_hash_bytes,
 * nodes: uf_hash_u64_keyed), so an input cannot pick names or shapes that
 * pile into one run of slots; ids are handed out in insertion order, so
 * the key never reaches an output (issue 28 item 4).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "fold/model/model.h"
#include "fold/model/internal.h"
#include "util/bigalloc.h"
#include "util/hash.h"
#include "util/vec.h"

static int grow_names(fold_trie *t);
static int grow_nodes(fold_trie *t);
static int grow_nodes_to(fold_trie *t, size_t want);
static int rehash_names(fold_trie *t, uint32_t nslots);
static int rehash_nodes(fold_trie *t, uint32_t nslots);
static int seq_push(fold_trie *t, uint32_t node, double count, double before);
static uint64_t node_key_hash(uint32_t parent, uint32_t name);
static int reindex(fold_trie *t);

/* ---- lifetime -------------------------------------------------------- */

fold_trie *fold_trie_new(void)
{
	fold_trie *t = calloc(1, sizeof *t);
	if (!t)
		return NULL;
	/* small to start: one trie is made per input read, and a fuzzer or a
	 * small profile pays for every slot it never uses */
	if (rehash_names(t, 64) || rehash_nodes(t, 64) || fold_trie_intern(t, "", 0) != 0)
		goto fail;
	if (grow_nodes(t))
		goto fail;
	t->parent[0] = FOLD_ROOT;
	t->name[0] = 0;
	t->self[0] = 0;
	t->nnodes = 1;
	return t;
fail:
	fold_trie_free(t);
	return NULL;
}

int fold_trie_reserve(fold_trie *t, uint32_t nodes)
{
	if (nodes > FOLD_MAX_NODES / 2)
		nodes = FOLD_MAX_NODES / 2;
	if (t->index_stale)
		return nodes > t->nodes_cap ? grow_nodes_to(t, nodes) : 0;
	uint32_t slots = t->slots_mask + 1;
	while ((uint64_t)nodes * 8 > (uint64_t)slots * 5 && slots < (1u << 31))
		slots *= 2;
	if (slots > t->slots_mask + 1 && rehash_nodes(t, slots))
		return -ENOMEM;
	return nodes > t->nodes_cap ? grow_nodes_to(t, nodes) : 0;
}

void fold_trie_free(fold_trie *t)
{
	if (!t)
		return;
	free(t->nbuf);
	free(t->noff);
	free(t->nlen);
	free(t->nslots);
	free(t->parent);
	free(t->name);
	free(t->self);
	free(t->base);
	uf_big_free(t->slots, ((size_t)t->slots_mask + 1) * sizeof *t->slots);
	free(t->total);
	free(t->eoff);
	free(t->ent);
	free(t->name_rank);
	free(t->seq_node);
	free(t->seq_count);
	free(t->seq_base);
	free(t->seq_t_ns);
	free(t->seq_state);
	free(t->lib_of);
	fold_locs_free(t->locs);
	free(t);
}

/* ---- names ----------------------------------------------------------- */

uint32_t fold_trie_intern(fold_trie *t, const char *s, size_t len)
{
	return fold_trie_intern_h(t, s, len, fold_name_hash(s, len));
}

/* Equal bytes?  Inline: names are short, a call to memcmp costs more.
 * Words, then the last word overlapping, then halves for short tails. */
static inline int same_bytes(const char *a, const char *b, size_t n)
{
	uint64_t x, y;
	if (n >= 8) {
		for (size_t i = 0; i + 8 < n; i += 8) {
			memcpy(&x, a + i, 8);
			memcpy(&y, b + i, 8);
			if (x != y)
				return 0;
		}
		memcpy(&x, a + n - 8, 8);
		memcpy(&y, b + n - 8, 8);
		return x == y;
	}
	if (n >= 4) {
		uint32_t u, v, w, z;
		memcpy(&u, a, 4);
		memcpy(&v, b, 4);
		memcpy(&w, a + n - 4, 4);
		memcpy(&z, b + n - 4, 4);
		return u == v && w == z;
	}
	while (n--)
		if (*a++ != *b++)
			return 0;
	return 1;
}

uint32_t fold_trie_intern_h(fold_trie *t, const char *s, size_t len, uint64_t h)
{
	if (len > FOLD_MAX_NAME)
		return FOLD_NONE;
	uint32_t i = (uint32_t)h & t->nslots_mask;
	uint64_t tag = h & FOLD_NSLOT_TAG;
	for (;; i = (i + 1) & t->nslots_mask) {
		uint64_t v = t->nslots[i];
		if (!v)
			break;
		if ((v & FOLD_NSLOT_TAG) != tag)
			continue;
		const char *p = t->nbuf + (v & FOLD_NSLOT_OFF); /* the record: len, id, bytes */
		uint32_t rec[2];
		memcpy(rec, p - 8, 8);
		if (rec[0] == len && same_bytes(p, s, len))
			return rec[1];
	}
	if (grow_names(t))
		return FOLD_NONE;
	size_t off = t->nbuf_len + 8;
	if (off + len + 1 > FOLD_NSLOT_OFF ||
	    uf_vec_grow(&t->nbuf, &t->nbuf_cap, off + len + 1, 1))
		return FOLD_NONE;
	uint32_t id = t->nnames++, rec[2] = { (uint32_t)len, id };
	t->noff[id] = off;
	t->nlen[id] = (uint32_t)len;
	memcpy(t->nbuf + t->nbuf_len, rec, 8);
	memcpy(t->nbuf + off, s, len);
	t->nbuf[off + len] = 0;
	t->nbuf_len = off + len + 1;
	if ((uint64_t)t->nnames * 8 > (uint64_t)(t->nslots_mask + 1) * 5) {
		if (rehash_names(t, (t->nslots_mask + 1) * 2))
			return FOLD_NONE; /* the name is stored; the table stays valid */
		return id;
	}
	t->nslots[i] = tag | off;
	return id;
}

/* Name s (len bytes, hash h) in t's table: its id, or FOLD_NONE. */
static inline uint32_t lookup_h(const fold_trie *t, const char *s, size_t len, uint64_t h)
{
	uint64_t tag = h & FOLD_NSLOT_TAG;
	for (uint32_t i = (uint32_t)h & t->nslots_mask;; i = (i + 1) & t->nslots_mask) {
		uint64_t v = t->nslots[i];
		if (!v)
			return FOLD_NONE;
		if ((v & FOLD_NSLOT_TAG) != tag)
			continue;
		const char *p = t->nbuf + (v & FOLD_NSLOT_OFF);
		uint32_t rec[2];
		memcpy(rec, p - 8, 8);
		if (rec[0] == len && same_bytes(p, s, len))
			return rec[1];
	}
}

/* 16 names a batch: every miss of a batch (slot, then record) is in
 * flight at once instead of one after the other (a merge of 30k names
 * one by one was 6 ms of a render's serial path on tree-64k). */
void fold_trie_lookup_names(const fold_trie *t, const fold_trie *u, uint32_t lo, uint32_t hi,
			    uint32_t *map)
{
	uint64_t h[16];
	for (uint32_t b = lo; b < hi; b += 16) {
		uint32_t m = hi - b < 16 ? hi - b : 16;
		for (uint32_t k = 0; k < m; k++) {
			h[k] = fold_name_hash(u->nbuf + u->noff[b + k], u->nlen[b + k]);
			__builtin_prefetch(&t->nslots[(uint32_t)h[k] & t->nslots_mask]);
		}
		for (uint32_t k = 0; k < m; k++) {
			uint64_t v = t->nslots[(uint32_t)h[k] & t->nslots_mask];
			if (v)
				__builtin_prefetch(t->nbuf + (v & FOLD_NSLOT_OFF) - 8);
		}
		for (uint32_t k = 0; k < m; k++)
			map[b + k - lo] = lookup_h(t, u->nbuf + u->noff[b + k], u->nlen[b + k], h[k]);
	}
}

/* ---- nodes ----------------------------------------------------------- */

uint32_t fold_trie_find(const fold_trie *t, uint32_t parent, uint32_t name)
{
	if (t->index_stale) { /* no index yet: a scan (tests and checks only) */
		for (uint32_t i = parent + 1; i < t->nnodes; i++)
			if (t->parent[i] == parent && t->name[i] == name)
				return i;
		return FOLD_NONE;
	}
	uint32_t i = (uint32_t)node_key_hash(parent, name) & t->slots_mask;
	for (;; i = (i + 1) & t->slots_mask) {
		const struct fold_slot *s = &t->slots[i];
		if (!s->id)
			return FOLD_NONE;
		if (s->name == name && s->parent == parent)
			return s->id - 1;
	}
}

/* A new node under `parent`, not yet in the (parent, name) index. */
static inline uint32_t push_node(fold_trie *t, uint32_t parent, uint32_t name)
{
	if (t->nnodes >= FOLD_MAX_NODES || grow_nodes(t))
		return FOLD_NONE;
	uint32_t id = t->nnodes++;
	t->preorder = 0;
	t->parent[id] = parent;
	t->name[id] = name;
	t->self[id] = 0;
	if (t->base)
		t->base[id] = 0;
	t->finished = 0;
	return id;
}

uint32_t fold_trie_child(fold_trie *t, uint32_t parent, uint32_t name)
{
	if (t->index_stale && reindex(t))
		return FOLD_NONE;
	uint32_t i = (uint32_t)node_key_hash(parent, name) & t->slots_mask;
	for (;; i = (i + 1) & t->slots_mask) {
		const struct fold_slot *s = &t->slots[i];
		if (!s->id)
			break;
		if (s->name == name && s->parent == parent)
			return s->id - 1;
	}
	uint32_t id = push_node(t, parent, name);
	if (id == FOLD_NONE)
		return FOLD_NONE;
	if ((uint64_t)t->nnodes * 8 > (uint64_t)(t->slots_mask + 1) * 5)
		return rehash_nodes(t, (t->slots_mask + 1) * 2) ? FOLD_NONE : id;
	t->slots[i] = (struct fold_slot){ parent, name, id + 1 };
	return id;
}

int fold_trie_grow_nodes(fold_trie *t, uint32_t nodes)
{
	return nodes > t->nodes_cap ? grow_nodes_to(t, nodes) : 0;
}

void fold_trie_keep_ranks(fold_trie *t, uint32_t *rank)
{
	free(t->name_rank);
	t->name_rank = rank;
	t->name_rank_n = t->nnames;
}

uint32_t fold_trie_append(fold_trie *t, uint32_t parent, uint32_t name)
{
	uint32_t id = push_node(t, parent, name);
	if (id != FOLD_NONE)
		t->index_stale = 1;   /* the (parent, name) index is rebuilt on next use */
	return id;
}

int fold_trie_add(fold_trie *t, uint32_t node, double count)
{
	t->self[node] += count;
	if (t->base)
		t->base[node] += count;
	t->finished = 0;
	return t->keep_seq ? seq_push(t, node, count, count) : 0;
}

int fold_trie_add2(fold_trie *t, uint32_t node, double before, double after)
{
	if (!t->base && fold_trie_make_diff(t))
		return -ENOMEM;
	t->self[node] += after;
	t->base[node] += before;
	double d = after - before;
	if (d < 0)
		d = -d;
	if (d > t->max_line_delta)
		t->max_line_delta = d;
	t->finished = 0;
	return t->keep_seq ? seq_push(t, node, after, before) : 0;
}

int fold_trie_make_diff(fold_trie *t)
{
	if (t->base)
		return 0;
	t->base = malloc((size_t)t->nodes_cap * sizeof *t->base);
	if (!t->base)
		return -ENOMEM;
	uf_thp_hint(t->base, (size_t)t->nodes_cap * sizeof *t->base);
	memcpy(t->base, t->self, (size_t)t->nnodes * sizeof *t->base);
	if (t->keep_seq && t->seq_cap) {
		t->seq_base = malloc(t->seq_cap * sizeof *t->seq_base);
		if (!t->seq_base)
			return -ENOMEM;
		memcpy(t->seq_base, t->seq_count, t->seq_len * sizeof *t->seq_base);
	}
	return 0;
}

void fold_trie_keep_sequence(fold_trie *t)
{
	t->keep_seq = 1;
}

/* dst's node for each of src's nodes, creating the missing ones; owned
 * array, NULL on OOM.  Names are mapped once each, not once per node. */
static uint32_t *map_nodes(fold_trie *dst, const fold_trie *src)
{
	uint32_t *names = malloc((size_t)src->nnames * sizeof *names);
	uint32_t *map = malloc((size_t)src->nnodes * sizeof *map);
	int ok = names && map;
	for (uint32_t n = 0; ok && n < src->nnames; n++) {
		size_t len;
		const char *s = fold_trie_name(src, n, &len);
		names[n] = fold_trie_intern(dst, s, len);
		ok = names[n] != FOLD_NONE;
	}
	if (ok)
		map[0] = FOLD_ROOT;
	for (uint32_t i = 1; ok && i < src->nnodes; i++) {
		map[i] = fold_trie_child(dst, map[src->parent[i]], names[src->name[i]]);
		ok = map[i] != FOLD_NONE;
	}
	free(names);
	if (!ok) {
		free(map);
		return NULL;
	}
	return map;
}

int fold_trie_merge(fold_trie *dst, const fold_trie *src)
{
	uint32_t *map = map_nodes(dst, src);
	if (!map)
		return -ENOMEM;
	int rc = 0;
	for (uint32_t i = 0; i < src->nnodes && rc == 0; i++) {
		if (src->base)
			rc = fold_trie_add2(dst, map[i], src->base[i], src->self[i]);
		else if (src->self[i] != 0)
			rc = fold_trie_add(dst, map[i], src->self[i]);
	}
	if (src->max_line_delta > dst->max_line_delta)
		dst->max_line_delta = src->max_line_delta;
	free(map);
	return rc;
}

int fold_trie_check(const fold_trie *t)
{
	if (t->nnodes < 1 || t->name[0] != 0 || t->nlen[0] != 0)
		return 1;
	for (uint32_t i = 1; i < t->nnodes; i++) {
		if (t->parent[i] >= i)
			return 2;
		if (t->name[i] >= t->nnames)
			return 2;
		if (!t->index_stale && fold_trie_find(t, t->parent[i], t->name[i]) != i)
			return 2;
	}
	if (t->finished) {
		for (uint32_t i = 0; i < t->nnodes; i++)
			if (t->total[i] < t->self[i] - 1e-9 * (t->self[i] < 0 ? -t->self[i] : t->self[i]))
				return 3;
	}
	return 0;
}

/* ---- static helpers -------------------------------------------------- */

static uint64_t node_key_hash(uint32_t parent, uint32_t name)
{
	return uf_hash_u64_keyed(((uint64_t)parent << 32) | name);
}

static int grow_names(fold_trie *t)
{
	if (t->nnames < t->nnames_cap)
		return 0;
	size_t cap = t->nnames_cap, cap2 = t->nnames_cap;
	if (uf_vec_grow(&t->noff, &cap, (size_t)t->nnames + 1, sizeof *t->noff) ||
	    uf_vec_grow(&t->nlen, &cap2, (size_t)t->nnames + 1, sizeof *t->nlen))
		return -ENOMEM;
	t->nnames_cap = (uint32_t)(cap < cap2 ? cap : cap2);
	return 0;
}

static int grow_nodes(fold_trie *t)
{
	if (t->nnodes < t->nodes_cap)
		return 0;
	return grow_nodes_to(t, t->nodes_cap ? (size_t)t->nodes_cap * 2 : 64);
}

static int grow_nodes_to(fold_trie *t, size_t want)
{
	if (want > FOLD_MAX_NODES)
		want = FOLD_MAX_NODES;
	void **arrs[] = { (void **)&t->parent, (void **)&t->name, (void **)&t->self,
			  (void **)&t->base };
	size_t size[] = { sizeof *t->parent, sizeof *t->name, sizeof *t->self, sizeof *t->base };
	for (size_t k = 0; k < 4; k++) {
		if (!*arrs[k] && k == 3)
			break; /* no base: not differential */
		void *p = realloc(*arrs[k], want * size[k]);
		if (!p)
			return -ENOMEM;
		uf_thp_hint(p, want * size[k]); /* a big trie's arrays: util/bigalloc.h */
		*arrs[k] = p;
	}
	t->nodes_cap = (uint32_t)want;
	return 0;
}

/* The new slots come zeroed and written (util/bigalloc.h): from calloc,
 * the probes below would read untouched pages first and the inserts then
 * write them, a copy-on-write fault and a TLB flush interrupting the
 * other CPU (the second index lane, rehashing its own table) for every
 * page: on tree-64k, 1-3 % of a render's samples were these flushes. */
static int rehash_names(fold_trie *t, uint32_t nslots)
{
	uint64_t *s = uf_calloc_written((size_t)nslots * sizeof *s);
	if (!s)
		return -ENOMEM;
	uint32_t mask = nslots - 1;
	uint64_t h[16];
	/* in batches: hash 16 names and prefetch their slots, then insert (a
	 * big table is a cache miss a name; a million names rehash ~20 times) */
	for (uint32_t id0 = 0; id0 < t->nnames; id0 += 16) {
		uint32_t m = t->nnames - id0 < 16 ? t->nnames - id0 : 16;
		for (uint32_t k = 0; k < m; k++) {
			h[k] = fold_name_hash(t->nbuf + t->noff[id0 + k], t->nlen[id0 + k]);
			__builtin_prefetch(&s[(uint32_t)h[k] & mask], 1);
		}
		for (uint32_t k = 0; k < m; k++) {
			uint32_t i = (uint32_t)h[k] & mask;
			while (s[i])
				i = (i + 1) & mask;
			s[i] = (h[k] & FOLD_NSLOT_TAG) | t->noff[id0 + k];
		}
	}
	free(t->nslots);
	t->nslots = s;
	t->nslots_mask = mask;
	return 0;
}

int fold_trie_reserve_names(fold_trie *t, uint32_t names)
{
	uint32_t slots = t->nslots_mask + 1;
	while ((uint64_t)names * 8 > (uint64_t)slots * 5 && slots < (1u << 31))
		slots *= 2;
	return slots > t->nslots_mask + 1 ? rehash_names(t, slots) : 0;
}

static int rehash_nodes(fold_trie *t, uint32_t nslots)
{
	struct fold_slot *s = uf_big_calloc((size_t)nslots * sizeof *s);
	if (!s)
		return -ENOMEM;
	uint32_t mask = nslots - 1;
	for (uint32_t id = 1; id < t->nnodes; id++) {
		uint32_t i = (uint32_t)node_key_hash(t->parent[id], t->name[id]) & mask;
		while (s[i].id)
			i = (i + 1) & mask;
		s[i] = (struct fold_slot){ t->parent[id], t->name[id], id + 1 };
	}
	uf_big_free(t->slots, t->slots ? ((size_t)t->slots_mask + 1) * sizeof *t->slots : 0);
	t->slots = s;
	t->slots_mask = mask;
	return 0;
}

/* Builds the (parent, name) index a sorted read left out, at most 5/8 full. */
static int reindex(fold_trie *t)
{
	uint32_t slots = 1024;
	while ((uint64_t)t->nnodes * 8 > (uint64_t)slots * 5 && slots < (1u << 31))
		slots *= 2;
	slots *= 2; /* room to grow before the next rehash */
	if (rehash_nodes(t, slots))
		return -ENOMEM;
	t->index_stale = 0;
	return 0;
}

static int seq_push(fold_trie *t, uint32_t node, double count, double before)
{
	if (t->seq_len == t->seq_cap) {
		size_t cap = t->seq_cap, cap2 = t->seq_cap, cap3 = t->seq_cap;
		if (uf_vec_grow(&t->seq_node, &cap, t->seq_len + 1, sizeof *t->seq_node) ||
		    uf_vec_grow(&t->seq_count, &cap2, t->seq_len + 1, sizeof *t->seq_count) ||
		    (t->base && uf_vec_grow(&t->seq_base, &cap3, t->seq_len + 1, sizeof *t->seq_base)))
			return -ENOMEM;
		t->seq_cap = cap < cap2 ? cap : cap2;
	}
	t->seq_node[t->seq_len] = node;
	t->seq_count[t->seq_len] = count;
	if (t->base)
		t->seq_base[t->seq_len] = before;
	t->seq_len++;
	return 0;
}

/* ---- differentials ------------------------------------------------------- */

int fold_trie_diff_into(fold_trie *after, const fold_trie *before, double scale)
{
	if (after->base)
		return -EINVAL;
	after->base = calloc(after->nodes_cap, sizeof *after->base);
	if (!after->base)
		return -ENOMEM;
	uint32_t *map = map_nodes(after, before);
	if (!map)
		return -ENOMEM;
	for (uint32_t i = 0; i < before->nnodes; i++)
		after->base[map[i]] += before->self[i] * scale;
	after->max_line_delta = 0;
	for (uint32_t i = 0; i < after->nnodes; i++) {
		double d = after->self[i] - after->base[i];
		if (d < 0)
			d = -d;
		if (d > after->max_line_delta)
			after->max_line_delta = d;
	}
	after->finished = 0;
	free(map);
	return 0;
}
