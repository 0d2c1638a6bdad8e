/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * fold/embed/embed.c — a trie as a compact text block that rides inside an SVG.
 *
 * Format "uf-trie/1" (printable ASCII; no byte of < > & " ' ] or any
 * control byte except '\n', so it needs no XML escaping and cannot end a
 * CDATA section or a comment):
 *
 *   1. header line:  "uf-trie/1 NAMES NODES DIFF PRUNED"
 *   2. NAMES lines:  one name each, bytes outside 0x21..0x7e other than
 *                    space, and % < > & " ' ], written as %XX
 *   3. NODES lines:  "DEPTH NAME SELF" (+ " BASE" when DIFF is 1), in
 *                    depth-first pre-order; DEPTH 0 is the root (first
 *                    line), a node's parent is the last node one level up
 *   4. "end"
 *   5. zero or more tagged sections, to the end of the text (a blank line
 *      also ends them), each self-describing and skippable by length:
 *        "NAME LINES [ARG...]"  NAME [a-z][a-z0-9-]* (at most 16 bytes),
 *                               LINES its body's line count, up to 8 ARGs
 *        LINES body lines
 *        "end"
 *      A reader steps over a section whose NAME it does not know (LINES
 *      + 1 lines), so a new section needs no change to any reader; at
 *      most one section of each NAME.  Written today, in this order:
 *      - "seq LINES": a flame chart's time order, LINES records "INDEX
 *        COUNT" (+ " BASE"), INDEX a node's position in 3 (a pruned
 *        node's nearest kept ancestor), in input order, adjacent equal
 *        indices merged;
 *      - "pos LINES STRINGS": the nodes' source positions
 *        (fold/model/loc.c has the body);
 *      - "time LINES": each sample's time and run state, for the viewer's
 *        time view (issue 30), written when any sequence entry has either:
 *        LINES records "DT INDEX STATE" (+ " COUNT" when not 1), one per
 *        sequence entry in input order (so "seq" is left out: readers take
 *        the order from here), DT the microseconds since the
 *        previous timed entry's (the first's since the profile's first
 *        timed sample, t0 of fold/model/when.c; both floored to whole
 *        microseconds, so the sums are exact; negative when the input is
 *        out of order) or "-" when unknown, INDEX
 *        as in "seq", STATE enum uf_runstate's number (util/runstate.h:
 *        0 unknown, 1 running, 2 runnable, 3 blocked, 4 offline).  About
 *        12 bytes a sample before deflating.  The C reader steps over it:
 *        `fold x.svg` does not keep times (the seq section keeps order).
 *      Older blocks (before the sections were tagged) carry the same
 *      "seq" and, for positions, "loc STRINGS RECORDS": the one header
 *      whose body is the sum of its numbers; readers still read it.
 *      docs/svg-contract.md declares the grammar for the C and JS readers.
 *
 * fold_embed_write_columns() writes the same block with the node lines as
 * embed-pack.c's columns (what an SVG carries, once deflated); its budget
 * counts those bytes.  One walk numbers the names, writes the depth codes
 * and lists the kept nodes; the name and count columns are then written
 * in two halves of that list, the second on a thread from
 * EMBED_SPLIT_NODES kept nodes (write_halves): the same bytes either way
 * (scripts/same-output.sh), since a half reads only what the walk made.
 *
 * The trie's metadata (t->meta, fold_meta_add) is not part of this block:
 * render/svg.c writes it as its own <metadata id="uniprof-flame-meta">,
 * so readers of "uf-trie/1" never see it; its helpers are the model's
 * (fold/model/meta.c).
 *
 * Pruning: past the byte budget, the nodes with the smallest totals are
 * dropped (a set closed under ancestors, since a parent's total is never
 * below a child's) and their samples are added to the self count of
 * their nearest kept ancestor, so every kept frame keeps its total.  The
 * threshold (threshold_for_budget) counts what the kept set costs, its
 * node lines and the names they use, so a block is made once.
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "fold/embed/embed.h"
#include "fold/embed/internal.h"
#include "util/fmt.h"
#include "util/split2.h"
#include "util/vec.h"

static int needs_escape(unsigned char c);
static int any_escape(const unsigned char *s, size_t len);
static double threshold_for_budget(const fold_trie *t, size_t budget, int columns, size_t *bytes_out);
static size_t node_line_bytes(const fold_trie *t, uint32_t i, int columns);
struct emit;
static void write_sequence(struct emit *E);
static void write_times(struct emit *E);
static void fill_pruned_index(struct emit *E);
struct stretch;
static void col_varint(struct stretch *S, int k, uint32_t v);
static void write_halves(const struct emit *E, struct stretch *half);
struct wbucket;
static double select_key(const fold_trie *t, int columns, const uint64_t *name_key, struct wbucket *h,
			 size_t budget);
static void weigh_names(const fold_trie *t, const uint64_t *name_key, uint64_t prefix, uint64_t mask, int shift,
			struct wbucket *h);

struct emit {
	const fold_trie *t;
	FILE *out;
	double thr;
	uint32_t *num;      /* name id -> number in the block, UINT32_MAX = unused */
	uint32_t *order;    /* number -> name id */
	uint32_t nused;
	uint32_t kept;
	const double *base_total; /* BEFORE per subtree, when a differential is pruned */
	int too_long;       /* a count needed more than EMBED_MAX_COUNT characters */
	uint32_t *index;    /* node id -> pre-order position in the block (seq) */
	int columns;        /* node lines as embed-pack.c's columns, not text */
	uint32_t *kept_node;  /* columns: the kept nodes in pre-order (kept of them) */
	struct stretch *codes; /* columns: the stretch whose depth codes the walk writes */
	int64_t prev_depth;   /* ... and the depth of the node before */
};

/* A stretch of the kept nodes' lines as embed-pack.c's columns, written
 * by one thread: the block's columns are the first stretch's and the
 * second's, column by column. */
struct col {
	uint8_t *p;
	size_t len, cap;
};
struct stretch {
	const struct emit *E;
	uint32_t lo, hi;     /* kept_node[lo .. hi) */
	struct col col[3];   /* depth codes (all in the first), names, counts */
	int nomem, too_long;
};

/* Kept nodes from which the columns are written on two threads: each
 * costs about 700 instructions (tree-100k), so 20,000 are ~14 M, well
 * past a thread's start (util/split2.h's item rule). */
#define EMBED_SPLIT_NODES UF_SPLIT2_MIN_ITEMS

/* Counts longer than this are refused by the reader (embed-read.c). */
#define EMBED_MAX_COUNT 95

/* Calls visit() on every kept node in pre-order, children in entry order. */
static int walk_preorder(struct emit *E, void (*visit)(struct emit *E, uint32_t node, uint32_t depth))
{
	const fold_trie *t = E->t;
	uint32_t *stack = malloc(((size_t)t->maxdepth + 2) * sizeof *stack);
	uint32_t *next = malloc(((size_t)t->maxdepth + 2) * sizeof *next);
	if (!stack || !next) {
		free(stack);
		free(next);
		return -ENOMEM;
	}
	uint32_t sp = 0;
	visit(E, FOLD_ROOT, 0);
	stack[sp] = FOLD_ROOT;
	next[sp++] = t->eoff[0];
	while (sp) {
		uint32_t top = stack[sp - 1];
		if (next[sp - 1] == t->eoff[top + 1]) {
			sp--;
			continue;
		}
		uint32_t en = t->ent[next[sp - 1]++], c = en & ~FOLD_ENTRY_SELF;
		if ((en & FOLD_ENTRY_SELF) && t->eoff[c + 1] > t->eoff[c])
			continue; /* visited through its subtree entry */
		if (t->total[c] < E->thr)
			continue;
		visit(E, c, sp);
		stack[sp] = c;
		next[sp++] = t->eoff[c];
	}
	free(stack);
	free(next);
	return 0;
}

/* Pass 1: number the names in order of first use, so the block does not
 * depend on the order names were first seen in the input; with columns,
 * list the kept nodes for the writers (write_stretch). */
static void number_names(struct emit *E, uint32_t node, uint32_t depth)
{
	uint32_t nm = E->t->name[node];
	if (E->num[nm] == UINT32_MAX) {
		E->num[nm] = E->nused;
		E->order[E->nused++] = nm;
	}
	if (E->index)
		E->index[node] = E->kept;
	if (E->kept_node) { /* a depth code is a byte or two: written here, serially */
		E->kept_node[E->kept] = node;
		col_varint(E->codes, 0, (uint32_t)(E->prev_depth + 1 - depth));
		E->prev_depth = depth;
	}
	E->kept++;
}

/* What `node` keeps of t->total and, with `base` (the BEFORE totals per
 * subtree), of those, when its pruned children fold into it: its total
 * minus its kept children's.  One walk of the entries for both (the
 * children's totals are the cache misses), each subtracted in entry
 * order. */
static double own_after_pruning(const struct emit *E, uint32_t node, const double *base, double *own_base)
{
	const fold_trie *t = E->t;
	double own = t->total[node], ob = base ? base[node] : 0;
	uint32_t ne;
	const uint32_t *e = fold_trie_entries(t, node, &ne);
	for (uint32_t k = 0; k < ne; k++) {
		uint32_t c = e[k] & ~FOLD_ENTRY_SELF;
		int has_kids = t->eoff[c + 1] > t->eoff[c];
		if ((!(e[k] & FOLD_ENTRY_SELF) || !has_kids) && t->total[c] >= E->thr) {
			own -= t->total[c];
			if (base)
				ob -= base[c];
		}
	}
	*own_base = ob < 0 ? 0 : ob;
	return own < 0 ? 0 : own;
}

static void col_put(struct stretch *S, int k, const void *s, size_t n)
{
	struct col *c = &S->col[k];
	if (c->cap - c->len < n && uf_vec_grow(&c->p, &c->cap, c->len + n, 1)) {
		S->nomem = 1;
		return;
	}
	memcpy(c->p + c->len, s, n);
	c->len += n;
}

/* A varint or a count's line: up to 32 bytes copied whole (the column
 * kept 32 bytes ahead), so the copy is a constant's, not a call (two
 * or three a node: ~25 % of writing the small capture's columns). */
#define COL_ROOM 32

static inline void col_put_short(struct stretch *S, int k, const uint8_t (*s)[COL_ROOM], size_t n)
{
	struct col *c = &S->col[k];
	if (c->cap - c->len < COL_ROOM && uf_vec_grow(&c->p, &c->cap, c->len + COL_ROOM, 1)) {
		S->nomem = 1;
		return;
	}
	memcpy(c->p + c->len, *s, COL_ROOM);
	c->len += n;
}

static void col_varint(struct stretch *S, int k, uint32_t v)
{
	uint8_t q[COL_ROOM] = { 0 };
	col_put_short(S, k, &q, fold_varint(q, v));
}

/* A node line's counts, "SELF[ BASE]\n", into line (256 bytes); both keep
 * the samples of pruned children.  Returns the length; sets *too_long
 * for a count the reader would refuse. */
static size_t format_counts(const struct emit *E, uint32_t node, char *line, int *too_long)
{
	const fold_trie *t = E->t;
	double obase = 0, self = E->thr > 0 ? own_after_pruning(E, node, E->base_total, &obase) : t->self[node];
	int k = fold_format_count(line, EMBED_MAX_COUNT + 1, self);
	*too_long |= k < 0;
	size_t n = k < 0 ? 0 : (size_t)k;
	if (t->base) {
		double base = E->base_total ? obase : t->base[node];
		line[n++] = ' ';
		k = fold_format_count(line + n, EMBED_MAX_COUNT + 1, base);
		*too_long |= k < 0;
		n += k < 0 ? 0 : (size_t)k;
	}
	line[n++] = '\n';
	return n;
}

/* Pass 2 of the text: "DEPTH NAME SELF [BASE]". */
static void write_node(struct emit *E, uint32_t node, uint32_t depth)
{
	char line[320];
	size_t n = uf_fmt_u64(line, depth);
	line[n++] = ' ';
	n += uf_fmt_u64(line + n, E->num[E->t->name[node]]);
	line[n++] = ' ';
	n += format_counts(E, node, line + n, &E->too_long);
	fwrite(line, 1, n, E->out);
}

/* The packed form (embed-pack.c) of kept_node[lo .. hi): the text line's
 * name number as a varint in its own column, its counts as text in the
 * third (number_names wrote the first: the depths as codes, the previous
 * node's depth + 1 - its own, the root's previous being -1).  Reads only
 * what number_names made, so two stretches can be written at once. */
static void *write_stretch(void *arg)
{
	struct stretch *S = arg;
	const struct emit *E = S->E;
	const uint32_t *name = E->t->name;
	union {
		char text[256];
		uint8_t room[COL_ROOM];
	} line;
	for (uint32_t i = S->lo; i < S->hi && !S->nomem; i++) {
		uint32_t node = E->kept_node[i];
		col_varint(S, 1, E->num[name[node]]);
		size_t n = format_counts(E, node, line.text, &S->too_long);
		if (n <= COL_ROOM)
			col_put_short(S, 2, &line.room, n);
		else
			col_put(S, 2, line.text, n);
	}
	return NULL;
}

static int embed_write(const fold_trie *t, FILE *out, size_t budget, int columns,
		       const double *base_sums, struct fold_embed_info *info);

/* The name lines, %XX-escaped, through a buffer of our own: stdio's
 * per-call locking and a printf per escape were 5 ms of tree-64k's
 * block (29,375 names, a quarter with an escape). */
static int write_names(struct emit *E)
{
	static const char hex[] = "0123456789ABCDEF";
	size_t cap = 1 << 16, n = 0;
	char *buf = malloc(cap);
	if (!buf)
		return -ENOMEM;
	const fold_trie *t = E->t;
	for (uint32_t i = 0; i < E->nused; i++) {
		if (i + 16 < E->nused) { /* names in first-use order: scattered */
			__builtin_prefetch(&t->noff[E->order[i + 16]]);
			__builtin_prefetch(&t->nlen[E->order[i + 16]]);
		}
		if (i + 8 < E->nused)
			__builtin_prefetch(t->nbuf + t->noff[E->order[i + 8]]);
		size_t len;
		const unsigned char *s = (const unsigned char *)fold_trie_name(t, E->order[i], &len);
		if (cap - n < 3 * len + 1) { /* flush; a name longer than the buffer grows it */
			fwrite(buf, 1, n, E->out);
			n = 0;
			if (cap < 3 * len + 1) {
				char *p = realloc(buf, 3 * len + 1);
				if (!p) {
					free(buf);
					return -ENOMEM;
				}
				buf = p;
				cap = 3 * len + 1;
			}
		}
		if (!any_escape(s, len)) {
			memcpy(buf + n, s, len);
			n += len;
			buf[n++] = '\n';
			continue;
		}
		for (size_t k = 0; k < len; k++) {
			unsigned char c = s[k];
			if (needs_escape(c)) {
				buf[n++] = '%';
				buf[n++] = hex[c >> 4];
				buf[n++] = hex[c & 15];
			} else {
				buf[n++] = (char)c;
			}
		}
		buf[n++] = '\n';
	}
	fwrite(buf, 1, n, E->out);
	free(buf);
	return 0;
}

int fold_embed_write(const fold_trie *t, FILE *out, size_t budget, struct fold_embed_info *info)
{
	return embed_write(t, out, budget, 0, NULL, info);
}

int fold_embed_write_columns(const fold_trie *t, FILE *out, size_t budget, struct fold_embed_info *info)
{
	return embed_write(t, out, budget, 1, NULL, info);
}

int fold_embed_write_columns_base(const fold_trie *t, FILE *out, size_t budget,
				  const double *base_sums, struct fold_embed_info *info)
{
	return embed_write(t, out, budget, 1, base_sums, info);
}

/* base_sums: a differential's BEFORE per subtree, summed by the caller
 * (borrowed), or NULL to sum them here when pruning needs them. */
static int embed_write(const fold_trie *t, FILE *out, size_t budget, int columns,
		       const double *base_sums, struct fold_embed_info *info)
{
	if (!t->finished)
		return -EINVAL;
	memset(info, 0, sizeof *info);
	info->nodes_total = t->nnodes;
	size_t est = 0;
	struct emit E = { .t = t, .out = out, .columns = columns };
	struct stretch half[2] = { { .E = &E }, { .E = &E } };
	double *own_base = NULL; /* E.base_total when summed here */
	E.thr = budget ? threshold_for_budget(t, budget, columns, &est) : 0;
	E.num = malloc((size_t)t->nnames * sizeof *E.num);
	E.order = malloc((size_t)t->nnames * sizeof *E.order);
	int rc = -ENOMEM;
	if (!E.num || !E.order)
		goto out;
	memset(E.num, 0xff, (size_t)t->nnames * sizeof *E.num);
	if ((t->keep_seq && t->seq_len) || t->locs || t->seq_when_len) {
		if (!(E.index = malloc((size_t)t->nnodes * sizeof *E.index)))
			goto out;
		memset(E.index, 0xff, (size_t)t->nnodes * sizeof *E.index);
	}
	E.codes = &half[0];
	E.prev_depth = -1;
	if (columns && (!(E.kept_node = malloc((size_t)t->nnodes * sizeof *E.kept_node)) ||
			uf_vec_grow(&half[0].col[0].p, &half[0].col[0].cap, (size_t)t->nnodes + 16 + COL_ROOM, 1)))
		goto out;
	if (E.thr > 0 && t->base && base_sums) {
		E.base_total = base_sums;
	} else if (E.thr > 0 && t->base) {
		if (!(own_base = malloc((size_t)t->nnodes * sizeof *own_base)))
			goto out;
		memcpy(own_base, t->base, (size_t)t->nnodes * sizeof *own_base);
		for (uint32_t i = t->nnodes - 1; i > 0; i--)
			own_base[t->parent[i]] += own_base[i];
		E.base_total = own_base;
	}
	/* one walk numbers the names and, for columns, lists the kept nodes,
	 * whose two halves are then written at once (write_stretch); text
	 * lines follow the names, so a second walk writes them */
	if ((rc = walk_preorder(&E, number_names)) != 0)
		goto out;
	if (columns)
		write_halves(&E, half);
	long start = ftell(out);
	fprintf(out, "uf-trie/1 %u %u %d %d\n", E.nused, E.kept, t->base != NULL, E.kept < t->nnodes);
	if ((rc = write_names(&E)) != 0)
		goto out;
	if (!columns && (rc = walk_preorder(&E, write_node)) != 0)
		goto out;
	if (half[0].nomem || half[1].nomem) {
		rc = -ENOMEM;
		goto out;
	}
	if (E.too_long || half[0].too_long || half[1].too_long) { /* never write a block that would not read back exactly */
		rc = -ERANGE;
		goto out;
	}
	for (int k = 0; k < 3 && columns; k++)
		for (int h = 0; h < 2; h++)
			if (half[h].col[k].len) /* an empty column may have no buffer */
				fwrite(half[h].col[k].p, 1, half[h].col[k].len, out);
	fputs("end\n", out);
	if (E.index && t->keep_seq && t->seq_len && !t->seq_when_len) /* "time" holds the order too */
		write_sequence(&E);
	if (E.index && t->seq_when_len)
		write_times(&E);
	if (t->locs && (rc = fold_locs_embed(t, out, E.index)) != 0)
		goto out;
	info->nodes_written = E.kept;
	info->min_total = E.thr;
	long end = ftell(out);
	info->bytes = start >= 0 && end >= start ? (size_t)(end - start) : est;
	rc = ferror(out) ? -EIO : 0;
out:
	free(E.num);
	free(E.order);
	free(own_base);
	free(E.index);
	free(E.kept_node);
	for (int k = 0; k < 3; k++)
		for (int h = 0; h < 2; h++)
			free(half[h].col[k].p);
	return rc;
}

/* The kept nodes' columns in two stretches of the pre-order, the second
 * on a thread of its own from EMBED_SPLIT_NODES nodes: each stretch's
 * bytes depend only on the numbering and the node before it, so the
 * block is the same bytes however it was shared. */
static void write_halves(const struct emit *E, struct stretch *half)
{
	uint32_t mid = E->kept / 2;
	half[0].lo = 0;
	half[0].hi = half[1].lo = mid;
	half[1].hi = E->kept;
	for (int h = 0; h < 2; h++) {
		/* sized here, once for nearly every block (name numbers below
		 * 2^21, counts below 10^5): a column grown by doubling moved its
		 * bytes each time (the block's largest source of page faults),
		 * and the helper thread allocating nothing makes no malloc
		 * arena of its own (~150 page faults) */
		size_t n = half[h].hi - half[h].lo;
		if (uf_vec_grow(&half[h].col[1].p, &half[h].col[1].cap, 3 * n + 16, 1) ||
		    uf_vec_grow(&half[h].col[2].p, &half[h].col[2].cap, 6 * n + 64, 1))
			half[h].nomem = 1;
	}
	uf_split2(write_stretch, &half[0], &half[1], uf_split2_worth(E->kept, EMBED_SPLIT_NODES));
}

/* Section "seq": the sequence, each record at its node's (or nearest kept
 * ancestor's) position; a parent's id is below its child's, so one
 * forward pass fills the pruned nodes. */
static void write_sequence(struct emit *E)
{
	const fold_trie *t = E->t;
	fill_pruned_index(E);
	size_t n = 0;
	for (size_t i = 0; i < t->seq_len; i++)
		n += i == 0 || E->index[t->seq_node[i]] != E->index[t->seq_node[i - 1]];
	fprintf(E->out, "seq %zu\n", n);
	for (size_t i = 0; i < t->seq_len;) {
		uint32_t at = E->index[t->seq_node[i]];
		double c = 0, b = 0;
		for (; i < t->seq_len && E->index[t->seq_node[i]] == at; i++) {
			c += t->seq_count[i];
			b += t->seq_base ? t->seq_base[i] : 0;
		}
		char line[256];
		size_t k = uf_fmt_u64(line, at);
		line[k++] = ' ';
		k += (size_t)fold_format_count(line + k, 96, c);
		if (t->base) {
			line[k++] = ' ';
			k += (size_t)fold_format_count(line + k, 96, b);
		}
		line[k++] = '\n';
		fwrite(line, 1, k, E->out);
	}
	fputs("end\n", E->out);
}

/* A pruned node's index is its nearest kept ancestor's (idempotent). */
static void fill_pruned_index(struct emit *E)
{
	const fold_trie *t = E->t;
	for (uint32_t i = 1; i < t->nnodes; i++)
		if (E->index[i] == UINT32_MAX)
			E->index[i] = E->index[t->parent[i]];
}

/* Section "time" (header comment, item 5): delta-coded microseconds, the
 * node, the state; a sequence entry's count only when it is not 1. */
static void write_times(struct emit *E)
{
	const fold_trie *t = E->t;
	fill_pruned_index(E);
	fprintf(E->out, "time %zu\n", t->seq_len);
	uint64_t prev_us = 0;
	for (size_t i = 0; i < t->seq_len; i++) {
		char line[192];
		size_t k = 0;
		uint64_t ns = fold_seq_t_ns(t, i);
		if (ns == FOLD_T_UNKNOWN) {
			line[k++] = '-';
		} else {
			uint64_t us = ns / 1000;
			if (us < prev_us) /* out of order: a negative delta keeps it exact */
				line[k++] = '-';
			k += uf_fmt_u64(line + k, us >= prev_us ? us - prev_us : prev_us - us);
			prev_us = us;
		}
		line[k++] = ' ';
		k += uf_fmt_u64(line + k, E->index[t->seq_node[i]]);
		line[k++] = ' ';
		line[k++] = (char)('0' + fold_seq_state(t, i));
		if (t->seq_count[i] != 1) {
			line[k++] = ' ';
			k += (size_t)fold_format_count(line + k, 96, t->seq_count[i]);
		}
		line[k++] = '\n';
		fwrite(line, 1, k, E->out);
	}
	fputs("end\n", E->out);
}

static void put_escaped(FILE *out, const char *s, size_t len)
{
	size_t run = 0;
	for (size_t k = 0; k < len; k++) {
		if (!needs_escape((unsigned char)s[k]))
			continue;
		fwrite(s + run, 1, k - run, out);
		fprintf(out, "%%%02X", (unsigned char)s[k]);
		run = k + 1;
	}
	fwrite(s + run, 1, len - run, out);
}

static int cmp_name_bytes(const void *a, const void *b, void *ctx)
{
	const fold_trie *t = ctx;
	size_t la, lb;
	const char *x = fold_trie_name(t, *(const uint32_t *)a, &la);
	const char *y = fold_trie_name(t, *(const uint32_t *)b, &lb);
	int c = memcmp(x, y, la < lb ? la : lb);
	return c ? c : (la > lb) - (la < lb);
}

/* One line per name in byte order, so the table does not depend on the
 * order the nodes were made in (a recording and its SVG read back write
 * the same bytes). */
int fold_libs_write(const fold_trie *t, FILE *out)
{
	if (!t->lib_of)
		return 0;
	uint8_t *seen = calloc(t->nnames ? t->nnames : 1, 1);
	uint32_t *list = malloc((t->nnames ? t->nnames : 1) * sizeof *list), n = 0;
	if (!seen || !list) {
		free(seen);
		free(list);
		return -ENOMEM;
	}
	for (uint32_t i = 1; i < t->nnodes; i++) {
		uint32_t nm = t->name[i];
		if (fold_trie_lib(t, nm) == FOLD_NONE || seen[nm])
			continue;
		seen[nm] = 1;
		list[n++] = nm;
	}
	qsort_r(list, n, sizeof *list, cmp_name_bytes, (void *)t);
	for (uint32_t k = 0; k < n; k++) {
		size_t len, ln;
		uint32_t lib = fold_trie_lib(t, list[k]);
		const char *s = fold_trie_name(t, list[k], &len), *ls = fold_trie_name(t, lib, &ln);
		put_escaped(out, s, len);
		fputc('\t', out);
		put_escaped(out, ls, ln);
		fputc('\n', out);
	}
	free(seen);
	free(list);
	return ferror(out) ? -EIO : 0;
}

/* %XX back to bytes; returns the new length, or (size_t)-1 when malformed. */
static size_t unescape_in_place(char *s, size_t len)
{
	size_t k = 0;
	for (size_t i = 0; i < len; i++) {
		if (s[i] != '%') {
			s[k++] = s[i];
			continue;
		}
		unsigned v;
		char hex[3] = { i + 2 < len ? s[i + 1] : 0, i + 2 < len ? s[i + 2] : 0, 0 };
		if (!isxdigit((unsigned char)hex[0]) || !isxdigit((unsigned char)hex[1]) ||
		    sscanf(hex, "%2x", &v) != 1)
			return (size_t)-1;
		s[k++] = (char)v;
		i += 2;
	}
	return k;
}

int fold_libs_read(fold_trie *t, const char *text, size_t len)
{
	char *buf = malloc(len + 1);
	if (!buf)
		return -ENOMEM;
	memcpy(buf, text, len);
	buf[len] = 0;
	int rc = 0;
	for (char *p = buf; *p && rc == 0;) {
		char *nl = strchr(p, '\n'), *tab;
		if (nl)
			*nl = 0;
		if ((tab = strchr(p, '\t'))) {
			*tab = 0;
			size_t n = unescape_in_place(p, strlen(p)), ln = unescape_in_place(tab + 1, strlen(tab + 1));
			if (n != (size_t)-1 && ln != (size_t)-1 && n && ln && n <= FOLD_MAX_NAME && ln <= FOLD_MAX_NAME) {
				uint32_t nm = fold_trie_intern(t, p, n);
				rc = nm == FOLD_NONE ? -ENOMEM : fold_trie_set_lib(t, nm, tab + 1, ln);
			}
		}
		if (!nl)
			break;
		p = nl + 1;
	}
	free(buf);
	return rc;
}

static const unsigned char escaped[256] = {
	[0 ... 0x1f] = 1, [0x7f ... 0xff] = 1, ['%'] = 1, ['<'] = 1, ['>'] = 1, ['&'] = 1,
	['"'] = 1, ['\''] = 1, [']'] = 1,
};

static int needs_escape(unsigned char c)
{
	return escaped[c];
}

/* Does any byte of s[0..len) need escaping?  16 at a time with SSE2 (as
 * signed bytes, those of 0x80 and above are below ' '): a name is
 * copied whole when none does (nearly all), not byte by byte. */
static int any_escape(const unsigned char *s, size_t len)
{
	size_t i = 0;
#ifdef __SSE2__
	static const char special[] = "%<>&\"']\x7f";
	for (; i + 16 <= len; i += 16) {
		__m128i v = _mm_loadu_si128((const void *)(s + i));
		__m128i bad = _mm_cmplt_epi8(v, _mm_set1_epi8(' '));
		for (size_t k = 0; k < sizeof special - 1; k++)
			bad = _mm_or_si128(bad, _mm_cmpeq_epi8(v, _mm_set1_epi8(special[k])));
		if (_mm_movemask_epi8(bad))
			return 1;
	}
#endif
	for (; i < len; i++)
		if (escaped[s[i]])
			return 1;
	return 0;
}

/* Bytes fold_format_count writes for v; whole counts (nearly all) are
 * measured without formatting them: this runs once per node. */
static inline size_t digits(double v)
{
	if (v >= 0 && v < 1e15 && v == (double)(uint64_t)v) /* no floor(): a libm call */
		return uf_dec_digits((uint64_t)v); /* a compare, no division loop */
	char buf[EMBED_MAX_COUNT + 1];
	int n = fold_format_count(buf, sizeof buf, v);
	return n < 0 ? EMBED_MAX_COUNT : (size_t)n;
}

static inline size_t node_line_bytes(const fold_trie *t, uint32_t i, int columns)
{
	/* text: depth and name as decimals (up to 12 bytes with their
	 * spaces); columns: a one-byte depth code, a name of up to 3 */
	size_t n = (columns ? 4 : 12) + (t->self[i] == 0 ? 1 : digits(t->self[i]));
	return t->base ? n + 1 + digits(t->base[i]) : n;
}

/* A total as an integer of the same order: the bits of a positive double
 * rise with its value; zero, negative and NaN totals (never made by the
 * readers) all map to 0, which orders them as zero. */
static inline uint64_t total_key(double v)
{
	uint64_t k = 0;
	if (v > 0)
		memcpy(&k, &v, sizeof k);
	return k;
}

#define SEL_BITS 16
#define SEL_MASK ((1u << SEL_BITS) - 1)

/* A bucket of the selection: its items' weight, and the OR of their
 * keys' bits below the bucket's (0: every item in it has the same key). */
struct wbucket {
	uint64_t weight, low;
};

/* The smallest total to keep so the block stays near `budget`; 0 keeps all.
 *
 * Keeping the nodes whose total is at least thr costs their lines
 * (node_line_bytes) and the lines of the names they use, and a name is
 * used from the largest total among its nodes down.  So every node and
 * every used name is an item with a key (total_key of its total; a
 * name's: its largest node's) and a weight (its bytes), and the
 * threshold is where the items' weights, added from the largest key
 * down, pass the budget: a weighted radix selection, 16 bits of the key
 * a pass (select_key).  Ties never split: the key that does not fit is
 * dropped whole, so the columns stay within the budget as node_line_bytes
 * counts them (it counts a kept node's self before its pruned children's
 * samples fold in: tree-100k's columns come out 1.086 MB for 1.049 MB).
 *
 * Why names apart: a pruned block of a call tree keeps nearly every
 * name (tree-100k: 554 of 559 KB of names for a third of the nodes).
 * The estimate before this one spread the names over all nodes (room =
 * budget / average bytes a node), kept too many nodes and came out 32 %
 * over on tree-100k, so render's block went over its budget and was made
 * a second time (half the embed thread's work).
 *
 * Memory: 8 bytes a name and 1 MiB of histogram (a byte a node for the
 * lines' bytes was 600 page faults on little-100k's 2.4M nodes: they are
 * measured again for the few nodes a later pass looks at); time: the
 * pass measuring the block is the selection's first, then up to three
 * more over nodes and names (whole-number totals below 2^21 need at most
 * one). */
static double threshold_for_budget(const fold_trie *t, size_t budget, int columns, size_t *bytes_out)
{
	size_t names = 0, bytes = 0;
	for (uint32_t n = 0; n < t->nnames; n++)
		names += t->nlen[n] + 1;
	/* every line at its longest (counts of EMBED_MAX_COUNT characters)
	 * within the budget: all fit, so only the bytes are measured, without
	 * the selection's 1 MiB histogram (its mmap, munmap and page faults
	 * were ~0.04 ms of rendering FlameGraph's 646 KB example) */
	size_t longest = (columns ? 4 : 12) + EMBED_MAX_COUNT + (t->base ? 1 + EMBED_MAX_COUNT : 0);
	if (t->nnodes <= (budget - (names < budget ? names : budget)) / longest) {
		for (uint32_t i = 0; i < t->nnodes; i++)
			bytes += node_line_bytes(t, i, columns);
		*bytes_out = names + bytes;
		return 0;
	}
	uint64_t *name_key = calloc(t->nnames ? t->nnames : 1, sizeof *name_key);
	/* zeroed pages from calloc: the first pass touches only the buckets
	 * the totals fall in (a memset of all 1 MiB was 256 page faults) */
	struct wbucket *hist = calloc((size_t)1 << SEL_BITS, sizeof *hist);
	double thr = INFINITY; /* keep only the root when out of memory */
	if (!name_key || !hist)
		goto out;
	const int top = 64 - SEL_BITS;
	for (uint32_t i = 0; i < t->nnodes; i++) { /* the bytes, and the selection's first pass */
		size_t lb = node_line_bytes(t, i, columns);
		uint64_t k = total_key(t->total[i]);
		uint32_t nm = t->name[i];
		struct wbucket *h = &hist[k >> top];
		bytes += lb;
		h->weight += lb;
		h->low |= k & (((uint64_t)1 << top) - 1);
		if (k > name_key[nm])
			name_key[nm] = k;
	}
	*bytes_out = names + bytes;
	thr = 0; /* all fit */
	if (names + bytes > budget) {
		weigh_names(t, name_key, 0, 0, top, hist);
		thr = select_key(t, columns, name_key, hist, budget);
	}
out:
	free(name_key);
	free(hist);
	return thr;
}

/* h[b] gains the used names whose key is `prefix` under `mask` and whose
 * next 16 bits below `shift` are b. */
static void weigh_names(const fold_trie *t, const uint64_t *name_key, uint64_t prefix, uint64_t mask, int shift,
			struct wbucket *h)
{
	uint64_t low = ((uint64_t)1 << shift) - 1;
	for (uint32_t n = 0; n < t->nnames; n++) {
		uint64_t k = name_key[n];
		if (k && (k & mask) == prefix) { /* 0: no node uses it (or its total is 0) */
			struct wbucket *b = &h[(k >> shift) & SEL_MASK];
			b->weight += t->nlen[n] + 1u;
			b->low |= k & low;
		}
	}
}

/* h[b]: the nodes and used names whose key is `prefix` under `mask` and
 * whose next 16 bits below `shift` are b (a node's bytes measured again:
 * past the first pass, only the few in one bucket match). */
static void weigh(const fold_trie *t, int columns, const uint64_t *name_key, uint64_t prefix, uint64_t mask,
		  int shift, struct wbucket *h)
{
	uint64_t low = ((uint64_t)1 << shift) - 1;
	memset(h, 0, ((size_t)1 << SEL_BITS) * sizeof *h);
	for (uint32_t i = 0; i < t->nnodes; i++) {
		uint64_t k = total_key(t->total[i]);
		if ((k & mask) == prefix) {
			struct wbucket *b = &h[(k >> shift) & SEL_MASK];
			b->weight += node_line_bytes(t, i, columns);
			b->low |= k & low;
		}
	}
	weigh_names(t, name_key, prefix, mask, shift, h);
}

/* threshold_for_budget's selection: the key of the largest items that
 * does not fit beside the larger ones (all of which fit) is found 16
 * bits at a time; the threshold is just above it. */
static double select_key(const fold_trie *t, int columns, const uint64_t *name_key, struct wbucket *h,
			 size_t budget)
{
	uint64_t prefix = 0, mask = 0, room = budget;
	for (int shift = 64 - SEL_BITS; shift >= 0; shift -= SEL_BITS) {
		if (mask) /* the first pass's histogram is the caller's */
			weigh(t, columns, name_key, prefix, mask, shift, h);
		int b = SEL_MASK;
		while (b > 0 && h[b].weight <= room) /* the items above b fit */
			room -= h[b--].weight;
		prefix |= (uint64_t)b << shift;
		mask |= (uint64_t)SEL_MASK << shift;
		if (h[b].low == 0) /* one key in the bucket (whole counts: the first or second pass) */
			break;
	}
	double v;
	memcpy(&v, &prefix, sizeof v); /* the first total that does not fit */
	double thr = nextafter(v, INFINITY);
	return thr > 0 ? thr : nextafter(0.0, 1.0);
}
