/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * render/frames.c — the <g id="frames"> part of the SVG: one <g> per
 * frame with flamegraph.pl's title, rect and label (the <text> only when a
 * label fits), and one grey <g class="pruned"> per parent whose children
 * were too narrow to draw, when that box is at least a pixel wide.
 *
 * A frame's tooltip is "NAME (N COUNTNAME, P%)" (differentials add
 * "; +D%"), with N printed as flamegraph.pl prints it: rounded, with
 * thousands separators, and P computed from that rounded N.  Lines after
 * the first are ours and stay off the first (which readers parse): a
 * differential's before -> after figures, "library: LIB", and "source:
 * FILE:LINE (P%), ..." (source_line()).
 *
 * Trade-off: the frames are assembled in a buffer of our own (S->ob,
 * OB_CAP bytes, handed to stdio whole) rather than written piece by piece
 * through stdio: 64 KiB held while writing, for a third less time per
 * frame (256 KiB were 48 page faults of a new mapping on every render
 * past a few thousand frames; 64 KiB come from the heap and are
 * reused).  A name's text (made displayable, then XML-escaped) and, where
 * it depends on the name alone, its colour are made on its first frame
 * and copied after (S->names, frame_name): names repeat across frames,
 * and making them again per frame was ~40 % of the render's own
 * instructions on FlameGraph's example.  It costs the drawn names' text
 * (once, twice when escaping changed it: at most 28 bytes a name byte),
 * an entry a drawn name and 4 bytes a name id, held while writing.  The
 * same holds for a row's numbers (its y, height and label y depend on
 * the depth alone) and for the tooltip's count text (most frames share a
 * few counts): each is printed once into S->ftext and copied after, as
 * whole fixed-size arrays (OB_PUT_ROOM), 2,020 -> 1,650 instructions a
 * frame on FlameGraph's example.  Invariant: nothing else writes to
 * S->out while the buffer holds bytes (svg_write_frames flushes it
 * before returning).
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "render/svg.h"
#include "util/fmt.h"
#include "util/vec.h"

#define PRUNED_FILL "rgb(190,190,190)"

/* One thread writes the SVG, a few calls per frame and millions of frames
 * on deep profiles: stdio's per-call locking is pure cost here. */
#define fputs fputs_unlocked
#define fputc fputc_unlocked
#define fwrite fwrite_unlocked

/* The frames go through S->ob, handed to stdio in blocks of OB_CAP: a
 * frame is a dozen pieces and stdio's cost per call (and its 4 KiB
 * writes) was a third of writing a differential's frames. */
#define OB_CAP (64u << 10)
#define OB_LIT(b, lit) ob_put((b), (lit), sizeof(lit) - 1)

static void ob_flush(struct outbuf *b)
{
	if (b->len)
		fwrite(b->p, 1, b->len, b->out);
	b->len = 0;
}

static inline void ob_put(struct outbuf *b, const char *s, size_t n)
{
	if (b->len + n > b->cap) {
		ob_flush(b);
		if (n > b->cap) { /* a huge name: straight through */
			fwrite(s, 1, n, b->out);
			return;
		}
	}
	memcpy(b->p + b->len, s, n);
	b->len += n;
}

/* n bytes of s, where s is an array of `room` bytes (a constant): the
 * whole array is copied (a few vector moves) and the length advanced by
 * n.  A copy of a variable length under 256 bytes became `rep movsq`,
 * whose start-up cost more than the cached text saved. */
#define OB_PUT_ROOM(b, s, n) ob_put_room((b), (s), (n), sizeof(s))

static inline void ob_put_room(struct outbuf *b, const char *s, size_t n, size_t room)
{
	if (b->len + room > b->cap)
		ob_flush(b);
	memcpy(b->p + b->len, s, room);
	b->len += n;
}

static inline void ob_putc(struct outbuf *b, char c)
{
	if (b->len == b->cap)
		ob_flush(b);
	b->p[b->len++] = c;
}

static inline void ob_puts(struct outbuf *b, const char *s)
{
	ob_put(b, s, strlen(s));
}

static void ob_put_cb(void *b, const char *s, size_t n)
{
	ob_put(b, s, n);
}

/* s[0..len), displayable, with XML's specials as entities. */
static void ob_xml(struct outbuf *b, const char *s, size_t len)
{
	escape_xml_put(ob_put_cb, b, s, len);
}

