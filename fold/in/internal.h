/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * fold/in/internal.h — the input room's private calls and caps, shared
 * between its readers (gzip, the sorted fast path, the folded line
 * parser, SVG frames); not part of its public face (fold/in/in.h), and
 * no other room includes it (tests and fuzzers may).
 */
#ifndef UF_FOLD_IN_INTERNAL_H
#define UF_FOLD_IN_INTERNAL_H

#include <string.h>

#include "fold/in/in.h"

/* The fd reader, with `plen` bytes already read from fd placed first; gz
 * (or NULL) is the decompressor fd reads from, whose ratio bounds what is
 * held (FOLD_GZ_HOLD_RATIO). */
struct fold_gz;
int fold_read_folded_fd_prefixed(fold_trie *t, int fd, const struct fold_gz *gz,
				 const char *prefix, size_t plen,
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

/* One folded line, parsed (read-folded.c): the stack is s[0..len) with
 * trailing ';' removed; `before` is meaningful when `two`. */
struct fold_line {
	size_t len;
	int two;
	double after, before;
};
/* Parses line s[0..n) (no newline); returns 0, 1 for a blank line, -1 for
 * an invalid one. */
int fold_parse_line(const char *s, size_t n, struct fold_line *fl);

/* The sorted fast path (sorted.c): reads folded text held in memory into
 * t.  Same result as the streaming reader; t must be empty, not keep a
 * sequence, and o->reverse unset (fold_read_folded_mem checks). */
enum fold_src_role {
	FOLD_SRC_PLAIN,      /* counts as the streaming reader adds them */
	FOLD_SRC_BASE,       /* the first count column goes to BEFORE only */
	FOLD_SRC_DRAWN,      /* the first count column goes to the drawn count only */
};
#define FOLD_SRC_MAX 2
struct fold_src {
	const char *buf;     /* folded text, borrowed */
	size_t len;
	const struct fold_read_opts *o;
	struct fold_read_stats *st;
	enum fold_src_role role;
	int mapped;          /* buf is a whole mmap()ed file the caller unmaps: its
				pages may be dropped once indexed */
	double sum;          /* out: first-column counts of its good lines */
	int valid;           /* out: it had a line that makes a stack or a count */
	int two;             /* internal: it had two count columns */
};
/* Reads up to FOLD_SRC_MAX sources into one trie (roles other than PLAIN
 * make it differential).  Returns 0, <0 with *err, or 1 without touching
 * t or the stats when it declines: an input holds a backslash, so names
 * may be "\xHH"-escaped and two spellings decode to one name (the caller
 * then reads with the streaming reader, which looks names up). */
int fold_read_sorted(fold_trie *t, struct fold_src *src, int nsrc, struct uf_err *err);
int fold_read_sorted_mem(fold_trie *t, const char *buf, size_t len, int mapped,
			 const struct fold_read_opts *o, struct fold_read_stats *st, struct uf_err *err);
/* Inputs from this size are indexed on two threads; sorts of this many
 * lines use two threads. */
#define FOLD_SORTED_SPLIT (1u << 20)
#define FOLD_SORTED_THREAD_LINES 20000u
/* Mapped inputs below FOLD_SORTED_SPLIT are populated by mmap itself
 * (MAP_POPULATE: one call, one lane).  From FOLD_SORTED_SPLIT they are
 * mapped unpopulated and each index part populates its own bytes first
 * (fold_populate), so the two lanes fault their halves in at once, not
 * the main thread the whole file before the second lane starts (tree-100k:
 * 18.7 MB, ~5 ms alone).  From FOLD_MAP_POPULATE_MAX nothing is populated
 * up front, and the index drops each RELEASE bytes it has read
 * (fold_src.mapped). */
#define FOLD_MAP_POPULATE_MAX (64u << 20)
#define FOLD_MAP_RELEASE (16u << 20)
/* Faults p[0..len) of a read-only mapping in, as one call
 * (MADV_POPULATE_READ, Linux 5.14); a hint: where the kernel refuses, the
 * pages come in by faults as they are read. */
void fold_populate(const char *p, size_t len);

/* gzip input (fold/gzip.c): a thread inflates src into a socket whose
 * read end fold_gz_fd() gives; fold_gz_finish() closes that end, joins
 * and returns the decompressor's error (-EBADMSG for corrupt data). */
struct fold_gz;
int fold_gz_magic(const void *buf, size_t len);
int fold_gz_start(int src, const char *prefix, size_t plen, struct fold_gz **out,
		  struct uf_err *err, const char *label);
/* Same thread, no inflating: gives back `prefix` then the rest of src. */
int fold_gz_start_plain(int src, const char *prefix, size_t plen, struct fold_gz **out,
			struct uf_err *err, const char *label);
int fold_gz_fd(const struct fold_gz *g);
/* Compressed bytes the thread has read so far (the prefix not counted). */
uint64_t fold_gz_in_bytes(const struct fold_gz *g);
/* gzip.c invariant 4: the expansion cap. */
#define FOLD_GZ_FLOOR (128ull << 20)
#define FOLD_GZ_MAX_RATIO 256
/* What a reader may hold of a gzip stream: at most this many times the
 * compressed bytes read (and at least the floor: FOLD_GZ_HOLD_MIN for an
 * SVG, FOLD_GZ_HOLD_MIN_FOLDED for folded text, whose sorted index adds
 * up to ~14 bytes a byte of short lines); the folded reader streams the
 * rest, an SVG past it is refused. */
#define FOLD_GZ_HOLD_RATIO 16
#define FOLD_GZ_HOLD_MIN (16ull << 20)
#define FOLD_GZ_HOLD_MIN_FOLDED (1ull << 20)
#define UF_STR_(x) #x
#define UF_STR(x) UF_STR_(x)
int fold_gz_finish(struct fold_gz *g, struct uf_err *err, const char *label);

/* Caps for SVG input: bigger files are refused before parsing. */
#define FOLD_MAX_SVG_BYTES (2048ull * 1024 * 1024)

/* fold_common_prefix, the folded readers' line compare, is the model's
 * (model.h): the key sort shares it. */

#endif
