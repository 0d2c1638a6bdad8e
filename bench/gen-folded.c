/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * bench/gen-folded.c — deterministic generator of synthetic folded-stack
 * inputs (flamegraph.pl format) for `make bench`.
 *
 *   gen-folded flat N SEED OUT.folded PERTURBED.folded
 *   gen-folded tree N SEED OUT.folded
 *
 * `flat` writes N distinct stacks of depth 3..48 over about 20k function
 * names with counts 1..1000 (log-uniform), plus a perturbed copy for the
 * diff benchmark.  `tree` writes a small profile shaped like a real perf
 * capture: fewer names, shallower stacks, Zipf-skewed counts.
 *
 * Stacks are paths in a call tree grown the way programs share call paths:
 * each new stack copies a prefix of an earlier stack (picked uniformly, so
 * popular trunks grow more popular) and appends a few fresh frames.  Unique
 * call paths thus stay a small multiple of the stack count, not depth x
 * stacks.  Trade-off: realism of shape over generator speed and memory; the
 * whole tree (about 20 bytes per node plus a hash) stays in memory so every
 * line is guaranteed distinct.
 *
 * Invariants:
 *  1. Output depends only on the arguments: own PRNG (splitmix64), no clock,
 *     no libc rand, no hash-order dependence.
 *  2. Every line of a file is a distinct stack: each stack ends in a node
 *     created for it, and no two children of one node share a name.
 *  3. Every line's depth is within the mode's range; names are non-empty and
 *     contain no ';', newline or trailing count-like token.
 *  4. PERTURBED holds OUT's stacks minus ~2% plus ~2% new ones, with ~10% of
 *     counts changed, in an independent random order.
 *  5. A file appears under its final name only when complete (NAME.tmp, then
 *     rename), so an interrupted run never leaves a truncated cached input.
 */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- types ------------------------------------------------------------ */

enum pool { POOL_PROC, POOL_USER, POOL_LIB, POOL_KERN, NPOOL };

#define ROOT UINT32_MAX		/* parent id of depth-1 frames */
#define MAX_DEPTH 64		/* above any mode's depth range */
#define NAME_MAX_LEN 160	/* longest generated name, with suffix */
#define EMPTY UINT64_MAX	/* free slot in the child hash */

struct rng { uint64_t s; };

struct names {
	char *buf;		/* all names, not NUL-separated */
	size_t len, cap;
	uint32_t *off;		/* name id -> offset in buf */
	uint16_t *nlen;		/* name id -> length */
	uint32_t n, cap_n;
	uint32_t *set;		/* open-addressing set of ids, for dedup */
	uint32_t set_cap;
	uint32_t start[NPOOL], end[NPOOL];
};

struct params {
	uint32_t nstacks, nnames;
	uint32_t dmin, dmax;
	int tri_depth;		/* depth = mean of two uniforms */
	uint32_t nroot;		/* the first stacks each start a process */
	double root_p;		/* chance a later stack starts a new process */
	uint32_t fresh;		/* fresh frames: 1 + geometric, mean ~fresh */
	double skew;		/* name index = size * u^skew */
};

struct gen {
	struct rng r;
	struct params p;
	struct names nm;
	uint32_t *parent, *name;	/* node arrays, by node id */
	uint8_t *depth;
	uint32_t n, cap;
	uint64_t *hkey;			/* (parent << 32 | name) -> child */
	uint32_t *hval, hcap, hn;
	uint32_t *stacks;		/* endpoint node per stack */
	uint32_t nst;
};

/* ---- prototypes ------------------------------------------------------- */

static void *xrealloc(void *p, size_t n);
static uint64_t rng_next(struct rng *r);
static uint32_t rng_below(struct rng *r, uint32_t n);
static double rng_unit(struct rng *r);
static uint64_t mix64(uint64_t x);
static void names_build(struct names *nm, struct rng *r, uint32_t total);
static void tree_grow(struct gen *g, uint32_t nstacks);
static int write_folded(const struct gen *g, const char *path,
			const uint32_t *ids, const uint32_t *counts, uint32_t n);

/* ---- small helpers ---------------------------------------------------- */

static void *xrealloc(void *p, size_t n)
{
	void *q = realloc(p, n ? n : 1);
	if (!q) {
		fprintf(stderr, "gen-folded: out of memory (%zu bytes)\n", n);
		exit(1);
	}
	return q;
}