/* Any bytes: made displayable, then escaped (escape_xml_any). */
static void ob_xml_any(struct outbuf *b, const char *s, size_t len)
{
	struct display d = { 0 };
	if (escape_display(&d, s, len) == 0)
		ob_xml(b, d.buf, d.len);
	free(d.buf);
}

static int write_frame(struct svg *S, const struct frame *f);
static void text_put(void *c, const char *s, size_t n);
static void write_pruned(struct svg *S, const struct frame *f);
static void row_y(const struct svg *S, uint32_t depth, double *y1, double *y2);
static void with_commas(char *out, size_t size, const char *digits);
static size_t strip_annotation(const char *s, size_t len);
static void frame_color(struct svg *S, const struct frame *f, char *buf, size_t size);
static void color_scale(const struct svg *S, double value, char *buf, size_t size);
static void rgb_text(char *buf, size_t size, int r, int g, int b);
static double frame_delta(const struct svg *S, const struct frame *f);
static void diff_details(struct svg *S, const struct frame *f);
static void write_attrs(struct svg *S, const char *spec, const char **title, size_t *tlen);
static void put_signed_pct(struct outbuf *b, double v, const char *unit);
static void source_line(struct svg *S, uint32_t node);

int svg_write_frames(struct svg *S, const char *id, int hidden)
{
	int rc = 0;
	S->ob = (struct outbuf){ .out = S->out, .p = malloc(OB_CAP), .cap = OB_CAP };
	/* sized for the names the frames can draw, so neither array is
	 * copied as it grows on a small profile (pages never used are never
	 * touched) */
	size_t drawn = S->L.n < (size_t)S->t->nnames + 1 ? S->L.n : (size_t)S->t->nnames + 1;
	S->names = (struct name_cache){ .slot = calloc((size_t)S->t->nnames + 1, sizeof *S->names.slot) };
	if (S->names.slot && (uf_vec_grow(&S->names.e, &S->names.cap, drawn, sizeof *S->names.e) ||
			      uf_vec_grow(&S->names.text, &S->names.tcap, drawn * 32 + 7 * S->countname.len, 1))) {
		free(S->names.e);
		free(S->names.slot);
		S->names.slot = NULL;
	}
	/* --cp's map is filled as frames are drawn, --random draws a colour a
	 * frame and a differential colours by each frame's change: only other
	 * colours are the name's own */
	S->names.fill_by_name = !S->t->base && !S->o->palette_file && S->mode != PALETTE_RANDOM;
	S->ftext = (struct frame_text){ .count = calloc(COUNT_SLOTS, sizeof *S->ftext.count) };
	if (!S->ob.p || !S->names.slot || !S->ftext.count) {
		free(S->ob.p);
		free(S->names.slot);
		free(S->names.e);
		free(S->names.text);
		free(S->ftext.count);
		return -ENOMEM;
	}
	/* the count's name, in every tooltip, escaped once at the text's start */
	escape_xml_put(text_put, &S->names, S->countname.buf, S->countname.len);
	S->names.count_len = S->names.len;
	fprintf(S->out, "<g id=\"%s\"%s>\n", id, hidden ? " class=\"hide\"" : "");
	for (size_t i = 0; i < S->L.n && rc == 0; i++) {
		rc = write_frame(S, &S->L.f[i]);
		if (rc == 0 && S->L.f[i].runs_n && svg_pruned_px(&S->L, &S->L.f[i], S->wpt) >= 1.0)
			write_pruned(S, &S->L.f[i]);
	}
	ob_flush(&S->ob);
	free(S->ob.p);
	S->ob.p = NULL;
	free(S->names.slot);
	free(S->names.e);
	free(S->names.text);
	S->names = (struct name_cache){ 0 };
	free(S->ftext.row);
	free(S->ftext.count);
	S->ftext = (struct frame_text){ 0 };
	if (rc == 0)
		fputs("</g>\n", S->out);
	return rc;
}

