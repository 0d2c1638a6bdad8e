/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * util/split2.h — the one way work is split in two: run f on two parts,
 * the second on a thread of its own when the work pays for one, else
 * both here, one after the other.
 *
 * Why one helper: the same ten lines (create, run the first part here,
 * join, or run the second part inline when no thread could be made)
 * were written out separately in every phase that splits (issue 29), each
 * with its own idea of "big enough".  Here they are written once, with
 * the rule for small inputs.
 *
 * The small-input rule: a thread costs its creation, a join and a cold
 * cache on the second core, tens of microseconds, and a process that
 * starts a thread pays for its stack and arena as well; a small input
 * (the 646 KB perf capture of FlameGraph's examples: 4 ms for a whole
 * render, start-up included) must not.  So a split is worth it from
 * UF_SPLIT2_MIN_BYTES of input text, or from UF_SPLIT2_MIN_ITEMS items
 * (lines, frames, nodes) of per-item work; a phase whose items are
 * cheaper may ask for more, never for less.
 *
 * The second part's thread is a part in util/thread.h's sense
 * (uf_thread_start_part): on a two-CPU machine, a thread that already
 * has a part beside it on the other CPU runs both halves itself rather
 * than put a third thread on two CPUs.
 *
 * Invariants:
 *  1. Both parts have run when uf_split2_run() returns, whatever happened
 *     (a failed or declined thread start runs the second part here).
 *  2. The parts must not touch the same bytes: the caller splits its data;
 *     which thread ran which part never changes a result.
 *  3. Never prints, never exits; no allocation of its own.
 */
#ifndef UF_UTIL_SPLIT2_H
#define UF_UTIL_SPLIT2_H

#include <stddef.h>

/* Input text from which reading it on two threads pays (1 MiB). */
#define UF_SPLIT2_MIN_BYTES (1u << 20)
/* Items (lines, frames, nodes) from which a second thread pays. */
#define UF_SPLIT2_MIN_ITEMS 20000u

typedef void *(*uf_split2_fn)(void *part);

/* Runs fa(a) on the calling thread and fb(b) on a second one when
 * `worth` (the caller's size test: uf_split2_worth()), else fa(a) then
 * fb(b) here.  Returns when both are done: 1 when a thread ran, 0 when
 * both ran here.  The parts are borrowed. */
int uf_split2_run(uf_split2_fn fa, void *a, uf_split2_fn fb, void *b, int worth);

/* The same function on both parts. */
static inline int uf_split2(uf_split2_fn f, void *a, void *b, int worth)
{
	return uf_split2_run(f, a, f, b, worth);
}

/* Is `n` units of work at least `min` (UF_SPLIT2_MIN_BYTES,
 * UF_SPLIT2_MIN_ITEMS or a phase's own, larger, figure)? */
static inline int uf_split2_worth(size_t n, size_t min)
{
	return n >= min;
}

#endif