/* splitmix64: tiny, fast, and good enough for synthetic data. */
static uint64_t rng_next(struct rng *r)
{
	uint64_t z = (r->s += 0x9e3779b97f4a7c15ull);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static uint32_t rng_below(struct rng *r, uint32_t n)
{
	return (uint32_t)(((unsigned __int128)rng_next(r) * n) >> 64);
}

static double rng_unit(struct rng *r)
{
	return (double)(rng_next(r) >> 11) * 0x1.0p-53;
}

static uint64_t mix64(uint64_t x)
{
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdull;
	x ^= x >> 33;
	x *= 0xc4ceb9fe1a85ec53ull;
	return x ^ (x >> 33);
}

static uint64_t hash_str(const char *s, size_t n)
{
	uint64_t h = 0xcbf29ce484222325ull;	/* FNV-1a, then mixed */
	for (size_t i = 0; i < n; i++)
		h = (h ^ (unsigned char)s[i]) * 0x100000001b3ull;
	return mix64(h);
}

static const char *pick(struct rng *r, const char *const *list, uint32_t n)
{
	return list[rng_below(r, n)];
}

#define PICK(r, list) pick((r), (list), sizeof(list) / sizeof((list)[0]))

/* ---- word lists for realistic-looking names --------------------------- */

static const char *const procs[] = {
	"java", "nginx", "mysqld", "postgres", "redis-server", "node", "python3",
	"envoy", "memcached", "haproxy", "qemu-system-x86", "unikraft-app",
	"httpd", "sshd", "kworker/0:1", "swapper", "containerd", "dockerd",
	"chromium", "ffmpeg", "clang", "ld.lld", "make", "bash",
};
static const char *const nss[] = {
	"std", "v8", "boost", "folly", "net", "db", "app", "io", "rt", "http",
	"grpc", "absl", "llvm", "mozilla", "uk", "core", "mm", "sched",
	"tokio", "serde", "hyper", "json", "proto", "storage", "cache", "util",
};
static const char *const parts[] = {
	"Buffer", "Pool", "Manager", "Task", "Stream", "Handler", "Request",
	"Reply", "Session", "Chan", "Parser", "Writer", "Reader", "Queue",
	"Table", "Index", "Node", "Tree", "Worker", "Thread", "Heap", "Map",
	"Sched", "Ctx", "Alloc", "Socket", "Frame", "Coder", "Span", "Set",
	"Cursor", "Block", "Page", "Log", "Lock", "Timer", "Event", "Vec",
	"Visitor", "Module", "Service", "Client", "Server", "Conn", "Str",
	"Arena", "Slot", "Ring", "Pipe", "Row", "Col", "Key", "Value", "Entry",
	"Graph", "Edge", "Scope", "Type", "Expr", "Stmt", "Func", "Call",
	"Arg", "Op", "Reg", "Inst", "Loop", "Cache", "Store", "Blob", "File",
	"Dir", "Path", "Url", "Host", "Peer", "Route", "Mux", "Codec", "Frag",
	"Chunk", "Batch", "Job",
};
static const char *const verbs[] = {
	"run", "do_it", "get", "set", "push_back", "insert", "find", "lookup",
	"read", "write", "flush", "poll", "send", "recv", "parse", "encode",
	"decode", "alloc", "free", "init", "destroy", "visit", "emit",
	"compile", "dispatch", "handle", "process", "update", "commit", "scan",
	"merge", "resize", "hash", "compare", "copy", "move", "wait", "notify",
	"step", "put", "add", "del", "pop", "push", "next", "prev", "seek",
	"load", "save", "open", "close", "bind", "call", "apply", "eval",
	"fold", "map", "sort", "split", "join", "trim", "fill", "grow",
	"drain", "tick", "fire", "start", "stop", "reset", "clear",
};
static const char *const words[] = {
	"read", "write", "page", "fault", "alloc", "free", "lock", "unlock",
	"sched", "wake", "queue", "tcp", "udp", "ip", "skb", "copy", "user",
	"iter", "file", "inode", "dentry", "lookup", "mmap", "vma", "slab",
	"irq", "softirq", "timer", "rcu", "futex", "epoll", "poll", "send",
	"recv", "msg", "buf", "ctx", "entry", "exit", "init", "update",
	"flush", "get", "put", "hash", "list", "map", "request", "process",
	"handle", "sock", "net", "dev", "blk", "bio", "req", "io", "cpu",
	"task", "mm", "pte", "pmd", "pud", "tlb", "lru", "node", "zone",
	"cache", "ring", "tx", "rx", "napi", "xmit", "sg", "dma", "desc",
	"ack", "seq", "win", "mss", "rtt", "csum", "fd", "pipe", "sig", "wait",
	"work", "fn", "cb", "obj", "ref", "cnt", "len", "pos", "off", "idx",
	"key", "val", "str", "arg", "ret", "err",
};
static const char *const kprefix[] = {
	"", "", "", "", "", "", "", "", "__", "do_", "sys_", "vfs_", "tcp_",
	"ext4_", "__x64_sys_", "_raw_", "net_", "blk_", "mm_", "kmem_",
};
static const char *const libs[] = {
	"libc", "libpthread", "libm", "libstdc++", "libssl", "libcrypto", "libz",
	"libdl", "librt", "libjvm", "libnode", "libpython3.11", "libxml2",
	"libuv", "libevent", "libgcc_s", "ld-linux-x86-64", "libffi",
};

/* ---- names -------------------------------------------------------------- */

/* The name makers draw their random words into locals first: C leaves the
 * order of argument evaluation open, and invariant 1 must hold for any
 * compiler. */
static void name_cpp(struct rng *r, char *out)
{
	const char *tmpl = rng_below(r, 10) == 0 ? "<int>" : "";
	const char *ns = PICK(r, nss), *a = PICK(r, parts), *v = PICK(r, verbs);
	uint32_t kind = rng_below(r, 20);
	if (kind < 3)
		sprintf(out, "%s::%s%s::%s_%u", ns, a, tmpl, v, rng_below(r, 1000));
	else if (kind < 7)
		sprintf(out, "%s::%s%s::%s", ns, a, tmpl, v);
	else
		sprintf(out, "%s%s::%s", a, tmpl, v);
}

static void name_c(struct rng *r, char *out)
{
	static const char *const pre[] = { "", "", "", "", "ngx_", "uk_", "lwip_", "_" };
	const char *p = PICK(r, pre), *a = PICK(r, words), *b = PICK(r, words);
	const char *c = PICK(r, words);
	int n = sprintf(out, "%s%s_%s", p, a, b);
	if (rng_below(r, 6) == 0)
		n += sprintf(out + n, "_%s", c);
	if (rng_below(r, 6) == 0)
		sprintf(out + n, "%u", rng_below(r, 100));
}

static void name_java(struct rng *r, char *out)
{
	static const char *const root[] = { "io", "db", "x", "net" };
	const char *p = PICK(r, root), *a = PICK(r, parts), *v = PICK(r, verbs);
	sprintf(out, "%s/%s.%s", p, a, v);
}

static void name_odd(struct rng *r, char *out)
{
	uint32_t kind = rng_below(r, 4);
	const char *ns = PICK(r, nss), *a = PICK(r, parts), *b = PICK(r, parts);
	const char *v = PICK(r, verbs);
	unsigned long long h = rng_next(r);
	if (kind == 0)
		sprintf(out, "%s* %s::%s<false>", a, b, v);
	else if (kind == 1)
		sprintf(out, "%s::%s::h%016llx", ns, v, h);
	else if (kind == 2)
		sprintf(out, "operator new(unsigned long, %s&)", a);
	else
		sprintf(out, "<%s as Fn>::call", a);
}

static void name_lib(struct rng *r, uint32_t i, char *out)
{
	const char *l = PICK(r, libs);
	uint32_t major = rng_below(r, 4), minor = rng_below(r, 30);
	if (i == 0)
		strcpy(out, "[unknown]");
	else if (rng_below(r, 3) == 0)
		sprintf(out, "[%s-%u.%u.so]", l, major, minor);
	else
		sprintf(out, "%s.so.%u", l, major + 1);
}

static void name_kern(struct rng *r, char *out)
{
	const char *p = PICK(r, kprefix), *a = PICK(r, words), *b = PICK(r, words);
	if (rng_below(r, 2) == 0)
		sprintf(out, "%s%s_[k]", p, a);
	else
		sprintf(out, "%s%s_%s_[k]", p, a, b);
}

static void name_make(struct rng *r, enum pool pool, uint32_t i, char *out)
{
	uint32_t np = sizeof procs / sizeof procs[0], u;
	if (pool == POOL_PROC && i < np)
		strcpy(out, procs[i]);
	else if (pool == POOL_PROC)
		sprintf(out, "%s-%u", procs[i % np], i / np);
	else if (pool == POOL_LIB)
		name_lib(r, i, out);
	else if (pool == POOL_KERN)
		name_kern(r, out);
	else if ((u = rng_below(r, 100)) < 37)
		name_cpp(r, out);
	else if (u < 82)
		name_c(r, out);
	else if (u < 97)
		name_java(r, out);
	else
		name_odd(r, out);
}

/* Finds name s in the set; returns its slot (holding UINT32_MAX if absent). */
static uint32_t *names_slot(struct names *nm, const char *s, size_t n)
{
	uint32_t mask = nm->set_cap - 1;
	for (uint32_t i = (uint32_t)hash_str(s, n) & mask;; i = (i + 1) & mask) {
		uint32_t id = nm->set[i];
		if (id == UINT32_MAX)
			return &nm->set[i];
		if (nm->nlen[id] == n && !memcmp(nm->buf + nm->off[id], s, n))
			return &nm->set[i];
	}
}

/* Adds name s unless present; returns 1 if added. */
static int names_add(struct names *nm, const char *s)
{
	size_t n = strlen(s);
	uint32_t *slot = names_slot(nm, s, n);
	if (*slot != UINT32_MAX)
		return 0;
	if (nm->len + n > nm->cap) {
		nm->cap = (nm->cap + n) * 2;
		nm->buf = xrealloc(nm->buf, nm->cap);
	}
	memcpy(nm->buf + nm->len, s, n);
	nm->off[nm->n] = (uint32_t)nm->len;
	nm->nlen[nm->n] = (uint16_t)n;
	nm->len += n;
	*slot = nm->n++;
	return 1;
}

/* Builds `total` distinct names split into the four pools. */
static void names_build(struct names *nm, struct rng *r, uint32_t total)
{
	uint32_t want[NPOOL];
	want[POOL_PROC] = total < 2000 ? 6 : 40;
	want[POOL_LIB] = total / 50;
	want[POOL_KERN] = total * 35 / 100;
	want[POOL_USER] = total - want[POOL_PROC] - want[POOL_LIB] - want[POOL_KERN];
	nm->cap_n = total;
	nm->off = xrealloc(NULL, total * sizeof *nm->off);
	nm->nlen = xrealloc(NULL, total * sizeof *nm->nlen);
	for (nm->set_cap = 16; nm->set_cap < total * 2; nm->set_cap *= 2)
		;
	nm->set = xrealloc(NULL, nm->set_cap * sizeof *nm->set);
	memset(nm->set, 0xff, nm->set_cap * sizeof *nm->set);
	for (int p = 0; p < NPOOL; p++) {
		nm->start[p] = nm->n;
		for (uint32_t i = 0, tries = 0; i < want[p]; tries++) {
			char s[NAME_MAX_LEN];
			name_make(r, (enum pool)p, i, s);
			if (tries > 8)	/* word lists exhausted: force a unique suffix */
				sprintf(s + strlen(s), "_%u", nm->n);
			if (names_add(nm, s))
				i++, tries = 0;
		}
		nm->end[p] = nm->n;
	}
}

/* ---- the call tree ----------------------------------------------------- */

static uint64_t child_key(uint32_t parent, uint32_t name)
{
	return (uint64_t)parent << 32 | name;
}

/* Returns the slot for key (hval holds UINT32_MAX when absent). */
static uint32_t child_slot(const struct gen *g, uint64_t key)
{
	uint32_t mask = g->hcap - 1;
	for (uint32_t i = (uint32_t)mix64(key) & mask;; i = (i + 1) & mask)
		if (g->hkey[i] == key || g->hkey[i] == EMPTY)
			return i;
}

static void child_grow(struct gen *g)
{
	uint64_t *ok = g->hkey;
	uint32_t *ov = g->hval, ocap = g->hcap;
	g->hcap = ocap ? ocap * 2 : 1u << 16;
	g->hkey = xrealloc(NULL, (size_t)g->hcap * sizeof *g->hkey);
	g->hval = xrealloc(NULL, (size_t)g->hcap * sizeof *g->hval);
	memset(g->hkey, 0xff, (size_t)g->hcap * sizeof *g->hkey);
	for (uint32_t i = 0; i < ocap; i++) {
		if (ok[i] == EMPTY)
			continue;
		uint32_t s = child_slot(g, ok[i]);
		g->hkey[s] = ok[i];
		g->hval[s] = ov[i];
	}
	free(ok);
	free(ov);
}

static uint32_t child_find(const struct gen *g, uint32_t parent, uint32_t name)
{
	uint32_t s = child_slot(g, child_key(parent, name));
	return g->hkey[s] == EMPTY ? UINT32_MAX : g->hval[s];
}

static uint32_t node_add(struct gen *g, uint32_t parent, uint32_t name, uint32_t depth)
{
	if (g->n == g->cap) {
		g->cap = g->cap ? g->cap * 2 : 1u << 16;
		g->parent = xrealloc(g->parent, (size_t)g->cap * sizeof *g->parent);
		g->name = xrealloc(g->name, (size_t)g->cap * sizeof *g->name);
		g->depth = xrealloc(g->depth, (size_t)g->cap);
	}
	if ((g->hn + 1) * 2 > g->hcap)
		child_grow(g);
	uint32_t s = child_slot(g, child_key(parent, name));
	g->hkey[s] = child_key(parent, name);
	g->hval[s] = g->n;
	g->hn++;
	g->parent[g->n] = parent;
	g->name[g->n] = name;
	g->depth[g->n] = (uint8_t)depth;
	return g->n++;
}

/* Frame name at level d of a stack of depth D whose last `ktail` frames
 * are in the kernel: process name first, then application code with some
 * library frames, a library frame entering the kernel, kernel frames. */
static uint32_t name_pick(struct gen *g, uint32_t d, uint32_t D, uint32_t ktail,
			  uint32_t parent)
{
	enum pool pool = POOL_USER;
	double u = rng_unit(&g->r);
	if (d == 1)
		return g->nm.start[POOL_PROC] +
		       rng_below(&g->r, g->nm.end[POOL_PROC] - g->nm.start[POOL_PROC]);
	if (u < 0.03)
		return g->name[parent];	/* recursion */
	if (ktail && d > D - ktail)
		pool = POOL_KERN;
	else if ((ktail && d == D - ktail) || u > 0.92)
		pool = POOL_LIB;
	uint32_t size = g->nm.end[pool] - g->nm.start[pool];
	uint32_t i = (uint32_t)(size * pow(rng_unit(&g->r), g->p.skew));
	return g->nm.start[pool] + (i < size ? i : size - 1);
}

static uint32_t depth_pick(struct gen *g)
{
	uint32_t span = g->p.dmax - g->p.dmin + 1;
	if (!g->p.tri_depth)
		return g->p.dmin + rng_below(&g->r, span);
	return g->p.dmin + (rng_below(&g->r, span) + rng_below(&g->r, span)) / 2;
}

/* The ancestor at depth <= m of an earlier stack; prefers stacks at least
 * m deep so that fresh frames stay few (paths are shared, as in real
 * profiles). */
static uint32_t prefix_pick(struct gen *g, uint32_t m)
{
	uint32_t best = g->stacks[rng_below(&g->r, g->nst)];
	for (int t = 0; t < 16 && g->depth[best] < m; t++) {
		uint32_t c = g->stacks[rng_below(&g->r, g->nst)];
		if (g->depth[c] > g->depth[best])
			best = c;
	}
	while (g->depth[best] > m)
		best = g->parent[best];
	return best;
}

/* Extends node `at` down to depth D; the last frame is always a new node,
 * so the stack is distinct from every earlier one (invariant 2). */
static uint32_t chain_add(struct gen *g, uint32_t at, uint32_t D, uint32_t ktail)
{
	uint32_t d = at == ROOT ? 1 : g->depth[at] + 1;
	for (; d <= D; d++) {
		uint32_t tries = 0, name, hit;
		do {
			if (++tries > 1000) {
				fprintf(stderr, "gen-folded: cannot place a stack at depth %u\n", d);
				exit(1);
			}
			name = name_pick(g, d, D, ktail, at);
			hit = child_find(g, at, name);
		} while (hit != UINT32_MAX && (d == D || tries < 4));
		at = hit != UINT32_MAX ? hit : node_add(g, at, name, d);
	}
	return at;
}

static void tree_grow(struct gen *g, uint32_t nstacks)
{
	g->stacks = xrealloc(g->stacks, (size_t)(g->nst + nstacks) * sizeof *g->stacks);
	for (uint32_t i = 0; i < nstacks; i++) {
		uint32_t D = depth_pick(g), k = 1, ktail = 0;
		while (k < D && rng_below(&g->r, g->p.fresh) != 0)
			k++;
		if (rng_below(&g->r, 5) < 2)	/* 40% of stacks end in the kernel */
			ktail = 2 + rng_below(&g->r, D - 2 < 9 ? D - 2 : 9);
		uint32_t at = ROOT;
		if (g->nst >= g->p.nroot && rng_unit(&g->r) >= g->p.root_p)
			at = prefix_pick(g, D - (k < D ? k : D - 1));
		g->stacks[g->nst++] = chain_add(g, at, D, ktail);
	}
}

/* ---- output ------------------------------------------------------------- */

struct out {
	FILE *f;
	char buf[1 << 20];
	size_t len;
	uint64_t bytes, frames, samples;
	uint8_t *used;		/* name id -> seen in this file */
	uint32_t distinct;
};

static int out_flush(struct out *o)
{
	if (o->len && fwrite(o->buf, 1, o->len, o->f) != o->len)
		return -1;
	o->bytes += o->len;
	o->len = 0;
	return 0;
}

static int out_line(struct out *o, const struct gen *g, uint32_t node, uint32_t count)
{
	uint32_t path[MAX_DEPTH], n = 0;
	for (; node != ROOT; node = g->parent[node])
		path[n++] = node;
	if (o->len > sizeof o->buf - (size_t)MAX_DEPTH * (NAME_MAX_LEN + 1) - 32 && out_flush(o))
		return -1;
	o->frames += n;
	o->samples += count;
	while (n--) {
		uint32_t id = g->name[path[n]];
		memcpy(o->buf + o->len, g->nm.buf + g->nm.off[id], g->nm.nlen[id]);
		o->len += g->nm.nlen[id];
		o->buf[o->len++] = n ? ';' : ' ';
		o->distinct += !o->used[id];
		o->used[id] = 1;
	}
	o->len += (size_t)sprintf(o->buf + o->len, "%u\n", count);
	return 0;
}

static int write_folded(const struct gen *g, const char *path,
			const uint32_t *ids, const uint32_t *counts, uint32_t n)
{
	char tmp[4096];
	struct out *o = xrealloc(NULL, sizeof *o);
	memset(o, 0, sizeof *o);
	o->used = xrealloc(NULL, g->nm.n);
	memset(o->used, 0, g->nm.n);
	snprintf(tmp, sizeof tmp, "%s.tmp", path);
	o->f = fopen(tmp, "wb");
	int rc = o->f ? 0 : -1;
	for (uint32_t i = 0; rc == 0 && i < n; i++)
		rc = out_line(o, g, g->stacks[ids[i]], counts[ids[i]]);
	if (o->f && (rc || out_flush(o) || fclose(o->f)))
		rc = -1;
	if (rc == 0 && rename(tmp, path))
		rc = -1;
	if (rc)
		fprintf(stderr, "gen-folded: %s: %s\n", path, strerror(errno));
	else
		printf("%s: %u stacks, %.1f MB, %u distinct names, mean depth %.1f, %llu samples\n",
		       path, n, o->bytes / 1e6, o->distinct, (double)o->frames / n,
		       (unsigned long long)o->samples);
	free(o->used);
	free(o);
	return rc;
}

/* ---- modes -------------------------------------------------------------- */

static void shuffle(struct rng *r, uint32_t *a, uint32_t n)
{
	for (uint32_t i = n; i > 1; i--) {
		uint32_t j = rng_below(r, i), t = a[i - 1];
		a[i - 1] = a[j];
		a[j] = t;
	}
}

static uint32_t count_loguniform(struct rng *r, double max)
{
	return (uint32_t)exp(rng_unit(r) * log(max)) ;
}

/* Changes a count by a factor in [1/4, 4], never to the same value. */
static uint32_t count_perturb(struct rng *r, uint32_t c)
{
	uint32_t v = (uint32_t)lround(c * exp((rng_unit(r) * 2 - 1) * log(4.0)));
	if (v == 0)
		v = 1;
	return v == c ? c + 1 : v;
}

static void gen_init(struct gen *g, const struct params *p, uint64_t seed)
{
	memset(g, 0, sizeof *g);
	g->p = *p;
	g->r.s = seed;
	names_build(&g->nm, &g->r, p->nnames);
	child_grow(g);		/* child_find() needs a table before any node */
}

static int mode_flat(uint32_t n, uint64_t seed, const char *out, const char *pert)
{
	static struct gen g;
	struct params p = { n, 20000, 3, 48, 0, 12, 0.0001, 3, 1.2 };
	uint32_t extra = n / 50, *ids, *counts, m = 0;
	gen_init(&g, &p, seed);
	tree_grow(&g, n);
	uint32_t base_nodes = g.n;
	tree_grow(&g, extra);
	ids = xrealloc(NULL, (size_t)(n + extra) * sizeof *ids);
	counts = xrealloc(NULL, (size_t)(n + extra) * sizeof *counts);
	for (uint32_t i = 0; i < n + extra; i++)
		ids[i] = i, counts[i] = count_loguniform(&g.r, 1000.5);
	shuffle(&g.r, ids, n);
	printf("%s: %u unique call paths (%.1f per stack)\n", out, base_nodes, (double)base_nodes / n);
	if (write_folded(&g, out, ids, counts, n)) {
		free(ids);
		free(counts);
		return 1;
	}
	for (uint32_t i = 0; i < n + extra; i++) {
		if (i < n && rng_below(&g.r, 50) == 0)
			continue;			/* ~2% dropped */
		if (rng_below(&g.r, 10) == 0)
			counts[i] = count_perturb(&g.r, counts[i]);
		ids[m++] = i;
	}
	shuffle(&g.r, ids, m);
	int rc = write_folded(&g, pert, ids, counts, m) ? 1 : 0;
	free(ids);
	free(counts);
	return rc;
}

static int mode_tree(uint32_t n, uint64_t seed, const char *out)
{
	static struct gen g;
	struct params p = { n, 3000, 3, 40, 1, 4, 0.001, 2, 2.5 };
	uint32_t *ids, *counts, *rank;
	gen_init(&g, &p, seed);
	tree_grow(&g, n);
	ids = xrealloc(NULL, (size_t)n * sizeof *ids);
	counts = xrealloc(NULL, (size_t)n * sizeof *counts);
	rank = xrealloc(NULL, (size_t)n * sizeof *rank);
	for (uint32_t i = 0; i < n; i++)
		ids[i] = rank[i] = i;
	shuffle(&g.r, rank, n);		/* Zipf: a few hot stacks, a long tail */
	for (uint32_t i = 0; i < n; i++)
		counts[i] = (uint32_t)lround(fmax(1.0, 20000.0 / pow(rank[i] + 1.0, 1.3)));
	shuffle(&g.r, ids, n);
	printf("%s: %u unique call paths (%.1f per stack)\n", out, g.n, (double)g.n / n);
	int rc = write_folded(&g, out, ids, counts, n) ? 1 : 0;
	free(ids);
	free(counts);
	free(rank);
	return rc;
}

int main(int argc, char **argv)
{
	char *end;
	unsigned long n = argc > 3 ? strtoul(argv[2], &end, 10) : 0;
	unsigned long long seed = argc > 3 ? strtoull(argv[3], NULL, 0) : 0;
	if (n < 1 || n > 50000000) {
		fprintf(stderr, "usage: gen-folded flat N SEED OUT PERTURBED\n"
				"       gen-folded tree N SEED OUT\n");
		return 1;
	}
	if (!strcmp(argv[1], "flat") && argc == 6)
		return mode_flat((uint32_t)n, seed, argv[4], argv[5]);
	if (!strcmp(argv[1], "tree") && argc == 5)
		return mode_tree((uint32_t)n, seed, argv[4]);
	fprintf(stderr, "gen-folded: bad arguments\n");
	return 1;
}
