/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * bench/gen-shapes.c — fixed-seed generators of the input shapes issue 11
 * measures, each a folded-stack file (flamegraph.pl format).
 *
 *   gen-shapes little N SEED OUT     (a) stacks that share almost nothing
 *   gen-shapes tree N SEED OUT       (b) stacks sampled from one call tree
 *   gen-shapes deep N SEED OUT       (d) N stacks of depth 500..8192
 *   gen-shapes names N SEED OUT      (e) N distinct function names
 *
 * (a) little: every stack starts with one of 40 process names, then a
 *     frame drawn from 20,000 names, so stacks diverge within their first
 *     two frames; depth uniform in 3..48; counts log-uniform in 1..1000;
 *     lines in generation order (random).  About 2.3M call paths per 100k
 *     stacks: the trie gets no help from sharing.
 * (b) tree: one random call tree (seeded by SEED's high bits, so `tree N 1`
 *     and `tree N 2` walk the same program) of about 30,000 functions; each
 *     line is one walk from the root, choosing a child by Zipf-like weights
 *     and stopping with a per-node probability; duplicate walks are written
 *     as separate lines, as concatenated perf captures have them.  The low
 *     bit of SEED picks the walk sequence, so seeds 2k and 2k+1 give two
 *     samplings of one program (the diff input).
 * (d) deep: stacks of log-uniform depth in 500..8192; each copies most of
 *     an earlier stack (recursive descents share long prefixes) and adds a
 *     fresh tail; 600 short names, as recursive code has.
 * (e) names: N distinct names, about 5 new ones per line on lines of depth
 *     4..10 under a few shared trunk frames.
 *
 * Trade-off: simple models over realism of every detail; each mode is a
 * few lines so what it measures is plain.
 * Invariants:
 *  1. Output depends only on the arguments: own PRNG (splitmix64), no clock,
 *     no libc rand.
 *  2. No name contains ';', a newline, or ends in a count-like token.
 *  3. OUT appears only when complete (OUT.tmp, then rename).
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct rng { uint64_t s; };

static uint64_t rng_next(struct rng *r)
{
	uint64_t z = (r->s += 0x9e3779b97f4a7c15ull);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static uint32_t below(struct rng *r, uint32_t n)
{
	return (uint32_t)(((unsigned __int128)rng_next(r) * n) >> 64);
}

static double unit(struct rng *r)
{
	return (double)(rng_next(r) >> 11) * 0x1.0p-53;
}

static void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);
	if (!p) {
		fprintf(stderr, "gen-shapes: out of memory\n");
		exit(1);
	}
	return p;
}

/* ---- names ----------------------------------------------------------- */

static const char *const parts[] = {
	"Buffer", "Pool", "Manager", "Task", "Stream", "Handler", "Request", "Reply",
	"Session", "Chan", "Parser", "Writer", "Reader", "Queue", "Table", "Index",
	"Node", "Tree", "Worker", "Heap", "Map", "Sched", "Ctx", "Alloc", "Socket",
	"Frame", "Span", "Cursor", "Block", "Page", "Lock", "Timer", "Event", "Vec",
};
static const char *const verbs[] = {
	"run", "get", "set", "insert", "find", "read", "write", "flush", "poll",
	"send", "recv", "parse", "encode", "decode", "alloc", "free", "visit",
	"emit", "dispatch", "handle", "process", "update", "commit", "scan", "merge",
};
static const char *const words[] = {
	"page", "fault", "lock", "sched", "wake", "tcp", "skb", "copy", "user",
	"file", "inode", "mmap", "slab", "irq", "timer", "rcu", "futex", "epoll",
	"sock", "blk", "bio", "task", "pte", "tlb", "lru", "zone", "ring", "napi",
};
#define N_OF(a) (sizeof(a) / sizeof((a)[0]))

/* A realistic-looking name for index i (distinct i, distinct name). */
static int name_of(char *out, uint64_t i)
{
	uint64_t h = i * 0x9e3779b97f4a7c15ull >> 17;
	switch (i % 4) {
	case 0:
		return sprintf(out, "%s::%s_%llu", parts[h % N_OF(parts)], verbs[(h >> 8) % N_OF(verbs)],
			       (unsigned long long)i);
	case 1:
		return sprintf(out, "%s_%s_%llx", words[h % N_OF(words)], words[(h >> 8) % N_OF(words)],
			       (unsigned long long)i);
	case 2:
		return sprintf(out, "io/%s.%s$%llu", parts[h % N_OF(parts)], verbs[(h >> 8) % N_OF(verbs)],
			       (unsigned long long)i);
	default:
		return sprintf(out, "%s_%llx_[k]", words[h % N_OF(words)], (unsigned long long)i);
	}
}

