/*
 * render/frames.c — the <g id="frames"> part of the SVG: one <g> per
 * frame with flamegraph.pl's title, rect and label, and one grey <g
 * class="pruned"> per parent whose children were too narrow to draw.
 *
 * A frame's tooltip is "NAME (N COUNTNAME, P%)" (differentials add
 * "; +D%"), with N printed as flamegraph.pl prints it: rounded, with
 * thousands separators, and P computed from that rounded N.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "render/svg.h"
#include "util/fmt.h"

#define PRUNED_FILL "rgb(190,190,190)"

static int write_frame(struct svg *S, const struct frame *f);
static void write_pruned(struct svg *S, const struct frame *f);
static void row_y(const struct svg *S, uint32_t depth, double *y1, double *y2);
static void with_commas(char *out, size_t size, const char *digits);
static size_t strip_annotation(const char *s, size_t len);
static void frame_color(struct svg *S, const struct frame *f, char *buf, size_t size);
static void write_attrs(struct svg *S, const char *spec, const char **title, size_t *tlen);

int svg_write_frames(struct svg *S)
{
	fputs("<g id=\"frames\">\n", S->out);
	for (size_t i = 0; i < S->L.n; i++) {
		int rc = write_frame(S, &S->L.f[i]);
		if (rc)
			return rc;
		if (S->L.f[i].runs_n)
			write_pruned(S, &S->L.f[i]);
	}
	fputs("</g>\n", S->out);
	return 0;
}

static void put_fixed(FILE *out, double v, int decimals)
{
	char buf[32];
	fwrite(buf, 1, uf_fmt_fixed(buf, v, decimals), out);
}

static void row_y(const struct svg *S, uint32_t depth, double *y1, double *y2)
{
	double fh = S->o->frameheight;
	if (S->o->inverted) {
		*y1 = S->ypad1 + S->ypad3 + depth * fh;
		*y2 = *y1 + fh - 1;
	} else {
		*y1 = S->imageheight - S->ypad2 - (depth + 1) * fh + 1;
		*y2 = S->imageheight - S->ypad2 - depth * fh;
	}
}

/* Samples and share as flamegraph.pl prints them. */
static void count_text(const struct svg *S, double samples, char *txt, size_t tsize, char *pct,
		       size_t psize, int whole)
{
	char num[64];
	snprintf(num, sizeof num, "%.0f", samples * S->factor);
	with_commas(txt, tsize, num);
	if (whole)
		snprintf(pct, psize, "100");
	else
		snprintf(pct, psize, "%.2f", 100 * strtod(num, NULL) / (S->timemax * S->factor));
}

static int write_frame(struct svg *S, const struct frame *f)
{
	FILE *out = S->out;
	const struct render_opts *o = S->o;
	int root = f->node == FOLD_ROOT;
	size_t rawlen;
	const char *raw = fold_node_name(S->t, f->node, &rawlen);
	double end = root ? S->timemax : f->end;
	double x1 = S->xpad + f->start * S->wpt, x2 = S->xpad + end * S->wpt, y1, y2;
	row_y(S, f->depth, &y1, &y2);
	char txt[96], pct[64];
	count_text(S, end - f->start, txt, sizeof txt, pct, sizeof pct, root);
	if (escape_display(&S->disp, root ? "all" : raw, root ? 3 : strip_annotation(raw, rawlen)))
		return -ENOMEM;

	const char *title = NULL, *spec = S->attrs.n ? namemap_get(&S->attrs, raw, rawlen) : NULL;
	size_t tlen = 0;
	fputs("<g", out);
	if (spec)
		write_attrs(S, spec, &title, &tlen);
	fputs(">\n<title>", out);
	if (title) {
		escape_xml_any(out, title, tlen);
	} else {
		escape_xml(out, S->disp.buf, S->disp.len);
		fprintf(out, " (%s ", txt);
		escape_xml_any(out, o->countname, strlen(o->countname));
		fprintf(out, ", %s%%", pct);
		if (S->t->base && !root) {
			double d = o->negate ? -f->delta : f->delta;
			fprintf(out, "; %s%.2f%%", d > 0 ? "+" : "", 100 * d / (S->timemax * S->factor));
		}
		fputs(")", out);
	}
	char fill[40];
	frame_color(S, f, fill, sizeof fill);
	/* flamegraph.pl's width is the difference of the rounded edges */
	char a[32], b[32];
	a[uf_fmt_fixed(a, x1, 1)] = 0;
	b[uf_fmt_fixed(b, x2, 1)] = 0;
	fprintf(out, "</title><rect x=\"%s\" y=\"", a);
	put_fixed(out, y1, 1);
	fputs("\" width=\"", out);
	put_fixed(out, strtod(b, NULL) - strtod(a, NULL), 1);
	fputs("\" height=\"", out);
	put_fixed(out, y2 - y1, 1);
	fprintf(out, "\" fill=\"%s\" rx=\"2\" ry=\"2\"/>\n<text x=\"", fill);
	put_fixed(out, x1 + 3, 2);
	fputs("\" y=\"", out);
	put_fixed(out, 3 + (y1 + y2) / 2, 2);
	fputs("\">", out);
	int chars = (int)((x2 - x1) / (o->fontsize * o->fontwidth));
	if (chars >= 3) {
		if ((size_t)chars >= S->disp.chars) {
			escape_xml(out, S->disp.buf, S->disp.len);
		} else {
			escape_xml(out, S->disp.buf, escape_prefix_bytes(&S->disp, (size_t)chars - 2));
			fputs("..", out);
		}
	}
	fputs("</text>\n</g>\n", out);
	return 0;
}

