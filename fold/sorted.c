/*
 * fold/sorted.c — the folded reader's fast path: the whole input in
 * memory, its lines sorted as frame sequences, each line merged with the
 * previous one's common prefix.
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
 * Order.  Lines are compared as sequences of frames, each frame as bytes,
 * a frame that is a prefix of another first: that is byte order with ';'
 * below every byte and the end of the stack below ';'.  The sort is an MSD
 * radix sort on chunks of 7 bytes, each byte mapped to a 9-bit symbol
 * (end 0, ';' 1, byte b as b + 2), so a chunk is one 63-bit integer and
 * a group of lines is split by integer sorts; a line is read only as far
 * as it shares a prefix with another.  Equal stacks stay in input order
 * (every pass is stable), so counts are summed in input order.
 *
 * Phases: index (find lines, parse counts) and sort run on two threads,
 * each on half of the lines; the build walks the sorted lines once.
 *
 * Trade-off: the input is held whole (mapped, for regular files) while
 * the trie is built: peak memory is input + trie, where the streaming
 * reader needs only the trie.  The read-folded.c header says when each
 * path is taken.
 *
 * Invariants (the same trie the streaming reader builds, up to node ids):
 *  1. Same paths, self and BEFORE counts, bad lines, truncations and
 *     first-bad line number as read-folded.c for any input.
 *  2. Nodes are appended in pre-order; children of a node in increasing
 *     frame order; t->index_stale is set.
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "fold/fold.h"
#include "fold/internal.h"

#define SMALL_GROUP 24   /* groups up to this size: insertion sort */
#define MERGE_GROUP 2048 /* up to this size: merge sort; above, radix */
#define PREFETCH 12      /* lines ahead: about the misses a core keeps in flight */
#define PREFETCH_LINES 16 /* cache lines of a stack prefetched, at most */

struct sline {
	const char *s;       /* stack bytes, borrowed from the input */
	uint32_t len;        /* stack length, trailing ';' removed */
	uint16_t two;        /* the line had a BEFORE column */
	uint16_t src;        /* which source (struct fold_src) it came from */
	double after, before;
	uint64_t lineno;     /* 1-based, within this call's input */
};

struct skey {
	uint64_t key;        /* chunk of the line's stack at the group's depth */
	const char *s;       /* the line's stack (a copy: one cache miss less a chunk) */
	uint32_t len;
	uint32_t idx;        /* line index */
};

struct index_job {
	const char *buf;
	size_t len;
	uint16_t src;
	uint64_t line0;      /* lines before this part */
	struct sline *l;
	size_t n, cap;
	uint64_t lines, bad, first_bad;
	int two, rc;
	int backslash;       /* the part holds a '\\': names may hold \xHH escapes */
};

struct sort_job {
	int names;           /* sorting name keys (fold_sort_names), not lines */
	struct skey *k, *tmp;
	size_t lo, hi;       /* the top-level runs in [lo, hi) */
	int rc;
};

static void leading_comments(fold_trie *t, const char *p, size_t len);
static void *index_part(void *arg);
static void *sort_part(void *arg);
static int sort_lines(const struct sline *L, size_t n, struct skey **out);
static int build(fold_trie *t, const struct sline *L, const struct skey *k, size_t n,
		 struct fold_src *src, int nsrc);
static void group_sort(int names, struct skey *k, struct skey *tmp, size_t n, uint32_t c);
static void sort_keys(int names, struct skey *k, struct skey *tmp, size_t n);

/* ---- entry ---------------------------------------------------------------- */

