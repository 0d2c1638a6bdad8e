/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * render/svg.h — state shared by the SVG writer's files (private).
 */
#ifndef UF_RENDER_SVG_H
#define UF_RENDER_SVG_H

#include <stdio.h>

#include "fold/embed/embed.h"
#include "fold/model/model.h"
#include "render/escape.h"
#include "render/layout.h"
#include "render/namemap.h"
#include "render/palette.h"
#include "render/render.h"

/* render/frames.c's output buffer (see there). */
struct outbuf {
	FILE *out;
	char *p;
	size_t len, cap;
};

/* render/frames.c's text of each drawn name, made once per name (see
 * there): a name repeats across frames (FlameGraph's example: 531 names,
 * 3,022 frames). */
struct name_text {
	size_t disp_off, xml_off;     /* in text: displayable (escape_display), and
					 with XML's entities (the same bytes when
					 it has none) */
	uint32_t disp_len, xml_len;   /* a name is at most FOLD_MAX_NAME bytes */
	uint32_t chars;               /* code points of the displayable form */
	char fill[20];                /* its colour, when it depends on the name only */
};

struct name_cache {
	uint32_t *slot;               /* name id (nnames: the root) -> entry + 1, 0 = not yet */
	struct name_text *e;
	size_t n, cap;
	char *text;                   /* the entries' bytes */
	size_t len, tcap;
	size_t count_len;             /* text[0..count_len): the count's name (--countname), escaped */
	int fill_by_name;             /* colours depend on the name alone */
};

/* render/frames.c's text that repeats across frames, made once per
 * frames pass (see there): each row's numbers with the literals around
 * them (they depend on the depth alone), and the tooltip's count text of
 * the counts seen last, direct-mapped by the count's bits. */
struct row_text {
	uint8_t ready, a_len, b_len, c_len;
	char a[48];                   /* `" y="Y1" width="` */
	char b[56];                   /* `" height="H" fill="` */
	char c[40];                   /* `" y="TY">`: the label's */
};

#define COUNT_SLOTS 128
struct count_slot {
	double samples;
	uint8_t used, txt_len, pct_len;
	char txt[32], pct[24];        /* a count whose text is longer is not kept */
};

struct frame_text {
	struct row_text *row;         /* by depth, grown as rows are drawn */
	size_t nrow;
	struct count_slot *count;     /* COUNT_SLOTS */
};

struct svg {
	const fold_trie *t;   /* what is drawn */
	const fold_trie *data;/* what is embedded: the input (t differs for --colors chain) */
	fold_trie *chain;     /* owned: flamegraph.pl's chain rewrite of the input, or NULL */
	const struct render_opts *o;
	FILE *out;
	struct render_report *rep;
	struct layout L;
	double time;          /* sum of counts */
	double timemax;       /* 100%: time, or --total */
	double wpt;           /* pixels per sample */
	double factor;
	double xpad, ypad1, ypad2, ypad3;
	double imageheight;   /* flamegraph.pl's height: frame y derive from it */
	double top, height;   /* the viewBox: may extend above y=0 (pruned rows) */
	uint32_t extra_rows;
	double maxdelta;      /* differential colour scale */
	enum palette_mode mode;
	struct palette_rng rng;
	const char *bg1, *bg2;
	struct namemap pal;   /* --cp */
	struct namemap attrs; /* --nameattr */
	struct display disp;  /* scratch */
	struct display countname; /* --countname, displayable */
	struct outbuf ob;     /* frames.c's, while it writes the frames */
	struct name_cache names; /* frames.c's, while it writes the frames */
	struct frame_text ftext; /* frames.c's, while it writes the frames */
	struct embed_job *ej; /* svg.c's embedded block, made on the side */
	/* differentials */
	double *base_total;   /* BEFORE count of each subtree; NULL unless differential */
	struct layout Lb;     /* the BEFORE layer (render_opts.before_layer) */
	double timemax_b, wpt_b;
	double legend_h;      /* px the differential's legend adds above the header */
	double heat_room;     /* px kept above the header for the script's time view */
	char diff_hint[192];  /* the legend's note when the totals differ, or "" */
	/* libraries (render/libpanel.c): shares, most self first; none when
	 * the names carry no library */
	struct fold_lib_share *libs;
	uint32_t nlibs;
};

/* Writes <g id="ID"> (hidden: class "hide") with the frames of S->L.
 * Returns 0 or -ENOMEM. */
int svg_write_frames(struct svg *S, const char *id, int hidden);
/* Width in px of frame f's pruned runs in layout L at wpt px per sample; a
 * pruned box narrower than a pixel shows nothing and is not written. */
double svg_pruned_px(const struct layout *L, const struct frame *f, double wpt);
/* The legend of a differential's colours on the line(s) from y down, in
 * rows of o->fontsize * 2 that wrap at the canvas' right edge, with
 * S->diff_hint last; writes nothing when !write.  Returns the rows used. */
int svg_write_legend(struct svg *S, double y, int write);
/* Width in px a header text of `len` bytes takes at font size fs: an
 * estimate, see svg.c. */
double svg_text_width(const char *s, size_t len, double fs);

/* render/libpanel.c: the libraries' shares into S->libs (none when the
 * names carry no library); the --colors=lib legend at y; whether the SVG
 * has the library panel (and its button); the panel, hidden, over the
 * frames; and S->libs freed. */
void svg_libs_setup(struct svg *S);
void svg_write_lib_legend(struct svg *S, double y);
int svg_has_lib_panel(const struct svg *S);
void svg_write_lib_panel(struct svg *S);
void svg_libs_release(struct svg *S);

#endif
