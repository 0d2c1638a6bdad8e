/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * tests/unit/test-sampler.c — the sampling loop against the replay
 * target: every round stops and resumes, threads are recorded, faults
 * keep what was sampled, the stop flag ends the run, missed deadlines do
 * not burst; then folding through a resolver (merged, per thread, time
 * order), the raw trace format and the stop-time quantiles.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "fold/fold.h"
#include "sampler/replay.h"
#include "sampler/sampler.h"
#include "unwind/unwind.h"

#define STACK 0x7ffff0000000ull

/* Thread 10 runs main -> f_a; thread 20 runs main -> f_b.  Frame records:
 * STACK+0x00 (leaf of thread 10), STACK+0x100 (leaf of 20), and a shared
 * "main" record at STACK+0x200 whose caller ends the chain. */
static struct replay_target *script(size_t rounds)
{
	struct replay_target *r = replay_new();
	uint64_t mem[128] = { 0 };
	mem[0] = STACK + 0x200; mem[1] = 0x1100;      /* return into main */
	mem[32] = STACK + 0x200; mem[33] = 0x1100;
	mem[64] = 0; mem[65] = 0x1000;                  /* return into _start */
	replay_map(r, STACK, mem, sizeof mem);
	uint32_t tids[2] = { 10, 20 };
	struct uf_regs regs[2] = {
		{ .pc = 0x2000, .sp = STACK, .fp = STACK, .arch = UF_ARCH_X86_64 },
		{ .pc = 0x3000, .sp = STACK + 0x100, .fp = STACK + 0x100, .arch = UF_ARCH_X86_64 },
	};
	for (size_t i = 0; i < rounds; i++) {
		regs[0].pc = i % 2 ? 0x2010 : 0x2000; /* two PCs inside f_a */
		replay_add_round(r, tids, regs, 2);
	}
	return r;
}

static size_t names(void *ctx, uint64_t addr, int is_return, char *buf, size_t size)
{
	uint64_t a = is_return ? addr - 1 : addr;
	const char *n = a >= 0x3000 ? "f_b" : a >= 0x2008 && a < 0x2020 ? NULL
		: a >= 0x2000 ? "f_a" : a >= 0x1000 ? "main" : "_start";
	if (!n)
		return 0;
	return (size_t)snprintf(buf, size, "%s", n);
}

static size_t tname(void *ctx, uint32_t tid, char *buf, size_t size)
{
	return (size_t)snprintf(buf, size, "t%u", tid);
}

static char *folded(fold_trie *t)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	assert_int_equal(fold_trie_finish(t), 0);
	fold_write_folded(t, f);
	fclose(f);
	return buf;
}

/* The walker record/ plugs in, frame pointers only; its ends counted. */
static struct unwind_stats walks;

static int fp_walk(void *ctx, struct uf_target *t, uint32_t id, const struct uf_regs *regs,
		   uint64_t *pcs, size_t max, size_t *n, struct uf_err *err)
{
	return unwind_walk(t, id, regs, NULL, UNWIND_FP, pcs, max, n, ctx, err);
}

static int run(struct sampler *s, struct replay_target *r, double hz, volatile sig_atomic_t *stop)
{
	struct uf_target t;
	struct uf_err err = { 0 };
	struct sampler_opts o;
	replay_target_init(&t, r);
	sampler_opts_init(&o);
	memset(&walks, 0, sizeof walks);
	o.walk = fp_walk;
	o.walk_ctx = &walks;
	o.hz = hz;
	o.stop = stop;
	int rc = sampler_run(s, &t, &o, &err);
	assert_int_equal(r->stops, r->resumes);
	assert_int_equal(r->violations, 0);
	return rc;
}

