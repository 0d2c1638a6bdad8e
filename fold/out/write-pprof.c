/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * fold/write-pprof.c — pprof's profile.proto (fold/profile.proto),
 * gzip-compressed, for `go tool pprof`, pprof's web UI and the services
 * that read it (Grafana Pyroscope, Cloud Profiler).
 *
 * Two layers.  A small builder (fold_pprof_*) owns the string table,
 * functions, locations, mappings and samples, deduplicating strings,
 * functions (by name, file) and locations (by address within a mapping,
 * or by function when there is no address); record uses it directly to
 * write addresses, mappings and file:line.  fold_write_pprof() feeds it
 * a finished trie: one location per distinct name, one sample per
 * distinct stack; or, when the trie kept per-sample times and states
 * (fold_trie_keep_when), one sample per sequence entry in input order
 * with labels "state" (running, blocked, ...) and "time" (ns since the
 * first sample), which `go tool pprof -tags` and `-raw` show.
 *
 * Trade-off: protobuf-c packs a whole message from C structs, so the
 * Profile is packed in three parts that concatenate to the same bytes
 * (invariant 4): sample_type, then each Sample packed on its own as the
 * trie walk reaches it, then the tables.  Memory is the tables (a few
 * words per distinct name, location and string) plus one path: a stack's
 * frames are never held for more than one sample at a time (issue 28: a
 * binary tree of height 13 under a long chain took 521 MB when every
 * sample's location list was built first; each level doubled it).  The
 * packed bytes are streamed through zlib to the FILE, never held whole.
 * record's builder (fold_pprof_sample) still keeps its samples as flat
 * arrays of ids, one word a frame.
 *
 * Invariants:
 *  1. string_table[0] is ""; every id (function, location, mapping) is
 *     its index + 1, so none is 0.
 *  2. Every sample has exactly nvalues values, in sample_type order.
 *  3. Output bytes depend only on the builder calls' order (no hashes or
 *     pointers reach the file).
 *  4. Profile fields go out in field-number order, as one
 *     protobuf-c pack would write them: 1 sample_type, 2 sample, then 3..
 *  5. Every string is valid UTF-8 (proto3 `string`; strict readers refuse
 *     others): an invalid byte becomes U+FFFD.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <zlib.h>

#include "fold/out/out.h"
#include "profile.pb-c.h"
#include "util/hash.h"
#include "util/vec.h"

typedef Perftools__Profiles__Profile PProfile;
typedef Perftools__Profiles__ValueType PValueType;
typedef Perftools__Profiles__Sample PSample;
typedef Perftools__Profiles__Mapping PMapping;
typedef Perftools__Profiles__Location PLocation;
typedef Perftools__Profiles__Line PLine;
typedef Perftools__Profiles__Function PFunction;
typedef Perftools__Profiles__Label PLabel;

#define MAX_VALUES 4

struct fold_pprof {
	/* strings: interned in a private trie (its name table is what we need) */
	fold_trie *strs;
	uint32_t *str_index;     /* trie name id -> string_table index + 1 */
	size_t str_index_cap;
	uint32_t *str_order;     /* string_table index -> trie name id */
	size_t nstr, str_cap;
	/* functions: key (name, file) */
	PFunction *fn;
	size_t nfn, fn_cap;
	uint64_t *fn_slot;       /* open addressing on (name, file): id, 0 empty */
	size_t fn_mask;
	/* locations: key (mapping, address) or (function) */
	PLocation *loc;
	PLine *line;             /* one Line per location */
	size_t nloc, loc_cap;
	uint64_t *loc_key_a, *loc_key_b;
	uint64_t *loc_slot;
	size_t loc_mask;
	PMapping *map;
	size_t nmap, map_cap;
	/* samples: location ids and values in flat arrays */
	uint64_t *ids;
	size_t nids, ids_cap;
	int64_t *vals;
	size_t nvals, vals_cap;
	size_t *sample_off;      /* sample i: ids[off[i] .. off[i+1]) */
	size_t nsamples, samples_cap;
	int nvalues;
	PValueType types[MAX_VALUES];
	int64_t period;
	PValueType period_type;
	int64_t duration_ns;
};

