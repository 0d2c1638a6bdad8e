/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * fold/model/loc.c — the source positions of each trie node (fold_loc_* in
 * fold/model/model.h): which "FILE:LINE" its samples map to, with how many
 * samples each, for tooltips such as `app.c:42 (61%)`.
 *
 * A node's positions count every sample whose stack passes through the
 * node, at that frame: the sampled PC's line for the leaf, the call
 * site's line (return address - 1) for a caller.  So a node's position
 * counts add up to its total (less the samples DWARF had no line for),
 * and pruning a subtree never changes a kept node's positions.
 *
 * Kept beside the trie, not in it (t->locs, NULL until the first
 * position): entries (node, position, count) in flat arrays, each node's
 * entries chained from head[node], and one open-addressing table on
 * (node, position) for adds (util/map.h).  Position strings are interned in a trie of
 * their own (used only as a string table), so they never mix with frame
 * names (palettes, the embedded name table, --by=lib).  Trade-off: a
 * chain walk per lookup instead of a sorted index, so nothing has to be
 * rebuilt after an insertion and a const trie can be read as it is; a
 * node has few positions (its lines), so the walk is short.
 *
 * In an SVG the positions ride in the embedded block (embed.c) as an
 * optional tagged section after "end" (embed.c, item 5, has the grammar;
 * embed-read.c finds it and hands over the text from its header on):
 *
 *   "pos LINES STRINGS"   LINES = STRINGS + RECORDS, the body's lines
 *   STRINGS lines: one position each, escaped as the block's names
 *   RECORDS lines: "INDEX STRING COUNT", INDEX a kept node's position in
 *                  the node list, in node order, a node's positions most
 *                  samples first (ties by bytes), strings numbered in
 *                  order of first use: the section depends on the
 *                  profile only, never on input order
 *   "end"
 *
 * Blocks written before the sections were tagged have "loc STRINGS
 * RECORDS" in its place, with the same body; both are read.
 *
 * Invariants:
 *  1. At most one entry per (node, position); counts are > 0.
 *  2. Every entry's node is a node of the trie; position ids are valid
 *     in t->locs->str.
 *  3. A reader refuses (-EINVAL) a section that breaks the format; caps
 *     come from the text's length, never from its header alone.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "fold/model/model.h"
#include "util/fmt.h"
#include "util/hash.h"
#include "util/map.h"

struct fold_locs {
	fold_trie *str;          /* position strings (names of a trie used as a table) */
	uint32_t *node, *loc;    /* entry e: (node, position id) */
	double *count;
	uint32_t *next;          /* next entry of the same node, FOLD_NONE ends */
	uint32_t n, cap;
	uint32_t *head;          /* first entry of node i, FOLD_NONE: none */
	uint32_t head_cap;
	struct uf_map map;       /* (node, position) -> entry */
};

/* A (node, position) looked up in L->map. */
struct loc_key {
	const struct fold_locs *L;
	uint32_t node, loc;
};

static struct fold_locs *locs_of(fold_trie *t);
static int grow_entries(struct fold_locs *L);
static int same_entry(const void *ctx, uint32_t e);
static uint64_t entry_hash(const void *ctx, uint32_t e);
static int grow_heads(struct fold_locs *L, uint32_t node);
static void sort_desc(const fold_trie *t, uint32_t *e, uint32_t n);
static int put_escaped(FILE *out, const char *s, size_t len);

static inline uint64_t key_of(uint32_t node, uint32_t loc)
{
	return (uint64_t)node << 32 | loc;
}

uint32_t fold_loc_intern(fold_trie *t, const char *s, size_t len)
{
	struct fold_locs *L = locs_of(t);
	return L && len ? fold_trie_intern(L->str, s, len) : FOLD_NONE;
}

const char *fold_loc_str(const fold_trie *t, uint32_t loc, size_t *len)
{
	return fold_trie_name(t->locs->str, loc, len);
}

int fold_loc_add(fold_trie *t, uint32_t node, uint32_t loc, double count)
{
	struct fold_locs *L = t->locs;
	if (!L || !(count > 0))
		return L ? 0 : -EINVAL;
	struct loc_key k = { L, node, loc };
	uint64_t h = uf_hash_u64_keyed(key_of(node, loc));
	uint32_t e = uf_map_find(&L->map, h, same_entry, &k, NULL);
	if (e != UF_MAP_NONE) {
		L->count[e] += count;
		return 0;
	}
	if ((L->n == L->cap && grow_entries(L)) || grow_heads(L, node))
		return -ENOMEM;
	if (uf_map_over(&L->map, 1, 1, 2) && uf_map_grow(&L->map, entry_hash, L)) /* half full */
		return -ENOMEM;
	e = L->n++;
	L->node[e] = node;
	L->loc[e] = loc;
	L->count[e] = count;
	L->next[e] = L->head[node];
	L->head[node] = e;
	uf_map_insert(&L->map, h, e);
	return 0;
}