static void sampler_samples_every_thread(void **state)
{
	struct replay_target *r = script(5);
	struct sampler s;
	sampler_init(&s, 1);
	assert_int_equal(run(&s, r, 2000, NULL), 0);
	assert_int_equal(s.stats.samples, 5);
	assert_int_equal(s.stats.thread_samples, 10);
	assert_int_equal(s.stats.max_threads, 2);
	assert_true(s.stats.target_gone);
	assert_int_equal(s.nthreads, 2);
	assert_int_equal(s.set.nstacks, 3); /* two f_a PCs, one f_b */
	assert_int_equal(s.npairs, 3);
	assert_int_equal(s.seq_len, 10);
	for (size_t i = 1; i < s.seq_len; i++)
		assert_true(s.seq[i].t_ns >= s.seq[i - 1].t_ns);
	assert_int_equal(walks.ends[UNWIND_COMPLETE], 10);
	sampler_release(&s);
	replay_free(r);
}

static void sampler_keeps_samples_on_fault(void **state)
{
	struct replay_target *r = script(5);
	r->fail_stop_at = 3;
	struct sampler s;
	sampler_init(&s, 0);
	assert_true(run(&s, r, 2000, NULL) < 0);
	assert_int_equal(s.stats.samples, 3);
	assert_int_equal(s.stats.thread_samples, 6);
	assert_null(s.seq);
	sampler_release(&s);
	replay_free(r);
}

/* Every thread gone between a stop and the listing (a process exiting):
 * that round records nothing, not the last round's stacks again. */
static void sampler_round_without_threads_records_nothing(void **state)
{
	struct replay_target *r = script(5);
	r->gone_threads_at = 2;
	struct sampler s;
	sampler_init(&s, 0);
	assert_int_equal(run(&s, r, 2000, NULL), 0);
	assert_int_equal(s.stats.samples, 5);
	assert_int_equal(s.stats.thread_samples, 8);   /* 4 rounds of 2 threads */
	assert_int_equal(r->violations, 0);
	sampler_release(&s);
	replay_free(r);
}

static void sampler_stop_flag_ends_run(void **state)
{
	struct replay_target *r = script(5);
	r->loop = 1;
	volatile sig_atomic_t stop = 1;
	struct sampler s;
	sampler_init(&s, 0);
	assert_int_equal(run(&s, r, 100, &stop), 0);
	assert_true(s.stats.interrupted);
	assert_int_equal(s.stats.samples, 0);
	sampler_release(&s);
	replay_free(r);
}

static void sampler_time_limit_and_missed(void **state)
{
	struct replay_target *r = script(1);
	r->loop = 1;
	struct uf_target t;
	struct uf_err err = { 0 };
	struct sampler_opts o;
	struct sampler s;
	sampler_init(&s, 0);
	replay_target_init(&t, r);
	sampler_opts_init(&o);
	o.hz = 1e6;          /* 1 us period: the loop cannot keep up */
	o.seconds = 0.05;
	assert_int_equal(sampler_run(&s, &t, &o, &err), 0);
	assert_false(s.stats.target_gone);
	assert_true(s.stats.missed > 0);
	/* skipped deadlines are not made up: never more rounds than deadlines,
	 * and every deadline not sampled is counted as missed */
	assert_true(s.stats.samples <= 50000 + 1);
	assert_true(s.stats.samples + s.stats.missed >= 50000 - 1);
	assert_true(s.stats.elapsed_ns >= 50000000ull);
	assert_int_equal(r->stops, r->resumes);
	sampler_release(&s);
	replay_free(r);
}

static void sampler_fold_resolves_once_per_address(void **state)
{
	struct replay_target *r = script(4);
	struct sampler s;
	sampler_init(&s, 0);
	run(&s, r, 2000, NULL);
	fold_trie *t = fold_trie_new();
	struct sampler_fold_opts fo = { .resolve = names };
	assert_int_equal(sampler_fold(&s, t, &fo, NULL), 0);
	char *out = folded(t);
	assert_string_equal(out, "_start;main;[unknown] 2\n_start;main;f_a 2\n_start;main;f_b 4\n");
	free(out);
	fold_trie_free(t);

	t = fold_trie_new();
	fo.thread_name = tname;
	assert_int_equal(sampler_fold(&s, t, &fo, NULL), 0);
	out = folded(t);
	assert_string_equal(out, "t10;_start;main;[unknown] 2\nt10;_start;main;f_a 2\n"
				 "t20;_start;main;f_b 4\n");
	free(out);
	fold_trie_free(t);
	sampler_release(&s);
	replay_free(r);
}

