/*
 * fold/read-svg.c — reads flame graph SVGs back into a trie.
 *
 * An SVG written by uniprof-flame carries its trie in
 * <metadata id="uniprof-flame-data"> (format in embed.c); that is read
 * losslessly.  The document is parsed with libxml2's streaming reader
 * with network access off, no DTD loading and no entity substitution, so
 * a hostile file cannot fetch anything or expand entities; libxml2's
 * default limits (10 MB a text node, nesting depth) stay on, which is
 * why the writer splits the embedded block into chunks.
 */
#include <errno.h>
#include <string.h>

#include <libxml/xmlreader.h>

#include "fold/fold.h"
#include "fold/internal.h"
#include "util/vec.h"

struct svg_ctx {
	char why[200];
};

static void on_xml_error(void *arg, xmlErrorPtr e);
static int collect_metadata(xmlTextReaderPtr r, char **text, size_t *len, size_t *cap);

int fold_read_svg_mem(fold_trie *t, const char *buf, size_t len, const struct fold_read_opts *o,
		      struct fold_read_stats *st, struct uf_err *err)
{
	struct svg_ctx ctx = { "" };
	if (len > INT32_MAX) {
		uf_err_set(err, UF_EINPUT, o->label, "SVG too large");
		return -EFBIG;
	}
	xmlTextReaderPtr r = xmlReaderForMemory(buf, (int)len, NULL, NULL,
						XML_PARSE_NONET | XML_PARSE_NOWARNING | XML_PARSE_NOERROR);
	if (!r) {
		uf_err_set(err, UF_EINPUT, o->label, "cannot parse SVG");
		return -EINVAL;
	}
	xmlTextReaderSetStructuredErrorHandler(r, on_xml_error, &ctx);
	char *text = NULL;
	size_t tlen = 0, tcap = 0;
	int found = 0, ret, rc = 0;
	while ((ret = xmlTextReaderRead(r)) == 1) {
		if (xmlTextReaderNodeType(r) != XML_READER_TYPE_ELEMENT)
			continue;
		const xmlChar *name = xmlTextReaderConstLocalName(r);
		if (!name || strcmp((const char *)name, "metadata") != 0)
			continue;
		xmlChar *id = xmlTextReaderGetAttribute(r, BAD_CAST "id");
		int ours = id && strcmp((const char *)id, "uniprof-flame-data") == 0;
		xmlFree(id);
		if (!ours || xmlTextReaderIsEmptyElement(r))
			continue;
		found = 1;
		if ((rc = collect_metadata(r, &text, &tlen, &tcap)) != 0)
			break;
		break;
	}
	if (rc == 0 && ret < 0) {
		uf_err_set(err, UF_EINPUT, o->label, "malformed SVG%s%s", ctx.why[0] ? ": " : "", ctx.why);
		rc = -EINVAL;
	} else if (rc == -ENOMEM) {
		uf_err_set(err, UF_EINPUT, o->label, "out of memory");
	} else if (rc == 0 && !found) {
		uf_err_set(err, UF_EINPUT, o->label,
			   "SVG has no uniprof-flame data (not written by uniprof-flame)");
		rc = -EINVAL;
	} else if (rc == 0) {
		rc = fold_embed_read(t, text, tlen, err);
		unsigned a, b, c, pruned = 0;
		const char *h = strstr(text, "uf-trie/1 ");
		if (rc == 0 && h && sscanf(h, "uf-trie/1 %u %u %u %u", &a, &b, &c, &pruned) == 4)
			st->embedded_pruned = pruned == 1;
	}
	xmlFreeTextReader(r);
	free(text);
	return rc;
}

/* Concatenates the text children of the current element. */
static int collect_metadata(xmlTextReaderPtr r, char **text, size_t *len, size_t *cap)
{
	int depth = xmlTextReaderDepth(r);
	while (xmlTextReaderRead(r) == 1 && xmlTextReaderDepth(r) > depth) {
		int type = xmlTextReaderNodeType(r);
		if (type != XML_READER_TYPE_TEXT && type != XML_READER_TYPE_CDATA &&
		    type != XML_READER_TYPE_SIGNIFICANT_WHITESPACE)
			continue;
		const xmlChar *v = xmlTextReaderConstValue(r);
		size_t n = v ? strlen((const char *)v) : 0;
		if (uf_vec_grow(text, cap, *len + n + 1, 1))
			return -ENOMEM;
		memcpy(*text + *len, v, n);
		*len += n;
		(*text)[*len] = 0;
	}
	return 0;
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
