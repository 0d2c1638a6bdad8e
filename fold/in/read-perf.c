/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * fold/read-perf.c — the reader for `perf script` text: collapses each
 * sample's call chain into the trie exactly as FlameGraph's
 * stackcollapse-perf.pl does, with the same options (--pid, --tid,
 * --kernel, --jit, --all, --addrs, --event-filter).
 *
 * The script is a set of Perl regexes; this file reproduces what those
 * regexes match, including their backtracking corner cases, with linear
 * scans (see header_match and frame_match).  A sample is:
 *
 *     comm pid/tid [cpu] time: [period] event:     <- header line
 *     \t addr sym+0xoff (dso)                       <- frames, leaf first
 *     ...
 *     (empty line)                                  <- commits the sample
 *
 * and becomes the folded stack "comm;outermost;...;leaf" counted with its
 * period (1 when absent).  What the script does that we do too, on
 * purpose, because users compare outputs: a sample is only counted when
 * an empty line follows it (the last one of a file without a final empty
 * line is dropped); only events of the first event type seen are kept
 * unless --event-filter names one (the others are counted for a warning);
 * one-character comms never match the header pattern, so their samples
 * are dropped.  One deliberate difference: a trailing '\r' is removed
 * from every line, so CRLF files read like LF files.
 *
 * Time and run state (issue 30).  A header's timestamp is the sample's
 * time.  A sampling event (its name ends the header: cpu-clock, cycles)
 * fires in the thread on the CPU: running.  A sched:sched_switch (a
 * tracepoint: its fields follow its name, so the script keeps it whatever
 * the event filter, with period 1) is the thread leaving the CPU, in its
 * prev_state: R/R+ runnable (preempted), S/D/I... blocked, T/t/X/Z
 * offline; its stack ends in that state's pseudo-frame ("[blocked]").
 * Such a wait weighs the nanoseconds until the thread is back: switched
 * in (next_pid) or sampled again, else the last timestamp of the input;
 * so with cpu-clock or task-clock (periods in ns) running and waiting
 * samples share one unit, wall time, and the default graph shows where
 * the time went, on the CPU or not (as off-CPU flame graphs do).  Other
 * tracepoints: unknown state, period 1.  Without timestamps a wait weighs 1.
 * Waits are added when they end (their time is the switch-out).  A big
 * file read in two halves ends the first half's open waits at its last
 * timestamp.
 *
 * Trade-off: a frame line's name is recomputed for every occurrence (no
 * cache of line -> name); the work is a few short scans and one interning
 * lookup, cheaper than hashing the whole line for a cache.  Big regular
 * files are read as two halves on two threads, cut at an empty line (the
 * script's state is empty there), into two tries that are then merged.
 *
 * Invariants:
 *  1. Between samples (after an empty line) the reader holds no frames
 *     and no process name, so any cut at an empty line is exact.
 *  2. Frames of one sample live in a ring of FOLD_MAX_DEPTH ids: deeper
 *     samples keep their outermost frames, and the sample is counted in
 *     stats->truncated.  Memory is independent of the input size.
 *  3. The default event filter of a split read is the first event of the
 *     whole file (found by a sequential scan before the split).
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fold/in/in.h"
#include "fold/in/internal.h"
#include "util/hash.h"
#include "util/thread.h"
#include "util/vec.h"

#define CHUNK (256u << 10)
#define EVENT_MAX 256             /* longest event name kept for the filter */
#define SPLIT_MIN_BYTES (16u << 20)
#define SPLIT_SEARCH (1u << 20)   /* how far past the middle to look for a cut */

/* Frame line -> its names.  Real captures repeat the same few thousand
 * frame lines (same address, symbol and dso) millions of times; one hash
 * and memcmp of the line replaces matching and tidying it.  Bounded:
 * lines up to CACHE_MAX_LINE bytes, CACHE_MAX_BYTES of keys in all. */
#define CACHE_MAX_LINE 1024u
#define CACHE_MAX_BYTES (32u << 20)

struct line_cache {
	uint64_t *hash;
	uint32_t *koff, *klen;    /* key: keys[koff .. koff+klen) */
	uint32_t *goff, *gn;      /* names: groups[goff .. goff+gn) */
	uint8_t *java;
	uint32_t n, cap;
	uint32_t *slots;          /* entry + 1, 0 = empty */
	uint32_t mask;
	char *keys;
	size_t keys_len, keys_cap;
	uint32_t *groups;
	size_t groups_len, groups_cap;
};

/* Threads switched out by a sched:sched_switch whose wait has not ended:
 * tid -> the wait's path end, start time and state.  A wait weighs the ns
 * until the thread is seen again (switched in, or sampled), so waits and
 * a cpu-clock profile (period in ns) share one unit.  Open addressing;
 * at most WAITS_MAX at a time (more weigh 1 at once). */
#define WAITS_MAX (1u << 20)
struct wait {
	uint32_t tid1;            /* tid + 1, 0 = empty */
	uint32_t node;
	uint64_t t_out;
	uint8_t state;
};
struct waits {
	struct wait *w;
	uint32_t mask, n;         /* slots - 1 (0 = none yet), used slots */
};

struct perf_reader {
	fold_trie *t;
	const struct fold_read_opts *o;
	struct fold_read_stats *st;
	int pid, tid, kernel, jit, addrs;
	/* event filter: the option, or the first event seen */
	char event[EVENT_MAX];
	size_t event_len;
	int event_set, defaulted;
	int scan_only;            /* only find the first event (split reads) */
	size_t chunk;             /* first read buffer: CHUNK, less for a small file */
	/* the sample being read */
	int have_pname;           /* the script's $pname is true */
	char *pname;
	size_t pname_len, pname_cap;
	int java;
	double period;
	uint64_t t_ns;            /* the header's timestamp, FOLD_T_UNKNOWN */
	enum uf_runstate state;   /* running, a sched_switch's prev_state, unknown */
	uint32_t tid_num;         /* the header's thread id */
	uint64_t t_last;          /* the latest timestamp read */
	struct waits waits;       /* switched-out threads, weighed when back */
	uint32_t *ring;           /* frame name ids, leaf first, see invariant 2 */
	size_t nframes;
	/* scratch */
	char *buf;                /* one processed name */
	size_t buf_cap;
	uint32_t *group;          /* names of one frame line ("a->b" inlines) */
	size_t group_cap, group_n;
	struct line_cache cache;
};

/* What frame_match found in a stack line (offsets into the line). */
struct frame_parts {
	size_t pc, pc_len, func, func_len, mod, mod_len;
};

static int reader_init(struct perf_reader *r, fold_trie *t, const struct fold_read_opts *o,
		       struct fold_read_stats *st);
static void reader_release(struct perf_reader *r);
static int perf_line(struct perf_reader *r, const char *s, size_t len);
static int header_line(struct perf_reader *r, const char *s, size_t len, size_t comm_len,
		       size_t pid, size_t pid_len, size_t tid, size_t tid_len);
static int header_event(struct perf_reader *r, const char *s, size_t len, double *period);
static uint64_t header_time(const char *s, size_t len, size_t from);
static enum uf_runstate header_state(const char *s, size_t len, int sampled_event);
static int ev_found(const char *s, size_t len);
static int wait_end(struct perf_reader *r, uint32_t tid, uint64_t t_in);
static int wait_start(struct perf_reader *r, uint32_t node);
static int waits_flush(struct perf_reader *r);
static int switch_next_pid(const char *s, size_t len, uint32_t *pid);
static int frame_line(struct perf_reader *r, const char *s, const struct frame_parts *fp);
static int commit(struct perf_reader *r);
static void push_group(struct perf_reader *r, const uint32_t *g, size_t n);
static void cache_add(struct perf_reader *r, const char *s, size_t len, uint64_t h);
static int64_t cache_find(const struct line_cache *c, const char *s, size_t len, uint64_t h,
			  int java);
static int header_match(const char *s, size_t len, size_t *comm_len, size_t *pid,
			size_t *pid_len, size_t *tid, size_t *tid_len);
static int event_match(const char *s, size_t len, size_t *period, size_t *period_len,
		       size_t *ev, size_t *ev_len);
static int frame_match(const char *s, size_t len, struct frame_parts *fp);
static int sniff_frame(const char *s, size_t n);
static void note_bad(struct perf_reader *r);
static inline int is_ws(unsigned char c);
static int read_stream(struct perf_reader *r, int fd, int64_t off, uint64_t left,
		       const char *prefix, size_t plen, struct uf_err *err);
static int read_split(fold_trie *t, int fd, uint64_t size, const struct fold_read_opts *o,
		      struct fold_read_stats *st, struct uf_err *err);

/* ---- public ----------------------------------------------------------- */

int fold_read_perf_fd(fold_trie *t, int fd, const char *prefix, size_t plen,
		      const struct fold_read_opts *o, struct fold_read_stats *st, struct uf_err *err)
{
	struct stat sb;
	int reg = fstat(fd, &sb) == 0 && S_ISREG(sb.st_mode);
	/* a regular file read from its start can be split (invariant 1) */
	if (!t->keep_seq && !fold_trie_has_cut(t) && reg && (uint64_t)sb.st_size >= SPLIT_MIN_BYTES &&
	    lseek(fd, 0, SEEK_CUR) == (off_t)plen) {
		int rc = read_split(t, fd, (uint64_t)sb.st_size, o, st, err);
		if (rc != 1)
			return rc;
	}
	struct perf_reader r;
	if (reader_init(&r, t, o, st)) {
		uf_err_set(err, UF_EINPUT, o->label, "out of memory");
		return -ENOMEM;
	}
	/* a small file needs no 256 KiB buffer: a power of 2 (so doubling
	 * still meets FOLD_MAX_LINE) that holds it, grown if the file grows */
	while (reg && r.chunk > 4096 && (uint64_t)sb.st_size + plen < r.chunk / 2)
		r.chunk /= 2;
	int rc = read_stream(&r, fd, -1, 0, prefix, plen, err);
	if (rc == 0 && (rc = waits_flush(&r)) < 0)
		uf_err_set(err, UF_EINPUT, o->label, "out of memory");
	reader_release(&r);
	return rc;
}

int fold_read_perf_mem(fold_trie *t, const char *buf, size_t len, const struct fold_read_opts *o,
		       struct fold_read_stats *st, struct uf_err *err)
{
	struct perf_reader r;
	if (reader_init(&r, t, o, st)) {
		uf_err_set(err, UF_EINPUT, o->label, "out of memory");
		return -ENOMEM;
	}
	int rc = 0;
	while (len > 0 && rc == 0) {
		const char *nl = memchr(buf, '\n', len);
		size_t n = nl ? (size_t)(nl - buf) : len;
		rc = perf_line(&r, buf, n);
		buf += nl ? n + 1 : n;
		len -= nl ? n + 1 : n;
	}
	if (rc == 0)
		rc = waits_flush(&r);
	reader_release(&r);
	if (rc)
		uf_err_set(err, UF_EINPUT, o->label, "out of memory");
	return rc;
}

int fold_perf_sniff(const char *buf, size_t len, int eof)
{
	size_t pos = 0;
	while (pos < len) { /* skip comments and empty lines */
		const char *s = buf + pos, *nl = memchr(s, '\n', len - pos);
		if (!nl && !eof)
			return -1; /* the line it needs is not complete */
		size_t n = nl ? (size_t)(nl - s) : len - pos;
		pos += n + 1;
		if (n && s[n - 1] == '\r')
			n--;
		if (n == 0 || s[0] == '#')
			continue;
		size_t cl, p, pl, ti, tl, a, b, c, d;
		if (is_ws((unsigned char)s[0]) || header_match(s, n, &cl, &p, &pl, &ti, &tl))
			return 0;
		if (event_match(s, n, &a, &b, &c, &d) == 0)
			return 1;
		/* a tracepoint's arguments follow its event: a frame line next */
		if (pos >= len)
			return eof ? 0 : -1;
		const char *nx = buf + pos, *nl2 = memchr(nx, '\n', len - pos);
		if (!nl2 && !eof)
			return -1;
		size_t n2 = nl2 ? (size_t)(nl2 - nx) : len - pos;
		return n2 && sniff_frame(nx, n2);
	}
	return eof ? 0 : -1;
}

/* Whether the line after a header without an event (perf script -F with
 * no time field, or a tracepoint's arguments) is one of its frames, as
 * every -F list prints them (tests/interop/t-perf-fields.sh): a line the
 * script reads as a frame, tab-indented or not (the script's frame
 * pattern starts with \s*, so `-F ...,ip,sym,dso` piped through a tool
 * that strips the tabs still reads); or, with no "(dso)" (-F ip,sym), an
 * indented hex address and a blank: the script then counts the samples
 * by process name alone, and so do we. */
static int sniff_frame(const char *s, size_t n)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t cl, p, pl, ti, tl;
	struct frame_parts fp;
	if (!is_ws(u[0]) && header_match(s, n, &cl, &p, &pl, &ti, &tl) == 0)
		return 0; /* the script tries the header pattern first */
	if (frame_match(s, n, &fp) == 0)
		return 1;
	size_t i = 0;
	while (i < n && is_ws(u[i]))
		i++;
	size_t h = i;
	while (i < n && ((u[i] >= '0' && u[i] <= '9') || (u[i] >= 'a' && u[i] <= 'f')))
		i++;
	return h > 0 && i > h && i < n && u[i] == ' ';
}

