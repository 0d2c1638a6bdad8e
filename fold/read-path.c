/*
 * fold/read-path.c — opens an input by path and picks its reader.
 *
 * The format is sniffed from the first bytes, not the file name, so
 * pipes and misnamed files work: a document starting with '<' (after an
 * optional UTF-8 BOM and whitespace) is an SVG, anything else is folded
 * text.  SVGs are read whole (they must be parsed as one document, up to
 * FOLD_MAX_SVG_BYTES); folded text is streamed.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fold/fold.h"
#include "fold/internal.h"
#include "util/vec.h"

/* enough for a `perf script --header` block and the first sample */
#define SNIFF_BYTES (64u << 10)

static int looks_like_xml(const char *buf, size_t len);
static int fill(int fd, char *buf, size_t cap, size_t *have, struct uf_err *err, const char *label);
static int slurp(int fd, char **buf, size_t *len, size_t have, struct uf_err *err, const char *label);

int fold_read_path(fold_trie *t, const char *path, const struct fold_read_opts *o,
		   struct fold_read_stats *st, struct uf_err *err)
{
	struct fold_read_opts opts = *o;
	struct fold_gz *gz = NULL;
	int fd = 0;
	if (strcmp(path, "-") != 0) {
		fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0) {
			uf_err_set(err, UF_EINPUT, path, "cannot open: %s", strerror(errno));
			return -errno;
		}
	}
	opts.label = strcmp(path, "-") ? path : "<stdin>";
	size_t cap = SNIFF_BYTES, have = 0;
	char *buf = malloc(cap);
	int rc = 0, in = fd;
	if (!buf) {
		rc = -ENOMEM;
		uf_err_set(err, UF_EINPUT, opts.label, "out of memory");
		goto out;
	}
	if ((rc = fill(in, buf, cap, &have, err, opts.label)) != 0)
		goto out;
	if (fold_gz_magic(buf, have)) {
		if ((rc = fold_gz_start(fd, buf, have, &gz, err, opts.label)) != 0)
			goto out;
		in = fold_gz_fd(gz);
		have = 0;
		if ((rc = fill(in, buf, cap, &have, err, opts.label)) != 0)
			goto out;
	}
	int fmt = opts.format;
	if (fmt == FOLD_FMT_AUTO)
		fmt = looks_like_xml(buf, have) ? FOLD_FMT_SVG
		      : fold_perf_sniff(buf, have) ? FOLD_FMT_PERF : FOLD_FMT_FOLDED;
	if (fmt == FOLD_FMT_SVG) {
		rc = slurp(in, &buf, &cap, have, err, opts.label);
		if (rc == 0)
			rc = fold_read_svg_mem(t, buf, cap, &opts, st, err);
	} else if (fmt == FOLD_FMT_PERF) {
		rc = fold_read_perf_fd(t, in, buf, have, &opts, st, err);
	} else {
		rc = fold_read_folded_fd_prefixed(t, in, buf, have, &opts, st, err);
	}
out:
	if (gz) {
		int grc = fold_gz_finish(gz, err, opts.label);
		rc = rc ? rc : grc;
	}
	free(buf);
	if (fd > 0)
		close(fd);
	return rc;
}

/* Reads from fd until buf holds cap bytes or the input ends. */
static int fill(int fd, char *buf, size_t cap, size_t *have, struct uf_err *err, const char *label)
{
	while (*have < cap) {
		ssize_t got = read(fd, buf + *have, cap - *have);
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0) {
			uf_err_set(err, UF_EINPUT, label, "read failed: %s", strerror(errno));
			return -errno;
		}
		if (got == 0)
			break;
		*have += (size_t)got;
	}
	return 0;
}

static int looks_like_xml(const char *buf, size_t len)
{
	size_t i = 0;
	if (len >= 3 && memcmp(buf, "\xef\xbb\xbf", 3) == 0)
		i = 3;
	while (i < len && (buf[i] == ' ' || buf[i] == '\t' || buf[i] == '\n' || buf[i] == '\r'))
		i++;
	return i < len && buf[i] == '<';
}

/* Reads the rest of fd after `have` bytes; on return *len is the total. */
static int slurp(int fd, char **buf, size_t *len, size_t have, struct uf_err *err, const char *label)
{
	size_t cap = *len;
	for (;;) {
		if (have == cap) {
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
			uf_err_set(err, UF_EINPUT, label, "read failed: %s", strerror(errno));
			return -errno;
		}
		if (got == 0)
			break;
		have += (size_t)got;
	}
	*len = have;
	return 0;
}
