/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * fold/model/model.h — the model room of fold/: the call-path trie of
 * interned names, the hub every reader writes into and every writer and
 * renderer reads from (metadata, libraries, source positions, name
 * escaping and count text belong to it too).
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
#ifndef UF_FOLD_MODEL_H
#define UF_FOLD_MODEL_H

#include <stddef.h>
#include <stdint.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif
#include <stdio.h>
#include <string.h>

#include "util/err.h"
#include "util/hash.h"
#include "util/runstate.h"

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

	/* When and in which state each sample was taken (fold/model/when.c):
	 * the cut readers apply, per-state sample counts, and beside the
	 * sequence each entry's time and state (NULL until the first sample
	 * with either; shorter than seq_len means unknown past its end). */
	struct fold_cut {
		unsigned states;     /* UF_RS_BIT set kept; 0 = no state cut */
		int timed;           /* cut by time: [from_ns, to_ns) */
		uint64_t from_ns, to_ns; /* since the first timed sample; to UINT64_MAX = open */
	} cut;
	int keep_when;           /* turn the sequence on at the first sample
				    with a time or state (exports that carry them) */
	int have_t0;
	uint64_t t0_ns;          /* the first timed sample's own clock */
	double state_count[UF_RS_COUNT]; /* samples kept, by state */
	double cut_dropped;      /* samples the cut left out */
	uint64_t timed_seen;     /* samples that carried a time */
	uint64_t samples_checked; /* fold_trie_sample_keeps calls */
	unsigned states_seen;    /* UF_RS_BIT set of the states checked */
	uint64_t *seq_t_ns;      /* since t0; FOLD_T_UNKNOWN when not known */
	uint8_t *seq_state;      /* enum uf_runstate */
	size_t seq_when_len, seq_when_cap;

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

	/* Source positions per node (fold/model/loc.c, fold_loc_*); NULL until
	 * the first one. */
	struct fold_locs *locs;
} fold_trie;

/* Appends "key: value\n" to t->meta (fold/model/meta.c) unless key is there
 * already (the first input's wins): control and non-ASCII bytes of value
 * become '?' (the text goes into XML as it is), a value is cut at 1000 bytes.  Returns 0, or -ENOSPC
 * when the line does not fit (nothing is added). */
int fold_meta_add(fold_trie *t, const char *key, const char *value);
/* Sets the library of name id `name` to lib[0..len) (interned in t).
 * Returns 0 or -ENOMEM. */
int fold_trie_set_lib(fold_trie *t, uint32_t name, const char *lib, size_t len);
/* The name id of the library of name id `name`, FOLD_NONE when unknown. */
uint32_t fold_trie_lib(const fold_trie *t, uint32_t name);
/* One library's share of a profile (fold/model/libshare.c): `lib` is its name
 * id, self and total its counts (a sample counted once in total however
 * often the library is on its stack). */
struct fold_lib_share {
	uint32_t lib;
	double self, total;
};
/* Every library of a finished trie into *out (malloc'd, the caller frees),
 * most self first, ties by library name; *n rows, none (NULL) when no
 * name has a library.  Returns 0 or -ENOMEM. */
int fold_lib_shares(const fold_trie *t, struct fold_lib_share **out, uint32_t *n);
/* A folded-text comment line `# key: "value"` (as cli writes t->meta)
 * into t->meta; other comments are ignored.  s[0..len) is one line. */
void fold_meta_from_comment(fold_trie *t, const char *s, size_t len);
/* The value of `key` in t->meta (borrowed, *len bytes, not NUL-ended),
 * NULL when absent. */
const char *fold_meta_get(const fold_trie *t, const char *key, size_t *len);

/* ---- source positions of frames (fold/model/loc.c) ------------------------ */

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
/* The "pos" section of the embedded block (format in loc.c) for the
 * kept nodes: index[node] is its position in the block, UINT32_MAX (or
 * its parent's position) when pruned.  Returns 0, -ENOMEM or -EIO. */
int fold_locs_embed(const fold_trie *t, FILE *out, const uint32_t *index);
/* Reads the section whose header line starts `text` ("pos", or "loc" as
 * older blocks have it); ids[k] is the trie node of block position k.
 * Returns 0 (also when text starts no such section), -EINVAL or -ENOMEM. */
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

