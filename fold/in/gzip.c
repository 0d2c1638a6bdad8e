/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * fold/gzip.c — transparent gzip input for every reader.
 *
 * A gzip input (magic bytes 1f 8b) is decompressed by zlib on its own
 * thread into one end of a socket pair; the reader gets the other end as
 * an ordinary fd and streams from it as from a pipe.  So every reader
 * (folded, perf script, SVG, uniprof raw) accepts gzip with no change of
 * its own, and decompression runs on the second core while the first
 * parses.  A socket rather than a pipe: send(MSG_NOSIGNAL) reports a
 * reader that stopped early as EPIPE instead of killing the process.
 *
 * Trade-off: a gzip input is never split for two parser threads (it is a
 * stream); the decompressor is the second thread instead.  The same
 * thread can also pass bytes through unchanged (fold_gz_start_plain), for
 * a reader of a pipe that had to read a few bytes to look for the magic.
 *
 * Invariants:
 *  1. Memory here is two fixed buffers, whatever the sizes involved (no
 *     allocation from a length in the input).  A reader that holds the
 *     stream bounds what it holds by fold_gz_in_bytes(), the compressed
 *     bytes consumed so far (read-folded.c, read-path.c).
 *  4. Time is bounded too: past FOLD_GZ_FLOOR decompressed bytes, output
 *     may be at most FOLD_GZ_MAX_RATIO times the compressed input read so
 *     far, else the stream fails with -EFBIG, "gzip data expands more than
 *     256 times" (issue 28: 65 KB of gzip held 1.25 GB).  Real profiles
 *     compress 5-50 times (deep recursion more); one past the cap still
 *     reads once decompressed, as a plain file.
 *  2. Concatenated members (`cat a.gz b.gz`) are read as one stream, as
 *     gzip -d does; bytes after the last member that are not another
 *     member are an error, as is a truncated or corrupt stream.
 *  3. fold_gz_finish() always closes the reader's fd first, so a
 *     decompressor blocked on a full socket wakes (EPIPE) and the join
 *     cannot hang.
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
#include <zlib.h>

#include "fold/in/in.h"
#include "fold/in/internal.h"
#include "util/thread.h"

#define IN_CHUNK (128u << 10)
#define OUT_CHUNK (256u << 10)

struct fold_gz {
	struct uf_thread th;
	int src;             /* compressed input (borrowed) */
	int wfd, rfd;        /* socket pair: thread writes, reader reads */
	char *prefix;        /* bytes already read from src */
	size_t plen;
	int plain;           /* copy as is: prefix bytes a reader needs back */
	int rc;              /* 0, or -errno / -EBADMSG / -EFBIG */
	uint64_t in_bytes;   /* compressed bytes consumed (atomic: the reader reads it) */
	uint64_t out_bytes;  /* decompressed bytes made */
	char why[200];
};

static void *gz_thread(void *arg);
static int fold_gz_start_mode(int src, const char *prefix, size_t plen, int plain,
			      struct fold_gz **out, struct uf_err *err, const char *label);
static int put(struct fold_gz *g, const unsigned char *p, size_t n);

int fold_gz_magic(const void *buf, size_t len)
{
	const unsigned char *p = buf;
	return len >= 2 && p[0] == 0x1f && p[1] == 0x8b;
}

int fold_gz_start(int src, const char *prefix, size_t plen, struct fold_gz **out,
		  struct uf_err *err, const char *label)
{
	return fold_gz_start_mode(src, prefix, plen, 0, out, err, label);
}

static int fold_gz_start_mode(int src, const char *prefix, size_t plen, int plain,
			      struct fold_gz **out, struct uf_err *err, const char *label)
{
	struct fold_gz *g = calloc(1, sizeof *g);
	int sv[2];
	if (!g || !(g->prefix = malloc(plen ? plen : 1))) {
		free(g);
		uf_err_set(err, UF_EINPUT, label, "out of memory");
		return -ENOMEM;
	}
	memcpy(g->prefix, prefix, plen);
	g->plen = plen;
	g->src = src;
	g->plain = plain;
	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) != 0) {
		int e = errno;
		free(g->prefix);
		free(g);
		uf_err_set(err, UF_EINPUT, label, "cannot decompress: %s", UF_STRERROR(e));
		return -e;
	}
	g->rfd = sv[0];
	g->wfd = sv[1];
	int e = uf_thread_start(&g->th, gz_thread, g);
	if (e) {
		close(sv[0]);
		close(sv[1]);
		free(g->prefix);
		free(g);
		uf_err_set(err, UF_EINPUT, label, "cannot decompress: %s", UF_STRERROR(e));
		return -e;
	}
	*out = g;
	return 0;
}

int fold_gz_start_plain(int src, const char *prefix, size_t plen, struct fold_gz **out,
			struct uf_err *err, const char *label)
{
	int rc = fold_gz_start_mode(src, prefix, plen, 1, out, err, label);
	return rc;
}

int fold_gz_fd(const struct fold_gz *g)
{
	return g->rfd;
}

uint64_t fold_gz_in_bytes(const struct fold_gz *g)
{
	return __atomic_load_n(&g->in_bytes, __ATOMIC_RELAXED);
}

