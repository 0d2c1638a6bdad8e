/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * fold/raw.h — uniprof's raw stack-trace format: a reader into a
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
 *      top.  There is no thread/vCPU or time field.
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
 *   Stacks are leaf first in the file and are added root first (or leaf
 *   first with fold_read_opts.reverse, like flamegraph.pl --reverse).
 *
 * Caps on untrusted input: FOLD_RAW_MAX_LINE bytes a line (longer lines
 * are skipped and counted bad), FOLD_MAX_NAME bytes a name (bad),
 * FOLD_MAX_DEPTH frames a stack (the outermost FOLD_MAX_DEPTH are kept;
 * counted in stats->truncated).  Memory grows with distinct stacks and
 * addresses cached, not with input size: input is streamed.
 */
#ifndef UF_FOLD_RAW_H
#define UF_FOLD_RAW_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "fold/fold.h"
#include "util/err.h"

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

/* ---- writer ---------------------------------------------------------- */

/* Writes the header: "#unikernel stack tracer: uniprof-flame\n"
 * "#tracing <what>\n\n" (`what` e.g. "pid 123"; no clock, so output is
 * reproducible).  Returns 0 or -EIO. */
int fold_raw_write_header(FILE *out, const char *what);
/* Writes one stack, addrs[0] the sampled PC (leaf), addrs[n-1] the
 * outermost return address, then "1" (complete) or "0" (the walk was cut
 * short) and a blank line.  Returns 0 or -EIO. */
int fold_raw_write_stack(FILE *out, const uint64_t *addrs, size_t n, int complete);

#endif
