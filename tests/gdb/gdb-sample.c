/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * tests/gdb/gdb-sample.c — drives gdb-if/ directly: samples a gdbstub
 * guest, walks frame pointers, prints per-sample stop times and raw stacks.
 *
 * For bench/gdb.sh (stop-time figures without the rest of the profiler)
 * and for the fake-stub test (the backend's errors without the CLI).
 * Trade-off: a minimal frame-pointer walk of its own, so it measures the
 * backend, not the sampler.
 *
 *   gdb-sample ADDR [-F HZ (0 = back to back)] [-T SECONDS] [-n SAMPLES]
 *              [-s STACKFILE] [-c COUNTER_ADDR] [-b] [-j]
 *
 * Prints "key value" lines: samples, median_us, p99_us, mean_us,
 * samples_per_s, trips_per_sample, the medians of the three phases
 * (stop_us: interrupt to stop reply; regs_walk_us; resume_us) and
 * counter_per_s (the guest's progress, read at start and end; -b: no
 * sampling in between, the baseline).  Exit 0, or 3 with
 * "gdb-sample: <what>: <why>".
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "gdb-if/gdb.h"

#define MAX_DEPTH 128

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static int cmp_d(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

/* One frame-pointer walk; writes the stack root first to f. */
static int walk(struct uf_target *t, uint32_t id, FILE *f, struct uf_err *err)
{
	struct uf_regs r;
	uint64_t pcs[MAX_DEPTH];
	int n = 0, rc = t->ops->regs(t, id, &r, err);
	if (rc != 0)
		return rc;
	pcs[n++] = r.pc;
	for (uint64_t fp = r.fp; fp && n < MAX_DEPTH && fp % 8 == 0;) {
		uint64_t fr[2];
		if (t->ops->read(t, id, fp, fr, sizeof fr, err) != (ssize_t)sizeof fr || !fr[1])
			break;
		pcs[n++] = fr[1] - 1;   /* inside the call instruction */
		if (fr[0] <= fp)
			break;
		fp = fr[0];
	}
	for (int i = n; f && i-- > 0;)
		fprintf(f, "%llx%s", (unsigned long long)pcs[i], i ? ";" : " 1\n");
	return 0;
}

/* Phase durations of one sample: stop, registers + walk, resume. */
static double phase[3];

static int sample(struct uf_target *t, FILE *f, struct uf_err *err)
{
	uint32_t ids[64];
	size_t n = 0;
	double a = now_s(), b, c;
	int rc = t->ops->stop(t, err);
	b = now_s();
	if (rc == 0)
		rc = t->ops->threads(t, ids, 64, &n, err);
	for (size_t i = 0; rc == 0 && i < n; i++)
		rc = walk(t, ids[i], f, err);
	c = now_s();
	if (rc == 0)
		rc = t->ops->resume(t, err);
	phase[0] = b - a, phase[1] = c - b, phase[2] = now_s() - c;
	return rc;
}

static double median(double *v, size_t n)
{
	qsort(v, n, sizeof *v, cmp_d);
	return n ? v[n / 2] : 0;
}

static int counter(struct uf_target *t, uint64_t addr, uint64_t *v, struct uf_err *err)
{
	uint32_t id = 0;
	size_t n = 0;
	int rc = t->ops->stop(t, err);
	if (rc == 0)
		rc = t->ops->threads(t, &id, 1, &n, err);
	if (rc == 0 && t->ops->read(t, id, addr, v, 8, err) != 8)
		rc = -1;
	if (rc == 0)
		rc = t->ops->resume(t, err);
	return rc;
}

static void report(double *d, double *ph[3], size_t n, double wall, uint64_t trips, double cps)
{
	if (n)
		printf("stop_us %.1f\nregs_walk_us %.1f\nresume_us %.1f\n", median(ph[0], n) * 1e6,
		       median(ph[1], n) * 1e6, median(ph[2], n) * 1e6);
	qsort(d, n, sizeof *d, cmp_d);
	double sum = 0;
	for (size_t i = 0; i < n; i++)
		sum += d[i];
	printf("samples %zu\n", n);
	if (n) {
		printf("median_us %.1f\np99_us %.1f\nmean_us %.1f\n", d[n / 2] * 1e6,
		       d[(n * 99) / 100] * 1e6, sum / n * 1e6);
		printf("samples_per_s %.1f\ntrips_per_sample %.2f\n", n / wall, (double)trips / n);
	}
	if (cps >= 0)
		printf("counter_per_s %.1f\n", cps);
}

struct opts {
	double hz, secs;
	long maxn;
	const char *stacks;
	uint64_t caddr;
	int baseline, jitter;
};

/* Measured durations, one slot per sample (at most cap). */
struct meas {
	double *d, *ph[3];
	size_t n, cap;
};

static int parse(int argc, char **argv, struct opts *o)
{
	int c;
	*o = (struct opts){ .hz = 99, .secs = 5 };
	while ((c = getopt(argc, argv, "F:T:n:s:c:bj")) != -1) {
		switch (c) {
		case 'F': o->hz = atof(optarg); break;
		case 'T': o->secs = atof(optarg); break;
		case 'n': o->maxn = atol(optarg); break;
		case 's': o->stacks = optarg; break;
		case 'c': o->caddr = strtoull(optarg, NULL, 16); break;
		case 'b': o->baseline = 1; break;
		case 'j': o->jitter = 1; break;
		default: return -1;
		}
	}
	if (optind != argc - 1) {
		fprintf(stderr, "usage: gdb-sample ADDR [-F HZ] [-T S] [-n N] [-s FILE] [-c ADDR] [-b] [-j]\n");
		return -1;
	}
	return 0;
}

/* Samples until -T, -n or an error; returns the last status. */
static int run(struct uf_target *t, const struct opts *o, FILE *f, struct meas *m,
	       struct uf_err *err)
{
	double t0 = now_s(), next = t0;
	int rc = 0;
	if (o->baseline)
		usleep((useconds_t)(o->secs * 1e6));
	while (!o->baseline && rc == 0 && m->n < m->cap && now_s() - t0 < o->secs &&
	       (!o->maxn || (long)m->n < o->maxn)) {
		if (o->hz > 0) {
			/* -j: deadlines jittered by up to half a period either way,
			 * so a periodic guest cannot fall into lockstep with us. */
			next += (o->jitter ? 0.5 + drand48() : 1.0) / o->hz;
			double w = next - now_s();
			if (w > 0)
				usleep((useconds_t)(w * 1e6));
		}
		double a = now_s();
		rc = sample(t, f, err);
		if (rc == 0) {
			for (int k = 0; k < 3; k++)
				m->ph[k][m->n] = phase[k];
			m->d[m->n++] = now_s() - a;
		}
	}
	return rc;
}

int main(int argc, char **argv)
{
	struct opts o;
	struct uf_target t;
	struct uf_err err = { 0 };
	struct meas m = { .cap = 1 << 20 };
	if (parse(argc, argv, &o) < 0)
		return 1;
	if (gdb_target_attach(&t, argv[optind], NULL, &err) < 0) {
		fprintf(stderr, "gdb-sample: %s: %s\n", err.what, err.why);
		return 3;
	}
	FILE *f = o.stacks ? fopen(o.stacks, "w") : NULL;
	m.d = malloc(m.cap * sizeof *m.d);
	for (int k = 0; k < 3; k++)
		m.ph[k] = malloc(m.cap * sizeof *m.d);
	uint64_t c0 = 0, c1 = 0;
	double cps = -1, t0 = now_s();
	int rc = o.caddr ? counter(&t, o.caddr, &c0, &err) : 0;
	uint64_t trips0 = t.n_hypercalls;
	if (rc == 0)
		rc = run(&t, &o, f, &m, &err);
	double wall = now_s() - t0;
	uint64_t trips = t.n_hypercalls - trips0;
	if (rc == 0 && o.caddr && counter(&t, o.caddr, &c1, &err) == 0)
		cps = (double)(c1 - c0) / (now_s() - t0);
	t.ops->detach(&t);
	if (f)
		fclose(f);
	report(m.d, m.ph, m.n, wall, trips, cps);
	if (rc == UF_TARGET_GONE)
		fprintf(stderr, "gdb-sample: target gone after %zu samples\n", m.n);
	else if (rc != 0)
		fprintf(stderr, "gdb-sample: %s: %s\n", err.what, err.why);
	free(m.d);
	for (int k = 0; k < 3; k++)
		free(m.ph[k]);
	return rc == 0 ? 0 : 3;
}
