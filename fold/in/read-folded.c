/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * fold/read-folded.c — the reader for flamegraph.pl's folded format.
 *
 * A line is "frame;frame;...;frame COUNT", optionally with a second count
 * ("BEFORE AFTER") for differentials.  The rules are flamegraph.pl's:
 * COUNT is \d+(\.\d*)? after the last whitespace byte; the stack is
 * everything before that byte; frames are split on ';' and trailing
 * empty frames are dropped.  Two deliberate differences: a trailing '\r'
 * is removed (CRLF files), and blank lines are skipped, not counted bad;
 * so are lines that start with '#' and are not stacks (record's metadata,
 * `# key: "value"`, kept in t->meta; the check runs only on lines that
 * failed to parse, off the fast path).
 *
 * Two paths.  Into an empty trie, without --reverse or a kept sequence
 * (flame charts), and with no backslash in it (names with "\xHH"
 * escapes need lookups), the input is held whole (a regular file is mapped; a
 * stream is read into memory up to FOLD_SLURP_MAX bytes, a gzip stream up
 * to FOLD_GZ_HOLD_RATIO times the compressed bytes read) and handed to
 * the sorted reader (sorted.c): lines turned into name ids and sorted,
 * each merged with its predecessor, nodes appended without a lookup, on
 * two threads.  Peak memory is then the trie plus 4 bytes a frame (a
 * mapped file is dropped from memory once indexed; a slurped stream's
 * buffer stays until the read ends).  Otherwise (and for the rest of a stream
 * past that hold) lines are streamed through one buffer, memory
 * staying with the trie; consecutive lines often share a prefix (sorted
 * input, perf's order), so the frames the previous line resolved are
 * reused up to the first differing byte, which skips most hash lookups.
 * Both paths build the same trie (tests/unit/test-fold.c compares them).
 *
 * Caps: FOLD_MAX_LINE bytes a line (longer lines are bad), FOLD_MAX_NAME
 * bytes a frame (bad line), FOLD_MAX_DEPTH frames (the rest dropped and
 * counted in stats->truncated).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fold/in/in.h"
#include "fold/in/internal.h"
#include "util/vec.h"

#define CHUNK (256u << 10)
#define FOLD_SLURP_MAX (256u << 20)

struct reader {
	fold_trie *t;
	const struct fold_read_opts *o;
	struct fold_read_stats *st;
	/* previous line's stack, for prefix reuse */
	char *prev;
	size_t prev_len, prev_cap;
	uint32_t *prev_end;     /* end offset of frame k in prev */
	uint32_t *prev_node;    /* node of frame k */
	uint32_t prev_n;
	/* scratch for --reverse */
	uint32_t *fstart, *flen;
};

static int reader_init(struct reader *r, fold_trie *t, const struct fold_read_opts *o,
		       struct fold_read_stats *st, uint64_t input_len);
static void reader_release(struct reader *r);
static int read_line(struct reader *r, const char *s, size_t len);
static int parse_count(const char *s, size_t len, size_t *tok_start, double *v);
static int sorted_ok(const fold_trie *t, const struct fold_read_opts *o);
static int read_mem(fold_trie *t, const char *buf, size_t len, int mapped,
		    const struct fold_read_opts *o, struct fold_read_stats *st, struct uf_err *err);
static void note_bad(struct reader *r);
static int add_stack(struct reader *r, const char *s, size_t len, uint32_t *leaf);
static int add_stack_reversed(struct reader *r, const char *s, size_t len, uint32_t *leaf);
static int remember(struct reader *r, const char *s, size_t len, uint32_t n);

int fold_read_folded_mem(fold_trie *t, const char *buf, size_t len,
			 const struct fold_read_opts *o, struct fold_read_stats *st,
			 struct uf_err *err)
{
	return read_mem(t, buf, len, 0, o, st, err);
}

/* fold_read_folded_mem; `mapped`: buf is a whole mapping of a file that
 * the caller unmaps, whose pages the sorted path may drop once indexed. */
static int read_mem(fold_trie *t, const char *buf, size_t len, int mapped,
		    const struct fold_read_opts *o, struct fold_read_stats *st, struct uf_err *err)
{
	if (sorted_ok(t, o)) {
		int rc = fold_read_sorted_mem(t, buf, len, mapped, o, st, err);
		if (rc != 1) /* 1: declined (escaped names), stream it */
			return rc;
	} else if (o->reverse == 0 && !t->keep_seq && len >= FOLD_SORTED_SPLIT) {
		/* a big input into a non-empty trie: sorted into its own, merged */
		fold_trie *tmp = fold_trie_new();
		int rc = tmp ? fold_read_sorted_mem(tmp, buf, len, mapped, o, st, err) : -ENOMEM;
		if (rc == 0 && (rc = fold_trie_merge(t, tmp)) != 0)
			uf_err_set(err, UF_EINPUT, o->label, "out of memory");
		fold_trie_free(tmp);
		if (rc != 1)
			return rc;
	}
	if (mapped && len >= FOLD_SORTED_SPLIT && len < FOLD_MAP_POPULATE_MAX)
		fold_populate(buf, len); /* as map_flags left it to the reader */
	struct reader r;
	if (reader_init(&r, t, o, st, len)) {
		uf_err_set(err, UF_EINPUT, o->label, "out of memory");
		return -ENOMEM;
	}
	int rc = 0;
	while (len > 0 && rc == 0) {
		const char *nl = memchr(buf, '\n', len);
		size_t n = nl ? (size_t)(nl - buf) : len;
		if (n > FOLD_MAX_LINE) {
			st->lines++;
			note_bad(&r);
		} else {
			rc = read_line(&r, buf, n);
		}
		buf += nl ? n + 1 : n;
		len -= nl ? n + 1 : n;
	}
	reader_release(&r);
	if (rc)
		uf_err_set(err, UF_EINPUT, o->label, "out of memory");
	return rc;
}

int fold_read_folded_fd(fold_trie *t, int fd, const struct fold_read_opts *o,
			struct fold_read_stats *st, struct uf_err *err)
{
	return fold_read_folded_fd_prefixed(t, fd, NULL, NULL, 0, o, st, err);
}

/* Where bytes come from: read() on a stream, or pread() of a byte range. */
struct source {
	int fd;
	int64_t off;       /* -1: read() */
	uint64_t left;     /* bytes left in the range */
};

static ssize_t source_read(struct source *s, char *buf, size_t n)
{
	if (s->off < 0)
		return read(s->fd, buf, n);
	if (n > s->left)
		n = (size_t)s->left;
	ssize_t got = n ? pread(s->fd, buf, n, (off_t)s->off) : 0;
	if (got > 0) {
		s->off += got;
		s->left -= (uint64_t)got;
	}
	return got;
}

static int read_stream(fold_trie *t, struct source *src, const char *prefix, size_t plen,
		       const struct fold_read_opts *o, struct fold_read_stats *st, struct uf_err *err);

static int read_whole(fold_trie *t, int fd, const struct fold_gz *gz, const char *prefix,
		      size_t plen, const struct fold_read_opts *o, struct fold_read_stats *st,
		      struct uf_err *err);

int fold_read_folded_fd_prefixed(fold_trie *t, int fd, const struct fold_gz *gz,
				 const char *prefix, size_t plen,
				 const struct fold_read_opts *o, struct fold_read_stats *st,
				 struct uf_err *err)
{
	if (!o->reverse && !t->keep_seq)
		return read_whole(t, fd, gz, prefix, plen, o, st, err);
	struct source src = { fd, -1, 0 };
	return read_stream(t, &src, prefix, plen, o, st, err);
}

/* A small file is mapped populated (one call maps every page); from
 * FOLD_SORTED_SPLIT the reader populates it (internal.h: each index lane
 * its own part, the streaming reader the whole); a big one's pages come in
 * as the sorted reader's index reaches them and leave behind it (sorted.c
 * drops what it has indexed), so the whole file is never resident at
 * once. */
static int map_flags(size_t size)
{
	return size < FOLD_SORTED_SPLIT ? MAP_POPULATE : 0;
}

/* How much of a stream may be held: FOLD_SLURP_MAX, and for a gzip stream
 * at most FOLD_GZ_HOLD_RATIO times the compressed bytes read so far, so
 * what is held (and the sorted index, up to ~18 bytes a byte of short
 * lines) stays proportional to the file, not to what it inflates to. */
static size_t hold_max(const struct fold_gz *gz)
{
	if (!gz)
		return FOLD_SLURP_MAX;
	uint64_t m = fold_gz_in_bytes(gz) * FOLD_GZ_HOLD_RATIO;
	m = m < FOLD_GZ_HOLD_MIN_FOLDED ? FOLD_GZ_HOLD_MIN_FOLDED : m;
	return m < FOLD_SLURP_MAX ? (size_t)m : FOLD_SLURP_MAX;
}

/* A regular file is mapped and read by the sorted path.  A stream is read
 * into memory up to hold_max() bytes: all of it, then sorted; past that,
 * what was read is sorted and the rest streamed, so memory stays bounded
 * on an endless pipe or a gzip bomb. */
static int read_whole(fold_trie *t, int fd, const struct fold_gz *gz, const char *prefix,
		      size_t plen, const struct fold_read_opts *o, struct fold_read_stats *st,
		      struct uf_err *err)
{
	struct stat sb;
	if (fstat(fd, &sb) == 0 && S_ISREG(sb.st_mode) && lseek(fd, 0, SEEK_CUR) == (off_t)plen &&
	    (uint64_t)sb.st_size >= plen) {
		size_t size = (size_t)sb.st_size;
		if (size == 0)
			return 0;
		char *map = mmap(NULL, size, PROT_READ, MAP_PRIVATE | map_flags(size), fd, 0);
		if (map != MAP_FAILED) {
			int rc = read_mem(t, map, size, 1, o, st, err);
			munmap(map, size);
			return rc;
		}
	}
	size_t cap = plen > CHUNK ? plen * 2 : CHUNK, have = plen;
	char *buf = malloc(cap);
	if (!buf) {
		uf_err_set(err, UF_EINPUT, o->label, "out of memory");
		return -ENOMEM;
	}
	memcpy(buf, prefix, plen);
	int rc = 0, eof = 0;
	while (!eof && have < hold_max(gz)) {
		if (have == cap && uf_vec_grow(&buf, &cap, cap * 2, 1)) {
			rc = -ENOMEM;
			uf_err_set(err, UF_EINPUT, o->label, "out of memory");
			break;
		}
		ssize_t got = read(fd, buf + have, cap - have);
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0) {
			rc = -errno;
			uf_err_set(err, UF_EINPUT, o->label, "read failed: %s", UF_STRERROR(errno));
			break;
		}
		eof = got == 0;
		have += (size_t)got;
	}
	size_t head = have;
	if (rc == 0 && !eof) { /* stop at the last full line; stream the rest */
		const char *nl = memrchr(buf, '\n', have);
		head = nl ? (size_t)(nl + 1 - buf) : 0;
	}
	if (rc == 0 && head)
		rc = fold_read_folded_mem(t, buf, head, o, st, err);
	if (rc == 0 && !eof) {
		struct source src = { fd, -1, 0 };
		rc = read_stream(t, &src, buf + head, have - head, o, st, err);
	}
	free(buf);
	return rc;
}

