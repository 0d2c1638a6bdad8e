/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * symtab/symtab.c — the sorted symbol table: building (aliases, sizes),
 * binary-searched lookup, load bias, and the `nm -n` text reader.
 *
 * Trade-off: all work happens once in symtab_build_finish(); lookups are
 * a branch-light binary search over one array of start addresses, with
 * the ends, names and lengths in parallel arrays touched only on a hit.
 * Tables over BUCKET_MIN symbols also get a bucket index (4 bytes per 4
 * symbols) that narrows the search to a few entries first: a 1M-symbol
 * start array does not fit in cache, and a plain binary search there
 * costs ~20 cache misses per lookup.
 *
 * Invariants (see symtab.h for the public ones):
 *  1. After finish, start[] is strictly increasing and
 *     start[i] < end[i] <= start[i + 1].
 *  2. The builder's candidate array is freed by finish; a finished
 *     table never grows again.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "symtab/internal.h"
#include "util/safe-open.h"
#include "util/vec.h"

#define BUCKET_MIN 4096u

static int cand_cmp(const void *a, const void *b);
static int build_buckets(struct symtab *st);
static uint64_t cand_end(const struct symtab_cand *c, uint64_t next_start);
static int pack(struct symtab *st);
static struct symtab *nm_read(FILE *f, const char *label, struct uf_err *err);
static FILE *open_input(const char *path, struct uf_err *err);
static int nm_parse_line(struct symtab *st, char *line, size_t len);
static int nm_hex(const char *s, size_t n, uint64_t *out);

/* ---- building ---------------------------------------------------------- */

struct symtab *symtab_build_new(void)
{
	struct symtab *st = calloc(1, sizeof *st);
	if (st)
		uf_arena_init(&st->arena);
	return st;
}

int symtab_build_add(struct symtab *st, uint64_t start, uint64_t size, uint64_t limit,
		     const char *name, size_t len, int bind, int kind)
{
	if (st->ncand >= (size_t)SYMTAB_MAX_SYMS * 2)
		return -E2BIG;
	if (uf_vec_grow(&st->cand, &st->cand_cap, st->ncand + 1, sizeof *st->cand))
		return -ENOMEM;
	if (len > SYMTAB_MAX_NAME)
		len = SYMTAB_MAX_NAME;
	const char *copy = "";
	if (kind != SYMK_END && !(copy = uf_arena_strndup(&st->arena, name, len)))
		return -ENOMEM;
	struct symtab_cand *c = &st->cand[st->ncand++];
	c->start = start;
	c->size = size;
	c->limit = limit;
	c->name = copy;
	c->len = kind == SYMK_END ? 0 : (uint32_t)len;
	c->bind = (uint8_t)bind;
	c->kind = (uint8_t)kind;
	return 0;
}

int symtab_build_finish(struct symtab *st)
{
	if (st->ncand)
		qsort(st->cand, st->ncand, sizeof *st->cand, cand_cmp);
	int rc = pack(st);
	if (rc == 0 && st->n >= BUCKET_MIN)
		rc = build_buckets(st);
	free(st->cand);
	st->cand = NULL;
	st->ncand = st->cand_cap = 0;
	return rc;
}

void symtab_free(struct symtab *st)
{
	if (!st)
		return;
	free(st->start);
	free(st->end);
	free(st->name);
	free(st->len);
	free(st->bidx);
	free(st->segs);
	free(st->cand);
	uf_arena_release(&st->arena);
	free(st);
}

/* ---- lookup ------------------------------------------------------------ */

const char *symtab_lookup(const struct symtab *st, uint64_t addr, uint64_t *offset_out,
			  size_t *len_out)
{
	/* lo = number of starts <= addr, found without early exits so the
	 * loop has a fixed trip count for a given n */
	size_t lo = 0, n = st->n;
	const uint64_t *s = st->start;
	if (st->bidx) {
		if (addr < st->blo)
			return NULL;
		uint64_t b = (addr - st->blo) >> st->bshift;
		if (b < st->nb) {
			lo = st->bidx[b];
			n = st->bidx[b + 1] - lo;
		} else {
			lo = st->bidx[st->nb];
			n = st->n - lo;
		}
	}
	while (n > 0) {
		size_t half = n / 2;
		if (s[lo + half] <= addr) {
			lo += half + 1;
			n -= half + 1;
		} else {
			n = half;
		}
	}
	if (lo == 0 || addr >= st->end[lo - 1])
		return NULL;
	if (offset_out)
		*offset_out = addr - s[lo - 1];
	if (len_out)
		*len_out = st->len[lo - 1];
	return st->name[lo - 1];
}

