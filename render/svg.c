/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * render/svg.c — writes the SVG document for a laid-out trie.
 *
 * Geometry follows flamegraph.pl to the pixel: frame height 16, paddings
 * derived from the font size, x = xpad + start * (width - 2 xpad) / total,
 * rect coordinates printed with one decimal.  Everything that is ours
 * (pruned aggregates, the embedded trie, data attributes for the script)
 * is added without moving a frame: when a pruned aggregate needs a row
 * above the deepest kept frame, the canvas grows upward through the
 * viewBox so frame coordinates stay flamegraph.pl's.  The same way, a
 * profile with sample times keeps room above the header for the time view
 * the script draws there (heat_room), so the panel moves no frame.
 *
 * Document order: header texts, then <g id="frames"> with one <g> per
 * frame in pre-order (each pruned aggregate right after its parent),
 * then the embedded trie, then the script (last, so it runs with the
 * document complete): its code as an inert block (<script id="uf-code">,
 * not compiled while the file opens) and templates/boot.js, which runs
 * that code after the first paint or at the first event.
 * The embedded trie is made first, on a second thread for a big trie
 * (render/embed-thread.c: it reads only the trie, as layout and frames
 * do), and written in its place once they are out.  A differential's
 * BEFORE totals per subtree are summed once, first on that thread, and
 * shared by the colours, the BEFORE layer and the block (embed_sums).
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "render/escape.h"
#include "render/layout.h"
#include "render/namemap.h"
#include "render/palette.h"
#include "render/render.h"
#include "render/embed-thread.h"
#include "render/svg.h"
#include "templates.h"
#include "util/fmt.h"

#define EMBED_CHUNK (1u << 20)


static int svg_setup(struct svg *S, struct uf_err *err);
static void svg_header(struct svg *S);
static void svg_view_attrs(struct svg *S);
static int svg_embed(struct svg *S, struct embed_job *j);
static void svg_footer(struct svg *S);
static void svg_release(struct svg *S);
static int chain_rewrite(const fold_trie *t, fold_trie **out);
static void diff_hint(struct svg *S);

void render_opts_init(struct render_opts *o)
{
	memset(o, 0, sizeof *o);
	o->width = 1200;
	o->frameheight = 16;
	o->fonttype = "Verdana";
	o->fontsize = 12;
	o->fontwidth = 0.59;
	o->minwidth = 0.1;
	o->countname = "samples";
	o->nametype = "Function:";
	o->colors = "hot";
	o->factor = 1;
	o->embed = RENDER_EMBED_AUTO;
	o->embed_budget = 768u << 10;
	o->delta = RENDER_DELTA_SELF;
	o->diff_palette = "red-blue";
}

int render_svg(const fold_trie *t, const struct render_opts *o, FILE *out,
	       struct render_report *rep, struct uf_err *err)
{
	struct embed_job ej = { 0 };
	struct svg S = { .t = t, .data = t, .o = o, .out = out, .rep = rep, .ej = &ej };
	memset(rep, 0, sizeof *rep);
	int rc = 0;
	/* a differential's BEFORE per subtree, summed once (a chain rewrite
	 * draws another trie: setup_diff sums its own) */
	if (o->embed != RENDER_EMBED_NONE)
		embed_start(&ej, S.data, t->base && strcmp(o->colors, "chain"), o);
	if (!strcmp(o->colors, "chain") && (rc = chain_rewrite(t, &S.chain)) == 0)
		S.t = S.chain;
	if (rc == 0)
		rc = svg_setup(&S, err);
	if (rc == 0) {
		svg_header(&S);
		rc = svg_write_frames(&S, "frames", 0);
	}
	if (rc == 0 && S.Lb.f) { /* the BEFORE layer, drawn to its own total */
		struct layout keep = S.L;
		double tm = S.timemax, wpt = S.wpt;
		S.L = S.Lb;
		S.timemax = S.timemax_b;
		S.wpt = S.wpt_b;
		rc = svg_write_frames(&S, "frames-before", 1);
		S.L = keep;
		S.timemax = tm;
		S.wpt = wpt;
	}
	int erc = embed_join(&ej);
	if (rc == 0)
		rc = erc ? erc : svg_embed(&S, &ej);
	if (rc == 0) {
		svg_write_lib_panel(&S);
		svg_footer(&S);
		if (o->palette_file)
			rc = namemap_save_palette(&S.pal, o->palette_file, err);
	}
	if (rc == -ENOMEM)
		uf_err_set(err, UF_EINPUT, "render", "out of memory");
	else if (rc == -ERANGE)
		uf_err_set(err, UF_EINPUT, "render", "a count is too large to embed exactly (more than 95 "
			   "digits); use --embed=none");
	else if (rc == -EFBIG)
		uf_err_set(err, UF_EINPUT, "render", "the embedded profile would pack to 1 GiB of columns or "
			   "more, past what a reader takes; use --embed=auto with a smaller --embed-budget, "
			   "or --embed=none");
	else if (rc == 0 && ferror(out)) {
		uf_err_set(err, UF_EINPUT, "output", "write failed");
		rc = -EIO;
	}
	free(ej.buf);
	svg_libs_release(&S);
	svg_release(&S);
	return rc;
}

