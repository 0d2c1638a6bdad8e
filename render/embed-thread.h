/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * render/embed-thread.h — the embedded block made beside the drawing
 * (private to render/; render/embed-thread.c has the design).
 */
#ifndef UF_RENDER_EMBED_THREAD_H
#define UF_RENDER_EMBED_THREAD_H

#include <pthread.h>
#include <stddef.h>

#include "fold/embed/embed.h"
#include "fold/model/model.h"
#include "render/render.h"
#include "util/thread.h"

/* The embedded block, made beside layout and frames (it reads only the
 * trie, as they do), written after them.  A differential's BEFORE totals
 * per subtree are summed first on the same thread (the colours, the
 * BEFORE layer and a pruned block all need them), so the drawing thread,
 * busy with the AFTER layout meanwhile, does not sum them on its path;
 * it takes them with embed_sums(). */
struct embed_job {
	const fold_trie *t;
	int want_sums;       /* sum t's BEFORE per subtree, for both threads */
	double *sums;        /* the sums (NULL: out of memory); owned until
				embed_sums() hands them over, read by the passes */
	int sums_done, handed;
	int locking;         /* on a thread: mu guards sums and sums_done */
	pthread_mutex_t mu;
	pthread_cond_t cv;
	size_t budget;       /* 0: all */
	char *buf;           /* owned: the block */
	size_t len;
	struct fold_embed_info info;
	int rc;
	struct uf_thread th;
	int running;         /* th is to be joined */
	/* under mu: a split deflate's part 1 for whichever thread comes
	 * first (embed-thread.c, embed_encode), and the end of the block */
	struct fold_embed_split *split;
	int part1_taken, part1_done, done;
};

/* Starts the block: on a thread for a big trie, else now. */
void embed_start(struct embed_job *j, const fold_trie *t, int want_sums, const struct render_opts *o);
/* The BEFORE sums the embed thread made (waiting for them), handed over:
 * the caller frees them, after embed_join().  NULL when none were asked
 * for, or out of memory. */
double *embed_sums(struct embed_job *j);
/* Waits for the block (j->buf, j->len, j->info); frees the sums nobody
 * took.  Returns the block's 0 or negative errno. */
int embed_join(struct embed_job *j);
/* t->base summed over each subtree (a parent's id is below its
 * children's); owned, NULL when out of memory. */
double *embed_subtree_base(const fold_trie *t);

#endif
