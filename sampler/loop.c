/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * sampler/loop.c — the sampling loop (states in sampler.h).
 *
 * Deadline k is start + k * period, computed from k every time, so timing
 * errors never accumulate, plus a jitter of up to half a period either
 * way (a fixed hash of k, so runs repeat): a strictly periodic sampler
 * falls into step with a periodic target (a guest under software
 * emulation runs that regularly) and skews the shares.  A deadline that has already passed when the
 * loop reaches it is missed: the round runs at once, and any further
 * deadlines that passed too are skipped (and counted), so a slow round
 * never causes a burst of back-to-back stops.  While the target is
 * stopped the loop only reads registers and memory into a round buffer;
 * hashing into the stack set happens after resume.  A target with
 * UF_TARGET_CAP_RUNSTATE is asked each thread's run state inside the
 * pause, before its registers (one call per thread per round).
 *
 * Invariants:
 *  1. Every successful stop() is followed by resume() before the loop
 *     does anything else (returns, records, sleeps).
 *  2. The round buffer holds nthreads * max_depth addresses.  It is sized
 *     before stop() for the most threads seen so far; it grows while the
 *     target is stopped only in the round where the thread count rises.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "sampler/sampler.h"
#include "util/vec.h"

struct round {
	uint32_t ids[UF_TARGET_MAX_THREADS];
	size_t nids;
	uint64_t *pcs;          /* nids * depth addresses */
	size_t pcs_cap;
	size_t *lens;           /* frames per thread, 0 = skipped */
	size_t lens_cap;
	uint8_t states[UF_TARGET_MAX_THREADS]; /* enum uf_runstate per thread */
	unsigned depth;
};

/* Deadline k is start + k * period; nothing after start + limit. */
struct clock {
	uint64_t start, period, limit;
};

#define RUN_DONE 2 /* wait_turn: the run is over (time, stop flag) */

static uint64_t mono_ns(void);
static uint64_t jitter(uint64_t k, uint64_t period);
static void sleep_until(uint64_t ns);
static int wait_turn(struct sampler *s, struct uf_target *t, const struct sampler_opts *o,
		     const struct clock *c, uint64_t *k, struct uf_err *err);
static int take_round(struct sampler *s, struct uf_target *t, struct round *r,
		      const struct sampler_opts *o, uint64_t t0, struct uf_err *err);
static int walk_all(struct sampler *s, struct uf_target *t, struct round *r,
		    const struct sampler_opts *o, struct uf_err *err);
static int round_grow(struct round *r, size_t nthreads);
static enum uf_runstate thread_state(struct sampler *s, struct uf_target *t, uint32_t id);

void sampler_opts_init(struct sampler_opts *o)
{
	memset(o, 0, sizeof *o);
	o->hz = SAMPLER_DEFAULT_HZ;
	o->max_depth = SAMPLER_DEFAULT_DEPTH;
}

int sampler_run(struct sampler *s, struct uf_target *t, const struct sampler_opts *o,
		struct uf_err *err)
{
	struct round *r = calloc(1, sizeof *r);
	if (!r) {
		uf_err_set(err, UF_EINPUT, "sampler", "out of memory");
		return -ENOMEM;
	}
	r->depth = o->max_depth < 1 ? 1 : o->max_depth > SAMPLER_MAX_DEPTH ? SAMPLER_MAX_DEPTH
									  : o->max_depth;
	double hz = o->hz > 0 && o->hz <= 1e6 ? o->hz : SAMPLER_DEFAULT_HZ;
	struct clock c = { mono_ns(), (uint64_t)(1e9 / hz), UINT64_MAX };
	if (o->seconds > 0)
		c.limit = (uint64_t)(o->seconds * 1e9);
	uint64_t last_progress = c.start;
	int rc = 0;
	for (uint64_t k = 0; rc == 0; k++) {
		rc = wait_turn(s, t, o, &c, &k, err);
		if (rc == 0)
			rc = take_round(s, t, r, o, c.start, err);
		uint64_t now = mono_ns();
		s->stats.elapsed_ns = now - c.start;
		if (rc == 0 && o->progress && now - last_progress >= 250000000ull) {
			last_progress = now;
			o->progress(o->progress_ctx, &s->stats);
		}
	}
	if (rc == UF_TARGET_GONE)
		s->stats.target_gone = 1;
	free(r->pcs);
	free(r->lens);
	free(r);
	return rc == UF_TARGET_GONE || rc == RUN_DONE ? 0 : rc;
}

/* Waits for deadline *k.  Returns 0 to take a sample now, RUN_DONE when
 * the time is up or the stop flag is set, UF_TARGET_GONE, or <0. */
static int wait_turn(struct sampler *s, struct uf_target *t, const struct sampler_opts *o,
		     const struct clock *c, uint64_t *k, struct uf_err *err)
{
	uint64_t dl = c->start + *k * c->period + jitter(*k, c->period);
	if (o->stop && *o->stop) {
		s->stats.interrupted = 1;
		return RUN_DONE;
	}
	if (dl - c->start >= c->limit)
		return RUN_DONE;
	if (t->ops->idle && mono_ns() < dl) {
		int rc = t->ops->idle(t, dl, err);
		if (rc != 0)
			return rc;
	}
	uint64_t now = mono_ns();
	if (now > dl) { /* late: sample now, skip the deadlines already gone */
		uint64_t behind = (now - dl) / c->period;
		s->stats.missed += 1 + behind;
		*k += behind;
	} else {
		sleep_until(dl);
	}
	if (o->stop && *o->stop) {
		s->stats.interrupted = 1;
		return RUN_DONE;
	}
	return 0;
}