/* ---- setup -------------------------------------------------------------- */

static void choose_background(struct svg *S)
{
	const char *bg = S->o->bgcolors, *c = S->o->colors;
	static const char *const flat[] = { "red", "green", "blue", "aqua", "yellow", "purple",
					    "orange", NULL };
	if (!bg || !*bg) { /* flamegraph.pl's defaults; python and rust are multi palettes */
		bg = "yellow";
		if (!strcmp(c, "mem"))
			bg = "green";
		else if (!strcmp(c, "io") || !strcmp(c, "wakeup") || !strcmp(c, "chain"))
			bg = "blue";
		for (int i = 0; flat[i]; i++)
			if (!strcmp(c, flat[i]))
				bg = "grey";
	}
	static const char *const table[][3] = { { "yellow", "#eeeeee", "#eeeeb0" },
						{ "blue", "#eeeeee", "#e0e0ff" },
						{ "green", "#eef2ee", "#e0ffe0" },
						{ "grey", "#f8f8f8", "#e8e8e8" } };
	S->bg1 = S->bg2 = bg; /* "#rrggbb": flat (validated by the CLI) */
	for (size_t i = 0; i < sizeof table / sizeof table[0]; i++)
		if (!strcmp(bg, table[i][0])) {
			S->bg1 = table[i][1];
			S->bg2 = table[i][2];
		}
}

static int setup_diff(struct svg *S);

/* The deepest row holding a pruned box that is drawn (at least a pixel
 * wide, svg_pruned_px): only those may grow the canvas. */
static uint32_t visible_pruned_depth(const struct layout *L, double wpt)
{
	uint32_t d = 0;
	if (L->pruned_depthmax == 0)
		return 0;
	for (size_t i = 0; i < L->n; i++)
		if (L->f[i].runs_n && L->f[i].depth + 1 > d && svg_pruned_px(L, &L->f[i], wpt) >= 1.0)
			d = L->f[i].depth + 1;
	return d;
}

/* The height of the time view's panel (templates/js/88-heatmap.js: HEAT_H
 * 100 px of cells, HEAT_AXIS 16 of labels, 8 of gap) when the script will
 * draw one: the block carries a "time" section (any sample with a time or
 * a state) and the graph is neither a flame chart nor a differential.
 * The room is made here, above the header, so that no frame moves under
 * the pointer when the panel appears after the first paint (the script
 * used to grow the canvas then, moving every frame down by this much). */
static double heat_room(const struct svg *S)
{
	const struct render_opts *o = S->o;
	if (o->no_script || o->embed == RENDER_EMBED_NONE || o->flamechart || S->t->base ||
	    S->data->seq_when_len == 0)
		return 0;
	return 100 + 16 + 8;
}