static void put_fixed(struct outbuf *b, double v, int decimals)
{
	char buf[32];
	size_t n = uf_fmt_fixed(buf, v, decimals);
	OB_PUT_ROOM(b, buf, n);
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
	double v = samples * S->factor;
	/* uf_round_even() rounds half to even like printf's %.0f; below 2^53
	 * the integer is exact, so this equals flamegraph.pl's sprintf */
	double r = uf_round_even(v);
	if (r >= 0 && r < 9e15)
		num[uf_fmt_u64(num, (uint64_t)r)] = 0;
	else
		snprintf(num, sizeof num, "%.0f", v);
	with_commas(txt, tsize, num);
	if (whole) {
		snprintf(pct, psize, "100");
	} else {
		char p[40];
		double shown = r >= 0 && r < 9e15 ? r : strtod(num, NULL);
		size_t n = uf_fmt_fixed(p, 100 * shown / (S->timemax * S->factor), 2);
		if (n >= psize)
			n = psize - 1;
		memcpy(pct, p, n);
		pct[n] = 0;
	}
}

/* Frame text of a count (count_text) from its slot of the cache, made
 * there when this count was not the slot's last: most frames of a profile
 * share a few small counts, and the text was ~200 instructions a frame.
 * NULL for a count whose text is too long to keep: it is then in tbuf
 * and pbuf (96 and 64 bytes). */
static const struct count_slot *count_text_cached(struct svg *S, double samples, char *tbuf,
						  char *pbuf)
{
	uint64_t bits;
	memcpy(&bits, &samples, sizeof bits);
	struct count_slot *c = &S->ftext.count[(bits * 0x9e3779b97f4a7c15ull) >> 57]; /* 128 slots */
	if (c->used && c->samples == samples)
		return c;
	count_text(S, samples, tbuf, 96, pbuf, 64, 0);
	size_t tl = strlen(tbuf), pl = strlen(pbuf);
	if (tl >= sizeof c->txt || pl >= sizeof c->pct)
		return NULL;
	*c = (struct count_slot){ .samples = samples, .used = 1, .txt_len = (uint8_t)tl,
				  .pct_len = (uint8_t)pl };
	memcpy(c->txt, tbuf, tl);
	memcpy(c->pct, pbuf, pl);
	return c;
}

/* Appends a fixed-point number and a literal to a row's text. */
static uint8_t row_piece(char *to, const char *lit, double v, int decimals, const char *tail)
{
	size_t n = strlen(lit);
	memcpy(to, lit, n);
	n += uf_fmt_fixed(to + n, v, decimals);
	size_t tl = strlen(tail);
	memcpy(to + n, tail, tl);
	return (uint8_t)(n + tl);
}

/* The text of row `depth` (made on its first frame), or NULL when out of
 * memory. */
static const struct row_text *row_text(struct svg *S, uint32_t depth)
{
	struct frame_text *c = &S->ftext;
	if (depth >= c->nrow) {
		size_t n = c->nrow ? c->nrow : 64;
		while (n <= depth)
			n *= 2;
		struct row_text *r = realloc(c->row, n * sizeof *r);
		if (!r)
			return NULL;
		memset(r + c->nrow, 0, (n - c->nrow) * sizeof *r);
		c->row = r;
		c->nrow = n;
	}
	struct row_text *r = &c->row[depth];
	if (!r->ready) {
		double y1, y2;
		row_y(S, depth, &y1, &y2);
		r->a_len = row_piece(r->a, "\" y=\"", y1, 1, "\" width=\"");
		r->b_len = row_piece(r->b, "\" height=\"", y2 - y1, 1, "\" fill=\"");
		r->c_len = row_piece(r->c, "\" y=\"", 3 + (y1 + y2) / 2, 2, "\">");
		r->ready = 1;
	}
	return r;
}

/* put for escape_xml_put: appends to the cache's text (room made first). */
static void text_put(void *c, const char *s, size_t n)
{
	struct name_cache *nc = c;
	memcpy(nc->text + nc->len, s, n);
	nc->len += n;
}

/* Frame f's name as the frames show it, made on its first frame: the
 * displayable form (flamegraph.pl's annotation stripped), the same with
 * XML's entities, and its colour when that is the name's alone.  Each
 * frame used to make all three again (FlameGraph's example: ~40 % of the
 * render's own instructions).  NULL when out of memory; the entry's
 * text moves on the next call. */
