/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * fold/embed/embed-read.c — parses the "uf-trie/1" block (format in embed.c).
 *
 * The block comes from a file anyone may have edited, so every field is
 * checked: name indices within the name table, a depth at most one more
 * than the previous node's, counts that are plain non-negative decimals,
 * and the header's counts honoured as caps, never as allocation sizes
 * beyond what the text itself can hold.
 *
 * The counts are added only once the whole node list has been read: from
 * the time-order section when there is one and the trie keeps a sequence
 * (a flame chart is read back in its order), else from the node lines.
 *
 * The sections after "end" are tagged (embed.c, item 5): one pass over
 * them (scan_sections) notes where each known one starts and steps over
 * every section by its line count, so an unknown one (a later writer's)
 * costs nothing and needs no change here; the known ones are then read
 * from their own header.  A block written before the sections were
 * tagged reads the same: its "seq" already had the tagged form, and its
 * "loc STRINGS RECORDS" is the one section whose length is the sum of
 * its two numbers.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "fold/embed/embed.h"

struct cursor {
	const char *p, *end;
};

static int next_line(struct cursor *c, const char **s, size_t *len);
static int parse_u32(const char **p, const char *end, uint32_t *v);
static int parse_count(const char **p, const char *end, double *v);
static int unescape(const char *s, size_t len, char *out, size_t *olen);
static int read_names(fold_trie *t, struct cursor *c, uint32_t nnames, uint32_t *map);
struct nodes {            /* what the node lines said, by position */
	uint32_t *id;
	double *self, *base;
};

static int read_nodes(fold_trie *t, struct cursor *c, uint32_t nnodes, uint32_t nnames,
		      const uint32_t *map, int diff, struct nodes *N);
struct sections {         /* where each known section's header line starts */
	const char *seq, *pos, *time;
};

static int scan_sections(struct cursor *c, struct sections *S);
static int add_timed(fold_trie *t, const char *time_at, const char *end, uint32_t nnodes, const struct nodes *N);
static int add_counts(fold_trie *t, const char *seq, const char *end, uint32_t nnodes, int diff,
		      const struct nodes *N);

int fold_embed_read(fold_trie *t, const char *text, size_t len, struct uf_err *err)
{
	struct cursor c = { text, text + len };
	const char *s;
	size_t n;
	while (c.p < c.end && (*c.p == '\n' || *c.p == ' ' || *c.p == '\r' || *c.p == '\t'))
		c.p++;
	if (next_line(&c, &s, &n) || n < 10 || memcmp(s, "uf-trie/1 ", 10) != 0) {
		uf_err_set(err, UF_EINPUT, "embedded data", "not a uf-trie/1 block");
		return -EINVAL;
	}
	const char *p = s + 10, *e = s + n;
	uint32_t nnames, nnodes, diff, pruned;
	if (parse_u32(&p, e, &nnames) || parse_u32(&p, e, &nnodes) || parse_u32(&p, e, &diff) ||
	    parse_u32(&p, e, &pruned) || diff > 1 || nnames > len || nnodes > len || nnodes == 0) {
		uf_err_set(err, UF_EINPUT, "embedded data", "bad header");
		return -EINVAL;
	}
	uint32_t *map = malloc(((size_t)nnames + 1) * sizeof *map);
	if (!map) {
		uf_err_set(err, UF_EINPUT, "embedded data", "out of memory");
		return -ENOMEM;
	}
	struct nodes N = { malloc((size_t)nnodes * sizeof *N.id), malloc((size_t)nnodes * sizeof *N.self),
			   malloc((size_t)nnodes * sizeof *N.base) };
	int rc = N.id && N.self && N.base ? read_names(t, &c, nnames, map) : -ENOMEM;
	if (rc == 0)
		rc = read_nodes(t, &c, nnodes, nnames, map, (int)diff, &N);
	free(map);
	if (rc == 0 && (next_line(&c, &s, &n) || n != 3 || memcmp(s, "end", 3) != 0))
		rc = -EINVAL;
	struct sections S = { NULL, NULL, NULL };
	if (rc == 0)
		rc = scan_sections(&c, &S);
	if (rc == 0 && S.time && !diff && (t->cut.timed || t->cut.states || t->keep_when || (t->keep_seq && !S.seq)))
		rc = add_timed(t, S.time, c.end, nnodes, &N);
	else if (rc == 0)
		rc = add_counts(t, S.seq, c.end, nnodes, (int)diff, &N);
	if (rc == 0 && S.pos)
		rc = fold_locs_read(t, S.pos, (size_t)(c.end - S.pos), N.id, nnodes);
	free(N.id);
	free(N.self);
	free(N.base);
	if (rc == -ENOMEM)
		uf_err_set(err, UF_EINPUT, "embedded data", "out of memory");
	else if (rc)
		uf_err_set(err, UF_EINPUT, "embedded data", "corrupt block");
	return rc;
}

static int read_names(fold_trie *t, struct cursor *c, uint32_t nnames, uint32_t *map)
{
	char *buf = malloc(FOLD_MAX_NAME + 1);
	if (!buf)
		return -ENOMEM;
	int rc = 0;
	for (uint32_t i = 0; i < nnames && rc == 0; i++) {
		const char *s;
		size_t n, olen;
		if (next_line(c, &s, &n) || n > 3 * (size_t)FOLD_MAX_NAME || unescape(s, n, buf, &olen)) {
			rc = -EINVAL;
			break;
		}
		map[i] = fold_trie_intern(t, buf, olen);
		if (map[i] == FOLD_NONE)
			rc = -ENOMEM;
	}
	free(buf);
	return rc;
}

static int read_nodes(fold_trie *t, struct cursor *c, uint32_t nnodes, uint32_t nnames,
		      const uint32_t *map, int diff, struct nodes *N)
{
	uint32_t *path = malloc((FOLD_MAX_DEPTH + 2) * sizeof *path);
	if (!path)
		return -ENOMEM;
	int rc = 0;
	uint32_t depth_prev = 0;
	for (uint32_t i = 0; i < nnodes && rc == 0; i++) {
		const char *s;
		size_t n;
		uint32_t depth, name;
		double self, base = 0;
		if (next_line(c, &s, &n)) {
			rc = -EINVAL;
			break;
		}
		const char *p = s, *e = s + n;
		if (parse_u32(&p, e, &depth) || parse_u32(&p, e, &name) || parse_count(&p, e, &self) ||
		    (diff && parse_count(&p, e, &base)) || p != e || name >= nnames ||
		    (i == 0) != (depth == 0) || depth > depth_prev + 1 || depth > FOLD_MAX_DEPTH) {
			rc = -EINVAL;
			break;
		}
		uint32_t node = FOLD_ROOT;
		if (depth > 0) {
			node = fold_trie_child(t, path[depth - 1], map[name]);
			if (node == FOLD_NONE) {
				rc = -ENOMEM;
				break;
			}
		}
		path[depth] = node;
		depth_prev = depth;
		N->id[i] = node;
		N->self[i] = self;
		N->base[i] = base;
	}
	free(path);
	return rc;
}

static int add_one(fold_trie *t, int diff, uint32_t node, double self, double base)
{
	if (diff)
		return fold_trie_add2(t, node, base, self);
	return self != 0 ? fold_trie_add(t, node, self) : 0;
}

/* One section header "NAME LINES [ARG...]" (embed.c, item 5): *body gets
 * the number of lines between it and its "end".  The untagged "loc
 * STRINGS RECORDS" of older blocks has STRINGS + RECORDS of them. */
static int section_header(const char *s, size_t n, size_t *name_len, uint64_t *body)
{
	size_t k = 0;
	while (k < n && ((s[k] >= 'a' && s[k] <= 'z') || (k > 0 && ((s[k] >= '0' && s[k] <= '9') || s[k] == '-'))))
		k++;
	const char *p = s + k, *e = s + n;
	uint32_t lines, arg;
	if (k == 0 || k > 16 || p == e || *p != ' ' || parse_u32(&p, e, &lines))
		return -1;
	*name_len = k;
	*body = lines;
	for (int nargs = 0; p < e; nargs++) {
		if (*p != ' ' || nargs == 8 || parse_u32(&p, e, &arg))
			return -1;
		if (nargs == 0 && k == 3 && !memcmp(s, "loc", 3))
			*body += arg;
	}
	return 0;
}

static int blank(const char *s, size_t n)
{
	for (size_t k = 0; k < n; k++)
		if (s[k] != ' ' && s[k] != '\t' && s[k] != '\r')
			return 0;
	return 1;
}

/* Steps over every section after "end", by its line count, noting where
 * the known ones start; stops at the end of the text or a blank line.
 * At most one section of each name. */
static int scan_sections(struct cursor *c, struct sections *S)
{
	const char *s;
	size_t n, name_len;
	uint64_t body;
	for (;;) {
		const char *start = c->p;
		if (next_line(c, &s, &n) || blank(s, n))
			return 0;
		if (section_header(s, n, &name_len, &body) || body > (uint64_t)(c->end - c->p))
			return -EINVAL;
		const char **known = name_len == 3 && !memcmp(s, "seq", 3) ? &S->seq
				     : name_len == 3 && (!memcmp(s, "pos", 3) || !memcmp(s, "loc", 3)) ? &S->pos
				     : name_len == 4 && !memcmp(s, "time", 4) && n == 4 + 1 + (size_t)snprintf(NULL, 0, "%llu", (unsigned long long)body) ? &S->time
				     : NULL;
		if (known && *known)
			return -EINVAL;
		if (known)
			*known = start;
		for (uint64_t i = 0; i < body; i++)
			if (next_line(c, &s, &n))
				return -EINVAL;
		if (next_line(c, &s, &n) || n != 3 || memcmp(s, "end", 3) != 0)
			return -EINVAL;
	}
}

/* Adds the counts: in time order from the "seq" section (its header at
 * `seq`) when the trie keeps a sequence and the block has one, else from
 * the node lines. */
static int add_counts(fold_trie *t, const char *seq_at, const char *end, uint32_t nnodes, int diff,
		      const struct nodes *N)
{
	const char *s, *p, *e;
	size_t n;
	uint32_t nrec;
	struct cursor at = { seq_at, end };
	int seq = t->keep_seq && seq_at && next_line(&at, &s, &n) == 0;
	if (seq) {
		p = s + 4, e = s + n;
		if (parse_u32(&p, e, &nrec) || p != e || nrec > (size_t)(at.end - at.p))
			return -EINVAL;
	}
	int rc = 0;
	for (uint32_t i = 0; !seq && i < nnodes && rc == 0; i++)
		rc = add_one(t, diff, N->id[i], N->self[i], N->base[i]);
	for (uint32_t i = 0; seq && i < nrec && rc == 0; i++) {
		uint32_t k;
		double self, base = 0;
		if (next_line(&at, &s, &n))
			return -EINVAL;
		p = s, e = s + n;
		if (parse_u32(&p, e, &k) || parse_count(&p, e, &self) ||
		    (diff && parse_count(&p, e, &base)) || p != e || k >= nnodes)
			return -EINVAL;
		rc = add_one(t, diff, N->id[k], self, base);
	}
	if (rc == 0 && seq && (next_line(&at, &s, &n) || n != 3 || memcmp(s, "end", 3) != 0))
		rc = -EINVAL;
	return rc;
}

/* Adds the counts sample by sample from the "time" section (its header at
 * `time_at`; fold/embed/embed.c has the body), each with its time and
 * state, so `--time`/`--state` cut an SVG as they cut the trace it came
 * from (the SVG's times are whole microseconds). */
static int add_timed(fold_trie *t, const char *time_at, const char *end, uint32_t nnodes, const struct nodes *N)
{
	struct cursor at = { time_at, end };
	const char *s, *p, *e;
	size_t n;
	uint32_t nrec;
	if (next_line(&at, &s, &n))
		return -EINVAL;
	p = s + 5, e = s + n;
	if (parse_u32(&p, e, &nrec) || p != e)
		return -EINVAL;
	int64_t us = 0;
	int rc = 0;
	for (uint32_t i = 0; i < nrec && rc == 0; i++) {
		uint32_t k, dt, st;
		double c = 1;
		int unknown = 0, neg = 0;
		if (next_line(&at, &s, &n))
			return -EINVAL;
		p = s, e = s + n;
		if (p < e && *p == '-' && (p + 1 == e || p[1] == ' ')) {
			unknown = 1, p++;
		} else {
			if (p < e && *p == '-')
				neg = 1, p++;
			if (parse_u32(&p, e, &dt))
				return -EINVAL;
		}
		if (p == e || *p++ != ' ' || parse_u32(&p, e, &k) || parse_u32(&p, e, &st) || k >= nnodes ||
		    st >= UF_RS_COUNT || (p != e && parse_count(&p, e, &c)) || p != e)
			return -EINVAL;
		if (!unknown)
			us += neg ? -(int64_t)dt : (int64_t)dt;
		if (!unknown && us < 0)
			return -EINVAL;
		uint64_t t_ns = unknown ? FOLD_T_UNKNOWN : (uint64_t)us * 1000u;
		if (fold_trie_sample_keeps(t, t_ns, (enum uf_runstate)st, c))
			rc = fold_trie_add_sample(t, N->id[k], c, t_ns, (enum uf_runstate)st);
	}
	if (rc == 0 && (next_line(&at, &s, &n) || n != 3 || memcmp(s, "end", 3) != 0))
		rc = -EINVAL;
	return rc;
}

static int next_line(struct cursor *c, const char **s, size_t *len)
{
	if (c->p >= c->end)
		return -1;
	const char *nl = memchr(c->p, '\n', (size_t)(c->end - c->p));
	const char *stop = nl ? nl : c->end;
	*s = c->p;
	*len = (size_t)(stop - c->p);
	if (*len && (*s)[*len - 1] == '\r')
		(*len)--;
	c->p = nl ? nl + 1 : c->end;
	return 0;
}

static int parse_u32(const char **p, const char *end, uint32_t *v)
{
	while (*p < end && **p == ' ')
		(*p)++;
	uint64_t x = 0;
	const char *q = *p;
	while (q < end && *q >= '0' && *q <= '9' && x <= UINT32_MAX)
		x = x * 10 + (uint64_t)(*q++ - '0');
	if (q == *p || x > UINT32_MAX)
		return -1;
	*v = (uint32_t)x;
	*p = q;
	return 0;
}

static int parse_count(const char **p, const char *end, double *v)
{
	while (*p < end && **p == ' ')
		(*p)++;
	char tmp[96];
	size_t n = 0;
	const char *q = *p;
	int dot = 0;
	while (q < end && n < sizeof tmp - 1 && ((*q >= '0' && *q <= '9') || (*q == '.' && !dot))) {
		dot |= *q == '.';
		tmp[n++] = *q++;
	}
	if (n == 0 || tmp[0] == '.' || (q < end && *q != ' '))
		return -1;
	tmp[n] = 0;
	*v = strtod(tmp, NULL);
	*p = q;
	return 0;
}

static int hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	return -1;
}

static int unescape(const char *s, size_t len, char *out, size_t *olen)
{
	size_t o = 0;
	for (size_t i = 0; i < len; i++) {
		if (o >= FOLD_MAX_NAME)
			return -1;
		if (s[i] != '%') {
			out[o++] = s[i];
			continue;
		}
		if (i + 2 >= len)
			return -1;
		int h = hexval(s[i + 1]), l = hexval(s[i + 2]);
		if (h < 0 || l < 0)
			return -1;
		out[o++] = (char)(h * 16 + l);
		i += 2;
	}
	*olen = o;
	return 0;
}