int fold_read_sorted_mem(fold_trie *t, const char *buf, size_t len, const struct fold_read_opts *o,
			 struct fold_read_stats *st, struct uf_err *err)
{
	struct fold_src src = { .buf = buf, .len = len, .o = o, .st = st, .role = FOLD_SRC_PLAIN };
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

/* Index jobs: each source in one or two parts (cut after a newline). */
static int index_all(struct fold_src *src, int nsrc, struct index_job *job, int *njob)
{
	int n = 0;
	for (int i = 0; i < nsrc; i++) {
		const char *buf = src[i].buf;
		size_t len = src[i].len, cut = len;
		if (len >= FOLD_SORTED_SPLIT) {
			const char *nl = memchr(buf + len / 2, '\n', len - len / 2);
			if (nl)
				cut = (size_t)(nl + 1 - buf);
		}
		job[n++] = (struct index_job){ .buf = buf, .len = cut, .src = (uint16_t)i };
		if (cut < len)
			job[n++] = (struct index_job){ .buf = buf + cut, .len = len - cut, .src = (uint16_t)i };
	}
	pthread_t th[4];
	int started[4] = { 0 };
	for (int j = 1; j < n; j++)
		started[j] = pthread_create(&th[j], NULL, index_part, &job[j]) == 0;
	for (int j = 0; j < n; j++)
		if (j == 0 || !started[j])
			index_part(&job[j]);
	for (int j = 1; j < n; j++)
		if (started[j])
			pthread_join(th[j], NULL);
	*njob = n;
	for (int j = 0; j < n; j++)
		if (job[j].rc)
			return job[j].rc;
	return 0;
}

/* Concatenates the jobs' lines (line numbers made per source) and
 * records each source's line and bad counts. */
static int gather(struct fold_src *src, struct index_job *job, int njob, struct sline **out,
		  size_t *nout)
{
	size_t total = 0, at = 0;
	for (int j = 0; j < njob; j++)
		total += job[j].n;
	if (total >= UINT32_MAX)
		return -E2BIG;
	struct sline *l = malloc((total ? total : 1) * sizeof *l);
	if (!l)
		return -ENOMEM;
	uint64_t before = 0; /* lines of the same source in earlier jobs */
	for (int j = 0; j < njob; j++) {
		struct fold_src *sc = &src[job[j].src];
		if (j > 0 && job[j - 1].src != job[j].src)
			before = 0;
		uint64_t base = sc->st->lines + before;
		for (size_t i = 0; i < job[j].n; i++) {
			l[at] = job[j].l[i];
			l[at++].lineno += base;
		}
		note_bad_at(sc, base + job[j].first_bad, job[j].bad);
		before += job[j].lines;
		if (job[j].two && sc->role == FOLD_SRC_PLAIN)
			sc->two = 1;
	}
	for (int j = 0; j < njob; j++)
		src[job[j].src].st->lines += job[j].lines;
	*out = l;
	*nout = total;
	return 0;
}

int fold_read_sorted(fold_trie *t, struct fold_src *src, int nsrc, struct uf_err *err)
{
	struct index_job job[4];
	struct sline *L = NULL;
	struct skey *keys = NULL;
	size_t n = 0;
	int njob = 0, diff = 0;
	memset(job, 0, sizeof job);
	for (int i = 0; i < nsrc; i++) {
		src[i].sum = 0;
		src[i].valid = 0;
		src[i].two = 0;
		diff |= src[i].role != FOLD_SRC_PLAIN;
	}
#ifdef SORTED_TIMING
	struct timespec t0, t1, t2, t3;
	clock_gettime(CLOCK_MONOTONIC, &t0);
#endif
	for (int i = 0; i < nsrc; i++)
		leading_comments(t, src[i].buf, src[i].len);
	int rc = index_all(src, nsrc, job, &njob);
	for (int j = 0; j < njob && rc == 0; j++)
		if (job[j].backslash)
			rc = 1;
	if (rc == 1) { /* "\xHH" decodes two spellings to one name: the sorted
			  merge would make two siblings of it; the streaming
			  reader looks names up */
		for (int j = 0; j < njob; j++)
			free(job[j].l);
		return 1;
	}
	if (rc == 0)
		rc = gather(src, job, njob, &L, &n);
	for (int j = 0; j < njob; j++)
		free(job[j].l);
	for (int i = 0; i < nsrc && rc == 0; i++)
		diff |= src[i].two;
	if (rc == 0 && diff && !t->base)
		rc = fold_trie_make_diff(t);
#ifdef SORTED_TIMING
	clock_gettime(CLOCK_MONOTONIC, &t1);
#endif
	if (rc == 0)
		rc = sort_lines(L, n, &keys);
#ifdef SORTED_TIMING
	clock_gettime(CLOCK_MONOTONIC, &t2);
#endif
	t->index_stale = 1; /* t is empty: no index to keep */
	if (rc == 0)
		rc = build(t, L, keys, n, src, nsrc);
#ifdef SORTED_TIMING
	clock_gettime(CLOCK_MONOTONIC, &t3);
#define MS(a, b) ((b.tv_sec - a.tv_sec) * 1e3 + (b.tv_nsec - a.tv_nsec) / 1e6)
	fprintf(stderr, "sorted: index %.1f ms, sort %.1f ms, build %.1f ms (%zu lines)\n", MS(t0, t1),
		MS(t1, t2), MS(t2, t3), n);
#endif
	free(keys);
	free(L);
	if (rc)
		uf_err_set(err, UF_EINPUT, src[0].o->label ? src[0].o->label : "-",
			   rc == -E2BIG ? "too many lines" : "out of memory");
	return rc;
}

/* ---- index: lines and counts ---------------------------------------------- */

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

static void index_bad(struct index_job *j)
{
	if (j->bad++ == 0)
		j->first_bad = j->lines;
}

static void *index_part(void *arg)
{
	struct index_job *j = arg;
	const char *p = j->buf, *end = j->buf + j->len;
	if ((j->backslash = memchr(p, '\\', j->len) != NULL))
		return NULL; /* the caller declines: see fold_read_sorted */
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);
		const char *s = p;
		p += nl ? n + 1 : n;
		j->lines++;
		if (n > FOLD_MAX_LINE) {
			index_bad(j);
			continue;
		}
		struct fold_line fl;
		int r = fold_parse_line(s, n, &fl);
		if (r == 1)
			continue; /* blank */
		if (r) {
			size_t k = 0;
			while (k < n && (s[k] == ' ' || s[k] == '\t'))
				k++;
			if (s[k] != '#') /* a comment (record's metadata) is not a bad line */
				index_bad(j);
			continue;
		}
		if (j->n == j->cap) {
			/* a line takes at least 2 bytes ("x\n"): a small input
			 * starts small */
			size_t cap = j->cap ? j->cap * 2 : j->len / 2 < 4096 ? j->len / 2 + 1 : 4096;
			struct sline *l = realloc(j->l, cap * sizeof *l);
			if (!l) {
				j->rc = -ENOMEM;
				return NULL;
			}
			j->l = l;
			j->cap = cap;
		}
		j->l[j->n++] = (struct sline){ s, (uint32_t)fl.len, (uint16_t)fl.two, j->src,
					       fl.after, fl.before, j->lines };
		j->two |= fl.two;
	}
	return NULL;
}

