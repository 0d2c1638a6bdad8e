/*
 * fold/embed.c — a trie as a compact text block that rides inside an SVG.
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
 *
 * Pruning: past the byte budget, the nodes with the smallest totals are
 * dropped (a set closed under ancestors, since a parent's total is never
 * below a child's) and their samples are added to the self count of
 * their nearest kept ancestor, so every kept frame keeps its total.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fold/fold.h"

static int needs_escape(unsigned char c);
static double threshold_for_budget(const fold_trie *t, size_t budget, size_t *bytes_out);
static size_t node_line_bytes(const fold_trie *t, uint32_t i);
static int dbl_desc(const void *a, const void *b);

int fold_embed_write(const fold_trie *t, FILE *out, size_t budget, struct fold_embed_info *info)
{
	if (!t->finished)
		return -EINVAL;
	memset(info, 0, sizeof *info);
	info->nodes_total = t->nnodes;
	size_t est = 0;
	double thr = budget ? threshold_for_budget(t, budget, &est) : 0;
	uint32_t kept = 0;
	for (uint32_t i = 0; i < t->nnodes; i++)
		kept += i == 0 || t->total[i] >= thr;
	long start = ftell(out);
	fprintf(out, "uf-trie/1 %u %u %d %d\n", t->nnames, kept, t->base != NULL, kept < t->nnodes);
	for (uint32_t n = 0; n < t->nnames; n++) {
		size_t len;
		const unsigned char *s = (const unsigned char *)fold_trie_name(t, n, &len);
		for (size_t k = 0; k < len; k++) {
			if (needs_escape(s[k]))
				fprintf(out, "%%%02X", s[k]);
			else
				fputc(s[k], out);
		}
		fputc('\n', out);
	}
	/* Pre-order walk: each node once, children in entry order. */
	uint32_t *stack = malloc(((size_t)t->maxdepth + 2) * sizeof *stack);
	uint32_t *next = malloc(((size_t)t->maxdepth + 2) * sizeof *next);
	if (!stack || !next) {
		free(stack);
		free(next);
		return -ENOMEM;
	}
	uint32_t sp = 0;
	stack[sp] = FOLD_ROOT;
	next[sp++] = t->eoff[0];
	char a[96], b[96];
	for (uint32_t node = FOLD_ROOT;;) {
		/* own count: total minus kept children's totals */
		double self = t->total[node];
		uint32_t ne;
		const uint32_t *e = fold_trie_entries(t, node, &ne);
		for (uint32_t k = 0; k < ne; k++)
			if (!(e[k] & FOLD_ENTRY_SELF) || t->eoff[(e[k] & ~FOLD_ENTRY_SELF) + 1] ==
							       t->eoff[e[k] & ~FOLD_ENTRY_SELF]) {
				uint32_t c = e[k] & ~FOLD_ENTRY_SELF;
				if (t->total[c] >= thr)
					self -= t->total[c];
			}
		if (thr == 0)
			self = t->self[node];
		fold_format_count(a, sizeof a, self < 0 ? 0 : self);
		fprintf(out, "%u %u %s", t->depth[node], t->name[node], a);
		if (t->base) {
			fold_format_count(b, sizeof b, t->base[node]);
			fprintf(out, " %s", b);
		}
		fputc('\n', out);
		/* advance to the next node in pre-order */
		node = FOLD_NONE;
		while (sp && node == FOLD_NONE) {
			uint32_t top = stack[sp - 1];
			if (next[sp - 1] == t->eoff[top + 1]) {
				sp--;
				continue;
			}
			uint32_t en = t->ent[next[sp - 1]++], c = en & ~FOLD_ENTRY_SELF;
			int has_kids = t->eoff[c + 1] > t->eoff[c];
			if ((en & FOLD_ENTRY_SELF) && has_kids)
				continue; /* visited through its subtree entry */
			if (t->total[c] < thr)
				continue;
			node = c;
		}
		if (node == FOLD_NONE)
			break;
		stack[sp] = node;
		next[sp++] = t->eoff[node];
	}
	free(stack);
	free(next);
	fputs("end\n", out);
	info->nodes_written = kept;
	info->min_total = thr;
	long end = ftell(out);
	info->bytes = start >= 0 && end >= start ? (size_t)(end - start) : est;
	return ferror(out) ? -EIO : 0;
}

static int needs_escape(unsigned char c)
{
	return c < 0x20 || c >= 0x7f || c == '%' || c == '<' || c == '>' || c == '&' ||
	       c == '"' || c == '\'' || c == ']';
}

static size_t digits(double v)
{
	char buf[96];
	return (size_t)fold_format_count(buf, sizeof buf, v);
}

static size_t node_line_bytes(const fold_trie *t, uint32_t i)
{
	size_t n = 12 + digits(t->self[i]);
	return t->base ? n + 1 + digits(t->base[i]) : n;
}

static int dbl_desc(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x > y ? -1 : x < y;
}

/* The smallest total to keep so the block stays near `budget`; 0 keeps all. */
static double threshold_for_budget(const fold_trie *t, size_t budget, size_t *bytes_out)
{
	size_t names = 0, bytes = 0;
	for (uint32_t n = 0; n < t->nnames; n++)
		names += t->nlen[n] + 1;
	for (uint32_t i = 0; i < t->nnodes; i++)
		bytes += node_line_bytes(t, i);
	*bytes_out = names + bytes;
	if (names + bytes <= budget)
		return 0;
	double *tot = malloc((size_t)t->nnodes * sizeof *tot);
	if (!tot)
		return INFINITY; /* keep only the root */
	memcpy(tot, t->total, (size_t)t->nnodes * sizeof *tot);
	qsort(tot, t->nnodes, sizeof *tot, dbl_desc);
	size_t avg = bytes / t->nnodes + 1;
	size_t room = budget > names ? (budget - names) / avg : 1;
	if (room < 1)
		room = 1;
	if (room > t->nnodes)
		room = t->nnodes;
	double thr = tot[room - 1];
	/* ties at the threshold could overshoot: step just above them */
	if (room < t->nnodes && tot[room] == thr)
		thr = nextafter(thr, INFINITY);
	free(tot);
	return thr > 0 ? thr : nextafter(0.0, 1.0);
}