/* ---- strings ---------------------------------------------------------- */

/* Length of the valid UTF-8 sequence at s[0..n), or 0 (RFC 3629: no
 * overlong forms, no surrogates, nothing past U+10FFFF). */
static size_t utf8_seq(const unsigned char *s, size_t n)
{
	unsigned c = s[0];
	size_t len = c < 0x80 ? 1 : c >= 0xc2 && c <= 0xdf ? 2 : c >= 0xe0 && c <= 0xef ? 3 :
		     c >= 0xf0 && c <= 0xf4 ? 4 : 0;
	if (len == 0 || len > n)
		return 0;
	unsigned lo = 0x80, hi = 0xbf; /* the second byte's range */
	if (c == 0xe0)
		lo = 0xa0;
	else if (c == 0xed)
		hi = 0x9f;
	else if (c == 0xf0)
		lo = 0x90;
	else if (c == 0xf4)
		hi = 0x8f;
	for (size_t i = 1; i < len; i++, lo = 0x80, hi = 0xbf)
		if (s[i] < lo || s[i] > hi)
			return 0;
	return len;
}

/* s with each byte that starts no valid UTF-8 sequence replaced by U+FFFD,
 * in *out (owned, to free), or NULL in *out when s is valid as it is.
 * Returns the new length, or -ENOMEM. */
static ssize_t utf8_repair(const char *s, size_t len, char **out)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t i = 0, k;
	while (i < len && (k = utf8_seq(p + i, len - i)) != 0)
		i += k;
	*out = NULL;
	if (i == len)
		return (ssize_t)len;
	char *r = malloc(len * 3 + 1); /* each bad byte grows to 3 */
	if (!r)
		return -ENOMEM;
	size_t o = 0;
	for (i = 0; i < len; i += k ? k : 1) {
		k = utf8_seq(p + i, len - i);
		memcpy(r + o, k ? (const char *)p + i : "\xef\xbf\xbd", k ? k : 3);
		o += k ? k : 3;
	}
	while (o > FOLD_MAX_NAME) /* the trie's cap: cut at a character's start */
		while (((unsigned char)r[--o] & 0xc0) == 0x80)
			;
	*out = r;
	return (ssize_t)o;
}

int64_t fold_pprof_string(struct fold_pprof *b, const char *s, size_t len)
{
	char *fixed;
	ssize_t n = utf8_repair(s, len, &fixed); /* invariant 5 */
	if (n < 0)
		return -ENOMEM;
	uint32_t id = fold_trie_intern(b->strs, fixed ? fixed : s, (size_t)n);
	free(fixed);
	if (id == FOLD_NONE)
		return -ENOMEM;
	size_t have = b->str_index_cap;
	if (uf_vec_grow(&b->str_index, &b->str_index_cap, (size_t)id + 1, sizeof *b->str_index))
		return -ENOMEM;
	if (b->str_index_cap > have)
		memset(b->str_index + have, 0, (b->str_index_cap - have) * sizeof *b->str_index);
	if (b->str_index[id])
		return b->str_index[id] - 1;
	if (uf_vec_grow(&b->str_order, &b->str_cap, b->nstr + 1, sizeof *b->str_order))
		return -ENOMEM;
	b->str_order[b->nstr] = id;
	b->str_index[id] = (uint32_t)++b->nstr;
	return (int64_t)b->nstr - 1;
}

static int64_t str0(struct fold_pprof *b, const char *s)
{
	return fold_pprof_string(b, s, strlen(s));
}

/* ---- setup ------------------------------------------------------------ */

