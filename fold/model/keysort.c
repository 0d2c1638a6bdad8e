/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * fold/model/keysort.c — the stable sort of variable-length keys the
 * model and the sorted reader share: names in byte order, a prefix
 * first (fold_sort_names, here), and stacks of name ids in their names'
 * order (fold/in/sorted.c).
 *
 * Design: a key is p[0 .. len) units (bytes of a name, 4-byte name ids
 * of a stack); a chunk function turns the units of chunk c into a 64-bit
 * integer that compares as the units do, with zero bits where the key
 * has ended (struct fold_key_chunks).  An MSD sort: all keys on chunk 0,
 * then each run of equal chunks that has not ended on the next chunk,
 * and so on, from an explicit stack (deep stacks share thousands of
 * chunks).  Before a group is sorted, the chunks every key in it shares
 * are skipped with one pass of compares (call trees share long
 * prefixes).  A group is sorted on its chunk by insertion sort up to 24
 * keys, merge sort up to 2048, else LSD radix on the chunk's bytes (a
 * byte every key shares is skipped).  From 20000 keys two threads share
 * the work: chunk 0 is filled and sorted in halves, one a thread, and
 * merged (sort_first_chunk), then its runs are split between them.
 *
 * Why radix, and its figures (callgrind, tree-100k: 100k stacks over 30k
 * names): comparison sorts of whole stacks compared name by name, each a
 * string compare; ranks make a frame one integer and two frames one
 * 64-bit chunk, so a pass is integer work on an array.  The counting
 * pass written out for the eight bytes took `key_sort` from 42.8 to
 * 25.8 M instructions (-O2 kept a loop over the bytes); sorting each name
 * once, bare, and placing its two terminated spellings after
 * (place_terminators) took fold_sort_names from 31.3 to 13.3 M
 * (bench/README.md, issue 32).
 *
 * Trade-offs: the chunk function is called through a pointer once per
 * group, never per key, so the per-key loop is the caller's own, inlined
 * (the frames' ranks are the sorted reader's business; the sort knows
 * only units and chunks).  tmp, n keys, is the caller's: radix and merge
 * need a second array.  Up to 2 KiB of counters (8 x 256 x 4 bytes) on
 * the stack per radix pass, which is why small groups merge.
 *
 * Invariants:
 *  1. After fold_sort_keys, k is in increasing order of keys as unit
 *     sequences, a proper prefix before any key it starts; equal keys
 *     keep their input order (every pass is stable).
 *  2. k[i].key is scratch for the sort; p, len and idx move with their
 *     key, untouched.
 *  3. rank from fold_sort_names is a permutation of 0 .. 2 * nnames - 1.
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "fold/model/model.h"
#include "util/split2.h"

#define SMALL_GROUP 24   /* groups up to this size: insertion sort */
#define MERGE_GROUP 2048 /* up to this size: merge sort; above, radix */
#define THREAD_KEYS 20000u /* sorts of this many keys use two threads */
#define PREFETCH 12      /* keys ahead: about the misses a core keeps in flight */

struct sort_job {
	const struct fold_key_chunks *ch;
	struct fold_key *k, *tmp;
	size_t lo, hi;       /* the top-level runs in [lo, hi) */
};

struct group { size_t lo, hi; uint32_t c; };

static void key_sort(struct fold_key *k, struct fold_key *tmp, size_t n);
static void sort_first_chunk(const struct fold_key_chunks *ch, struct fold_key *k, struct fold_key *tmp,
			     size_t n);
static void group_sort(const struct fold_key_chunks *ch, struct fold_key *k, struct fold_key *tmp,
		       size_t n, uint32_t c);
static void *sort_part(void *arg);
static void sym_init(void);
static pthread_once_t sym_once = PTHREAD_ONCE_INIT;
static void fill_names(const struct fold_key_chunks *ch, struct fold_key *k, size_t m, uint32_t c);
static void place_terminators(const fold_trie *t, const struct fold_key *k, size_t n, uint32_t *rank,
			      uint32_t *stack);

/* ---- public ---------------------------------------------------------------- */

