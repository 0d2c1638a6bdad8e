/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * fold/out/out.h — the output room of fold/: writers that turn a
 * finished fold_trie into files: folded text (flamegraph.pl order,
 * the inverse of the folded reader), pprof (protobuf, gzipped) and
 * speedscope JSON, plus the pprof builder record uses for addresses.
 *
 * Writers need fold_trie_finish() first; they return 0 or a negative
 * errno and never print.  The count text they share
 * (fold_format_count) is the model's (fold/model/model.h).
 */
#ifndef UF_FOLD_OUT_H
#define UF_FOLD_OUT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "fold/model/model.h"
#include "util/err.h"

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
/* ---- uniprof raw traces (fold/out/write-raw.c; format in fold/in/in.h) */

/* What is known of one raw-trace sample; FOLD_T_UNKNOWN, UF_RS_UNKNOWN
 * and FOLD_RAW_NO_THREAD leave a field out. */
#define FOLD_RAW_NO_THREAD UINT64_MAX
struct fold_raw_sample {
	uint64_t t_ns;            /* since the recording's first sample */
	enum uf_runstate state;
	uint64_t thread;          /* backend thread id */
};

/* Writes the header: "#unikernel stack tracer: uniprof-flame\n"
 * "#tracing <what>\n\n" (`what` e.g. "pid 123"; no clock, so output is
 * reproducible).  Returns 0 or -EIO. */
int fold_raw_write_header(FILE *out, const char *what);
/* Writes one stack: a "#sample" line with the fields known in *s (none
 * when s is NULL or nothing is known), then addrs[0] the sampled PC
 * (leaf) to addrs[n-1] the outermost return address, then "1"
 * (complete) or "0" (the walk was cut short) and a blank line.  Returns
 * 0 or -EIO. */
int fold_raw_write_sample(FILE *out, const struct fold_raw_sample *s, const uint64_t *addrs,
			  size_t n, int complete);
/* The same without time, state or thread (uniprof's own format). */
int fold_raw_write_stack(FILE *out, const uint64_t *addrs, size_t n, int complete);

/* ---- exports other tools read (fold/out/write-pprof.c, write-speedscope.c) */

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

#endif
