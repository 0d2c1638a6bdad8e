/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * fold/in/in.h — the input room of fold/: every reader that turns a
 * profile on disk into a fold_trie (folded text, perf script, gzip,
 * SVG, uniprof raw traces) and the one format detector they share.
 *
 * Callers go through fold_read_path (detects the format, reads gzip on
 * a thread, picks a reader) or one reader directly.  Readers enforce
 * the caps fold/model/model.h names; bad lines are skipped and counted
 * in struct fold_read_stats, never fatal unless nothing was read.
 *
 * ---- uniprof raw traces (fold/in/read-raw.c) ----
 *
 * fold_trie and a writer, so traces from uniprof (and `--raw FILE` output
 * of uniprof-flame) work with existing scripts and with `fold --symbols`.
 *
 * The format, as sysml/uniprof's tracer writes it and its `symbolize`
 * tool reads it (one item per line, '\n' line ends):
 *
 *     #unikernel stack tracer using <interface> hypercall interface   header:
 *     #tracing domid 7 on 2017-05-04 10:00:00 CET (+0100)              '#' lines
 *                                                                      then blank
 *     0xffffffff8001a2b3     <- the sampled instruction pointer (leaf)
 *     0xffffffff8001c0de     <- return addresses, callee to caller
 *     0xffffffff80010042     <- ... the outermost frame last
 *     1                      <- end of one stack: "1" walk complete,
 *                               "0" walk stopped at unreadable memory
 *     (blank line)
 *     ...next stack (next vCPU, or next sample)...
 *
 *   1. An address is "%#"PRIx64: hex with "0x" (so address 0 would print
 *      as a bare "0"; our writer prints "0x0" to stay unambiguous).
 *   2. A stack may be empty ("1" alone: the frame pointer was 0).
 *   3. With uniprof's -s (nm table) or `symbolize`, a frame line is
 *      already a name: "name" (exact symbol address) or "name+0xOFF".
 *   4. '#' lines are comments anywhere; uniprof writes them only at the
 *      top.  uniprof has no thread/vCPU or time field.
 *   5. uniprof-flame's extension (record --raw since 0.9): a line
 *        #sample t_ns=12500000 state=blocked thread=4242
 *      before a stack's frames gives that stack's time (ns since the
 *      recording's first sample), run state (util/runstate.h's names)
 *      and backend thread id (Linux tid, vCPU number).  Each field is
 *      optional; unknown fields and states are ignored (read as
 *      unknown).  Being a '#' line, it is a comment to uniprof's own
 *      tools and to older readers, and a trace without it reads as
 *      before: no times, state unknown.  The one writer of the format is
 *      fold/out/write-raw.c (fold_raw_write_sample, fold/out/out.h).
 *
 * What the reader does with each line:
 *   - "0x<hex>" (1-16 digits): a frame address; the first frame of a
 *     stack is looked up exactly, the others as return addresses
 *     (resolve(..., is_return = 1) so a resolver can use addr - 1).
 *   - a line of decimal digits: ends the stack.  "0" counts 1 sample and
 *     the stack as broken; "N" >= 1 counts N samples (uniprof writes 1).
 *   - a blank line after frames with no terminator ends the stack too
 *     (count 1); so does end of input.
 *   - any other text: a frame name; a "+0xHEX" suffix is removed, so
 *     symbolized traces fold per function.
 *   - "#sample ...": the next stack's time and state; the trie's cut
 *     (--time, --state) applies to the stack, and a waiting stack ends
 *     in its state's pseudo-frame (fold_trie_state_leaf).
 *   Stacks are leaf first in the file and are added root first (or leaf
 *   first with fold_read_opts.reverse, like flamegraph.pl --reverse).
 *
 * Caps on untrusted input: FOLD_RAW_MAX_LINE bytes a line (longer lines
 * are skipped and counted bad), FOLD_MAX_NAME bytes a name (bad),
 * FOLD_MAX_DEPTH frames a stack (the outermost FOLD_MAX_DEPTH are kept;
 * counted in stats->truncated).  Memory grows with distinct stacks and
 * addresses cached, not with input size: input is streamed.
 */