/* Names every address by its value: "r<hex>" for return addresses. */
static size_t hexname(void *ctx, uint64_t addr, int is_return, char *buf, size_t size)
{
	return (size_t)snprintf(buf, size, "%s%llx", is_return ? "r" : "f", (unsigned long long)addr);
}

/* Thousands of distinct addresses: the name cache grows and its probes
 * collide; every frame must still carry its own address's name. */
static void sampler_fold_names_many_addresses(void **state)
{
	enum { N = 3000 };
	struct sampler s;
	sampler_init(&s, 0);
	for (uint64_t i = 0; i < N; i++) {
		uint64_t pcs[2] = { 0x1000 + i * 16, 0x400000 + i }; /* leaf, its caller */
		assert_int_equal(sampler_record(&s, 7, i, pcs, 2), 0);
	}
	fold_trie *t = fold_trie_new();
	struct sampler_fold_opts fo = { .resolve = hexname };
	assert_int_equal(sampler_fold(&s, t, &fo, NULL), 0);
	char *out = folded(t);
	size_t lines = 0;
	for (char *l = out; l && *l; lines++) {
		unsigned long long caller, leaf;
		int count, used = 0;
		assert_int_equal(sscanf(l, "r%llx;f%llx %d\n%n", &caller, &leaf, &count, &used), 3);
		assert_true(used > 0);
		assert_int_equal(count, 1);
		assert_true(leaf >= 0x1000 && (leaf - 0x1000) % 16 == 0);
		assert_int_equal(caller, 0x400000 + (leaf - 0x1000) / 16);
		l += used;
	}
	assert_int_equal(lines, N);
	free(out);
	fold_trie_free(t);
	sampler_release(&s);
}

static void sampler_fold_keeps_time_order(void **state)
{
	struct replay_target *r = script(3);
	struct sampler s;
	sampler_init(&s, 1);
	run(&s, r, 2000, NULL);
	fold_trie *t = fold_trie_new();
	struct sampler_fold_opts fo = { .resolve = names, .sequence = 1 };
	assert_int_equal(sampler_fold(&s, t, &fo, NULL), 0);
	assert_int_equal(t->seq_len, 6);
	/* rounds in order, threads in order within a round */
	static const char *const want[] = { "f_a", "f_b", "[unknown]", "f_b", "f_a", "f_b" };
	for (size_t i = 0; i < t->seq_len; i++) {
		size_t len;
		const char *n = fold_node_name(t, t->seq_node[i], &len);
		assert_int_equal(len, strlen(want[i]));
		assert_memory_equal(n, want[i], len);
	}
	fold_trie_free(t);
	sampler_release(&s);
	replay_free(r);
}

static void sampler_writes_uniprof_raw(void **state)
{
	struct replay_target *r = script(1);
	struct sampler s;
	sampler_init(&s, 1);
	run(&s, r, 2000, NULL);
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	assert_int_equal(sampler_write_raw(&s, f, "pid 1", NULL), 0);
	fclose(f);
	assert_non_null(strstr(buf, "#tracing pid 1\n"));
	const char *body = strstr(buf, "\n\n") + 2;
	/* no run states from this target: time and thread only */
	char want[512];
	snprintf(want, sizeof want,
		 "#sample t_ns=%llu thread=10\n0x2000\n0x1100\n0x1000\n1\n\n"
		 "#sample t_ns=%llu thread=20\n0x3000\n0x1100\n0x1000\n1\n\n",
		 (unsigned long long)s.seq[0].t_ns, (unsigned long long)s.seq[1].t_ns);
	assert_string_equal(body, want);
	free(buf);
	sampler_release(&s);
	replay_free(r);
}

/* Thread 10 alternates running / runnable, thread 20 is blocked but in
 * every fourth round (running); rounds x threads states in all. */