const char *symtab_lookup_ret(const struct symtab *st, uint64_t retaddr, uint64_t *offset_out,
			      size_t *len_out)
{
	if (retaddr == 0)
		return NULL;
	const char *name = symtab_lookup(st, retaddr - 1, offset_out, len_out);
	if (name && offset_out)
		*offset_out += 1;
	return name;
}

size_t symtab_count(const struct symtab *st)
{
	return st->n;
}

const char *symtab_symbol(const struct symtab *st, size_t i, uint64_t *start, uint64_t *end)
{
	if (i >= st->n)
		return NULL;
	if (start)
		*start = st->start[i];
	if (end)
		*end = st->end[i];
	return st->name[i];
}

int symtab_is_pie(const struct symtab *st)
{
	return st->pie;
}

int symtab_check(const struct symtab *st)
{
	if (st->n == 0)
		return 4;
	for (size_t i = 0; i < st->n; i++) {
		if (st->start[i] >= st->end[i] || (i && st->start[i] < st->end[i - 1]))
			return 2;
		if (st->len[i] > SYMTAB_MAX_NAME || st->name[i][st->len[i]] != 0 ||
		    strlen(st->name[i]) != st->len[i])
			return 3;
		if (symtab_lookup(st, st->start[i], NULL, NULL) != st->name[i] ||
		    symtab_lookup(st, st->end[i] - 1, NULL, NULL) != st->name[i])
			return 2;
	}
	return 0;
}

int symtab_load_bias(const struct symtab *st, uint64_t map_start, uint64_t map_off,
		     uint64_t *bias)
{
	const struct symtab_seg *hit = NULL;
	/* first choice: the segment whose file range, widened down to its
	 * 4 KiB page (the kernel maps from there), holds the offset */
	for (size_t i = 0; i < st->nsegs && !hit; i++) {
		const struct symtab_seg *g = &st->segs[i];
		uint64_t page = g->off & ~0xfffull;
		if (page == map_off || (g->off <= map_off && map_off - g->off < g->filesz))
			hit = g;
	}
	/* else (larger pages): the lowest segment starting within 64 KiB */
	const struct symtab_seg *low = NULL;
	for (size_t i = 0; i < st->nsegs && !hit; i++) {
		const struct symtab_seg *g = &st->segs[i];
		if (g->off >= map_off && g->off - map_off < 0x10000 && (!low || g->off < low->off))
			low = g;
	}
	if (!hit)
		hit = low;
	if (!hit)
		return -ENOENT;
	*bias = map_start - map_off + hit->off - hit->vaddr;
	return 0;
}

/* ---- load bias from addresses alone ------------------------------------ */

#define GUESS_SAMPLE 512u   /* addresses that propose a bias, and that score one */

/* The symbol named `name` (first match, O(n)); 0 with its range, or -1. */
static int find_named(const struct symtab *st, const char *name, uint64_t *s, uint64_t *e)
{
	for (size_t i = 0; i < st->n; i++)
		if (strcmp(st->name[i], name) == 0) {
			*s = st->start[i];
			*e = st->end[i];
			return 0;
		}
	return -1;
}

/* How many of the sampled addresses resolve (as return addresses, which
 * also covers a PC: one byte back stays in its function but at its very
 * first byte) with `bias` subtracted. */
static size_t guess_score(const struct symtab *st, const uint64_t *a, size_t n, size_t step,
			  uint64_t bias)
{
	size_t hits = 0;
	for (size_t i = 0; i < n; i += step)
		hits += a[i] > bias && (symtab_lookup(st, a[i] - bias, NULL, NULL) ||
					symtab_lookup_ret(st, a[i] - bias, NULL, NULL));
	return hits;
}