/* ---- sort ------------------------------------------------------------------ */

/* 9-bit symbols.  Lines: ';' 1, byte b as b + 2.  Names: byte b as b + 1,
 * then the terminator byte the key stands for (' ' or ';', by the key's
 * idx parity).  0 is past the end, so a prefix sorts first. */
static uint16_t sym_line[256], sym_name[256];
static pthread_once_t sym_once = PTHREAD_ONCE_INIT;

static void sym_init(void)
{
	for (int b = 0; b < 256; b++) {
		sym_line[b] = b == ';' ? 1 : (uint16_t)(b + 2);
		sym_name[b] = (uint16_t)(b + 1);
	}
}

/* Symbols c*7 .. c*7+6 of a key, 9 bits each. */
static inline uint64_t chunk_key(int names, const struct skey *x, uint32_t c)
{
	size_t off = (size_t)c * 7, len = x->len;
	const unsigned char *s = (const unsigned char *)x->s + off;
	const uint16_t *sym = names ? sym_name : sym_line;
	uint64_t k = 0;
	if (off + 7 <= len) {
		for (int i = 0; i < 7; i++)
			k = k << 9 | sym[s[i]];
		return k;
	}
	uint64_t term = names ? ((x->idx & 1) ? ';' : ' ') + 1u : 0;
	for (size_t i = 0; i < 7; i++)
		k = k << 9 | (off + i < len ? sym[s[i]] : off + i == len ? term : 0u);
	return k;
}

/* Stable sort of k[0..n) by key: insertion or merge sort when small,
 * else LSD radix on bytes, skipping the bytes every key shares. */
static void merge_sort(struct skey *k, struct skey *tmp, size_t n)
{
	if (n <= SMALL_GROUP) {
		for (size_t i = 1; i < n; i++) {
			struct skey x = k[i];
			size_t j = i;
			for (; j > 0 && k[j - 1].key > x.key; j--)
				k[j] = k[j - 1];
			k[j] = x;
		}
		return;
	}
	size_t h = n / 2, i = 0, j = h, o = 0;
	merge_sort(k, tmp, h);
	merge_sort(k + h, tmp, n - h);
	if (k[h - 1].key <= k[h].key)
		return; /* already in order (sorted input, long runs) */
	memcpy(tmp, k, h * sizeof *k);
	while (i < h && j < n)
		k[o++] = k[j].key < tmp[i].key ? k[j++] : tmp[i++]; /* ties: the left first */
	while (i < h)
		k[o++] = tmp[i++];
}

