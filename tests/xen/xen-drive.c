/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * tests/xen/xen-drive.c — a small driver for the xen-if target, run
 * inside the emulated dom0 by the e2e test and the benchmark.
 *
 * It exercises the backend exactly as the sampling loop does (stop, list
 * vCPUs, registers, frame-pointer walk through read(), resume) and writes
 * raw folded stacks ("vcpu-N;0xRET;...;0xPC COUNT", root first) that the
 * host symbolizes with the guest's nm map.  It also prints the figures
 * the benchmark reports: time per sample, hypercalls and foreign maps per
 * sample in steady state, achieved rate.  It is a test tool, not part of
 * uniprof-flame: it prints freely.
 *
 * Trade-off: stacks are kept as strings in a flat table (no trie); fine
 * for the few distinct stacks of a test guest.
 *
 * Invariants:
 *  1. The walk is bounded: MAX_DEPTH frames, frame pointers strictly
 *     increasing and 8-byte aligned.
 *  2. SIGINT/SIGTERM end the loop between samples; the target is always
 *     detached (left running) and the output always written.
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "xen-if/xen.h"

#define MAX_DEPTH 64
#define MAX_STACKS 4096
#define WARMUP 20

struct stack { char *key; uint64_t count; };

static volatile sig_atomic_t stop_flag;
static struct stack stacks[MAX_STACKS];
static size_t nstacks;

static void on_signal(int sig) { stop_flag = 1; }

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void add_stack(const char *key)
{
	for (size_t i = 0; i < nstacks; i++)
		if (!strcmp(stacks[i].key, key)) {
			stacks[i].count++;
			return;
		}
	if (nstacks < MAX_STACKS)
		stacks[nstacks++] = (struct stack){ strdup(key), 1 };
}

/* Frame-pointer walk of one vCPU into "vcpu-N;0x..;0xPC" (root first). */
static int walk(struct uf_target *t, uint32_t id, char *out, size_t len, struct uf_err *err)
{
	struct uf_regs r;
	uint64_t pcs[MAX_DEPTH + 1];
	int n = 0, rc = t->ops->regs(t, id, &r, err);
	if (rc)
		return rc;
	pcs[n++] = r.pc;
	for (uint64_t fp = r.fp; fp && n <= MAX_DEPTH && !(fp & 7);) {
		uint64_t fr[2];
		if (t->ops->read(t, id, fp, fr, sizeof fr, err) != sizeof fr || !fr[1])
			break;
		pcs[n++] = fr[1];
		if (fr[0] <= fp)
			break;
		fp = fr[0];
	}
	size_t o = (size_t)snprintf(out, len, "vcpu-%u", id);
	for (int i = n - 1; i >= 0 && o < len; i--)
		o += (size_t)snprintf(out + o, len - o, ";0x%" PRIx64, pcs[i]);
	return 0;
}

static int sample(struct uf_target *t, struct uf_err *err)
{
	uint32_t ids[64];
	size_t n = 0;
	char key[MAX_DEPTH * 20 + 32];
	int rc = t->ops->stop(t, err);
	if (rc)
		return rc;
	rc = t->ops->threads(t, ids, 64, &n, err);
	for (size_t i = 0; !rc && i < n; i++) {
		rc = walk(t, ids[i], key, sizeof key, err);
		if (!rc)
			add_stack(key);
	}
	int rc2 = t->ops->resume(t, err);
	return rc ? rc : rc2;
}

/* Uniform in [0, 1): xorshift64, for -J (interval jitter, which keeps a
 * periodic guest from aliasing with the sampling period). */
static double frand(void)
{
	static uint64_t x = 0x9E3779B97F4A7C15ULL;
	x ^= x << 13, x ^= x >> 7, x ^= x << 17;
	return (double)(x >> 11) / 9007199254740992.0;
}

static void sleep_until(double when)
{
	struct timespec ts = { (time_t)when, (long)((when - (time_t)when) * 1e9) };
	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR && !stop_flag)
		;
}

struct drive {
	struct xen_target_opts o;
	const char *outp;
	long nmax;
	double hz, secs, jitter, gap;
	/* results */
	long n;
	uint64_t hc0, mp0;              /* counters at the end of the warm-up */
	double t0, tw, busy, busy0;     /* start, end of warm-up, time held */
};