int symtab_guess_bias(const struct symtab *st, const uint64_t *addrs, size_t n, uint64_t *bias)
{
	static const char *const anchors[] = { "_start", "main" };
	size_t step = n > GUESS_SAMPLE ? n / GUESS_SAMPLE : 1, tried = 0, best = 0;
	uint64_t best_bias = 0, last = UINT64_MAX;
	for (size_t k = 0; k < sizeof anchors / sizeof *anchors; k++) {
		uint64_t s, e;
		if (find_named(st, anchors[k], &s, &e) != 0)
			continue;
		for (size_t i = 0; i < n; i += step) {
			/* the anchor's one file address on this address's page offset */
			uint64_t f = s + ((addrs[i] - s) & 0xfffu);
			if (f > e || addrs[i] < f || addrs[i] - f == last)
				continue;
			last = addrs[i] - f;
			size_t sc = guess_score(st, addrs, n, step, last);
			tried++;
			if (sc > best)
				best = sc, best_bias = last;
		}
	}
	size_t sampled = (n + step - 1) / step;
	if (!tried || best * 2 < sampled)
		return -ENOENT;
	*bias = best_bias;
	return 0;
}

/* ---- nm text ----------------------------------------------------------- */

struct symtab *symtab_open_nm(const char *path, struct uf_err *err)
{
	FILE *f = open_input(path, err);
	if (!f)
		return NULL;
	struct symtab *st = nm_read(f, path, err);
	fclose(f);
	return st;
}

struct symtab *symtab_open_nm_mem(const char *buf, size_t len, const char *label,
				  struct uf_err *err)
{
	FILE *f = len ? fmemopen((void *)buf, len, "r") : NULL;
	if (!f) {
		uf_err_set(err, UF_EINPUT, label, len ? "out of memory" : "no function symbols");
		return NULL;
	}
	struct symtab *st = nm_read(f, label, err);
	fclose(f);
	return st;
}

struct symtab *symtab_open_auto(const char *path, struct uf_err *err)
{
	unsigned char magic[4] = {0};
	FILE *f = open_input(path, err);
	if (!f)
		return NULL;
	size_t got = fread(magic, 1, sizeof magic, f);
	fclose(f);
	if (got == 4 && memcmp(magic, "\177ELF", 4) == 0)
		return symtab_open_elf(path, err);
	return symtab_open_nm(path, err);
}

/* ---- static helpers ---------------------------------------------------- */

/* A symbol file for reading: a regular file, vetted before it is opened
 * (util/safe-open.h: a FIFO or device named by -x neither blocks nor
 * runs its driver).  NULL with *err. */
static FILE *open_input(const char *path, struct uf_err *err)
{
	const char *why;
	int fd = uf_safe_open(path, &why);
	FILE *f = fd < 0 ? NULL : fdopen(fd, "r");
	if (fd < 0)
		symtab_err_open(err, path, why);
	else if (!f) {
		symtab_err_errno(err, path, errno);
		close(fd);
	}
	return f;
}

/* Start ascending; among equals the preferred alias first, by the rule
 * in symtab.h (perf's choose_best_symbol, tools/perf/util/symbol.c, with
 * byte order as the last tie-break so table order never decides). */
static int cand_cmp(const void *a, const void *b)
{
	const struct symtab_cand *x = a, *y = b;
	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	if (x->kind != y->kind)      /* functions, labels, end markers */
		return x->kind < y->kind ? -1 : 1;
	int xz = x->size == 0, yz = y->size == 0;
	if (xz != yz)                /* sized over size 0 */
		return xz - yz;
	int xw = x->bind == SYMB_WEAK, yw = y->bind == SYMB_WEAK;
	if (xw != yw)                /* non-weak over weak */
		return xw - yw;
	int xl = x->bind != SYMB_GLOBAL, yl = y->bind != SYMB_GLOBAL;
	if (xl != yl)                /* global over local */
		return xl - yl;
	size_t xu = strspn(x->name, "_"), yu = strspn(y->name, "_");
	if (xu != yu)                /* fewer leading underscores */
		return xu < yu ? -1 : 1;
	if (x->len != y->len)        /* the longer name */
		return x->len > y->len ? -1 : 1;
	return memcmp(x->name, y->name, x->len);
}