static void key_sort(struct skey *k, struct skey *tmp, size_t n)
{
	if (n <= MERGE_GROUP) { /* a radix pass costs 2 KiB of counters: small groups merge */
		merge_sort(k, tmp, n);
		return;
	}
	uint32_t hist[8][256];
	memset(hist, 0, sizeof hist);
	for (size_t i = 0; i < n; i++)
		for (int b = 0; b < 8; b++)
			hist[b][(k[i].key >> (8 * b)) & 255]++;
	struct skey *src = k, *dst = tmp;
	for (int b = 0; b < 8; b++) {
		if (hist[b][(k[0].key >> (8 * b)) & 255] == n)
			continue; /* every key has this byte */
		uint32_t pos[256], sum = 0;
		for (int v = 0; v < 256; v++) {
			pos[v] = sum;
			sum += hist[b][v];
		}
		for (size_t i = 0; i < n; i++)
			dst[pos[(src[i].key >> (8 * b)) & 255]++] = src[i];
		struct skey *x = src;
		src = dst;
		dst = x;
	}
	if (src != k)
		memcpy(k, src, n * sizeof *k);
}

struct group { size_t lo, hi; uint32_t c; };


/* Whole chunks from chunk c on that every key of k[0..m) shares with the
 * first (tree-shaped profiles share prefixes of hundreds of bytes: one
 * pass of word compares instead of a sort per 7 bytes).  A key ending
 * inside the shared bytes stops the skip before its end. */
static uint32_t shared_chunks(const struct skey *k, size_t m, uint32_t c)
{
	size_t off = (size_t)c * 7, lcp = SIZE_MAX;
	if (m < 2 || k[0].len <= off)
		return 0;
	for (size_t i = 1; i < m && lcp >= 7; i++) {
		size_t n = k[i].len < k[0].len ? k[i].len : k[0].len;
		n = n > off ? n - off : 0;
		if (n > lcp)
			n = lcp;
		lcp = fold_common_prefix(k[0].s + off, k[i].s + off, n);
	}
	return (uint32_t)(lcp / 7);
}

/* Sorts the n lines of k (already sharing their first c chunks) to the
 * end: sort by chunk c, then each run of equal chunks that has not
 * ended by chunk c + 1, and so on (an explicit stack: deep stacks share
 * prefixes of thousands of chunks). */
static void group_sort(int names, struct skey *k, struct skey *tmp, size_t n, uint32_t c)
{
	struct group *stack = NULL;
	size_t top = 0, cap = 0;
	struct group g = { 0, n, c };
	for (;;) {
		size_t m = g.hi - g.lo;
		struct skey *kk = k + g.lo;
		g.c += shared_chunks(kk, m, g.c);
		for (size_t i = 0; i < m; i++) {
			if (i + PREFETCH < m)
				__builtin_prefetch(kk[i + PREFETCH].s + (size_t)g.c * 7);
			kk[i].key = chunk_key(names, &kk[i], g.c);
		}
		key_sort(kk, tmp, m);
		for (size_t i = 0; i < m;) {
			size_t j = i + 1;
			while (j < m && kk[j].key == kk[i].key)
				j++;
			if (j - i > 1 && (kk[i].key & 511) != 0) { /* same so far, not ended */
				if (top == cap) {
					size_t nc = cap ? cap * 2 : 64;
					struct group *s = realloc(stack, nc * sizeof *s);
					if (!s) { /* fall back to recursion for this run */
						group_sort(names, kk + i, tmp, j - i, g.c + 1);
						i = j;
						continue;
					}
					stack = s;
					cap = nc;
				}
				stack[top++] = (struct group){ g.lo + i, g.lo + j, g.c + 1 };
			}
			i = j;
		}
		if (top == 0)
			break;
		g = stack[--top];
	}
	free(stack);
}

static void *sort_part(void *arg)
{
	struct sort_job *j = arg;
	for (size_t i = j->lo; i < j->hi;) {
		size_t e = i + 1;
		while (e < j->hi && j->k[e].key == j->k[i].key)
			e++;
		if (e - i > 1 && (j->k[i].key & 511) != 0)
			group_sort(j->names, j->k + i, j->tmp, e - i, 1);
		i = e;
	}
	return NULL;
}

