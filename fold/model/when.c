/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * fold/model/when.c — when a sample was taken and what its thread was
 * doing (util/runstate.h): the cut by time and state that `--time` and
 * `--state` ask for, the pseudo-frame that sets a waiting sample apart,
 * per-state counts for the metadata, and each sequence entry's time and
 * state for the flame chart and, later, the viewer's heat map.
 *
 * Design.  The cut is applied by the readers as they add samples
 * (fold_trie_sample_keeps before the sample's path is built), not by
 * rebuilding a trie afterwards: a left-out sample then costs nothing and
 * leaves no empty node, and every reader (raw traces, perf script, the
 * sampler) honours it with one call.  Time 0 is the first sample that
 * carries a time, in input order, as FlameScope counts; the range is
 * half-open [from, to) so consecutive ranges split a profile exactly.
 *
 * A waiting sample ends in a pseudo-frame below its stack ("[blocked]",
 * "[runnable]", "[offline]"), the way off-CPU flame graphs mark waits:
 * the caller context stays visible (where the thread waits), the wait is
 * visibly apart from the code that ran, and running or unknown samples
 * keep their paths byte for byte, so every comparison with perf or
 * addr2line (on-CPU samples) stays true.  A root-level split was the
 * other choice; it would have moved every running stack one level down.
 *
 * Memory: 9 bytes per sequence entry (time, state), only while the
 * sequence is kept; nothing per sample otherwise.
 *
 * Invariants:
 *  1. seq_when_len <= seq_len; entries past it are unknown.
 *  2. state_count[] sums to what fold_trie_add_sample added; samples
 *     added by plain fold_trie_add are in no state count.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "fold/model/model.h"
#include "util/vec.h"

static int when_push(fold_trie *t, uint64_t t_ns, enum uf_runstate st);

void fold_trie_set_cut(fold_trie *t, const struct fold_cut *c)
{
	t->cut = *c;
}

int fold_trie_sample_keeps(fold_trie *t, uint64_t t_ns, enum uf_runstate st, double count)
{
	uint64_t rel = FOLD_T_UNKNOWN;
	if ((unsigned)st >= UF_RS_COUNT)
		st = UF_RS_UNKNOWN;
	t->samples_checked++;
	t->states_seen |= UF_RS_BIT(st);
	if (t_ns != FOLD_T_UNKNOWN) {
		if (!t->have_t0) {
			t->have_t0 = 1;
			t->t0_ns = t_ns;
		}
		t->timed_seen++;
		rel = t_ns >= t->t0_ns ? t_ns - t->t0_ns : 0;
	}
	int keep = 1;
	if (t->cut.states && !(t->cut.states & UF_RS_BIT(st)))
		keep = 0;
	if (t->cut.timed && (rel == FOLD_T_UNKNOWN || rel < t->cut.from_ns || rel >= t->cut.to_ns))
		keep = 0;
	if (!keep)
		t->cut_dropped += count;
	return keep;
}

const char *fold_state_frame(enum uf_runstate st, size_t *len)
{
	static const char *const frame[UF_RS_COUNT] = {
		[UF_RS_RUNNABLE] = "[runnable]",
		[UF_RS_BLOCKED] = "[blocked]",
		[UF_RS_OFFLINE] = "[offline]",
	};
	const char *f = (unsigned)st < UF_RS_COUNT ? frame[st] : NULL;
	if (f && len)
		*len = strlen(f);
	return f;
}

uint32_t fold_trie_state_leaf(fold_trie *t, uint32_t node, enum uf_runstate st)
{
	size_t len;
	const char *f = fold_state_frame(st, &len);
	if (!f || node == FOLD_NONE)
		return node;
	uint32_t nm = fold_trie_intern(t, f, len);
	return nm == FOLD_NONE ? FOLD_NONE : fold_trie_child(t, node, nm);
}

int fold_trie_add_sample(fold_trie *t, uint32_t node, double count, uint64_t t_ns,
			 enum uf_runstate st)
{
	if ((unsigned)st >= UF_RS_COUNT)
		st = UF_RS_UNKNOWN;
	if (t_ns != FOLD_T_UNKNOWN)
		t_ns = t_ns >= t->t0_ns ? t_ns - t->t0_ns : 0;
	if (t->keep_when && !t->keep_seq && (t_ns != FOLD_T_UNKNOWN || st != UF_RS_UNKNOWN))
		t->keep_seq = 1;
	int rc = fold_trie_add(t, node, count);
	if (rc < 0)
		return rc;
	t->state_count[st] += count;
	if (!t->keep_seq || (t_ns == FOLD_T_UNKNOWN && st == UF_RS_UNKNOWN && !t->seq_when_len))
		return 0;
	return when_push(t, t_ns, st);
}

/* Records the time and state of the last sequence entry, filling the
 * entries added without either as unknown (invariant 1). */
static int when_push(fold_trie *t, uint64_t t_ns, enum uf_runstate st)
{
	size_t need = t->seq_len, cap = t->seq_when_cap;
	if (uf_vec_grow(&t->seq_t_ns, &cap, need, sizeof *t->seq_t_ns) < 0)
		return -ENOMEM;
	cap = t->seq_when_cap;
	if (uf_vec_grow(&t->seq_state, &cap, need, sizeof *t->seq_state) < 0)
		return -ENOMEM;
	t->seq_when_cap = cap;
	for (; t->seq_when_len + 1 < need; t->seq_when_len++) {
		t->seq_t_ns[t->seq_when_len] = FOLD_T_UNKNOWN;
		t->seq_state[t->seq_when_len] = UF_RS_UNKNOWN;
	}
	t->seq_t_ns[need - 1] = t_ns;
	t->seq_state[need - 1] = (uint8_t)st;
	t->seq_when_len = need;
	return 0;
}

void fold_trie_when_merge(fold_trie *dst, const fold_trie *src)
{
	for (unsigned s = 0; s < UF_RS_COUNT; s++)
		dst->state_count[s] += src->state_count[s];
	dst->cut_dropped += src->cut_dropped;
	dst->timed_seen += src->timed_seen;
	dst->samples_checked += src->samples_checked;
	dst->states_seen |= src->states_seen;
}

int fold_trie_has_waits(const fold_trie *t)
{
	for (unsigned s = UF_RS_RUNNABLE; s < UF_RS_COUNT; s++)
		if (t->state_count[s] > 0)
			return 1;
	return 0;
}

size_t fold_trie_state_text(const fold_trie *t, char *buf, size_t size)
{
	size_t n = 0;
	buf[0] = 0;
	for (unsigned s = 0; s < UF_RS_COUNT; s++) {
		if (!(t->state_count[s] > 0))
			continue;
		int w = snprintf(buf + n, size - n, "%s%s %.15g", n ? ", " : "",
				 uf_runstate_name((enum uf_runstate)s), t->state_count[s]);
		if (w < 0 || (size_t)w >= size - n)
			break;
		n += (size_t)w;
	}
	for (unsigned s = UF_RS_RUNNING; s < UF_RS_COUNT; s++)
		if (t->state_count[s] > 0)
			return n;
	buf[0] = 0;
	return 0; /* only unknown: the input told no state */
	return n;
}

int fold_trie_state_meta(fold_trie *t)
{
	char v[256];
	if (!fold_trie_has_waits(t) || !fold_trie_state_text(t, v, sizeof v))
		return 0;
	return fold_meta_add(t, "states", v);
}