static struct replay_target *state_script(size_t rounds)
{
	struct replay_target *r = script(0);
	uint32_t tids[2] = { 10, 20 };
	struct uf_regs regs[2] = {
		{ .pc = 0x2000, .sp = STACK, .fp = STACK, .arch = UF_ARCH_X86_64 },
		{ .pc = 0x3000, .sp = STACK + 0x100, .fp = STACK + 0x100, .arch = UF_ARCH_X86_64 },
	};
	for (size_t i = 0; i < rounds; i++) {
		enum uf_runstate st[2] = { i % 2 ? UF_RS_RUNNABLE : UF_RS_RUNNING,
					   i % 4 == 3 ? UF_RS_RUNNING : UF_RS_BLOCKED };
		replay_add_round_states(r, tids, regs, st, 2);
	}
	return r;
}

static void sampler_records_run_states(void **state)
{
	struct replay_target *r = state_script(8);
	struct sampler s;
	sampler_init(&s, 1);
	run(&s, r, 2000, NULL);
	assert_int_equal(r->runstate_calls, 16); /* one per thread per round */
	assert_int_equal(s.stats.state_samples[UF_RS_RUNNING], 4 + 2);
	assert_int_equal(s.stats.state_samples[UF_RS_RUNNABLE], 4);
	assert_int_equal(s.stats.state_samples[UF_RS_BLOCKED], 6);
	/* default: waiting samples end in their state's frame */
	fold_trie *t = fold_trie_new();
	struct sampler_fold_opts fo = { .resolve = names };
	assert_int_equal(sampler_fold(&s, t, &fo, NULL), 0);
	char *out = folded(t);
	assert_string_equal(out, "_start;main;f_a 4\n_start;main;f_a;[runnable] 4\n"
				 "_start;main;f_b 2\n_start;main;f_b;[blocked] 6\n");
	assert_true(fold_trie_has_waits(t));
	free(out);
	fold_trie_free(t);
	/* --on-cpu: the running samples only, no pseudo-frame left */
	t = fold_trie_new();
	fold_trie_set_cut(t, &(struct fold_cut){ .states = UF_RS_SET_ONCPU });
	assert_int_equal(sampler_fold(&s, t, &fo, NULL), 0);
	out = folded(t);
	assert_string_equal(out, "_start;main;f_a 4\n_start;main;f_b 2\n");
	assert_true(t->cut_dropped == 10);
	free(out);
	fold_trie_free(t);
	/* time order: each entry keeps the state it was sampled in */
	t = fold_trie_new();
	fo.sequence = 1;
	assert_int_equal(sampler_fold(&s, t, &fo, NULL), 0);
	assert_int_equal(t->seq_len, 16);
	for (size_t i = 0; i < 16; i++) {
		assert_int_equal(fold_seq_state(t, i), s.seq[i].state);
		assert_true(fold_seq_t_ns(t, i) == s.seq[i].t_ns - s.seq[0].t_ns);
	}
	fold_trie_free(t);
	sampler_release(&s);
	replay_free(r);
}

/* The raw trace keeps time, state and thread: read back (fold/in's one
 * reader) it gives the sampler's own per-state counts and times, and the
 * reader applies the cut the way sampler_fold does. */