struct fold_pprof *fold_pprof_new(void)
{
	struct fold_pprof *b = calloc(1, sizeof *b);
	if (!b || !(b->strs = fold_trie_new()) || str0(b, "") != 0) {
		fold_pprof_free(b);
		return NULL;
	}
	return b;
}

void fold_pprof_free(struct fold_pprof *b)
{
	if (!b)
		return;
	fold_trie_free(b->strs);
	free(b->str_index);
	free(b->str_order);
	free(b->fn);
	free(b->fn_slot);
	free(b->loc);
	free(b->line);
	free(b->loc_key_a);
	free(b->loc_key_b);
	free(b->loc_slot);
	free(b->map);
	free(b->ids);
	free(b->vals);
	free(b->sample_off);
	free(b);
}

int fold_pprof_sample_type(struct fold_pprof *b, const char *type, const char *unit)
{
	if (b->nvalues == MAX_VALUES || b->nsamples)
		return -EINVAL;
	PValueType *v = &b->types[b->nvalues];
	perftools__profiles__value_type__init(v);
	v->type = str0(b, type);
	v->unit = str0(b, unit);
	if (v->type < 0 || v->unit < 0)
		return -ENOMEM;
	b->nvalues++;
	return 0;
}

int fold_pprof_period(struct fold_pprof *b, const char *type, const char *unit, int64_t period,
		      int64_t duration_ns)
{
	perftools__profiles__value_type__init(&b->period_type);
	b->period_type.type = str0(b, type);
	b->period_type.unit = str0(b, unit);
	b->period = period;
	b->duration_ns = duration_ns;
	return b->period_type.type < 0 || b->period_type.unit < 0 ? -ENOMEM : 0;
}

/* ---- mappings, functions, locations ----------------------------------- */

uint64_t fold_pprof_mapping(struct fold_pprof *b, uint64_t start, uint64_t limit, uint64_t offset,
			    const char *file, const char *build_id)
{
	if (uf_vec_grow(&b->map, &b->map_cap, b->nmap + 1, sizeof *b->map))
		return 0;
	PMapping *m = &b->map[b->nmap];
	perftools__profiles__mapping__init(m);
	m->id = b->nmap + 1;
	m->memory_start = start;
	m->memory_limit = limit;
	m->file_offset = offset;
	m->filename = str0(b, file ? file : "");
	m->build_id = str0(b, build_id ? build_id : "");
	m->has_functions = 1;
	if (m->filename < 0 || m->build_id < 0)
		return 0;
	return ++b->nmap;
}

void fold_pprof_mapping_has_lines(struct fold_pprof *b, uint64_t id)
{
	if (id && id <= b->nmap)
		b->map[id - 1].has_filenames = b->map[id - 1].has_line_numbers = 1;
}

/* Finds or adds the slot for key in an open-addressing table of ids;
 * returns the slot index.  Grows at half full. */
static int slot_grow(uint64_t **slot, size_t *mask, size_t n)
{
	if (*slot && n * 2 < *mask + 1)
		return 0;
	size_t cap = *slot ? (*mask + 1) * 2 : 1024;
	uint64_t *ns = calloc(cap, sizeof *ns);
	if (!ns)
		return -ENOMEM;
	free(*slot);
	*slot = ns;
	*mask = cap - 1;
	return 1; /* caller reinserts */
}

static uint64_t fn_hash(int64_t name, int64_t file)
{
	return uf_hash_u64_keyed((uint64_t)name * 0x9e3779b97f4a7c15ull ^ (uint64_t)file);
}

static void fn_insert(struct fold_pprof *b, size_t idx)
{
	size_t h = fn_hash(b->fn[idx].name, b->fn[idx].filename) & b->fn_mask;
	while (b->fn_slot[h])
		h = (h + 1) & b->fn_mask;
	b->fn_slot[h] = idx + 1;
}

