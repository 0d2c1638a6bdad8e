/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * render/layout.c — flamegraph.pl's flow(), over a trie.
 *
 * State: `open[0..top]` is the path of the previous line, each with the
 * time it opened.  A new line closes the open frames below the first
 * depth where its path differs, opens its own from there at the current
 * time, then advances time by its count.  A frame closes into a kept
 * frame, or, when narrower than minwidth, into its parent's pruned
 * summary; its own pruned children were summarized on it and are
 * discarded with it.
 *
 * A subtree whose frame will be narrower than minwidth is not flowed
 * line by line (skip_narrow): its lines only advance time and count the
 * frames they would have opened.  On inputs whose stacks share little,
 * nearly every node is such a frame: layout of little-1m took 0.35 s.
 *
 * A frame takes its slot in L->f when it opens, so the kept frames are
 * in pre-order, the order they are drawn in, with no sort: a frame that
 * closes pruned gives back its slot and its children's, the last ones
 * (they opened after it and, no wider, were pruned too).  A radix sort
 * of the frames by opening order was a quarter of the small capture's
 * layout instructions.
 *
 * Invariants:
 *  1. open[0] is the root, open from time 0 to the end.
 *  2. Kept frames nest: a kept frame's parent is kept (a parent is at
 *     least as wide as its child).
 *  3. The scratch run stack holds, for each open frame from the bottom,
 *     the merged spans of its pruned children, in time order.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "render/layout.h"
#include "util/vec.h"

/* Frames reserved before the walk, at most (4.5 MiB of address space,
 * touched only as frames are kept). */
#define LAYOUT_RESERVE 65536u

struct open {
	uint32_t node;
	double start;
	uint64_t seq;
	double delta;
	uint32_t runs_base;      /* where this frame's pruned spans start in scratch */
	uint32_t pruned_frames;
	double pruned_samples;
	uint8_t waker;
	size_t slot;             /* its place in L->f, taken when it opened */
};

struct flow {
	const fold_trie *t;
	struct layout *L;
	double minwidth;
	struct open *open;
	uint32_t top;            /* open[0..top] are open */
	uint64_t seq;
	double *scratch;         /* pruned spans of open frames */
	size_t nscratch, scratch_cap;
	int diff;
	const double *count;     /* widths: self, or base for the BEFORE layer */
	const double *seq_count;
	const double *subtotal;  /* count summed over each subtree (NULL: no skipping) */
	uint32_t same;           /* path[0 .. same) is still the open frames'
				    (unchanged since the last line: walk_trie
				    lowers it as it writes); 0: compare from 1 */
};

static int build_layout(const fold_trie *t, int flamechart, double minwidth_time, int use_base,
			const double *base_sums, struct layout *L);
static int flow_line(struct flow *F, const uint32_t *path, uint32_t depth, double count, double delta);
static int flow_close(struct flow *F, uint32_t depth);
static int keep_frame(struct flow *F, const struct open *o, uint32_t depth);
static int walk_trie(struct flow *F, uint32_t *path);
static int skip_narrow(struct flow *F, const uint32_t *path, uint32_t d, uint32_t c, uint32_t *stack);
static double *subtree_sums(const fold_trie *t, const double *count);
static int walk_sequence(struct flow *F, uint32_t *path);

int layout_build(const fold_trie *t, int flamechart, double minwidth_time, int use_base,
		 struct layout *L)
{
	return build_layout(t, flamechart, minwidth_time, use_base, NULL, L);
}

int layout_build_base(const fold_trie *t, int flamechart, double minwidth_time,
		      const double *base_sums, struct layout *L)
{
	return build_layout(t, flamechart, minwidth_time, 1, base_sums, L);
}

/* base_sums: t->base summed over each subtree (subtree_sums), or NULL to
 * sum them here when they are needed. */
static int build_layout(const fold_trie *t, int flamechart, double minwidth_time, int use_base,
			const double *base_sums, struct layout *L)
{
	memset(L, 0, sizeof *L);
	use_base = use_base && t->base;
	struct flow F = { .t = t, .L = L, .minwidth = minwidth_time, .diff = t->base != NULL,
			  .count = use_base ? t->base : t->self,
			  .seq_count = use_base && t->seq_base ? t->seq_base : t->seq_count };
	uint32_t *path = malloc(((size_t)t->maxdepth + 2) * sizeof *path);
	F.open = calloc((size_t)t->maxdepth + 2, sizeof *F.open);
	double *own = NULL;
	int rc = -ENOMEM;
	/* a frame a node at once, up to LAYOUT_RESERVE (kept frames are at
	 * most the nodes, but for a flame chart's): grown by doubling, the
	 * frames were copied into fresh pages at each step, 26 of the page
	 * faults of rendering FlameGraph's 646 KB example */
	if (!path || !F.open ||
	    uf_vec_grow(&L->f, &L->cap, t->nnodes < LAYOUT_RESERVE ? t->nnodes : LAYOUT_RESERVE, sizeof *L->f))
		goto out;
	F.open[0] = (struct open){ .node = FOLD_ROOT, .seq = F.seq++, .slot = L->n++ };
	if (minwidth_time > 0 && !(flamechart && t->seq_node) && t->total) {
		F.subtotal = !use_base ? t->total : base_sums ? base_sums : (own = subtree_sums(t, t->base));
		if (!F.subtotal)
			goto out;
	}
	rc = flamechart && t->seq_node ? walk_sequence(&F, path) : walk_trie(&F, path);
	for (uint32_t d = F.top + 1; rc == 0 && d-- > 0;)
		rc = flow_close(&F, d);
out:
	free(own);
	free(path);
	free(F.open);
	free(F.scratch);
	if (rc)
		layout_release(L);
	return rc;
}

