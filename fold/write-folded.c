/*
 * fold/write-folded.c — the folded-text writer.
 *
 * Walks the finished trie in flamegraph.pl's sibling order, so the lines
 * come out exactly as `sort` would order them: one line per distinct
 * stack, "a;b;c COUNT" (or "a;b;c BEFORE AFTER" for a differential).
 * Counts are printed as the shortest decimal that reads back to the
 * same double, never with an exponent (flamegraph.pl's \d+(\.\d*)?).
 *
 * What is written reads back as the same trie (`fold | fold` is the
 * identity), for any name bytes:
 *  1. names go through fold_name_escape ('\n' and ';' as "\xHH");
 *  2. the separator ';' is written between any two frames, so an empty
 *     first frame survives (";x 2", not "x 2");
 *  3. a stack whose last name ends in whitespace + [0-9.]+ ("x 5") is
 *     ended with ';' ("a;x 5; 3"): the empty frame is dropped on reading,
 *     and the name cannot be taken for a first count column;
 *  4. what cannot be written that way is refused, never changed: a
 *     stack ending in an empty name (-EDOM: readers drop trailing empty
 *     frames) and a count longer than FOLD_MAX_COUNT_CHARS (-ERANGE).
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fold/fold.h"
#include "util/fmt.h"
#include "util/vec.h"

struct walk {
	uint32_t node;
	uint32_t next;    /* next entry index */
	size_t path_len;  /* path bytes before this node's name */
};

static int write_line(const fold_trie *t, FILE *out, const char *path, size_t plen, uint32_t c,
		      uint8_t *flags);

/* What a name needs on output, decided once per name id (a name is
 * written once per line it ends and once per node it names): */
enum {
	NAME_KNOWN = 1,
	NAME_ESCAPE = 2,    /* fold_name_needs_escape (rule 1) */
	NAME_AMBIGUOUS = 4, /* fold_name_leaf_ambiguous (rule 3) */
};

static uint8_t name_flags(const fold_trie *t, uint8_t *flags, uint32_t node, const char *nm,
			  size_t len)
{
	uint32_t id = t->name[node];
	if (!(flags[id] & NAME_KNOWN))
		flags[id] = NAME_KNOWN | (fold_name_needs_escape(nm, len) ? NAME_ESCAPE : 0) |
			    (fold_name_leaf_ambiguous(nm, len) ? NAME_AMBIGUOUS : 0);
	return flags[id];
}

/* An integral v >= 1e15 as the fewest significant digits that read back
 * exactly, padded with zeros (1e62 is "1" and 62 zeros, not the 63 exact
 * digits of the double nearest to it).  Returns snprintf's length. */
static int big_integer(char *buf, size_t size, double v)
{
	char e[40];
	int p = 0;
	while (p < 17 && (snprintf(e, sizeof e, "%.*e", p, v), strtod(e, NULL) != v))
		p++;
	int exp = atoi(strchr(e, 'e') + 1);
	if (p > exp)
		return snprintf(buf, size, "%.0f", v);
	size_t n = 0, need = (size_t)exp + 1;
	if (need >= size)
		return (int)need;
	buf[n++] = e[0];
	for (int k = 0; k < p; k++)
		buf[n++] = e[2 + k];
	while (n < need)
		buf[n++] = '0';
	buf[n] = 0;
	return (int)n;
}

int fold_format_count(char *buf, size_t size, double v)
{
	if (!(v >= 0) || isinf(v)) /* readers never make these; show 0 */
		return snprintf(buf, size, "0");
	if (v == floor(v) && v < 1e15 && size >= 24) {
		size_t n = uf_fmt_u64(buf, (uint64_t)v);
		buf[n] = 0;
		return (int)n;
	}
	int n;
	if (v == floor(v)) { /* every double >= 2^53 is an integer: digits, no ".0" */
		n = big_integer(buf, size, v);
		if (n >= 0 && (size_t)n < size)
			return n;
	} else {
		for (int d = 1; d <= FOLD_MAX_COUNT_CHARS; d++) {
			n = snprintf(buf, size, "%.*f", d, v);
			if (n < 0 || (size_t)n >= size)
				break;
			if (strtod(buf, NULL) == v)
				return n;
		}
	}
	snprintf(buf, size, "%.6e", v); /* for display only: not exact */
	return -ERANGE;
}