void fold_sort_keys(const struct fold_key_chunks *ch, struct fold_key *k, struct fold_key *tmp,
		    size_t n)
{
	struct sort_job a = { ch, k, tmp, 0, n };
	sort_first_chunk(ch, k, tmp, n);
	size_t mid = n / 2;
	while (mid > 0 && mid < n && k[mid].key == k[mid - 1].key)
		mid++;
	struct sort_job b = { ch, k, tmp + mid, mid, n };
	int split = uf_split2_worth(n, THREAD_KEYS) && mid < n;
	if (split)
		a.hi = mid; /* the runs from mid to b, on a second thread */
	else
		b.lo = b.hi = n; /* all to a: b has no run */
	uf_split2(sort_part, &a, &b, split);
}

int fold_sort_names(const fold_trie *t, uint32_t *rank)
{
	size_t n = t->nnames;
	struct fold_key *k = malloc((n ? n : 1) * sizeof *k), *tmp = malloc((n ? n : 1) * sizeof *tmp);
	uint32_t *stack = malloc((2 * n + 1) * sizeof *stack);
	if (!k || !tmp || !stack) {
		free(k);
		free(tmp);
		free(stack);
		return -ENOMEM;
	}
	for (size_t i = 0; i < n; i++)
		k[i] = (struct fold_key){ 0, t->nbuf + t->noff[i], t->nlen[i], (uint32_t)i };
	struct fold_key_chunks ch = { fill_names, NULL, 1, 7, 511 };
	pthread_once(&sym_once, sym_init);
	fold_sort_keys(&ch, k, tmp, n);
	place_terminators(t, k, n, rank, stack);
	free(k);
	free(tmp);
	free(stack);
	return 0;
}

/* ---- the sort ---------------------------------------------------------------- */

/* One half's chunk 0, filled and sorted (sort_first_chunk). */
struct first_job {
	const struct fold_key_chunks *ch;
	struct fold_key *k, *tmp;
	size_t n;
};

static void *first_half(void *arg)
{
	struct first_job *j = arg;
	j->ch->fill(j->ch, j->k, j->n, 0);
	key_sort(j->k, j->tmp, j->n);
	return NULL;
}

/* k[0..n) sorted stably by chunk 0.  From THREAD_KEYS keys, each half is
 * filled and sorted on a thread of its own, then the two are merged (ties
 * from the first half first, so the order is the one sort's): the fill
 * and the radix passes over all keys were the longest serial stretch of
 * a call tree's read (tree-100k: 23 M instructions, names and lines). */
static void sort_first_chunk(const struct fold_key_chunks *ch, struct fold_key *k, struct fold_key *tmp,
			     size_t n)
{
	size_t h = n / 2;
	struct first_job a = { ch, k, tmp, h }, b = { ch, k + h, tmp + h, n - h };
	if (!uf_split2_worth(n, THREAD_KEYS)) {
		a.n = n;
		first_half(&a);
		return;
	}
	uf_split2(first_half, &a, &b, 1);
	if (k[h - 1].key <= k[h].key)
		return; /* already in order */
	size_t i = 0, j = h, o = 0;
	while (i < h && j < n)
		tmp[o++] = k[j].key < k[i].key ? k[j++] : k[i++];
	while (i < h)
		tmp[o++] = k[i++];
	while (j < n)
		tmp[o++] = k[j++];
	memcpy(k, tmp, n * sizeof *k);
}

/* Keys equal up to a chunk that holds a key's end are equal keys: their
 * group needs no further pass. */
static inline int chunk_ended(const struct fold_key_chunks *ch, uint64_t key)
{
	return (key & ch->end_mask) == 0;
}

/* Stable sort of k[0..n) by key: insertion sort when small, else halves
 * merged. */
static void merge_sort(struct fold_key *k, struct fold_key *tmp, size_t n)
{
	if (n <= SMALL_GROUP) {
		for (size_t i = 1; i < n; i++) {
			struct fold_key x = k[i];
			size_t j = i;
			for (; j > 0 && k[j - 1].key > x.key; j--)
				k[j] = k[j - 1];
			k[j] = x;
		}
		return;
	}
	size_t h = n / 2, i = 0, j = h, o = 0;
	merge_sort(k, tmp, h);
	merge_sort(k + h, tmp, n - h);
	if (k[h - 1].key <= k[h].key)
		return; /* already in order (sorted input, long runs) */
	memcpy(tmp, k, h * sizeof *k);
	while (i < h && j < n)
		k[o++] = k[j].key < tmp[i].key ? k[j++] : tmp[i++]; /* ties: the left first */
	while (i < h)
		k[o++] = tmp[i++];
}