void layout_release(struct layout *L)
{
	free(L->f);
	free(L->runs);
	memset(L, 0, sizeof *L);
}

/* Lines in flamegraph.pl's sorted order: a depth-first walk of the entries. */
static int walk_trie(struct flow *F, uint32_t *path)
{
	const fold_trie *t = F->t;
	uint32_t *next = malloc(((size_t)t->maxdepth + 2) * sizeof *next);
	uint32_t *stack = F->subtotal ? malloc(((size_t)t->maxdepth + 2) * 3 * sizeof *stack) : NULL;
	if (!next || (F->subtotal && !stack)) {
		free(next);
		free(stack);
		return -ENOMEM;
	}
	int rc = 0;
	path[0] = FOLD_ROOT;
	if (F->count[0] != 0)
		rc = flow_line(F, path, 0, F->count[0], t->base ? t->self[0] - t->base[0] : 0);
	uint32_t d = 0;
	next[0] = t->eoff[0];
	while (rc == 0) {
		uint32_t p = path[d];
		if (next[d] == t->eoff[p + 1]) {
			if (d-- == 0)
				break;
			continue;
		}
		uint32_t e = t->ent[next[d]++], c = e & ~FOLD_ENTRY_SELF;
		path[d + 1] = c;
		if (F->same > d + 1)
			F->same = d + 1;
		if (e & FOLD_ENTRY_SELF) {
			rc = flow_line(F, path, d + 1, F->count[c], t->base ? t->self[c] - t->base[c] : 0);
		} else if (F->subtotal && (rc = skip_narrow(F, path, d, c, stack)) != 0) {
			rc = rc < 0 ? rc : 0; /* 1: c's subtree was replayed, c left open */
		} else {
			d++;
			next[d] = t->eoff[c];
		}
	}
	free(next);
	free(stack);
	return rc;
}

/* Subtree entry of c (at depth d + 1, under path[0..d]): when c's frame
 * will be narrower than minwidth, so will every frame above it, and they
 * all fold into c, which folds into its parent.  Then their lines are
 * not laid out one by one: c's frame is opened (or stays open after its
 * own line), time advances by each line's count in the order the walk
 * would add them (the same doubles, bit for bit), and the frames flow()
 * would have opened are counted into c's pruned_frames: per list, its
 * entries less each child whose own line and subtree are adjacent (one
 * frame).  Returns 1 when skipped, 0 to walk it, <0 on error.  The test
 * uses subtree sums added in another order: a margin of 1e-6 keeps any
 * frame near minwidth on the exact path. */
static int skip_narrow(struct flow *F, const uint32_t *path, uint32_t d, uint32_t c, uint32_t *stack)
{
	const fold_trie *t = F->t;
	int open = F->top >= d + 1 && F->open[d + 1].node == c; /* after c's own line */
	double width = open ? F->L->time - F->open[d + 1].start : 0;
	if (!(width + (F->subtotal[c] - F->count[c]) < F->minwidth * (1 - 1e-6)))
		return 0;
	if (!open) {
		int rc = flow_line(F, path, d + 1, 0, 0); /* opens c; adds no time */
		if (rc)
			return rc;
	}
	/* walk_trie's order: per level, the node, its next entry, the last child seen */
	uint32_t *node = stack, *pos = stack + t->maxdepth + 2, *prev = pos + t->maxdepth + 2;
	uint64_t frames = 0;
	double time = F->L->time;
	uint32_t sp = 0;
	node[0] = c;
	pos[0] = t->eoff[c];
	prev[0] = FOLD_NONE;
	for (;;) {
		uint32_t p = node[sp];
		if (pos[sp] == t->eoff[p + 1]) {
			if (sp-- == 0)
				break;
			continue;
		}
		uint32_t e = t->ent[pos[sp]++], x = e & ~FOLD_ENTRY_SELF;
		frames += x != prev[sp];
		prev[sp] = x;
		if (e & FOLD_ENTRY_SELF) {
			time += F->count[x];
		} else {
			node[++sp] = x;
			pos[sp] = t->eoff[x];
			prev[sp] = FOLD_NONE;
		}
	}
	F->L->time = time;
	F->open[d + 1].pruned_frames += (uint32_t)frames;
	return 1;
}