int fold_read_folded_range(fold_trie *t, int fd, uint64_t off, uint64_t len,
			   const struct fold_read_opts *o, struct fold_read_stats *st,
			   struct uf_err *err)
{
	struct source src = { fd, (int64_t)off, len };
	return read_stream(t, &src, NULL, 0, o, st, err);
}

static int read_stream(fold_trie *t, struct source *src, const char *prefix, size_t plen,
		       const struct fold_read_opts *o, struct fold_read_stats *st, struct uf_err *err)
{
	struct reader r;
	/* a byte range smaller than CHUNK gets a buffer its size (+1: reaching
	 * the buffer's end means a line longer than the buffer) */
	uint64_t known = src->off >= 0 ? plen + src->left : UINT64_MAX;
	size_t cap = plen > CHUNK ? plen * 2 : known < CHUNK ? (size_t)known + 1 : CHUNK, have = plen;
	char *buf = malloc(cap);
	int rc = 0, skipping = 0;
	if (!buf || reader_init(&r, t, o, st, known)) {
		free(buf);
		uf_err_set(err, UF_EINPUT, o->label, "out of memory");
		return -ENOMEM;
	}
	if (plen)
		memcpy(buf, prefix, plen);
	for (;;) {
		ssize_t got = source_read(src, buf + have, cap - have);
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0) {
			uf_err_set(err, UF_EINPUT, o->label, "read failed: %s", UF_STRERROR(errno));
			rc = -errno;
			break;
		}
		have += (size_t)got;
		size_t pos = 0;
		for (;;) {
			char *nl = memchr(buf + pos, '\n', have - pos);
			if (!nl)
				break;
			size_t n = (size_t)(nl - (buf + pos));
			if (skipping) {
				skipping = 0;
			} else if ((rc = read_line(&r, buf + pos, n)) != 0) {
				break;
			}
			pos += n + 1;
		}
		if (rc)
			break;
		if (got == 0) { /* EOF: the last line may lack its newline */
			if (have > pos && !skipping)
				rc = read_line(&r, buf + pos, have - pos);
			break;
		}
		memmove(buf, buf + pos, have - pos);
		have -= pos;
		if (have == cap) {
			if (cap >= FOLD_MAX_LINE) { /* over-long line: drop it */
				st->lines++;
				note_bad(&r);
				skipping = 1;
				have = 0;
			} else if (uf_vec_grow(&buf, &cap, cap * 2, 1)) {
				rc = -ENOMEM;
				break;
			}
		}
	}
	if (rc == -ENOMEM)
		uf_err_set(err, UF_EINPUT, o->label, "out of memory");
	free(buf);
	reader_release(&r);
	return rc;
}

