/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * record/pprof.c — record's pprof file, written from the sampled
 * addresses rather than from the folded names: locations carry their
 * address and mapping (the ELF file, its offset and GNU build id), and
 * file:line where the executable's DWARF gives it (the -x file, else
 * the executable the process mapped), so `go tool pprof -lines`,
 * `-disasm` (with the binary) and `-list` work on a unikernel profile.
 *
 * Trade-off: one location per distinct address (pprof's model), so the
 * file grows with distinct addresses rather than distinct names; names
 * come from the same resolver as the SVG, so -top matches the flame
 * graph.  Source lines come from the main program only (as the SVG's
 * tooltips without --inline would for it): from -x when given, else from
 * the executable's path in the process's maps, opened once on first use;
 * a file that cannot be read gives names and addresses only.  Mappings
 * are kept sorted by start and found by binary search (a frame costs
 * O(log mappings), not a scan).
 *
 * Invariants:
 *  1. Values per sample: samples/count and cpu/nanoseconds (count x the
 *     sampling period), the latter last, so it is the type pprof shows.
 *  2. Locations are keyed (mapping, address); frame 0 is the PC, the
 *     others return addresses looked up at address - 1 (as symbols).
 *  3. With --per-thread / --per-vcpu the thread's name is the outermost
 *     frame (a location without address), as in the SVG.
 *  4. Mapping 1 is the main program's whenever a sample has a frame in
 *     it: profile.proto makes mapping[0] the main binary, and go tool
 *     pprof keeps a protobuf file's order as written.  Mappings are
 *     otherwise made in the order the sample table yields stacks, and
 *     one recording in about 200 of app-test-1 began with a libc leaf
 *     (CI's t-export failed on it: function_3 in M=2).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "fold/out/out.h"
#include "record/priv.h"
#include "util/outfile.h"
#include "util/vec.h"

#define NAME_BUF 4096

/* What the writer reads from the recording. */
struct pprof_src {
	const struct sampler *s;
	const struct symtab_procmap *maps; /* a process's mappings, or NULL (guests) */
	const struct symtab *exe_tab;      /* the -x table, or NULL */
	const char *exe;                   /* -x path (DWARF lines), or NULL */
	sampler_resolve_fn resolve;        /* names, as for the SVG */
	void *resolve_ctx;
	sampler_thread_name_fn thread_name; /* per-thread root frames, or NULL */
	void *thread_ctx;
	double period_ns;                  /* 1e9 / HZ */
	unsigned states;                   /* --state: UF_RS_BIT set kept, 0 = all */
};

struct ctx {
	const struct pprof_src *src;
	struct fold_pprof *b;
	struct symtab_lines *lines;
	uint64_t exe_map;          /* mapping id of the -x image (no /proc maps) */
	int lines_tried;           /* the main program's DWARF was looked for */
	uint64_t *map_start, *map_id; /* procmap mappings seen, sorted by start -> id */
	size_t nmaps, maps_cap;
	char name[NAME_BUF];
};

static uint64_t mapping_of(struct ctx *c, uint64_t addr, uint64_t *faddr, int *main_exe);
static int write_pprof(const struct pprof_src *src, const char *path, struct uf_err *err);
static uint64_t location_of(struct ctx *c, uint64_t addr, int is_return);
static int add_pair(struct ctx *c, size_t i, uint64_t *ids);
static void main_mapping_first(struct ctx *c);

int record_write_pprof(struct record *r, const char *path, struct uf_err *err)
{
	const struct record_opts *o = r->o;
	struct pprof_src ps = {
		.s = &r->s, .maps = r->maps, .exe_tab = r->exe_tab, .exe = o->exe,
		.resolve = record_resolve, .resolve_ctx = r,
		.thread_name = o->per_thread ? record_thread_name : NULL, .thread_ctx = r,
		.period_ns = 1e9 / r->so.hz,   /* pprof's cpu/nanoseconds per sample */
		.states = o->cut.states,
	};
	return write_pprof(&ps, path, err);
}

static int write_pprof(const struct pprof_src *src, const char *path, struct uf_err *err)
{
	const struct sampler *s = src->s;
	struct ctx c = { .src = src, .b = fold_pprof_new() };
	uint64_t *ids = malloc((SAMPLER_MAX_DEPTH + 2) * sizeof *ids); /* + thread, state */
	int rc = -ENOMEM;
	if (!c.b || !ids || fold_pprof_sample_type(c.b, "samples", "count") ||
	    fold_pprof_sample_type(c.b, "cpu", "nanoseconds") ||
	    fold_pprof_period(c.b, "cpu", "nanoseconds", (int64_t)(src->period_ns + 0.5),
			      (int64_t)s->stats.elapsed_ns))
		goto out;
	if (src->exe) {
		struct uf_err e2 = { 0 }; /* no DWARF: names and addresses only */
		c.lines = symtab_lines_open(src->exe, &e2);
		c.lines_tried = 1;
	}
	main_mapping_first(&c);
	for (size_t i = 0; i < s->pairs_cap; i++)
		if (s->pair_count[i] && add_pair(&c, i, ids) != 0)
			goto out;
	struct uf_outfile o;
	if ((rc = uf_outfile_open(&o, path, err)) != 0)
		goto out_quiet;
	if ((rc = fold_pprof_write(c.b, o.fp)) != 0) {
		uf_outfile_abort(&o);
		goto out;
	}
	rc = uf_outfile_commit(&o, err);
	goto out_quiet;
out:
	if (rc)
		uf_err_set(err, UF_EINPUT, path, rc == -EIO ? "write failed" : "out of memory");
out_quiet:
	symtab_lines_free(c.lines);
	fold_pprof_free(c.b);
	free(c.map_start);
	free(c.map_id);
	free(ids);
	return rc;
}

/* One sample: the (thread, stack) pair in slot i, leaf first, and the
 * thread's name as the outermost frame when asked (invariant 3). */
static int add_pair(struct ctx *c, size_t i, uint64_t *ids)
{
	const struct pprof_src *src = c->src;
	const struct sampler *s = src->s;
	uint64_t key = s->pair_key[i];
	enum uf_runstate st = sampler_key_state(key);
	if (src->states && !(src->states & UF_RS_BIT(st)))
		return 0; /* --state leaves it out */
	size_t n, d = 0, flen;
	const uint64_t *f = sampler_stackset_get(&s->set, (uint32_t)key, &n);
	const char *sf = fold_state_frame(st, &flen); /* a waiting sample's leaf */
	if (sf && !(ids[d++] = fold_pprof_location(c->b, 0, 0, sf, flen, NULL, 0)))
		return -ENOMEM;
	for (size_t k = 0; k < n && k < SAMPLER_MAX_DEPTH; k++)
		if (!(ids[d++] = location_of(c, f[k], k > 0)))
			return -ENOMEM;
	if (src->thread_name) {
		size_t len = src->thread_name(src->thread_ctx, s->threads[sampler_key_thread(key)].id, c->name,
					      sizeof c->name);
		if (!(ids[d++] = fold_pprof_location(c->b, 0, 0, c->name, len, NULL, 0)))
			return -ENOMEM;
	}
	int64_t v[2] = { (int64_t)s->pair_count[i],
			 (int64_t)((double)s->pair_count[i] * src->period_ns + 0.5) };
	return fold_pprof_sample(c->b, ids, d, v);
}

/* Mapping 1 is the main program's (invariant 4): the first frame found
 * in it makes its mapping before any sample does.  A scan of the stacks,
 * at most once over each frame, ended by the first hit (usually the
 * first stack's). */
static void main_mapping_first(struct ctx *c)
{
	const struct pprof_src *src = c->src;
	const struct sampler *s = src->s;
	uint64_t faddr;
	int main_exe;
	if (!src->maps) { /* a guest: one mapping, the image's */
		mapping_of(c, 0, &faddr, &main_exe);
		return;
	}
	for (size_t i = 0; i < s->pairs_cap; i++) {
		if (!s->pair_count[i])
			continue;
		size_t n;
		const uint64_t *f = sampler_stackset_get(&s->set, (uint32_t)s->pair_key[i], &n);
		for (size_t k = 0; k < n && k < SAMPLER_MAX_DEPTH; k++) {
			struct symtab_mapping m;
			if (symtab_procmap_mapping(src->maps, f[k], &m) == 0 && m.is_main) {
				mapping_of(c, f[k], &faddr, &main_exe);
				return;
			}
		}
	}
}

/* The pprof mapping of a runtime address (0: none) and its file address. */
static uint64_t mapping_of(struct ctx *c, uint64_t addr, uint64_t *faddr, int *main_exe)
{
	const struct pprof_src *src = c->src;
	*faddr = addr;
	*main_exe = 0;
	if (!src->maps) { /* a guest image: addresses are file addresses */
		*main_exe = src->exe != NULL;
		if (!c->exe_map && src->exe) {
			char bid[129] = "";
			if (src->exe_tab)
				symtab_build_id_hex(src->exe_tab, bid, sizeof bid);
			c->exe_map = fold_pprof_mapping(c->b, 0, UINT64_MAX, 0, src->exe, bid);
			fold_pprof_mapping_has_lines(c->b, c->lines ? c->exe_map : 0);
		}
		return c->exe_map;
	}
	struct symtab_mapping m;
	if (symtab_procmap_mapping(src->maps, addr, &m) != 0)
		return 0;
	*faddr = m.has_bias ? addr - m.bias : addr;
	*main_exe = m.is_main;
	size_t lo = 0, hi = c->nmaps;   /* first start >= m.start */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (c->map_start[mid] < m.start)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < c->nmaps && c->map_start[lo] == m.start)
		return c->map_id[lo];
	size_t c1 = c->maps_cap, c2 = c->maps_cap;
	if (uf_vec_grow(&c->map_start, &c1, c->nmaps + 1, sizeof *c->map_start) ||
	    uf_vec_grow(&c->map_id, &c2, c->nmaps + 1, sizeof *c->map_id))
		return 0;
	c->maps_cap = c1 < c2 ? c1 : c2;
	if (m.is_main && !c->lines_tried && m.path) {
		struct uf_err e2 = { 0 };  /* no -x: the executable's own DWARF */
		c->lines = symtab_lines_open(m.path, &e2);
		c->lines_tried = 1;
	}
	uint64_t id = fold_pprof_mapping(c->b, m.start, m.end, m.off, m.path, m.build_id);
	if (m.is_main && c->lines)
		fold_pprof_mapping_has_lines(c->b, id);
	memmove(c->map_start + lo + 1, c->map_start + lo, (c->nmaps - lo) * sizeof *c->map_start);
	memmove(c->map_id + lo + 1, c->map_id + lo, (c->nmaps - lo) * sizeof *c->map_id);
	c->map_start[lo] = m.start;
	c->map_id[lo] = id;
	c->nmaps++;
	return id;
}

/* Location id of a frame: its name from the record resolver (the SVG's),
 * file:line from the -x DWARF for the main image. */
static uint64_t location_of(struct ctx *c, uint64_t addr, int is_return)
{
	const struct pprof_src *src = c->src;
	uint64_t faddr;
	int main_exe;
	uint64_t map = mapping_of(c, addr, &faddr, &main_exe);
	size_t len = src->resolve(src->resolve_ctx, addr, is_return, c->name, sizeof c->name);
	if (len == 0) {
		memcpy(c->name, "[unknown]", 9);
		len = 9;
	}
	const char *file = NULL;
	int line = 0;
	uint64_t look = is_return && faddr ? faddr - 1 : faddr; /* invariant 2 */
	if (main_exe && c->lines && symtab_lines_lookup(c->lines, look, &file, &line) != 0)
		file = NULL, line = 0;
	/* a frame with no mapping still needs its own location: key by address */
	return fold_pprof_location(c->b, map ? map : UINT64_MAX - 1, addr ? addr : 1, c->name, len, file,
				   line);
}