static const struct name_text *frame_name(struct svg *S, const struct frame *f)
{
	struct name_cache *c = &S->names;
	int root = f->node == FOLD_ROOT;
	uint32_t id = root ? S->t->nnames : S->t->name[f->node];
	if (c->slot[id])
		return &c->e[c->slot[id] - 1];
	size_t rawlen;
	const char *raw = fold_node_name(S->t, f->node, &rawlen);
	const char *shown = root ? "all" : raw;
	size_t slen = root ? 3 : strip_annotation(raw, rawlen);
	int plain = escape_is_plain(shown, slen); /* most names: their own text */
	if (!plain && escape_display(&S->disp, shown, slen))
		return NULL;
	size_t dl = plain ? slen : S->disp.len; /* an entity is at most 6 bytes a byte */
	if (uf_vec_grow(&c->e, &c->cap, c->n + 1, sizeof *c->e) ||
	    uf_vec_grow(&c->text, &c->tcap, c->len + 7 * dl, 1))
		return NULL;
	struct name_text *e = &c->e[c->n];
	*e = (struct name_text){ .disp_off = c->len, .disp_len = (uint32_t)dl,
				 .chars = (uint32_t)(plain ? slen : S->disp.chars) };
	text_put(c, plain ? shown : S->disp.buf, dl);
	e->xml_off = c->len;
	if (!plain)
		escape_xml_put(text_put, c, S->disp.buf, dl);
	e->xml_len = plain ? (uint32_t)dl : (uint32_t)(c->len - e->xml_off);
	if (e->xml_len == dl) { /* no entity (most names): one copy */
		c->len = e->xml_off;
		e->xml_off = e->disp_off;
	}
	if (c->fill_by_name)
		frame_color(S, f, e->fill, sizeof e->fill);
	c->slot[id] = (uint32_t)++c->n;
	return e;
}

static int write_frame(struct svg *S, const struct frame *f)
{
	struct outbuf *out = &S->ob;
	const struct render_opts *o = S->o;
	int root = f->node == FOLD_ROOT;
	size_t rawlen;
	const char *raw = fold_node_name(S->t, f->node, &rawlen);
	double end = root ? S->timemax : f->end;
	double x1 = S->xpad + f->start * S->wpt, x2 = S->xpad + end * S->wpt;
	char tbuf[96], pbuf[64];
	const struct count_slot *count = NULL;
	if (root)
		count_text(S, end - f->start, tbuf, sizeof tbuf, pbuf, sizeof pbuf, 1);
	else
		count = count_text_cached(S, end - f->start, tbuf, pbuf);
	const struct name_text *nt = frame_name(S, f);
	const struct row_text *row = row_text(S, f->depth);
	if (!nt || !row)
		return -ENOMEM;
	const char *disp = S->names.text + nt->disp_off, *xml = S->names.text + nt->xml_off;

	const char *title = NULL, *spec = S->attrs.n ? namemap_get(&S->attrs, raw, rawlen) : NULL;
	size_t tlen = 0;
	OB_LIT(out, "<g");
	if (spec)
		write_attrs(S, spec, &title, &tlen);
	OB_LIT(out, ">\n<title>");
	if (title) {
		ob_xml_any(out, title, tlen);
	} else {
		ob_put(out, xml, nt->xml_len);
		OB_LIT(out, " (");
		if (count)
			OB_PUT_ROOM(out, count->txt, count->txt_len);
		else
			ob_puts(out, tbuf);
		ob_putc(out, ' ');
		ob_put(out, S->names.text, S->names.count_len);
		OB_LIT(out, ", ");
		if (count)
			OB_PUT_ROOM(out, count->pct, count->pct_len);
		else
			ob_puts(out, pbuf);
		ob_putc(out, '%');
		if (S->t->base && !root) {
			double d = frame_delta(S, f);
			OB_LIT(out, "; ");
			put_signed_pct(out, 100 * d / (S->timemax * S->factor), "%");
		}
		OB_LIT(out, ")");
		if (S->t->base)
			diff_details(S, f);
		uint32_t lib = root ? FOLD_NONE : fold_trie_lib(S->t, S->t->name[f->node]);
		if (lib != FOLD_NONE) { /* a second line: the first stays "NAME (N samples, P%)" */
			size_t ln;
			const char *ls = fold_trie_name(S->t, lib, &ln);
			OB_LIT(out, "\nlibrary: ");
			ob_xml_any(out, ls, ln);
		}
		if (!root)
			source_line(S, f->node);
	}
	char fill_buf[40];
	const char *fill = nt->fill;
	if (!S->names.fill_by_name) {
		frame_color(S, f, fill_buf, sizeof fill_buf);
		fill = fill_buf;
	}
	/* flamegraph.pl's width is the difference of the rounded edges: in
	 * whole tenths of a pixel, the same text (uf_tenths) */
	uint64_t t1, t2;
	OB_LIT(out, "</title><rect x=\"");
	if (uf_tenths(x1, &t1) && uf_tenths(x2, &t2)) {
		char num[24];
		size_t nn = uf_fmt_tenths(num, t1);
		OB_PUT_ROOM(out, num, nn);
		OB_PUT_ROOM(out, row->a, row->a_len);
		nn = uf_fmt_tenths(num, t2 - t1);
		OB_PUT_ROOM(out, num, nn);
	} else {
		put_fixed(out, x1, 1);
		OB_PUT_ROOM(out, row->a, row->a_len);
		put_fixed(out, uf_fixed_value(x2, 1) - uf_fixed_value(x1, 1), 1);
	}
	OB_PUT_ROOM(out, row->b, row->b_len);
	ob_puts(out, fill);
	OB_LIT(out, "\" rx=\"2\" ry=\"2\"/>\n");
	/* A label only where one fits: an empty <text> draws nothing but
	 * costs the browser an element (most frames of a big graph). */
	int chars = (int)((x2 - x1) / (o->fontsize * o->fontwidth));
	if (chars >= 3) {
		OB_LIT(out, "<text x=\"");
		put_fixed(out, x1 + 3, 2);
		OB_PUT_ROOM(out, row->c, row->c_len);
		if ((size_t)chars >= nt->chars) {
			ob_put(out, xml, nt->xml_len);
		} else {
			struct display d = { .buf = (char *)disp, .len = nt->disp_len, .chars = nt->chars };
			ob_xml(out, disp, escape_prefix_bytes(&d, (size_t)chars - 2));
			OB_LIT(out, "..");
		}
		OB_LIT(out, "</text>\n");
	}
	OB_LIT(out, "</g>\n");
	return 0;
}

