/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * render/libpanel.c — what an SVG shows of a profile's libraries (when its
 * names carry them: a recording, or an SVG of one read back): the
 * `--colors=lib` legend under the titles, and the library panel, a table
 * of each library's self and total share that the "Libraries" button opens
 * over the frames (templates/flamegraph.js toggles it).
 *
 * Trade-off: the panel is drawn by the renderer as plain SVG text, not
 * built by the script from the embedded data: it is the same table record
 * prints on stderr (fold_lib_shares), it costs a few hundred bytes, and a
 * reader of the file sees the figures without running anything.  It shows
 * the whole profile; it does not follow a zoom.
 *
 * Invariants:
 *  1. Both the legend and the panel list libraries most self samples first
 *     (fold_lib_shares' order): the legend is the panel's first rows.
 *  2. The panel is written only with the script (hidden until opened):
 *     without the script's style sheet it would cover the frames.
 *  3. It is written after the frames, so it is drawn over them.
 */
#include <stdlib.h>
#include <string.h>

#include "render/svg.h"

enum {
	LEGEND_MAX = 16, /* libraries in the --colors=lib legend */
	PANEL_ROWS = 20, /* libraries in the panel (record's table shows as many) */
};

void svg_libs_setup(struct svg *S)
{
	S->libs = NULL;
	S->nlibs = 0;
	if (S->t->lib_of && S->t->total && S->t->total[0] > 0 &&
	    fold_lib_shares(S->t, &S->libs, &S->nlibs) != 0)
		S->nlibs = 0; /* out of memory: no legend, no panel; the frames still drawn */
}

void svg_write_lib_legend(struct svg *S, double y)
{
	fprintf(S->out, "<text id=\"legend\" x=\"%.2f\" y=\"%.2f\">", S->xpad, y);
	uint32_t n = S->nlibs < LEGEND_MAX ? S->nlibs : LEGEND_MAX;
	for (uint32_t k = 0; k < n; k++) {
		size_t ln;
		const char *s = fold_trie_name(S->t, S->libs[k].lib, &ln);
		char c[40];
		palette_lib_color(s, ln, c, sizeof c);
		fprintf(S->out, "<tspan fill=\"%s\">\xe2\x96\xa0</tspan> ", c);
		escape_xml_any(S->out, s, ln);
		fputs(k + 1 < n ? "   " : "", S->out);
	}
	fputs("</text>\n", S->out);
}

int svg_has_lib_panel(const struct svg *S)
{
	return S->nlibs > 0 && !S->o->no_script;
}

/* One row: swatch, name, self and total shares, right-aligned. */
static void panel_row(struct svg *S, double x, double y, double w, const struct fold_lib_share *r)
{
	size_t ln;
	const char *s = fold_trie_name(S->t, r->lib, &ln);
	double fs = S->o->fontsize, all = S->t->total[0];
	char c[40];
	palette_lib_color(s, ln, c, sizeof c);
	fprintf(S->out, "<rect x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" height=\"%.2f\" fill=\"%s\"/>\n",
		x + 8, y - fs * 0.8, fs * 0.8, fs * 0.8, c);
	fprintf(S->out, "<text x=\"%.2f\" y=\"%.2f\">", x + 8 + fs * 1.3, y);
	size_t keep = ln > 40 ? 40 : ln; /* the panel's width: longer names cut */
	escape_xml_any(S->out, s, keep);
	fputs(keep < ln ? "..</text>\n" : "</text>\n", S->out);
	fprintf(S->out, "<text class=\"num\" x=\"%.2f\" y=\"%.2f\">%.1f%%</text>\n", x + w - 80, y,
		100 * r->self / all);
	fprintf(S->out, "<text class=\"num\" x=\"%.2f\" y=\"%.2f\">%.1f%%</text>\n", x + w - 10, y,
		100 * r->total / all);
}

void svg_write_lib_panel(struct svg *S)
{
	if (!svg_has_lib_panel(S))
		return;
	double fs = S->o->fontsize, W = S->o->width;
	double w = W - 2 * S->xpad < 460 ? W - 2 * S->xpad : 460;
	double x = S->xpad, y = S->top + fs * 3, row = fs * 1.5;
	uint32_t n = S->nlibs < PANEL_ROWS ? S->nlibs : PANEL_ROWS;
	double h = row * (n + 3 + (S->nlibs > n));
	fputs("<g id=\"libpanel\" class=\"hide\">\n", S->out);
	fprintf(S->out, "<rect x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" height=\"%.2f\" rx=\"3\" "
			"fill=\"rgb(255,255,255)\" fill-opacity=\"0.96\" stroke=\"rgb(128,128,128)\"/>\n",
		x, y, w, h);
	double ty = y + row;
	fprintf(S->out, "<text x=\"%.2f\" y=\"%.2f\" font-weight=\"bold\">Library</text>\n", x + 8, ty);
	fprintf(S->out, "<text class=\"num\" x=\"%.2f\" y=\"%.2f\" font-weight=\"bold\">self</text>\n",
		x + w - 80, ty);
	fprintf(S->out, "<text class=\"num\" x=\"%.2f\" y=\"%.2f\" font-weight=\"bold\">total</text>\n",
		x + w - 10, ty);
	for (uint32_t k = 0; k < n; k++)
		panel_row(S, x, ty + row * (k + 1), w, &S->libs[k]);
	if (S->nlibs > n)
		fprintf(S->out, "<text x=\"%.2f\" y=\"%.2f\">(%u more libraries)</text>\n", x + 8,
			ty + row * (n + 1), S->nlibs - n);
	fprintf(S->out, "<text x=\"%.2f\" y=\"%.2f\" fill=\"rgb(96,96,96)\">self: own code \xc2\xb7 "
			"total: with callees \xc2\xb7 click to close</text>\n",
		x + 8, y + h - row * 0.6);
	fputs("</g>\n", S->out);
}

void svg_libs_release(struct svg *S)
{
	free(S->libs);
	S->libs = NULL;
	S->nlibs = 0;
}