/* One round: stop, walk every thread into the buffer, resume, record. */
static int take_round(struct sampler *s, struct uf_target *t, struct round *r,
		      const struct sampler_opts *o, uint64_t t0, struct uf_err *err)
{
	if (round_grow(r, s->stats.max_threads ? s->stats.max_threads : 1) < 0) {
		uf_err_set(err, UF_EINPUT, "sampler", "out of memory");
		return -ENOMEM;
	}
	uint64_t a = mono_ns();
	int rc = t->ops->stop(t, err);
	if (rc != 0)
		return rc; /* UF_TARGET_GONE or an error; nothing to resume */
	uint64_t frozen = mono_ns();
	int wrc = walk_all(s, t, r, o, err);
	rc = t->ops->resume(t, err);
	uint64_t b = mono_ns();
	sampler_hist_add(&s->stats.stop, b - a);
	sampler_hist_add(&s->stats.frozen, b - frozen);
	s->stats.samples++;
	if (wrc < 0)
		return wrc;
	for (size_t i = 0; i < r->nids; i++) {
		if (!r->lens[i])
			continue;
		if (sampler_record_in(s, r->ids[i], a - t0, (enum uf_runstate)r->states[i],
				      r->pcs + i * r->depth, r->lens[i]) < 0) {
			uf_err_set(err, UF_EINPUT, "sampler", "out of memory");
			return -ENOMEM;
		}
	}
	return rc;
}

/* While stopped: list threads, read each one's registers, walk its stack.
 * A thread whose registers cannot be read (it just exited) is skipped. */
static int walk_all(struct sampler *s, struct uf_target *t, struct round *r,
		    const struct sampler_opts *o, struct uf_err *err)
{
	int rc = t->ops->threads(t, r->ids, UF_TARGET_MAX_THREADS, &r->nids, err);
	if (rc != 0) {
		r->nids = 0;
		return rc == UF_TARGET_GONE ? 0 : rc;
	}
	if (r->nids > UF_TARGET_MAX_THREADS)
		r->nids = UF_TARGET_MAX_THREADS;
	if (round_grow(r, r->nids) < 0) {
		r->nids = 0;
		uf_err_set(err, UF_EINPUT, "sampler", "out of memory");
		return -ENOMEM;
	}
	if (r->nids > s->stats.max_threads)
		s->stats.max_threads = (uint32_t)r->nids;
	for (size_t i = 0; i < r->nids; i++) {
		struct uf_regs regs = { 0 };   /* a backend may leave lr (x86-64) unset */
		struct uf_err e2 = { 0 };
		r->lens[i] = 0;
		r->states[i] = (uint8_t)thread_state(s, t, r->ids[i]);
		if (t->ops->regs(t, r->ids[i], &regs, &e2) != 0) {
			s->stats.stop_failures++;
			continue;
		}
		uint64_t *pcs = r->pcs + i * r->depth;
		if (!o->walk) {
			pcs[0] = regs.pc;
			r->lens[i] = 1;
			continue;
		}
		rc = o->walk(o->walk_ctx, t, r->ids[i], &regs, pcs, r->depth, &r->lens[i], err);
		if (rc < 0)
			return rc;
	}
	return 0;
}

/* What thread `id` was doing at the stop, when the target can tell
 * (UF_TARGET_CAP_RUNSTATE: one call per thread per round); unknown
 * otherwise or when the call fails (counted: the sample is still worth
 * keeping). */
static enum uf_runstate thread_state(struct sampler *s, struct uf_target *t, uint32_t id)
{
	if (!(t->ops->caps & UF_TARGET_CAP_RUNSTATE) || !t->ops->runstate)
		return UF_RS_UNKNOWN;
	enum uf_runstate st = UF_RS_UNKNOWN;
	uint64_t run_ns = 0;
	struct uf_err e2 = { 0 };
	if (t->ops->runstate(t, id, &st, &run_ns, &e2) != 0 || (unsigned)st >= UF_RS_COUNT) {
		s->stats.runstate_failures++;
		return UF_RS_UNKNOWN;
	}
	return st;
}

/* An offset in [0, period) from k (splitmix64), minus half a period,
 * as unsigned arithmetic; deadline 0 gets none. */
static uint64_t jitter(uint64_t k, uint64_t period)
{
	if (k == 0 || period < 2)
		return 0;
	uint64_t z = k * 0x9e3779b97f4a7c15ull;
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	z ^= z >> 31;
	return z % period - period / 2;
}

static int round_grow(struct round *r, size_t nthreads)
{
	if (uf_vec_grow(&r->pcs, &r->pcs_cap, nthreads * r->depth, sizeof *r->pcs) < 0 ||
	    uf_vec_grow(&r->lens, &r->lens_cap, nthreads, sizeof *r->lens) < 0)
		return -ENOMEM;
	return 0;
}

static uint64_t mono_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* Absolute sleep; returns early (EINTR) when a signal arrives so the loop
 * can look at the stop flag. */
static void sleep_until(uint64_t ns)
{
	struct timespec ts = { (time_t)(ns / 1000000000ull), (long)(ns % 1000000000ull) };
	clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL);
}