/* A third tooltip line, "source: FILE:LINE (P%), ..." (record's DWARF
 * positions, fold/loc.c): the node's SOURCE_TOP hottest positions with
 * their share of the node's samples, the file by its base name, then
 * "+N more"; nothing when the node has none.  templates/flamegraph.js
 * writes the same line for drill-down frames. */
#define SOURCE_TOP 3

static void source_line(struct svg *S, uint32_t node)
{
	const fold_trie *t = S->t;
	if (!t->locs) /* no positions at all (folded text): no call a frame */
		return;
	uint32_t locs[SOURCE_TOP];
	double cnt[SOURCE_TOP];
	uint32_t n = fold_loc_top(t, node, locs, cnt, SOURCE_TOP);
	if (!n || !(t->total[node] > 0))
		return;
	struct outbuf *out = &S->ob;
	OB_LIT(out, "\nsource: ");
	for (uint32_t k = 0; k < n && k < SOURCE_TOP; k++) {
		size_t len;
		const char *p = fold_loc_str(t, locs[k], &len), *b = memrchr(p, '/', len);
		if (b) {
			len -= (size_t)(b + 1 - p);
			p = b + 1;
		}
		char pct[40];
		size_t pl = uf_fmt_fixed(pct, 100 * cnt[k] / t->total[node], 0);
		if (k)
			OB_LIT(out, ", ");
		ob_xml_any(out, p, len);
		OB_LIT(out, " (");
		ob_put(out, pct, pl);
		OB_LIT(out, "%)");
	}
	if (n > SOURCE_TOP) {
		char more[16];
		OB_LIT(out, ", +");
		ob_put(out, more, uf_fmt_u64(more, n - SOURCE_TOP));
		OB_LIT(out, " more");
	}
}

/* A box narrower than a pixel is not written: it shows nothing and would
 * still cost the browser an element (templates/flamegraph.js draws the
 * drill-down by the same rule). */
double svg_pruned_px(const struct layout *L, const struct frame *f, double wpt)
{
	const double *r = L->runs + f->runs_off;
	double t = 0;
	for (uint32_t i = 0; i < f->runs_n; i++)
		t += r[2 * i + 1] - r[2 * i];
	return t * wpt;
}

