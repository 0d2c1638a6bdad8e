/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * fold/in/read-svg.c — reads flame graph SVGs back into a trie.
 *
 * An SVG written by uniprof-flame carries its trie in
 * <metadata id="uniprof-flame-data"> (format in embed.c); that is read
 * losslessly.  The document is parsed with libxml2's streaming reader
 * with network access off, no DTD loading and no entity substitution, so
 * a hostile file cannot fetch anything or expand entities; libxml2's
 * default limits (10 MB a text node, nesting depth) stay on, which is
 * why the writer splits the embedded block into chunks.
 *
 * An SVG without our block (flamegraph.pl's, inferno's) is rebuilt from
 * its drawn frames (read-svg-frames.c), and the result marked approximate.
 * Only elements in the SVG namespace count.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fold/in/xml.h"

#include "fold/embed/embed.h"
#include "fold/in/in.h"
#include "fold/in/internal.h"
#include "util/vec.h"

struct svg_ctx {
	char why[200];
};

static void on_xml_error(void *arg, xmlErrorPtr e);
static int is_own_metadata(const struct fold_xml *X, xmlTextReaderPtr r);
static int own_encoding(const struct fold_xml *X, xmlTextReaderPtr r);
static int unpack_block(char **text, size_t *tlen, struct uf_err *err);
static int is_meta(const struct fold_xml *X, xmlTextReaderPtr r, const char *want);
static int read_libs(const struct fold_xml *X, xmlTextReaderPtr r, fold_trie *t);
static int read_meta(const struct fold_xml *X, xmlTextReaderPtr r, fold_trie *t);
static int has_time_order(const char *h, uint64_t lines);
static int collect_metadata(const struct fold_xml *X, xmlTextReaderPtr r, char **text, size_t *len, size_t *cap);

/* Per-<g> state while streaming: the frame being collected. */
struct gstate {
	int depth;             /* depth of the current <g>, -1 = none */
	char *title;
	double x, y, w;
	int has_rect;
	int pruned;            /* our grey "N frames pruned" box: not a function */
};

static double attr_num(const struct fold_xml *X, xmlTextReaderPtr r, const char *name, int *ok)
{
	xmlChar *v = X->get_attribute(r, BAD_CAST name);
	char *end = NULL;
	double d = v ? strtod((const char *)v, &end) : NAN;
	if (!v || end == (char *)v)
		*ok = 0;
	X->free(v);
	return d;
}

/* Handles one element of a foreign SVG: frames are <g><title/><rect/></g>. */
static int collect_frame_part(const struct fold_xml *X, xmlTextReaderPtr r, struct gstate *g, struct fold_svg_frames *fs,
			      fold_trie *t, const char *name, int depth)
{
	int rc = 0;
	if (!strcmp(name, "g")) {
		if (g->depth >= 0 && g->title && g->has_rect && !g->pruned)
			rc = fold_svg_frames_add(fs, t, g->title, g->x, g->y, g->w);
		free(g->title);
		*g = (struct gstate){ .depth = depth };
		/* its samples stay in the parent's self time (self = N - children) */
		xmlChar *cls = X->get_attribute(r, BAD_CAST "class");
		g->pruned = cls && !strcmp((const char *)cls, "pruned");
		X->free(cls);
	} else if (!strcmp(name, "title") && depth == g->depth + 1 && !g->title) {
		xmlChar *s = X->read_string(r);
		g->title = s ? strdup((const char *)s) : NULL;
		X->free(s);
	} else if (!strcmp(name, "rect") && depth == g->depth + 1 && !g->has_rect) {
		int ok = 1;
		g->x = attr_num(X, r, "x", &ok);
		g->y = attr_num(X, r, "y", &ok);
		g->w = attr_num(X, r, "width", &ok);
		g->has_rect = ok;
	}
	return rc < 0 ? rc : 0;
}

