/*
 * fold/internal.h — shared between fold/'s own files; not part of its
 * public face (fold/fold.h).
 */
#ifndef UF_FOLD_INTERNAL_H
#define UF_FOLD_INTERNAL_H

#include "fold/fold.h"

/* The fd reader, with `plen` bytes already read from fd placed first. */
int fold_read_folded_fd_prefixed(fold_trie *t, int fd, const char *prefix, size_t plen,
				 const struct fold_read_opts *o, struct fold_read_stats *st,
				 struct uf_err *err);
/* Reads an SVG document held in memory (borrowed). */
int fold_read_svg_mem(fold_trie *t, const char *buf, size_t len, const struct fold_read_opts *o,
		      struct fold_read_stats *st, struct uf_err *err);

/* Frames collected from a flamegraph.pl/inferno SVG (read-svg-frames.c). */
struct fold_svg_frames {
	void *f;           /* struct svg_frame[] */
	size_t n, cap;
	size_t unplaced;   /* frames left out by build: no drawn parent, or too deep */
};
/* Records one <g> frame; returns 0, 1 when the title is not a frame's,
 * or <0 (-ENOMEM, -E2BIG past the frame cap, -ERANGE for a count of
 * more than FOLD_MAX_COUNT_CHARS digits, -EDOM for x, y or width that is
 * not finite: numbers from a file are capped, never inf or NaN). */
int fold_svg_frames_add(struct fold_svg_frames *fs, fold_trie *t, const char *title, double x,
			double y, double w);
/* Rebuilds the call paths of the recorded frames into t. */
int fold_svg_frames_build(struct fold_svg_frames *fs, fold_trie *t, struct uf_err *err,
			  const char *label);
void fold_svg_frames_release(struct fold_svg_frames *fs);

/* gzip input (fold/gzip.c): a thread inflates src into a socket whose
 * read end fold_gz_fd() gives; fold_gz_finish() closes that end, joins
 * and returns the decompressor's error (-EBADMSG for corrupt data). */
struct fold_gz;
int fold_gz_magic(const void *buf, size_t len);
int fold_gz_start(int src, const char *prefix, size_t plen, struct fold_gz **out,
		  struct uf_err *err, const char *label);
int fold_gz_fd(const struct fold_gz *g);
int fold_gz_finish(struct fold_gz *g, struct uf_err *err, const char *label);

/* Caps for SVG input: bigger files are refused before parsing. */
#define FOLD_MAX_SVG_BYTES (2048ull * 1024 * 1024)

#endif