int fold_gz_finish(struct fold_gz *g, struct uf_err *err, const char *label)
{
	if (!g)
		return 0;
	close(g->rfd); /* invariant 3 */
	uf_thread_join(&g->th);
	int rc = g->rc;
	if (rc)
		uf_err_set(err, UF_EINPUT, label, "%s", g->why);
	free(g->prefix);
	free(g);
	return rc;
}

/* ---- the decompressing thread ---------------------------------------- */

static int fail(struct fold_gz *g, int rc, const char *why)
{
	g->rc = rc;
	snprintf(g->why, sizeof g->why, "%s", why);
	return rc;
}

/* Reads compressed bytes: the prefix first, then src. */
static ssize_t next_in(struct fold_gz *g, unsigned char *buf, size_t cap, size_t *pused)
{
	if (*pused < g->plen) {
		size_t n = g->plen - *pused < cap ? g->plen - *pused : cap;
		memcpy(buf, g->prefix + *pused, n);
		*pused += n;
		return (ssize_t)n;
	}
	for (;;) {
		ssize_t got = read(g->src, buf, cap);
		if (got < 0 && errno == EINTR)
			continue;
		if (got > 0)
			__atomic_fetch_add(&g->in_bytes, (uint64_t)got, __ATOMIC_RELAXED);
		return got;
	}
}

/* Invariant 4: the bytes made so far against the compressed bytes used
 * (what was read less what still waits in the input buffer). */
static int too_big(struct fold_gz *g, const z_stream *zs)
{
	uint64_t in = g->plen + fold_gz_in_bytes(g) - zs->avail_in;
	return g->out_bytes > FOLD_GZ_FLOOR && g->out_bytes / FOLD_GZ_MAX_RATIO > in;
}

static int inflate_all(struct fold_gz *g, z_stream *zs, unsigned char *in, unsigned char *out)
{
	size_t pused = 0;
	int ended = 0; /* the last member ended */
	for (;;) {
		if (zs->avail_in == 0) {
			ssize_t got = next_in(g, in, IN_CHUNK, &pused);
			if (got < 0)
				return fail(g, -errno, "read failed");
			if (got == 0)
				return ended ? 0 : fail(g, -EBADMSG, "truncated gzip data");
			zs->next_in = in;
			zs->avail_in = (uInt)got;
		}
		if (ended) { /* invariant 2: another member must follow */
			if (zs->next_in[0] != 0x1f)
				return fail(g, -EBADMSG, "trailing bytes after gzip data");
			inflateReset(zs);
			ended = 0;
		}
		zs->next_out = out;
		zs->avail_out = OUT_CHUNK;
		int z = inflate(zs, Z_NO_FLUSH);
		if (z != Z_OK && z != Z_STREAM_END && z != Z_BUF_ERROR)
			return fail(g, -EBADMSG, zs->msg ? zs->msg : "corrupt gzip data");
		size_t made = OUT_CHUNK - zs->avail_out;
		if (z == Z_BUF_ERROR && made == 0 && zs->avail_in > 0)
			return fail(g, -EBADMSG, "corrupt gzip data");
		g->out_bytes += made;
		if (too_big(g, zs))
			return fail(g, -EFBIG, "gzip data expands more than "
				    UF_STR(FOLD_GZ_MAX_RATIO) " times its size (a gzip bomb?): "
				    "decompress it first to read it");
		int rc = put(g, out, made);
		if (rc)
			return rc;
		if (z == Z_STREAM_END)
			ended = 1;
	}
}

/* Passes the prefix and the rest of src through unchanged. */
static void copy_all(struct fold_gz *g, unsigned char *buf)
{
	size_t pused = 0;
	for (;;) {
		ssize_t got = next_in(g, buf, IN_CHUNK, &pused);
		if (got < 0) {
			fail(g, -errno, "read failed");
			return;
		}
		if (got == 0 || put(g, buf, (size_t)got) != 0)
			return;
	}
}

static void *gz_thread(void *arg)
{
	struct fold_gz *g = arg;
	z_stream zs;
	memset(&zs, 0, sizeof zs);
	unsigned char *in = malloc(IN_CHUNK), *out = malloc(OUT_CHUNK);
	if (!in || !out)
		fail(g, -ENOMEM, "out of memory");
	else if (g->plain)
		copy_all(g, in);
	else if (inflateInit2(&zs, 16 + MAX_WBITS) != Z_OK)
		fail(g, -ENOMEM, "out of memory");
	else {
		int rc = inflate_all(g, &zs, in, out);
		if (rc == -EPIPE)
			g->rc = 0; /* the reader stopped early: its own error counts */
		inflateEnd(&zs);
	}
	free(in);
	free(out);
	close(g->wfd); /* EOF for the reader */
	return NULL;
}

static int put(struct fold_gz *g, const unsigned char *p, size_t n)
{
	while (n > 0) {
		ssize_t w = send(g->wfd, p, n, MSG_NOSIGNAL);
		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0)
			return errno == EPIPE ? -EPIPE : fail(g, -errno, "cannot pass decompressed data");
		p += w;
		n -= (size_t)w;
	}
	return 0;
}