static int svg_setup(struct svg *S, struct uf_err *err)
{
	const struct render_opts *o = S->o;
	const fold_trie *t = S->t;
	S->time = t->total[0];
	if (!(S->time > 0)) {
		uf_err_set(err, UF_EINPUT, "input", "no stack counts found");
		return -EINVAL;
	}
	S->timemax = S->time;
	if (o->total > 0) {
		if (o->total < S->time)
			S->rep->total_ignored = 1;
		else
			S->timemax = o->total;
	}
	S->xpad = 10;
	S->ypad1 = o->fontsize * 3;
	S->ypad2 = o->fontsize * 2 + 10;
	S->ypad3 = o->subtitle && *o->subtitle ? o->fontsize * 2 : 0;
	if (!strcmp(o->colors, "lib") && t->lib_of)
		S->ypad3 += o->fontsize * 2; /* the --colors=lib legend's line */
	S->wpt = (o->width - 2 * S->xpad) / S->timemax;
	S->factor = o->factor;
	double minw = o->minwidth_pct ? S->timemax * o->minwidth / 100 : o->minwidth / S->wpt;
	S->maxdelta = t->max_line_delta > 1 ? t->max_line_delta : 1;
	int rc = layout_build(t, o->flamechart, minw, 0, &S->L);
	if (rc == 0 && t->base)
		rc = setup_diff(S);
	if (rc)
		return rc;
	/* The differential's legend: its own rows above the frames, made by
	 * growing the canvas upward (as for pruned rows) so every frame keeps
	 * flamegraph.pl's coordinates; data-uf-legendh tells the script. */
	S->legend_h = t->base ? o->fontsize * 2 * svg_write_legend(S, 0, 0) : 0;
	uint32_t depthmax = S->L.depthmax, pdepth = visible_pruned_depth(&S->L, S->wpt);
	if (S->Lb.f) {
		uint32_t b = visible_pruned_depth(&S->Lb, S->wpt_b);
		depthmax = depthmax > S->Lb.depthmax ? depthmax : S->Lb.depthmax;
		pdepth = pdepth > b ? pdepth : b;
	}
	uint32_t rows = depthmax + 1;
	S->extra_rows = pdepth > depthmax ? pdepth - depthmax : 0;
	S->imageheight = rows * o->frameheight + S->ypad1 + S->ypad2 + S->ypad3;
	S->top = (o->inverted ? 0 : -(double)S->extra_rows * o->frameheight) - S->legend_h;
	S->height = S->imageheight + S->extra_rows * o->frameheight + S->legend_h;
	if (o->inverted)
		S->imageheight += S->extra_rows * o->frameheight;
	S->heat_room = heat_room(S);
	S->mode = o->random ? PALETTE_RANDOM : o->hash ? PALETTE_HASH : PALETTE_NAME;
	if (o->random)
		palette_rng_seed(&S->rng, (uint32_t)(uintptr_t)S ^ (uint32_t)clock());
	choose_background(S);
	if (o->palette_file && (rc = namemap_load(&S->pal, o->palette_file, "->", 1, err)))
		return rc;
	if (o->nameattr_file && (rc = namemap_load(&S->attrs, o->nameattr_file, "\t", 0, err)))
		return rc;
	S->rep->total = S->timemax;
	return escape_display(&S->countname, o->countname, strlen(o->countname));
}

/* BEFORE totals per subtree, the colour scale, and the BEFORE layer. */
static int setup_diff(struct svg *S)
{
	const fold_trie *t = S->t;
	const struct render_opts *o = S->o;
	if (S->t == S->data)
		S->base_total = embed_sums(S->ej);
	if (!S->base_total && !(S->base_total = embed_subtree_base(t)))
		return -ENOMEM;
	if (o->delta == RENDER_DELTA_TOTAL) {
		double m = 0;
		for (uint32_t i = 1; i < t->nnodes; i++)
			m = fmax(m, fabs(t->total[i] - S->base_total[i]));
		S->maxdelta = m > 0 ? m : 1;
	}
	diff_hint(S);
	if (!o->before_layer || o->no_script || !(S->base_total[0] > 0))
		return 0; /* without the script, nothing could show the hidden layer */
	uint32_t gone = 0;
	for (uint32_t i = 1; i < t->nnodes && !gone; i++)
		gone = t->total[i] == 0 && S->base_total[i] > 0;
	if (!gone)
		return 0; /* the hidden layer would show no frame the drawn one lacks */
	S->timemax_b = S->base_total[0];
	S->wpt_b = (o->width - 2 * S->xpad) / S->timemax_b;
	double minw = o->minwidth_pct ? S->timemax_b * o->minwidth / 100 : o->minwidth / S->wpt_b;
	return layout_build_base(t, o->flamechart, minw, S->base_total, &S->Lb);
}