/* ---- classes of byte (the Perl regex classes, ASCII rules) ----------- */

static inline int is_ws(unsigned char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

static inline int is_digit(unsigned char c)
{
	return c >= '0' && c <= '9';
}

static inline int is_word(unsigned char c)
{
	return is_digit(c) || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

/* Whether s[0..len) contains the two bytes a b (memmem's setup costs
 * more than the short names searched here). */
static const char *find2(const char *s, size_t len, char a, char b)
{
	const char *end = s + len, *p = s;
	while (p + 1 < end && (p = memchr(p, a, (size_t)(end - 1 - p))) != NULL) {
		if (p[1] == b)
			return p;
		p++;
	}
	return NULL;
}

static int has(const char *s, size_t len, const char *needle)
{
	size_t n = strlen(needle);
	for (const char *p = s; (p = find2(p, len - (size_t)(p - s), needle[0], needle[1])) != NULL; p++)
		if ((size_t)(s + len - p) >= n && memcmp(p, needle, n) == 0)
			return 1;
	return 0;
}

/* ---- one line --------------------------------------------------------- */

static int perf_line(struct perf_reader *r, const char *s, size_t len)
{
	r->st->lines++;
	if (len && s[0] == '#')
		return 0;
	if (len && s[len - 1] == '\r')
		len--;
	if (len == 0)
		return r->scan_only ? 0 : commit(r);
	size_t cl, pid, pl, tid, tl;
	if (!is_ws((unsigned char)s[0]) && header_match(s, len, &cl, &pid, &pl, &tid, &tl) == 0)
		return header_line(r, s, len, cl, pid, pl, tid, tl);
	uint64_t h = 0;
	int cacheable = len <= CACHE_MAX_LINE;
	if (cacheable) {
		h = uf_hash_bytes(s, len) ^ (uint64_t)r->java;
		int64_t e = cache_find(&r->cache, s, len, h, r->java);
		if (e >= 0) {
			if (r->have_pname && !r->scan_only && r->cache.gn[e])
				push_group(r, r->cache.groups + r->cache.goff[e], r->cache.gn[e]);
			return 0;
		}
	}
	struct frame_parts fp;
	if (frame_match(s, len, &fp) == 0) {
		if (!r->have_pname || r->scan_only)
			return 0; /* a filtered sample's frame */
		int rc = frame_line(r, s, &fp);
		if (rc < 0)
			return rc;
		if (rc == 0 && cacheable)
			cache_add(r, s, len, h);
		push_group(r, r->group, r->group_n);
		return 0;
	}
	note_bad(r);
	return 0;
}

/* The cache entry of line s (hash h), or -1. */
static int64_t cache_find(const struct line_cache *c, const char *s, size_t len, uint64_t h,
			  int java)
{
	if (!c->slots)
		return -1;
	for (uint32_t i = (uint32_t)h & c->mask; c->slots[i]; i = (i + 1) & c->mask) {
		uint32_t e = c->slots[i] - 1;
		if (c->hash[e] == h && c->klen[e] == len && c->java[e] == java &&
		    memcmp(c->keys + c->koff[e], s, len) == 0)
			return e;
	}
	return -1;
}

/* Doubles the slot table when half full.  Returns 0 or -ENOMEM. */
static int cache_rehash(struct line_cache *c)
{
	if (c->slots && (uint64_t)(c->n + 1) * 2 <= (uint64_t)c->mask + 1)
		return 0;
	uint32_t cap = c->slots ? (c->mask + 1) * 2 : 4096;
	uint32_t *ns = calloc(cap, sizeof *ns);
	if (!ns)
		return -ENOMEM;
	for (uint32_t e = 0; e < c->n; e++) {
		uint32_t i = (uint32_t)c->hash[e] & (cap - 1);
		while (ns[i])
			i = (i + 1) & (cap - 1);
		ns[i] = e + 1;
	}
	free(c->slots);
	c->slots = ns;
	c->mask = cap - 1;
	return 0;
}

/* Remembers the names of line s (best effort: a full cache or no memory
 * only means the next occurrence is tidied again). */
static void cache_add(struct perf_reader *r, const char *s, size_t len, uint64_t h)
{
	struct line_cache *c = &r->cache;
	if (c->keys_len + len > CACHE_MAX_BYTES || cache_rehash(c))
		return;
	size_t cap = c->cap, c2 = c->cap, c3 = c->cap, c4 = c->cap, c5 = c->cap, c6 = c->cap;
	if (uf_vec_grow(&c->hash, &cap, c->n + 1, sizeof *c->hash) ||
	    uf_vec_grow(&c->koff, &c2, c->n + 1, sizeof *c->koff) ||
	    uf_vec_grow(&c->klen, &c3, c->n + 1, sizeof *c->klen) ||
	    uf_vec_grow(&c->goff, &c4, c->n + 1, sizeof *c->goff) ||
	    uf_vec_grow(&c->gn, &c5, c->n + 1, sizeof *c->gn) ||
	    uf_vec_grow(&c->java, &c6, c->n + 1, sizeof *c->java) ||
	    uf_vec_grow(&c->keys, &c->keys_cap, c->keys_len + len, 1) ||
	    uf_vec_grow(&c->groups, &c->groups_cap, c->groups_len + r->group_n, sizeof *c->groups))
		return;
	c->cap = (uint32_t)cap; /* all six grew alike, or the call returned */
	uint32_t e = c->n++;
	c->hash[e] = h;
	c->koff[e] = (uint32_t)c->keys_len;
	c->klen[e] = (uint32_t)len;
	c->goff[e] = (uint32_t)c->groups_len;
	c->gn[e] = (uint32_t)r->group_n;
	c->java[e] = (uint8_t)r->java;
	if (len) /* empty key or no group: the arrays may still be NULL */
		memcpy(c->keys + c->keys_len, s, len);
	c->keys_len += len;
	if (r->group_n) { /* a line with no names ("(proc)" frames) has no group */
		memcpy(c->groups + c->groups_len, r->group, r->group_n * sizeof *c->groups);
		c->groups_len += r->group_n;
	}
	uint32_t i = (uint32_t)h & c->mask;
	while (c->slots[i])
		i = (i + 1) & c->mask;
	c->slots[i] = e + 1;
}

/* A header: sets the process name, period and event (the script's
 * "event record start" branch). */
static int header_line(struct perf_reader *r, const char *s, size_t len, size_t comm_len,
		       size_t pid, size_t pid_len, size_t tid, size_t tid_len)
{
	double period;
	int ev = header_event(r, s, len, &period);
	if (ev == -2) { /* its sample is dropped: $pname unset */
		note_bad(r);
		r->have_pname = 0;
		r->nframes = 0;
		return 0;
	}
	if (ev != 0 || r->scan_only)
		return ev > 0 ? 1 : 0; /* found (scan), or another event: $pname unchanged */
	r->period = period;
	r->t_ns = header_time(s, len, tid + tid_len > pid + pid_len ? tid + tid_len : pid + pid_len);
	r->state = header_state(s, len, ev_found(s, len));
	if (r->t_ns != FOLD_T_UNKNOWN && r->t_ns > r->t_last)
		r->t_last = r->t_ns;
	r->tid_num = 0; /* "PID/0" and a lone number: the thread is the first number */
	int by_tid = tid_len && !(tid_len == 1 && s[tid] == '0');
	for (size_t i = by_tid ? tid : pid; i < (by_tid ? tid + tid_len : pid + pid_len) && i - (by_tid ? tid : pid) < 10; i++)
		r->tid_num = r->tid_num * 10 + (uint32_t)(s[i] - '0');
	/* the thread runs again: its wait ends; so does the next_pid's */
	int rc = wait_end(r, r->tid_num, r->t_ns);
	uint32_t next;
	if (rc == 0 && switch_next_pid(s, len, &next))
		rc = wait_end(r, next, r->t_ns);
	if (rc < 0)
		return rc;
	/* tid missing or "0": the script shows pid "?" and the first number as tid */
	int no_tid = tid_len == 0 || (tid_len == 1 && s[tid] == '0');
	if (no_tid) {
		tid = pid, tid_len = pid_len;
		pid = 0, pid_len = 0;
	}
	if (uf_vec_grow(&r->pname, &r->pname_cap, comm_len + pid_len + tid_len + 4, 1))
		return -ENOMEM;
	char *p = r->pname;
	memcpy(p, s, comm_len);
	size_t n = comm_len;
	if (r->pid || r->tid) {
		p[n++] = '-';
		if (no_tid)
			p[n++] = '?';
		memcpy(p + n, s + pid, pid_len);
		n += pid_len;
		if (r->tid) {
			p[n++] = '/';
			memcpy(p + n, s + tid, tid_len);
			n += tid_len;
		}
	}
	for (size_t i = 0; i < n; i++)
		if (p[i] == ' ')
			p[i] = '_';
	r->pname_len = n;
	r->have_pname = 1;
	/* Java signatures are tidied when the root frame is exactly "java":
	 * the oracle's --pid/--tid outputs ("java-PID" untidied) were made by
	 * the script before its commit e54f142 widened this to /^java/ */
	r->java = n == 4 && memcmp(p, "java", 4) == 0;
	return 0;
}

/* The event filter and the period of a header: 0 keep (*period set), -1
 * another event than the filter's, 1 the first event was just found
 * while only scanning for it, -2 a period of more than
 * FOLD_MAX_COUNT_CHARS digits (leading zeros aside): a bad line, as such a
 * count is in folded text (summed, it would become infinite, which no
 * writer can put back). */
static int header_event(struct perf_reader *r, const char *s, size_t len, double *period)
{
	size_t per = 0, per_len = 0, ev, ev_len;
	*period = 1; /* Perl: `not $period` for undef, "" and "0" */
	if (event_match(s, len, &per, &per_len, &ev, &ev_len) != 0)
		return 0;
	size_t keep = ev_len < EVENT_MAX ? ev_len : EVENT_MAX; /* longer names: compared by prefix */
	if (!r->event_set) {
		r->event_set = r->defaulted = 1;
		r->event_len = ev_len;
		memcpy(r->event, s + ev, keep);
		size_t show = keep < sizeof r->st->perf_event - 1 ? keep : sizeof r->st->perf_event - 1;
		memcpy(r->st->perf_event, r->event, show);
		r->st->perf_event[show] = 0;
		if (r->scan_only)
			return 1;
	} else if (ev_len != r->event_len || memcmp(s + ev, r->event, keep) != 0) {
		r->st->perf_other++;
		return -1;
	}
	size_t zeros = 0; /* "00" stays Perl's true string, period 0 */
	while (zeros + 1 < per_len && s[per + zeros] == '0')
		zeros++;
	if (per_len - zeros > FOLD_MAX_COUNT_CHARS)
		return -2;
	if (per_len > 1 || (per_len == 1 && s[per] != '0')) {
		*period = 0;
		for (size_t i = 0; i < per_len; i++)
			*period = *period * 10 + (s[per + i] - '0');
	}
	return 0;
}

/* The header's timestamp "SECONDS.FRACTION:" (the first such word after
 * the pid/tid, at `from`), in ns; FOLD_T_UNKNOWN without one (perf script
 * -F without time). */
static uint64_t header_time(const char *s, size_t len, size_t from)
{
	for (size_t i = from; i < len; i++) {
		if (!is_digit((unsigned char)s[i]) || (i > 0 && !is_ws((unsigned char)s[i - 1])))
			continue;
		uint64_t sec = 0, frac = 0;
		size_t j = i, fd = 0;
		for (; j < len && is_digit((unsigned char)s[j]) && j - i < 12; j++)
			sec = sec * 10 + (uint64_t)(s[j] - '0');
		if (j >= len || s[j] != '.')
			continue;
		for (j++; j < len && is_digit((unsigned char)s[j]); j++)
			if (fd < 9)
				frac = frac * 10 + (uint64_t)(s[j] - '0'), fd++;
		if (j >= len || s[j] != ':' || fd == 0)
			continue;
		for (; fd < 9; fd++)
			frac *= 10;
		return sec * 1000000000ull + frac;
	}
	return FOLD_T_UNKNOWN;
}

/* Whether the header names its event last (a sampling event such as
 * cpu-clock or cycles), rather than a tracepoint followed by its fields. */
static int ev_found(const char *s, size_t len)
{
	size_t a, b, c, d;
	return event_match(s, len, &a, &b, &c, &d) == 0;
}

/* What the sampled thread was doing: a sampling event fires in the
 * thread that is on the CPU (running); a sched:sched_switch is the thread
 * leaving the CPU, in its prev_state (R, R+: preempted, runnable; S, D,
 * I and the other sleeps: blocked; T, t, X, Z: stopped or gone, offline);
 * any other tracepoint says nothing (unknown). */
static enum uf_runstate header_state(const char *s, size_t len, int sampled_event)
{
	static const char sw[] = " sched:sched_switch:", ps[] = "prev_state=";
	if (sampled_event)
		return UF_RS_RUNNING;
	const char *at = NULL;
	for (size_t i = 0; i + sizeof sw - 1 <= len && !at; i++)
		if (!memcmp(s + i, sw, sizeof sw - 1))
			at = s + i + sizeof sw - 1;
	for (; at && at + sizeof ps - 1 < s + len; at++) {
		if (memcmp(at, ps, sizeof ps - 1))
			continue;
		switch (at[sizeof ps - 1]) {
		case 'R': return UF_RS_RUNNABLE;
		case 'T': case 't': case 'X': case 'Z': return UF_RS_OFFLINE;
		case 'S': case 'D': case 'I': case 'W': case 'K': case 'P': case 'N': return UF_RS_BLOCKED;
		default: return UF_RS_UNKNOWN;
		}
	}
	return UF_RS_UNKNOWN;
}

/* Ends a sample: "pname;frames..." counted with the period, when the cut
 * keeps it; a waiting sample ends in its state's pseudo-frame. */
static int commit(struct perf_reader *r)
{
	if (!r->have_pname)
		return 0;
	if (!fold_trie_sample_keeps(r->t, r->t_ns, r->state, r->period)) {
		r->have_pname = 0;
		r->nframes = 0;
		return 0;
	}
	uint32_t node = FOLD_ROOT;
	/* the name may hold ';': the joined stack splits there when read back */
	for (size_t pos = 0; pos <= r->pname_len;) {
		const char *semi = memchr(r->pname + pos, ';', r->pname_len - pos);
		size_t n = semi ? (size_t)(semi - (r->pname + pos)) : r->pname_len - pos;
		uint32_t nm = fold_trie_intern(r->t, r->pname + pos, n);
		node = nm == FOLD_NONE ? FOLD_NONE : fold_trie_child(r->t, node, nm);
		if (node == FOLD_NONE)
			return -ENOMEM;
		pos += n + 1;
	}
	size_t keep = r->nframes;
	if (keep > FOLD_MAX_DEPTH) {
		keep = FOLD_MAX_DEPTH;
		r->st->truncated++;
	}
	/* newest ring entry is the outermost frame */
	for (size_t i = 0; i < keep; i++) {
		size_t k = (r->nframes - 1 - i) % FOLD_MAX_DEPTH;
		node = fold_trie_child(r->t, node, r->ring[k]);
		if (node == FOLD_NONE)
			return -ENOMEM;
	}
	r->have_pname = 0; /* the script's undef $pname */
	r->nframes = 0;
	node = fold_trie_state_leaf(r->t, node, r->state);
	if (node == FOLD_NONE)
		return -ENOMEM;
	if (r->state != UF_RS_RUNNING && r->state != UF_RS_UNKNOWN && r->t_ns != FOLD_T_UNKNOWN)
		return wait_start(r, node);
	return fold_trie_add_sample(r->t, node, r->period, r->t_ns, r->state);
}

/* ---- waits (sched:sched_switch) ----------------------------------------- */

static struct wait *wait_slot(struct waits *w, uint32_t tid)
{
	if (!w->mask)
		return NULL;
	for (uint32_t j = (tid * 0x9e3779b1u) & w->mask;; j = (j + 1) & w->mask)
		if (!w->w[j].tid1 || w->w[j].tid1 == tid + 1)
			return &w->w[j];
}

/* Adds the wait of `tid` that began at e->t_out, weighing t_in - t_out
 * ns, and frees its slot (backward-shift deletion keeps probes whole). */
static int wait_end(struct perf_reader *r, uint32_t tid, uint64_t t_in)
{
	struct wait *e = wait_slot(&r->waits, tid);
	if (!e || !e->tid1)
		return 0;
	struct wait w = *e;
	double ns = t_in != FOLD_T_UNKNOWN && t_in > w.t_out ? (double)(t_in - w.t_out) : 1;
	uint32_t i = (uint32_t)(e - r->waits.w), mask = r->waits.mask;
	e->tid1 = 0;
	r->waits.n--;
	for (uint32_t j = (i + 1) & mask; r->waits.w[j].tid1; j = (j + 1) & mask) {
		uint32_t home = ((r->waits.w[j].tid1 - 1) * 0x9e3779b1u) & mask;
		if (((j - home) & mask) >= ((j - i) & mask)) {
			r->waits.w[i] = r->waits.w[j];
			r->waits.w[j].tid1 = 0;
			i = j;
		}
	}
	return fold_trie_add_sample(r->t, w.node, ns, w.t_out, (enum uf_runstate)w.state);
}

static int waits_grow(struct waits *w)
{
	uint32_t slots = w->mask ? (w->mask + 1) * 2 : 64;
	struct wait *nw = calloc(slots, sizeof *nw);
	if (!nw)
		return -ENOMEM;
	struct waits g = { nw, slots - 1, 0 };
	for (uint32_t i = 0; w->mask && i <= w->mask; i++)
		if (w->w[i].tid1) {
			*wait_slot(&g, w->w[i].tid1 - 1) = w->w[i];
			g.n++;
		}
	free(w->w);
	*w = g;
	return 0;
}

/* The current sample (a switch-out at r->t_ns, path end `node`) starts a
 * wait of r->tid_num; one still open for it (a missed switch-in) ends here. */
static int wait_start(struct perf_reader *r, uint32_t node)
{
	int rc = wait_end(r, r->tid_num, r->t_ns);
	if (rc < 0)
		return rc;
	if (r->waits.n >= WAITS_MAX)
		return fold_trie_add_sample(r->t, node, 1, r->t_ns, r->state);
	if (((uint64_t)r->waits.n + 1) * 2 > (uint64_t)r->waits.mask + 1 && waits_grow(&r->waits) < 0)
		return -ENOMEM;
	struct wait *e = wait_slot(&r->waits, r->tid_num);
	*e = (struct wait){ r->tid_num + 1, node, r->t_ns, (uint8_t)r->state };
	r->waits.n++;
	return 0;
}

/* At the end of input, waits still open end at the last timestamp read. */
static int waits_flush(struct perf_reader *r)
{
	for (uint32_t i = 0; r->waits.mask && i <= r->waits.mask; i++) {
		while (r->waits.w[i].tid1) { /* wait_end may shift another entry here */
			int rc = wait_end(r, r->waits.w[i].tid1 - 1, r->t_last);
			if (rc < 0)
				return rc;
		}
	}
	return 0;
}

/* A sched_switch's "next_pid=N" (the thread switched in). */
static int switch_next_pid(const char *s, size_t len, uint32_t *pid)
{
	static const char key[] = " next_pid=";
	for (size_t i = 0; i + sizeof key - 1 < len; i++) {
		if (memcmp(s + i, key, sizeof key - 1))
			continue;
		size_t j = i + sizeof key - 1, d = 0;
		uint32_t v = 0;
		for (; j < len && d < 10 && is_digit((unsigned char)s[j]); j++, d++)
			v = v * 10 + (uint32_t)(s[j] - '0');
		*pid = v;
		return d > 0;
	}
	return 0;
}

/* ---- the regexes ------------------------------------------------------ */

/* The header regex ^(\S.+?)\s+(\d+)\/ *(\d+)*\s+ (read without the
 * space): the shortest comm of at least two bytes followed by blanks,
 * digits, slashes, digits and a blank.  Every start
 * of one blank run gives the same answer, so each run is tried once.
 * Returns 0 on a match; tid_len is 0 when the third group is unset. */
static int header_match(const char *s, size_t len, size_t *comm_len, size_t *pid,
			size_t *pid_len, size_t *tid, size_t *tid_len)
{
	const unsigned char *u = (const unsigned char *)s;
	if (len < 2 || is_ws(u[0]))
		return -1;
	size_t i = 2;
	while (i < len) {
		if (!is_ws(u[i])) {
			i++;
			continue;
		}
		size_t p = i;
		while (p < len && is_ws(u[p]))
			p++;
		size_t d0 = p;
		while (p < len && is_digit(u[p]))
			p++;
		size_t d1 = p;
		while (p < len && u[p] == '/')
			p++;
		size_t t0 = p;
		while (p < len && is_digit(u[p]))
			p++;
		if (d1 > d0 && p < len && is_ws(u[p])) {
			*comm_len = i;
			*pid = d0, *pid_len = d1 - d0;
			*tid = t0, *tid_len = p - t0;
			return 0;
		}
		i = d0 > i ? d0 : i + 1; /* past this blank run */
	}
	return -1;
}

/* /:\s*(\d+)*\s+(\S+):\s*$/: the last word ends in ':' and is the event;
 * before it blanks, optional digits (the period), optional blanks and a
 * ':'.  Returns 0 on a match; period_len is 0 when unset. */
static int event_match(const char *s, size_t len, size_t *period, size_t *period_len,
		       size_t *ev, size_t *ev_len)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t e = len;
	while (e > 0 && is_ws(u[e - 1]))
		e--;
	if (e < 2 || u[e - 1] != ':')
		return -1;
	size_t w = e - 1; /* the event word is [w, e-1) */
	while (w > 0 && !is_ws(u[w - 1]))
		w--;
	if (w == e - 1 || w == 0)
		return -1;
	size_t q = w;
	while (q > 0 && is_ws(u[q - 1]))
		q--;
	size_t dend = q;
	while (q > 0 && is_digit(u[q - 1]))
		q--;
	size_t dstart = q;
	while (q > 0 && is_ws(u[q - 1]))
		q--;
	if (q == 0 || u[q - 1] != ':')
		return -1;
	*period = dstart, *period_len = dend - dstart;
	*ev = w, *ev_len = e - 1 - w;
	return 0;
}

/* /^\s*(\w+)\s*(.+) \((.*)\)/ with Perl's backtracking order: (.+) ends
 * at the last " (" that a ')' follows, (.*) at the last ')'; when the
 * greedy word and blanks leave (.+) nothing, the word gives back bytes
 * (so "7f3c (dso)" reads as pc "7f3", func "c"). */
static int frame_match(const char *s, size_t len, struct frame_parts *fp)
{
	const unsigned char *u = (const unsigned char *)s;
	const char *close = memrchr(s, ')', len);
	if (!close)
		return -1;
	size_t lp = (size_t)(close - s), P = SIZE_MAX;
	for (size_t p = lp >= 1 ? lp - 1 : 0; p-- > 0;) { /* p <= lp - 2 */
		if (u[p] == ' ' && u[p + 1] == '(') {
			P = p;
			break;
		}
	}
	if (P == SIZE_MAX)
		return -1;
	size_t a = 0;
	while (a < len && is_ws(u[a]))
		a++;
	size_t e = a;
	while (e < len && is_word(u[e]))
		e++;
	if (e == a || P < a + 2)
		return -1;
	size_t wend, k;
	if (e + 1 <= P) {
		wend = e;
		size_t se = e;
		while (se < len && is_ws(u[se]))
			se++;
		k = se < P - 1 ? se : P - 1;
	} else {
		wend = P - 1;
		k = P - 1;
	}
	fp->pc = a, fp->pc_len = wend - a;
	fp->func = k, fp->func_len = P - k;
	fp->mod = P + 2, fp->mod_len = lp - (P + 2);
	return 0;
}

/* ---- one frame line: the script's tidying and annotations ----------- */

static int tidy_one(struct perf_reader *r, const char *f, size_t flen, const char *s,
		    const struct frame_parts *fp, int inlined, uint32_t *id);

static int frame_line(struct perf_reader *r, const char *s, const struct frame_parts *fp)
{
	const char *f = s + fp->func;
	size_t flen = fp->func_len;
	/* s/\+0x[\da-f]+$// */
	size_t h = flen;
	while (h > 0 && (is_digit((unsigned char)f[h - 1]) || (f[h - 1] >= 'a' && f[h - 1] <= 'f')))
		h--;
	if (h < flen && h >= 3 && f[h - 1] == 'x' && f[h - 2] == '0' && f[h - 3] == '+')
		flen = h - 3;
	r->group_n = 0;
	if (flen && f[0] == '(')
		return 0; /* the script skips process names */
	/* split /->/: leading empty fields kept, trailing ones dropped */
	size_t n = 0, last_nonempty = 0;
	for (size_t pos = 0; pos <= flen;) {
		const char *arrow = find2(f + pos, flen - pos, '-', '>');
		size_t plen = arrow ? (size_t)(arrow - (f + pos)) : flen - pos;
		if (uf_vec_grow(&r->group, &r->group_cap, n + 1, sizeof *r->group))
			return -ENOMEM;
		int rc = tidy_one(r, f + pos, plen, s, fp, n > 0, &r->group[n]);
		if (rc < 0)
			return rc;
		if (rc == 1) {
			r->group_n = 0;
			return 1; /* a name over the cap: skip the frame */
		}
		n++;
		if (plen)
			last_nonempty = n;
		if (!arrow)
			break;
		pos += plen + 2;
	}
	r->group_n = last_nonempty;
	return 0;
}

static void push_group(struct perf_reader *r, const uint32_t *g, size_t n)
{
	for (size_t i = n; i > 0; i--) /* ring: newest is outermost */
		r->ring[r->nframes++ % FOLD_MAX_DEPTH] = g[i - 1];
}

/* Copies f[0..n) into the scratch buffer with ';' as ':' and quotes
 * dropped, cut at the first '(' that does not open "(anonymous
 * namespace)" unless the name looks like a Go method ".(T).". */
static size_t tidy_generic(char *out, const char *f, size_t n)
{
	const char *paren = memchr(f, '(', n);
	const char *dp = paren ? find2(f, n, '.', '(') : NULL;
	int go = 0;
	if (dp) {
		for (size_t y = n; y >= 2 && !go; y--)
			if (f[y - 2] == ')' && f[y - 1] == '.' && f + y - 2 >= dp + 2)
				go = 1;
	}
	size_t o = 0;
	for (size_t i = 0; i < n; i++) {
		char c = f[i];
		if (c == '(' && paren && !go &&
		    !(n - i - 1 >= 20 && memcmp(f + i + 1, "anonymous namespace)", 20) == 0))
			break;
		if (c == '"' || c == '\'')
			continue;
		out[o++] = c == ';' ? ':' : c;
	}
	return o;
}

static int is_jit_map(const char *m, size_t n)
{
	for (const char *p = m; (p = find2(p, n - (size_t)(p - m), '/', 't')) != NULL; p++) {
		if ((size_t)(m + n - p) < 10 || memcmp(p, "/tmp/perf-", 10) != 0)
			continue;
		const char *d = p + 10, *end = m + n;
		const char *q = d;
		while (q < end && is_digit((unsigned char)*q))
			q++;
		if (q > d && end - q >= 4 && memcmp(q, ".map", 4) == 0)
			return 1;
	}
	return 0;
}

/* "[unknown]" as the script rewrites it: "[dso basename]", or
 * "[unknown]" without a DSO; with --addrs "[name <pc>]".  Writes to w and
 * returns the length (at most mod_len + pc_len + 12 bytes). */
static size_t unknown_name(const struct perf_reader *r, char *w, const char *s,
			   const struct frame_parts *fp)
{
	const char *mod = s + fp->mod;
	size_t mlen = fp->mod_len, o = 0;
	w[o++] = '[';
	if (mlen == 9 && memcmp(mod, "[unknown]", 9) == 0) {
		memcpy(w + o, "unknown", 7);
		o += 7;
	} else {
		const char *sl = memrchr(mod, '/', mlen);
		size_t from = sl ? (size_t)(sl - mod) + 1 : 0;
		memcpy(w + o, mod + from, mlen - from);
		o += mlen - from;
	}
	if (r->addrs) {
		w[o++] = ' ';
		w[o++] = '<';
		memcpy(w + o, s + fp->pc, fp->pc_len);
		o += fp->pc_len;
		w[o++] = '>';
	}
	w[o++] = ']';
	return o;
}

/* The annotation the script appends, or NULL: "_[i]" for the inlined
 * names after the first of a line, "_[k]" kernel, "_[j]" JIT. */
static const char *annotation(const struct perf_reader *r, const char *name, size_t n,
			      const char *mod, size_t mlen, int inlined)
{
	if (inlined)
		return has(name, n, "_[i]") ? NULL : "_[i]";
	if (r->kernel && mlen && (mod[0] == '[' || (mlen >= 7 && !memcmp(mod + mlen - 7, "vmlinux", 7))) &&
	    !has(mod, mlen, "unknown"))
		return "_[k]";
	if (r->jit && is_jit_map(mod, mlen) && !has(name, n, "_[j]"))
		return "_[j]";
	return NULL;
}

/* One name of a frame line; returns 0 (id set), 1 (name over the cap)
 * or -ENOMEM. */
static int tidy_one(struct perf_reader *r, const char *f, size_t flen, const char *s,
		    const struct frame_parts *fp, int inlined, uint32_t *id)
{
	if (uf_vec_grow(&r->buf, &r->buf_cap, 2 * (flen + fp->mod_len + fp->pc_len) + 64, 1))
		return -ENOMEM;
	char *b = r->buf;
	if (flen == 9 && memcmp(f, "[unknown]", 9) == 0) {
		/* built past where tidy_generic writes, then tidied from there */
		char *w = b + flen + fp->mod_len + fp->pc_len + 16;
		flen = unknown_name(r, w, s, fp);
		f = w;
	}
	size_t n = tidy_generic(b, f, flen);
	char *name = b;
	if (r->java && n && name[0] == 'L' && memchr(name, '/', n)) {
		name++;
		n--;
	}
	const char *suffix = annotation(r, name, n, s + fp->mod, fp->mod_len, inlined);
	if (suffix) {
		memcpy(name + n, suffix, 4);
		n += 4;
	}
	if (n > FOLD_MAX_NAME) {
		note_bad(r);
		return 1;
	}
	*id = fold_trie_intern(r->t, name, n);
	return *id == FOLD_NONE ? -ENOMEM : 0;
}

static void note_bad(struct perf_reader *r)
{
	if (r->st->bad++ == 0) {
		r->st->first_bad_line = r->st->lines;
		snprintf(r->st->first_bad, sizeof r->st->first_bad, "%s:%llu",
			 r->o->label ? r->o->label : "-", (unsigned long long)r->st->lines);
	}
}

/* ---- streaming -------------------------------------------------------- */

/* Reads up to the free space of buf from fd (off < 0: read(); else
 * pread() of what is left of the range [*off, *off + *left)). */
static ssize_t fill(int fd, int64_t *off, uint64_t *left, char *buf, size_t room)
{
	if (*off < 0)
		return read(fd, buf, room);
	size_t want = room < *left ? room : (size_t)*left;
	ssize_t got = want ? pread(fd, buf, want, (off_t)*off) : 0;
	if (got > 0)
		*off += got, *left -= (uint64_t)got;
	return got;
}

/* Feeds the complete lines of buf[*pos, have) to the reader. */
static int feed_lines(struct perf_reader *r, char *buf, size_t have, size_t *pos, int *skipping)
{
	char *nl;
	int rc = 0;
	while (rc == 0 && (nl = memchr(buf + *pos, '\n', have - *pos)) != NULL) {
		size_t n = (size_t)(nl - (buf + *pos));
		if (*skipping)
			*skipping = 0;
		else
			rc = perf_line(r, buf + *pos, n);
		*pos += n + 1;
	}
	return rc;
}

/* Reads lines from fd (off < 0: read(); else pread() of [off, off+left))
 * after the `plen` bytes of prefix. */
static int read_stream(struct perf_reader *r, int fd, int64_t off, uint64_t left,
		       const char *prefix, size_t plen, struct uf_err *err)
{
	size_t cap = plen > r->chunk ? plen * 2 : r->chunk, have = plen;
	char *buf = malloc(cap);
	int rc = 0, skipping = 0;
	if (!buf) {
		uf_err_set(err, UF_EINPUT, r->o->label, "out of memory");
		return -ENOMEM;
	}
	if (plen)
		memcpy(buf, prefix, plen);
	for (;;) {
		ssize_t got = fill(fd, &off, &left, buf + have, cap - have);
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0) {
			uf_err_set(err, UF_EINPUT, r->o->label, "read failed: %s", UF_STRERROR(errno));
			rc = -errno;
			break;
		}
		have += (size_t)got;
		size_t pos = 0;
		if ((rc = feed_lines(r, buf, have, &pos, &skipping)) != 0)
			break;
		if (got == 0) { /* the last line may lack its newline */
			if (have > pos && !skipping)
				rc = perf_line(r, buf + pos, have - pos);
			break;
		}
		memmove(buf, buf + pos, have - pos);
		have -= pos;
		if (have == cap && cap >= FOLD_MAX_LINE) { /* over-long line: drop it */
			r->st->lines++;
			note_bad(r);
			skipping = 1;
			have = 0;
		} else if (have == cap && uf_vec_grow(&buf, &cap, cap * 2, 1)) {
			rc = -ENOMEM;
			break;
		}
	}
	if (rc == 1)
		rc = 0; /* scan_only found its event */
	if (rc == -ENOMEM)
		uf_err_set(err, UF_EINPUT, r->o->label, "out of memory");
	free(buf);
	return rc;
}