/* Stable sort of k[0..n) by key: merge sort when small, else LSD radix
 * on bytes, skipping the bytes every key shares. */
static void key_sort(struct fold_key *k, struct fold_key *tmp, size_t n)
{
	if (n <= MERGE_GROUP) { /* a radix pass costs 2 KiB of counters: small groups merge */
		merge_sort(k, tmp, n);
		return;
	}
	uint32_t hist[8][256];
	memset(hist, 0, sizeof hist);
	for (size_t i = 0; i < n; i++) { /* the eight counts written out: -O2 keeps a loop
					    over b, a third of the sort's instructions */
		uint64_t x = k[i].key;
		hist[0][x & 255]++;
		hist[1][x >> 8 & 255]++;
		hist[2][x >> 16 & 255]++;
		hist[3][x >> 24 & 255]++;
		hist[4][x >> 32 & 255]++;
		hist[5][x >> 40 & 255]++;
		hist[6][x >> 48 & 255]++;
		hist[7][x >> 56]++;
	}
	struct fold_key *src = k, *dst = tmp;
	for (int b = 0; b < 8; b++) {
		if (hist[b][(k[0].key >> (8 * b)) & 255] == n)
			continue; /* every key has this byte */
		uint32_t pos[256], sum = 0;
		for (int v = 0; v < 256; v++) {
			pos[v] = sum;
			sum += hist[b][v];
		}
		for (size_t i = 0; i < n; i++)
			dst[pos[(src[i].key >> (8 * b)) & 255]++] = src[i];
		struct fold_key *x = src;
		src = dst;
		dst = x;
	}
	if (src != k)
		memcpy(k, src, n * sizeof *k);
}

/* Whole chunks from chunk c on that every key of k[0..m) shares with the
 * first (tree-shaped profiles share long prefixes: one pass of compares
 * instead of a sort per chunk).  A key ending inside the shared part
 * stops the skip before its end. */
static uint32_t shared_chunks(const struct fold_key_chunks *ch, const struct fold_key *k, size_t m,
			      uint32_t c)
{
	size_t w = ch->per_chunk, off = (size_t)c * w, lcp = SIZE_MAX, u = ch->unit;
	if (m < 2 || k[0].len <= off)
		return 0;
	const char *first = (const char *)k[0].p + off * u;
	for (size_t i = 1; i < m && lcp >= w; i++) {
		size_t n = k[i].len < k[0].len ? k[i].len : k[0].len;
		n = n > off ? n - off : 0;
		if (n > lcp)
			n = lcp;
		if (n == 0)
			return 0;
		lcp = fold_common_prefix(first, (const char *)k[i].p + off * u, n * u) / u;
	}
	return (uint32_t)(lcp / w);
}

/* Sorts the n keys of k (already sharing their first c chunks) to the
 * end: sort by chunk c, then each run of equal chunks that has not
 * ended by chunk c + 1, and so on (an explicit stack: deep stacks share
 * prefixes of thousands of chunks). */
static void group_sort(const struct fold_key_chunks *ch, struct fold_key *k, struct fold_key *tmp,
		       size_t n, uint32_t c)
{
	struct group *stack = NULL;
	size_t top = 0, cap = 0;
	struct group g = { 0, n, c };
	for (;;) {
		size_t m = g.hi - g.lo;
		struct fold_key *kk = k + g.lo;
		g.c += shared_chunks(ch, kk, m, g.c);
		ch->fill(ch, kk, m, g.c);
		key_sort(kk, tmp, m);
		for (size_t i = 0; i < m;) {
			size_t e = i + 1;
			while (e < m && kk[e].key == kk[i].key)
				e++;
			if (e - i > 1 && !chunk_ended(ch, kk[i].key)) { /* same so far, not ended */
				if (top == cap) {
					size_t nc = cap ? cap * 2 : 64;
					struct group *s = realloc(stack, nc * sizeof *s);
					if (!s) { /* fall back to recursion for this run */
						group_sort(ch, kk + i, tmp, e - i, g.c + 1);
						i = e;
						continue;
					}
					stack = s;
					cap = nc;
				}
				stack[top++] = (struct group){ g.lo + i, g.lo + e, g.c + 1 };
			}
			i = e;
		}
		if (top == 0)
			break;
		g = stack[--top];
	}
	free(stack);
}