/* ---- two files as one differential -------------------------------------- */

/* Maps a regular file that holds folded text (as fold_read_path's
 * detector tells); 1 when it is something else or not a regular file. */
static int map_folded(const char *path, const char **buf, size_t *len, struct uf_err *err)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	struct stat sb;
	if (fd < 0) {
		uf_err_set(err, UF_EINPUT, path, "cannot open: %s", UF_STRERROR(errno));
		return -errno;
	}
	int rc = 1;
	if (fstat(fd, &sb) == 0 && S_ISREG(sb.st_mode) && sb.st_size > 0) {
		void *m = mmap(NULL, (size_t)sb.st_size, PROT_READ, MAP_PRIVATE | map_flags((size_t)sb.st_size),
			       fd, 0);
		if (m != MAP_FAILED) {
			*buf = m;
			*len = (size_t)sb.st_size;
			size_t n = *len < FOLD_DETECT_MAX ? *len : FOLD_DETECT_MAX;
			rc = fold_detect_format(*buf, n, n == *len) == FOLD_FMT_FOLDED ? 0 : 1;
			if (rc)
				munmap(m, *len);
		}
	}
	close(fd);
	return rc;
}

int fold_read_diff_paths(fold_trie *t, const char *before, const char *after, int normalize,
			 int swap, struct fold_read_stats st[2], struct uf_err *err)
{
	const char *buf[2] = { 0 };
	size_t len[2] = { 0 };
	const char *path[2] = { before, after };
	if (!sorted_ok(t, &(struct fold_read_opts){ 0 }) || !strcmp(before, "-") || !strcmp(after, "-"))
		return 1;
	int rc = map_folded(before, &buf[0], &len[0], err);
	if (rc == 0 && (rc = map_folded(after, &buf[1], &len[1], err)) != 0) {
		munmap((void *)buf[0], len[0]);
		buf[0] = NULL;
	}
	if (rc)
		return rc;
	struct fold_read_opts o[2] = { { .label = before }, { .label = after } };
	struct fold_src src[2];
	for (int i = 0; i < 2; i++)
		src[i] = (struct fold_src){ .buf = buf[i], .len = len[i], .o = &o[i], .st = &st[i],
					    .role = (i == 1) != (swap != 0) ? FOLD_SRC_DRAWN : FOLD_SRC_BASE,
					    .mapped = 1 };
	rc = fold_read_sorted(t, src, 2, err);
	for (int i = 0; i < 2; i++)
		munmap((void *)buf[i], len[i]);
	if (rc == 1) /* declined: escaped names; the caller reads them one by one */
		return 1;
	for (int i = 0; rc == 0 && i < 2; i++) {
		if (src[i].valid)
			continue;
		rc = -EINVAL;
		if (st[i].bad) /* as cli_read_inputs says it */
			uf_err_set(err, UF_EINPUT, path[i], "no valid stacks (%llu invalid line%s, the first at %s)",
				   (unsigned long long)st[i].bad, st[i].bad == 1 ? "" : "s", st[i].first_bad);
		else
			uf_err_set(err, UF_EINPUT, path[i], "no valid stacks");
	}
	if (rc)
		return rc;
	/* BEFORE scaled to the drawn total, as fold_trie_diff_into does */
	double drawn = 0, base = 0;
	for (uint32_t i = 0; i < t->nnodes; i++) {
		drawn += t->self[i];
		base += t->base[i];
	}
	double scale = normalize ? drawn / base : 1;
	t->max_line_delta = 0;
	for (uint32_t i = 0; i < t->nnodes; i++) {
		t->base[i] *= scale;
		double d = t->self[i] - t->base[i];
		if (d < 0)
			d = -d;
		if (d > t->max_line_delta)
			t->max_line_delta = d;
	}
	return 0;
}