/* ---- two halves on two threads --------------------------------------- */

struct half {
	struct perf_reader r;
	struct fold_read_stats st;
	struct uf_err err;
	int fd;
	uint64_t off, len;
	int rc;
};

static void *read_half(void *arg)
{
	struct half *h = arg;
	h->rc = read_stream(&h->r, h->fd, (int64_t)h->off, h->len, NULL, 0, &h->err);
	if (h->rc == 0 && waits_flush(&h->r) < 0) {
		h->rc = -ENOMEM;
		uf_err_set(&h->err, UF_EINPUT, h->r.o->label, "out of memory");
	}
	return NULL;
}

/* The offset just after an empty line near the middle; 0 if none. */
static uint64_t split_point(int fd, uint64_t size)
{
	size_t cap = SPLIT_SEARCH;
	char *b = malloc(cap);
	uint64_t cut = 0;
	ssize_t got = b ? pread(fd, b, cap, (off_t)(size / 2)) : -1;
	for (ssize_t i = 0; got > 0 && i + 1 < got; i++) {
		if (b[i] == '\n' && (b[i + 1] == '\n' || (b[i + 1] == '\r' && i + 2 < got && b[i + 2] == '\n'))) {
			cut = size / 2 + (uint64_t)i + (b[i + 1] == '\n' ? 2 : 3);
			break;
		}
	}
	free(b);
	return cut < size ? cut : 0;
}