static int parse(struct drive *d, int argc, char **argv)
{
	static const struct option lo[] = { { "destroy", 0, NULL, 'D' }, { 0 } };
	int c;
	d->nmax = 1000;
	while ((c = getopt_long(argc, argv, "d:c:n:F:J:G:T:o:", lo, NULL)) != -1) {
		switch (c) {
		case 'd': d->o.domain = optarg; break;
		case 'c': d->o.cfg = optarg; break;
		case 'D': d->o.destroy = true; break;
		case 'n': d->nmax = atol(optarg); break;
		case 'F': d->hz = atof(optarg); break;
		case 'J': d->jitter = atof(optarg); break;
		case 'G': d->gap = atof(optarg); break;
		case 'T': d->secs = atof(optarg); break;
		case 'o': d->outp = optarg; break;
		default: return -1;
		}
	}
	return !d->o.domain == !d->o.cfg ? -1 : 0;
}

/* The sampling loop: absolute deadlines at -F (with -J jitter), or back
 * to back; ends at -n samples, -T seconds, a signal or an error. */
static int run(struct drive *d, struct uf_target *t, struct uf_err *err)
{
	int rc = 0;
	double next = d->t0 = d->tw = now(), last_end = d->t0, last_cost = 0;
	while (!stop_flag && (d->nmax <= 0 || d->n < d->nmax) && (d->secs <= 0 || now() - d->t0 < d->secs)) {
		if (d->hz > 0) {
			/* -G: the guest runs at least `gap` times as long as
			 * the last sample held it; late samples would otherwise
			 * come back to back and see the guest where it stopped
			 * last time (the test wants independent samples) */
			next += (1 + d->jitter * (2 * frand() - 1)) / d->hz;
			double earliest = last_end + d->gap * last_cost;
			sleep_until(next > earliest ? next : earliest);
		}
		if (stop_flag)
			break;
		double a = now();
		rc = sample(t, err);
		last_end = now();
		last_cost = last_end - a;
		d->busy += last_cost;
		if (rc)
			break;
		if (++d->n == WARMUP)
			d->hc0 = t->n_hypercalls, d->mp0 = t->n_maps, d->busy0 = d->busy, d->tw = now();
	}
	return rc;
}

static void report(const struct drive *d, const struct uf_target *t)
{
	double wall = now() - d->t0;
	long ss = d->n - WARMUP;
	printf("xen-drive: samples=%ld wall=%.3fs rate=%.1fHz per-sample=%.1fus total-hypercalls=%" PRIu64
	       " total-maps=%" PRIu64 "\n", d->n, wall, d->n / wall, d->n ? d->busy / d->n * 1e6 : 0.0,
	       t->n_hypercalls, t->n_maps);
	if (ss > 0)
		printf("xen-drive: steady samples=%ld per-sample=%.1fus hypercalls/sample=%.2f "
		       "maps/sample=%.3f rate=%.1fHz\n", ss, (d->busy - d->busy0) / ss * 1e6,
		       (double)(t->n_hypercalls - d->hc0) / ss, (double)(t->n_maps - d->mp0) / ss,
		       ss / (now() - d->tw));
}

static void write_stacks(const char *outp)
{
	FILE *f = outp ? fopen(outp, "w") : stdout;
	for (size_t i = 0; f && i < nstacks; i++)
		fprintf(f, "%s %" PRIu64 "\n", stacks[i].key, stacks[i].count);
	if (f && f != stdout)
		fclose(f);
	for (size_t i = 0; i < nstacks; i++)
		free(stacks[i].key);
}

int main(int argc, char **argv)
{
	struct drive d = { 0 };
	struct uf_target t = { 0 };
	struct uf_err err = { 0 };
	if (parse(&d, argc, argv)) {
		fprintf(stderr, "usage: xen-drive (-d DOM | -c CFG [--destroy]) [-n N] "
			"[-F HZ [-J FRACTION] [-G GAP]] [-T S] [-o OUT]\n");
		return 1;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	if (xen_target_open(&t, &d.o, &err)) {
		fprintf(stderr, "xen-drive: %s: %s\n", err.what, err.why);
		return 3;
	}
	char desc[256];
	xen_target_describe(&t, desc, sizeof desc);
	printf("xen-drive: attached to %s\n", desc);
	if (xen_target_start(&t, &err))
		fprintf(stderr, "xen-drive: %s: %s\n", err.what, err.why);
	int rc = run(&d, &t, &err);
	if (rc == UF_TARGET_GONE)
		printf("xen-drive: domain gone after %ld samples\n", d.n);
	else if (rc)
		fprintf(stderr, "xen-drive: %s: %s\n", err.what, err.why);
	if (stop_flag)
		printf("xen-drive: interrupted after %ld samples\n", d.n);
	report(&d, &t);
	t.ops->detach(&t);
	write_stacks(d.outp);
	return rc < 0 && d.n == 0 ? 3 : 0;
}