int fold_read_svg_mem(fold_trie *t, const char *buf, size_t len, const struct fold_read_opts *o,
		      struct fold_read_stats *st, struct uf_err *err)
{
	struct svg_ctx ctx = { "" };
	const struct fold_xml *X = fold_xml_api(err, o->label);
	if (!X)
		return -ENOSYS;
	if (len > INT32_MAX) {
		uf_err_set(err, UF_EINPUT, o->label, "SVG too large");
		return -EFBIG;
	}
	xmlTextReaderPtr r = X->reader_for_memory(buf, (int)len, NULL, NULL,
						XML_PARSE_NONET | XML_PARSE_NOWARNING | XML_PARSE_NOERROR);
	if (!r) {
		uf_err_set(err, UF_EINPUT, o->label, "cannot parse SVG");
		return -EINVAL;
	}
	X->set_error_handler(r, on_xml_error, &ctx);
	char *text = NULL;
	size_t tlen = 0, tcap = 0;
	struct gstate g = { .depth = -1 };
	struct fold_svg_frames fs = { 0 };
	int found = 0, ret, rc = 0, is_svg = 0, packed = 0;
	while (rc == 0 && (ret = X->read(r)) == 1) {
		int type = X->node_type(r), depth = X->depth(r);
		if (type == XML_READER_TYPE_END_ELEMENT && depth == g.depth) {
			if (g.title && g.has_rect && !g.pruned)
				rc = fold_svg_frames_add(&fs, t, g.title, g.x, g.y, g.w);
			rc = rc < 0 ? rc : 0;
			free(g.title);
			g = (struct gstate){ .depth = -1 };
			continue;
		}
		if (type != XML_READER_TYPE_ELEMENT)
			continue;
		const char *name = (const char *)X->local_name(r);
		const char *ns = (const char *)X->namespace_uri(r);
		if (!name || !ns || strcmp(ns, "http://www.w3.org/2000/svg") != 0)
			continue; /* only SVG elements count */
		if (depth == 0)
			is_svg = !strcmp(name, "svg");
		if (!strcmp(name, "metadata") && is_meta(X, r, "uniprof-flame-meta")) {
			rc = read_meta(X, r, t);
			continue;
		}
		if (!strcmp(name, "metadata") && is_meta(X, r, "uniprof-flame-libs")) {
			rc = read_libs(X, r, t);
			continue;
		}
		if (!strcmp(name, "metadata") && is_own_metadata(X, r)) {
			found = 1;
			packed = own_encoding(X, r);
			if (packed < 0) {
				uf_err_set(err, UF_EINPUT, o->label, "embedded profile data has an unknown encoding");
				rc = -EINVAL;
				break;
			}
			rc = collect_metadata(X, r, &text, &tlen, &tcap);
			if (rc == -EINVAL) {
				ret = -1;
				rc = 0;
			}
			break;
		}
		rc = collect_frame_part(X, r, &g, &fs, t, name, depth);
	}
	free(g.title);
	if (rc == 0 && ret < 0) {
		uf_err_set(err, UF_EINPUT, o->label, "malformed SVG%s%s", ctx.why[0] ? ": " : "", ctx.why);
		rc = -EINVAL;
	} else if (rc == -ENOMEM) {
		uf_err_set(err, UF_EINPUT, o->label, "out of memory");
	} else if (rc == -E2BIG) {
		uf_err_set(err, UF_EINPUT, o->label, "too many frames");
	} else if (rc == -ERANGE) {
		uf_err_set(err, UF_EINPUT, o->label, "a frame's count has more than %d digits",
			   FOLD_MAX_COUNT_CHARS);
	} else if (rc == -EDOM) {
		uf_err_set(err, UF_EINPUT, o->label, "a frame's x, y or width is not a finite number");
	} else if (rc == 0 && found && tlen == 0) {
		uf_err_set(err, UF_EINPUT, o->label, "embedded profile data is empty");
		rc = -EINVAL;
	} else if (rc == 0 && found) {
		rc = packed ? unpack_block(&text, &tlen, err) : 0;
		if (rc == 0)
			rc = fold_embed_read(t, text, tlen, err);
		unsigned a, b, c, pruned = 0;
		const char *h = rc == 0 ? strstr(text, "uf-trie/1 ") : NULL;
		if (rc == 0 && h && sscanf(h, "uf-trie/1 %u %u %u %u", &a, &b, &c, &pruned) == 4) {
			st->embedded_pruned = pruned == 1;
			st->time_order = has_time_order(h, (uint64_t)a + b + 2);
		}
	} else if (rc == 0 && !is_svg) {
		uf_err_set(err, UF_EINPUT, o->label, "not an SVG document");
		rc = -EINVAL;
	} else if (rc == 0) {
		rc = fold_svg_frames_build(&fs, t, err, o->label);
		st->approximate = 1;
		snprintf(st->approx_why, sizeof st->approx_why,
			 "no embedded profile data: rebuilt from %zu drawn frames (frames too narrow "
			 "to draw are missing, counts are rounded, annotations such as _[k] are lost)",
			 fs.n);
		if (fs.unplaced) {
			size_t k = strlen(st->approx_why);
			snprintf(st->approx_why + k, sizeof st->approx_why - k,
				 "; %zu frame%s without a drawn parent left out", fs.unplaced,
				 fs.unplaced == 1 ? "" : "s");
		}
	}
	fold_svg_frames_release(&fs);
	X->free_reader(r);
	free(text);
	return rc;
}

/* Does a "seq" line follow the block's first `lines` lines (header,
 * names, nodes, "end")?  The block was parsed already, so it has them. */
static int has_time_order(const char *h, uint64_t lines)
{
	for (; lines > 0 && h; lines--)
		if ((h = strchr(h, '\n')))
			h++;
	return h && !strncmp(h, "seq ", 4);
}