static void write_pruned(struct svg *S, const struct frame *f)
{
	struct outbuf *out = &S->ob;
	double y1, y2;
	row_y(S, f->depth + 1, &y1, &y2);
	char txt[96], pct[64];
	count_text(S, f->pruned_samples, txt, sizeof txt, pct, sizeof pct, 0);
	char num[16];
	OB_LIT(out, "<g class=\"pruned\">\n<title>");
	ob_put(out, num, uf_fmt_u64(num, f->pruned_frames));
	ob_puts(out, f->pruned_frames == 1 ? " frame pruned (" : " frames pruned (");
	ob_puts(out, txt);
	ob_putc(out, ' ');
	ob_xml_any(out, S->o->countname, strlen(S->o->countname));
	OB_LIT(out, ", ");
	ob_puts(out, pct);
	OB_LIT(out, "%)</title><path d=\"");
	const double *r = S->L.runs + f->runs_off;
	for (uint32_t i = 0; i < f->runs_n; i++) {
		double x1 = S->xpad + r[2 * i] * S->wpt, x2 = S->xpad + r[2 * i + 1] * S->wpt;
		ob_putc(out, 'M');
		put_fixed(out, x1, 1);
		ob_putc(out, ' ');
		put_fixed(out, y1, 1);
		ob_putc(out, 'h');
		put_fixed(out, x2 - x1, 1);
		ob_putc(out, 'v');
		put_fixed(out, y2 - y1, 1);
		ob_putc(out, 'h');
		put_fixed(out, x1 - x2, 1);
		ob_putc(out, 'z');
	}
	OB_LIT(out, "\" fill=\"" PRUNED_FILL "\"/>\n</g>\n");
}

/* ---- differentials ------------------------------------------------------ */

/* The change a frame is coloured by, signed so that > 0 means the user's
 * AFTER grew: the self change (flamegraph.pl) or the change of the total. */
static double frame_delta(const struct svg *S, const struct frame *f)
{
	double d = S->o->delta == RENDER_DELTA_TOTAL
			   ? S->t->total[f->node] - S->base_total[f->node]
			   : f->delta;
	return S->o->negate ? -d : d;
}

static void share_text(struct outbuf *out, double v, double total)
{
	put_fixed(out, total > 0 ? 100 * v / total : 0, 2);
	ob_putc(out, '%');
}

/* printf("%s%.2f<unit>", v > 0 ? "+" : "", v), without printf's cost:
 * differential tooltips print several per frame. */
static void put_signed_pct(struct outbuf *out, double v, const char *unit)
{
	if (v > 0)
		ob_putc(out, '+');
	put_fixed(out, v, 2);
	ob_puts(out, unit);
}

/* A count as a tooltip shows it: whole counts exactly, others (BEFORE
 * scaled by --normalize, --factor) to two decimals without trailing zeros:
 * "170.99", not "170.98961937716263" (issue 31).  The embedded block keeps
 * the exact value.  flamegraph.js displayCount() is the same. */
static void display_count(char *buf, size_t size, double v)
{
	if (!(v >= 0) || isinf(v) || (v < 1e15 && v == (double)(uint64_t)v)) { /* whole: no floor() */
		fold_format_count(buf, size, v);
		return;
	}
	int n = snprintf(buf, size, "%.2f", v);
	while (n > 0 && (size_t)n < size && buf[n - 1] == '0')
		buf[--n] = 0;
	if (n > 0 && (size_t)n < size && buf[n - 1] == '.')
		buf[--n] = 0;
}