/* Invariant 3: a sequential scan finds the file's first event, which both
 * halves then filter on.  Returns 0 or a negative errno. */
static int share_first_event(struct half *a, struct half *b, int fd, uint64_t size,
			     struct uf_err *err)
{
	struct fold_read_stats scan_st = { 0 };
	struct perf_reader *s = &b->r;
	s->scan_only = 1;
	s->st = &scan_st;
	int rc = read_stream(s, fd, 0, size, NULL, 0, err);
	s->scan_only = 0;
	s->st = &b->st;
	a->r.event_set = b->r.event_set;
	a->r.defaulted = b->r.defaulted;
	a->r.event_len = b->r.event_len;
	memcpy(a->r.event, b->r.event, sizeof a->r.event);
	memcpy(a->st.perf_event, scan_st.perf_event, sizeof a->st.perf_event);
	return rc;
}

/* Reads both halves (b on a thread), merges b's trie into a's, sums the
 * statistics into *st. */
static int run_halves(struct half *a, struct half *b, fold_trie *t, fold_trie *tb,
		      const struct fold_read_opts *o, struct fold_read_stats *st, struct uf_err *err)
{
	struct uf_thread th;
	int threaded = uf_thread_start_part(&th, read_half, b) == 0;
	read_half(a);
	if (threaded)
		uf_thread_join(&th);
	else
		read_half(b);
	int rc = a->rc ? a->rc : b->rc;
	if (rc)
		*err = a->rc ? a->err : b->err;
	else if ((rc = fold_trie_merge(t, tb)) != 0)
		uf_err_set(err, UF_EINPUT, o->label, "out of memory");
	else
		fold_trie_when_merge(t, tb);
	*st = a->st;
	st->lines += b->st.lines;
	st->bad += b->st.bad;
	st->truncated += b->st.truncated;
	st->perf_other += b->st.perf_other;
	if (!a->st.bad && b->st.bad)
		snprintf(st->first_bad, sizeof st->first_bad, "%s:%llu", o->label,
			 (unsigned long long)(a->st.lines + b->st.first_bad_line));
	return rc;
}

