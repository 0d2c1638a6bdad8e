/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * sampler/replay.c — the replay target of sampler/replay.h.
 *
 * Trade-off: reads walk the region list linearly; test images have a
 * handful of regions, and simplicity makes the double obviously right.
 *
 * Invariants: see replay.h.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "sampler/replay.h"

static int r_stop(struct uf_target *t, struct uf_err *err);
static int r_resume(struct uf_target *t, struct uf_err *err);
static int r_threads(struct uf_target *t, uint32_t *ids, size_t max, size_t *n,
		     struct uf_err *err);
static int r_regs(struct uf_target *t, uint32_t id, struct uf_regs *regs, struct uf_err *err);
static ssize_t r_read(struct uf_target *t, uint32_t id, uint64_t addr, void *buf, size_t len,
		      struct uf_err *err);
static void r_detach(struct uf_target *t);
static int r_runstate(struct uf_target *t, uint32_t id, enum uf_runstate *state, uint64_t *run_ns,
		      struct uf_err *err);
static long round_thread(struct replay_target *r, uint32_t id, const struct replay_round **rd,
			 struct uf_err *err);

static const struct uf_target_ops replay_ops = {
	.name = "replay",
	.stop = r_stop,
	.resume = r_resume,
	.threads = r_threads,
	.regs = r_regs,
	.read = r_read,
	.detach = r_detach,
};

/* The same target when its rounds carry run states. */
static const struct uf_target_ops replay_ops_states = {
	.name = "replay",
	.caps = UF_TARGET_CAP_RUNSTATE,
	.stop = r_stop,
	.resume = r_resume,
	.threads = r_threads,
	.regs = r_regs,
	.read = r_read,
	.detach = r_detach,
	.runstate = r_runstate,
};

struct replay_target *replay_new(void)
{
	struct replay_target *r = calloc(1, sizeof *r);
	if (r)
		r->fail_stop_at = r->gone_threads_at = -1;
	return r;
}

void replay_free(struct replay_target *r)
{
	if (!r)
		return;
	for (size_t i = 0; i < r->nregions; i++)
		free(r->regions[i].bytes);
	for (size_t i = 0; i < r->nrounds; i++) {
		free(r->rounds[i].tids);
		free(r->rounds[i].regs);
		free(r->rounds[i].states);
	}
	free(r->regions);
	free(r->rounds);
	free(r);
}

int replay_map(struct replay_target *r, uint64_t addr, const void *bytes, size_t len)
{
	struct replay_region *n = realloc(r->regions, (r->nregions + 1) * sizeof *n);
	if (!n)
		return -ENOMEM;
	r->regions = n;
	unsigned char *copy = malloc(len ? len : 1);
	if (!copy)
		return -ENOMEM;
	if (len)
		memcpy(copy, bytes, len);
	r->regions[r->nregions++] = (struct replay_region){ addr, len, copy };
	return 0;
}

int replay_add_round(struct replay_target *r, const uint32_t *tids, const struct uf_regs *regs,
		     size_t n)
{
	struct replay_round *nr = realloc(r->rounds, (r->nrounds + 1) * sizeof *nr);
	if (!nr)
		return -ENOMEM;
	r->rounds = nr;
	struct replay_round rd = { n, malloc(n * sizeof *tids + 1), malloc(n * sizeof *regs + 1),
				   NULL };
	if (!rd.tids || !rd.regs) {
		free(rd.tids);
		free(rd.regs);
		return -ENOMEM;
	}
	if (n) {
		memcpy(rd.tids, tids, n * sizeof *tids);
		memcpy(rd.regs, regs, n * sizeof *regs);
	}
	r->rounds[r->nrounds++] = rd;
	return 0;
}

int replay_add_round_states(struct replay_target *r, const uint32_t *tids,
			    const struct uf_regs *regs, const enum uf_runstate *states, size_t n)
{
	uint8_t *st = malloc(n + 1);
	if (!st || replay_add_round(r, tids, regs, n) < 0) {
		free(st);
		return -ENOMEM;
	}
	for (size_t i = 0; i < n; i++)
		st[i] = (uint8_t)states[i];
	r->rounds[r->nrounds - 1].states = st;
	r->has_states = 1;
	return 0;
}