/* ---- when and in which state (fold/model/when.c) ------------------------ */

#define FOLD_T_UNKNOWN UINT64_MAX

/* Keep (node, count, time, state) per sample in input order for inputs
 * that carry times or states (the sequence, turned on at the first such
 * sample, so a folded input keeps its merged, sorted reading).  For the
 * exports that write per-sample times and states (pprof, speedscope). */
static inline void fold_trie_keep_when(fold_trie *t) { t->keep_when = 1; }
/* Sets the cut readers apply from now on (fold_trie_sample_keeps). */
void fold_trie_set_cut(fold_trie *t, const struct fold_cut *c);
static inline int fold_trie_has_cut(const fold_trie *t) { return t->cut.states || t->cut.timed; }
/* Whether a sample taken at `t_ns` on its input's own clock
 * (FOLD_T_UNKNOWN: no time) in state `st`, weighing `count`, passes the
 * cut: 1 keep, 0 leave out (counted in t->cut_dropped).  The first timed
 * sample fixes t0, so times are measured from it.  Readers call it before
 * building the sample's path, so a left-out sample leaves no node. */
int fold_trie_sample_keeps(fold_trie *t, uint64_t t_ns, enum uf_runstate st, double count);
/* The node a sample in state `st` ends at below its stack's last frame
 * `node`: a pseudo-frame "[runnable]", "[blocked]" or "[offline]" for a
 * waiting or offline sample (set apart, as off-CPU flame graphs do),
 * `node` itself for running and unknown ones.  FOLD_NONE on OOM. */
uint32_t fold_trie_state_leaf(fold_trie *t, uint32_t node, enum uf_runstate st);
/* The pseudo-frame name of state `st` (NULL for running and unknown). */
const char *fold_state_frame(enum uf_runstate st, size_t *len);
/* Adds `count` samples at `node` like fold_trie_add, and counts them in
 * t->state_count; with the sequence kept, the entry keeps its time
 * (ns since t0) and state.  `t_ns` is on the input's own clock, as
 * given to fold_trie_sample_keeps, which must be called first (it fixes
 * t0 and applies the cut). */
int fold_trie_add_sample(fold_trie *t, uint32_t node, double count, uint64_t t_ns,
			 enum uf_runstate st);
/* Sequence entry i's time since t0 (FOLD_T_UNKNOWN) and state. */
static inline uint64_t fold_seq_t_ns(const fold_trie *t, size_t i)
{
	return i < t->seq_when_len ? t->seq_t_ns[i] : FOLD_T_UNKNOWN;
}
static inline enum uf_runstate fold_seq_state(const fold_trie *t, size_t i)
{
	return i < t->seq_when_len ? (enum uf_runstate)t->seq_state[i] : UF_RS_UNKNOWN;
}
/* Samples added by fold_trie_add_sample (all states). */
static inline double fold_trie_kept(const fold_trie *t)
{
	double n = 0;
	for (unsigned s = 0; s < UF_RS_COUNT; s++)
		n += t->state_count[s];
	return n;
}
/* Whether a sample with a known state was checked (kept or not). */
static inline int fold_trie_has_states(const fold_trie *t)
{
	return (t->states_seen & ~UF_RS_BIT(UF_RS_UNKNOWN)) != 0;
}
/* Adds src's per-state counts and sample tallies into dst (after
 * fold_trie_merge of two halves of one input; the sequence is not merged). */
void fold_trie_when_merge(fold_trie *dst, const fold_trie *src);
/* Whether some sample was set apart (a state other than running and
 * unknown), i.e. whether the input told states apart. */
int fold_trie_has_waits(const fold_trie *t);
/* "running 350, blocked 650" (states with samples, in enum order) into
 * buf; 0 when no sample had a known state. */
size_t fold_trie_state_text(const fold_trie *t, char *buf, size_t size);
/* Adds the "states" metadata line when fold_trie_has_waits(). */
int fold_trie_state_meta(fold_trie *t);

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

/* ---- names in text formats (fold/model/name-escape.c) ---------------------- */

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

/* ---- counts as text (fold/model/count.c) ----------------------------- */

/* Formats a count as the shortest text that reads back exactly, never
 * with an exponent; returns its length, or -ERANGE when the exact text
 * does not fit in size - 1 bytes (buf then holds an approximation, for
 * display only).  Negative, NaN and infinite values print as "0". */