struct pool {
	char *buf;
	uint32_t *off, *len, n;
};

static void pool_build(struct pool *p, uint32_t n, uint64_t base)
{
	p->buf = xmalloc((size_t)n * 48);
	p->off = xmalloc((size_t)n * sizeof *p->off);
	p->len = xmalloc((size_t)n * sizeof *p->len);
	size_t at = 0;
	for (uint32_t i = 0; i < n; i++) {
		p->off[i] = (uint32_t)at;
		p->len[i] = (uint32_t)name_of(p->buf + at, base + i);
		at += p->len[i];
	}
	p->n = n;
}

/* ---- output ---------------------------------------------------------- */

struct out {
	FILE *f;
	char tmp[4096];
	uint64_t lines, bytes, frames;
};

static void out_open(struct out *o, const char *path)
{
	snprintf(o->tmp, sizeof o->tmp, "%s.tmp", path);
	o->f = fopen(o->tmp, "wb");
	if (!o->f) {
		perror(o->tmp);
		exit(1);
	}
	setvbuf(o->f, NULL, _IOFBF, 1 << 20);
}

/* One line: the frames by name index, then the count. */
static void out_line(struct out *o, const struct pool *p, const uint32_t *ids, uint32_t n,
		     uint32_t count)
{
	for (uint32_t k = 0; k < n; k++) {
		fwrite(p->buf + p->off[ids[k]], 1, p->len[ids[k]], o->f);
		putc(k + 1 < n ? ';' : ' ', o->f);
		o->bytes += p->len[ids[k]] + 1;
	}
	o->bytes += (uint64_t)fprintf(o->f, "%u\n", count);
	o->lines++;
	o->frames += n;
}

static int out_close(struct out *o, const char *path)
{
	if (fclose(o->f) || rename(o->tmp, path)) {
		perror(path);
		return 1;
	}
	printf("%s: %llu lines, %.1f MB, mean depth %.1f\n", path, (unsigned long long)o->lines,
	       o->bytes / 1e6, (double)o->frames / (double)o->lines);
	return 0;
}

static uint32_t count_log(struct rng *r)
{
	return (uint32_t)exp(unit(r) * log(1000.5));
}

/* ---- modes ----------------------------------------------------------- */

static int mode_little(uint32_t n, struct rng *r, const char *path)
{
	struct pool p;
	struct out o = { 0 };
	uint32_t ids[48];
	pool_build(&p, 20040, 0);
	out_open(&o, path);
	for (uint32_t i = 0; i < n; i++) {
		uint32_t d = 3 + below(r, 46);
		ids[0] = 20000 + below(r, 40); /* the process */
		for (uint32_t k = 1; k < d; k++)
			ids[k] = below(r, 20000);
		out_line(&o, &p, ids, d, count_log(r));
	}
	return out_close(&o, path);
}

/* The call tree of mode (b) is implicit: a node is a 64-bit id, its j-th
 * child is a hash of (id, j), and its name, fanout and stop chance are
 * hashes of its id; so the tree is unbounded, costs no memory, and depends
 * only on the program seed. */
static uint64_t mix(uint64_t x)
{
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdull;
	x ^= x >> 33;
	x *= 0xc4ceb9fe1a85ec53ull;
	return x ^ (x >> 33);
}