/* The end of a candidate, given the next distinct start (UINT64_MAX when
 * none): its size if known, else up to the next symbol and at most
 * SYMTAB_MAX_GUESS; always capped by its section.  A sized symbol is not
 * capped by the next start here: that one may be a label pack() drops. */
static uint64_t cand_end(const struct symtab_cand *c, uint64_t next_start)
{
	uint64_t end;
	if (c->size && c->size <= UINT64_MAX - c->start)
		end = c->start + c->size;
	else if (c->size)
		end = UINT64_MAX;
	else
		end = c->start + (UINT64_MAX - c->start < SYMTAB_MAX_GUESS ?
				  UINT64_MAX - c->start : SYMTAB_MAX_GUESS);
	if (!c->size && end > next_start)
		end = next_start;
	if (end > c->limit)
		end = c->limit;
	return end;
}

static int pack_alloc(struct symtab *st, size_t n)
{
	size_t m = n ? n : 1;
	st->start = malloc(m * sizeof *st->start);
	st->end = malloc(m * sizeof *st->end);
	st->name = malloc(m * sizeof *st->name);
	st->len = malloc(m * sizeof *st->len);
	return st->start && st->end && st->name && st->len ? 0 : -ENOMEM;
}

/* One pass over the sorted candidates: the first of each start address is
 * its best alias.  A label inside a sized function is dropped (an assembly
 * label is not a new function); a function inside another cuts it.  So
 * is a local label (no type, no size) right after a global or weak one
 * without size in the same section: assembly start code is a global
 * entry (_start, Unikraft's _libkvmplat_start64) with local labels inside
 * it (`nofsgsbase:`), and its frames are named after the entry, not the
 * label; the entry then extends over it.  Limit: a local assembly
 * function written after an unsized global one is named after that. */
static int pack(struct symtab *st)
{
	if (pack_alloc(st, st->ncand))
		return -ENOMEM;
	size_t n = 0;
	uint64_t cover = 0; /* end of the last sized function kept */
	const struct symtab_cand *entry = NULL; /* the last kept: a global label without size */
	for (size_t i = 0; i < st->ncand;) {
		const struct symtab_cand *c = &st->cand[i];
		size_t j = i + 1;
		while (j < st->ncand && st->cand[j].start == c->start)
			j++;
		uint64_t next = j < st->ncand ? st->cand[j].start : UINT64_MAX;
		i = j;
		if (c->kind == SYMK_END || (c->kind == SYMK_LABEL && c->start < cover))
			continue;
		if (entry && c->kind == SYMK_LABEL && c->bind == SYMB_LOCAL && !c->size &&
		    c->limit == entry->limit && st->end[n - 1] == c->start) {
			uint64_t grown = cand_end(entry, next);
			if (grown > c->start) {
				st->end[n - 1] = grown;
				continue;
			}
		}
		uint64_t end = cand_end(c, next);
		if (end <= c->start)
			continue;
		if (n && st->end[n - 1] > c->start)
			st->end[n - 1] = c->start;
		if (n >= SYMTAB_MAX_SYMS)
			return -E2BIG;
		st->start[n] = c->start;
		st->end[n] = end;
		st->name[n] = c->name;
		st->len[n] = c->len;
		n++;
		entry = c->kind == SYMK_LABEL && c->bind != SYMB_LOCAL && !c->size ? c : NULL;
		if (c->size && c->start + c->size > cover)
			cover = end;
	}
	st->n = n;
	return 0;
}

/* The bucket index: about one bucket per 4 symbols over [start[0],
 * end[n-1]); bidx has nb + 1 entries so bucket b's candidates are
 * [bidx[b], bidx[b+1]].  An address past the last bucket searches
 * [bidx[nb], n). */
static int build_buckets(struct symtab *st)
{
	uint64_t lo = st->start[0], span = st->end[st->n - 1] - lo;
	unsigned shift = 0;
	while ((span >> shift) > st->n / 4)
		shift++;
	size_t nb = (size_t)(span >> shift) + 1;
	st->bidx = malloc((nb + 1) * sizeof *st->bidx);
	if (!st->bidx)
		return -ENOMEM;
	size_t i = 0;
	for (size_t b = 0; b <= nb; b++) {
		uint64_t edge;
		if (b > (UINT64_MAX >> shift) || __builtin_add_overflow(lo, (uint64_t)b << shift, &edge))
			edge = UINT64_MAX;
		while (i < st->n && st->start[i] < edge)
			i++;
		st->bidx[b] = (uint32_t)i;
	}
	st->nb = nb;
	st->blo = lo;
	st->bshift = shift;
	return 0;
}