/* The legend's note when BEFORE's and AFTER's totals differ by more than
 * a tenth and were not normalized (issue 31): every common frame then
 * reads as grown or shrunk by the change in sample count alone, so the
 * note says so and names --normalize.  Normalized totals are equal. */
static void diff_hint(struct svg *S)
{
	double b = S->base_total[0], a = S->t->total[0];
	if (S->o->swapped) {
		double x = a; a = b; b = x;
	}
	S->diff_hint[0] = 0;
	if (!(a > 0 && b > 0) || fabs(a / b - 1) <= 0.1)
		return;
	char bs[64], as[64];
	fold_format_count(bs, sizeof bs, uf_round_even(b * S->factor));
	fold_format_count(as, sizeof as, uf_round_even(a * S->factor));
	snprintf(S->diff_hint, sizeof S->diff_hint, "totals differ (%s \xe2\x86\x92 %s, \xc3\x97%.2f): "
		 "diff --normalize compares shares", bs, as, a / b);
}

static void svg_release(struct svg *S)
{
	layout_release(&S->L);
	layout_release(&S->Lb);
	free(S->base_total);
	namemap_release(&S->pal);
	namemap_release(&S->attrs);
	free(S->disp.buf);
	free(S->countname.buf);
	fold_trie_free(S->chain);
}

/* ---- header ------------------------------------------------------------- */

static void text_el(struct svg *S, const char *id, double x, double y, const char *extra,
		    const char *s)
{
	fprintf(S->out, "<text id=\"%s\" x=\"%.2f\" y=\"%.2f\"%s>", id, x, y, extra);
	escape_xml_any(S->out, s, strlen(s));
	fputs("</text>\n", S->out);
}

/* Header texts have no measured width before a browser lays them out, so
 * the renderer estimates: 0.62 of the font size a character (Verdana's
 * lower case averages 0.58, its digits and capitals run to 0.7), counting
 * UTF-8 characters, not bytes.  tests/browser/test-header.js checks the
 * header's real boxes at three widths in Chromium and Firefox. */
double svg_text_width(const char *s, size_t len, double fs)
{
	size_t chars = 0;
	for (size_t i = 0; i < len; i++)
		chars += ((unsigned char)s[i] & 0xc0) != 0x80;
	return (double)chars * fs * 0.62;
}

/* A centred text cut to `room` px with ".." (at a character boundary):
 * the title between the header's buttons, the subtitle within the canvas. */
static void title_el(struct svg *S, const char *id, double x, double y, const char *s, double fs,
		     double room)
{
	size_t len = strlen(s);
	if (svg_text_width(s, len, fs) <= room) {
		text_el(S, id, (int)x, y, "", s);
		return;
	}
	double budget = room - svg_text_width("..", 2, fs);
	size_t n = 0;
	while (n < len) {
		size_t next = n + 1;
		while (next < len && ((unsigned char)s[next] & 0xc0) == 0x80)
			next++;
		if (svg_text_width(s, next, fs) > budget)
			break;
		n = next;
	}
	fprintf(S->out, "<text id=\"%s\" x=\"%.2f\" y=\"%.2f\">", id, (double)(int)x, y);
	escape_xml_any(S->out, s, n);
	fputs("..</text>\n", S->out);
}