/* ---- one line --------------------------------------------------------- */

int fold_parse_line(const char *s, size_t len, struct fold_line *fl)
{
	if (len && s[len - 1] == '\r')
		len--;
	size_t i = 0;
	while (i < len && (s[i] == ' ' || s[i] == '\t'))
		i++;
	if (i == len)
		return 1; /* blank */
	size_t tok, tok2;
	fl->before = 0;
	fl->two = 0;
	if (parse_count(s, len, &tok, &fl->after))
		return -1;
	len = tok - 1; /* the stack ends before the separating whitespace */
	if (parse_count(s, len, &tok2, &fl->before) == 0) {
		fl->two = 1;
		len = tok2 - 1;
	}
	while (len > 0 && s[len - 1] == ';') /* split drops trailing empty frames */
		len--;
	fl->len = len;
	return 0;
}

static int read_line(struct reader *r, const char *s, size_t len)
{
	r->st->lines++;
	struct fold_line fl;
	int p = fold_parse_line(s, len, &fl);
	if (p == 1)
		return 0;
	if (p) {
		size_t i = 0;
		while (i < len && (s[i] == ' ' || s[i] == '\t'))
			i++;
		if (s[i] != '#') /* a comment (record's metadata) is not a bad line */
			note_bad(r);
		else
			fold_meta_from_comment(r->t, s + i, len - i - (s[len - 1] == '\r'));
		return 0;
	}
	uint32_t leaf;
	int rc = r->o->reverse ? add_stack_reversed(r, s, fl.len, &leaf) : add_stack(r, s, fl.len, &leaf);
	if (rc == 1) {
		note_bad(r);
		return 0;
	}
	if (rc)
		return rc;
	return fl.two ? fold_trie_add2(r->t, leaf, fl.before, fl.after) : fold_trie_add(r->t, leaf, fl.after);
}