uint32_t fold_loc_next(const fold_trie *t, uint32_t node, uint32_t prev, uint32_t *loc, double *count)
{
	const struct fold_locs *L = t->locs;
	uint32_t e = prev != FOLD_NONE ? L->next[prev]
		     : L && node < L->head_cap ? L->head[node] : FOLD_NONE;
	if (e != FOLD_NONE) {
		*loc = L->loc[e];
		*count = L->count[e];
	}
	return e;
}

uint32_t fold_loc_top(const fold_trie *t, uint32_t node, uint32_t *locs, double *counts, uint32_t max)
{
	uint32_t n = 0, loc;
	double c;
	for (uint32_t e = fold_loc_next(t, node, FOLD_NONE, &loc, &c); e != FOLD_NONE;
	     e = fold_loc_next(t, node, e, &loc, &c), n++) {
		/* insertion into the first max, most samples first, ties by bytes */
		uint32_t k = n < max ? n : max;
		while (k > 0) {
			size_t la, lb;
			const char *a = fold_loc_str(t, locs[k - 1], &la), *b = fold_loc_str(t, loc, &lb);
			int cmp = counts[k - 1] != c ? (counts[k - 1] > c ? -1 : 1)
				  : memcmp(a, b, la < lb ? la : lb) ? memcmp(a, b, la < lb ? la : lb)
				  : (la > lb) - (la < lb);
			if (cmp <= 0)
				break;
			if (k < max) {
				locs[k] = locs[k - 1];
				counts[k] = counts[k - 1];
			}
			k--;
		}
		if (k < max) {
			locs[k] = loc;
			counts[k] = c;
		}
	}
	return n;
}

void fold_locs_free(struct fold_locs *L)
{
	if (!L)
		return;
	fold_trie_free(L->str);
	free(L->node);
	free(L->loc);
	free(L->count);
	free(L->next);
	free(L->head);
	uf_map_release(&L->map);
	free(L);
}

/* ---- the section in the embedded block ------------------------------- */

/* The records "INDEX STRING COUNT" of ent[0..nrec). */
static void write_records(const fold_trie *t, FILE *out, const uint32_t *ent, uint32_t nrec,
			  const uint32_t *index, const uint32_t *num)
{
	const struct fold_locs *L = t->locs;
	for (uint32_t r = 0; r < nrec; r++) {
		char line[160];
		uint32_t e = ent[r];
		size_t k = uf_fmt_u64(line, index[L->node[e]]);
		line[k++] = ' ';
		k += uf_fmt_u64(line + k, num[L->loc[e]]);
		line[k++] = ' ';
		int c = fold_format_count(line + k, 96, L->count[e]);
		k += c < 0 ? 0 : (size_t)c;
		line[k++] = '\n';
		fwrite(line, 1, k, out);
	}
}

int fold_locs_embed(const fold_trie *t, FILE *out, const uint32_t *index)
{
	const struct fold_locs *L = t->locs;
	if (!L || !L->n)
		return 0;
	uint32_t *num = malloc((size_t)L->str->nnames * sizeof *num);
	uint32_t *order = malloc((size_t)L->str->nnames * sizeof *order);
	uint32_t *ent = malloc((size_t)L->n * sizeof *ent), *bypos = malloc((size_t)t->nnodes * sizeof *bypos);
	uint32_t nstr = 0, nrec = 0;
	int rc = num && order && ent && bypos ? 0 : -ENOMEM;
	if (rc)
		goto out;
	memset(num, 0xff, (size_t)L->str->nnames * sizeof *num);
	memset(bypos, 0xff, (size_t)t->nnodes * sizeof *bypos);
	/* kept nodes by block position (a pruned node has none, or its
	 * parent's once embed.c's sequence filled it in) */
	for (uint32_t i = 0; i < t->nnodes; i++)
		if (index[i] < t->nnodes && (i == FOLD_ROOT || index[i] != index[t->parent[i]]))
			bypos[index[i]] = i;
	for (uint32_t k = 0; k < t->nnodes; k++) {
		uint32_t node = bypos[k], first = nrec;
		for (uint32_t e = node < L->head_cap ? L->head[node] : FOLD_NONE; e != FOLD_NONE; e = L->next[e])
			ent[nrec++] = e;
		sort_desc(t, ent + first, nrec - first);
		for (uint32_t r = first; r < nrec; r++)
			if (num[L->loc[ent[r]]] == UINT32_MAX) {
				num[L->loc[ent[r]]] = nstr;
				order[nstr++] = L->loc[ent[r]];
			}
	}
	if (!nrec)
		goto out;
	fprintf(out, "pos %u %u\n", nstr + nrec, nstr);
	for (uint32_t i = 0; i < nstr && rc == 0; i++) {
		size_t len;
		const char *s = fold_trie_name(L->str, order[i], &len);
		rc = put_escaped(out, s, len);
	}
	write_records(t, out, ent, nrec, index, num);
	fputs("end\n", out);
	rc = ferror(out) ? -EIO : 0;
out:
	free(num);
	free(order);
	free(ent);
	free(bypos);
	return rc;
}