/* count summed over each subtree (a parent's id is below its children's);
 * owned, NULL when out of memory. */
static double *subtree_sums(const fold_trie *t, const double *count)
{
	double *s = malloc((size_t)t->nnodes * sizeof *s);
	if (!s)
		return NULL;
	memcpy(s, count, (size_t)t->nnodes * sizeof *s);
	for (uint32_t i = t->nnodes - 1; i > 0; i--)
		s[t->parent[i]] += s[i];
	return s;
}

/* Lines in input order (flame charts). */
static int walk_sequence(struct flow *F, uint32_t *path)
{
	const fold_trie *t = F->t;
	for (size_t i = 0; i < t->seq_len; i++) {
		uint32_t n = t->seq_node[i], d = fold_trie_depth(t, n);
		for (uint32_t k = d + 1; k-- > 0; n = t->parent[n])
			path[k] = n;
		double delta = t->seq_base ? t->seq_count[i] - t->seq_base[i] : 0;
		F->same = 0; /* the whole path written again */
		int rc = flow_line(F, path, d, F->seq_count[i], delta);
		if (rc)
			return rc;
	}
	return 0;
}

static int flow_line(struct flow *F, const uint32_t *path, uint32_t depth, double count, double delta)
{
	/* the frames the line shares with the open ones: from where the walk
	 * says its path changed (the path of a real capture's line is ~25
	 * frames, nearly all shared with the line before) */
	uint32_t i = F->same > 1 ? F->same : 1;
	if (i > F->top + 1)
		i = F->top + 1;
	if (i > depth + 1)
		i = depth + 1;
	while (i <= F->top && i <= depth && F->open[i].node == path[i])
		i++;
	for (uint32_t d = F->top + 1; d-- > i;) {
		int rc = flow_close(F, d);
		if (rc)
			return rc;
	}
	for (uint32_t d = i; d <= depth; d++) {
		if (uf_vec_grow(&F->L->f, &F->L->cap, F->L->n + 1, sizeof *F->L->f))
			return -ENOMEM;
		const struct open *up = &F->open[d - 1];
		size_t nlen;
		const char *nm = fold_node_name(F->t, up->node, &nlen);
		F->open[d] = (struct open){
			.node = path[d],
			.start = F->L->time,
			.seq = F->seq++,
			.delta = d == depth ? delta : 0,
			.runs_base = (uint32_t)F->nscratch,
			.slot = F->L->n++,
			.waker = up->waker || (d > 1 && nlen == 2 && nm[0] == '-' && nm[1] == '-'),
		};
	}
	F->top = depth;
	F->L->time += count;
	F->same = depth + 1;
	return 0;
}

static int flow_close(struct flow *F, uint32_t depth)
{
	struct open *o = &F->open[depth];
	double width = F->L->time - o->start;
	if (depth == 0 || !(width < F->minwidth))
		return keep_frame(F, o, depth);
	struct open *up = &F->open[depth - 1];
	F->L->n = o->slot; /* its slot and its pruned children's, the last ones */
	up->pruned_frames += 1 + o->pruned_frames;
	up->pruned_samples += width;
	F->nscratch = o->runs_base; /* its own pruned children go with it */
	if (F->nscratch > up->runs_base && F->scratch[F->nscratch - 1] == o->start) {
		F->scratch[F->nscratch - 1] = F->L->time;
		return 0;
	}
	if (uf_vec_grow(&F->scratch, &F->scratch_cap, F->nscratch + 2, sizeof *F->scratch))
		return -ENOMEM;
	F->scratch[F->nscratch++] = o->start;
	F->scratch[F->nscratch++] = F->L->time;
	return 0;
}

static int keep_frame(struct flow *F, const struct open *o, uint32_t depth)
{
	struct layout *L = F->L;
	size_t nruns = F->nscratch - o->runs_base;
	struct frame *f = &L->f[o->slot];
	*f = (struct frame){ .node = o->node, .depth = depth, .start = o->start, .end = L->time,
			     .delta = o->delta, .seq = o->seq, .runs_off = (uint32_t)L->nruns,
			     .runs_n = (uint32_t)(nruns / 2), .pruned_frames = o->pruned_frames,
			     .pruned_samples = o->pruned_samples, .waker = o->waker };
	if (nruns) {
		if (uf_vec_grow(&L->runs, &L->runs_cap, L->nruns + nruns, sizeof *L->runs))
			return -ENOMEM;
		memcpy(L->runs + L->nruns, F->scratch + o->runs_base, nruns * sizeof *L->runs);
		L->nruns += nruns;
		if (depth + 1 > L->pruned_depthmax)
			L->pruned_depthmax = depth + 1;
	}
	F->nscratch = o->runs_base;
	if (depth > L->depthmax)
		L->depthmax = depth;
	return 0;
}

