/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * fold/in/read-path.c — opens an input by path and picks its reader.
 *
 * The format is sniffed from the first bytes, not the file name, so
 * pipes and misnamed files work, by fold_detect_format (fold/in/detect.c),
 * the one detector: gzip (then detected
 * again inside, decompressed on a thread by fold/in/gzip.c), an SVG, `perf
 * script` text or folded text.  SVGs are read whole (they must be parsed
 * as one document, up to FOLD_MAX_SVG_BYTES; a gzipped one up to
 * FOLD_GZ_HOLD_RATIO times its compressed size); folded and perf text are
 * streamed, the sniffed bytes handed to their reader first.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fold/in/in.h"
#include "fold/in/internal.h"
#include "util/vec.h"

static int sniff(int fd, char **buf, size_t *cap, size_t *have, enum fold_format *fmt,
		 struct uf_err *err, const char *label);
static int slurp(int fd, const struct fold_gz *gz, char **buf, size_t *len, size_t have,
		 struct uf_err *err, const char *label);
static int finish_gz(struct fold_gz *gz, int rc, struct uf_err *err, const char *label);

int fold_read_path(fold_trie *t, const char *path, const struct fold_read_opts *o,
		   struct fold_read_stats *st, struct uf_err *err)
{
	struct fold_read_opts opts = *o;
	struct fold_gz *gz = NULL;
	int fd = 0;
	if (strcmp(path, "-") != 0) {
		fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0) {
			uf_err_set(err, UF_EINPUT, path, "cannot open: %s", UF_STRERROR(errno));
			return -errno;
		}
	}
	opts.label = strcmp(path, "-") ? path : "<stdin>";
	size_t cap = 4096, have = 0;
	char *buf = malloc(cap);
	int rc = 0, in = fd;
	if (!buf) {
		rc = -ENOMEM;
		uf_err_set(err, UF_EINPUT, opts.label, "out of memory");
		goto out;
	}
	enum fold_format fmt;
	if ((rc = sniff(in, &buf, &cap, &have, &fmt, err, opts.label)) != 0)
		goto out;
	if (fmt == FOLD_FMT_GZIP) { /* decompress on a thread, then detect again */
		if ((rc = fold_gz_start(fd, buf, have, &gz, err, opts.label)) != 0)
			goto out;
		in = fold_gz_fd(gz);
		have = 0;
		if ((rc = sniff(in, &buf, &cap, &have, &fmt, err, opts.label)) != 0)
			goto out;
	}
	if (opts.force_perf)
		fmt = FOLD_FMT_PERF;
	if (fmt == FOLD_FMT_SVG) {
		rc = slurp(in, gz, &buf, &cap, have, err, opts.label);
		if (rc == 0)
			rc = fold_read_svg_mem(t, buf, cap, &opts, st, err);
	} else if (fmt == FOLD_FMT_FOLDED) {
		rc = fold_read_folded_fd_prefixed(t, in, gz, buf, have, &opts, st, err);
	} else if (fmt == FOLD_FMT_PERF) {
		rc = fold_read_perf_fd(t, in, buf, have, &opts, st, err);
	} else if (fmt == FOLD_FMT_BINARY) {
		rc = -EINVAL;
		uf_err_set(err, UF_EINPUT, opts.label, "binary file, not folded text (a NUL byte in its "
			   "first line): give a folded, perf script or SVG profile");
	} else if (fmt == FOLD_FMT_GZIP) {
		rc = -EINVAL;
		uf_err_set(err, UF_EINPUT, opts.label, "gzip data inside gzip data");
	} else {
		rc = -EINVAL;
		uf_err_set(err, UF_EINPUT, opts.label, "unknown format: more than %u KiB of blank "
			   "bytes at the start", FOLD_DETECT_MAX >> 10);
	}
out:
	rc = finish_gz(gz, rc, err, opts.label);
	free(buf);
	if (fd > 0)
		close(fd);
	return rc;
}

/* Reads from fd into *buf until fold_detect_format decides (a few
 * hundred bytes; at most FOLD_DETECT_MAX when the input starts blank). */
static int sniff(int fd, char **buf, size_t *cap, size_t *have, enum fold_format *fmt,
		 struct uf_err *err, const char *label)
{
	size_t next_check = 512; /* doubling: the scans add up to O(bytes read) */
	for (;;) {
		if (*have >= next_check) {
			*fmt = fold_detect_format(*buf, *have, 0);
			if (*fmt != FOLD_FMT_MORE)
				return 0;
			next_check = *have * 2;
		}
		if (*have == *cap && uf_vec_grow(buf, cap, *cap * 2, 1)) {
			uf_err_set(err, UF_EINPUT, label, "out of memory");
			return -ENOMEM;
		}
		ssize_t got = read(fd, *buf + *have, *cap - *have);
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0) {
			uf_err_set(err, UF_EINPUT, label, "read failed: %s", UF_STRERROR(errno));
			return -errno;
		}
		if (got == 0) {
			*fmt = fold_detect_format(*buf, *have, 1);
			return 0;
		}
		*have += (size_t)got;
	}
}

/* Joins the decompressor.  Its error wins when the stream was cut for
 * expanding too much (the reader's own error, about a cut stream, would
 * hide why); otherwise the first error stands. */
static int finish_gz(struct fold_gz *gz, int rc, struct uf_err *err, const char *label)
{
	if (!gz)
		return rc;
	struct uf_err gerr = { 0 };
	int grc = fold_gz_finish(gz, &gerr, label);
	if (grc == -EFBIG || (grc && !rc)) {
		*err = gerr;
		return grc;
	}
	return rc;
}

/* Bytes of an SVG that may be held: FOLD_MAX_SVG_BYTES; gzipped, at most
 * FOLD_GZ_HOLD_RATIO times the compressed bytes read (a 1 MB .svg.gz
 * inflated to 2 GiB was held and accepted, issue 28). */
static uint64_t svg_max(const struct fold_gz *gz)
{
	if (!gz)
		return FOLD_MAX_SVG_BYTES;
	uint64_t m = fold_gz_in_bytes(gz) * FOLD_GZ_HOLD_RATIO;
	return m < FOLD_GZ_HOLD_MIN ? FOLD_GZ_HOLD_MIN : m < FOLD_MAX_SVG_BYTES ? m : FOLD_MAX_SVG_BYTES;
}

/* Reads the rest of fd after `have` bytes; on return *len is the total. */
static int slurp(int fd, const struct fold_gz *gz, char **buf, size_t *len, size_t have,
		 struct uf_err *err, const char *label)
{
	size_t cap = *len;
	for (;;) {
		if (have == cap) {
			if (gz && cap >= svg_max(gz)) {
				uf_err_set(err, UF_EINPUT, label, "gzipped SVG expands more than %d times "
					   "its size: decompress it first to read it", FOLD_GZ_HOLD_RATIO);
				return -EFBIG;
			}
			if (cap >= FOLD_MAX_SVG_BYTES) {
				uf_err_set(err, UF_EINPUT, label, "SVG larger than %llu MiB",
					   (unsigned long long)(FOLD_MAX_SVG_BYTES >> 20));
				return -EFBIG;
			}
			if (uf_vec_grow(buf, &cap, cap * 2, 1)) {
				uf_err_set(err, UF_EINPUT, label, "out of memory");
				return -ENOMEM;
			}
		}
		ssize_t got = read(fd, *buf + have, cap - have);
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0) {
			uf_err_set(err, UF_EINPUT, label, "read failed: %s", UF_STRERROR(errno));
			return -errno;
		}
		if (got == 0)
			break;
		have += (size_t)got;
	}
	*len = have;
	return 0;
}