/* Sorts k[0..n) (s, len, idx set) completely; tmp has room for n keys.
 * The runs of the first chunk are split between two threads. */
static void sort_keys(int names, struct skey *k, struct skey *tmp, size_t n)
{
	pthread_once(&sym_once, sym_init);
	for (size_t i = 0; i < n; i++)
		k[i].key = chunk_key(names, &k[i], 0);
	key_sort(k, tmp, n);
	size_t mid = n / 2;
	while (mid > 0 && mid < n && k[mid].key == k[mid - 1].key)
		mid++;
	struct sort_job a = { names, k, tmp, 0, mid, 0 }, b = { names, k, tmp + mid, mid, n, 0 };
	pthread_t th;
	int threaded = n >= FOLD_SORTED_THREAD_LINES && mid < n &&
		       pthread_create(&th, NULL, sort_part, &b) == 0;
	if (!threaded)
		a.hi = n;
	sort_part(&a);
	if (threaded)
		pthread_join(th, NULL);
}

/* The order of lines: *out gets an owned array of n keys, idx in order. */
static int sort_lines(const struct sline *L, size_t n, struct skey **out)
{
	struct skey *k = malloc((n ? n : 1) * sizeof *k), *tmp = malloc((n ? n : 1) * sizeof *tmp);
	if (!k || !tmp) {
		free(k);
		free(tmp);
		return -ENOMEM;
	}
	for (size_t i = 0; i < n; i++)
		k[i] = (struct skey){ 0, L[i].s, L[i].len, (uint32_t)i };
	sort_keys(0, k, tmp, n);
	free(tmp);
	*out = k;
	return 0;
}

int fold_sort_names(const fold_trie *t, uint32_t *rank)
{
	size_t n = (size_t)t->nnames * 2;
	struct skey *k = malloc(n * sizeof *k), *tmp = malloc(n * sizeof *tmp);
	if (!k || !tmp) {
		free(k);
		free(tmp);
		return -ENOMEM;
	}
	for (size_t i = 0; i < n; i++)
		k[i] = (struct skey){ 0, t->nbuf + t->noff[i / 2], t->nlen[i / 2], (uint32_t)i };
	sort_keys(1, k, tmp, n);
	for (size_t i = 0; i < n; i++)
		rank[k[i].idx] = (uint32_t)i;
	free(k);
	free(tmp);
	return 0;
}

/* ---- build: merge each line with the previous one ----------------------------- */

struct path {
	const char *s;       /* the previous line's stack */
	uint32_t len, n;     /* its length and frame count */
	uint32_t *end;       /* end offset of frame i */
	uint32_t *node;      /* node of frame i */
	uint32_t *fs, *fl;   /* scratch: a new line's frames */
	uint64_t *fh;        /* and their name hashes */
};

/* Finds the end of the frame at f (`avail` bytes left in the stack, and at
 * least 2 readable bytes after it: the count's separator and a digit) and
 * hashes it on the way: fold_name_hash(f, *flen), 8 bytes a step. */
static inline uint64_t scan_frame(const char *f, size_t avail, size_t *flen)
{
	uint64_t h = FOLD_NH_SEED, v;
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
			return fold_nh_final(h, b ? v & (~0ull >> (64 - 8 * b)) : 0, n + b);
		}
		h = fold_nh_mix(h ^ v, FOLD_NH_K1);
		n += 8;
	}
#endif
	const char *semi = memchr(f + n, ';', avail - n);
	size_t len = semi ? (size_t)(semi - f) : avail;
	while (len - n >= 8) {
		memcpy(&v, f + n, 8);
		h = fold_nh_mix(h ^ v, FOLD_NH_K1);
		n += 8;
	}
	v = 0;
	memcpy(&v, f + n, len - n);
	*flen = len;
	return fold_nh_final(h, v, len);
}


/* Frames of the previous line this one shares, and their last node. */
static uint32_t shared_frames(const struct path *P, const char *s, uint32_t len, uint32_t *node)
{
	size_t common = fold_common_prefix(s, P->s, len < P->len ? len : P->len);
	uint32_t k = 0;
	*node = FOLD_ROOT;
	while (k < P->n && P->end[k] < common)
		*node = P->node[k++];
	/* frame k ends exactly where the lines part: shared when this line's
	 * frame ends there too */
	if (k < P->n && P->end[k] == common && (common == len || s[common] == ';'))
		*node = P->node[k++];
	return k;
}