static void write_css(struct svg *S)
{
	FILE *out = S->out;
	char font[128];
	size_t n = 0;
	for (const char *p = S->o->fonttype; *p && n < sizeof font - 1; p++)
		if ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
		    *p == ' ' || *p == '-' || *p == ',' || *p == '_')
			font[n++] = *p;
	font[n] = 0;
	fprintf(out, "<style type=\"text/css\"><![CDATA[\n");
	fprintf(out, "text { font-family:%s; font-size:%gpx; fill:rgb(0,0,0); }\n", n ? font : "Verdana",
		S->o->fontsize);
	fprintf(out, "#title { text-anchor:middle; font-size:%gpx; }\n", S->o->fontsize + 5);
	fprintf(out, "#subtitle { text-anchor:middle; font-color:rgb(160,160,160); }\n");
	if (!S->o->no_script)
		fwrite(uf_tpl_flamegraph_css, 1, uf_tpl_flamegraph_css_len, out);
	fprintf(out, "]]></style>\n");
}

/* What the script needs to draw a zoom as `render` would (drill-down from
 * the embedded profile): the options that decide frames, colours and
 * tooltips.  Ends the <svg> start tag. */
static void svg_view_attrs(struct svg *S)
{
	const struct render_opts *o = S->o;
	FILE *out = S->out;
	char v[96];
	fold_format_count(v, sizeof v, o->factor);
	fprintf(out, " data-uf-factor=\"%s\" data-uf-minwidth=\"%g%s\" data-uf-palette=\"", v, o->minwidth,
		o->minwidth_pct ? "%" : "");
	escape_xml_any(out, o->colors, strlen(o->colors));
	fprintf(out, "\" data-uf-colormode=\"%s\" data-uf-flamechart=\"%d\"",
		o->random ? "random" : o->palette_file ? "map" : o->hash ? "hash" : "name", o->flamechart ? 1 : 0);
	if (S->t->base)
		fprintf(out, " data-uf-delta=\"%s\" data-uf-maxdelta=\"%.17g\" data-uf-negate=\"%d\" "
			     "data-uf-mindelta=\"%.17g\" data-uf-diffpalette=\"%s\" data-uf-swapped=\"%d\"",
			o->delta == RENDER_DELTA_TOTAL ? "total" : "self", S->maxdelta, o->negate ? 1 : 0,
			o->min_delta, o->diff_palette && !strcmp(o->diff_palette, "cb") ? "cb" : "red-blue",
			o->swapped ? 1 : 0);
	fputs(">\n", out);
}