static uint64_t function_id(struct fold_pprof *b, int64_t name, int64_t file)
{
	int g = slot_grow(&b->fn_slot, &b->fn_mask, b->nfn + 1);
	if (g < 0)
		return 0;
	if (g == 1)
		for (size_t i = 0; i < b->nfn; i++)
			fn_insert(b, i);
	size_t h = fn_hash(name, file) & b->fn_mask;
	for (; b->fn_slot[h]; h = (h + 1) & b->fn_mask) {
		PFunction *f = &b->fn[b->fn_slot[h] - 1];
		if (f->name == name && f->filename == file)
			return f->id;
	}
	if (uf_vec_grow(&b->fn, &b->fn_cap, b->nfn + 1, sizeof *b->fn))
		return 0;
	PFunction *f = &b->fn[b->nfn];
	perftools__profiles__function__init(f);
	f->id = b->nfn + 1;
	f->name = f->system_name = name;
	f->filename = file;
	b->fn_slot[h] = ++b->nfn;
	return f->id;
}

static void loc_insert(struct fold_pprof *b, size_t idx)
{
	size_t h = fn_hash((int64_t)b->loc_key_a[idx], (int64_t)b->loc_key_b[idx]) & b->loc_mask;
	while (b->loc_slot[h])
		h = (h + 1) & b->loc_mask;
	b->loc_slot[h] = idx + 1;
}

uint64_t fold_pprof_location(struct fold_pprof *b, uint64_t mapping, uint64_t address,
			     const char *func, size_t func_len, const char *file, int64_t line)
{
	int64_t name = fold_pprof_string(b, func, func_len);
	int64_t fname = str0(b, file ? file : "");
	if (name < 0 || fname < 0)
		return 0;
	uint64_t fid = function_id(b, name, fname);
	if (!fid)
		return 0;
	/* key: (mapping, address) when there is an address, else the function */
	uint64_t ka = address ? mapping : UINT64_MAX, kb = address ? address : fid;
	int g = slot_grow(&b->loc_slot, &b->loc_mask, b->nloc + 1);
	if (g < 0)
		return 0;
	if (g == 1)
		for (size_t i = 0; i < b->nloc; i++)
			loc_insert(b, i);
	size_t h = fn_hash((int64_t)ka, (int64_t)kb) & b->loc_mask;
	for (; b->loc_slot[h]; h = (h + 1) & b->loc_mask) {
		size_t i = b->loc_slot[h] - 1;
		if (b->loc_key_a[i] == ka && b->loc_key_b[i] == kb)
			return i + 1;
	}
	size_t c1 = b->loc_cap, c2 = b->loc_cap, c3 = b->loc_cap, c4 = b->loc_cap;
	if (uf_vec_grow(&b->loc, &c1, b->nloc + 1, sizeof *b->loc) ||
	    uf_vec_grow(&b->line, &c2, b->nloc + 1, sizeof *b->line) ||
	    uf_vec_grow(&b->loc_key_a, &c3, b->nloc + 1, sizeof *b->loc_key_a) ||
	    uf_vec_grow(&b->loc_key_b, &c4, b->nloc + 1, sizeof *b->loc_key_b))
		return 0;
	b->loc_cap = c1 < c2 ? c1 : c2;
	b->loc_cap = b->loc_cap < c3 ? b->loc_cap : c3;
	b->loc_cap = b->loc_cap < c4 ? b->loc_cap : c4;
	PLocation *l = &b->loc[b->nloc];
	perftools__profiles__location__init(l);
	perftools__profiles__line__init(&b->line[b->nloc]);
	l->id = b->nloc + 1;
	l->mapping_id = address ? mapping : 0;
	l->address = address;
	b->line[b->nloc].function_id = fid;
	b->line[b->nloc].line = line;
	b->loc_key_a[b->nloc] = ka;
	b->loc_key_b[b->nloc] = kb;
	b->loc_slot[h] = ++b->nloc;
	return l->id;
}

