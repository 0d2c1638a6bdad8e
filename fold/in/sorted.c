/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * fold/sorted.c — the folded reader's fast path: the whole input in
 * memory; each line turned into a sequence of name ids while it is
 * indexed; the sequences sorted; each merged with the previous one's
 * common prefix.
 *
 * Why: the streaming reader (read-folded.c) looks every frame of every
 * line up in a hash table of (parent, name) -> node; once the trie
 * outgrows the cache each probe is a cache miss, and it is most of the
 * time of a render.  Sorted, lines that share a call path are adjacent,
 * so a line's frames after its common prefix with the previous line are
 * always new nodes: nodes are appended, never looked up; they come out in
 * pre-order; and no (parent, name) index is built at all (fold_trie_child
 * builds one on first use, see trie.c).
 *
 * Phases, each on two threads (one per half of the input or of the lines):
 *  - index: find lines, parse counts, cut each stack into frames and
 *    intern them (a small name table stays in the cache while the input
 *    streams past), so a line becomes 4 bytes a frame instead of its text;
 *    the second half interns into a table of its own, merged after (its
 *    names looked up in t on two threads, fold_trie_lookup_names; only
 *    those t lacks interned, in order), and the lanes' lines gathered on
 *    two threads too.  A line sharing frames with the previous good one
 *    (sorted input) copies their ids instead of cutting them again.  A
 *    mapped input from FOLD_SORTED_SPLIT bytes is populated by each part
 *    for itself (fold_populate), both halves at once.  The input is not read
 *    again: a mapped input is dropped from memory here, a big one (not
 *    populated by read-folded.c) every FOLD_MAP_RELEASE bytes as the
 *    index passes.
 *  - sort: lines compared as sequences of names, each name by its bytes,
 *    a name that is a prefix of another first (every name gets a dense
 *    rank once: fold_sort_names' order of "name;").  The model's key sort
 *    (fold/model/keysort.c: MSD on chunks, radix within) with two ranks a
 *    64-bit chunk (fill_frames), four below 65535 names (fill_frames4: a
 *    call tree's deep groups in half the passes); a line is read only as
 *    far as it shares a prefix with another.  Equal stacks stay in input
 *    order (the sort is stable), so counts are summed in input order.
 *    Lines already in this order (a real capture's collapsed stacks) are
 *    not sorted: one part of one plain source is first read as if they
 *    were (index_direct: each line checked against the one before,
 *    sorts_before_prev), each line's new frames becoming nodes as it is
 *    indexed, and neither the lines nor their frames kept; the first line
 *    out of order (or one whose order its bytes do not say: after a line
 *    bad from a long frame, or cut) ends that, and the part is indexed
 *    again from its first line
 *    (direct_off: at most twice the index of an input under
 *    FOLD_SORTED_SPLIT, and a shuffled one is found out in its first
 *    lines).
 *  - prefix: each line's common prefix with the one before, so the number
 *    of new nodes of every line, hence every node id, is known before the
 *    build: the node arrays are allocated once, at their final size, and
 *    the two halves fill them side by side.
 *  - build: a line's frames past its common prefix become nodes.
 *
 * Trade-off: the frames of every good line are held (4 bytes each) until
 * the trie is built, where the streaming reader needs only the trie; the
 * mapped input is dropped before, so the peak is the trie plus the frames,
 * not the trie plus the input text.  The read-folded.c header says when
 * each path is taken.
 *
 * Invariants (the same trie the streaming reader builds, up to node and
 * name ids):
 *  1. Same paths, self and BEFORE counts, bad lines, truncations and
 *     first-bad line number as read-folded.c for any input.
 *  2. Nodes are appended in pre-order; children of a node in increasing
 *     rank of their names; t->index_stale and t->preorder are set.
 *  3. Only names of good lines (no frame over FOLD_MAX_NAME among the
 *     first FOLD_MAX_DEPTH + 1) are interned, and only their first
 *     FOLD_MAX_DEPTH frames.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "fold/in/in.h"
#include "fold/in/internal.h"
#include "util/bigalloc.h"
#include "util/split2.h"
#include "util/vec.h"

#define PREFETCH 12      /* lines ahead: about the misses a core keeps in flight */
#define PREFETCH_LINES 8 /* cache lines of a stack prefetched, at most */

struct sline {
	union {
		size_t off;      /* index: first frame in its job's array */
		const uint32_t *f; /* after gather: the stack's name ids */
	} u;
	uint32_t n;          /* frames, at most FOLD_MAX_DEPTH */
	uint16_t two;        /* the line had a BEFORE column */
	uint16_t src;        /* which source (struct fold_src) it came from */
	double after, before;
	uint64_t lineno;     /* 1-based, within this call's input */
};

struct index_job {
	const char *buf;
	size_t len;
	uint16_t src;
	int mapped;          /* buf is in a big mapping the index drops behind it */
	int populate;        /* buf is in a mapping left for the index to populate */
	const char *kept;    /* the mapped bytes from here on are not dropped yet */
	struct sline *l;
	size_t n, cap;
	fold_trie *nt;       /* where its names are interned: t, or its own */
	uint32_t *fr;        /* frames of its good lines, name ids of nt */
	size_t nfr, frcap;
	uint64_t *fh;        /* scratch: a line's frames, hashes, */
	uint32_t *fs, *fl;   /* starts and lengths (the previous good line's until
				the next line overwrites them) */
	const char *ps;      /* the previous good line's stack, NULL after a bad one */
	size_t plen, poff;   /* its length, and where its frames are in fr */
	uint32_t pn;         /* its frames */
	uint64_t lines, bad, first_bad, truncated;
	double sum;
	int two, valid, rc;
	int backslash;       /* the part holds a '\\': names may hold \xHH escapes */
	int direct;          /* lines become t's nodes as they are indexed
				(index_direct): one part, in order so far */
	uint32_t *path;      /* direct: the node of each frame of the previous
				good line */
	uint32_t longest;    /* direct: frames of the longest good line */
	size_t common;       /* bytes the line being indexed shares with ps,
				measured before its end is found (SIZE_MAX:
				not measured) */
};

/* index_line's answer when a line ends the direct build: out of the
 * sort's order, or one the order check cannot judge. */
#define DIRECT_OFF 2

static void leading_comments(fold_trie *t, const char *p, size_t len);
static void *index_part(void *arg);
static int merge_names(fold_trie *t, struct index_job *job, int njob);
static int name_ranks(fold_trie *t, uint32_t **dense);
static int sort_lines(const struct sline *L, size_t n, const uint32_t *rank, uint32_t nnames,
		      struct fold_key **out);
static int build(fold_trie *t, const struct sline *L, struct fold_key *k, size_t n,
		 struct fold_src *src);

/* ---- entry ---------------------------------------------------------------- */

int fold_read_sorted_mem(fold_trie *t, const char *buf, size_t len, int mapped,
			 const struct fold_read_opts *o, struct fold_read_stats *st, struct uf_err *err)
{
	struct fold_src src = { .buf = buf, .len = len, .o = o, .st = st, .role = FOLD_SRC_PLAIN,
				.mapped = mapped };
	return fold_read_sorted(t, &src, 1, err);
}

static void note_bad_at(struct fold_src *src, uint64_t lineno, uint64_t n)
{
	struct fold_read_stats *st = src->st;
	if (!n)
		return;
	if (st->bad == 0 || lineno < st->first_bad_line) {
		st->first_bad_line = lineno;
		snprintf(st->first_bad, sizeof st->first_bad, "%s:%llu",
			 src->o->label ? src->o->label : "-", (unsigned long long)lineno);
	}
	st->bad += n;
}

/* Index jobs: each source in one or two parts (cut after a newline), run
 * in two lanes (even jobs, odd jobs), each lane's jobs one after the
 * other: the first lane interns into t, the second into one table of its
 * own (merged after: one merge, however many sources). */
struct lane {
	struct index_job *job;
	int first, n;
};

static void *index_lane(void *arg)
{
	struct lane *ln = arg;
	for (int j = ln->first; j < ln->n; j += 2)
		index_part(&ln->job[j]);
	return NULL;
}

static int index_all(fold_trie *t, struct fold_src *src, int nsrc, struct index_job *job, int *njob)
{
	int n = 0;
	size_t bytes = 0;
	for (int i = 0; i < nsrc; i++) {
		const char *buf = src[i].buf;
		size_t len = src[i].len, cut = len;
		bytes += len;
		if (len >= FOLD_SORTED_SPLIT) {
			const char *nl = memchr(buf + len / 2, '\n', len - len / 2);
			if (nl)
				cut = (size_t)(nl + 1 - buf);
		}
		int drop = src[i].mapped && len >= FOLD_MAP_POPULATE_MAX; /* not populated */
		int pop = src[i].mapped && len >= FOLD_SORTED_SPLIT && !drop; /* internal.h */
		job[n++] = (struct index_job){ .buf = buf, .len = cut, .src = (uint16_t)i, .mapped = drop,
					       .populate = pop };
		if (cut < len)
			job[n++] = (struct index_job){ .buf = buf + cut, .len = len - cut, .src = (uint16_t)i,
						       .mapped = drop, .populate = pop };
	}
	*njob = n;
	struct lane a = { job, 0, n }, b = { job, 1, n };
	fold_trie *own = n > 1 ? fold_trie_new() : NULL;
	if (n > 1 && !own)
		return -ENOMEM;
	for (int j = 0; j < n; j++)
		job[j].nt = j % 2 ? own : t;
	job[0].direct = n == 1 && src[0].role == FOLD_SRC_PLAIN;
	/* the second lane, when it has a job, on a thread of its own unless
	 * the sources are small (two small files of a diff: util/split2.h) */
	uf_split2(index_lane, &a, &b, b.first < b.n && uf_split2_worth(bytes, UF_SPLIT2_MIN_BYTES));
	for (int j = 0; j < n; j++)
		if (job[j].backslash)
			return 1;
	for (int j = 0; j < n; j++)
		if (job[j].rc)
			return job[j].rc;
	return 0;
}

/* The frames of an empty stack when a job has none at all. */
static const uint32_t no_frames[1];

/* One lane of the gather: jobs first, first + 2, ... of job[0..n) put at
 * l + at[j], line numbers raised by base[j], frames pointed at. */
struct gather_lane {
	struct index_job *job;
	int first, n;
	struct sline *l;
	const size_t *at;
	const uint64_t *base;
};

static void *gather_part(void *arg)
{
	struct gather_lane *g = arg;
	for (int j = g->first; j < g->n; j += 2) {
		struct index_job *jb = &g->job[j];
		struct sline *to = g->l + g->at[j]; /* job 0: its own lines, in place */
		for (size_t i = 0; i < jb->n; i++) {
			size_t off = jb->l[i].u.off;
			if (j > 0)
				to[i] = jb->l[i];
			to[i].u.f = jb->fr ? jb->fr + off : no_frames;
			to[i].lineno += g->base[j];
		}
		if (j > 0)
			free(jb->l);
		jb->l = NULL;
	}
	return NULL;
}

/* Concatenates the jobs' lines (line numbers made per source, frames
 * pointed at) and records each source's line, bad and truncated counts.
 * The first job's array is grown to hold them all and its lines fixed in
 * place: only the other jobs' lines are copied (a copy of every line, 40
 * bytes each, and a fresh array's page faults were 7 % of a render's
 * faults on tree-100k).  The lines are moved in two lanes (even jobs,
 * odd jobs; job 0's fix-up beside job 1's copy), the second on a thread
 * from UF_SPLIT2_MIN_ITEMS lines: this was 2.5 ms of tree-64k's serial
 * path. */
static int gather(struct fold_src *src, struct index_job *job, int njob, struct sline **out,
		  size_t *nout)
{
	size_t total = 0, at[4];
	uint64_t base[4];
	for (int j = 0; j < njob; j++)
		total += job[j].n;
	if (total >= UINT32_MAX)
		return -E2BIG;
	struct sline *l = realloc(job[0].l, (total ? total : 1) * sizeof *l);
	if (!l)
		return -ENOMEM;
	job[0].l = l; /* the same lines, where gather_part reads them */
	uint64_t before = 0; /* lines of the same source in earlier jobs */
	size_t pos = 0;
	for (int j = 0; j < njob; j++) {
		struct fold_src *sc = &src[job[j].src];
		if (j > 0 && job[j - 1].src != job[j].src)
			before = 0;
		base[j] = sc->st->lines + before;
		at[j] = pos;
		pos += job[j].n;
		note_bad_at(sc, base[j] + job[j].first_bad, job[j].bad);
		before += job[j].lines;
		sc->st->truncated += job[j].truncated;
		sc->sum += job[j].sum;
		sc->valid |= job[j].valid;
		if (job[j].two && sc->role == FOLD_SRC_PLAIN)
			sc->two = 1;
	}
	struct gather_lane a = { job, 0, njob, l, at, base }, b = { job, 1, njob, l, at, base };
	uf_split2(gather_part, &a, &b, njob > 1 && uf_split2_worth(total, UF_SPLIT2_MIN_ITEMS));
	for (int j = 0; j < njob; j++)
		src[job[j].src].st->lines += job[j].lines;
	*out = l;
	*nout = total;
	return 0;
}

void fold_populate(const char *p, size_t len)
{
	uintptr_t pg = (uintptr_t)sysconf(_SC_PAGESIZE);
	if (pg <= 1 || len == 0)
		return;
	uintptr_t a = (uintptr_t)p & ~(pg - 1), e = ((uintptr_t)p + len + pg - 1) & ~(pg - 1);
#ifdef MADV_POPULATE_READ
	(void)madvise((void *)a, e - a, MADV_POPULATE_READ); /* a hint: EINVAL before Linux 5.14 */
#else
	(void)a;
	(void)e;
#endif
}

/* A mapped input is not read again once indexed: its pages leave memory
 * (the caller's munmap stays valid; the file's pages stay cached). */
static void drop_inputs(const struct fold_src *src, int nsrc)
{
	long pg = sysconf(_SC_PAGESIZE);
	for (int i = 0; i < nsrc; i++)
		if (src[i].mapped && pg > 0 && ((uintptr_t)src[i].buf & ((uintptr_t)pg - 1)) == 0)
			madvise((void *)src[i].buf, src[i].len, MADV_DONTNEED);
}

static void release_jobs(fold_trie *t, struct index_job *job, int njob)
{
	for (int j = 0; j < njob; j++) {
		free(job[j].l);
		free(job[j].fr);
	}
	if (njob > 1 && job[1].nt != t)
		fold_trie_free(job[1].nt);
}

/* Everything before the sort: the sources indexed, their names merged
 * into t, the lines gathered (*L, *n), t made differential when a source
 * is, the names ranked (*rank).  Returns 0, <0, or 1 when it declines: t
 * then holds no node, but may hold names of parts indexed before the
 * backslash was seen (no output lists a name no node uses); the caller
 * releases the jobs. */
static int prepare(fold_trie *t, struct fold_src *src, int nsrc, struct index_job *job, int *njob,
		   struct sline **L, size_t *n, uint32_t **rank)
{
	int diff = 0;
	for (int i = 0; i < nsrc; i++) {
		src[i].sum = 0;
		src[i].valid = 0;
		src[i].two = 0;
		diff |= src[i].role != FOLD_SRC_PLAIN;
	}
	for (int i = 0; i < nsrc; i++)
		leading_comments(t, src[i].buf, src[i].len);
	/* 1: a backslash: "\xHH" decodes two spellings to one name, which
	 * the sorted merge would make two siblings of; the streaming reader
	 * looks names up */
	int rc = index_all(t, src, nsrc, job, njob);
	if (rc == 1)
		return 1;
	if (rc == 0)
		drop_inputs(src, nsrc);
	if (rc == 0)
		rc = merge_names(t, job, *njob);
	if (rc == 0)
		rc = gather(src, job, *njob, L, n);
	for (int i = 0; i < nsrc && rc == 0; i++)
		diff |= src[i].two;
	if (rc == 0 && diff && !t->base)
		rc = fold_trie_make_diff(t);
	return rc == 0 ? name_ranks(t, rank) : rc;
}

int fold_read_sorted(fold_trie *t, struct fold_src *src, int nsrc, struct uf_err *err)
{
	struct index_job job[4];
	struct sline *L = NULL;
	struct fold_key *keys = NULL;
	uint32_t *rank = NULL;
	size_t n = 0;
	int njob = 0;
	memset(job, 0, sizeof job);
#ifdef SORTED_TIMING
	struct timespec t0, t1, t2, t3;
	clock_gettime(CLOCK_MONOTONIC, &t0);
#endif
	int rc = prepare(t, src, nsrc, job, &njob, &L, &n, &rank);
#ifdef SORTED_TIMING
	clock_gettime(CLOCK_MONOTONIC, &t1);
#endif
	int direct = rc == 0 && njob == 1 && job[0].direct; /* t is built */
	if (direct)
		src[0].st->in_order = 1;
	else if (rc == 0)
		rc = sort_lines(L, n, rank, t->nnames, &keys);
	free(rank);
#ifdef SORTED_TIMING
	clock_gettime(CLOCK_MONOTONIC, &t2);
#endif
	t->index_stale = 1; /* t is empty: no index to keep */
	if (direct) { /* as build() leaves it */
		t->preorder = 1;
		t->preorder_depth = job[0].longest;
		t->finished = 0;
	} else if (rc == 0) {
		rc = build(t, L, keys, n, src);
	}
#ifdef SORTED_TIMING
	clock_gettime(CLOCK_MONOTONIC, &t3);
#define MS(a, b) ((b.tv_sec - a.tv_sec) * 1e3 + (b.tv_nsec - a.tv_nsec) / 1e6)
	fprintf(stderr, "sorted: index %.1f ms, sort %.1f ms, build %.1f ms (%zu lines)\n", MS(t0, t1),
		MS(t1, t2), MS(t2, t3), n);
#endif
	free(keys);
	free(L);
	release_jobs(t, job, njob);
	if (rc < 0)
		uf_err_set(err, UF_EINPUT, src[0].o->label ? src[0].o->label : "-",
			   rc == -E2BIG ? "too many lines" : "out of memory");
	return rc;
}

/* ---- index: lines, counts and frames --------------------------------------- */

/* Record's metadata, `# key: "value"` lines before the stacks, into
 * t->meta (as read-folded.c keeps them); one pass over the leading '#'
 * lines only. */
static void leading_comments(fold_trie *t, const char *p, size_t len)
{
	const char *end = p + len;
	while (p < end && *p == '#') {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);
		fold_meta_from_comment(t, p, n && p[n - 1] == '\r' ? n - 1 : n);
		p += nl ? n + 1 : n;
	}
}

/* Drops the whole pages of a mapped input between j->kept and `upto`
 * (the lines before are indexed: only the previous line is read again,
 * and `upto` is its start), once FOLD_MAP_RELEASE bytes have gathered; a
 * page shared with the other job's part stays. */
static void drop_behind(struct index_job *j, const char *upto)
{
	if ((size_t)(upto - j->kept) < FOLD_MAP_RELEASE)
		return;
	uintptr_t pg = (uintptr_t)sysconf(_SC_PAGESIZE);
	uintptr_t a = ((uintptr_t)j->kept + pg - 1) & ~(pg - 1), e = (uintptr_t)upto & ~(pg - 1);
	if (pg > 1 && e > a)
		madvise((void *)a, e - a, MADV_DONTNEED);
	j->kept = upto;
}

static void index_bad(struct index_job *j)
{
	if (j->bad++ == 0)
		j->first_bad = j->lines;
}

/* Finds the end of the frame at f (`avail` bytes left in the stack, and at
 * least 2 readable bytes after it: the count's separator and a digit) and
 * hashes it on the way: fold_name_hash(f, *flen), 8 bytes a step. */
static inline uint64_t scan_frame(const char *f, size_t avail, size_t *flen)
{
	uint64_t h = uf_hash_start(), v;
	size_t n = 0;
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	while (n + 8 <= avail + 2) {
		memcpy(&v, f + n, 8);
		uint64_t x = v ^ 0x3b3b3b3b3b3b3b3bull; /* ';' bytes become 0 */
		uint64_t z = (x - 0x0101010101010101ull) & ~x & 0x8080808080808080ull;
		size_t b = z ? (size_t)__builtin_ctzll(z) / 8 : 8; /* first ';' */
		if (b > avail - n)
			b = avail - n; /* the stack ends first */
		if (b < 8) {
			*flen = n + b;
			return uf_hash_final(h, b ? v & (~0ull >> (64 - 8 * b)) : 0, n + b);
		}
		h = uf_hash_step(h, v);
		n += 8;
	}
#endif
	const char *semi = memchr(f + n, ';', avail - n);
	size_t len = semi ? (size_t)(semi - f) : avail;
	while (len - n >= 8) {
		memcpy(&v, f + n, 8);
		h = uf_hash_step(h, v);
		n += 8;
	}
	v = 0;
	memcpy(&v, f + n, len - n);
	*flen = len;
	return uf_hash_final(h, v, len);
}

/* Frames this stack shares with the previous good line (sorted input,
 * perf's order: most of them), whose ids and positions it reuses: frame k
 * is shared when both lines are equal up to its end and both continue
 * with ';' or end there. */
static uint32_t shared_with_prev(const struct index_job *j, const char *s, size_t len, size_t *commonp)
{
	size_t common = j->common != SIZE_MAX ? (j->common < len ? j->common : len)
					       : fold_common_prefix(s, j->ps, len < j->plen ? len : j->plen);
	*commonp = common;
	uint32_t k = 0, hi = j->pn; /* the first frame ending at or past common: */
	while (k < hi) {            /* ends rise, so by halves (~25 frames a line) */
		uint32_t mid = k + (hi - k) / 2;
		if (j->fs[mid] + j->fl[mid] < common)
			k = mid + 1;
		else
			hi = mid;
	}
	if (k < j->pn && j->fs[k] + j->fl[k] == common && (common == len || s[common] == ';'))
		k++;
	return k;
}

/* Frames k.. of stack s[0..len) into the scratch arrays (k shared with
 * the previous line, already there), their name slots prefetched; *n
 * frames in all.  Returns 0, or 1 when a frame is over FOLD_MAX_NAME. */
static int cut_frames(struct index_job *j, const char *s, size_t len, uint32_t k, uint32_t *n,
		      int *trunc)
{
	const fold_trie *t = j->nt;
	size_t pos = k ? (size_t)j->fs[k - 1] + j->fl[k - 1] + 1 : 0;
	while (pos <= len) {
		size_t flen;
		uint64_t h = scan_frame(s + pos, len - pos, &flen);
		if (flen > FOLD_MAX_NAME)
			return 1;
		if (k >= FOLD_MAX_DEPTH) {
			*trunc = 1;
			break;
		}
		__builtin_prefetch(&t->nslots[(uint32_t)h & t->nslots_mask]); /* interned below */
		j->fh[k] = h;
		j->fs[k] = (uint32_t)pos;
		j->fl[k++] = (uint32_t)flen;
		pos += flen + 1;
	}
	*n = k;
	return 0;
}

/* Room in j->fr for `more` frames; 0 or -ENOMEM. */
static int frames_room(struct index_job *j, size_t more)
{
	if (j->nfr + more <= j->frcap)
		return 0;
	size_t cap = j->frcap ? j->frcap * 2 : j->len / 8 + 64;
	while (cap < j->nfr + more)
		cap *= 2;
	uint32_t *fr = realloc(j->fr, cap * sizeof *fr);
	if (!fr)
		return -ENOMEM;
	uf_thp_hint(fr, cap * sizeof *fr); /* util/bigalloc.h */
	j->fr = fr;
	j->frcap = cap;
	return 0;
}

/* Does stack s (len bytes, its first `common` bytes the previous good
 * line's) sort before that line?  The sort's order (sort_lines) compares
 * frame by frame, each name as its bytes then ';', a stack that ends
 * first before the longer: so at the first byte that differs, a stack's
 * end counts as ';', and when both are ';' there the one that ended is
 * the smaller. */
static int sorts_before_prev(const struct index_job *j, const char *s, size_t len, size_t common)
{
	unsigned cs = common < len ? (unsigned char)s[common] : ';';
	unsigned cp = common < j->plen ? (unsigned char)j->ps[common] : ';';
	if (cs != cp)
		return cs < cp;
	return common == len && common < j->plen;
}

/* A new node (the caller knows it is: input in order), as build_part
 * makes them; FOLD_NONE when out of memory or past FOLD_MAX_NODES. */
static uint32_t direct_node(fold_trie *t, uint32_t parent, uint32_t name)
{
	if (t->nnodes >= FOLD_MAX_NODES)
		return FOLD_NONE;
	if (t->nnodes == t->nodes_cap) {
		uint64_t cap = 2 * (uint64_t)t->nodes_cap + 64;
		if (fold_trie_grow_nodes(t, (uint32_t)(cap < FOLD_MAX_NODES ? cap : FOLD_MAX_NODES)))
			return FOLD_NONE;
	}
	uint32_t id = t->nnodes++;
	t->parent[id] = parent;
	t->name[id] = name;
	t->self[id] = 0;
	if (t->base)
		t->base[id] = 0;
	return id;
}

/* The direct build: a line of input already in the sort's order makes the
 * same nodes the build would (its frames past those it shares with the
 * line before, under that line's path), so they are made as it is
 * indexed, and no line's frames are kept: for a real capture's collapsed
 * stacks (sorted; one part, below FOLD_SORTED_SPLIT) this leaves out the
 * frames array, the lines, their gather, keys, prefix pass and build:
 * 0.07 of the 0.5 ms of reading FlameGraph's 646 KB example, and 25 of
 * its page faults.
 * Returns 0, 1 for a bad line (a frame over FOLD_MAX_NAME), DIRECT_OFF
 * for a line out of order or one the check cannot judge (after a line
 * bad from a long frame, an empty stack after others, a cut stack), or
 * <0. */
static int index_direct(struct index_job *j, const char *s, const struct fold_line *fl)
{
	fold_trie *t = j->nt;
	size_t len = fl->len;
	uint32_t k = 0, n = 0;
	if (len > 0) {
		size_t common;
		if (j->ps) {
			k = shared_with_prev(j, s, len, &common);
			if (sorts_before_prev(j, s, len, common))
				return DIRECT_OFF;
		} else if (j->longest > 0) {
			return DIRECT_OFF; /* a bad line reset ps */
		}
		int trunc = 0;
		if (cut_frames(j, s, len, k, &n, &trunc)) {
			j->ps = NULL;
			return 1;
		}
		if (trunc)
			return DIRECT_OFF;
		for (uint32_t d = k; d < n; d++) {
			uint32_t nm = fold_trie_intern_h(t, s + j->fs[d], j->fl[d], j->fh[d]);
			uint32_t id = nm == FOLD_NONE ? FOLD_NONE : direct_node(t, d ? j->path[d - 1] : FOLD_ROOT, nm);
			if (id == FOLD_NONE)
				return -ENOMEM;
			j->path[d] = id;
		}
		j->ps = s;
		j->plen = len;
		j->pn = n;
		j->longest = n > j->longest ? n : j->longest;
	} else if (j->longest > 0) {
		return DIRECT_OFF; /* the empty stack sorts first */
	}
	uint32_t leaf = n ? j->path[n - 1] : FOLD_ROOT;
	return fl->two ? fold_trie_add2(t, leaf, fl->before, fl->after) : fold_trie_add(t, leaf, fl->after);
}

/* Ends the direct build: t back to empty (its interned names stay: only
 * good lines' were interned, and the same lines are good again), the
 * part's counts cleared for its lines to be indexed again from the
 * first.  Returns 0 or -ENOMEM. */
static int direct_off(struct index_job *j)
{
	fold_trie *t = j->nt;
	t->nnodes = 1;
	t->self[0] = 0;
	free(t->base);
	t->base = NULL;
	t->max_line_delta = 0;
	free(j->path);
	j->path = NULL;
	j->direct = 0;
	j->ps = NULL;
	j->lines = j->bad = j->first_bad = j->truncated = 0;
	j->sum = 0;
	j->two = j->valid = 0;
	j->longest = 0;
	return 0;
}

/* Cuts stack s[0..len) into frames and appends their name ids to j->fr:
 * every frame checked first (the line is bad, 1, when one of the first
 * FOLD_MAX_DEPTH + 1 is over FOLD_MAX_NAME, as the streaming reader
 * checks), then the first FOLD_MAX_DEPTH interned; the frames it shares
 * with the previous good line are copied, not cut again.  *nf frames,
 * *trunc when more followed.  Returns 0, 1 or -ENOMEM. */
static int index_stack(struct index_job *j, const char *s, size_t len, uint32_t *nf, int *trunc)
{
	fold_trie *t = j->nt;
	*trunc = 0;
	*nf = 0;
	if (len == 0)
		return 0;
	uint32_t k = 0, n;
	size_t common;
	if (j->ps)
		k = shared_with_prev(j, s, len, &common);
	if (cut_frames(j, s, len, k, &n, trunc)) {
		j->ps = NULL; /* its frames are no longer in fs, fl */
		return 1;
	}
	if (frames_room(j, n))
		return -ENOMEM;
	for (uint32_t i = k; i < n; i++) { /* the slots are on their way: fetch the
					      name records they point at, all at once */
		uint64_t v = t->nslots[(uint32_t)j->fh[i] & t->nslots_mask];
		if (v)
			__builtin_prefetch(t->nbuf + (v & FOLD_NSLOT_OFF) - 8);
	}
	uint32_t *out = j->fr + j->nfr;
	if (k)
		memcpy(out, j->fr + j->poff, k * sizeof *out);
	for (uint32_t i = k; i < n; i++)
		if ((out[i] = fold_trie_intern_h(t, s + j->fs[i], j->fl[i], j->fh[i])) == FOLD_NONE)
			return -ENOMEM;
	j->ps = s;
	j->plen = len;
	j->pn = n;
	j->poff = j->nfr;
	j->nfr += n;
	*nf = n;
	return 0;
}

/* Appends line record x; 0 or -ENOMEM. */
static int index_push(struct index_job *j, const struct sline *x)
{
	if (j->n == j->cap) {
		/* a line takes at least 2 bytes ("x\n"): a small input starts small */
		size_t cap = j->cap ? j->cap * 2 : j->len / 2 < 4096 ? j->len / 2 + 1 : 4096;
		struct sline *l = realloc(j->l, cap * sizeof *l);
		if (!l)
			return -ENOMEM;
		uf_thp_hint(l, cap * sizeof *l);
		j->l = l;
		j->cap = cap;
	}
	j->l[j->n++] = *x;
	return 0;
}

/* `depth` frames of scratch: a line of n bytes has at most n + 1 frames,
 * so a small input needs small arrays (three of 8193 cost a small file
 * more than reading it). */
static int index_scratch(struct index_job *j)
{
	size_t depth = j->len + 2 < FOLD_MAX_DEPTH + 1 ? j->len + 2 : FOLD_MAX_DEPTH + 1;
	j->fh = malloc(depth * sizeof *j->fh);
	j->fs = malloc(depth * sizeof *j->fs);
	j->fl = malloc(depth * sizeof *j->fl);
	if (j->direct && !(j->path = malloc(depth * sizeof *j->path)))
		return -ENOMEM;
	return j->fh && j->fs && j->fl ? 0 : -ENOMEM;
}

/* Line s[0..n) (no newline): a good one becomes a record and its frames;
 * blank and comment lines are skipped, bad ones counted.  Returns 0 or
 * -ENOMEM. */
static int index_line(struct index_job *j, const char *s, size_t n)
{
	j->lines++;
	if (n > FOLD_MAX_LINE) {
		index_bad(j);
		return 0;
	}
	struct fold_line fl;
	int r = fold_parse_line(s, n, &fl);
	if (r == 1)
		return 0; /* blank */
	if (r) {
		size_t k = 0;
		while (k < n && (s[k] == ' ' || s[k] == '\t'))
			k++;
		if (s[k] != '#') /* a comment (record's metadata) is not a bad line */
			index_bad(j);
		return 0;
	}
	if (j->direct) {
		if ((r = index_direct(j, s, &fl)) == 1)
			index_bad(j);
		if (r)
			return r == 1 ? 0 : r;
		j->two |= fl.two;
		j->sum += fl.after;
		j->valid |= fl.len != 0 || fl.after != 0;
		return 0;
	}
	uint32_t nf;
	int trunc;
	size_t off = j->nfr;
	if ((r = index_stack(j, s, fl.len, &nf, &trunc)) == 1) {
		index_bad(j);
		return 0;
	}
	struct sline x = { .u.off = off, .n = nf, .two = (uint16_t)fl.two, .src = j->src,
			   .after = fl.after, .before = fl.before, .lineno = j->lines };
	if (r || (r = index_push(j, &x)) != 0)
		return r;
	j->truncated += (uint64_t)trunc;
	j->two |= fl.two;
	j->sum += fl.after;
	j->valid |= fl.len != 0 || fl.after != 0;
	return 0;
}

static void *index_part(void *arg)
{
	struct index_job *j = arg;
	const char *p = j->buf, *end = j->buf + j->len;
	if (j->populate)
		fold_populate(p, j->len); /* this lane's part, beside the other's */
	if ((j->backslash = memchr(p, '\\', j->len) != NULL))
		return NULL; /* the caller declines: see prepare */
	if ((j->rc = index_scratch(j)) == 0)
		j->kept = j->buf;
	while (j->rc == 0 && p < end) {
		if (j->mapped)
			drop_behind(j, j->ps && j->ps < p ? j->ps : p);
		/* the bytes shared with the previous good line first: its stack
		 * holds no newline, so the search for this line's end starts
		 * past them (~880 of a real capture's ~910 bytes a line) */
		size_t left = (size_t)(end - p), c0 = 0;
		j->common = SIZE_MAX;
		if (j->ps)
			j->common = c0 = fold_common_prefix(p, j->ps, j->plen < left ? j->plen : left);
		const char *nl = memchr(p + c0, '\n', left - c0);
		size_t n = nl ? (size_t)(nl - p) : left;
		j->rc = index_line(j, p, n);
		if (j->rc == DIRECT_OFF) { /* again from the start, frames kept */
			j->rc = direct_off(j);
			p = j->buf;
			continue;
		}
		p += nl ? n + 1 : n;
	}
	free(j->fh);
	free(j->fs);
	free(j->fl);
	free(j->path);
	j->fh = NULL;
	j->fs = j->fl = NULL;
	j->path = NULL;
	return NULL;
}

/* Renames frames f[0..n) through map. */
struct rename {
	uint32_t *f;
	size_t n;
	const uint32_t *map;
};

static void *rename_part(void *arg)
{
	struct rename *r = arg;
	for (size_t i = 0; i < r->n; i++)
		r->f[i] = r->map[r->f[i]];
	return NULL;
}

/* Looks the names u[lo..hi) up in t (read only: the halves run at once). */
struct lookup {
	const fold_trie *t, *u;
	uint32_t lo, hi;
	uint32_t *map;
};

static void *lookup_part(void *arg)
{
	struct lookup *l = arg;
	fold_trie_lookup_names(l->t, l->u, l->lo, l->hi, l->map + l->lo);
	return NULL;
}

/* The second lane's names into t, its jobs' frames renamed to t's ids.
 * The names are looked up in t in two halves, one on a second thread
 * (most are there: the lanes read the same program's stacks); those t
 * lacks are then interned here in u's id order, so every name gets the
 * id one intern after another gave it.  The frames are renamed in two
 * halves too. */
static int merge_names(fold_trie *t, struct index_job *job, int njob)
{
	if (njob < 2)
		return 0;
	fold_trie *u = job[1].nt;
	uint32_t *map = malloc((size_t)u->nnames * sizeof *map);
	if (!map)
		return -ENOMEM;
	struct lookup la = { t, u, 0, u->nnames / 2, map }, lb = { t, u, u->nnames / 2, u->nnames, map };
	uf_split2(lookup_part, &la, &lb, uf_split2_worth(u->nnames, 8192)); /* ~40 ns a name */
	for (uint32_t i = 0; i < u->nnames; i++) {
		if (map[i] != FOLD_NONE)
			continue;
		size_t len;
		const char *s = fold_trie_name(u, i, &len);
		if ((map[i] = fold_trie_intern(t, s, len)) == FOLD_NONE) {
			free(map);
			return -ENOMEM;
		}
	}
	for (int j = 1; j < njob; j += 2) {
		size_t h = job[j].nfr / 2;
		struct rename a = { job[j].fr, h, map }, b = { job[j].fr + h, job[j].nfr - h, map };
		uf_split2(rename_part, &a, &b, uf_split2_worth(b.n, 65536)); /* cheap items */
		job[j].nt = t;
	}
	free(map);
	fold_trie_free(u);
	return 0;
}

/* *dense gets each name id's rank among t's names (owned), in the order of
 * "name;" (fold_sort_names), so siblings come out in the order finish
 * gives subtrees; the full ranks are kept in t for fold_trie_finish. */
static int name_ranks(fold_trie *t, uint32_t **dense)
{
	size_t n = t->nnames;
	uint32_t *rank = malloc(2 * n * sizeof *rank), *d = malloc(n * sizeof *d);
	uint32_t *inv = calloc(2 * n, sizeof *inv);
	if (!rank || !d || !inv || fold_sort_names(t, rank)) {
		free(rank);
		free(d);
		free(inv);
		return -ENOMEM;
	}
	for (size_t i = 0; i < n; i++)
		inv[rank[2 * i + 1]] = (uint32_t)i + 1;
	uint32_t r = 0;
	for (size_t k = 0; k < 2 * n; k++)
		if (inv[k])
			d[inv[k] - 1] = r++;
	free(inv);
	fold_trie_keep_ranks(t, rank);
	*dense = d;
	return 0;
}

/* ---- sort ------------------------------------------------------------------ */

/* Chunk c of a stack: frames 2c and 2c+1, each as its name's rank + 1
 * (0 past the end) in 32 bits (end_mask 0xffffffff); ctx is the dense
 * rank of each name id. */
static void fill_frames(const struct fold_key_chunks *ch, struct fold_key *k, size_t m, uint32_t c)
{
	const uint32_t *rank = ch->ctx;
	size_t off = (size_t)c * 2;
	for (size_t i = 0; i < m; i++) {
		if (i + PREFETCH < m) /* lines come in random memory order */
			__builtin_prefetch((const uint32_t *)k[i + PREFETCH].p + off);
		const uint32_t *f = k[i].p;
		uint64_t a = off < k[i].len ? rank[f[off]] + 1ull : 0;
		uint64_t b = off + 1 < k[i].len ? rank[f[off + 1]] + 1ull : 0;
		k[i].key = a << 32 | b;
	}
}

/* Chunk c of a stack when every rank + 1 fits 16 bits (fewer than
 * FRAMES4_NAMES names, as call trees have): frames 4c .. 4c+3 in 16 bits
 * each (end_mask 0xffff), so a group is sorted on twice the frames a
 * pass and the deep groups of a call tree need half the passes. */
#define FRAMES4_NAMES 65535u

static void fill_frames4(const struct fold_key_chunks *ch, struct fold_key *k, size_t m, uint32_t c)
{
	const uint32_t *rank = ch->ctx;
	size_t off = (size_t)c * 4;
	for (size_t i = 0; i < m; i++) {
		if (i + PREFETCH < m) /* lines come in random memory order */
			__builtin_prefetch((const uint32_t *)k[i + PREFETCH].p + off);
		const uint32_t *f = k[i].p;
		size_t len = k[i].len;
		uint64_t x = 0;
		if (off + 4 <= len) {
			x = (uint64_t)(rank[f[off]] + 1) << 48 | (uint64_t)(rank[f[off + 1]] + 1) << 32 |
			    (uint64_t)(rank[f[off + 2]] + 1) << 16 | (uint64_t)(rank[f[off + 3]] + 1);
		} else {
			for (size_t u = 0; u < 4; u++)
				x = x << 16 | (off + u < len ? rank[f[off + u]] + 1ull : 0);
		}
		k[i].key = x;
	}
}

/* Length of the common prefix of frame arrays a and b (n frames each). */
static inline size_t common_frames(const uint32_t *a, const uint32_t *b, size_t n)
{
	size_t i = 0;
	for (; i + 2 <= n; i += 2) {
		uint64_t x, y;
		memcpy(&x, a + i, 8);
		memcpy(&y, b + i, 8);
		if (x != y)
			return i + (a[i] == b[i]);
	}
	return i < n && a[i] == b[i] ? n : i;
}

/* The order of lines: *out gets an owned array of n keys, idx in order. */
static int sort_lines(const struct sline *L, size_t n, const uint32_t *rank, uint32_t nnames,
		      struct fold_key **out)
{
	struct fold_key *k = malloc((n ? n : 1) * sizeof *k), *tmp = malloc((n ? n : 1) * sizeof *tmp);
	if (!k || !tmp) {
		free(k);
		free(tmp);
		return -ENOMEM;
	}
	for (size_t i = 0; i < n; i++)
		k[i] = (struct fold_key){ 0, L[i].u.f, L[i].n, (uint32_t)i };
	struct fold_key_chunks ch = { fill_frames, rank, 4, 2, 0xffffffffu };
	if (nnames < FRAMES4_NAMES) /* every rank + 1 fits 16 bits */
		ch = (struct fold_key_chunks){ fill_frames4, rank, 4, 4, 0xffffu };
	fold_sort_keys(&ch, k, tmp, n);
	free(tmp);
	*out = k;
	return 0;
}

/* ---- build: each line past its common prefix with the previous one ----------- */

/* One thread's share of the build: sorted lines k[lo..hi). */
struct part {
	fold_trie *t;
	const struct sline *L;
	struct fold_key *k;
	size_t lo, hi;
	const struct fold_src *src;
	uint64_t nodes;          /* prefix pass: new nodes of its lines */
	uint32_t next;           /* build: id of its next new node */
	uint32_t first;          /* its first node; counts of a node below it (the
				    other part's) wait until both are done */
	uint32_t *node;          /* node of frame d of the line just built */
	uint32_t (*pend)[2];     /* waiting counts: node, sorted position */
	size_t npend, pcap;
	double max_delta;
	int rc;
};

/* Prefix pass: k[i].key = frames line i shares with line i - 1. */
static void *prefix_part(void *arg)
{
	struct part *w = arg;
	uint64_t nodes = 0;
	for (size_t i = w->lo; i < w->hi; i++) {
		struct fold_key *x = &w->k[i];
		if (i + PREFETCH < w->hi)
			__builtin_prefetch(x[PREFETCH].p);
		uint32_t c = 0;
		if (i > 0) {
			uint32_t m = x[-1].len < x->len ? x[-1].len : x->len;
			c = (uint32_t)common_frames(x[-1].p, x->p, m);
		}
		x->key = c;
		nodes += x->len - c;
	}
	w->nodes = nodes;
	return NULL;
}

static void add_counts(fold_trie *t, uint32_t leaf, const struct sline *l, int role, double *max_delta)
{
	if (role == FOLD_SRC_BASE) {
		t->base[leaf] += l->after;
		return;
	}
	t->self[leaf] += l->after;
	if (t->base && role == FOLD_SRC_PLAIN) {
		t->base[leaf] += l->two ? l->before : l->after;
		double d = l->two ? l->after - l->before : 0;
		if (d < 0)
			d = -d;
		if (d > *max_delta)
			*max_delta = d;
	}
}

/* Line i's count goes to node leaf, the other part's: it waits until
 * both parts are built.  Returns 0 or -ENOMEM. */
static int wait_count(struct part *w, uint32_t leaf, size_t i)
{
	if (uf_vec_grow(&w->pend, &w->pcap, w->npend + 1, sizeof *w->pend))
		return -ENOMEM;
	w->pend[w->npend][0] = leaf;
	w->pend[w->npend++][1] = (uint32_t)i;
	return 0;
}

static void *build_part(void *arg)
{
	struct part *w = arg;
	fold_trie *t = w->t;
	uint32_t *parent = t->parent, *name = t->name, *node = w->node, id = w->next;
	double *self = t->self, *base = t->base;
	for (size_t i = w->lo; i < w->hi; i++) {
		if (i + PREFETCH < w->hi) { /* lines come in random memory order */
			const struct fold_key *x = &w->k[i + PREFETCH];
			uint32_t n = x->len * 4 < 64 * PREFETCH_LINES ? x->len * 4 : 64 * PREFETCH_LINES;
			for (uint32_t o = 0; o < n + 64; o += 64)
				__builtin_prefetch((const char *)x->p + o);
			__builtin_prefetch(&w->L[x->idx]);
		}
		const struct fold_key *x = &w->k[i];
		const uint32_t *f = x->p;
		for (uint32_t d = (uint32_t)x->key; d < x->len; d++, id++) {
			parent[id] = d ? node[d - 1] : FOLD_ROOT;
			name[id] = f[d];
			self[id] = 0;
			if (base)
				base[id] = 0;
			node[d] = id;
		}
		uint32_t leaf = x->len ? node[x->len - 1] : FOLD_ROOT;
		if (leaf < w->first) {
			if ((w->rc = wait_count(w, leaf, i)) != 0)
				return NULL;
			continue;
		}
		const struct sline *l = &w->L[x->idx];
		add_counts(t, leaf, l, w->src[l->src].role, &w->max_delta);
	}
	return NULL;
}

/* The second part starts where the first ends: its path is the last line
 * of the first part, whose node at frame d was made by the latest line
 * at or before it whose common prefix is at most d. */
static void seed_path(struct part *b)
{
	const struct fold_key *k = b->k;
	uint32_t need = k[b->lo - 1].len, start = b->first;
	for (size_t j = b->lo; need > 0 && j-- > 0;) {
		uint32_t lcp = (uint32_t)k[j].key;
		start -= k[j].len - lcp; /* line j made nodes start .. for frames lcp .. */
		for (uint32_t d = lcp; d < need; d++)
			b->node[d] = start + (d - lcp);
		if (lcp < need)
			need = lcp;
	}
}

/* Runs f on parts a and b (b on a second thread when it has lines; the
 * caller gives it lines only from FOLD_SORTED_THREAD_LINES). */
static void run_parts(void *(*f)(void *), struct part *a, struct part *b)
{
	if (b->lo < b->hi)
		uf_split2(f, a, b, 1);
	else
		f(a);
}

static int build(fold_trie *t, const struct sline *L, struct fold_key *k, size_t n,
		 struct fold_src *src)
{
	size_t mid = n >= FOLD_SORTED_THREAD_LINES ? n / 2 : n;
	struct part a = { .t = t, .L = L, .k = k, .lo = 0, .hi = mid, .src = src },
		    b = { .t = t, .L = L, .k = k, .lo = mid, .hi = n, .src = src };
	uint32_t longest = 0;
	for (size_t i = 0; i < n; i++)
		longest = k[i].len > longest ? k[i].len : longest;
	run_parts(prefix_part, &a, &b);
	uint64_t total = 1 + a.nodes + b.nodes;
	if (total > FOLD_MAX_NODES)
		return -ENOMEM;
	a.node = malloc(((size_t)longest + 1) * sizeof *a.node);
	b.node = malloc(((size_t)longest + 1) * sizeof *b.node);
	int rc = a.node && b.node ? fold_trie_grow_nodes(t, (uint32_t)total) : -ENOMEM;
	if (rc == 0) {
		a.next = 1; /* a.first = 0: a never waits */
		b.next = b.first = 1 + (uint32_t)a.nodes;
		if (b.lo > 0 && b.lo < b.hi)
			seed_path(&b);
		run_parts(build_part, &a, &b);
		rc = a.rc ? a.rc : b.rc;
	}
	if (rc == 0) {
		t->nnodes = (uint32_t)total;
		t->preorder = 1;
		t->preorder_depth = longest;
		if (a.max_delta > t->max_line_delta)
			t->max_line_delta = a.max_delta;
		if (b.max_delta > t->max_line_delta)
			t->max_line_delta = b.max_delta;
		for (size_t i = 0; i < b.npend; i++) { /* after a's: in sorted order */
			const struct sline *l = &L[k[b.pend[i][1]].idx];
			add_counts(t, b.pend[i][0], l, src[l->src].role, &t->max_line_delta);
		}
	}
	t->finished = 0;
	free(a.node);
	free(b.node);
	free(a.pend);
	free(b.pend);
	return rc;
}
