/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * fold/in/read-raw.c — uniprof raw stack traces into a fold_trie (the
 * format and the caps are in fold/in/in.h; its one writer is
 * fold/out/write-raw.c).
 *
 * Trade-off: frames are resolved and interned as they are read, with a
 * small direct-mapped cache (address -> name id) in front of the
 * resolver, so a trace of millions of samples costs one hash probe per
 * repeated address instead of one symbol search; the cache makes memory
 * fixed, not proportional to input.  It has CACHE_SIZE slots, fewer for
 * an in-memory trace too small to hold that many addresses (one per 4
 * bytes at most), so reading a short buffer does not set up 768 KiB.
 *
 * Invariants:
 *  1. Input is streamed through a fixed buffer; a line longer than
 *     FOLD_RAW_MAX_LINE is skipped up to its newline, never buffered.
 *  2. The current stack keeps at most FOLD_MAX_DEPTH name ids, in a
 *     ring: the outermost frames survive a cut.
 *  3. A stack reaches the trie exactly once: at its terminator, at a
 *     blank line, or at end of input.
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fold/internal.h"
#include "fold/in/in.h"

#define CACHE_SIZE 65536u
#define CHUNK (1u << 20)

struct raw_reader {
	fold_trie *t;
	fold_raw_resolve_fn resolve;
	void *ctx;
	const struct fold_read_opts *o;
	struct fold_read_stats *st;
	struct fold_raw_counts *cnt;
	uint32_t *ids;              /* ring of FOLD_MAX_DEPTH name ids */
	uint64_t nframes;           /* frames seen in the current stack */
	uint64_t t_ns;              /* the current stack's "#sample" time, FOLD_T_UNKNOWN */
	enum uf_runstate state;     /* ... and state */
	uint64_t *ckey;             /* addr << 1 | is_return */
	uint32_t *cval;             /* name id, FOLD_NONE = empty slot */
	size_t cmask;               /* slots - 1, slots a power of 2 */
};

static int reader_init(struct raw_reader *r, fold_trie *t, fold_raw_resolve_fn resolve,
		       void *ctx, const struct fold_read_opts *o, struct fold_read_stats *st,
		       struct fold_raw_counts *cnt, size_t len);
static void reader_free(struct raw_reader *r);
static int take_line(struct raw_reader *r, const char *s, size_t len, int skipped);
static int feed_line(struct raw_reader *r, const char *s, size_t len);
static int end_stack(struct raw_reader *r, double count, int broken);
static int push_frame(struct raw_reader *r, uint32_t id);
static uint32_t frame_addr(struct raw_reader *r, uint64_t addr);
static uint32_t frame_name(struct raw_reader *r, const char *s, size_t len);
static int parse_hex(const char *s, size_t len, uint64_t *out);
static int sample_line(struct raw_reader *r, const char *s, size_t len);
static void note_bad(struct raw_reader *r);
static int fail(struct uf_err *err, const struct fold_read_opts *o, int rc);
static int open_gzip(int fd, struct fold_gz **gz, int *in, struct uf_err *err, const char *label);

/* ---- public: reader ---------------------------------------------------- */

int fold_raw_read_mem(fold_trie *t, const char *buf, size_t len, fold_raw_resolve_fn resolve,
		      void *ctx, const struct fold_read_opts *o, struct fold_read_stats *st,
		      struct fold_raw_counts *cnt, struct uf_err *err)
{
	struct raw_reader *r = calloc(1, sizeof *r);
	int rc = r ? reader_init(r, t, resolve, ctx, o, st, cnt, len) : -ENOMEM;
	for (size_t pos = 0; rc == 0 && pos < len;) {
		const char *nl = memchr(buf + pos, '\n', len - pos);
		size_t ll = nl ? (size_t)(nl - (buf + pos)) : len - pos;
		rc = take_line(r, buf + pos, ll, 0);
		pos += ll + 1;
	}
	if (rc == 0 && r->nframes)
		rc = end_stack(r, 1, 1);
	reader_free(r);
	return rc ? fail(err, o, rc) : 0;
}