#ifndef UF_FOLD_IN_H
#define UF_FOLD_IN_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "fold/model/model.h"
#include "util/err.h"

/* ---- format detection (fold/in/detect.c) ----------------------------- */

/* What an input is, told from its first bytes by fold_detect_format, the
 * one detector every reader uses. */
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
	int in_order;         /* folded text whose lines came in the sorted
				 reader's order: it did not sort them */
};

/* Reads flamegraph.pl folded text from fd (borrowed) into t.  Invalid
 * lines are counted in *st; only I/O and memory failures are errors. */
int fold_read_folded_fd(fold_trie *t, int fd, const struct fold_read_opts *o,
			struct fold_read_stats *st, struct uf_err *err);
/* Not for callers: the entry tests/fuzz/fuzz-folded.c drives (the CLI
 * reads whole files through fold_read_path).  Same, for the byte range
 * [off, off+len) of a file read with pread(): a
 * range must start at a line start and end at a line end; line numbers
 * in *st count from the range's start. */
int fold_read_folded_range(fold_trie *t, int fd, uint64_t off, uint64_t len,
			   const struct fold_read_opts *o, struct fold_read_stats *st,
			   struct uf_err *err);
/* Same, from memory. */
int fold_read_folded_mem(fold_trie *t, const char *buf, size_t len,
			 const struct fold_read_opts *o, struct fold_read_stats *st,
			 struct uf_err *err);
/* Reads `perf script` text (fold/in/read-perf.c) from fd (borrowed), with
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

/* ---- uniprof raw traces (fold/in/read-raw.c; format above) ---------- */

#define FOLD_RAW_MAX_LINE (64u * 1024u)

/* Address -> name.  `is_return` is 0 for a stack's first frame (the
 * sampled PC) and 1 for the others.  Returns a name (borrowed; it need
 * only stay valid until the next call) and its length in *len, or NULL
 * for "[unknown]".  fold/ keeps symtab/ out: the CLI passes a resolver
 * built on symtab_lookup / symtab_lookup_ret. */
typedef const char *(*fold_raw_resolve_fn)(void *ctx, uint64_t addr, int is_return,
					   size_t *len);

struct fold_raw_counts {
	uint64_t stacks;   /* stacks added (empty ones excluded) */
	uint64_t empty;    /* stacks with no frame, skipped */
	uint64_t broken;   /* stacks ended by "0" or by end of input */
	uint64_t frames;   /* frame lines read */
};

/* Reads raw traces from fd (borrowed) into t.  `resolve` may be NULL:
 * addresses then become names "0x..." as written.  Bad lines are counted
 * in *st (lines, bad, first_bad, truncated); *cnt may be NULL.  Errors
 * (I/O, out of memory) fill *err and return a negative errno. */
int fold_raw_read_fd(fold_trie *t, int fd, fold_raw_resolve_fn resolve, void *ctx,
		     const struct fold_read_opts *o, struct fold_read_stats *st,
		     struct fold_raw_counts *cnt, struct uf_err *err);
/* Same from memory (borrowed). */
int fold_raw_read_mem(fold_trie *t, const char *buf, size_t len, fold_raw_resolve_fn resolve,
		      void *ctx, const struct fold_read_opts *o, struct fold_read_stats *st,
		      struct fold_raw_counts *cnt, struct uf_err *err);
/* Opens `path` ("-" = stdin) and reads it; o->label is replaced by the
 * path in messages. */
int fold_raw_read_path(fold_trie *t, const char *path, fold_raw_resolve_fn resolve, void *ctx,
		       const struct fold_read_opts *o, struct fold_read_stats *st,
		       struct fold_raw_counts *cnt, struct uf_err *err);
/* 1 when the first bytes look like a raw trace (a '#' header line, or a
 * first line "0x<hex>"), else 0.  Folded text ("a;b 3") does not. */
int fold_raw_looks_like(const char *buf, size_t len);

#endif