/* Second tooltip line: before -> after, total and self, with the change. */
static void diff_details(struct svg *S, const struct frame *f)
{
	struct outbuf *out = &S->ob;
	const fold_trie *t = S->t;
	uint32_t n = f->node;
	double bt = S->base_total[n], at = t->total[n], bs = t->base[n], as = t->self[n];
	double btot = S->base_total[0], atot = t->total[0];
	if (S->o->swapped) { /* the trie holds the user's BEFORE as "after" */
		double x = bt; bt = at; at = x;
		x = bs; bs = as; as = x;
		x = btot; btot = atot; atot = x;
	}
	char a[64], b[64];
	display_count(b, sizeof b, bt * S->factor);
	display_count(a, sizeof a, at * S->factor);
	OB_LIT(out, "\nbefore \xe2\x86\x92 after: total ");
	ob_puts(out, b);
	OB_LIT(out, " \xe2\x86\x92 ");
	ob_puts(out, a);
	OB_LIT(out, " (");
	share_text(out, bt, btot);
	OB_LIT(out, " \xe2\x86\x92 ");
	share_text(out, at, atot);
	double pts = (atot > 0 ? 100 * at / atot : 0) - (btot > 0 ? 100 * bt / btot : 0);
	OB_LIT(out, ", ");
	put_signed_pct(out, pts, " pts)");
	display_count(b, sizeof b, bs * S->factor);
	display_count(a, sizeof a, as * S->factor);
	OB_LIT(out, "; self ");
	ob_puts(out, b);
	OB_LIT(out, " \xe2\x86\x92 ");
	ob_puts(out, a);
	if (bt == 0 && at > 0)
		OB_LIT(out, " (new)");
	else if (at == 0 && bt > 0)
		OB_LIT(out, " (gone)");
}

struct diff_palette {
	int grow[3], shrink[3]; /* full-scale colours; zero change is white */
	const char *added, *gone, *faint;
};

static const struct diff_palette red_blue = { { 255, 0, 0 }, { 0, 0, 255 },
					      "rgb(190,110,250)", "rgb(110,190,110)", "rgb(225,225,225)" };
static const struct diff_palette colour_blind = { { 230, 97, 1 }, { 33, 102, 172 },
						  "rgb(178,171,210)", "rgb(166,219,160)", "rgb(225,225,225)" };

/* snprintf(buf, size, "%s", c) without printf's cost (a differential's
 * added and gone frames: 630 instructions a frame). */
static void copy_color(char *buf, size_t size, const char *c)
{
	size_t n = strlen(c);
	if (n >= size)
		n = size - 1;
	memcpy(buf, c, n);
	buf[n] = 0;
}

static void diff_color(struct svg *S, const struct frame *f, char *buf, size_t size)
{
	const struct render_opts *o = S->o;
	const struct diff_palette *p = o->diff_palette && !strcmp(o->diff_palette, "cb") ? &colour_blind
											 : &red_blue;
	double at = S->t->total[f->node], bt = S->base_total[f->node];
	if (o->delta == RENDER_DELTA_TOTAL && f->node != FOLD_ROOT && ((bt == 0 && at > 0) || (at == 0 && bt > 0))) {
		int added = (bt == 0) != (o->swapped != 0);
		copy_color(buf, size, added ? p->added : p->gone);
		return;
	}
	double d = frame_delta(S, f), max = S->maxdelta;
	if (o->min_delta > 0 && fabs(d) * 100 < o->min_delta * S->t->total[0]) {
		copy_color(buf, size, p->faint);
		return;
	}
	if (p == &red_blue) { /* flamegraph.pl's scale, exactly */
		color_scale(S, o->delta == RENDER_DELTA_TOTAL ? at - bt : f->delta, buf, size);
		return;
	}
	double k = fmin(fabs(d) / max, 1);
	const int *c = d > 0 ? p->grow : p->shrink;
	rgb_text(buf, size, (int)(255 - (255 - c[0]) * k), (int)(255 - (255 - c[1]) * k),
		 (int)(255 - (255 - c[2]) * k));
}

/* The legend: what the colours of a differential mean.  Its own row(s)
 * under the title (issue 31: drawn in the title row it ran over the
 * "Libraries" button and, below ~1150 px, the title); a piece that would
 * cross the right edge starts a new row. */