int fold_pprof_sample(struct fold_pprof *b, const uint64_t *loc_ids, size_t n,
		      const int64_t *values)
{
	if (uf_vec_grow(&b->ids, &b->ids_cap, b->nids + n, sizeof *b->ids) ||
	    uf_vec_grow(&b->vals, &b->vals_cap, b->nvals + (size_t)b->nvalues, sizeof *b->vals) ||
	    uf_vec_grow(&b->sample_off, &b->samples_cap, b->nsamples + 2, sizeof *b->sample_off))
		return -ENOMEM;
	if (b->nsamples == 0)
		b->sample_off[0] = 0;
	memcpy(b->ids + b->nids, loc_ids, n * sizeof *loc_ids);
	b->nids += n;
	memcpy(b->vals + b->nvals, values, (size_t)b->nvalues * sizeof *values);
	b->nvals += (size_t)b->nvalues;
	b->sample_off[++b->nsamples] = b->nids;
	return 0;
}

/* ---- packing through zlib --------------------------------------------- */

struct gz_sink {
	ProtobufCBuffer base;
	z_stream zs;
	FILE *out;
	int err;
	unsigned char buf[64 << 10];
};

static void gz_write(struct gz_sink *s, const uint8_t *data, size_t len, int flush)
{
	s->zs.next_in = (Bytef *)data;
	s->zs.avail_in = (uInt)len;
	do {
		s->zs.next_out = s->buf;
		s->zs.avail_out = sizeof s->buf;
		int z = deflate(&s->zs, flush);
		if (z == Z_STREAM_ERROR)
			s->err = -EIO;
		size_t n = sizeof s->buf - s->zs.avail_out;
		if (n && fwrite(s->buf, 1, n, s->out) != n)
			s->err = -EIO;
	} while (s->zs.avail_out == 0 || (flush == Z_FINISH && s->zs.avail_in));
}

static void gz_append(ProtobufCBuffer *buffer, size_t len, const uint8_t *data)
{
	struct gz_sink *s = (struct gz_sink *)buffer;
	while (len > 0 && !s->err) { /* avail_in is 32 bits */
		size_t n = len > (1u << 30) ? (1u << 30) : len;
		gz_write(s, data, n, Z_NO_FLUSH);
		data += n;
		len -= n;
	}
}

static void gz_put(struct gz_sink *s, const uint8_t *data, size_t len)
{
	gz_append(&s->base, len, data);
}

static struct gz_sink *sink_open(FILE *out)
{
	struct gz_sink *s = calloc(1, sizeof *s);
	if (!s)
		return NULL;
	s->base.append = gz_append;
	s->out = out;
	if (deflateInit2(&s->zs, Z_DEFAULT_COMPRESSION, Z_DEFLATED, 16 + MAX_WBITS, 8,
			 Z_DEFAULT_STRATEGY) != Z_OK) {
		free(s);
		return NULL;
	}
	return s;
}

/* Ends the gzip stream and frees s; returns 0 or -EIO. */
static int sink_close(struct gz_sink *s, FILE *out)
{
	if (!s)
		return -ENOMEM;
	if (!s->err)
		gz_write(s, NULL, 0, Z_FINISH);
	deflateEnd(&s->zs);
	int rc = s->err ? s->err : ferror(out) ? -EIO : 0;
	free(s);
	return rc;
}

/* Profile field 1 (sample_type): protobuf-c packs fields in number order,
 * so head, samples (field 2) one by one, then tail are the bytes one
 * pack of the whole message would give (invariant 4). */
static void pack_head(struct fold_pprof *b, struct gz_sink *s)
{
	PValueType *tp[MAX_VALUES];
	PProfile p;
	perftools__profiles__profile__init(&p);
	for (int i = 0; i < b->nvalues; i++)
		tp[i] = &b->types[i];
	p.n_sample_type = (size_t)b->nvalues;
	p.sample_type = tp;
	perftools__profiles__profile__pack_to_buffer(&p, &s->base);
}

/* One Profile.sample: tag, length, the Sample message (with labels when
 * nlabels > 0). */