static void write_pruned(struct svg *S, const struct frame *f)
{
	FILE *out = S->out;
	double y1, y2;
	row_y(S, f->depth + 1, &y1, &y2);
	char txt[96], pct[64];
	count_text(S, f->pruned_samples, txt, sizeof txt, pct, sizeof pct, 0);
	fprintf(out, "<g class=\"pruned\">\n<title>%u frame%s pruned (%s ", f->pruned_frames,
		f->pruned_frames == 1 ? "" : "s", txt);
	escape_xml_any(out, S->o->countname, strlen(S->o->countname));
	fprintf(out, ", %s%%)</title><path d=\"", pct);
	const double *r = S->L.runs + f->runs_off;
	for (uint32_t i = 0; i < f->runs_n; i++) {
		double x1 = S->xpad + r[2 * i] * S->wpt, x2 = S->xpad + r[2 * i + 1] * S->wpt;
		fprintf(out, "M%.1f %.1fh%.1fv%.1fh%.1fz", x1, y1, x2 - x1, y2 - y1, x1 - x2);
	}
	fprintf(out, "\" fill=\"%s\"/>\n</g>\n", PRUNED_FILL);
}

/* ---- colours ------------------------------------------------------------ */

static void color_scale(const struct svg *S, double value, char *buf, size_t size)
{
	int r = 255, g = 255, b = 255;
	double max = S->maxdelta;
	if (S->o->negate)
		value = -value;
	if (value > max)
		value = max;
	if (value < -max)
		value = -max;
	if (value > 0)
		g = b = (int)(210 * (max - value) / max);
	else if (value < 0)
		r = g = (int)(210 * (max + value) / max);
	snprintf(buf, size, "rgb(%d,%d,%d)", r, g, b);
}

static void frame_color(struct svg *S, const struct frame *f, char *buf, size_t size)
{
	size_t len;
	const char *raw = fold_node_name(S->t, f->node, &len);
	if (len == 2 && raw[0] == '-' && raw[1] == '-') {
		snprintf(buf, size, "rgb(160,160,160)");
	} else if (len == 1 && raw[0] == '-') {
		snprintf(buf, size, "rgb(200,200,200)");
	} else if (S->t->base) {
		color_scale(S, f->delta, buf, size);
	} else if (S->o->palette_file) {
		const char *c = namemap_get(&S->pal, raw, len);
		if (c && strlen(c) < size && strspn(c, "rgb(),#0123456789abcdefABCDEF") == strlen(c)) {
			snprintf(buf, size, "%s", c);
			return;
		}
		palette_color(S->o->colors, S->mode, &S->rng, raw, len, f->waker, buf, size);
		namemap_add(&S->pal, raw, len, buf);
	} else {
		palette_color(S->o->colors, S->mode, &S->rng, raw, len, f->waker, buf, size);
	}
}

/* ---- text helpers ------------------------------------------------------- */

static void with_commas(char *out, size_t size, const char *digits)
{
	size_t n = strlen(digits), o = 0;
	for (size_t i = 0; i < n && o + 2 < size; i++) {
		out[o++] = digits[i];
		size_t left = n - i - 1;
		if (left && left % 3 == 0 && digits[i] >= '0' && digits[i] <= '9')
			out[o++] = ',';
	}
	out[o] = 0;
}

/* flamegraph.pl strips a trailing _[k] _[w] _[i] _[j] from displayed names. */
static size_t strip_annotation(const char *s, size_t len)
{
	if (len >= 4 && s[len - 4] == '_' && s[len - 3] == '[' && s[len - 1] == ']' &&
	    strchr("kwij", s[len - 2]) && s[len - 2])
		return len - 4;
	return len;
}

/* --nameattr: "attr=value" pairs separated by tabs; "title" replaces the
 * tooltip.  Attribute names are checked and event handlers refused, so a
 * nameattr file cannot add script either. */
static void write_attrs(struct svg *S, const char *spec, const char **title, size_t *tlen)
{
	const char *p = spec;
	while (*p) {
		const char *end = strchr(p, '\t');
		size_t n = end ? (size_t)(end - p) : strlen(p);
		const char *eq = memchr(p, '=', n);
		size_t klen = eq ? (size_t)(eq - p) : 0;
		int ok = klen > 0 && klen < 64 && !(klen >= 2 && (p[0] | 32) == 'o' && (p[1] | 32) == 'n');
		for (size_t i = 0; ok && i < klen; i++)
			ok = (p[i] >= 'a' && p[i] <= 'z') || (p[i] >= 'A' && p[i] <= 'Z') ||
			     (p[i] >= '0' && p[i] <= '9' && i > 0) || p[i] == '-' || p[i] == '_' ||
			     (p[i] == ':' && i > 0);
		const char *v = eq ? eq + 1 : p;
		size_t vlen = eq ? n - klen - 1 : 0;
		if (ok && vlen >= 11 && strncasecmp(v, "javascript:", 11) == 0)
			ok = 0;
		if (ok && klen == 5 && !memcmp(p, "title", 5)) {
			*title = v;
			*tlen = vlen;
		} else if (ok) {
			fprintf(S->out, " %.*s=\"", (int)klen, p);
			escape_xml_any(S->out, v, vlen);
			fputc('"', S->out);
		}
		p += n;
		if (*p == '\t')
			p++;
	}
}