static int is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

/* Matches \s(\d+(\.\d*)?)$ at the end of s[0..len); *tok_start is the
 * first byte of the count.  Only the trailing run of digits and dots is
 * scanned, so the test stays cheap on long stacks.  Returns 0 on a match. */
static int parse_count(const char *s, size_t len, size_t *tok_start, double *v)
{
	size_t e = len;
	while (e > 0 && ((s[e - 1] >= '0' && s[e - 1] <= '9') || s[e - 1] == '.'))
		e--;
	if (e == 0 || e == len || !is_space(s[e - 1]))
		return -1;
	const char *p = s + e, *end = s + len;
	uint64_t ip = 0;
	const char *q = p;
	while (q < end && *q >= '0' && *q <= '9') {
		ip = ip * 10 + (uint64_t)(*q - '0');
		q++;
	}
	if (q == p || (q < end && *q != '.'))
		return -1;
	if (q < end) { /* fraction */
		for (const char *f = q + 1; f < end; f++)
			if (*f < '0' || *f > '9')
				return -1;
	}
	if (q < end || q - p > 18) { /* a fraction, or too long for the fast path */
		char tmp[64];
		size_t n = (size_t)(end - p);
		if (n >= sizeof tmp)
			return -1;
		memcpy(tmp, p, n);
		tmp[n] = 0;
		*v = strtod(tmp, NULL);
	} else {
		*v = (double)ip;
	}
	*tok_start = e;
	return 0;
}