/* Returns 1 when the split does not apply (caller reads as a stream). */
static int read_split(fold_trie *t, int fd, uint64_t size, const struct fold_read_opts *o,
		      struct fold_read_stats *st, struct uf_err *err)
{
	uint64_t cut = split_point(fd, size);
	if (!cut)
		return 1;
	struct half *a = calloc(1, sizeof *a), *b = calloc(1, sizeof *b);
	fold_trie *tb = fold_trie_new();
	int rc = 1;
	if (!a || !b || !tb || reader_init(&a->r, t, o, &a->st) || reader_init(&b->r, tb, o, &b->st))
		goto out;
	rc = a->r.event_set ? 0 : share_first_event(a, b, fd, size, err);
	a->fd = b->fd = fd;
	a->off = 0, a->len = cut;
	b->off = cut, b->len = size - cut;
	if (rc == 0)
		rc = run_halves(a, b, t, tb, o, st, err);
out:
	if (a)
		reader_release(&a->r);
	if (b)
		reader_release(&b->r);
	fold_trie_free(tb);
	free(a);
	free(b);
	return rc;
}

/* ---- setup ------------------------------------------------------------ */

static int reader_init(struct perf_reader *r, fold_trie *t, const struct fold_read_opts *o,
		       struct fold_read_stats *st)
{
	memset(r, 0, sizeof *r);
	r->t = t;
	r->o = o;
	r->st = st;
	r->chunk = CHUNK;
	const struct fold_perf_opts *po = o->perf;
	if (po) {
		r->pid = po->pid;
		r->tid = po->tid;
		r->kernel = po->kernel || po->all;
		r->jit = po->jit || po->all;
		r->addrs = po->addrs;
		if (po->event && po->event[0]) {
			r->event_set = 1;
			r->event_len = strlen(po->event);
			memcpy(r->event, po->event, r->event_len < EVENT_MAX ? r->event_len : EVENT_MAX);
		}
	}
	r->ring = malloc(FOLD_MAX_DEPTH * sizeof *r->ring);
	if (!r->ring)
		return -ENOMEM;
	return 0;
}

static void reader_release(struct perf_reader *r)
{
	struct line_cache *c = &r->cache;
	free(r->waits.w);
	free(c->hash);
	free(c->koff);
	free(c->klen);
	free(c->goff);
	free(c->gn);
	free(c->java);
	free(c->slots);
	free(c->keys);
	free(c->groups);
	free(r->ring);
	free(r->pname);
	free(r->buf);
	free(r->group);
}