/* Streams fd through buf (CHUNK bytes), line by line (invariant 1). */
static int read_chunks(struct raw_reader *r, int fd, char *buf)
{
	size_t have = 0;
	int skipping = 0, rc = 0;
	for (;;) {
		ssize_t got = read(fd, buf + have, CHUNK - have);
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0)
			return -EIO;
		size_t end = have + (size_t)got, pos = 0;
		for (char *nl; rc == 0 && (nl = memchr(buf + pos, '\n', end - pos)) != NULL;) {
			size_t ll = (size_t)(nl - (buf + pos));
			rc = take_line(r, buf + pos, ll, skipping);
			skipping = 0;
			pos += ll + 1;
		}
		if (rc || got == 0) /* at end of input: the last line has no '\n' */
			return rc ? rc : end > pos ? take_line(r, buf + pos, end - pos, skipping) : 0;
		have = end - pos;
		memmove(buf, buf + pos, have);
		if (have > FOLD_RAW_MAX_LINE) {
			skipping = 1;
			have = 0;
		}
	}
}

int fold_raw_read_fd(fold_trie *t, int fd, fold_raw_resolve_fn resolve, void *ctx,
		     const struct fold_read_opts *o, struct fold_read_stats *st,
		     struct fold_raw_counts *cnt, struct uf_err *err)
{
	struct raw_reader *r = calloc(1, sizeof *r);
	char *buf = malloc(CHUNK);
	int rc = r && buf ? reader_init(r, t, resolve, ctx, o, st, cnt, SIZE_MAX) : -ENOMEM;
	if (rc == 0)
		rc = read_chunks(r, fd, buf);
	if (rc == 0 && r->nframes)
		rc = end_stack(r, 1, 1);
	reader_free(r);
	free(buf);
	return rc ? fail(err, o, rc) : 0;
}

int fold_raw_read_path(fold_trie *t, const char *path, fold_raw_resolve_fn resolve, void *ctx,
		       const struct fold_read_opts *o, struct fold_read_stats *st,
		       struct fold_raw_counts *cnt, struct uf_err *err)
{
	struct fold_read_opts opts = *o;
	int stdin_ = strcmp(path, "-") == 0;
	opts.label = stdin_ ? "<stdin>" : path;
	int fd = stdin_ ? 0 : open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		int e = errno;
		char why[128];
		snprintf(why, sizeof why, "%s", strerror(e));
		why[0] = (char)tolower((unsigned char)why[0]);
		uf_err_set(err, UF_EINPUT, path, "cannot open: %s", why);
		return -e;
	}
	struct fold_gz *gz = NULL;
	int in = fd, rc = open_gzip(fd, &gz, &in, err, opts.label);
	if (rc == 0)
		rc = fold_raw_read_fd(t, in, resolve, ctx, &opts, st, cnt, err);
	if (gz) {
		int grc = fold_gz_finish(gz, err, opts.label);
		rc = rc ? rc : grc;
	}
	if (!stdin_)
		close(fd);
	return rc;
}

/* gzip input (magic 1f 8b): *in becomes the decompressed stream.  The two
 * bytes read to look are given back: by seeking on a file, through a
 * pass-through thread on a pipe. */
static int open_gzip(int fd, struct fold_gz **gz, int *in, struct uf_err *err, const char *label)
{
	char magic[2];
	size_t have = 0;
	while (have < 2) {
		ssize_t got = read(fd, magic + have, 2 - have);
		if (got < 0 && errno == EINTR)
			continue;
		if (got <= 0)
			break;
		have += (size_t)got;
	}
	if (have == 0)
		return 0; /* empty: the reader says so */
	int is_gz = fold_gz_magic(magic, have);
	if (!is_gz && lseek(fd, -(off_t)have, SEEK_CUR) >= 0)
		return 0; /* a file: read it from where it was */
	int rc = is_gz ? fold_gz_start(fd, magic, have, gz, err, label)
		       : fold_gz_start_plain(fd, magic, have, gz, err, label);
	if (rc == 0)
		*in = fold_gz_fd(*gz);
	return rc;
}

int fold_raw_looks_like(const char *buf, size_t len)
{
	size_t i = 0;
	while (i < len && (buf[i] == '\n' || buf[i] == '\r'))
		i++;
	if (i < len && buf[i] == '#')
		return 1;
	const char *nl = memchr(buf + i, '\n', len - i);
	size_t ll = nl ? (size_t)(nl - (buf + i)) : len - i;
	if (ll && buf[i + ll - 1] == '\r')
		ll--;
	uint64_t a;
	return ll > 2 && buf[i] == '0' && buf[i + 1] == 'x' && parse_hex(buf + i + 2, ll - 2, &a) == 0;
}

/* ---- static helpers ---------------------------------------------------- */