int fold_format_count(char *buf, size_t size, double v);
/* The longest count folded text carries (readers refuse longer ones). */
#define FOLD_MAX_COUNT_CHARS 63

/* ---- callers and callees of one function (fold/model/sandwich.c) ----- */

enum fold_half { FOLD_CALLERS, FOLD_CALLEES };

/* Makes *out (owned; fold_trie_free) the callers (inverted: NAME;caller;
 * its caller;...) or the callees (NAME;callee;...) of every frame named
 * NAME (or NAME plus a "_[x]" annotation), each sample counted once at its
 * outermost such frame.  Returns 0, -ENOENT when no frame has that name,
 * -E2BIG past the callers' node cap (16 x src's nodes + 1M), or -ENOMEM. */
int fold_sandwich(const fold_trie *src, const char *name, size_t len, enum fold_half half, fold_trie **out);

/* ---- views that rebuild a whole trie (fold/model/rewrite.c) ----------- */

/* The byte record's resolver puts between a frame and the functions
 * inlined at its address (--inline); never in a symbol name. */
#define FOLD_INLINE_SEP '\x1f'
/* Each borrows t (finished) and sets *out to an owned, finished trie with
 * t's metadata and every sample of t (free with fold_trie_free); returns
 * 0, or -ENOMEM with *out untouched.
 *  by_lib: each frame named after its library (frames without one keep
 *    their name), consecutive frames of one library merged; each library
 *    is its own library.
 *  inline: a name holding FOLD_INLINE_SEP becomes one frame per part (a
 *    name's library goes to every part, a source position's parts to the
 *    matching frames).
 *  chain: flamegraph.pl's --colors chain stacks (cut at "--", the waker
 *    parts' frames marked "_[w]", a "--" leaf where there is no cut); a
 *    kept sequence (flame chart) is rewritten in order. */
int fold_rewrite_by_lib(const fold_trie *t, fold_trie **out);
int fold_rewrite_inline(const fold_trie *t, fold_trie **out);
int fold_rewrite_chain(const fold_trie *t, fold_trie **out);
/* `--state`/`--on-cpu` on an input that carries no per-sample state but
 * its waits' pseudo-frames (folded text, an SVG without a `time` section):
 * a stack ending in "[runnable]", "[blocked]" or "[offline]" is in that
 * state, any other is running.  Keeps the stacks whose state is in
 * `states` (a UF_RS_BIT set), with their libraries and source positions;
 * out's state_count holds the kept samples per state, its `states:`
 * metadata line is rewritten, t->cut_dropped's tally goes to out.
 * -ENOENT when t has neither a pseudo-frame nor a `states:` line (its
 * states are unknown, nothing to cut by), -ENOMEM.  t must be finished. */
int fold_rewrite_state_frames(const fold_trie *t, unsigned states, fold_trie **out);
/* t without the stacks that hold no sample (what a cut of an SVG's timed
 * samples leaves: its tree is read before its samples), with libraries,
 * positions and metadata.  Not for a kept sequence (t->keep_seq).  0 or
 * -ENOMEM; t must be finished. */
int fold_rewrite_drop_empty(const fold_trie *t, fold_trie **out);

/* ---- building a trie in bulk (fold/in/sorted.c fills the arrays itself) ---- */

/* Makes room for `nodes` nodes in every node array (no index slots: for
 * the sorted reader, which fills the arrays itself).  Returns 0 or -ENOMEM. */
int fold_trie_grow_nodes(fold_trie *t, uint32_t nodes);
/* Keeps rank (owned; fold_sort_names' ranks of t's names as they are now)
 * for fold_trie_finish, which would otherwise sort the names again. */
void fold_trie_keep_ranks(fold_trie *t, uint32_t *rank);
/* Turns the trie differential: BEFORE counts start equal to the drawn
 * ones.  Returns 0 or -ENOMEM. */
int fold_trie_make_diff(fold_trie *t);
/* The name table's hash is util/hash.h's keyed uf_hash_bytes(); a
 * scanner can hash a frame while it looks for the frame's end (sorted.c)
 * with uf_hash_start/step/final and get the value fold_trie_intern
 * computes. */
