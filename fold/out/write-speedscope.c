/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * fold/out/write-speedscope.c — speedscope's JSON file format
 * (https://www.speedscope.app/file-format-schema.json), for its
 * time-order, left-heavy and sandwich views.
 *
 * One "sampled" profile: `shared.frames` holds one frame per distinct
 * function name, each sample is a stack of frame indices root first, and
 * `weights` carries the counts.  With the trie's kept sequence (record,
 * or --flamechart inputs) there is one sample per recorded stack in time
 * order, so speedscope's time-order view is the real flame chart;
 * otherwise one sample per distinct stack, in the sorted order the
 * folded writer uses, so any input order gives the same bytes.
 *
 * Trade-off: stacks are written out in full per sample (speedscope has no
 * prefix sharing), so the file grows with samples x depth; the sequence
 * is only there when the user asked for time order.
 *
 * Invariants:
 *  1. Frame indices are assigned in order of first use while walking the
 *     samples root first, so they are dense and deterministic.
 *  2. Every string is valid JSON: '"', '\\' and control bytes escaped,
 *     invalid UTF-8 replaced by U+FFFD.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "fold/out/out.h"
#include "util/vec.h"

struct ss {
	const fold_trie *t;
	FILE *out;
	uint32_t *frame_of;     /* name id -> frame index + 1, 0 = none yet */
	uint32_t *frame_name;   /* frame index -> name id */
	uint32_t nframes;
	uint32_t *path;         /* scratch: one stack, leaf first */
	/* the samples: node and weight, in the order written */
	uint32_t *node;
	double *w, *wbase;
	size_t n, cap;
};

static int collect(struct ss *s);
static uint32_t path_of(const struct ss *s, uint32_t node);
static void assign_frames(struct ss *s);
static void write_frames(struct ss *s);
static void json_string(FILE *out, const char *p, size_t len);
static void write_profile(struct ss *s, const char *name, const double *w, double scale,
			  const char *unit);

int fold_write_speedscope(const fold_trie *t, const struct fold_export_opts *o, FILE *out)
{
	if (!t->finished)
		return -EINVAL;
	struct ss s = { .t = t, .out = out };
	s.frame_of = calloc(t->nnames ? t->nnames : 1, sizeof *s.frame_of);
	s.frame_name = malloc((t->nnames ? t->nnames : 1) * sizeof *s.frame_name);
	s.path = malloc(((size_t)t->maxdepth + 2) * sizeof *s.path);
	int rc = -ENOMEM;
	if (!s.frame_of || !s.frame_name || !s.path || collect(&s))
		goto out;
	assign_frames(&s);
	write_frames(&s);
	double scale = o->period_ns > 0 ? o->period_ns : 1;
	const char *unit = o->period_ns > 0 ? "nanoseconds" : "none";
	const char *name = o->name && strcmp(o->name, "-") ? o->name : "uniprof-flame";
	if (t->base) {
		write_profile(&s, "AFTER", s.w, scale, unit);
		fputc(',', out);
		write_profile(&s, "BEFORE", s.wbase, scale, unit);
	} else {
		write_profile(&s, name, s.w, scale, unit);
	}
	fputs("],\"name\":", out);
	json_string(out, name, strlen(name));
	fputs(",\"activeProfileIndex\":0,\"exporter\":\"uniprof-flame\"}\n", out);
	rc = ferror(out) ? -EIO : 0;
out:
	free(s.frame_of);
	free(s.frame_name);
	free(s.path);
	free(s.node);
	free(s.w);
	free(s.wbase);
	return rc;
}

static int push(struct ss *s, uint32_t node, double w, double wb)
{
	size_t c1 = s->cap, c2 = s->cap, c3 = s->cap;
	if (uf_vec_grow(&s->node, &c1, s->n + 1, sizeof *s->node) ||
	    uf_vec_grow(&s->w, &c2, s->n + 1, sizeof *s->w) ||
	    uf_vec_grow(&s->wbase, &c3, s->n + 1, sizeof *s->wbase))
		return -ENOMEM; /* caps stay as they were: the next grow retries */
	s->cap = c1 < c2 ? (c1 < c3 ? c1 : c3) : (c2 < c3 ? c2 : c3);
	s->node[s->n] = node;
	s->w[s->n] = w;
	s->wbase[s->n++] = wb;
	return 0;
}

/* The samples: the kept sequence, else each stack's own count in the
 * sorted entry order (a depth-first walk of the entries). */
