/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * fold/out/write-folded.c — the folded-text writer.
 *
 * Walks the finished trie in flamegraph.pl's sibling order, so the lines
 * come out exactly as `sort` would order them: one line per distinct
 * stack, "a;b;c COUNT" (or "a;b;c BEFORE AFTER" for a differential).
 * Counts are printed as the shortest decimal that reads back to the
 * same double, never with an exponent (flamegraph.pl's \d+(\.\d*)?).
 *
 * What is written reads back as the same trie (`fold | fold` is the
 * identity), for any name bytes:
 *  1. names go through fold_name_escape ('\n' and ';' as "\xHH");
 *  2. the separator ';' is written between any two frames, so an empty
 *     first frame survives (";x 2", not "x 2");
 *  3. a stack whose last name ends in whitespace + [0-9.]+ ("x 5") is
 *     ended with ';' ("a;x 5; 3"): the empty frame is dropped on reading,
 *     and the name cannot be taken for a first count column;
 *  4. what cannot be written that way is refused, never changed: a
 *     stack ending in an empty name (-EDOM: readers drop trailing empty
 *     frames) and a count longer than FOLD_MAX_COUNT_CHARS (-ERANGE).
 *
 * Speed (the text is as big as the input: 429 MB for 1M stacks of depth
 * 25).  Lines are built in blocks of FW_BLOCK bytes and each block goes
 * out in one fwrite: the kernel copies big writes into big page-cache
 * folios (4 KiB stdio writes cost it ~3x more).  A line copies the
 * prefix it shares with the previous line from that line and writes
 * only the names pushed since, so each byte is copied once.  A big
 * pre-order trie (the sorted reader's) is walked by ids (see walk_ids)
 * and written by two threads: the walk is cut into tasks (runs of one
 * node's entries, ~FW_TASKS of them, sized by subtree node counts,
 * which pre-order gives for free), each thread formats the next
 * unclaimed task, and blocks are written strictly in task order by
 * whichever thread finds the next one ready.  Trade-off: a thread that
 * runs ahead keeps up to FW_AHEAD blocks (512 KiB) waiting for the
 * other's task, then sleeps; more would raise the peak memory of the
 * biggest profiles, whose peak is while this runs.
 *
 * Invariants:
 *  5. The bytes are the same whatever the thread count, task cuts or
 *     block size: tasks are contiguous runs of the walk, in walk order,
 *     and blocks are written in (task, block) order.
 *  6. An error is the first one in walk order among the tasks formatted
 *     (a task after a failed one is not started); blocks of tasks after
 *     it are never written.  Write errors are -EIO, as before.
 *  7. No per-node memory: per name one flag byte, per thread a path,
 *     a stack of maxdepth frames and at most FW_AHEAD + 1 blocks.
 */
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "fold/out/out.h"
#include "util/fmt.h"
#include "util/thread.h"
#include "util/vec.h"

#define FW_BLOCK (64u << 10)    /* bytes of text per block (and per write) */
#define FW_AHEAD 8u             /* blocks a thread may keep waiting for their turn */
#define FW_SPLIT_MIN 65536u     /* pre-order tries of this many nodes: two threads */
#define FW_TASKS 2048u          /* about this many tasks for two threads */
#define FW_MIN_TASK 1024u       /* ... of at least this many nodes each */
#define FW_MAX_TASKS (8u * FW_TASKS) /* more: the trie is not what pre-order promised */
#define FW_CUT_DEPTH 512u       /* tasks are cut no deeper than this */
#define FW_AHEAD_ENT 32u        /* counts prefetched this many entries ahead */
#define FW_SLACK 64u            /* bytes past a block's or path's end that a copy
				   of a short name may overwrite (never output) */

/* What a name needs on output, decided once per name id (a name is
 * written once per line it ends and once per node it names); read and
 * set with relaxed atomics: both threads compute the same byte. */
enum {
	NAME_KNOWN = 1,
	NAME_ESCAPE = 2,    /* fold_name_needs_escape (rule 1) */
	NAME_AMBIGUOUS = 4, /* fold_name_leaf_ambiguous (rule 3) */
};

/* A run of the walk: node's entries [e0, e1), the node's path first. */
struct fw_task {
	uint32_t node, e0, e1;
	uint8_t owner;      /* index of the thread that claimed it */
	uint8_t done;       /* formatted (all its blocks queued) */
};

struct fw_block {
	struct fw_block *next;
	uint32_t task;
	size_t len;
	char text[];        /* FW_BLOCK bytes */
};

struct walk {
	uint32_t node;
	uint32_t next, end; /* entry indices still to visit */
	uint32_t nlen;      /* node's name, as stored (escaped on output when esc) */
	const char *nm;
	size_t path_len;    /* path bytes down to and including this name, escaped */
	int esc;
};

struct fw;

struct fw_thread {
	struct fw *fw;
	struct walk *st;        /* maxdepth + 2 frames */
	const char *pre;        /* the path of frames st[0..mat], from the last line */
	uint32_t mat;           /* ... in the current block, or in `path` */
	char *path, *tmp;       /* a path kept across blocks; an escaped name */
	size_t pcap, tcap;
	struct fw_block *cur;   /* being filled for task `task` */
	uint32_t task;
	/* guarded by fw->mu: */
	struct fw_block *free;  /* written blocks, for reuse */
	struct fw_block *qhead, *qtail; /* filled, waiting for their turn */
	uint32_t queued;
} __attribute__((aligned(128))); /* the two threads' fields on lines of their own */

struct fw {
	const fold_trie *t;
	FILE *out;
	uint8_t *flags;         /* NAME_* by name id */
	const char *nm_end;     /* a name starting at or before this has 32 bytes
				   readable (in nbuf's allocation) */
	struct fw_task *task;
	uint32_t ntask;
	size_t tcap;
	pthread_mutex_t mu;
	pthread_cond_t cv;
	uint32_t next;          /* next task to claim */
	uint32_t wtask;         /* task whose blocks are written now */
	int writing;            /* a thread is in fwrite */
	uint32_t err_task;      /* earliest failed task (ntask: none) */
	int err;
	struct fw_thread th[2];
};

static int fw_init(struct fw *fw, const fold_trie *t, FILE *out);
static void fw_release(struct fw *fw);
static int plan(struct fw *fw);
static void *work(void *arg);
static void drain(struct fw *fw);
static int run_task(struct fw_thread *th, const struct fw_task *k, int with_root);
static int line(struct fw_thread *th, uint32_t top, uint32_t c);
static int root_line(struct fw_thread *th);

int fold_write_folded(const fold_trie *t, FILE *out)
{
	if (!t->finished)
		return -EINVAL;
	struct fw fw;
	int rc = fw_init(&fw, t, out), nth = 1;
	if (rc == 0 && t->preorder && t->nnodes >= FW_SPLIT_MIN && plan(&fw) == 0 && fw.ntask > 1)
		nth = 2;
	struct uf_thread tid;
	if (rc == 0 && nth == 2 && uf_thread_start_part(&tid, work, &fw.th[1]) != 0)
		nth = 1; /* the same bytes, on one thread */
	if (rc == 0) {
		work(&fw.th[0]);
		if (nth == 2)
			uf_thread_join(&tid);
		pthread_mutex_lock(&fw.mu);
		drain(&fw);
		pthread_mutex_unlock(&fw.mu);
		rc = fw.err;
	}
	if (rc == 0 && ferror(out))
		rc = -EIO;
	fw_release(&fw);
	return rc;
}

int fold_write_stack_line(const fold_trie *t, FILE *out, const uint32_t *path, uint32_t n,
			  const double *before, double after)
{
	char num[FOLD_MAX_COUNT_CHARS + 1], base[FOLD_MAX_COUNT_CHARS + 1];
	if (fold_format_count(num, sizeof num, after) < 0 ||
	    (before && fold_format_count(base, sizeof base, *before) < 0))
		return -ERANGE;
	for (uint32_t d = 0; d < n; d++) {
		size_t len;
		const char *nm = fold_node_name(t, path[d], &len);
		if (d + 1 == n && len == 0)
			return -EDOM;
		if (d)
			fputc(';', out);
		if (fold_name_needs_escape(nm, len)) {
			char *e = malloc(4 * len);
			if (!e)
				return -ENOMEM;
			fwrite(e, 1, fold_name_escape(e, nm, len), out);
			free(e);
		} else {
			fwrite(nm, 1, len, out);
		}
		if (d + 1 == n && fold_name_leaf_ambiguous(nm, len))
			fputc(';', out);
	}
	if (before) {
		fputc(' ', out);
		fputs(base, out);
	}
	fputc(' ', out);
	fputs(num, out);
	return fputc('\n', out) == EOF ? -EIO : 0;
}

/* ---- setup ----------------------------------------------------------- */

static int thread_init(struct fw_thread *th, struct fw *fw)
{
	memset(th, 0, sizeof *th);
	th->fw = fw;
	th->st = malloc(((size_t)fw->t->maxdepth + 2) * sizeof *th->st);
	return th->st && uf_vec_grow(&th->path, &th->pcap, 4096 + FW_SLACK, 1) == 0 ? 0 : -ENOMEM;
}

/* One task, the whole walk, until plan() cuts it. */
static int fw_init(struct fw *fw, const fold_trie *t, FILE *out)
{
	memset(fw, 0, sizeof *fw);
	fw->t = t;
	fw->out = out;
	pthread_mutex_init(&fw->mu, NULL);
	pthread_cond_init(&fw->cv, NULL);
	fw->flags = calloc(t->nnames ? t->nnames : 1, 1);
	fw->nm_end = t->nbuf_cap >= 32 ? t->nbuf + t->nbuf_cap - 32 : NULL;
	fw->tcap = 1;
	fw->task = malloc(sizeof *fw->task);
	int rc = fw->flags && fw->task ? 0 : -ENOMEM;
	for (int i = 0; i < 2 && rc == 0; i++)
		rc = thread_init(&fw->th[i], fw);
	if (rc)
		return rc;
	fw->task[0] = (struct fw_task){ FOLD_ROOT, t->eoff[0], t->eoff[1], 0, 0 };
	fw->ntask = fw->err_task = 1;
	return 0;
}

static void free_blocks(struct fw_block *b)
{
	while (b) {
		struct fw_block *n = b->next;
		free(b);
		b = n;
	}
}

static void fw_release(struct fw *fw)
{
	for (int i = 0; i < 2; i++) {
		struct fw_thread *th = &fw->th[i];
		free(th->st);
		free(th->path);
		free(th->tmp);
		free(th->cur);
		free_blocks(th->free);
		free_blocks(th->qhead);
	}
	free(fw->task);
	free(fw->flags);
	pthread_cond_destroy(&fw->cv);
	pthread_mutex_destroy(&fw->mu);
}

/* ---- cutting the walk into tasks (pre-order tries) ------------------- */

static int add_task(struct fw *fw, uint32_t node, uint32_t e0, uint32_t e1)
{
	if (e0 == e1)
		return 0;
	if (fw->ntask >= FW_MAX_TASKS) /* sizes that are not pre-order's: one task */
		return -E2BIG;
	if (uf_vec_grow(&fw->task, &fw->tcap, (size_t)fw->ntask + 1, sizeof *fw->task))
		return -ENOMEM;
	fw->task[fw->ntask++] = (struct fw_task){ node, e0, e1, 0, 0 };
	return 0;
}

/* The next subtree entry of `node` at or after entry e (e1: none). */
static uint32_t next_subtree(const fold_trie *t, uint32_t e, uint32_t e1)
{
	while (e < e1 && (t->ent[e] & FOLD_ENTRY_SELF))
		e++;
	return e;
}

/* Whether node's subtree entries come in increasing id order, so that
 * in pre-order a child's subtree ends where the next one starts. */
static int ids_increase(const fold_trie *t, uint32_t e0, uint32_t e1)
{
	uint32_t last = 0;
	for (uint32_t e = e0; e < e1; e++) {
		uint32_t x = t->ent[e];
		if (!(x & FOLD_ENTRY_SELF) && x <= last)
			return 0;
		if (!(x & FOLD_ENTRY_SELF))
			last = x;
	}
	return 1;
}

/* Cuts node's entries into tasks of about `size` nodes, in walk order: a
 * child whose subtree is bigger is cut inside itself.  `end` is one past
 * node's subtree's last id.  Entries in an unexpected order are one task. */
static int cut(struct fw *fw, uint32_t node, uint32_t end, uint32_t size, uint32_t depth)
{
	const fold_trie *t = fw->t;
	uint32_t e0 = t->eoff[node], e1 = t->eoff[node + 1], start = e0, acc = 0;
	if (depth > FW_CUT_DEPTH || !ids_increase(t, e0, e1))
		return add_task(fw, node, e0, e1);
	for (uint32_t e = e0; e < e1; e++) {
		uint32_t x = t->ent[e], c = x & ~FOLD_ENTRY_SELF;
		uint32_t n = 1; /* an own line */
		if (!(x & FOLD_ENTRY_SELF)) {
			uint32_t nx = next_subtree(t, e + 1, e1);
			uint32_t cend = nx < e1 ? t->ent[nx] : end;
			n = cend - c;
			if (n > size) {
				int rc = add_task(fw, node, start, e);
				if (rc || (rc = cut(fw, c, cend, size, depth + 1)))
					return rc;
				start = e + 1, acc = 0;
				continue;
			}
		}
		if ((acc += n) >= size) {
			int rc = add_task(fw, node, start, e + 1);
			if (rc)
				return rc;
			start = e + 1, acc = 0;
		}
	}
	return add_task(fw, node, start, e1);
}

/* Replaces the one task by about FW_TASKS; on failure (no memory, or
 * more than FW_MAX_TASKS) keeps the one. */
static int plan(struct fw *fw)
{
	uint32_t size = fw->t->nnodes / FW_TASKS;
	fw->ntask = 0;
	int rc = cut(fw, FOLD_ROOT, fw->t->nnodes, size > FW_MIN_TASK ? size : FW_MIN_TASK, 0);
	if (rc || fw->ntask == 0) {
		fw->task[0] = (struct fw_task){ FOLD_ROOT, fw->t->eoff[0], fw->t->eoff[1], 0, 0 };
		fw->ntask = 1;
	}
	fw->err_task = fw->ntask;
	return rc;
}

/* ---- threads, blocks and the order of writes ------------------------- */

/* Records task k's error; the earliest task's wins (fw->mu held). */
static void fail(struct fw *fw, uint32_t k, int rc)
{
	if (k < fw->err_task) {
		fw->err_task = k;
		fw->err = rc;
	}
	pthread_cond_broadcast(&fw->cv);
}

/* Writes every block whose turn has come (fw->mu held; one writer at a
 * time, the others leave it the blocks they queue). */
static void drain(struct fw *fw)
{
	while (!fw->writing && fw->wtask < fw->ntask && fw->wtask < fw->err_task &&
	       fw->wtask < fw->next) {
		struct fw_task *k = &fw->task[fw->wtask];
		struct fw_thread *th = &fw->th[k->owner];
		struct fw_block *b = th->qhead;
		if (b && b->task == fw->wtask) {
			if (!(th->qhead = b->next))
				th->qtail = NULL;
			fw->writing = 1;
			pthread_mutex_unlock(&fw->mu);
			size_t n = fwrite(b->text, 1, b->len, fw->out);
			pthread_mutex_lock(&fw->mu);
			fw->writing = 0;
			b->next = th->free;
			th->free = b;
			th->queued--;
			if (n != b->len)
				fail(fw, fw->wtask, -EIO);
			pthread_cond_broadcast(&fw->cv);
		} else if (k->done) {
			fw->wtask++;
		} else {
			break;
		}
	}
}

/* Queues th->cur (fw->mu held). */
static void enqueue(struct fw_thread *th)
{
	struct fw_block *b = th->cur;
	th->cur = NULL;
	b->task = th->task;
	b->next = NULL;
	if (th->qtail)
		th->qtail->next = b;
	else
		th->qhead = b;
	th->qtail = b;
	th->queued++;
}

/* A fresh th->cur (fw->mu held): waits while FW_AHEAD blocks of this
 * thread wait for the other's task.  -ECANCELED when this task's output
 * will not be written (a failed write, an earlier task failed), -ENOMEM. */
static int take_block(struct fw *fw, struct fw_thread *th)
{
	while (th->queued >= FW_AHEAD && th->task < fw->err_task)
		pthread_cond_wait(&fw->cv, &fw->mu);
	if (th->task >= fw->err_task) /* an earlier task failed, or this one's write */
		return -ECANCELED;
	struct fw_block *b = th->free;
	if (b)
		th->free = b->next;
	else if (!(b = malloc(sizeof *b + FW_BLOCK + FW_SLACK)))
		return -ENOMEM;
	b->len = 0;
	th->cur = b;
	return 0;
}

/* Hands the full block over and gets an empty one; -ECANCELED, -ENOMEM. */
static int submit(struct fw_thread *th)
{
	struct fw *fw = th->fw;
	pthread_mutex_lock(&fw->mu);
	enqueue(th);
	drain(fw);
	int rc = take_block(fw, th);
	pthread_mutex_unlock(&fw->mu);
	return rc;
}

/* A thread: claims tasks in order until none is left. */
static void *work(void *arg)
{
	struct fw_thread *th = arg;
	struct fw *fw = th->fw;
	pthread_mutex_lock(&fw->mu);
	while (fw->next < fw->ntask && fw->next < fw->err_task) {
		uint32_t k = th->task = fw->next++;
		fw->task[k].owner = (uint8_t)(th - fw->th);
		int rc = th->cur ? 0 : take_block(fw, th);
		pthread_mutex_unlock(&fw->mu);
		if (rc == 0)
			rc = run_task(th, &fw->task[k], k == 0);
		pthread_mutex_lock(&fw->mu);
		if (rc == 0 && th->cur->len) /* an empty block stays for the next task */
			enqueue(th);
		if (rc && rc != -ECANCELED)
			fail(fw, k, rc);
		fw->task[k].done = 1;
		drain(fw);
	}
	pthread_mutex_unlock(&fw->mu);
	return NULL;
}

/* ---- formatting ------------------------------------------------------ */

/* How a line is made.  The walk's frames know their name and the byte
 * length of their path, but a name is written only once a line needs
 * it: the line copies the prefix it shares with the previous line (from
 * that line, in the same block: th->pre, frames st[0..mat]), then the
 * names of the frames pushed since.  When stacks share little (most
 * names are new on each line) every byte is copied once, not written
 * to a path and then copied again. */

static uint8_t __attribute__((noinline)) learn_flags(uint8_t *flags, uint32_t id, const char *nm,
						    size_t len)
{
	uint8_t f = NAME_KNOWN | (fold_name_needs_escape(nm, len) ? NAME_ESCAPE : 0) |
		    (fold_name_leaf_ambiguous(nm, len) ? NAME_AMBIGUOUS : 0);
	__atomic_store_n(&flags[id], f, __ATOMIC_RELAXED);
	return f;
}

static inline uint8_t name_flags(uint8_t *flags, uint32_t id, const char *nm, size_t len)
{
	uint8_t f = __atomic_load_n(&flags[id], __ATOMIC_RELAXED);
	return f & NAME_KNOWN ? f : learn_flags(flags, id, nm, len);
}

/* Copies a name to o (escaped when esc); returns the end.  A short
 * name is copied as 32 bytes (one vector move, no call): o has
 * FW_SLACK bytes of room past the line, and nm 32 readable bytes. */
static inline char *copy_name(const struct fw *fw, char *o, const char *nm, size_t nlen, int esc)
{
	if (esc)
		return o + fold_name_escape(o, nm, nlen);
	if (nlen <= 32 && nm <= fw->nm_end)
		memcpy(o, nm, 32);
	else
		memcpy(o, nm, nlen);
	return o + nlen;
}

/* Writes the names of frames st[from..top] (each after ';' unless its
 * parent is the root: rule 2) to o; returns the end. */
static char *names_to(const struct fw_thread *th, char *o, uint32_t from, uint32_t top)
{
	for (uint32_t l = from; l <= top; l++) {
		const struct walk *w = &th->st[l];
		*o = ';';
		o += th->st[l - 1].node != FOLD_ROOT;
		o = copy_name(th->fw, o, w->nm, w->nlen, w->esc);
	}
	return o;
}

/* Makes room for n bytes (and the slack) in th->path, keeping th->pre. */
static int path_room(struct fw_thread *th, size_t n)
{
	int here = th->pre == th->path;
	if (uf_vec_grow(&th->path, &th->pcap, n + FW_SLACK, 1))
		return -ENOMEM;
	if (here)
		th->pre = th->path;
	return 0;
}

/* The byte length of a name once escaped (rule 1). */
static int escaped_len(struct fw_thread *th, const char *nm, size_t nlen, size_t *elen)
{
	if (uf_vec_grow(&th->tmp, &th->tcap, 4 * nlen + 1, 1))
		return -ENOMEM;
	*elen = fold_name_escape(th->tmp, nm, nlen);
	return 0;
}

/* Fills frame st[l] for node c, a child of st[l - 1]'s node. */
static inline int push(struct fw_thread *th, uint32_t l, uint32_t c)
{
	const fold_trie *t = th->fw->t;
	const struct walk *p = &th->st[l - 1];
	uint32_t id = t->name[c];
	size_t nlen, elen;
	const char *nm = fold_trie_name(t, id, &nlen);
	int esc = name_flags(th->fw->flags, id, nm, nlen) & NAME_ESCAPE;
	if (!esc)
		elen = nlen;
	else if (escaped_len(th, nm, nlen, &elen))
		return -ENOMEM;
	th->st[l] = (struct walk){ c, t->eoff[c], t->eoff[c + 1], (uint32_t)nlen, nm,
				   p->path_len + (p->node != FOLD_ROOT) + elen, esc };
	return 0;
}

/* th->path = node's path (its ancestors' names and its own), the
 * walk's first frame; th->st holds the ancestors meanwhile. */
static int path_of(struct fw_thread *th, const struct fw_task *k)
{
	const fold_trie *t = th->fw->t;
	uint32_t d = 0;
	for (uint32_t n = k->node; n != FOLD_ROOT; n = t->parent[n])
		th->st[d++].node = n;
	size_t plen = 0;
	th->pre = NULL;
	for (; d > 0; d--) {
		uint32_t n = th->st[d - 1].node;
		size_t nlen;
		const char *nm = fold_node_name(t, n, &nlen);
		if (path_room(th, plen + 4 * (size_t)nlen + 1))
			return -ENOMEM;
		if (t->parent[n] != FOLD_ROOT)
			th->path[plen++] = ';';
		int esc = name_flags(th->fw->flags, t->name[n], nm, nlen) & NAME_ESCAPE;
		plen = (size_t)(copy_name(th->fw, th->path + plen, nm, nlen, esc) - th->path);
	}
	th->st[0] = (struct walk){ .node = k->node, .next = k->e0, .end = k->e1, .path_len = plen };
	th->pre = th->path;
	th->mat = 0;
	return 0;
}


/* Pops the top frame (the path kept from the last line shrinks with it). */
static inline void pop(struct fw_thread *th, uint32_t *sp)
{
	if (--*sp && th->mat >= *sp)
		th->mat = *sp - 1;
}

/* Writes the own lines at the top frame's cursor, up to its next subtree
 * entry or its end; returns 0 or the error. */
static inline int own_lines(struct fw_thread *th, struct walk *w)
{
	const fold_trie *t = th->fw->t;
	uint32_t nent = t->eoff[t->nnodes];
	for (int rc; w->next < w->end && (t->ent[w->next] & FOLD_ENTRY_SELF); w->next++) {
		/* the count of a line a few entries on: a cache miss otherwise */
		if (w->next + FW_AHEAD_ENT < nent)
			__builtin_prefetch(&t->self[t->ent[w->next + FW_AHEAD_ENT] & ~FOLD_ENTRY_SELF]);
		if ((rc = line(th, (uint32_t)(w - th->st), t->ent[w->next] & ~FOLD_ENTRY_SELF)))
			return rc;
	}
	return 0;
}

/* Prefetches for node i + 64 and nearer: its parent, name and entries
 * (the streams walk_ids reads) and its name's bytes. */
static inline void ids_ahead(const fold_trie *t, uint32_t i)
{
	__builtin_prefetch(&t->eoff[i + 64]);
	__builtin_prefetch(&t->parent[i + 64]);
	__builtin_prefetch(&t->name[i + 64]);
	__builtin_prefetch(&t->ent[t->eoff[i + 32]]);
	__builtin_prefetch(&t->noff[t->name[i + 32]]);
	__builtin_prefetch(&t->nlen[t->name[i + 32]]);
	__builtin_prefetch(t->nbuf + t->noff[t->name[i + 16]]);
}

/* The walk by ids, for a pre-order trie: there the nodes with children
 * are met in id order (each parent's subtree entries are in id order),
 * so the next one to push is known before the entries are read, and the
 * walk is not a chain of dependent loads (entry -> child -> its entries).
 * It does exactly what walk() would at each step; where the next subtree
 * entry is not the node expected (another order, or the task's end), it
 * stops and walk() carries on from the same frames. */
static int walk_ids(struct fw_thread *th, const struct fw_task *k, uint32_t *sp)
{
	const fold_trie *t = th->fw->t;
	uint32_t e = k->e0;
	while (e < k->e1 && (t->ent[e] & FOLD_ENTRY_SELF))
		e++;
	for (uint32_t i = e < k->e1 ? t->ent[e] : t->nnodes; i < t->nnodes; i++) {
		if (i + 64 < t->nnodes)
			ids_ahead(t, i);
		if (t->eoff[i] == t->eoff[i + 1])
			continue; /* no children: its parent's own-line entry writes it */
		uint32_t p = t->parent[i];
		struct walk *w;
		for (;;) {
			int rc = own_lines(th, w = &th->st[*sp - 1]);
			if (rc)
				return rc;
			if (w->node == p)
				break;
			if (w->next < w->end || *sp == 1)
				return 0; /* not the order expected, or i is past the task */
			pop(th, sp);
		}
		if (w->next == w->end || t->ent[w->next] != i)
			return 0;
		w->next++;
		int rc = push(th, (*sp)++, i);
		if (rc)
			return rc;
	}
	return 0;
}

/* The walk by entries, from the frames st[0..sp) to the end. */
static int walk(struct fw_thread *th, uint32_t sp)
{
	const fold_trie *t = th->fw->t;
	while (sp) {
		struct walk *w = &th->st[sp - 1];
		int rc = own_lines(th, w);
		if (rc)
			return rc;
		if (w->next == w->end) {
			pop(th, &sp);
			continue;
		}
		uint32_t c = t->ent[w->next++];
		if ((rc = push(th, sp++, c)))
			return rc;
	}
	return 0;
}

/* The lines of task k (and before them the root's own line, an empty
 * stack, when with_root). */
static int run_task(struct fw_thread *th, const struct fw_task *k, int with_root)
{
	const fold_trie *t = th->fw->t;
	int rc = 0;
	uint32_t sp = 1;
	th->pre = NULL;
	if (with_root && (t->self[0] != 0 || (t->base && t->base[0] != 0)) && (rc = root_line(th)))
		return rc;
	if ((rc = path_of(th, k)) || (t->preorder && (rc = walk_ids(th, k, &sp))))
		return rc;
	return walk(th, sp);
}

/* Appends n bytes, across blocks. */
static int put(struct fw_thread *th, const char *p, size_t n)
{
	while (n) {
		size_t room = FW_BLOCK - th->cur->len, m = n < room ? n : room;
		memcpy(th->cur->text + th->cur->len, p, m);
		th->cur->len += m, p += m, n -= m;
		int rc = th->cur->len == FW_BLOCK ? submit(th) : 0;
		if (rc)
			return rc;
	}
	return 0;
}

/* The counts after a line's last name: " [BEFORE ]AFTER\n" into tail
 * (2 * FOLD_MAX_COUNT_CHARS + 4 bytes), after ';' when amb (rule 3).
 * Returns the length, or -ERANGE (rule 4). */
static int counts(const fold_trie *t, uint32_t node, int amb, char *tail)
{
	char num[FOLD_MAX_COUNT_CHARS + 1], base[FOLD_MAX_COUNT_CHARS + 1];
	int n = fold_format_count(num, sizeof num, t->self[node]), b = 0;
	if (n < 0 || (t->base && (b = fold_format_count(base, sizeof base, t->base[node])) < 0))
		return -ERANGE;
	int tl = 0;
	if (amb)
		tail[tl++] = ';';
	if (t->base) {
		tail[tl++] = ' ';
		memcpy(tail + tl, base, (size_t)b), tl += b;
	}
	tail[tl++] = ' ';
	memcpy(tail + tl, num, (size_t)n), tl += n;
	tail[tl++] = '\n';
	return tl;
}

/* The root's own samples: the empty stack's line. */
static int root_line(struct fw_thread *th)
{
	char tail[2 * FOLD_MAX_COUNT_CHARS + 4];
	int tl = counts(th->fw->t, FOLD_ROOT, 0, tail);
	return tl < 0 ? tl : put(th, tail, (size_t)tl);
}

/* A line that does not fit in the block's room, piece by piece: its
 * path made whole in th->path first (the prefix may leave with the
 * block). */
static int line_slow(struct fw_thread *th, uint32_t top, const char *nm, size_t nlen, int esc,
		     const char *tail, size_t tl)
{
	size_t mlen = th->st[th->mat].path_len, plen = th->st[top].path_len;
	if (path_room(th, plen))
		return -ENOMEM;
	if (th->pre != th->path)
		memcpy(th->path, th->pre, mlen);
	names_to(th, th->path + mlen, th->mat + 1, top);
	th->pre = th->path;
	th->mat = top;
	int rc = put(th, th->path, plen);
	if (rc == 0 && th->st[top].node != FOLD_ROOT)
		rc = put(th, ";", 1);
	if (rc == 0 && esc) {
		size_t elen;
		rc = escaped_len(th, nm, nlen, &elen);
		if (rc == 0)
			rc = put(th, th->tmp, elen);
	} else if (rc == 0) {
		rc = put(th, nm, nlen);
	}
	return rc ? rc : put(th, tail, tl);
}

/* The line of child c's own samples; c's parent is frame st[top]. */
static int line(struct fw_thread *th, uint32_t top, uint32_t c)
{
	const fold_trie *t = th->fw->t;
	uint32_t id = t->name[c];
	size_t nlen;
	const char *nm = fold_trie_name(t, id, &nlen);
	uint8_t f = nlen ? name_flags(th->fw->flags, id, nm, nlen) : 0;
	char tail[2 * FOLD_MAX_COUNT_CHARS + 4];
	int tl = counts(t, c, f & NAME_AMBIGUOUS, tail);
	if (tl < 0)
		return tl;
	if (nlen == 0)
		return -EDOM; /* rule 4: a trailing empty frame would be dropped */
	int sep = th->st[top].node != FOLD_ROOT, esc = f & NAME_ESCAPE;
	size_t need = th->st[top].path_len + (size_t)sep + (esc ? 4 * nlen : nlen) + (size_t)tl;
	struct fw_block *b = th->cur;
	if (need > FW_BLOCK - b->len)
		return line_slow(th, top, nm, nlen, esc, tail, (size_t)tl);
	char *start = b->text + b->len, *o = start;
	size_t mlen = th->st[th->mat].path_len;
	memcpy(o, th->pre, mlen);
	o = names_to(th, o + mlen, th->mat + 1, top);
	th->pre = start;
	th->mat = top;
	*o = ';';
	o = copy_name(th->fw, o + sep, nm, nlen, esc);
	memcpy(o, tail, (size_t)tl);
	b->len = (size_t)(o + tl - b->text);
	return 0;
}