static void pack_sample_labels(struct gz_sink *s, const uint64_t *ids, size_t n,
			       const int64_t *vals, int nvalues, PLabel **labels, size_t nlabels)
{
	PSample smp;
	perftools__profiles__sample__init(&smp);
	smp.n_location_id = n;
	smp.location_id = (uint64_t *)ids;
	smp.n_value = (size_t)nvalues;
	smp.value = (int64_t *)vals;
	smp.n_label = nlabels;
	smp.label = labels;
	uint8_t head[11] = { 2 << 3 | 2 }; /* field 2, length-delimited */
	size_t len = perftools__profiles__sample__get_packed_size(&smp), h = 1;
	for (; len > 127; len >>= 7)
		head[h++] = (uint8_t)(len | 128);
	head[h++] = (uint8_t)len;
	gz_put(s, head, h);
	perftools__profiles__sample__pack_to_buffer(&smp, &s->base);
}

static void pack_sample(struct gz_sink *s, const uint64_t *ids, size_t n, const int64_t *vals,
			int nvalues)
{
	pack_sample_labels(s, ids, n, vals, nvalues, NULL, 0);
}

/* The pointer arrays protobuf-c wants, around the builder's flat ones. */
struct packing {
	PLocation **locp;
	PLine **linep;
	PFunction **fnp;
	PMapping **mapp;
	char **strs;
};

static void packing_free(struct packing *k)
{
	free(k->locp);
	free(k->linep);
	free(k->fnp);
	free(k->mapp);
	free(k->strs);
}

/* Points p at the builder's tables (every field after sample).  Returns 0
 * or -ENOMEM. */
static int fill_tail(struct fold_pprof *b, struct packing *k, PProfile *p)
{
	k->locp = malloc((b->nloc ? b->nloc : 1) * sizeof *k->locp);
	k->linep = malloc((b->nloc ? b->nloc : 1) * sizeof *k->linep);
	k->fnp = malloc((b->nfn ? b->nfn : 1) * sizeof *k->fnp);
	k->mapp = malloc((b->nmap ? b->nmap : 1) * sizeof *k->mapp);
	k->strs = malloc(b->nstr * sizeof *k->strs);
	if (!k->locp || !k->linep || !k->fnp || !k->mapp || !k->strs)
		return -ENOMEM;
	for (size_t i = 0; i < b->nloc; i++) {
		k->linep[i] = &b->line[i];
		b->loc[i].n_line = 1;
		b->loc[i].line = &k->linep[i];
		k->locp[i] = &b->loc[i];
	}
	p->n_location = b->nloc;
	p->location = k->locp;
	for (size_t i = 0; i < b->nfn; i++)
		k->fnp[i] = &b->fn[i];
	p->n_function = b->nfn;
	p->function = k->fnp;
	for (size_t i = 0; i < b->nmap; i++)
		k->mapp[i] = &b->map[i];
	p->n_mapping = b->nmap;
	p->mapping = k->mapp;
	for (size_t i = 0; i < b->nstr; i++) /* names are NUL-terminated in the trie */
		k->strs[i] = (char *)fold_trie_name(b->strs, b->str_order[i], NULL);
	p->n_string_table = b->nstr;
	p->string_table = k->strs;
	if (b->period_type.type) {
		p->period_type = &b->period_type;
		p->period = b->period;
	}
	p->duration_nanos = b->duration_ns;
	return 0;
}

static int pack_tail(struct fold_pprof *b, struct gz_sink *s)
{
	PProfile p;
	perftools__profiles__profile__init(&p);
	struct packing k = { 0 };
	int rc = fill_tail(b, &k, &p);
	if (rc == 0)
		perftools__profiles__profile__pack_to_buffer(&p, &s->base);
	packing_free(&k);
	return rc;
}