/* Adds one line; returns 0, 1 for a bad line (a frame over FOLD_MAX_NAME),
 * or -ENOMEM. */
static int build_line(fold_trie *t, struct path *P, const struct sline *l, uint32_t *leaf, int *trunc)
{
	uint32_t node, k = P->s ? shared_frames(P, l->s, l->len, &node) : 0;
	if (!P->s)
		node = FOLD_ROOT;
	size_t pos = k ? P->end[k - 1] + 1 : 0;
	uint32_t nf = 0, depth = k;
	*trunc = 0;
	if (l->len == 0 || (k && P->end[k - 1] == l->len)) {
		*leaf = node; /* every frame shared */
		return 0;
	}
	while (pos <= l->len) { /* the new frames, checked before any is added */
		size_t flen;
		uint64_t h = scan_frame(l->s + pos, l->len - pos, &flen);
		if (flen > FOLD_MAX_NAME)
			return 1;
		if (depth >= FOLD_MAX_DEPTH) {
			*trunc = 1;
			break;
		}
		__builtin_prefetch(&t->nslots[(uint32_t)h & t->nslots_mask]); /* interned below */
		P->fh[nf] = h;
		P->fs[nf] = (uint32_t)pos;
		P->fl[nf++] = (uint32_t)flen;
		depth++;
		pos += flen + 1;
	}
	if (nf == 0) { /* only frames past the depth cap are new */
		*leaf = node;
		return 0;
	}
	for (uint32_t i = 0; i < nf; i++) { /* the slots are on their way: fetch the
					       name records they point at, all at once */
		uint64_t v = t->nslots[(uint32_t)P->fh[i] & t->nslots_mask];
		if (v)
			__builtin_prefetch(t->nbuf + (v & FOLD_NSLOT_OFF) - 8);
	}
	for (uint32_t i = 0; i < nf; i++, k++) {
		uint32_t nm = fold_trie_intern_h(t, l->s + P->fs[i], P->fl[i], P->fh[i]);
		node = nm == FOLD_NONE ? FOLD_NONE : fold_trie_append(t, node, nm);
		if (node == FOLD_NONE)
			return -ENOMEM;
		P->node[k] = node;
		P->end[k] = P->fs[i] + P->fl[i];
	}
	P->s = l->s;
	P->len = l->len;
	P->n = k;
	*leaf = node;
	return 0;
}

/* One thread's share of the build: lines k[lo..hi) into t. */
struct part {
	fold_trie *t;
	const struct sline *L;
	const struct skey *k;
	size_t lo, hi;
	struct path P;
	uint32_t chain;      /* nodes 1..chain seed the path (the line before lo) */
	int base_diff;       /* the input has BEFORE columns */
	const struct fold_src *src;
	struct {             /* per source */
		uint64_t bad, first_bad, truncated;
		double sum;
		int valid;
	} c[FOLD_SRC_MAX];
	int rc;
};

/* `depth` frames at most: a line of n bytes has at most n + 1 frames (one
 * ';' between two), so the longest line bounds it below FOLD_MAX_DEPTH on
 * small inputs; five arrays of 8192 were a third of a small file's time. */
static int path_init(struct path *P, uint32_t depth)
{
	memset(P, 0, sizeof *P);
	P->end = malloc(depth * sizeof *P->end);
	P->node = malloc(depth * sizeof *P->node);
	P->fs = malloc(depth * sizeof *P->fs);
	P->fl = malloc(depth * sizeof *P->fl);
	P->fh = malloc(depth * sizeof *P->fh);
	return P->end && P->node && P->fs && P->fl && P->fh ? 0 : -ENOMEM;
}

static void path_release(struct path *P)
{
	free(P->end);
	free(P->node);
	free(P->fs);
	free(P->fl);
	free(P->fh);
}

static void add_counts(fold_trie *t, uint32_t leaf, const struct sline *l, int role)
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
		if (d > t->max_line_delta)
			t->max_line_delta = d;
	}
}

