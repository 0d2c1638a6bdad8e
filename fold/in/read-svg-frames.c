/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * fold/in/read-svg-frames.c — rebuilding a trie from a flame graph's drawn
 * frames, for SVGs written by flamegraph.pl or inferno (no embedded data).
 *
 * Each frame is a <g> holding a <title> "NAME (N samples, P%)" and a
 * <rect>.  Depth comes from the rect's y (rows are one frame height
 * apart; the widest frame is the root, at the bottom of a flame graph or
 * the top of an icicle); a frame's parent is the frame one row closer to
 * the root whose x range holds it; self = N - sum of the children's N.
 * This is approximate by nature: frames narrower than the writer's
 * minimum width were never drawn, counts are rounded, and annotations
 * such as _[k] were stripped by the writer.  The caller says so.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fold/in/in.h"
#include "fold/in/internal.h"
#include "util/vec.h"

#define MAX_FRAMES (16u * 1024 * 1024)

struct svg_frame {
	double x, y, w, n;
	uint32_t name;   /* interned in the target trie */
	uint32_t depth;
	uint32_t node;
};

static int frame_cmp(const void *a, const void *b)
{
	const struct svg_frame *p = a, *q = b;
	if (p->depth != q->depth)
		return p->depth < q->depth ? -1 : 1;
	return p->x < q->x ? -1 : p->x > q->x;
}

int fold_svg_frames_add(struct fold_svg_frames *fs, fold_trie *t, const char *title, double x,
			double y, double w)
{
	const char *nl = strchr(title, '\n');
	size_t len = nl ? (size_t)(nl - title) : strlen(title);
	const char *open = NULL;
	for (const char *p = title; p + 1 < title + len; p++) /* the last " (" */
		if (p[0] == ' ' && p[1] == '(')
			open = p;
	if (!open)
		return 1;
	double n = 0;
	const char *q = open + 2;
	int digits = 0;
	for (; *q && (*q == ',' || (*q >= '0' && *q <= '9')); q++)
		if (*q != ',') {
			n = n * 10 + (*q - '0');
			digits++;
		}
	if (!digits || *q != ' ' || (size_t)(open - title) > FOLD_MAX_NAME)
		return 1;
	if (digits > FOLD_MAX_COUNT_CHARS) /* 400 digits would make +inf, then NaN self times */
		return -ERANGE;
	if (!isfinite(x) || !isfinite(y) || !isfinite(w))
		return -EDOM;
	if (!(w >= 0))
		return 1;
	if (fs->n >= MAX_FRAMES)
		return -E2BIG;
	if (uf_vec_grow(&fs->f, &fs->cap, fs->n + 1, sizeof(struct svg_frame)))
		return -ENOMEM;
	uint32_t nm = fold_trie_intern(t, title, (size_t)(open - title));
	if (nm == FOLD_NONE)
		return -ENOMEM;
	((struct svg_frame *)fs->f)[fs->n++] = (struct svg_frame){ x, y, w, n, nm, 0, FOLD_NONE };
	return 0;
}

/* Index of the frame at `depth - 1` whose x range holds x, in the sorted
 * run lo..hi of that depth; FOLD_NONE when none does. */
static size_t find_parent(const struct svg_frame *f, size_t lo, size_t hi, double x)
{
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (f[mid].x + f[mid].w < x)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

int fold_svg_frames_build(struct fold_svg_frames *fs, fold_trie *t, struct uf_err *err,
			  const char *label)
{
	struct svg_frame *f = fs->f;
	if (fs->n == 0) {
		uf_err_set(err, UF_EINPUT, label, "SVG has no flame graph frames");
		return -EINVAL;
	}
	size_t root = 0;
	for (size_t i = 1; i < fs->n; i++)
		if (f[i].w > f[root].w)
			root = i;
	double fh = INFINITY, maxy = f[0].y;
	for (size_t i = 0; i < fs->n; i++) {
		double d = fabs(f[i].y - f[root].y);
		if (d > 0.5 && d < fh)
			fh = d;
		if (f[i].y > maxy)
			maxy = f[i].y;
	}
	int inverted = f[root].y < maxy;
	for (size_t i = 0; i < fs->n; i++) {
		/* rows from the root; clamped before rounding, so y="-1e300" (or
		 * any distance past the depth cap) is never converted out of range */
		double d = inverted ? f[i].y - f[root].y : f[root].y - f[i].y;
		double rows = isfinite(fh) && d > 0 ? d / fh : 0;
		f[i].depth = !(rows < FOLD_MAX_DEPTH + 1) ? FOLD_MAX_DEPTH + 1 : (uint32_t)lround(rows);
	}
	qsort(f, fs->n, sizeof *f, frame_cmp);
	/* the root is the one frame at depth 0; others there are stray */
	size_t start = 0, prev_lo = 0, prev_hi = 0;
	for (size_t i = 0; i < fs->n; i = start) {
		uint32_t d = f[i].depth;
		for (start = i; start < fs->n && f[start].depth == d; start++) {
			struct svg_frame *c = &f[start];
			if (d == 0) {
				c->node = start == i ? FOLD_ROOT : FOLD_NONE;
				fs->unplaced += start != i; /* a second root */
				continue;
			}
			size_t p = find_parent(f, prev_lo, prev_hi, c->x + c->w / 2);
			if (d > FOLD_MAX_DEPTH || p >= prev_hi || f[p].x > c->x + c->w / 2 ||
			    f[p].node == FOLD_NONE || f[p].depth + 1 != d) {
				fs->unplaced++; /* an orphan: its parent was not drawn */
				continue;
			}
			c->node = fold_trie_child(t, f[p].node, c->name);
			if (c->node == FOLD_NONE)
				return -ENOMEM;
		}
		prev_lo = i;
		prev_hi = start;
	}
	/* self = drawn count minus the children's */
	double *self = calloc(t->nnodes, sizeof *self);
	if (!self)
		return -ENOMEM;
	for (size_t i = 0; i < fs->n; i++)
		if (f[i].node != FOLD_NONE)
			self[f[i].node] += f[i].n;
	for (size_t i = 0; i < fs->n; i++)
		if (f[i].node != FOLD_NONE && f[i].node != FOLD_ROOT)
			self[t->parent[f[i].node]] -= f[i].n;
	int rc = 0;
	for (uint32_t i = 0; i < t->nnodes && rc == 0; i++)
		if (self[i] > 0)
			rc = fold_trie_add(t, i, self[i]);
	free(self);
	return rc;
}

void fold_svg_frames_release(struct fold_svg_frames *fs)
{
	free(fs->f);
	memset(fs, 0, sizeof *fs);
}
