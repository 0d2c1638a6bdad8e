/*
 * fold/write-folded.c — the folded-text writer.
 *
 * Walks the finished trie in flamegraph.pl's sibling order, so the lines
 * come out exactly as `sort` would order them: one line per distinct
 * stack, "a;b;c COUNT" (or "a;b;c BEFORE AFTER" for a differential).
 * Counts are printed as the shortest decimal that reads back to the
 * same double, never with an exponent (flamegraph.pl's \d+(\.\d*)?).
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

static int write_line(const fold_trie *t, FILE *out, const char *path, size_t plen, uint32_t c);

int fold_format_count(char *buf, size_t size, double v)
{
	if (!(v >= 0) || v > 1e300)
		return snprintf(buf, size, "0");
	if (v == floor(v) && v < 1e15 && size >= 24) {
		size_t n = uf_fmt_u64(buf, (uint64_t)v);
		buf[n] = 0;
		return (int)n;
	}
	if (v == floor(v) && v < 1e18)
		return snprintf(buf, size, "%.0f", v);
	for (int d = 1; d <= 40; d++) {
		int n = snprintf(buf, size, "%.*f", d, v);
		if (strtod(buf, NULL) == v)
			return n;
	}
	return snprintf(buf, size, "%.40f", v);
}

int fold_write_folded(const fold_trie *t, FILE *out)
{
	if (!t->finished)
		return -EINVAL;
	struct walk *st = malloc(((size_t)t->maxdepth + 2) * sizeof *st);
	char *path = NULL;
	size_t pcap = 0;
	if (!st || uf_vec_grow(&path, &pcap, 4096, 1)) {
		free(st);
		return -ENOMEM;
	}
	int rc = 0;
	uint32_t sp = 0;
	if (t->self[0] != 0 || (t->base && t->base[0] != 0))
		rc = write_line(t, out, "", 0, FOLD_NONE);
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
			rc = write_line(t, out, path, plen, c);
			continue;
		}
		size_t nlen;
		const char *nm = fold_node_name(t, c, &nlen);
		if (uf_vec_grow(&path, &pcap, plen + nlen + 2, 1)) {
			rc = -ENOMEM;
			break;
		}
		if (plen)
			path[plen++] = ';';
		memcpy(path + plen, nm, nlen);
		st[sp++] = (struct walk){ c, t->eoff[c], plen + nlen };
	}
	free(st);
	free(path);
	if (rc == 0 && ferror(out))
		rc = -EIO;
	return rc;
}

/* path[0..plen) is the parent's path; c is the line's last frame
 * (FOLD_NONE: the root's own samples, an empty stack). */
static int write_line(const fold_trie *t, FILE *out, const char *path, size_t plen, uint32_t c)
{
	uint32_t node = c == FOLD_NONE ? FOLD_ROOT : c;
	char num[96];
	fwrite(path, 1, plen, out);
	if (c != FOLD_NONE) {
		size_t nlen;
		const char *nm = fold_node_name(t, c, &nlen);
		if (plen)
			fputc(';', out);
		fwrite(nm, 1, nlen, out);
	}
	if (t->base) {
		fold_format_count(num, sizeof num, t->base[node]);
		fputc(' ', out);
		fputs(num, out);
	}
	fold_format_count(num, sizeof num, t->self[node]);
	fputc(' ', out);
	fputs(num, out);
	return fputc('\n', out) == EOF ? -EIO : 0;
}