int fold_pprof_write(struct fold_pprof *b, FILE *out)
{
	struct gz_sink *sink = sink_open(out);
	if (!sink)
		return -ENOMEM;
	pack_head(b, sink);
	for (size_t i = 0; i < b->nsamples && !sink->err; i++)
		pack_sample(sink, b->ids + b->sample_off[i], b->sample_off[i + 1] - b->sample_off[i],
			    b->vals + i * (size_t)b->nvalues, b->nvalues);
	int rc = pack_tail(b, sink);
	int crc = sink_close(sink, out);
	return rc ? rc : crc;
}

/* ---- a finished trie -------------------------------------------------- */

static int64_t count_value(double v)
{
	return v >= 9.2e18 ? INT64_MAX : (int64_t)llround(v);
}

/* The labels of one timed sample: "state" (a string, when known) and
 * "time" (ns since the first sample, when known). */
struct when_labels {
	int64_t key_state, key_time, unit_ns, state_name[UF_RS_COUNT];
	PLabel l[2];
	PLabel *lp[2];
};

static int when_labels_init(struct fold_pprof *b, struct when_labels *w)
{
	w->key_state = str0(b, "state");
	w->key_time = str0(b, "time");
	w->unit_ns = str0(b, "nanoseconds");
	int bad = w->key_state < 0 || w->key_time < 0 || w->unit_ns < 0;
	for (unsigned k = 0; k < UF_RS_COUNT; k++)
		bad |= (w->state_name[k] = str0(b, uf_runstate_name((enum uf_runstate)k))) < 0;
	return bad ? -ENOMEM : 0;
}

static int add_sample_when(struct fold_pprof *b, struct gz_sink *sink, const fold_trie *t,
			   const struct fold_export_opts *o, uint32_t node, double count,
			   double base, struct when_labels *w, uint64_t t_ns, enum uf_runstate st,
			   uint64_t *loc_of, uint64_t *path);

/* One sample for node's own count, its frames leaf first, packed into
 * sink at once: memory stays one path deep however many samples share it. */
static int add_sample(struct fold_pprof *b, struct gz_sink *sink, const fold_trie *t,
		      const struct fold_export_opts *o, uint32_t node, uint64_t *loc_of,
		      uint64_t *path)
{
	return add_sample_when(b, sink, t, o, node, t->self[node], t->base ? t->base[node] : 0,
			       NULL, FOLD_T_UNKNOWN, UF_RS_UNKNOWN, loc_of, path);
}

/* The same for `count` samples of one sequence entry, labelled with its
 * time and state (w non-NULL). */
static int add_sample_when(struct fold_pprof *b, struct gz_sink *sink, const fold_trie *t,
			   const struct fold_export_opts *o, uint32_t node, double count,
			   double base, struct when_labels *w, uint64_t t_ns, enum uf_runstate st,
			   uint64_t *loc_of, uint64_t *path)
{
	double self = count;
	uint32_t d = 0;
	for (uint32_t n = node; n != FOLD_ROOT; n = t->parent[n]) {
		uint32_t nm = t->name[n];
		if (!loc_of[nm]) {
			size_t len;
			const char *s = fold_trie_name(t, nm, &len);
			if (!(loc_of[nm] = fold_pprof_location(b, 0, 0, s, len, NULL, 0)))
				return -ENOMEM;
		}
		path[d++] = loc_of[nm];
	}
	int64_t v[3];
	int k = 0;
	v[k++] = count_value(self);
	if (o->period_ns > 0)
		v[k++] = count_value(self * o->period_ns);
	if (t->base)
		v[k++] = count_value(base);
	size_t nl = 0;
	if (w && st != UF_RS_UNKNOWN) {
		perftools__profiles__label__init(&w->l[nl]);
		w->l[nl].key = w->key_state;
		w->l[nl].str = w->state_name[st];
		w->lp[nl] = &w->l[nl];
		nl++;
	}
	if (w && t_ns != FOLD_T_UNKNOWN) {
		perftools__profiles__label__init(&w->l[nl]);
		w->l[nl].key = w->key_time;
		w->l[nl].num = t_ns > (uint64_t)INT64_MAX ? INT64_MAX : (int64_t)t_ns;
		w->l[nl].num_unit = w->unit_ns;
		w->lp[nl] = &w->l[nl];
		nl++;
	}
	pack_sample_labels(sink, path, d, v, k, w ? w->lp : NULL, nl);
	return sink->err;
}