static void note_bad(struct reader *r)
{
	if (r->st->bad++ == 0) {
		r->st->first_bad_line = r->st->lines;
		snprintf(r->st->first_bad, sizeof r->st->first_bad, "%s:%llu",
			 r->o->label ? r->o->label : "-", (unsigned long long)r->st->lines);
	}
}

/* ---- frames into the trie --------------------------------------------- */


/* Frames of s[0..len) root first.  Returns 0, 1 for a bad line (a frame
 * over FOLD_MAX_NAME), or -ENOMEM. */
static int add_stack(struct reader *r, const char *s, size_t len, uint32_t *leaf)
{
	while (len > 0 && s[len - 1] == ';') /* split drops trailing empty frames */
		len--;
	size_t lim = len < r->prev_len ? len : r->prev_len;
	size_t common = fold_common_prefix(s, r->prev, lim);
	uint32_t k = 0, node = FOLD_ROOT;
	while (k < r->prev_n && r->prev_end[k] < common)
		node = r->prev_node[k++];
	if (k == r->prev_n && common == len && len == r->prev_len && k > 0) {
		*leaf = node;
		return 0;
	}
	size_t pos = k ? r->prev_end[k - 1] + 1 : 0;
	if (len == 0) {
		*leaf = FOLD_ROOT;
		return remember(r, s, 0, 0);
	}
	while (pos <= len) {
		const char *f = s + pos;
		const char *semi = memchr(f, ';', len - pos);
		size_t flen = semi ? (size_t)(semi - f) : len - pos;
		if (flen > FOLD_MAX_NAME) {
			r->prev_n = 0; /* the reuse state is half overwritten */
			r->prev_len = 0;
			return 1;
		}
		if (k >= FOLD_MAX_DEPTH) {
			r->st->truncated++;
			break;
		}
		uint32_t nm = fold_intern_folded_frame(r->t, f, flen); /* decodes \xHH */
		node = nm == FOLD_NONE ? FOLD_NONE : fold_trie_child(r->t, node, nm);
		if (node == FOLD_NONE)
			return -ENOMEM;
		r->prev_node[k] = node;
		r->prev_end[k++] = (uint32_t)(pos + flen);
		pos += flen + 1;
	}
	*leaf = node;
	return remember(r, s, len, k);
}

