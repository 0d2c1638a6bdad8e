/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * render/layout.h — frames placed on the time axis (private to render/).
 *
 * One layout engine serves flame graphs and flame charts: it replays a
 * sequence of "lines" (a leaf node and a count) and merges each line's
 * path with the previous one, exactly as flamegraph.pl's flow() does.
 * For a flame graph the lines come from a walk of the trie in
 * flamegraph.pl's sibling order; for a flame chart from the input order.
 */
#ifndef UF_RENDER_LAYOUT_H
#define UF_RENDER_LAYOUT_H

#include <stddef.h>
#include <stdint.h>

#include "fold/model/model.h"

struct frame {
	uint32_t node;           /* trie node; 0 is the root ("all") */
	uint32_t depth;
	double start, end;       /* on the time axis, in samples */
	double delta;            /* AFTER - BEFORE of the lines ending here */
	uint64_t seq;            /* opening order: sorting by it gives pre-order */
	uint32_t runs_off;       /* pruned children spans: runs[runs_off .. +2*runs_n) */
	uint32_t runs_n;
	uint32_t pruned_frames;  /* frames removed under this one by minwidth */
	double pruned_samples;   /* samples of this frame's removed children */
	uint8_t waker;           /* above a "--" frame (chain palette) */
};

struct layout {
	struct frame *f;         /* kept frames, in pre-order */
	size_t n, cap;
	double *runs;            /* start,end pairs of pruned children, merged */
	size_t nruns, runs_cap;  /* doubles used */
	double time;             /* sum of all counts */
	uint32_t depthmax;       /* deepest kept frame */
	uint32_t pruned_depthmax;/* deepest row holding a pruned aggregate */
};

/* Lays out the finished trie.  Frames narrower than minwidth_time (in
 * samples) are dropped and summarized on their parent.  With use_base, a
 * differential is laid out by its BEFORE counts.  Returns 0 or
 * -ENOMEM; release with layout_release(). */
int layout_build(const fold_trie *t, int flamechart, double minwidth_time, int use_base,
		 struct layout *L);
/* layout_build(t, flamechart, minwidth_time, 1, L) with the BEFORE
 * counts summed over each subtree given (borrowed: each node's base plus
 * its descendants', added from the last node to the first into its
 * parent, as render/svg.c sums them), so they are summed once. */
int layout_build_base(const fold_trie *t, int flamechart, double minwidth_time,
		      const double *base_sums, struct layout *L);
void layout_release(struct layout *L);

#endif