static int reader_init(struct raw_reader *r, fold_trie *t, fold_raw_resolve_fn resolve,
		       void *ctx, const struct fold_read_opts *o, struct fold_read_stats *st,
		       struct fold_raw_counts *cnt, size_t len)
{
	size_t slots = 64;
	while (slots < CACHE_SIZE && slots < len / 4)
		slots *= 2;
	r->t = t, r->resolve = resolve, r->ctx = ctx, r->o = o, r->st = st, r->cnt = cnt;
	r->nframes = 0;
	r->t_ns = FOLD_T_UNKNOWN;
	r->state = UF_RS_UNKNOWN;
	r->cmask = slots - 1;
	r->ckey = malloc(slots * sizeof *r->ckey);
	r->cval = malloc(slots * sizeof *r->cval);
	r->ids = malloc(FOLD_MAX_DEPTH * sizeof *r->ids);
	if (!r->ckey || !r->cval || !r->ids)
		return -ENOMEM;
	memset(r->cval, 0xff, slots * sizeof *r->cval);
	return 0;
}

static void reader_free(struct raw_reader *r)
{
	if (r) {
		free(r->ids);
		free(r->ckey);
		free(r->cval);
	}
	free(r);
}

/* Counts a line; over-long (or already skipped) lines are bad. */
static int take_line(struct raw_reader *r, const char *s, size_t len, int skipped)
{
	r->st->lines++;
	if (skipped || len > FOLD_RAW_MAX_LINE) {
		note_bad(r);
		return 0;
	}
	return feed_line(r, s, len);
}

/* One line without its '\n'.  Returns 0 or -ENOMEM. */
static int feed_line(struct raw_reader *r, const char *s, size_t len)
{
	if (len && s[len - 1] == '\r')
		len--;
	if (len == 0)
		return r->nframes ? end_stack(r, 1, 0) : 0;
	if (s[0] == '#')
		return len > 8 && !memcmp(s, "#sample ", 8) ? sample_line(r, s + 8, len - 8) : 0;
	uint64_t v;
	if (len > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X') && parse_hex(s + 2, len - 2, &v) == 0) {
		uint32_t id = frame_addr(r, v);
		return id == FOLD_NONE ? -ENOMEM : push_frame(r, id);
	}
	size_t digits = 0;
	double n = 0;
	while (digits < len && s[digits] >= '0' && s[digits] <= '9')
		n = n * 10 + (s[digits++] - '0');
	if (digits == len && len <= 15)
		return end_stack(r, n > 0 ? n : 1, n == 0);
	/* a symbolized frame: drop a trailing "+0xHEX" */
	for (size_t i = len; i-- > 0;)
		if (s[i] == '+' && i + 2 < len && s[i + 1] == '0' && s[i + 2] == 'x' &&
		    parse_hex(s + i + 3, len - i - 3, &v) == 0 && i > 0) {
			len = i;
			break;
		}
	if (len > FOLD_MAX_NAME) {
		note_bad(r);
		return 0;
	}
	uint32_t id = frame_name(r, s, len);
	return id == FOLD_NONE ? -ENOMEM : push_frame(r, id);
}

static int push_frame(struct raw_reader *r, uint32_t id)
{
	r->ids[r->nframes % FOLD_MAX_DEPTH] = id;
	r->nframes++;
	if (r->cnt)
		r->cnt->frames++;
	return 0;
}

/* Adds the current stack (ring, leaf first) to the trie. */
static int end_stack(struct raw_reader *r, double count, int broken)
{
	uint64_t n = r->nframes, t_ns = r->t_ns;
	enum uf_runstate st = r->state;
	int reverse = r->o && r->o->reverse;
	r->nframes = 0;
	r->t_ns = FOLD_T_UNKNOWN;
	r->state = UF_RS_UNKNOWN;
	if (r->cnt)
		r->cnt->broken += broken != 0;
	if (n == 0) {
		if (r->cnt)
			r->cnt->empty++;
		return 0;
	}
	uint64_t keep = n < FOLD_MAX_DEPTH ? n : FOLD_MAX_DEPTH;
	if (n > keep)
		r->st->truncated++;
	if (!fold_trie_sample_keeps(r->t, t_ns, st, count))
		return 0;
	/* the state's pseudo-frame is the leaf: first when reversed */
	uint32_t node = reverse ? fold_trie_state_leaf(r->t, FOLD_ROOT, st) : FOLD_ROOT;
	for (uint64_t k = 0; k < keep && node != FOLD_NONE; k++) {
		/* root first: frame n-1 down to n-keep; reverse: leaf first */
		uint64_t j = reverse ? n - keep + k : n - 1 - k;
		node = fold_trie_child(r->t, node, r->ids[j % FOLD_MAX_DEPTH]);
	}
	if (!reverse)
		node = fold_trie_state_leaf(r->t, node, st);
	if (node == FOLD_NONE || fold_trie_add_sample(r->t, node, count, t_ns, st) < 0)
		return -ENOMEM;
	if (r->cnt)
		r->cnt->stacks++;
	return 0;
}