struct lcur {
	const char *p, *end;
};

static int lline(struct lcur *c, const char **s, size_t *len)
{
	if (c->p >= c->end)
		return -1;
	const char *nl = memchr(c->p, '\n', (size_t)(c->end - c->p)), *stop = nl ? nl : c->end;
	*s = c->p;
	*len = (size_t)(stop - c->p);
	if (*len && (*s)[*len - 1] == '\r')
		(*len)--;
	c->p = nl ? nl + 1 : c->end;
	return 0;
}

/* "N" or "N M" (plain decimals) from s[0..len) after `skip` bytes. */
static int two_u32(const char *s, size_t len, size_t skip, uint32_t *a, uint32_t *b)
{
	uint64_t v[2] = { 0, 0 };
	size_t i = skip;
	for (int k = 0; k < (b ? 2 : 1); k++) {
		size_t start = i;
		while (i < len && s[i] >= '0' && s[i] <= '9' && v[k] <= UINT32_MAX)
			v[k] = v[k] * 10 + (uint64_t)(s[i++] - '0');
		if (i == start || v[k] > UINT32_MAX || (k == 0 && b && (i >= len || s[i++] != ' ')))
			return -1;
	}
	if (i != len)
		return -1;
	*a = (uint32_t)v[0];
	if (b)
		*b = (uint32_t)v[1];
	return 0;
}

