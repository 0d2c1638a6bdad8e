/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * util/outfile.h — outputs replaced atomically, never written through a
 * path another user can redirect.
 *
 * uf_outfile_open() creates a temporary file beside the destination with
 * O_CREAT|O_EXCL (same directory, so the rename is atomic);
 * uf_outfile_commit() flushes and renames it over the destination.  There
 * is no fsync: readers never see a half-written file, and a 100 ms sync
 * per output would dominate render times; durability across a power cut
 * is left to the filesystem.  Until commit, an existing destination is
 * untouched; uf_outfile_abort() removes the temporary.
 *
 * uniprof-flame runs as root and its output often goes to a directory
 * others can write (/tmp, a shared folder), so the destination's last
 * component is never followed (see the security model in README.md):
 *  1. The destination's directory is opened once; the temporary, the
 *     in-place open and the rename all work relative to that descriptor,
 *     so a swapped directory cannot split them.
 *  2. A symlink or regular file at the destination is replaced by the
 *     rename, never opened: no write can land on the link's target.
 *  3. In place are written only: "-" (standard output), the descriptor
 *     aliases /dev/stdout, /dev/stderr, /dev/fd/N and /proc/self/fd/N
 *     (a dup of that descriptor), and a FIFO or character device that
 *     is the destination itself and belongs to the invoking user (or is
 *     /dev/null): looked at through an O_PATH|O_NOFOLLOW descriptor
 *     (which opens no driver and waits for no FIFO reader), checked with
 *     fstat, then reopened for writing through /proc/self/fd, so the
 *     object checked is the object written.
 *  4. Directories, block devices, sockets, and another user's FIFO or
 *     character device are refused (exit 2), never opened.
 */
#ifndef UF_UTIL_OUTFILE_H
#define UF_UTIL_OUTFILE_H

#include <stdio.h>

#include "util/err.h"

struct uf_outfile {
	FILE *fp;        /* write here; buffered */
	char *path;      /* destination as given (owned), for messages */
	char *base;      /* its last component (owned) */
	char *tmp;       /* temporary's name in dirfd (owned), NULL when direct */
	int dirfd;       /* the destination's directory, -1 when direct */
	int direct;      /* writing in place: stdout, an fd alias, a FIFO or char device */
};

/* Opens the output `path` (borrowed; "-" = stdout).  Returns 0, or <0
 * with *err (UF_EINPUT: the path cannot be written or is refused). */
int uf_outfile_open(struct uf_outfile *o, const char *path, struct uf_err *err);
/* Flushes and, for a file, renames the temporary over the destination.
 * Releases everything either way; returns 0 or <0 with *err. */
int uf_outfile_commit(struct uf_outfile *o, struct uf_err *err);
/* Discards the output (removes the temporary) and releases everything. */
void uf_outfile_abort(struct uf_outfile *o);

#endif