/* Name id for an address: the first frame of a stack is the PC. */
static uint32_t frame_addr(struct raw_reader *r, uint64_t addr)
{
	int is_ret = r->nframes > 0;
	uint64_t key = addr << 1 | (uint64_t)is_ret;
	size_t slot = (size_t)((key * 0x9e3779b97f4a7c15ull) >> 48) & r->cmask;
	if (r->cval[slot] != FOLD_NONE && r->ckey[slot] == key)
		return r->cval[slot];
	char hex[24];
	size_t len = 0;
	const char *name = NULL;
	if (r->resolve) {
		name = r->resolve(r->ctx, addr, is_ret, &len);
		if (!name)
			name = "[unknown]", len = 9;
	} else {
		len = (size_t)snprintf(hex, sizeof hex, "0x%" PRIx64, addr);
		name = hex;
	}
	uint32_t id = fold_trie_intern(r->t, name, len > FOLD_MAX_NAME ? FOLD_MAX_NAME : len);
	if (id != FOLD_NONE)
		r->ckey[slot] = key, r->cval[slot] = id;
	return id;
}

static uint32_t frame_name(struct raw_reader *r, const char *s, size_t len)
{
	return fold_trie_intern(r->t, s, len);
}

/* 1-16 hex digits, nothing else. */
static int parse_hex(const char *s, size_t len, uint64_t *out)
{
	uint64_t v = 0;
	if (len == 0 || len > 16)
		return -1;
	for (size_t i = 0; i < len; i++) {
		char c = s[i];
		int d = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 :
			c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
		if (d < 0)
			return -1;
		v = v << 4 | (uint64_t)d;
	}
	*out = v;
	return 0;
}

/* "#sample" fields "t_ns=N state=NAME thread=N" (after the keyword):
 * each optional, unknown ones ignored; a malformed line counts as bad
 * and leaves the stack unknown. */
static int sample_line(struct raw_reader *r, const char *s, size_t len)
{
	for (size_t i = 0; i < len;) {
		while (i < len && s[i] == ' ')
			i++;
		size_t w = i;
		while (w < len && s[w] != ' ')
			w++;
		const char *f = s + i, *eq = memchr(f, '=', w - i);
		size_t klen = eq ? (size_t)(eq - f) : 0, vlen = eq ? w - i - klen - 1 : 0;
		if (klen == 4 && !memcmp(f, "t_ns", 4)) {
			uint64_t v = 0;
			size_t d = 0;
			for (; d < vlen && d < 20 && eq[1 + d] >= '0' && eq[1 + d] <= '9'; d++)
				v = v * 10 + (uint64_t)(eq[1 + d] - '0');
			if (d == 0 || d != vlen || d > 19) {
				note_bad(r);
				return 0;
			}
			r->t_ns = v;
		} else if (klen == 5 && !memcmp(f, "state", 5)) {
			char name[16];
			if (vlen < sizeof name) {
				memcpy(name, eq + 1, vlen);
				name[vlen] = 0;
				unsigned set = uf_runstate_set_parse(name);
				/* one state, not a group */
				if (set && !(set & (set - 1)))
					r->state = (enum uf_runstate)__builtin_ctz(set);
			}
		}
		i = w;
	}
	return 0;
}

static void note_bad(struct raw_reader *r)
{
	if (r->st->bad++ == 0)
		snprintf(r->st->first_bad, sizeof r->st->first_bad, "%s:%llu",
			 r->o && r->o->label ? r->o->label : "-", (unsigned long long)r->st->lines);
}

static int fail(struct uf_err *err, const struct fold_read_opts *o, int rc)
{
	const char *label = o && o->label ? o->label : "-";
	uf_err_set(err, UF_EINPUT, label, "%s", rc == -ENOMEM ? "out of memory" : "read error");
	return rc;
}