static int remember(struct reader *r, const char *s, size_t len, uint32_t n)
{
	if (uf_vec_grow(&r->prev, &r->prev_cap, len + 1, 1))
		return -ENOMEM;
	memcpy(r->prev, s, len);
	r->prev_len = len;
	r->prev_n = n;
	return 0;
}

/* flamegraph.pl --reverse: join(";", reverse split(";", stack)), then
 * split again, so empty frames at either end disappear. */
static int add_stack_reversed(struct reader *r, const char *s, size_t len, uint32_t *leaf)
{
	while (len > 0 && s[len - 1] == ';')
		len--;
	size_t frames = len ? 1 : 0, skip = 0;
	for (const char *p = s; (p = memchr(p, ';', len - (size_t)(p - s))) != NULL; p++)
		frames++;
	if (frames > FOLD_MAX_DEPTH) { /* keep the leaf side: it becomes the root */
		skip = frames - FOLD_MAX_DEPTH;
		r->st->truncated++;
	}
	uint32_t n = 0;
	size_t idx = 0;
	for (size_t pos = 0; len > 0 && pos <= len; idx++) {
		const char *semi = memchr(s + pos, ';', len - pos);
		size_t flen = semi ? (size_t)(semi - (s + pos)) : len - pos;
		if (flen > FOLD_MAX_NAME)
			return 1;
		if (idx >= skip) {
			r->fstart[n] = (uint32_t)pos;
			r->flen[n++] = (uint32_t)flen;
		}
		pos += flen + 1;
	}
	uint32_t lo = 0;
	while (lo < n && r->flen[lo] == 0)
		lo++;
	uint32_t node = FOLD_ROOT;
	for (uint32_t j = n; j > lo; j--) {
		uint32_t nm = fold_intern_folded_frame(r->t, s + r->fstart[j - 1], r->flen[j - 1]);
		node = nm == FOLD_NONE ? FOLD_NONE : fold_trie_child(r->t, node, nm);
		if (node == FOLD_NONE)
			return -ENOMEM;
	}
	*leaf = node;
	return 0;
}

/* ---- setup ------------------------------------------------------------ */

/* The sorted path builds a trie from nothing and knows no line order. */
static int sorted_ok(const fold_trie *t, const struct fold_read_opts *o)
{
	return !o->reverse && !t->keep_seq && t->nnodes == 1 && t->self[0] == 0 && !t->base;
}

/* The depth arrays hold FOLD_MAX_DEPTH frames, or input_len + 2 when that
 * is less: a line of n bytes has at most n + 1 frames, one ';' between two
 * (four arrays of 8192 cost a small input more than reading it). */
static int reader_init(struct reader *r, fold_trie *t, const struct fold_read_opts *o,
		       struct fold_read_stats *st, uint64_t input_len)
{
	size_t depth = input_len < FOLD_MAX_DEPTH ? (size_t)input_len + 2 : FOLD_MAX_DEPTH;
	memset(r, 0, sizeof *r);
	r->t = t;
	r->o = o;
	r->st = st;
	r->prev_end = malloc(depth * sizeof *r->prev_end);
	r->prev_node = malloc(depth * sizeof *r->prev_node);
	r->fstart = malloc(depth * sizeof *r->fstart);
	r->flen = malloc(depth * sizeof *r->flen);
	r->prev = malloc(64);
	r->prev_cap = 64;
	if (!r->prev_end || !r->prev_node || !r->fstart || !r->flen || !r->prev) {
		reader_release(r);
		return -ENOMEM;
	}
	return 0;
}

static void reader_release(struct reader *r)
{
	free(r->prev);
	free(r->prev_end);
	free(r->prev_node);
	free(r->fstart);
	free(r->flen);
}