static void *build_part(void *arg)
{
	struct part *w = arg;
	for (size_t i = w->lo; i < w->hi && w->rc == 0; i++) {
		if (i + PREFETCH < w->hi) { /* lines come in random memory order: all of
					       a line is read (its prefix by the compare) */
			const struct skey *x = &w->k[i + PREFETCH];
			uint32_t n = x->len < 64 * PREFETCH_LINES ? x->len : 64 * PREFETCH_LINES;
			for (uint32_t o = 0; o < n + 64; o += 64)
				__builtin_prefetch(x->s + o);
			__builtin_prefetch(&w->L[x->idx]);
		}
		const struct sline *l = &w->L[w->k[i].idx];
		uint32_t leaf;
		int trunc;
		int rc = build_line(w->t, &w->P, l, &leaf, &trunc);
		if (rc == 1) { /* bad: counted, the previous path stays */
			if (!w->c[l->src].bad++ || l->lineno < w->c[l->src].first_bad)
				w->c[l->src].first_bad = l->lineno;
		} else if (rc) {
			w->rc = rc;
		} else {
			w->c[l->src].truncated += (uint64_t)trunc;
			w->c[l->src].sum += l->after;
			w->c[l->src].valid |= l->len != 0 || l->after != 0;
			add_counts(w->t, leaf, l, w->src[l->src].role);
		}
	}
	return NULL;
}

/* Does line l build (no frame over FOLD_MAX_NAME within the depth cap)? */
static int line_good(const struct sline *l)
{
	size_t pos = 0;
	for (uint32_t d = 0; pos <= l->len && d <= FOLD_MAX_DEPTH && l->len; d++) {
		const char *semi = memchr(l->s + pos, ';', l->len - pos);
		size_t flen = semi ? (size_t)(semi - (l->s + pos)) : l->len - pos;
		if (flen > FOLD_MAX_NAME)
			return 0;
		pos += flen + 1;
	}
	return 1;
}

/* The second thread's part starts in a trie of its own, seeded with the
 * path of the line before its first (built by the first part too), so its
 * first lines merge with that path as they would in one pass. */
static int part2_init(struct part *b, const struct sline *prev, uint32_t depth)
{
	b->t = fold_trie_new();
	if (!b->t || path_init(&b->P, depth))
		return -ENOMEM;
	if (b->base_diff && fold_trie_make_diff(b->t))
		return -ENOMEM;
	uint32_t leaf;
	int trunc;
	if (build_line(b->t, &b->P, prev, &leaf, &trunc))
		return -ENOMEM;
	b->chain = b->t->nnodes - 1;
	return 0;
}

/* Appends part b's trie to t: b's seed chain is t's path a->P; the rest
 * are new nodes, in b's order (still pre-order after t's). */
/* t's id for node i of part b's trie u (first: t's id of u's first new node). */
static inline uint32_t part2_id(const struct part *a, const struct part *b, uint32_t first, uint32_t i)
{
	return i == 0 ? FOLD_ROOT : i <= b->chain ? a->P.node[i - 1] : first + (i - b->chain - 1);
}

/* Grows one of t's node arrays to `want` elements of `size` bytes. */
static int grow_array(void *arr, size_t want, size_t size)
{
	void *p = realloc(*(void **)arr, want * size);
	if (!p)
		return -ENOMEM;
	*(void **)arr = p;
	return 0;
}

/* Appends part b's trie u to t: u's seed chain is t's path a->P; the
 * rest are new nodes, in u's order (still pre-order after t's).  One
 * array at a time, each of u's freed once copied, so the copy costs
 * memory for one array, not for all of u. */
