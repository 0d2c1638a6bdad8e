/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * render/render.h — folded call-path tries drawn as SVG flame graphs,
 * icicle charts, flame charts and differential flame graphs.
 *
 * The renderer reproduces flamegraph.pl's geometry exactly (same frames,
 * x/width to 0.1 px, same name-keyed colours) and adds: an interactive
 * script from templates/, honest pruning (one grey aggregate per parent
 * for children narrower than --minwidth), and the trie embedded in the
 * file so `fold`, `diff` and `render` can read an SVG back losslessly.
 *
 * Output is a pure function of (trie, options): byte-identical across
 * runs and across input line orders (except flame charts, whose x axis
 * is input order, and --random colours).
 */
#ifndef UF_RENDER_H
#define UF_RENDER_H

#include <stddef.h>
#include <stdio.h>

#include "fold/embed/embed.h"
#include "fold/model/model.h"
#include "util/err.h"

enum render_embed { RENDER_EMBED_AUTO, RENDER_EMBED_FULL, RENDER_EMBED_NONE };
enum render_delta { RENDER_DELTA_SELF, RENDER_DELTA_TOTAL };

struct render_opts {
	const char *title;        /* NULL: "Flame Graph" / "Icicle Graph" / "Flame Chart" */
	const char *subtitle;     /* NULL: none */
	double width;             /* image width, px (1200) */
	double frameheight;       /* --height, px (16) */
	const char *fonttype;     /* "Verdana" */
	double fontsize;          /* 12 */
	double fontwidth;         /* 0.59 */
	double minwidth;          /* 0.1 */
	int minwidth_pct;         /* minwidth is a % of the total */
	const char *countname;    /* "samples" */
	const char *nametype;     /* "Function:" */
	const char *colors;       /* palette name, "hot" */
	const char *bgcolors;     /* NULL: by palette; yellow|blue|green|grey|#rrggbb */
	int hash;                 /* --hash: colour by name hash (flamegraph.pl) */
	int random;               /* --random colours */
	const char *palette_file; /* --cp: read and update this palette.map; NULL = off */
	int reverse;              /* input stacks leaf first (applied by readers: the CLI
	                             passes it in struct fold_read_opts) */
	int inverted;             /* icicle */
	int flamechart;           /* x axis is input order */
	int by_lib;               /* --by=lib: the CLI merges frames of one library first */
	const char *callers;      /* --callers NAME: the CLI draws NAME's callers (fold_sandwich) */
	const char *callees;      /* --callees NAME: ... or its callees */
	int negate;               /* swap differential hues */
	double factor;            /* multiply counts in tooltips (1) */
	double total;             /* --total: width of 100%; 0 = sum of counts */
	const char *notes;        /* embedded comment, NULL = none */
	const char *encoding;     /* --encoding: label in the XML declaration (the bytes
	                             are always UTF-8), NULL = none, as flamegraph.pl */
	const char *nameattr_file;/* --nameattr FILE, NULL = none */
	enum render_embed embed;  /* embedded trie: auto (budget), full, none */
	size_t embed_budget;      /* bytes for RENDER_EMBED_AUTO */
	int no_script;            /* omit the script (tests; plain image) */
	/* differential (a trie with BEFORE counts) */
	enum render_delta delta;  /* colour by self change (flamegraph.pl) or total */
	double min_delta;         /* changes below this % of the total are grey */
	const char *diff_palette; /* "red-blue" (flamegraph.pl) or "cb" (colour-blind safe) */
	int before_layer;         /* also draw the BEFORE widths as a hidden layer */
	int swapped;              /* the trie's roles are swapped (diff --negate): its
				     "after" is the user's BEFORE */
};

/* Sets every field to flamegraph.pl's default. */
void render_opts_init(struct render_opts *o);

struct render_report {
	size_t frames;            /* frames drawn */
	size_t pruned_groups;     /* grey aggregate boxes */
	double total;             /* samples at 100% */
	struct fold_embed_info embed;
	int embed_pruned;         /* the embedded trie was pruned to the budget */
	int total_ignored;        /* --total below the real total was ignored */
	size_t attrs_refused;     /* --nameattr attributes left out (event handlers,
	                             javascript: values, bad names), per frame drawn */
	char attr_refused[64];    /* the first one's name */
};

/* Draws the finished trie `t` (borrowed) as SVG into `out`.
 * Returns 0, or <0 with *err (I/O, memory, unreadable --cp/--nameattr). */
int render_svg(const fold_trie *t, const struct render_opts *o, FILE *out,
	       struct render_report *rep, struct uf_err *err);

/* Colour of `name` under palette `colors` (flamegraph.pl's formulas);
 * writes "rgb(r,g,b)" into buf.  Returns 0, or -EINVAL for an unknown
 * palette. */
int render_color(const char *colors, int hash, const char *name, size_t len,
		 char *buf, size_t size);
/* Is `colors` a palette name we know? */
int render_palette_known(const char *colors);

#endif