static int hexv(char c)
{
	return c >= '0' && c <= '9' ? c - '0' : c >= 'A' && c <= 'F' ? c - 'A' + 10
	       : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

/* One record "INDEX STRING COUNT" into t. */
static int read_record(fold_trie *t, const char *s, size_t n, const uint32_t *ids, uint32_t nnodes,
		       const uint32_t *strs, uint32_t nstr)
{
	const char *sp = memchr(s, ' ', n), *sp2 = sp ? memchr(sp + 1, ' ', (size_t)(s + n - sp - 1)) : NULL;
	uint32_t idx, str;
	if (!sp2 || two_u32(s, (size_t)(sp2 - s), 0, &idx, &str) || idx >= nnodes || str >= nstr)
		return -EINVAL;
	char tmp[97];
	size_t cl = (size_t)(s + n - sp2 - 1);
	int dot = 0;
	if (cl == 0 || cl >= sizeof tmp || sp2[1] == '.')
		return -EINVAL;
	for (size_t i = 0; i < cl; i++) {
		char ch = sp2[1 + i];
		if (!((ch >= '0' && ch <= '9') || (ch == '.' && !dot++)))
			return -EINVAL;
		tmp[i] = ch;
	}
	tmp[cl] = 0;
	return fold_loc_add(t, ids[idx], strs[str], strtod(tmp, NULL));
}

/* NSTR escaped position lines into strs[] (ids in t). */
static int read_strings(fold_trie *t, struct lcur *c, uint32_t nstr, uint32_t *strs, char *buf)
{
	const char *s;
	size_t n;
	for (uint32_t i = 0; i < nstr; i++) {
		size_t o = 0;
		if (lline(c, &s, &n) || n == 0)
			return -EINVAL;
		for (size_t k = 0; k < n; k++) {
			if (o >= FOLD_MAX_NAME)
				return -EINVAL;
			if (s[k] != '%') {
				buf[o++] = s[k];
				continue;
			}
			int h = k + 2 < n ? hexv(s[k + 1]) : -1, l = k + 2 < n ? hexv(s[k + 2]) : -1;
			if (h < 0 || l < 0)
				return -EINVAL;
			buf[o++] = (char)(h * 16 + l);
			k += 2;
		}
		if ((strs[i] = fold_loc_intern(t, buf, o)) == FOLD_NONE)
			return -ENOMEM;
	}
	return 0;
}

int fold_locs_read(fold_trie *t, const char *text, size_t len, const uint32_t *ids, uint32_t nnodes)
{
	struct lcur c = { text, text + len };
	const char *s;
	size_t n;
	uint32_t nrec, nstr, lines;
	if (lline(&c, &s, &n) || n < 4 || (memcmp(s, "pos ", 4) && memcmp(s, "loc ", 4)))
		return 0; /* no positions: an older writer */
	int tagged = s[0] == 'p'; /* "pos LINES STRINGS", or an older "loc STRINGS RECORDS" */
	if (two_u32(s, n, 4, tagged ? &lines : &nstr, tagged ? &nstr : &nrec))
		return -EINVAL;
	if (tagged && nstr > lines)
		return -EINVAL;
	if (tagged)
		nrec = lines - nstr;
	if (nstr > len / 2 || nrec > len / 6)
		return -EINVAL;
	if (!locs_of(t))
		return -ENOMEM;
	uint32_t *strs = malloc(((size_t)nstr + 1) * sizeof *strs);
	char *buf = malloc(FOLD_MAX_NAME + 1);
	int rc = strs && buf ? read_strings(t, &c, nstr, strs, buf) : -ENOMEM;
	for (uint32_t i = 0; i < nrec && rc == 0; i++)
		rc = lline(&c, &s, &n) ? -EINVAL : read_record(t, s, n, ids, nnodes, strs, nstr);
	if (rc == 0 && (lline(&c, &s, &n) || n != 3 || memcmp(s, "end", 3)))
		rc = -EINVAL;
	free(strs);
	free(buf);
	return rc;
}

/* ---- helpers ------------------------------------------------------------ */

static struct fold_locs *locs_of(fold_trie *t)
{
	if (t->locs)
		return t->locs;
	struct fold_locs *L = calloc(1, sizeof *L);
	if (!L || !(L->str = fold_trie_new()) || uf_map_init(&L->map, 1024)) {
		fold_locs_free(L);
		return NULL;
	}
	return t->locs = L;
}

static int grow_entries(struct fold_locs *L)
{
	uint32_t nc = L->cap ? L->cap * 2 : 1024;
	if (nc <= L->cap)
		return -ENOMEM;
	void *a = realloc(L->node, (size_t)nc * sizeof *L->node);
	if (a)
		L->node = a;
	void *b = a ? realloc(L->loc, (size_t)nc * sizeof *L->loc) : NULL;
	if (b)
		L->loc = b;
	void *c = b ? realloc(L->count, (size_t)nc * sizeof *L->count) : NULL;
	if (c)
		L->count = c;
	void *d = c ? realloc(L->next, (size_t)nc * sizeof *L->next) : NULL;
	if (!d)
		return -ENOMEM;
	L->next = d;
	L->cap = nc;
	return 0;
}

static int grow_heads(struct fold_locs *L, uint32_t node)
{
	if (node < L->head_cap)
		return 0;
	uint32_t nc = L->head_cap ? L->head_cap : 1024;
	while (nc <= node)
		nc *= 2;
	uint32_t *h = realloc(L->head, (size_t)nc * sizeof *h);
	if (!h)
		return -ENOMEM;
	memset(h + L->head_cap, 0xff, (size_t)(nc - L->head_cap) * sizeof *h);
	L->head = h;
	L->head_cap = nc;
	return 0;
}

static int same_entry(const void *ctx, uint32_t e)
{
	const struct loc_key *k = ctx;
	return k->L->node[e] == k->node && k->L->loc[e] == k->loc;
}

static uint64_t entry_hash(const void *ctx, uint32_t e)
{
	const struct fold_locs *L = ctx;
	return uf_hash_u64_keyed(key_of(L->node[e], L->loc[e]));
}

static int cmp_desc(const void *a, const void *b, void *ctx)
{
	const struct fold_locs *L = ctx;
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	if (L->count[x] != L->count[y])
		return L->count[x] > L->count[y] ? -1 : 1;
	size_t la, lb;
	const char *sa = fold_trie_name(L->str, L->loc[x], &la), *sb = fold_trie_name(L->str, L->loc[y], &lb);
	int c = memcmp(sa, sb, la < lb ? la : lb);
	return c ? c : (la > lb) - (la < lb);
}

/* Entries e[0..n) most samples first, ties by bytes. */
static void sort_desc(const fold_trie *t, uint32_t *e, uint32_t n)
{
	qsort_r(e, n, sizeof *e, cmp_desc, t->locs);
}

/* The block's name escaping (embed.c): no XML-special or control byte. */
static int put_escaped(FILE *out, const char *s, size_t len)
{
	for (size_t k = 0; k < len; k++) {
		unsigned char c = (unsigned char)s[k];
		if (c < 0x21 || c >= 0x7f || c == '%' || c == '<' || c == '>' || c == '&' || c == '"' ||
		    c == '\'' || c == ']')
			fprintf(out, "%%%02X", c);
		else
			fputc(c, out);
	}
	fputc('\n', out);
	return ferror(out) ? -EIO : 0;
}
