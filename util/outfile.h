/*
 * util/outfile.h — outputs replaced atomically.
 *
 * uf_outfile_open() creates a temporary file beside the destination
 * (same directory, so rename() is atomic); uf_outfile_commit() flushes
 * and renames it over the destination.  There is no fsync: readers never
 * see a half-written file, and a 100 ms sync per output would dominate
 * render times; durability across a power cut is left to the filesystem.  Until commit, an existing
 * destination is untouched; uf_outfile_abort() removes the temporary.
 * The path "-" means standard output, written directly; so is an
 * existing destination that is not a regular file (/dev/null, a FIFO).
 */
#ifndef UF_UTIL_OUTFILE_H
#define UF_UTIL_OUTFILE_H

#include <stdio.h>

#include "util/err.h"

struct uf_outfile {
	FILE *fp;        /* write here; buffered */
	char *path;      /* destination (owned) */
	char *tmp;       /* temporary beside it (owned), NULL for stdout */
	int direct;      /* writing an existing non-regular file in place */
};

int uf_outfile_open(struct uf_outfile *o, const char *path, struct uf_err *err);
int uf_outfile_commit(struct uf_outfile *o, struct uf_err *err);
void uf_outfile_abort(struct uf_outfile *o);

#endif