static int mode_tree(uint32_t n, uint64_t seed, const char *path)
{
	struct rng wr = { seed * 0x2545f4914f6cdd1dull + 1 };
	struct pool p;
	struct out o = { 0 };
	uint32_t ids[256], names = 30000;
	pool_build(&p, names + 1, 1000000);
	out_open(&o, path);
	for (uint32_t i = 0; i < n; i++) {
		uint64_t at = mix(seed >> 1 | 1ull << 40);
		uint32_t d = 0;
		ids[d++] = names; /* the process frame */
		for (;;) {
			uint64_t h = mix(at ^ 0x5bd1e995);
			uint32_t fan = d < 3 ? 12 : 1 + (uint32_t)(h % 7);
			double stop = d < 2 ? 0 : 0.07 + 0.08 * (double)((h >> 20) & 1023) / 1024;
			if (d >= 200 || unit(&wr) < stop)
				break;
			/* Zipf-like: the first children are hot */
			uint32_t j = (uint32_t)(fan * pow(unit(&wr), 2.0));
			uint64_t kid = mix(at * 31 + (j < fan ? j : fan - 1) + 1);
			uint32_t nm = (uint32_t)(mix(kid) % names);
			if ((mix(kid) >> 40) % 25 == 0) /* recursion: the parent's name again */
				nm = ids[d - 1] == names ? nm : ids[d - 1];
			ids[d++] = nm;
			at = kid;
		}
		out_line(&o, &p, ids, d, 1 + (count_log(&wr) >> 4));
	}
	return out_close(&o, path);
}

static int mode_deep(uint32_t n, struct rng *r, const char *path)
{
	struct pool p;
	struct out o = { 0 };
	const uint32_t maxd = 8192;
	uint32_t *prev = xmalloc(maxd * sizeof *prev);
	uint32_t *cur = xmalloc(maxd * sizeof *cur);
	uint32_t prev_d = 0;
	pool_build(&p, 600, 5000000);
	/* short names: recursive descents repeat a few small functions */
	for (uint32_t i = 0; i < p.n; i++) {
		p.len[i] = (uint32_t)sprintf(p.buf + p.off[i], "%s_%u", words[i % N_OF(words)], i);
	}
	out_open(&o, path);
	for (uint32_t i = 0; i < n; i++) {
		uint32_t d = (uint32_t)(500 * exp(unit(r) * log(8192.0 / 500)));
		if (d > maxd)
			d = maxd;
		uint32_t keep = prev_d ? (uint32_t)(prev_d * (0.5 + 0.5 * unit(r))) : 0;
		if (keep > d)
			keep = d;
		memcpy(cur, prev, keep * sizeof *cur);
		for (uint32_t k = keep; k < d; k++)
			cur[k] = k && unit(r) < 0.7 ? cur[k - 1] : below(r, p.n);
		if (keep == d && d)
			cur[d - 1] = below(r, p.n);
		out_line(&o, &p, cur, d, count_log(r));
		memcpy(prev, cur, d * sizeof *cur);
		prev_d = d;
	}
	free(prev);
	free(cur);
	return out_close(&o, path);
}

static int mode_names(uint32_t n, struct rng *r, const char *path)
{
	struct pool p;
	struct out o = { 0 };
	uint32_t ids[16], trunk = 64;
	pool_build(&p, n + trunk, 9000000);
	out_open(&o, path);
	for (uint32_t next = trunk; next < n + trunk;) {
		uint32_t d = 4 + below(r, 7), k = 0;
		ids[k++] = below(r, 8);
		ids[k++] = 8 + below(r, trunk - 8);
		for (; k < d && next < n + trunk; k++)
			ids[k] = k < d - 5 ? 8 + below(r, trunk - 8) : next++;
		out_line(&o, &p, ids, k, count_log(r));
	}
	return out_close(&o, path);
}

int main(int argc, char **argv)
{
	if (argc != 5) {
		fprintf(stderr, "usage: gen-shapes little|tree|deep|names N SEED OUT\n");
		return 1;
	}
	uint32_t n = (uint32_t)strtoul(argv[2], NULL, 10);
	uint64_t seed = strtoull(argv[3], NULL, 0);
	struct rng r = { seed };
	if (n < 1 || n > 50000000) {
		fprintf(stderr, "gen-shapes: bad N\n");
		return 1;
	}
	if (!strcmp(argv[1], "little"))
		return mode_little(n, &r, argv[4]);
	if (!strcmp(argv[1], "tree"))
		return mode_tree(n, seed, argv[4]);
	if (!strcmp(argv[1], "deep"))
		return mode_deep(n, &r, argv[4]);
	if (!strcmp(argv[1], "names"))
		return mode_names(n, &r, argv[4]);
	fprintf(stderr, "gen-shapes: unknown shape '%s'\n", argv[1]);
	return 1;
}