/* With times or states kept per sample: one Sample per sequence entry,
 * in input order, labelled (go tool pprof -tags, -raw show them). */
static int add_sequence(struct fold_pprof *b, struct gz_sink *sink, const fold_trie *t,
			const struct fold_export_opts *o, uint64_t *loc_of, uint64_t *path)
{
	struct when_labels w;
	if (when_labels_init(b, &w) < 0)
		return -ENOMEM;
	for (size_t i = 0; i < t->seq_len; i++)
		if (add_sample_when(b, sink, t, o, t->seq_node[i], t->seq_count[i],
				    t->seq_base ? t->seq_base[i] : 0, &w, fold_seq_t_ns(t, i),
				    fold_seq_state(t, i), loc_of, path))
			return sink->err ? sink->err : -ENOMEM;
	return 0;
}

int fold_write_pprof(const fold_trie *t, const struct fold_export_opts *o, FILE *out)
{
	if (!t->finished)
		return -EINVAL;
	struct fold_pprof *b = fold_pprof_new();
	uint64_t *loc_of = calloc(t->nnames ? t->nnames : 1, sizeof *loc_of);
	uint64_t *path = malloc(((size_t)t->maxdepth + 2) * sizeof *path);
	uint32_t *stack = NULL;
	struct gz_sink *sink = NULL;
	int rc = -ENOMEM;
	const char *cn = o->count_name ? o->count_name : "samples";
	char before[300];
	snprintf(before, sizeof before, "before_%s", cn);
	if (!b || !loc_of || !path || fold_pprof_sample_type(b, cn, "count") ||
	    (o->period_ns > 0 && fold_pprof_sample_type(b, "cpu", "nanoseconds")) ||
	    (t->base && fold_pprof_sample_type(b, before, "count")) ||
	    (o->period_ns > 0 && fold_pprof_period(b, "cpu", "nanoseconds", llround(o->period_ns), 0)))
		goto out;
	/* the sorted entry order (invariant 3 across input orders) */
	stack = malloc(((size_t)t->maxdepth + 2) * 2 * sizeof *stack);
	if (!stack || !(sink = sink_open(out)))
		goto out;
	pack_head(b, sink);
	if (t->keep_seq && t->seq_when_len) {
		if (add_sequence(b, sink, t, o, loc_of, path) == 0)
			rc = pack_tail(b, sink);
		goto out;
	}
	uint32_t sp = 0;
	if ((t->self[0] != 0 || (t->base && t->base[0] != 0)) &&
	    add_sample(b, sink, t, o, FOLD_ROOT, loc_of, path))
		goto out;
	stack[sp++] = FOLD_ROOT;
	stack[sp++] = t->eoff[0];
	while (sp) {
		uint32_t node = stack[sp - 2], *next = &stack[sp - 1];
		if (*next == t->eoff[node + 1]) {
			sp -= 2;
			continue;
		}
		uint32_t e = t->ent[(*next)++], c = e & ~FOLD_ENTRY_SELF;
		if (e & FOLD_ENTRY_SELF) {
			if (add_sample(b, sink, t, o, c, loc_of, path))
				goto out;
			continue;
		}
		stack[sp++] = c;
		stack[sp++] = t->eoff[c];
	}
	rc = pack_tail(b, sink);
out:
	if (sink) {
		int crc = sink_close(sink, out);
		rc = rc ? rc : crc;
	}
	fold_pprof_free(b);
	free(loc_of);
	free(path);
	free(stack);
	return rc;
}