static inline uint64_t fold_name_hash(const char *p, size_t len)
{
	return uf_hash_bytes(p, len);
}
/* fold_trie_intern with the name's fold_name_hash() already known. */
uint32_t fold_trie_intern_h(fold_trie *t, const char *s, size_t len, uint64_t h);
/* map[i - lo] = t's id of u's name i for i in [lo, hi), FOLD_NONE where t
 * has no such name; t and u are only read, so two threads may look up
 * two ranges at once (sorted.c's merge of a second index lane's names).
 * In batches: hashes and slots, then records, fetched ahead. */
void fold_trie_lookup_names(const fold_trie *t, const fold_trie *u, uint32_t lo, uint32_t hi,
			    uint32_t *map);

/* ---- sorting keys: names, stacks of name ids (fold/model/keysort.c) ---- */

/* One key: p[0 .. len) units (a name's bytes, a stack's name ids). */
struct fold_key {
	uint64_t key;        /* the sort's scratch (the chunk being sorted on);
				the caller's again after the sort */
	const void *p;       /* the units, borrowed */
	uint32_t len;        /* units */
	uint32_t idx;        /* the caller's: which name or line */
};
/* How keys are cut into 64-bit chunks, compared as unsigned integers:
 * chunk c holds units c * per_chunk .. (c + 1) * per_chunk - 1.  fill
 * sets k[i].key to chunk c of key i for i in [0, m), so that chunks
 * compare as their units do and (chunk & end_mask) == 0 exactly when the
 * chunk's last unit is past the key's end (a prefix sorts first).  The
 * sort calls fill once per group of keys, never per key: its per-key
 * loop is the caller's own, inlined. */
struct fold_key_chunks {
	void (*fill)(const struct fold_key_chunks *ch, struct fold_key *k, size_t m, uint32_t c);
	const void *ctx;     /* fill's (the sorted reader: names' ranks) */
	uint32_t unit;       /* bytes a unit: 1 (names), 4 (name ids) */
	uint32_t per_chunk;  /* units a chunk */
	uint64_t end_mask;
};
/* Sorts k[0..n) (p, len, idx set) stably in the order of their unit
 * sequences; tmp (n keys, the caller's) is scratch.  Runs on two threads
 * from 20000 keys.  Cannot fail (a group stack it cannot grow becomes
 * recursion). */
void fold_sort_keys(const struct fold_key_chunks *ch, struct fold_key *k, struct fold_key *tmp,
		    size_t n);
/* rank[2*name + t] = position of name + (t ? ';' : ' ') in byte order,
 * a prefix first (flamegraph.pl's sort of whole lines, per sibling);
 * rank has 2 * nnames entries.  Returns 0 or -ENOMEM.  fold_trie_finish
 * calls it; the sorted reader ranks its names with it. */
int fold_sort_names(const fold_trie *t, uint32_t *rank);

/* Length of the common prefix of a and b (n bytes each): 32 at a time
 * with SSE2 (x86-64's baseline; lines of a real capture share ~900 bytes
 * with the one before, and 8 at a time this was 9 % of the
 * instructions of rendering FlameGraph's example), then 8, then 1 (the folded readers compare each
 * line with the one before it; the key sort skips the chunks a group
 * shares). */
static inline size_t fold_common_prefix(const char *a, const char *b, size_t n)
{
	size_t i = 0;
#ifdef __SSE2__
	for (; i + 32 <= n; i += 32) {
		__m128i a0 = _mm_loadu_si128((const void *)(a + i)), b0 = _mm_loadu_si128((const void *)(b + i));
		__m128i a1 = _mm_loadu_si128((const void *)(a + i + 16)), b1 = _mm_loadu_si128((const void *)(b + i + 16));
		uint32_t eq = (uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(a0, b0)) |
			      (uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(a1, b1)) << 16;
		if (eq != 0xffffffffu)
			return i + (size_t)__builtin_ctz(~eq); /* first differing byte */
	}
#endif
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	for (; i + 8 <= n; i += 8) {
		uint64_t x, y;
		memcpy(&x, a + i, 8);
		memcpy(&y, b + i, 8);
		if (x != y)
			return i + (size_t)__builtin_ctzll(x ^ y) / 8; /* first differing byte */
	}
#endif
	while (i < n && a[i] == b[i])
		i++;
	return i;
}

#endif