static void sampler_raw_round_trip_keeps_states(void **state)
{
	struct replay_target *r = state_script(8);
	struct sampler s;
	sampler_init(&s, 1);
	run(&s, r, 2000, NULL);
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	assert_int_equal(sampler_write_raw(&s, f, "replay", NULL), 0);
	fclose(f);
	fold_trie *t = fold_trie_new();
	fold_trie_keep_sequence(t);
	struct fold_read_opts o = { .label = "raw" };
	struct fold_read_stats st = { 0 };
	struct uf_err err = { 0 };
	assert_int_equal(fold_raw_read_mem(t, buf, len, NULL, NULL, &o, &st, NULL, &err), 0);
	assert_int_equal(st.bad, 0);
	for (unsigned k = 0; k < UF_RS_COUNT; k++)
		assert_true(t->state_count[k] == (double)s.stats.state_samples[k]);
	assert_int_equal(t->seq_len, s.seq_len);
	for (size_t i = 0; i < s.seq_len; i++) {
		assert_int_equal(fold_seq_state(t, i), s.seq[i].state);
		assert_true(fold_seq_t_ns(t, i) == s.seq[i].t_ns - s.seq[0].t_ns);
	}
	fold_trie_free(t);
	/* --state blocked --time from the 3rd sample's time on: the samples
	 * the cut says, counted by hand from the sampler's sequence */
	uint64_t from = s.seq[4].t_ns - s.seq[0].t_ns;
	double want = 0;
	for (size_t i = 0; i < s.seq_len; i++)
		want += s.seq[i].state == UF_RS_BLOCKED && s.seq[i].t_ns - s.seq[0].t_ns >= from;
	t = fold_trie_new();
	fold_trie_set_cut(t, &(struct fold_cut){ .states = UF_RS_BIT(UF_RS_BLOCKED), .timed = 1,
						  .from_ns = from, .to_ns = UINT64_MAX });
	assert_int_equal(fold_raw_read_mem(t, buf, len, NULL, NULL, &o, &st, NULL, &err), 0);
	assert_true(want > 0 && want < 6);
	assert_true(fold_trie_kept(t) == want);
	assert_true(t->state_count[UF_RS_BLOCKED] == want);
	fold_trie_free(t);
	free(buf);
	sampler_release(&s);
	replay_free(r);
}

static void sampler_stop_quantiles(void **state)
{
	struct sampler_hist h;
	memset(&h, 0, sizeof h);
	assert_int_equal(sampler_hist_quantile(&h, 0.5), 0);
	for (int i = 0; i < 99; i++)
		sampler_hist_add(&h, 10000 + (uint64_t)i);
	sampler_hist_add(&h, 1000000);
	uint64_t med = sampler_hist_quantile(&h, 0.5);
	assert_true(med > 9700 && med < 10400);
	assert_true(sampler_hist_quantile(&h, 0.99) < 10400);
	assert_int_equal(sampler_hist_quantile(&h, 1.0), 1000000);
	assert_int_equal(h.max_ns, 1000000);
	/* exact below 32 ns, and every value lands within ~3 % */
	memset(&h, 0, sizeof h);
	sampler_hist_add(&h, 7);
	assert_int_equal(sampler_hist_quantile(&h, 0.5), 7);
	for (uint64_t v = 33; v < (1ull << 40); v = v * 3 + 1) {
		memset(&h, 0, sizeof h);
		sampler_hist_add(&h, v);
		sampler_hist_add(&h, v);
		h.max_ns = UINT64_MAX; /* look at the bucket, not the clamp */
		uint64_t q = sampler_hist_quantile(&h, 0.5);
		assert_true(q >= v - v / 30 - 1 && q <= v + v / 30 + 1);
	}
}

static void sampler_times_every_round(void **state)
{
	struct replay_target *r = script(4);
	struct sampler s;
	sampler_init(&s, 0);
	run(&s, r, 2000, NULL);
	assert_int_equal(s.stats.stop.n, 4);
	assert_int_equal(s.stats.frozen.n, 4);
	assert_true(s.stats.frozen.sum_ns <= s.stats.stop.sum_ns);
	sampler_release(&s);
	replay_free(r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(sampler_samples_every_thread),
		cmocka_unit_test(sampler_keeps_samples_on_fault),
		cmocka_unit_test(sampler_round_without_threads_records_nothing),
		cmocka_unit_test(sampler_stop_flag_ends_run),
		cmocka_unit_test(sampler_time_limit_and_missed),
		cmocka_unit_test(sampler_fold_resolves_once_per_address),
		cmocka_unit_test(sampler_fold_keeps_time_order),
		cmocka_unit_test(sampler_fold_names_many_addresses),
		cmocka_unit_test(sampler_writes_uniprof_raw),
		cmocka_unit_test(sampler_records_run_states),
		cmocka_unit_test(sampler_raw_round_trip_keeps_states),
		cmocka_unit_test(sampler_stop_quantiles),
		cmocka_unit_test(sampler_times_every_round),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
