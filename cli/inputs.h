/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * cli/inputs.h — reading the input files of render, fold and diff into
 * one trie, with the warnings a user needs (bad lines once, with the
 * first FILE:LINE; truncated stacks; pruned embedded data).
 */
#ifndef UF_CLI_INPUTS_H
#define UF_CLI_INPUTS_H

#include "fold/in/in.h"
#include "util/err.h"

/* Reads paths[0..n) ("-" = stdin; n == 0 reads stdin) into *tp and calls
 * fold_trie_finish.  No valid stack at all is an error (UF_EINPUT).  A
 * --state cut of inputs without per-sample states (folded text) replaces
 * *tp by its cut by the waits' pseudo-frames (fold_rewrite_state_frames). */
/* `io` (borrowed; NULL: the defaults) says how `perf script` text is read. */
struct cli_io_opts;
int cli_read_inputs(fold_trie **tp, char **paths, int n, int reverse, const struct cli_io_opts *io,
		    struct uf_err *err);
/* After reading with a --time/--state cut: an error (UF_EINPUT, naming
 * `what` and why) when the cut left no sample. */
int cli_cut_check(fold_trie *t, const char *what, struct uf_err *err);
/* Warns what reading skipped: invalid lines (how many, the first
 * FILE:LINE) and stacks cut at FOLD_MAX_DEPTH. */
void cli_warn_read_stats(const struct fold_read_stats *st);

/* The end of render's and diff's trie, the SVG already renamed into
 * place.  The release build (UF_EXIT_FREES=0, which the Makefile sets for
 * build/rel only) leaves it to the exit, which drops the pages anyway:
 * freeing it trimmed the heap top, splitting and unmapping the huge pages
 * of util/bigalloc.h's uf_heap_thp just before exit_mmap would drop them
 * whole.  Every other build (ASan, unit, fuzz) frees it, so leak checks
 * still see every allocation released. */
#ifndef UF_EXIT_FREES
#define UF_EXIT_FREES 1
#endif
static inline void cli_trie_done(fold_trie *t)
{
	if (UF_EXIT_FREES)
		fold_trie_free(t);
	else
		(void)t;
}



/* Reads BEFORE and AFTER (in parallel: two cores, two files) and returns
 * in *out an owned differential trie: widths from AFTER and BEFORE as the
 * base, or the roles swapped when `swap` (diff --negate).  With
 * `normalize`, BEFORE is scaled to AFTER's total, so shares are compared
 * exactly.  Finished; free with fold_trie_free. */
int cli_read_diff(const char *before, const char *after, int normalize, int swap,
		  const struct cli_io_opts *io, fold_trie **out, struct uf_err *err);
#endif