static void *sort_part(void *arg)
{
	struct sort_job *j = arg;
	for (size_t i = j->lo; i < j->hi;) {
		size_t e = i + 1;
		while (e < j->hi && j->k[e].key == j->k[i].key)
			e++;
		if (e - i > 1 && !chunk_ended(j->ch, j->k[i].key))
			group_sort(j->ch, j->k + i, j->tmp, e - i, 1);
		i = e;
	}
	return NULL;
}

/* ---- names ------------------------------------------------------------------- */

/* 9-bit symbols of names: byte b as b + 1; 0 is past the end, so a
 * prefix sorts first.  Names are sorted once, bare: the two terminated
 * spellings ("name " and "name;") each needs are placed after
 * (place_terminators), which halved the keys of the sort (issue 32:
 * 31 M instructions on tree-100k's 30k names, ~half the read's sort). */
static uint16_t sym_name[256];

static void sym_init(void)
{
	for (int b = 0; b < 256; b++)
		sym_name[b] = (uint16_t)(b + 1);
}

/* Chunk c of names: symbols c*7 .. c*7+6, 9 bits each (end_mask 511:
 * the last symbol is 0 past the end). */
static void fill_names(const struct fold_key_chunks *ch, struct fold_key *k, size_t m, uint32_t c)
{
	(void)ch;
	size_t off = (size_t)c * 7;
	for (size_t i = 0; i < m; i++) {
		if (i + PREFETCH < m)
			__builtin_prefetch((const char *)k[i + PREFETCH].p + off);
		size_t len = k[i].len;
		const unsigned char *s = (const unsigned char *)k[i].p + off;
		uint64_t x = 0;
		if (off + 7 <= len) {
			for (int b = 0; b < 7; b++)
				x = x << 9 | sym_name[s[b]];
		} else {
			for (size_t b = 0; b < 7; b++)
				x = x << 9 | (off + b < len ? sym_name[s[b]] : 0u);
		}
		k[i].key = x;
	}
}

/* Is "s" + term (name id's token) after u, which sorts after s?  Only
 * when s is a proper prefix of u and u's next byte is below term (a
 * token before which u goes); anything else after s sorts after it. */
static int token_after(const fold_trie *t, uint32_t tok, const struct fold_key *u)
{
	uint32_t id = tok / 2, slen = t->nlen[id];
	unsigned char term = tok & 1 ? ';' : ' ';
	return slen < u->len && (unsigned char)((const char *)u->p)[slen] < term &&
	       memcmp(t->nbuf + t->noff[id], u->p, slen) == 0;
}

/* rank[2 * id + (';' ? 1 : 0)] from the names sorted once, plain (a
 * prefix first): "s " and "s;" (tokens) go where the names s is a prefix
 * of pass the terminator's byte, or after the last of them.  Pending
 * tokens form a stack of a chain of prefixes, the longest on top; when
 * the top may not go yet, nothing under it may (its name's next byte in
 * u was already below their terminator).  One pass: each token pushed
 * and emitted once, one prefix test per name and emitted token. */
static void place_terminators(const fold_trie *t, const struct fold_key *k, size_t n, uint32_t *rank,
			      uint32_t *stack)
{
	size_t top = 0;
	uint32_t r = 0;
	for (size_t i = 0; i <= n; i++) {
		while (top > 0 && (i == n || !token_after(t, stack[top - 1], &k[i])))
			rank[stack[--top]] = r++;
		if (i < n) {
			stack[top++] = 2 * k[i].idx + 1; /* "s;" under "s ": ' ' < ';' */
			stack[top++] = 2 * k[i].idx;
		}
	}
}