int svg_write_legend(struct svg *S, double y, int write)
{
	const struct render_opts *o = S->o;
	const struct diff_palette *p = o->diff_palette && !strcmp(o->diff_palette, "cb") ? &colour_blind
											 : &red_blue;
	char grow[32], shrink[32], note[64];
	snprintf(grow, sizeof grow, "rgb(%d,%d,%d)", p->grow[0], p->grow[1], p->grow[2]);
	snprintf(shrink, sizeof shrink, "rgb(%d,%d,%d)", p->shrink[0], p->shrink[1], p->shrink[2]);
	snprintf(note, sizeof note, "(colour: change of %s samples)",
		 o->delta == RENDER_DELTA_TOTAL ? "total" : "self");
	const char *items[][2] = { { grow, "grew" }, { shrink, "shrank" }, { p->added, "new" },
				   { p->gone, "gone" }, { p->faint, "below min-delta" }, { NULL, note },
				   { NULL, S->diff_hint } };
	size_t nsw = o->delta == RENDER_DELTA_TOTAL ? (o->min_delta > 0 ? 5 : 4) : 2;
	double fs = o->fontsize, sz = fs * 0.8, x = S->xpad, right = o->width - S->xpad;
	int rows = 1;
	if (write)
		fputs("<g id=\"legend\">\n", S->out);
	for (size_t k = 0; k < sizeof items / sizeof items[0]; k++) {
		if (k >= nsw && items[k][0])
			continue;
		const char *label = items[k][1];
		if (!*label)
			continue;
		double tw = svg_text_width(label, strlen(label), fs), w = (items[k][0] ? sz + 3 : 0) + tw;
		if (x > S->xpad && x + w > right) {
			rows++;
			x = S->xpad;
			y += fs * 2;
		}
		if (write && items[k][0])
			fprintf(S->out, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"%s\" "
					"stroke=\"rgb(120,120,120)\" stroke-width=\"0.5\"/>", x, y - sz, sz, sz, items[k][0]);
		if (write) {
			fprintf(S->out, "<text%s x=\"%.1f\" y=\"%.1f\">", label == S->diff_hint ? " id=\"diffhint\"" : "",
				x + w - tw, y);
			escape_xml_any(S->out, label, strlen(label));
			fputs("</text>\n", S->out);
		}
		x += w + 12;
	}
	if (write)
		fputs("</g>\n", S->out);
	return rows;
}

/* ---- colours ------------------------------------------------------------ */

/* snprintf(buf, size, "rgb(%d,%d,%d)", r, g, b) without printf's cost
 * (a colour a frame); buf holds at least 40 bytes. */
static void rgb_text(char *buf, size_t size, int r, int g, int b)
{
	if (size < 40 || r < 0 || g < 0 || b < 0) {
		snprintf(buf, size, "rgb(%d,%d,%d)", r, g, b);
		return;
	}
	size_t n = 4;
	memcpy(buf, "rgb(", 4);
	n += uf_fmt_u64(buf + n, (uint64_t)r);
	buf[n++] = ',';
	n += uf_fmt_u64(buf + n, (uint64_t)g);
	buf[n++] = ',';
	n += uf_fmt_u64(buf + n, (uint64_t)b);
	buf[n++] = ')';
	buf[n] = 0;
}

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
	rgb_text(buf, size, r, g, b);
}

static void frame_color(struct svg *S, const struct frame *f, char *buf, size_t size)
{
	size_t len;
	const char *raw = fold_node_name(S->t, f->node, &len);
	if (len == 2 && raw[0] == '-' && raw[1] == '-') {
		copy_color(buf, size, "rgb(160,160,160)");
	} else if (len == 1 && raw[0] == '-') {
		copy_color(buf, size, "rgb(200,200,200)");
	} else if (S->t->base) {
		diff_color(S, f, buf, size);
	} else if (!strcmp(S->o->colors, "lib") && fold_trie_lib(S->t, S->t->name[f->node]) != FOLD_NONE) {
		size_t ln;
		const char *lib = fold_trie_name(S->t, fold_trie_lib(S->t, S->t->name[f->node]), &ln);
		palette_lib_color(lib, ln, buf, size);
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
		if (!ok && S->rep->attrs_refused++ == 0)
			snprintf(S->rep->attr_refused, sizeof S->rep->attr_refused, "%.*s",
				 (int)(klen ? klen : n), p);
		for (char *q = S->rep->attr_refused; !ok && *q; q++) /* it goes to a terminal */
			*q = *q < 0x20 || *q == 0x7f ? '?' : *q;
		if (ok && klen == 5 && !memcmp(p, "title", 5)) {
			*title = v;
			*tlen = vlen;
		} else if (ok) {
			ob_putc(&S->ob, ' ');
			ob_put(&S->ob, p, klen);
			OB_LIT(&S->ob, "=\"");
			ob_xml_any(&S->ob, v, vlen);
			ob_putc(&S->ob, '"');
		}
		p += n;
		if (*p == '\t')
			p++;
	}
}
