/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * fold/fold.h — call-path trie of interned names; the hub every reader
 * writes into and every renderer reads from.
 *
 * A profile is a tree of call paths with a sample count on each path's
 * last frame ("self" count).  Names are interned once (an id per distinct
 * byte string, NUL and invalid UTF-8 allowed); trie nodes live in flat
 * arrays addressed by uint32_t id, and a node is found from
 * (parent id, name id) through one open-addressing table.  Memory grows
 * with the number of distinct call paths, never with input size or the
 * number of samples.
 *
 * Invariants:
 *  1. Node 0 is the root; its name is the empty string (name id 0).
 *  2. A child's id is greater than its parent's id (nodes are created
 *     top-down), so totals are one backwards pass.
 *  3. A node's self count is the sum of all counts added at it; counts
 *     are doubles so fractional counts survive (integers exact to 2^53).
 *  4. A differential trie ("base" present) keeps the BEFORE count beside
 *     the drawn AFTER count; lines with one column count as unchanged.
 *  5. Arrays grow: pointers into them (fold_trie_name(), the entry lists)
 *     go stale after the next insertion.  Hold ids, not pointers.
 *
 * A node's depth is not stored: walks from the root count it, and the
 * few places that start from a node walk its parents (fold_trie_depth).
 * At 16 bytes a node for the trie (parent, name, self) and 16 for
 * finish's arrays (total, entries), two bytes more were 6% of the peak
 * of a 24M-node profile.
 *
 * Sibling order.  flamegraph.pl sorts whole "a;b;c COUNT" lines and
 * merges adjacent prefixes.  The order that induces on one parent's
 * children is the byte order of "name;" for the child's subtree lines
 * and of "name " for the child's own line; when a sibling sorts between
 * the two, flamegraph.pl draws the child twice.  fold_trie_finish()
 * computes that order once as "entries" (child ids, FOLD_ENTRY_SELF set
 * for the child's own line) so renderers and the folded writer reproduce
 * it exactly without a global sort of the input.
 *
 * Caps on untrusted input (readers enforce them):
 *   FOLD_MAX_DEPTH frames per stack (deeper stacks: the frames past the
 *   cap are dropped and counted), FOLD_MAX_NAME bytes per name,
 *   FOLD_MAX_LINE bytes per input line, FOLD_MAX_NODES nodes.
 */
#ifndef UF_FOLD_H
#define UF_FOLD_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "util/err.h"

#define FOLD_ROOT 0u
#define FOLD_NONE UINT32_MAX
#define FOLD_ENTRY_SELF 0x80000000u
#define FOLD_MAX_DEPTH 8192
#define FOLD_MAX_NAME (64u * 1024u)
#define FOLD_MAX_LINE (64u * 1024u * 1024u)
#define FOLD_MAX_NODES 0x7ffffff0u
/* Name slots (fold_trie.nslots): the offset part caps all names at 1 TiB. */
#define FOLD_NSLOT_OFF ((1ull << 40) - 1)
#define FOLD_NSLOT_TAG (~FOLD_NSLOT_OFF)

/* Bytes of a trie's metadata text, its NUL included (longer is cut at a line). */
#define FOLD_META_MAX 4096

typedef struct fold_trie {
	/* interned names: bytes in one buffer, offsets by id */
	char *nbuf;              /* all names: each a record "LEN ID" (two uint32, host
				    order) then the name's bytes and a NUL */
	size_t nbuf_len, nbuf_cap;
	uint64_t *noff;          /* offset of name id's bytes in nbuf */
	uint32_t *nlen;          /* byte length of name id */
	uint32_t nnames, nnames_cap;
	uint64_t *nslots;        /* open addressing: hash's top 24 bits << 40 | offset of
				    the name's bytes in nbuf (never 0: the record's
				    header comes first), 0 = empty.  A probe reads the
				    slot, then one record holding length, id and bytes
				    (one cache miss less than id -> nlen, noff) */
	uint32_t nslots_mask;

	/* nodes, structure of arrays */
	uint32_t *parent;
	uint32_t *name;
	double *self;            /* drawn count (AFTER in a differential) */
	double *base;            /* BEFORE count; NULL unless differential */
	uint32_t nnodes, nodes_cap;
	struct fold_slot {       /* open addressing: the key beside the id, so a */
		uint32_t parent; /* lookup touches one cache line, not three */
		uint32_t name;
		uint32_t id;     /* node id + 1, 0 = empty */
	} *slots;
	uint32_t slots_mask;
	int index_stale;         /* slots do not cover every node (sorted reader);
				    fold_trie_child rebuilds them on first use */
	int preorder;            /* ids are in pre-order (the sorted reader's): a
				    node's subtree is the id range after it; any
				    other node added clears it */
	uint32_t preorder_depth; /* with preorder: the deepest node's depth */

	double max_line_delta;   /* largest |after - before| of one input line */

	/* built by fold_trie_finish(); invalid after the next insertion */
	int finished;
	double *total;           /* self + all descendants */
	uint32_t *eoff;          /* entries of node i: ent[eoff[i] .. eoff[i+1]) */
	uint32_t *ent;
	uint32_t maxdepth;       /* the deepest node's depth (frames from the root) */
	uint32_t *name_rank;     /* fold_sort_names' ranks, kept by the sorted reader */
	uint32_t name_rank_n;    /* ... while nnames is this */

	/* optional input-order sequence (flame charts), see fold_trie_keep_sequence */
	int keep_seq;
	uint32_t *seq_node;
	double *seq_count;
	double *seq_base;        /* only for differentials */
	size_t seq_len, seq_cap;

	/* How the profile was made (`record`'s metadata): "key: value\n"
	 * lines of printable ASCII, "" when unknown.  Filled by its writer
	 * (record) or by fold_read_svg_mem from an SVG's
	 * <metadata id="uniprof-flame-meta"> (the first input's wins); kept
	 * in a fixed buffer so it needs no free and survives every reset. */
	char meta[FOLD_META_MAX];

	/* The library of each name (fold_trie_set_lib): lib_of[name id] is
	 * the name id of its library + 1, 0 = unknown; ids >= lib_cap are
	 * unknown.  NULL until a library is set. */
	uint32_t *lib_of;
	uint32_t lib_cap;

	/* Source positions per node (fold/loc.c, fold_loc_*); NULL until
	 * the first one. */
	struct fold_locs *locs;
} fold_trie;

/* Appends "key: value\n" to t->meta (fold/embed.c) unless key is there
 * already (the first input's wins): control and non-ASCII bytes of value
 * become '?' (the text goes into XML as it is), a value is cut at 1000 bytes.  Returns 0, or -ENOSPC
 * when the line does not fit (nothing is added). */
int fold_meta_add(fold_trie *t, const char *key, const char *value);
/* Sets the library of name id `name` to lib[0..len) (interned in t).
 * Returns 0 or -ENOMEM. */
int fold_trie_set_lib(fold_trie *t, uint32_t name, const char *lib, size_t len);
/* The name id of the library of name id `name`, FOLD_NONE when unknown. */
uint32_t fold_trie_lib(const fold_trie *t, uint32_t name);
/* One library's share of a profile (fold/libshare.c): `lib` is its name
 * id, self and total its counts (a sample counted once in total however
 * often the library is on its stack). */
struct fold_lib_share {
	uint32_t lib;
	double self, total;
};
/* Every library of a finished trie into *out (malloc'd, the caller frees),
 * most self first, ties by lower name id; *n rows, none (NULL) when no
 * name has a library.  Returns 0 or -ENOMEM. */
int fold_lib_shares(const fold_trie *t, struct fold_lib_share **out, uint32_t *n);
/* The library table as text for an SVG (fold/embed.c): "NAME\tLIB\n"
 * lines, names and libraries escaped as in the uf-trie/1 block, for the
 * names of kept nodes only; returns 0, -ENOMEM or -EIO. */
int fold_libs_write(const fold_trie *t, FILE *out);
/* Reads such text into t (a broken line is skipped). */
int fold_libs_read(fold_trie *t, const char *text, size_t len);
/* A folded-text comment line `# key: "value"` (as cli writes t->meta)
 * into t->meta; other comments are ignored.  s[0..len) is one line. */
void fold_meta_from_comment(fold_trie *t, const char *s, size_t len);
/* The value of `key` in t->meta (borrowed, *len bytes, not NUL-ended),
 * NULL when absent. */
const char *fold_meta_get(const fold_trie *t, const char *key, size_t *len);

/* ---- source positions of frames (fold/loc.c) ------------------------ */

/* Each node may carry the source positions ("FILE:LINE") its samples map
 * to at that frame (the sampled PC's line for a leaf, the call site for a
 * caller), with a count each: record fills them from DWARF, the embedded
 * block of an SVG carries them (an optional "loc" section), tooltips show
 * the hottest.  Positions are interned apart from frame names. */
/* Interns a position (borrowed bytes); FOLD_NONE on OOM or when empty. */
uint32_t fold_loc_intern(fold_trie *t, const char *s, size_t len);
/* The bytes of position id `loc` (borrowed from t; needs t->locs). */
const char *fold_loc_str(const fold_trie *t, uint32_t loc, size_t *len);
/* Adds `count` samples of node at position `loc` (from fold_loc_intern).
 * Returns 0 or -ENOMEM. */
int fold_loc_add(fold_trie *t, uint32_t node, uint32_t loc, double count);
/* Iterates node's positions in no set order: prev FOLD_NONE gives the
 * first; returns an entry id to pass back, FOLD_NONE at the end. */
uint32_t fold_loc_next(const fold_trie *t, uint32_t node, uint32_t prev, uint32_t *loc,
		       double *count);
/* Node's first `max` positions, most samples first (ties by bytes), into
 * locs[] and counts[]; returns how many the node has in all. */
uint32_t fold_loc_top(const fold_trie *t, uint32_t node, uint32_t *locs, double *counts,
		      uint32_t max);
struct fold_locs;
void fold_locs_free(struct fold_locs *l);
/* The "loc" section of the embedded block (format in loc.c) for the
 * kept nodes: index[node] is its position in the block, UINT32_MAX (or
 * its parent's position) when pruned.  Returns 0, -ENOMEM or -EIO. */
int fold_locs_embed(const fold_trie *t, FILE *out, const uint32_t *index);
/* Reads the section from the text after the block's "end" (skipping a
 * "seq" section first); ids[k] is the trie node of block position k.
 * Returns 0 (also when there is no section), -EINVAL or -ENOMEM. */
int fold_locs_read(fold_trie *t, const char *text, size_t len, const uint32_t *ids, uint32_t nnodes);

/* Returns an owned empty trie (free with fold_trie_free), NULL on OOM. */
fold_trie *fold_trie_new(void);
/* Makes room for about `nodes` nodes up front (a hint: readers of big
 * files save the rehashes and copies of growing).  Returns 0 or -ENOMEM. */
int fold_trie_reserve(fold_trie *t, uint32_t nodes);
void fold_trie_free(fold_trie *t);

/* Interns `len` bytes (borrowed); returns the name id, FOLD_NONE on OOM
 * or when len > FOLD_MAX_NAME. */
uint32_t fold_trie_intern(fold_trie *t, const char *s, size_t len);
static inline const char *fold_trie_name(const fold_trie *t, uint32_t name_id, size_t *len)
{
	if (len)
		*len = t->nlen[name_id];
	return t->nbuf + t->noff[name_id];
}
static inline const char *fold_node_name(const fold_trie *t, uint32_t node, size_t *len)
{
	return fold_trie_name(t, t->name[node], len);
}

/* Finds or creates the child of `parent` named `name_id`; FOLD_NONE on OOM. */
uint32_t fold_trie_child(fold_trie *t, uint32_t parent, uint32_t name_id);
/* Looks the child up without creating it; FOLD_NONE when absent. */
uint32_t fold_trie_find(const fold_trie *t, uint32_t parent, uint32_t name_id);

/* Adds `count` samples at `node` (one-column input). */
int fold_trie_add(fold_trie *t, uint32_t node, double count);
/* Adds a differential line: BEFORE `before`, drawn AFTER `after`.
 * Turns the trie differential on first use. Returns 0 or -ENOMEM. */
int fold_trie_add2(fold_trie *t, uint32_t node, double before, double after);
static inline int fold_trie_is_diff(const fold_trie *t) { return t->base != NULL; }

/* Keep the order of additions (one record per fold_trie_add*) so a flame
 * chart can draw time order.  Memory then grows with input lines. */
void fold_trie_keep_sequence(fold_trie *t);

/* Computes totals and sibling entries (see the header comment).
 * Returns 0 or -ENOMEM. */
int fold_trie_finish(fold_trie *t);
static inline const uint32_t *fold_trie_entries(const fold_trie *t, uint32_t node, uint32_t *n)
{
	*n = t->eoff[node + 1] - t->eoff[node];
	return t->ent + t->eoff[node];
}

/* Frames from the root to `node` (the root's is 0): a walk up its parents. */
static inline uint32_t fold_trie_depth(const fold_trie *t, uint32_t node)
{
	uint32_t d = 0;
	for (; node != FOLD_ROOT; node = t->parent[node])
		d++;
	return d;
}

/* Adds every path of `src` into `dst` (both borrowed); -ENOMEM on failure. */
int fold_trie_merge(fold_trie *dst, const fold_trie *src);
/* Turns `after` into a differential whose BEFORE counts are `before`'s
 * self counts times `scale` (1, or total(after)/total(before) to compare
 * shares).  `after` must not be differential yet; `before` is borrowed.
 * Returns 0 or -ENOMEM. */
int fold_trie_diff_into(fold_trie *after, const fold_trie *before, double scale);

/* Checks the invariants above; returns 0 or the number of the broken one. */
int fold_trie_check(const fold_trie *t);

/* ---- format detection (fold/detect.c) -------------------------------- */

/* What an input is, told from its first bytes by fold_detect_format, the
 * one detector every reader and the CLI's input splitter use. */
enum fold_format {
	FOLD_FMT_FOLDED,   /* flamegraph.pl folded text (the default) */
	FOLD_FMT_SVG,      /* XML: first byte after BOM/whitespace is '<' */
	FOLD_FMT_MORE,     /* undecided: only BOM/whitespace yet, read more */
	FOLD_FMT_UNKNOWN,  /* FOLD_DETECT_MAX bytes of whitespace: refuse */
	FOLD_FMT_PERF,     /* `perf script` text (fold_perf_sniff) */
	FOLD_FMT_GZIP,     /* gzip (1f 8b): decompress, then detect again */
	FOLD_FMT_BINARY,   /* a NUL byte in the text that decides: refuse */
};
/* A caller never needs more than this many leading bytes to decide. */
#define FOLD_DETECT_MAX (1u << 20)

/* Detects the format of an input from its first `len` bytes (borrowed);
 * `eof` says they are the whole input.  FOLD_FMT_MORE asks for more
 * bytes (only when !eof and len < FOLD_DETECT_MAX); a longer prefix of
 * the same input never changes a decided answer. */
enum fold_format fold_detect_format(const void *buf, size_t len, int eof);
/* "folded", "SVG", ...: for messages. */
const char *fold_format_name(enum fold_format f);

/* ---- names in text formats (fold/name-escape.c) ---------------------- */

/* Folded text (and palette.map) cannot carry '\n' or ';' in a name: they
 * are written as "\xHH", and a backslash that starts "\xHH" in the name
 * as "\x5c"; readers decode every "\xHH".  See name-escape.c. */
/* Writes s[0..len) escaped into out (room for 4 * len bytes); returns
 * the escaped length. */
size_t fold_name_escape(char *out, const char *s, size_t len);
/* 1 when fold_name_escape would change s (a fast check for writers). */
int fold_name_needs_escape(const char *s, size_t len);
/* Decodes every "\xHH" of s[0..len) into out (room for len bytes; may be
 * s itself); returns the decoded length.  Readers call it on a frame
 * that holds a backslash. */
size_t fold_name_unescape(char *out, const char *s, size_t len);
/* 1 when a stack's last name ends in whitespace + [0-9.]+ (it would read
 * back as a count): the writer then ends the line's stack with ';', an
 * empty frame every reader drops. */
int fold_name_leaf_ambiguous(const char *s, size_t len);
/* Interns one frame of a folded line (borrowed), decoding "\xHH" first
 * when it holds a backslash: what every folded-text reader calls instead
 * of fold_trie_intern.  FOLD_NONE on OOM. */
uint32_t fold_intern_folded_frame(fold_trie *t, const char *f, size_t flen);

/* ---- readers --------------------------------------------------------- */

/* stackcollapse-perf.pl's options, same names and meanings. */
struct fold_perf_opts {
	int pid;              /* --pid: root frame "comm-PID" */
	int tid;              /* --tid: root frame "comm-PID/TID" */
	int kernel;           /* --kernel: kernel frames get "_[k]" */
	int jit;              /* --jit: /tmp/perf-PID.map frames get "_[j]" */
	int all;              /* --all: --kernel and --jit */
	int addrs;            /* --addrs: "[dso <addr>]" for unknown symbols */
	const char *event;    /* --event-filter; NULL: the first event seen */
};

struct fold_read_opts {
	int reverse;          /* flamegraph.pl --reverse: leaf first */
	const char *label;    /* name used in messages ("-" for stdin) */
	int force_perf;       /* read as `perf script` text whatever the content */
	const struct fold_perf_opts *perf; /* NULL: the script's defaults */
};

struct fold_read_stats {
	uint64_t lines;       /* lines read, blank ones included */
	uint64_t bad;         /* invalid lines skipped */
	char first_bad[300];  /* "FILE:LINE" of the first one */
	uint64_t first_bad_line; /* its line number within what this call read */
	uint64_t truncated;   /* stacks cut at FOLD_MAX_DEPTH */
	int approximate;      /* input was rebuilt from drawn geometry */
	char approx_why[256]; /* what was lost, when approximate */
	int embedded_pruned;  /* an SVG's embedded trie was pruned */
	int time_order;       /* an SVG's embedded data keeps a flame chart's time
				 order (read back only into a trie keeping a sequence) */
	char perf_event[64];  /* perf script: the event kept */
	uint64_t perf_other;  /* perf script: samples of other events skipped */
};

/* Reads flamegraph.pl folded text from fd (borrowed) into t.  Invalid
 * lines are counted in *st; only I/O and memory failures are errors. */
int fold_read_folded_fd(fold_trie *t, int fd, const struct fold_read_opts *o,
			struct fold_read_stats *st, struct uf_err *err);
/* Same, for the byte range [off, off+len) of a file read with pread(): a
 * range must start at a line start and end at a line end; line numbers
 * in *st count from the range's start. */
int fold_read_folded_range(fold_trie *t, int fd, uint64_t off, uint64_t len,
			   const struct fold_read_opts *o, struct fold_read_stats *st,
			   struct uf_err *err);
/* Same, from memory. */
int fold_read_folded_mem(fold_trie *t, const char *buf, size_t len,
			 const struct fold_read_opts *o, struct fold_read_stats *st,
			 struct uf_err *err);
/* Reads `perf script` text (fold/read-perf.c) from fd (borrowed), with
 * `plen` bytes already read from it placed first; collapses as
 * stackcollapse-perf.pl does with o->perf's options.  A big regular file
 * is read on two threads.  Bad lines are counted in *st. */
int fold_read_perf_fd(fold_trie *t, int fd, const char *prefix, size_t plen,
		      const struct fold_read_opts *o, struct fold_read_stats *st, struct uf_err *err);
int fold_read_perf_mem(fold_trie *t, const char *buf, size_t len, const struct fold_read_opts *o,
		       struct fold_read_stats *st, struct uf_err *err);
/* Whether the first `len` bytes of an input (the whole input when `eof`)
 * are `perf script` output: 1 yes, 0 no, -1 undecided (a line it needs
 * is not complete yet).  Used by fold_detect_format. */
int fold_perf_sniff(const char *buf, size_t len, int eof);
/* Reads any supported file ("-" = stdin): folded text, `perf script`
 * text, or an SVG written by uniprof-flame (lossless, from its embedded
 * trie); any of them gzip-compressed. */
int fold_read_path(fold_trie *t, const char *path, const struct fold_read_opts *o,
		   struct fold_read_stats *st, struct uf_err *err);

/* Reads two folded-text files into the empty trie t as one differential
 * (one sort of both files' lines, no per-file trie): the drawn counts are
 * AFTER's (BEFORE's when swap), the BEFORE counts the other file's, scaled
 * by total(drawn)/total(other) when normalize.  The same trie as reading
 * each and fold_trie_diff_into(), without building two.  Returns 1 when
 * it does not apply (stdin, or a file that is not folded text: an SVG,
 * gzip, perf script), so the caller reads the files one by one; 0; or <0
 * with *err ("no valid stacks" names the file).  st[0], st[1]: BEFORE's
 * and AFTER's reading statistics. */
int fold_read_diff_paths(fold_trie *t, const char *before, const char *after, int normalize,
			 int swap, struct fold_read_stats st[2], struct uf_err *err);

/* ---- writers --------------------------------------------------------- */

/* Writes folded lines in flamegraph.pl's sorted order, one per distinct
 * stack; two count columns for a differential trie. Needs finish().
 * Reads back as the same trie (see write-folded.c); returns 0, -ENOMEM,
 * -EIO, -EDOM (a stack ends in an empty name) or -ERANGE (a count
 * longer than FOLD_MAX_COUNT_CHARS). */
int fold_write_folded(const fold_trie *t, FILE *out);
/* One folded line by the same rules: the names of path[0..n) (node ids,
 * root first; n == 0 is the empty stack), then BEFORE (when non-NULL)
 * and AFTER.  For writers that choose their own line order (fold
 * --flamechart).  Returns 0, -ENOMEM, -EIO, -EDOM or -ERANGE. */
int fold_write_stack_line(const fold_trie *t, FILE *out, const uint32_t *path, uint32_t n,
			  const double *before, double after);
/* Formats a count as the shortest text that reads back exactly, never
 * with an exponent; returns its length, or -ERANGE when the exact text
 * does not fit in size - 1 bytes (buf then holds an approximation, for
 * display only).  Negative, NaN and infinite values print as "0". */
int fold_format_count(char *buf, size_t size, double v);
/* The longest count folded text carries (readers refuse longer ones). */
#define FOLD_MAX_COUNT_CHARS 63

/* ---- exports other tools read (write-pprof.c, write-speedscope.c) ---- */

struct fold_export_opts {
	const char *count_name;  /* the count's unit name: "samples" */
	double period_ns;        /* > 0: one sample stands for this many ns of
				    CPU (record's period); adds cpu/nanoseconds */
	const char *name;        /* the profile's name (speedscope title) */
};

/* Writes pprof's profile.proto, gzip-compressed: sample types
 * COUNT_NAME/count (and cpu/nanoseconds with period_ns), one sample per
 * distinct stack, functions and locations one per distinct name.  A
 * differential trie gets a second value, the BEFORE count
 * ("before_COUNT_NAME/count").  Counts are rounded to integers (pprof's
 * values are int64).  Needs finish().  Returns 0, -ENOMEM or -EIO. */
int fold_write_pprof(const fold_trie *t, const struct fold_export_opts *o, FILE *out);
/* Writes speedscope's JSON file format: one "sampled" profile over shared
 * frames (one frame per distinct name).  With a kept sequence the samples
 * are in input (time) order, else one per distinct stack in sorted order.
 * A differential trie gets two profiles, AFTER and BEFORE.  Names are
 * written as valid UTF-8 (invalid bytes become U+FFFD).  Needs finish(). */
int fold_write_speedscope(const fold_trie *t, const struct fold_export_opts *o, FILE *out);

/* The pprof builder behind fold_write_pprof, for writers that know more
 * than names (record: addresses, mappings, file:line).  Ids returned are
 * >= 1; 0 (or <0) means out of memory.  Strings are borrowed and copied.
 * Call sample_type first (up to 4), then add mappings, locations and
 * samples (location ids leaf first, one value per sample type). */
struct fold_pprof;
struct fold_pprof *fold_pprof_new(void);
void fold_pprof_free(struct fold_pprof *b);
int fold_pprof_sample_type(struct fold_pprof *b, const char *type, const char *unit);
int fold_pprof_period(struct fold_pprof *b, const char *type, const char *unit, int64_t period,
		      int64_t duration_ns);
int64_t fold_pprof_string(struct fold_pprof *b, const char *s, size_t len);
uint64_t fold_pprof_mapping(struct fold_pprof *b, uint64_t start, uint64_t limit, uint64_t offset,
			    const char *file, const char *build_id);
void fold_pprof_mapping_has_lines(struct fold_pprof *b, uint64_t id);
/* A location: deduplicated by (mapping, address) when address != 0, else
 * by its function (func, file). */
uint64_t fold_pprof_location(struct fold_pprof *b, uint64_t mapping, uint64_t address,
			     const char *func, size_t func_len, const char *file, int64_t line);
int fold_pprof_sample(struct fold_pprof *b, const uint64_t *loc_ids, size_t n, const int64_t *values);
/* Packs, gzips and writes the profile.  0 or -ENOMEM / -EIO. */
int fold_pprof_write(struct fold_pprof *b, FILE *out);

/* ---- embedding a trie in an SVG ------------------------------------- */

struct fold_embed_info {
	uint32_t nodes_total;   /* nodes in the trie */
	uint32_t nodes_written; /* nodes embedded (< total when pruned) */
	double min_total;       /* pruning threshold used (0 when full) */
	size_t bytes;           /* size of the block */
};

/* Writes the trie as printable ASCII with no XML-special byte, at most
 * about `budget` bytes (0 = unlimited): past it, subtrees whose total is
 * below a threshold are folded into their parent's self count.  Needs
 * finish().  Returns 0 or -EIO. */
int fold_embed_write(const fold_trie *t, FILE *out, size_t budget, struct fold_embed_info *info);
/* The same block in embed-pack.c's packed form before deflating (node
 * lines as columns); budget counts those bytes. */
int fold_embed_write_columns(const fold_trie *t, FILE *out, size_t budget, struct fold_embed_info *info);
/* The same, for a differential whose BEFORE counts the caller has summed
 * over each subtree (base_sums, borrowed: each node's base plus its
 * descendants', added from the last node to the first into its parent),
 * so they are summed once per render. */
int fold_embed_write_columns_base(const fold_trie *t, FILE *out, size_t budget,
				  const double *base_sums, struct fold_embed_info *info);
/* Parses a block written by fold_embed_write into t. */
int fold_embed_read(fold_trie *t, const char *text, size_t len, struct uf_err *err);

/* The block as an SVG carries it (embed-pack.c has the format): packed
 * columns, deflated, base64 in lines of FOLD_EMBED_PACK_LINE characters.
 * The SVG's <metadata> says so with data-encoding="FOLD_EMBED_ENCODING". */
#define FOLD_EMBED_ENCODING "pack-deflate-base64"
#define FOLD_EMBED_PACK_LINE 4096u
#define FOLD_EMBED_MAX_UNPACKED ((size_t)1 << 30)
/* text[0..len) (from fold_embed_write) -> *out (malloc'd, NUL-ended, *outlen
 * bytes without the NUL).  0, -ENOMEM, or -EINVAL for text that is not
 * a block fold_embed_write wrote. */
int fold_embed_pack(const char *text, size_t len, char **out, size_t *outlen);
/* Columns (fold_embed_write_columns) -> deflated, base64 (as above).
 * From FOLD_EMBED_SPLIT bytes on, deflated as two halves (embed-pack.c):
 * a caller with two threads deflates one half each with
 * fold_embed_deflate_part and joins them with fold_embed_encode_parts,
 * and gets the same bytes as fold_embed_encode. */
#define FOLD_EMBED_SPLIT ((size_t)256 << 10)
int fold_embed_encode(const void *columns, size_t len, char **out, size_t *outlen);
struct fold_zpart {
	uint8_t *z;      /* raw deflate, malloc'd */
	size_t len;
	uint32_t adler;  /* Adler-32 of the part's input */
	int rc;          /* 0 or -ENOMEM */
};
/* Raw-deflates columns[lo..hi), primed with what precedes lo; `last`
 * finishes the stream, else it ends on a byte boundary. */
void fold_embed_deflate_part(const void *columns, size_t lo, size_t hi, int last, struct fold_zpart *p);
/* Parts a and b (b's input lenb bytes) -> the block, as fold_embed_encode. */
int fold_embed_encode_parts(const struct fold_zpart *a, const struct fold_zpart *b, size_t lenb, char **out,
			    size_t *outlen);
/* The packed block -> the text it came from (malloc'd, NUL-ended); 0 or
 * -EINVAL (not base64, not a whole deflate stream, columns out of
 * bounds), -EFBIG (inflates past FOLD_EMBED_MAX_UNPACKED), -ENOMEM. */
int fold_embed_unpack(const char *b64, size_t len, char **text, size_t *tlen, struct uf_err *err);

#endif