static int part2_merge(fold_trie *t, const struct part *a, struct part *b)
{
	fold_trie *u = b->t;
	uint32_t *nmap = malloc((size_t)u->nnames * sizeof *nmap);
	if (!nmap || fold_trie_reserve_names(t, t->nnames + u->nnames)) {
		free(nmap);
		return -ENOMEM;
	}
	for (uint32_t i = 0; i < u->nnames; i++) {
		size_t len;
		const char *s = fold_trie_name(u, i, &len);
		if ((nmap[i] = fold_trie_intern(t, s, len)) == FOLD_NONE) {
			free(nmap);
			return -ENOMEM;
		}
	}
	uint32_t first = t->nnodes, add = u->nnodes - 1 - b->chain;
	size_t want = (size_t)first + add;
	int rc = want > FOLD_MAX_NODES ? -ENOMEM : 0;
	int grow = rc == 0 && want > t->nodes_cap;
	/* counts first: u's are then freed before t's other arrays grow */
	if (grow)
		rc = grow_array(&t->self, want, sizeof *t->self);
	if (grow && t->base && rc == 0)
		rc = grow_array(&t->base, want, sizeof *t->base);
	if (rc == 0) {
		for (uint32_t i = first; i < want; i++) {
			t->self[i] = 0;
			if (t->base)
				t->base[i] = 0;
		}
		for (uint32_t i = 0; i < u->nnodes; i++) {
			uint32_t id = part2_id(a, b, first, i);
			t->self[id] += u->self[i];
			if (t->base)
				t->base[id] += u->base[i];
		}
	}
	free(u->self);
	free(u->base);
	u->self = u->base = NULL;
	if (rc == 0 && grow) {
		rc = grow_array(&t->parent, want, sizeof *t->parent);
		for (uint32_t i = b->chain + 1; rc == 0 && i < u->nnodes; i++)
			t->parent[first + i - b->chain - 1] = part2_id(a, b, first, u->parent[i]);
		free(u->parent);
		u->parent = NULL;
		if (rc == 0)
			rc = grow_array(&t->name, want, sizeof *t->name);
		for (uint32_t i = b->chain + 1; rc == 0 && i < u->nnodes; i++)
			t->name[first + i - b->chain - 1] = nmap[u->name[i]];
		free(u->name);
		u->name = NULL;
		if (rc == 0)
			rc = grow_array(&t->depth, want, sizeof *t->depth);
		if (rc == 0)
			memcpy(t->depth + first, u->depth + b->chain + 1, (size_t)add * sizeof *t->depth);
		free(u->depth);
		u->depth = NULL;
		if (rc == 0)
			t->nodes_cap = (uint32_t)want;
	} else if (rc == 0) { /* room already: copy in place */
		for (uint32_t i = b->chain + 1; i < u->nnodes; i++) {
			uint32_t id = first + i - b->chain - 1;
			t->parent[id] = part2_id(a, b, first, u->parent[i]);
			t->name[id] = nmap[u->name[i]];
			t->depth[id] = u->depth[i];
		}
	}
	if (rc == 0)
		t->nnodes = (uint32_t)want;
	if (u->max_line_delta > t->max_line_delta)
		t->max_line_delta = u->max_line_delta;
	free(nmap);
	return rc;
}

static int build(fold_trie *t, const struct sline *L, const struct skey *k, size_t n,
		 struct fold_src *src, int nsrc)
{
	struct part a = { .t = t, .L = L, .k = k, .lo = 0, .hi = n, .src = src },
		    b = { .L = L, .k = k, .src = src };
	pthread_t th;
	uint32_t longest = 0;
	for (size_t i = 0; i < n; i++)
		longest = L[i].len > longest ? L[i].len : longest;
	uint32_t depth = longest < FOLD_MAX_DEPTH ? longest + 2 : FOLD_MAX_DEPTH;
	int threaded = 0, rc = path_init(&a.P, depth);
	if (rc == 0 && n >= FOLD_SORTED_THREAD_LINES) {
		size_t mid = n / 2;
		while (mid < n && !line_good(&L[k[mid - 1].idx]))
			mid++;
		b.lo = a.hi = mid;
		b.hi = n;
		b.base_diff = t->base != NULL;
		if (mid < n && part2_init(&b, &L[k[mid - 1].idx], depth) == 0)
			threaded = pthread_create(&th, NULL, build_part, &b) == 0;
		if (!threaded)
			a.hi = n;
	}
	if (rc == 0)
		build_part(&a);
	if (threaded)
		pthread_join(th, NULL);
	rc = rc ? rc : a.rc ? a.rc : b.rc;
	if (rc == 0 && threaded)
		rc = part2_merge(t, &a, &b);
	for (int i = 0; i < nsrc; i++) {
		/* a's lines precede b's in sorted order, not in line numbers */
		if (a.c[i].bad)
			note_bad_at(&src[i], a.c[i].first_bad, a.c[i].bad);
		if (b.c[i].bad)
			note_bad_at(&src[i], b.c[i].first_bad, b.c[i].bad);
		src[i].st->truncated += a.c[i].truncated + b.c[i].truncated;
		src[i].sum = a.c[i].sum + b.c[i].sum;
		src[i].valid = a.c[i].valid | b.c[i].valid;
	}
	t->finished = 0;
	path_release(&a.P);
	path_release(&b.P);
	fold_trie_free(b.t);
	return rc;
}