static int collect(struct ss *s)
{
	const fold_trie *t = s->t;
	if (t->keep_seq && t->seq_len) {
		for (size_t i = 0; i < t->seq_len; i++)
			if (push(s, t->seq_node[i], t->seq_count[i], t->seq_base ? t->seq_base[i] : 0))
				return -ENOMEM;
		return 0;
	}
	if ((t->self[0] != 0 || (t->base && t->base[0] != 0)) &&
	    push(s, FOLD_ROOT, t->self[0], t->base ? t->base[0] : 0))
		return -ENOMEM;
	uint32_t *stack = malloc(((size_t)t->maxdepth + 2) * 2 * sizeof *stack), sp = 0;
	if (!stack)
		return -ENOMEM;
	stack[sp++] = FOLD_ROOT;
	stack[sp++] = t->eoff[0];
	int rc = 0;
	while (sp && rc == 0) {
		uint32_t node = stack[sp - 2], *next = &stack[sp - 1];
		if (*next == t->eoff[node + 1]) {
			sp -= 2;
			continue;
		}
		uint32_t e = t->ent[(*next)++];
		uint32_t c = e & ~FOLD_ENTRY_SELF;
		if (e & FOLD_ENTRY_SELF) {
			rc = push(s, c, t->self[c], t->base ? t->base[c] : 0);
			continue;
		}
		stack[sp++] = c;
		stack[sp++] = t->eoff[c];
	}
	free(stack);
	return rc;
}

/* Invariant 1: frame indices in order of first use, root first. */
static void assign_frames(struct ss *s)
{
	for (size_t i = 0; i < s->n; i++) {
		uint32_t d = path_of(s, s->node[i]);
		for (uint32_t k = d; k > 0; k--) {
			uint32_t nm = s->t->name[s->path[k - 1]];
			if (!s->frame_of[nm]) {
				s->frame_name[s->nframes] = nm;
				s->frame_of[nm] = ++s->nframes;
			}
		}
	}
}

/* The file's head: the schema and the shared frames. */
static void write_frames(struct ss *s)
{
	fputs("{\"$schema\":\"https://www.speedscope.app/file-format-schema.json\","
	      "\"shared\":{\"frames\":[", s->out);
	for (uint32_t f = 0; f < s->nframes; f++) {
		size_t len;
		const char *nm = fold_trie_name(s->t, s->frame_name[f], &len);
		fputs(f ? ",{\"name\":" : "{\"name\":", s->out);
		json_string(s->out, nm, len);
		fputc('}', s->out);
	}
	fputs("]},\"profiles\":[", s->out);
}

/* Fills s->path with node's frames leaf first; returns the depth. */
static uint32_t path_of(const struct ss *s, uint32_t node)
{
	uint32_t d = 0;
	for (uint32_t n = node; n != FOLD_ROOT; n = s->t->parent[n])
		s->path[d++] = n;
	return d;
}

static void write_profile(struct ss *s, const char *name, const double *w, double scale,
			  const char *unit)
{
	FILE *out = s->out;
	double total = 0;
	char num[96];
	for (size_t i = 0; i < s->n; i++)
		total += w[i] * scale;
	fputs("{\"type\":\"sampled\",\"name\":", out);
	json_string(out, name, strlen(name));
	fprintf(out, ",\"unit\":\"%s\",\"startValue\":0,\"endValue\":", unit);
	fold_format_count(num, sizeof num, total);
	fputs(num, out);
	fputs(",\"samples\":[", out);
	for (size_t i = 0; i < s->n; i++) {
		uint32_t d = path_of(s, s->node[i]);
		fputs(i ? ",[" : "[", out);
		for (uint32_t k = d; k > 0; k--)
			fprintf(out, k == d ? "%u" : ",%u", s->frame_of[s->t->name[s->path[k - 1]]] - 1);
		fputc(']', out);
	}
	fputs("],\"weights\":[", out);
	for (size_t i = 0; i < s->n; i++) {
		fold_format_count(num, sizeof num, w[i] * scale);
		if (i)
			fputc(',', out);
		fputs(num, out);
	}
	fputs("]}", out);
}

/* Length of the valid UTF-8 sequence at p (1..4), 0 when invalid. */
static size_t utf8_len(const unsigned char *p, size_t n)
{
	unsigned c = p[0];
	size_t len = c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : (c >> 3) == 30 ? 4 : 0;
	if (len == 0 || len > n || (len == 2 && c < 0xc2))
		return len == 1 ? 1 : 0;
	for (size_t i = 1; i < len; i++)
		if ((p[i] & 0xc0) != 0x80)
			return 0;
	if (len == 3) {
		unsigned cp = ((c & 0xf) << 12) | ((p[1] & 0x3f) << 6) | (p[2] & 0x3f);
		if (cp < 0x800 || (cp >= 0xd800 && cp <= 0xdfff))
			return 0;
	} else if (len == 4) {
		unsigned cp = ((c & 7) << 18) | ((p[1] & 0x3f) << 12) | ((p[2] & 0x3f) << 6) | (p[3] & 0x3f);
		if (cp < 0x10000 || cp > 0x10ffff)
			return 0;
	}
	return len;
}

static void json_string(FILE *out, const char *s, size_t len)
{
	const unsigned char *p = (const unsigned char *)s;
	fputc('"', out);
	for (size_t i = 0; i < len;) {
		unsigned c = p[i];
		if (c == '"' || c == '\\') {
			fputc('\\', out);
			fputc((int)c, out);
			i++;
		} else if (c < 0x20 || c == 0x7f) {
			fprintf(out, "\\u%04x", c);
			i++;
		} else {
			size_t n = utf8_len(p + i, len - i);
			if (n == 0) {
				fputs("\\ufffd", out);
				i++;
			} else {
				fwrite(p + i, 1, n, out);
				i += n;
			}
		}
	}
	fputc('"', out);
}
