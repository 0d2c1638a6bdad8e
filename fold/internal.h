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

/* Caps for SVG input: bigger files are refused before parsing. */
#define FOLD_MAX_SVG_BYTES (2048ull * 1024 * 1024)

#endif