/* The nm reader over an open stream (borrowed). */
static struct symtab *nm_read(FILE *f, const char *label, struct uf_err *err)
{
	struct symtab *st = symtab_build_new();
	char *line = malloc(SYMTAB_MAX_NM_LINE + 2);
	int rc = st && line ? 0 : -ENOMEM, skipping = 0;
	/* a fixed buffer: an endless line is skipped, never buffered */
	while (rc == 0 && fgets(line, SYMTAB_MAX_NM_LINE + 2, f)) {
		size_t got = strlen(line);
		int whole = got && line[got - 1] == '\n';
		if (!skipping && (whole || feof(f)) && got <= SYMTAB_MAX_NM_LINE + 1)
			rc = nm_parse_line(st, line, got);
		skipping = !whole;
	}
	if (rc == 0 && ferror(f))
		rc = -EIO;
	free(line);
	if (rc == 0)
		rc = symtab_build_finish(st);
	if (rc == 0 && st->n == 0)
		rc = -ENOENT;
	if (rc < 0) {
		uf_err_set(err, UF_EINPUT, label, "%s",
			   rc == -ENOENT ? "no function symbols" :
			   rc == -E2BIG ? "too many symbols" :
			   rc == -EIO ? "read error" : "out of memory");
		symtab_free(st);
		return NULL;
	}
	return st;
}

/* "ADDR TYPE NAME" (nm, nm -n) or "ADDR SIZE TYPE NAME" (nm -S).  Lines
 * that do not parse are skipped, not errors: nm prints headers
 * ("file.o:") and undefined symbols with blank addresses. */
static int nm_parse_line(struct symtab *st, char *line, size_t len)
{
	while (len && (line[len - 1] == '\n' || line[len - 1] == '\r'))
		line[--len] = 0;
	uint64_t addr, size = 0;
	const char *p = memchr(line, ' ', len);
	if (!p || nm_hex(line, (size_t)(p - line), &addr))
		return 0;
	const char *q = memchr(p + 1, ' ', len - (size_t)(p + 1 - line));
	if (q && q - p > 2 && nm_hex(p + 1, (size_t)(q - p - 1), &size) == 0)
		p = q; /* nm -S: a size column */
	if ((size_t)(p - line) + 3 > len || p[2] != ' ' || p[1] == 0)
		return 0;
	char type = p[1];
	const char *name = p + 3;
	size_t nlen = len - (size_t)(name - line);
	if (nlen == 0 || strchr("UuvVN", type))
		return 0; /* undefined or debug: no address meaning */
	int func = strchr("tTwWi", type) != NULL;
	int bind = (type == 'w' || type == 'W') ? SYMB_WEAK :
		   (type >= 'A' && type <= 'Z') ? SYMB_GLOBAL : SYMB_LOCAL;
	return symtab_build_add(st, addr, size, UINT64_MAX, name, nlen, bind,
				func ? SYMK_FUNC : SYMK_END);
}

static int nm_hex(const char *s, size_t n, uint64_t *out)
{
	uint64_t v = 0;
	if (n == 0 || n > 16)
		return -1;
	for (size_t i = 0; i < n; i++) {
		int d = s[i] >= '0' && s[i] <= '9' ? s[i] - '0' :
			s[i] >= 'a' && s[i] <= 'f' ? s[i] - 'a' + 10 :
			s[i] >= 'A' && s[i] <= 'F' ? s[i] - 'A' + 10 : -1;
		if (d < 0)
			return -1;
		v = v << 4 | (uint64_t)d;
	}
	*out = v;
	return 0;
}

void symtab_build_id_hex(const struct symtab *st, char *buf, size_t size)
{
	size_t n = 0;
	for (size_t i = 0; i < st->build_id_len && n + 3 <= size; i++)
		n += (size_t)snprintf(buf + n, size - n, "%02x", st->build_id[i]);
	if (size)
		buf[n < size ? n : size - 1] = 0;
}
