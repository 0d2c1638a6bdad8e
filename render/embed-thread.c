/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * render/embed-thread.c — the SVG's embedded block (fold/embed/), made
 * beside the layout and the frames and handed to render/svg.c, which
 * writes it in its place after them.  Moved out of svg.c so that file
 * reads as the document; nothing here writes to the SVG.
 *
 * Design: the block reads only the trie, as layout and frames do, so a
 * big trie (EMBED_THREAD_NODES call paths and more) gets it on a second
 * thread; a small one makes it inline (a thread costs more than it
 * saves).  A differential's BEFORE totals per subtree are summed first
 * on that thread and handed to the drawing thread (embed_sums), which
 * needs them for its colours.  The block is deflated here too, by
 * libdeflate; from FOLD_EMBED_SPLIT_FROM bytes of columns in two parts
 * (fold/embed/embed.h, embed_encode): this thread makes part 0 and
 * publishes part 1, which the drawing thread takes once its frames are
 * out (embed_join: on the call-tree shapes it is idle there for the
 * whole deflate, tree-100k's 1.09 MB of columns 7-10 ms -> ~5 ms), and
 * which this thread makes itself after part 0 when nobody took it (the
 * diff: its drawing thread is the later one).  Past the budget the
 * block is redone smaller, at most EMBED_TRIES passes.
 *
 * Trade-off: a mutex and a condition variable on a job struct the
 * caller owns, rather than a general work queue: there are exactly two
 * hand-overs (the sums, a deflate's part 1).  The parts are joined by
 * inflating part 0 to find its last block (libdeflate cannot end a part
 * on a flush): ~2 ms of CPU more than one call, paid on a core that was
 * idle, and the reason part 0 is the smaller.
 *
 * Invariants:
 *  1. embed_join() is called exactly once after embed_start(), on every
 *     path; after it no thread touches the job, and j->buf (owned by the
 *     caller) holds the block when it returned 0.
 *  2. The sums are freed exactly once: by the caller after embed_sums()
 *     handed them over, else by embed_join().
 *  3. The block's bytes do not depend on the threads: the split is fixed
 *     by the columns' length, and either thread makes part 1 alike.
 *  4. A published part 1 is made exactly once (part1_taken, under mu),
 *     and embed_encode returns only after it is done: the drawing thread
 *     never reads the split after the pass that owns it.
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "render/embed-thread.h"
#include "util/memfile.h"

#define EMBED_THREAD_NODES 50000u /* tries from this size embed on a second thread */
#define EMBED_TRIES 3              /* passes at most to bring the packed block within budget */

/* t->base summed over each subtree (a parent's id is below its
 * children's); owned, NULL when out of memory. */
double *embed_subtree_base(const fold_trie *t)
{
	double *s = malloc((size_t)t->nnodes * sizeof *s);
	if (!s)
		return NULL;
	memcpy(s, t->base, (size_t)t->nnodes * sizeof *s);
	for (uint32_t i = t->nnodes - 1; i > 0; i--)
		s[t->parent[i]] += s[i];
	return s;
}

/* The bytes to reserve for a pass's columns: the whole trie's (its
 * names, with their 8-byte records, and 8 bytes a node, above what a
 * node line takes on the bench's shapes) or, when that is more, what
 * the budget lets through with the writer's overshoot (a few %).  Too
 * much costs address space only: pages never written are never touched;
 * too little, a realloc (util/memfile.h). */
static size_t columns_reserve(const fold_trie *t, size_t col_budget)
{
	size_t all = t->nbuf_len + (size_t)t->nnodes * 8 + 64;
	size_t cut = col_budget == 0 || col_budget > SIZE_MAX / 2 ? SIZE_MAX : col_budget + col_budget / 8;
	return all < cut ? all : cut;
}

/* The drawing thread's share of a split deflate (embed_join): part 1,
 * when the embed thread has published one that nobody has taken. */
static int take_part(struct embed_job *j)
{
	struct fold_embed_split *s = j->split;
	if (!s || j->part1_taken)
		return 0;
	j->part1_taken = 1;
	pthread_mutex_unlock(&j->mu);
	fold_embed_split_part(s, 1);
	pthread_mutex_lock(&j->mu);
	j->part1_done = 1;
	pthread_cond_broadcast(&j->cv);
	return 1;
}

/* Columns -> the block: a large one's deflate in two parts (embed.h),
 * the second published for the drawing thread, which takes it once its
 * frames are out (embed_join), else made here after the first.  The
 * bytes are the same either way (invariant 3). */
static int embed_encode(struct embed_job *j, const char *cols, size_t n, char **out, size_t *outlen)
{
	struct fold_embed_split s;
	if (!j->locking || !fold_embed_split_init(&s, cols, n, j->budget))
		return fold_embed_encode(cols, n, j->budget, out, outlen);
	pthread_mutex_lock(&j->mu);
	j->split = &s;
	j->part1_taken = j->part1_done = 0;
	pthread_cond_broadcast(&j->cv);
	pthread_mutex_unlock(&j->mu);
	fold_embed_split_part(&s, 0);
	pthread_mutex_lock(&j->mu);
	take_part(j); /* nobody came for it: made here */
	while (!j->part1_done)
		pthread_cond_wait(&j->cv, &j->mu);
	j->split = NULL;
	pthread_mutex_unlock(&j->mu);
	return fold_embed_split_finish(&s, out, outlen);
}

/* One try at the block: its columns within col_budget (0: all), encoded. */
static int embed_pass(struct embed_job *j, const double *sums, size_t col_budget)
{
	char *packed = NULL;
	struct uf_memfile m;
	FILE *mem = uf_memfile_open(&m, columns_reserve(j->t, col_budget));
	if (!mem)
		return -ENOMEM;
	int rc = fold_embed_write_columns_base(j->t, mem, col_budget, sums, &j->info);
	if (fclose(mem) != 0 && rc == 0)
		rc = -ENOMEM;
	char *cols = m.buf;
	size_t n = m.len;
	if (rc == 0)
		rc = embed_encode(j, cols, n, &packed, &n);
	free(cols);
	if (rc == 0) {
		free(j->buf);
		j->buf = packed;
		j->len = n;
	}
	return rc;
}

/* The budget is of the block as written, the bytes a browser parses
 * before the first paint; the writer prunes by the bytes of its columns.
 * Deflate and base64 take columns to 0.61-0.73 of their size on the
 * bench's shapes, so the first try allows 4/3 of the budget in columns
 * (one pass on most shapes measured), and a try that still comes out
 * too large is redone with its budget scaled down by how far it missed
 * (the writer's estimate of its columns is itself within about 10%). */
static void *embed_run(void *arg)
{
	struct embed_job *j = arg;
	double *sums = j->want_sums ? embed_subtree_base(j->t) : NULL;
	if (j->locking)
		pthread_mutex_lock(&j->mu);
	j->sums = sums;
	j->sums_done = 1;
	if (j->locking) {
		pthread_cond_broadcast(&j->cv);
		pthread_mutex_unlock(&j->mu);
	}
	size_t col_budget = j->budget > SIZE_MAX / 4 ? SIZE_MAX : j->budget / 3 * 4;
	j->rc = embed_pass(j, sums, col_budget);
	for (int tries = 1; j->rc == 0 && j->budget && j->len > j->budget && tries < EMBED_TRIES; tries++) {
		col_budget = (size_t)((double)col_budget * (double)j->budget / (double)j->len * 0.95);
		j->rc = embed_pass(j, sums, col_budget < 1024 ? 1024 : col_budget);
	}
	if (j->locking) { /* the drawing thread stops waiting for parts */
		pthread_mutex_lock(&j->mu);
		j->done = 1;
		pthread_cond_broadcast(&j->cv);
		pthread_mutex_unlock(&j->mu);
	}
	return NULL;
}

/* Starts the block: on a thread for a big trie, else now. */
void embed_start(struct embed_job *j, const fold_trie *t, int want_sums,
			const struct render_opts *o)
{
	j->t = t;
	j->want_sums = want_sums && t->base;
	j->budget = o->embed == RENDER_EMBED_FULL ? 0 : o->embed_budget;
	if (t->nnodes >= EMBED_THREAD_NODES && pthread_mutex_init(&j->mu, NULL) == 0) {
		if (pthread_cond_init(&j->cv, NULL) == 0) {
			j->locking = 1;
			if (uf_thread_start_part(&j->th, embed_run, j) == 0) {
				j->running = 1;
				return;
			}
			j->locking = 0;
			pthread_cond_destroy(&j->cv);
		}
		pthread_mutex_destroy(&j->mu);
	}
	embed_run(j);
}

/* The BEFORE sums the embed thread made (waiting for them), handed over:
 * the caller frees them, after embed_join().  NULL when none were asked
 * for, or out of memory. */
double *embed_sums(struct embed_job *j)
{
	if (!j->want_sums || j->handed)
		return NULL;
	if (j->locking) {
		pthread_mutex_lock(&j->mu);
		while (!j->sums_done)
			pthread_cond_wait(&j->cv, &j->mu);
		pthread_mutex_unlock(&j->mu);
	}
	j->handed = 1;
	return j->sums;
}

/* Waits for the block; frees the sums nobody took. */
int embed_join(struct embed_job *j)
{
	if (j->running) { /* helps with the deflate until the block is done */
		pthread_mutex_lock(&j->mu);
		while (!j->done)
			if (!take_part(j))
				pthread_cond_wait(&j->cv, &j->mu);
		pthread_mutex_unlock(&j->mu);
		uf_thread_join(&j->th);
	}
	if (j->locking) {
		pthread_cond_destroy(&j->cv);
		pthread_mutex_destroy(&j->mu);
	}
	j->running = j->locking = 0;
	if (!j->handed)
		free(j->sums);
	j->sums = NULL;
	j->handed = 1;
	return j->rc;
}