static void svg_header(struct svg *S)
{
	const struct render_opts *o = S->o;
	FILE *out = S->out;
	double W = o->width, fs = o->fontsize, top = S->top;
	double vtop = top - S->heat_room, vheight = S->height + S->heat_room; /* the whole canvas */
	if (o->encoding) /* checked by the CLI: no quote or markup can be in it */
		fprintf(out, "<?xml version=\"1.0\" encoding=\"%s\" standalone=\"no\"?>\n", o->encoding);
	else
		fprintf(out, "<?xml version=\"1.0\" standalone=\"no\"?>\n");
	fprintf(out, "<svg version=\"1.1\" width=\"%g\" height=\"%g\" viewBox=\"0 %g %g %g\" id=\"uf\" "
		     "xmlns=\"http://www.w3.org/2000/svg\" xmlns:xlink=\"http://www.w3.org/1999/xlink\"",
		W, vheight, vtop, W, vheight);
	char total[96];
	fold_format_count(total, sizeof total, S->timemax * S->factor);
	fprintf(out, " data-uf-total=\"%s\" data-uf-countname=\"", total);
	escape_xml_any(out, o->countname, strlen(o->countname));
	fprintf(out, "\" data-uf-nametype=\"");
	escape_xml_any(out, o->nametype, strlen(o->nametype));
	fprintf(out, "\" data-uf-fontsize=\"%g\" data-uf-fontwidth=\"%g\" data-uf-xpad=\"%g\" "
		     "data-uf-width=\"%g\" data-uf-frameheight=\"%g\" data-uf-inverted=\"%d\" "
		     "data-uf-diff=\"%d\" data-uf-searchcolor=\"rgb(230,0,230)\"",
		fs, o->fontwidth, S->xpad, W, o->frameheight, o->inverted ? 1 : 0,
		S->t->base ? 1 : 0);
	if (S->legend_h > 0)
		fprintf(out, " data-uf-legendh=\"%g\"", S->legend_h);
	if (S->heat_room > 0)
		fprintf(out, " data-uf-heatroom=\"%g\"", S->heat_room);
	svg_view_attrs(S);
	fprintf(out, "<!-- Flame graph drawn by uniprof-flame; its profile data is embedded below. -->\n");
	if (o->notes && *o->notes) {
		fputs("<!-- NOTES: ", out);
		for (const char *p = o->notes; *p; p++) /* a comment may not contain "--" */
			fputc(*p == '-' && p[1] == '-' ? '_' : *p, out);
		fputs(" -->\n", out);
	}
	if (S->data->meta[0]) { /* how it was recorded (fold_meta_add), read back by fold/read-svg.c */
		fputs("<metadata id=\"uniprof-flame-meta\">\n", out);
		escape_xml(out, S->data->meta, strlen(S->data->meta));
		fputs("</metadata>\n", out);
	}
	if (S->data->lib_of) { /* the library of each function (fold_libs_write) */
		fputs("<metadata id=\"uniprof-flame-libs\">\n", out);
		fold_libs_write(S->data, out);
		fputs("</metadata>\n", out);
	}
	fprintf(out, "<defs>\n<linearGradient id=\"background\" y1=\"0\" y2=\"1\" x1=\"0\" x2=\"0\">\n"
		     "<stop stop-color=\"%s\" offset=\"5%%\"/>\n<stop stop-color=\"%s\" offset=\"95%%\"/>\n"
		     "</linearGradient>\n</defs>\n", S->bg1, S->bg2);
	write_css(S);
	fprintf(out, "<rect class=\"background\" x=\"0.0\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" "
		     "fill=\"url(#background)\"/>\n", vtop, W, vheight);
	if (S->heat_room > 0) /* what an image viewer, which runs no script, shows there */
		fprintf(out, "<text id=\"uf-heatnote\" x=\"%.2f\" y=\"%.2f\" fill=\"rgb(120,120,120)\" "
			     "style=\"text-anchor:middle\">time heat map: shown when this file is opened in a "
			     "browser</text>\n", W / 2, vtop + S->heat_room / 2);
	const char *title = o->title && *o->title ? o->title
			    : o->flamechart		? "Flame Chart"
			    : o->inverted		? "Icicle Graph"
						: "Flame Graph";
	svg_libs_setup(S);
	int libbutton = svg_has_lib_panel(S), showbefore = S->Lb.f != NULL;
	double row1 = fs * 2 + top, row = fs * (o->subtitle && *o->subtitle ? 6 : 4) + top;
	double librow = row; /* the --colors=lib legend: in ypad3, under the frames' top */
	/* Row 1: buttons at both ends, the title centred in the room between
	 * them (cut with ".." when it is wider: it never runs under a button). */
	double left = libbutton ? S->xpad + 100 + svg_text_width("Libraries", 9, fs)
				: S->xpad + svg_text_width("Reset Zoom", 10, fs);
	double right = W - S->xpad - (showbefore ? 190 : 100);
	double room = 2 * fmin(W / 2 - left, right - W / 2) - 2 * fs;
	title_el(S, "title", W / 2, row1, title, fs + 5, room);
	if (o->subtitle && *o->subtitle)
		title_el(S, "subtitle", W / 2, fs * 4 + top, o->subtitle, fs, W - 2 * S->xpad);
	if (S->t->base) /* its rows, between the titles and the frames */
		librow += fs * 2 * svg_write_legend(S, row, 1);
	if (!strcmp(o->colors, "lib") && S->t->lib_of)
		svg_write_lib_legend(S, librow);
	if (libbutton)
		text_el(S, "libbutton", S->xpad + 100, row1, "", "Libraries");
	double bottom = S->imageheight - S->ypad2 / 2;
	text_el(S, "details", S->xpad, bottom, "", " ");
	text_el(S, "unzoom", S->xpad, row1, " class=\"hide\"", "Reset Zoom");
	text_el(S, "search", W - S->xpad - 100, row1, "", "Search");
	text_el(S, "ignorecase", W - S->xpad - 16, row1, "", "ic");
	/* right-aligned (CSS) at the right margin: "Matched: 90.93% of view,
	 * 90.93% of total" started at W - 110 and was cut at the edge */
	text_el(S, "matched", W - S->xpad, bottom, "", " ");
	if (S->rep->total_ignored)
		fprintf(out, "<!-- --total was below the real total and was ignored -->\n");
	if (showbefore)
		text_el(S, "showbefore", W - S->xpad - 190, row1,
			o->swapped ? " data-other=\"Show before\"" : " data-other=\"Show after\"",
			o->swapped ? "Show after" : "Show before");
}