static int is_meta(const struct fold_xml *X, xmlTextReaderPtr r, const char *want)
{
	xmlChar *id = X->get_attribute(r, BAD_CAST "id");
	int ours = id && strcmp((const char *)id, want) == 0;
	X->free(id);
	return ours;
}

/* <metadata id="uniprof-flame-meta">: "key: value" lines into t->meta
 * when it is still empty (the first input's wins), cut at whole lines
 * to fit; control bytes other than '\n' become '?'.  A broken element is
 * left to the main loop's error. */
static int read_meta(const struct fold_xml *X, xmlTextReaderPtr r, fold_trie *t)
{
	char *text = NULL;
	size_t len = 0, cap = 0;
	int rc = collect_metadata(X, r, &text, &len, &cap);
	if (rc == 0 && text && !t->meta[0]) {
		size_t n = len < sizeof t->meta - 1 ? len : sizeof t->meta - 1;
		while (n > 0 && n < len && text[n] != '\n')
			n--; /* whole lines only */
		for (size_t i = 0; i < n; i++) {
			unsigned char c = (unsigned char)text[i];
			t->meta[i] = (c < 0x20 && c != '\n') || c >= 0x7f ? '?' : (char)c;
		}
		t->meta[n] = 0;
		if (n && t->meta[n - 1] != '\n' && n < sizeof t->meta - 1)
			t->meta[n++] = '\n', t->meta[n] = 0;
		char *p = t->meta; /* the writer's leading newline */
		while (*p == '\n')
			p++;
		memmove(t->meta, p, strlen(p) + 1);
	}
	free(text);
	return rc == -ENOMEM ? rc : 0;
}

/* <metadata id="uniprof-flame-libs">: each function's library
 * (fold_libs_read); a broken element is left to the main loop. */
static int read_libs(const struct fold_xml *X, xmlTextReaderPtr r, fold_trie *t)
{
	char *text = NULL;
	size_t len = 0, cap = 0;
	int rc = collect_metadata(X, r, &text, &len, &cap);
	if (rc == 0 && text)
		rc = fold_libs_read(t, text, len);
	free(text);
	return rc == -ENOMEM ? rc : 0;
}

static int is_own_metadata(const struct fold_xml *X, xmlTextReaderPtr r)
{
	xmlChar *id = X->get_attribute(r, BAD_CAST "id");
	int ours = id && strcmp((const char *)id, "uniprof-flame-data") == 0;
	X->free(id);
	return ours; /* empty or not: an empty block is an error, never a crash */
}

/* data-encoding of our block: 0 = the uf-trie/1 text itself (files
 * written before packing, or by hand), 1 = packed (embed-pack.c),
 * -1 = something this version cannot read. */
static int own_encoding(const struct fold_xml *X, xmlTextReaderPtr r)
{
	xmlChar *enc = X->get_attribute(r, BAD_CAST "data-encoding");
	int rc = !enc ? 0 : !strcmp((const char *)enc, FOLD_EMBED_ENCODING) ? 1 : -1;
	X->free(enc);
	return rc;
}

/* Replaces the packed block in *text by the text it holds. */
static int unpack_block(char **text, size_t *tlen, struct uf_err *err)
{
	char *plain;
	size_t n;
	int rc = fold_embed_unpack(*text, *tlen, &plain, &n, err);
	if (rc)
		return rc;
	free(*text);
	*text = plain;
	*tlen = n;
	return 0;
}

/* Concatenates the text children of the current element.  Returns 0,
 * -ENOMEM, or -EINVAL when the document ends or breaks inside it. */
static int collect_metadata(const struct fold_xml *X, xmlTextReaderPtr r, char **text, size_t *len, size_t *cap)
{
	int depth = X->depth(r), ret = 1;
	if (X->is_empty(r))
		return 0;
	while ((ret = X->read(r)) == 1 && X->depth(r) > depth) {
		int type = X->node_type(r);
		if (type != XML_READER_TYPE_TEXT && type != XML_READER_TYPE_CDATA &&
		    type != XML_READER_TYPE_SIGNIFICANT_WHITESPACE)
			continue;
		const xmlChar *v = X->value(r);
		size_t n = v ? strlen((const char *)v) : 0;
		if (uf_vec_grow(text, cap, *len + n + 1, 1))
			return -ENOMEM;
		memcpy(*text + *len, v, n);
		*len += n;
		(*text)[*len] = 0;
	}
	return ret == 1 ? 0 : -EINVAL; /* unclosed or malformed: not our block */
}

static void on_xml_error(void *arg, xmlErrorPtr e)
{
	struct svg_ctx *ctx = arg;
	if (ctx->why[0] || !e || !e->message)
		return;
	snprintf(ctx->why, sizeof ctx->why, "line %d: %s", e->line, e->message);
	size_t n = strlen(ctx->why);
	while (n && (ctx->why[n - 1] == '\n' || ctx->why[n - 1] == '.'))
		ctx->why[--n] = 0;
}