int fold_write_stack_line(const fold_trie *t, FILE *out, const uint32_t *path, uint32_t n,
			  const double *before, double after)
{
	char num[FOLD_MAX_COUNT_CHARS + 1], base[FOLD_MAX_COUNT_CHARS + 1];
	if (fold_format_count(num, sizeof num, after) < 0 ||
	    (before && fold_format_count(base, sizeof base, *before) < 0))
		return -ERANGE;
	for (uint32_t d = 0; d < n; d++) {
		size_t len;
		const char *nm = fold_node_name(t, path[d], &len);
		if (d + 1 == n && len == 0)
			return -EDOM;
		if (d)
			fputc(';', out);
		if (fold_name_needs_escape(nm, len)) {
			char *e = malloc(4 * len);
			if (!e)
				return -ENOMEM;
			fwrite(e, 1, fold_name_escape(e, nm, len), out);
			free(e);
		} else {
			fwrite(nm, 1, len, out);
		}
		if (d + 1 == n && fold_name_leaf_ambiguous(nm, len))
			fputc(';', out);
	}
	if (before) {
		fputc(' ', out);
		fputs(base, out);
	}
	fputc(' ', out);
	fputs(num, out);
	return fputc('\n', out) == EOF ? -EIO : 0;
}

int fold_write_folded(const fold_trie *t, FILE *out)
{
	if (!t->finished)
		return -EINVAL;
	struct walk *st = malloc(((size_t)t->maxdepth + 2) * sizeof *st);
	uint8_t *flags = calloc(t->nnames ? t->nnames : 1, 1);
	char *path = NULL;
	size_t pcap = 0;
	if (!st || !flags || uf_vec_grow(&path, &pcap, 4096, 1)) {
		free(st);
		free(flags);
		return -ENOMEM;
	}
	int rc = 0;
	uint32_t sp = 0;
	if (t->self[0] != 0 || (t->base && t->base[0] != 0))
		rc = write_line(t, out, "", 0, FOLD_NONE, flags);
	st[sp++] = (struct walk){ FOLD_ROOT, t->eoff[0], 0 };
	while (sp && rc == 0) {
		struct walk *w = &st[sp - 1];
		if (w->next == t->eoff[w->node + 1]) {
			sp--;
			continue;
		}
		uint32_t e = t->ent[w->next++];
		uint32_t c = e & ~FOLD_ENTRY_SELF;
		size_t plen = w->path_len;
		if (e & FOLD_ENTRY_SELF) {
			rc = write_line(t, out, path, plen, c, flags);
			continue;
		}
		size_t nlen;
		const char *nm = fold_node_name(t, c, &nlen);
		if (uf_vec_grow(&path, &pcap, plen + 4 * (size_t)nlen + 2, 1)) {
			rc = -ENOMEM;
			break;
		}
		if (w->node != FOLD_ROOT) /* rule 2: even after an empty name */
			path[plen++] = ';';
		size_t elen = nlen;
		if (name_flags(t, flags, c, nm, nlen) & NAME_ESCAPE)
			elen = fold_name_escape(path + plen, nm, nlen);
		else
			memcpy(path + plen, nm, nlen);
		st[sp++] = (struct walk){ c, t->eoff[c], plen + elen };
	}
	free(st);
	free(flags);
	free(path);
	if (rc == 0 && ferror(out))
		rc = -EIO;
	return rc;
}

/* path[0..plen) is the parent's path; c is the line's last frame
 * (FOLD_NONE: the root's own samples, an empty stack). */
static int write_line(const fold_trie *t, FILE *out, const char *path, size_t plen, uint32_t c,
		      uint8_t *flags)
{
	uint32_t node = c == FOLD_NONE ? FOLD_ROOT : c;
	char num[FOLD_MAX_COUNT_CHARS + 1], base[FOLD_MAX_COUNT_CHARS + 1];
	if (fold_format_count(num, sizeof num, t->self[node]) < 0 ||
	    (t->base && fold_format_count(base, sizeof base, t->base[node]) < 0))
		return -ERANGE; /* rule 4 */
	fwrite(path, 1, plen, out);
	if (c != FOLD_NONE) {
		size_t nlen;
		const char *nm = fold_node_name(t, c, &nlen);
		if (nlen == 0)
			return -EDOM; /* rule 4: a trailing empty frame would be dropped */
		if (t->parent[c] != FOLD_ROOT)
			fputc(';', out);
		uint8_t f = name_flags(t, flags, c, nm, nlen);
		if (f & NAME_ESCAPE) {
			char *e = malloc(4 * nlen);
			if (!e)
				return -ENOMEM;
			size_t elen = fold_name_escape(e, nm, nlen);
			fwrite(e, 1, elen, out);
			free(e);
		} else {
			fwrite(nm, 1, nlen, out);
		}
		if (f & NAME_AMBIGUOUS) /* rule 3 */
			fputc(';', out);
	}
	if (t->base) {
		fputc(' ', out);
		fputs(base, out);
	}
	fputc(' ', out);
	fputs(num, out);
	return fputc('\n', out) == EOF ? -EIO : 0;
}