void replay_target_init(struct uf_target *t, struct replay_target *r)
{
	memset(t, 0, sizeof *t);
	t->ops = r->has_states ? &replay_ops_states : &replay_ops;
	t->priv = r;
	t->arch = UF_ARCH_X86_64;
}

static int r_stop(struct uf_target *t, struct uf_err *err)
{
	struct replay_target *r = t->priv;
	if (r->fail_stop_at >= 0 && r->stops == (uint64_t)r->fail_stop_at) {
		uf_err_set(err, UF_ETARGET, "replay", "injected stop failure");
		return -EIO;
	}
	if (r->stops >= r->nrounds && !r->loop)
		return UF_TARGET_GONE;
	r->cur = r->nrounds ? r->stops % r->nrounds : 0;
	r->stops++;
	r->stopped = 1;
	return 0;
}

static int r_resume(struct uf_target *t, struct uf_err *err)
{
	struct replay_target *r = t->priv;
	if (!r->stopped)
		r->violations++;
	r->resumes++;
	r->stopped = 0;
	return 0;
}

static int r_threads(struct uf_target *t, uint32_t *ids, size_t max, size_t *n,
		     struct uf_err *err)
{
	struct replay_target *r = t->priv;
	if (!r->stopped)
		r->violations++;
	if (r->gone_threads_at >= 0 && r->stops == (uint64_t)r->gone_threads_at + 1)
		return UF_TARGET_GONE;
	const struct replay_round *rd = &r->rounds[r->cur];
	*n = rd->n < max ? rd->n : max;
	memcpy(ids, rd->tids, *n * sizeof *ids);
	return 0;
}

static int r_regs(struct uf_target *t, uint32_t id, struct uf_regs *regs, struct uf_err *err)
{
	struct replay_target *r = t->priv;
	const struct replay_round *rd;
	long i = round_thread(r, id, &rd, err);
	if (i < 0)
		return -ESRCH;
	*regs = rd->regs[i];
	return 0;
}

/* Thread `id`'s index in the current round (its round in *rd), counting
 * a call while running as a violation: regs and runstate share it.
 * -1 with *err when the round has no such thread. */
static long round_thread(struct replay_target *r, uint32_t id, const struct replay_round **rd,
			 struct uf_err *err)
{
	if (!r->stopped)
		r->violations++;
	*rd = &r->rounds[r->cur];
	for (size_t i = 0; i < (*rd)->n; i++)
		if ((*rd)->tids[i] == id)
			return (long)i;
	uf_err_set(err, UF_ETARGET, "replay", "no thread %u", id);
	return -1;
}

/* Copies from the region containing addr, continuing into regions that
 * follow it without a gap, and stops at the first uncovered byte. */
static ssize_t r_read(struct uf_target *t, uint32_t id, uint64_t addr, void *buf, size_t len,
		      struct uf_err *err)
{
	struct replay_target *r = t->priv;
	size_t done = 0;
	if (!r->stopped)
		r->violations++;
	r->reads++;
	while (done < len) {
		uint64_t a = addr + done;
		size_t i;
		for (i = 0; i < r->nregions; i++)
			if (a >= r->regions[i].addr && a - r->regions[i].addr < r->regions[i].len)
				break;
		if (i == r->nregions || a < addr)
			break;
		const struct replay_region *g = &r->regions[i];
		size_t off = (size_t)(a - g->addr), k = g->len - off;
		k = k < len - done ? k : len - done;
		memcpy((unsigned char *)buf + done, g->bytes + off, k);
		done += k;
	}
	return (ssize_t)done;
}

/* The state the script gives thread `id` in the current round (unknown
 * in a round without states); only while stopped, like regs. */
static int r_runstate(struct uf_target *t, uint32_t id, enum uf_runstate *state, uint64_t *run_ns,
		      struct uf_err *err)
{
	struct replay_target *r = t->priv;
	const struct replay_round *rd;
	r->runstate_calls++;
	long i = round_thread(r, id, &rd, err);
	if (i < 0)
		return -ESRCH;
	*state = rd->states ? (enum uf_runstate)rd->states[i] : UF_RS_UNKNOWN;
	*run_ns = 0;
	return 0;
}

static void r_detach(struct uf_target *t)
{
	struct replay_target *r = t->priv;
	r->detached = 1;
	r->stopped = 0;
}
