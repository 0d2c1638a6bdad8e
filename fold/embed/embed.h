/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * fold/embed/embed.h — the embedded-block room of fold/: the uf-trie/1
 * block an SVG carries in <metadata id="uniprof-flame-data"> so the
 * browser (templates/flamegraph.js) can redraw any subtree and
 * `fold x.svg` reads the exact profile back.  Writer (embed.c), packer
 * (embed-pack.c: columns, deflate, base64) and reader (embed-read.c).
 *
 * render/ includes this and the model header; nothing in the model
 * includes it.
 */
#ifndef UF_FOLD_EMBED_H
#define UF_FOLD_EMBED_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "fold/model/model.h"
#include "util/err.h"

/* ---- embedding a trie in an SVG ------------------------------------- */

/* The library table as text for an SVG (fold/embed/embed.c): "NAME\tLIB\n"
 * lines, names and libraries escaped as in the uf-trie/1 block, for the
 * names of kept nodes only; returns 0, -ENOMEM or -EIO. */
int fold_libs_write(const fold_trie *t, FILE *out);
/* Reads such text into t (a broken line is skipped). */
int fold_libs_read(fold_trie *t, const char *text, size_t len);

struct fold_embed_info {
	uint32_t nodes_total;   /* nodes in the trie */
	uint32_t nodes_written; /* nodes embedded (< total when pruned) */
	double min_total;       /* pruning threshold used (0 when full) */
	size_t bytes;           /* size of the block */
};

/* Writes the trie as printable ASCII with no XML-special byte, at most
 * about `budget` bytes (0 = unlimited): past it, subtrees whose total is
 * below a threshold are folded into their parent's self count.  Needs
 * finish().  Returns 0 or -EIO. */
int fold_embed_write(const fold_trie *t, FILE *out, size_t budget, struct fold_embed_info *info);
/* The same block in embed-pack.c's packed form before deflating (node
 * lines as columns); budget counts those bytes. */
int fold_embed_write_columns(const fold_trie *t, FILE *out, size_t budget, struct fold_embed_info *info);
/* The same, for a differential whose BEFORE counts the caller has summed
 * over each subtree (base_sums, borrowed: each node's base plus its
 * descendants', added from the last node to the first into its parent),
 * so they are summed once per render. */
int fold_embed_write_columns_base(const fold_trie *t, FILE *out, size_t budget,
				  const double *base_sums, struct fold_embed_info *info);
/* Parses a block written by fold_embed_write into t. */
int fold_embed_read(fold_trie *t, const char *text, size_t len, struct uf_err *err);

/* The block as an SVG carries it (embed-pack.c has the format): packed
 * columns, deflated, base64 in lines of FOLD_EMBED_PACK_LINE characters.
 * The SVG's <metadata> says so with data-encoding="FOLD_EMBED_ENCODING". */
#define FOLD_EMBED_ENCODING "pack-deflate-base64"
#define FOLD_EMBED_PACK_LINE 4096u
#define FOLD_EMBED_MAX_UNPACKED ((size_t)1 << 30)
/* text[0..len) (from fold_embed_write) -> *out (malloc'd, NUL-ended, *outlen
 * bytes without the NUL).  0, -ENOMEM, or -EINVAL for text that is not
 * a block fold_embed_write wrote. */
int fold_embed_pack(const char *text, size_t len, char **out, size_t *outlen);
/* Columns (fold_embed_write_columns) -> one zlib stream, base64 (as
 * above): stored below 64 KiB of columns when its base64 is within
 * max_out bytes (0: no limit), else deflated by libdeflate: one call
 * below FOLD_EMBED_SPLIT_FROM, from there two parts joined (below), made
 * one after the other here (embed-pack.c).  Keeps no state: two threads may encode at once.
 * 0, -ENOMEM, or -EFBIG for FOLD_EMBED_MAX_UNPACKED bytes or more,
 * which no reader takes (never written). */
int fold_embed_encode(const void *columns, size_t len, size_t max_out, char **out, size_t *outlen);
/* A large block's deflate in two parts that two threads may make at once
 * (render/embed-thread.c): columns of FOLD_EMBED_SPLIT_FROM bytes or more
 * are deflated as their first SPLIT_NUM/SPLIT_DEN and the rest, each by
 * one libdeflate call, and the parts joined into one zlib stream (the
 * first part's last block made non-final, an empty stored block to align
 * it).  The split is fixed by the length alone, so the stream is the same
 * bytes whichever thread made which part, and fold_embed_encode() makes
 * exactly these bytes on one thread.  Use: fold_embed_split_init(), both
 * fold_embed_split_part() calls (any threads, each once), then
 * fold_embed_split_finish(), which frees the parts. */
#define FOLD_EMBED_SPLIT_FROM ((size_t)256 << 10)
struct fold_embed_split {
	const uint8_t *in;  /* the columns, borrowed */
	size_t len, mid;    /* part 0 is in[0 .. mid), part 1 in[mid .. len) */
	uint8_t *z[2];      /* each part's raw deflate (owned) */
	size_t zlen[2];
	uint32_t adler[2];  /* each part's Adler-32 */
	size_t final_bit;   /* part 0: the bit holding its last block's BFINAL */
	int unused_bits;    /* part 0: bits after its end in its last byte */
	int rc[2];
};
/* 1: columns[0..len) (borrowed until finish) are split into s; 0: the
 * block is not split (small, or stored: use fold_embed_encode). */
int fold_embed_split_init(struct fold_embed_split *s, const void *columns, size_t len, size_t max_out);
/* Deflates part k (0 or 1) of s; reads only s->in and writes only part k. */
void fold_embed_split_part(struct fold_embed_split *s, int k);
/* Both parts -> the block as fold_embed_encode writes it; frees the
 * parts (on every path).  0 or -ENOMEM. */
int fold_embed_split_finish(struct fold_embed_split *s, char **out, size_t *outlen);
/* The packed block -> the text it came from (malloc'd, NUL-ended); 0 or
 * -EINVAL (not base64, not a whole deflate stream, columns out of
 * bounds), -EFBIG (inflates past FOLD_EMBED_MAX_UNPACKED), -ENOMEM. */
int fold_embed_unpack(const char *b64, size_t len, char **text, size_t *tlen, struct uf_err *err);

#endif
