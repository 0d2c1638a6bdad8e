/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * sampler/sampler.c — one recording: threads, (thread, stack) counts, the
 * per-sample sequence and the duration histograms.
 *
 * A sample is counted in an open-addressing table keyed by
 * (run state, thread index, stack id), so memory grows with distinct
 * keys, not with samples (a thread that alternates between running and
 * blocked in the same stack makes two keys); the 16-byte-per-sample sequence exists only when asked for.
 * Trade-off: per-thread and merged graphs come from the same counts at
 * the price of one extra table lookup per recorded stack.
 *
 * Invariants:
 *  1. pair_count[i] == 0 marks an empty slot; an occupied slot counts >= 1.
 *  2. The pair table is at most half full; its size is a power of two.
 *  3. Thread indices are dense; a backend id maps to exactly one index.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "sampler/sampler.h"
#include "util/hash.h"
#include "util/vec.h"

static int64_t thread_index(struct sampler *s, uint32_t tid);
static int pair_add(struct sampler *s, uint64_t key);
static int pairs_grow(struct sampler *s);

void sampler_init(struct sampler *s, int keep_sequence)
{
	memset(s, 0, sizeof *s);
	sampler_stackset_init(&s->set);
	s->keep_sequence = keep_sequence;
}

void sampler_release(struct sampler *s)
{
	sampler_stackset_release(&s->set);
	free(s->pair_key);
	free(s->pair_count);
	free(s->threads);
	free(s->seq);
	memset(s, 0, sizeof *s);
}

int sampler_record(struct sampler *s, uint32_t tid, uint64_t t_ns, const uint64_t *pcs, size_t n)
{
	return sampler_record_in(s, tid, t_ns, UF_RS_UNKNOWN, pcs, n);
}

int sampler_record_in(struct sampler *s, uint32_t tid, uint64_t t_ns, enum uf_runstate state,
		      const uint64_t *pcs, size_t n)
{
	if ((unsigned)state >= UF_RS_COUNT)
		state = UF_RS_UNKNOWN;
	int64_t ti = thread_index(s, tid);
	if (ti < 0)
		return (int)ti;
	int64_t id = sampler_stackset_add(&s->set, pcs, n);
	if (id < 0)
		return (int)id;
	int rc = pair_add(s, sampler_key((uint32_t)ti, state, (uint32_t)id));
	if (rc < 0)
		return rc;
	if (s->keep_sequence) {
		if (uf_vec_grow(&s->seq, &s->seq_cap, s->seq_len + 1, sizeof *s->seq) < 0)
			return -ENOMEM;
		s->seq[s->seq_len++] = (struct sampler_event){ t_ns, (uint32_t)ti, (uint32_t)state,
							      (uint32_t)id };
	}
	s->stats.thread_samples++;
	s->stats.state_samples[state]++;
	return 0;
}

void sampler_hist_add(struct sampler_hist *h, uint64_t ns)
{
	unsigned b;
	if (ns < SAMPLER_HIST_SUB) {
		b = (unsigned)ns;
	} else {
		unsigned e = 63 - (unsigned)__builtin_clzll(ns);
		b = (e - 4) * SAMPLER_HIST_SUB + (unsigned)((ns >> (e - 5)) - SAMPLER_HIST_SUB);
	}
	h->b[b]++;
	h->n++;
	h->sum_ns += ns;
	if (ns > h->max_ns)
		h->max_ns = ns;
}

uint64_t sampler_hist_quantile(const struct sampler_hist *h, double q)
{
	uint64_t seen = 0;
	if (!h->n)
		return 0;
	uint64_t rank = (uint64_t)(q * (double)h->n + 0.999999);
	if (rank < 1)
		rank = 1;
	for (unsigned b = 0; b < SAMPLER_HIST_BUCKETS; b++) {
		seen += h->b[b];
		if (seen < rank)
			continue;
		if (b < SAMPLER_HIST_SUB)
			return b;
		unsigned e = b / SAMPLER_HIST_SUB + 4, m = b % SAMPLER_HIST_SUB;
		uint64_t lo = (uint64_t)(SAMPLER_HIST_SUB + m) << (e - 5);
		uint64_t mid = lo + ((1ull << (e - 5)) >> 1);
		return mid < h->max_ns ? mid : h->max_ns;
	}
	return h->max_ns;
}

/* Index of backend thread `tid`, added on first sight.  Linear search from
 * the most recent hit: threads come in the same order every round. */
static int64_t thread_index(struct sampler *s, uint32_t tid)
{
	for (uint32_t k = 0; k < s->nthreads; k++) {
		uint32_t i = (s->thread_hint + k) % s->nthreads;
		if (s->threads[i].id == tid) {
			s->thread_hint = i + 1;
			return i;
		}
	}
	if (s->nthreads >= SAMPLER_MAX_THREADS)
		return -ENOMEM;
	if (uf_vec_grow(&s->threads, &s->threads_cap, (size_t)s->nthreads + 1,
			sizeof *s->threads) < 0)
		return -ENOMEM;
	s->threads[s->nthreads].id = tid;
	s->thread_hint = s->nthreads + 1;
	return s->nthreads++;
}

static int pair_add(struct sampler *s, uint64_t key)
{
	if (((size_t)s->npairs + 1) * 2 > s->pairs_cap && pairs_grow(s) < 0)
		return -ENOMEM;
	size_t mask = s->pairs_cap - 1, j = uf_hash_u64(key) & mask;
	while (s->pair_count[j] && s->pair_key[j] != key)
		j = (j + 1) & mask;
	if (!s->pair_count[j]) {
		s->pair_key[j] = key;
		s->npairs++;
	}
	s->pair_count[j]++;
	return 0;
}

static int pairs_grow(struct sampler *s)
{
	size_t ncap = s->pairs_cap ? s->pairs_cap * 2 : 64;
	uint64_t *key = calloc(ncap, sizeof *key), *count = calloc(ncap, sizeof *count);
	if (!key || !count) {
		free(key);
		free(count);
		return -ENOMEM;
	}
	for (size_t i = 0; i < s->pairs_cap; i++) {
		if (!s->pair_count[i])
			continue;
		size_t j = uf_hash_u64(s->pair_key[i]) & (ncap - 1);
		while (count[j])
			j = (j + 1) & (ncap - 1);
		key[j] = s->pair_key[i];
		count[j] = s->pair_count[i];
	}
	free(s->pair_key);
	free(s->pair_count);
	s->pair_key = key;
	s->pair_count = count;
	s->pairs_cap = ncap;
	return 0;
}