/* ---- footer ------------------------------------------------------------- */

static void svg_footer(struct svg *S)
{
	if (!S->o->no_script) {
		/* the code as an inert data block, then the one script the
		 * browser compiles before its first paint: the layer switch and
		 * templates/boot.js, which runs the code after that paint */
		fputs("<script type=\"application/x-uniprof-flame\" id=\"uf-code\"><![CDATA[\n", S->out);
		fwrite(uf_tpl_flamegraph_js, 1, uf_tpl_flamegraph_js_len, S->out);
		fputs("\n]]></script>\n<script type=\"text/ecmascript\"><![CDATA[\n", S->out);
		if (S->Lb.f) /* must run before flamegraph.js picks its layer */
			fwrite(uf_tpl_layers_js, 1, uf_tpl_layers_js_len, S->out);
		fwrite(uf_tpl_boot_js, 1, uf_tpl_boot_js_len, S->out);
		fputs("]]></script>\n", S->out);
	}
	fputs("</svg>\n", S->out);
}

/* The packed trie, in chunks below libxml2's per-text-node limit. */
static int svg_embed(struct svg *S, struct embed_job *j)
{
	if (S->o->embed == RENDER_EMBED_NONE)
		return 0;
	char *buf = j->buf;
	size_t len = j->len;
	S->rep->embed = j->info;
	S->rep->embed_pruned = S->rep->embed.nodes_written < S->rep->embed.nodes_total;
	if (S->rep->embed_pruned)
		fprintf(S->out, "<!-- uniprof-flame: the embedded profile was pruned to %u of %u call paths "
				"(subtrees under %g samples folded into their parents); "
				"render with embed=full to keep all -->\n",
			S->rep->embed.nodes_written, S->rep->embed.nodes_total, S->rep->embed.min_total);
	fprintf(S->out, "<metadata id=\"uniprof-flame-data\" data-format=\"uf-trie/1\" "
			"data-encoding=\"" FOLD_EMBED_ENCODING "\" data-pruned=\"%d\" data-nodes-total=\"%u\">\n",
		S->rep->embed_pruned, S->rep->embed.nodes_total);
	size_t pos = 0;
	while (pos < len) {
		size_t n = len - pos > EMBED_CHUNK ? EMBED_CHUNK : len - pos;
		const char *nl = n < len - pos ? memchr(buf + pos + n, '\n', len - pos - n) : NULL;
		if (nl)
			n = (size_t)(nl - (buf + pos)) + 1;
		fwrite(buf + pos, 1, n, S->out);
		pos += n;
		if (pos < len)
			fputs("<!-- -->", S->out);
	}
	fputs("\n</metadata>\n", S->out);
	return 0;
}

/* ---- --colors chain ------------------------------------------------------ */

/* flamegraph.pl's chain stacks: the model's rewrite (fold/model/rewrite.c). */
static int chain_rewrite(const fold_trie *t, fold_trie **out)
{
	return fold_rewrite_chain(t, out);
}
