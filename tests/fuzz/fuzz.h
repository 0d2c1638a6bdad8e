/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * tests/fuzz/fuzz.h — what every libFuzzer harness under tests/fuzz/
 * shares: the entry point's prototype, a failing oracle that says why,
 * and in-memory output for round-trip oracles.
 *
 * A harness turns its input into one call of a reader or walker and then
 * checks more than the sanitizers can: the module's invariant checker,
 * round trips (fold | fold is the identity), bounds on work per input.
 * A broken oracle calls fuzz_fail(), which prints the reason and aborts,
 * so libFuzzer keeps the input as a crash.
 *
 * Oracles beyond the sanitizers can be switched off for one run with
 * UF_FUZZ_ORACLE=0 in the environment (to fuzz for memory errors while a
 * known round-trip defect is still open); make check never does.
 */
#ifndef UF_TESTS_FUZZ_H
#define UF_TESTS_FUZZ_H

#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fold/fold.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

__attribute__((noreturn, format(printf, 1, 2), unused))
static void fuzz_fail(const char *fmt, ...)
{
	__builtin_va_list ap;
	__builtin_va_start(ap, fmt);
	fputs("fuzz oracle: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	__builtin_va_end(ap);
	abort();
}

/* 1 unless UF_FUZZ_ORACLE=0 (read once). */
__attribute__((unused))
static int fuzz_oracle(void)
{
	static int on = -1;
	if (on < 0) {
		const char *e = getenv("UF_FUZZ_ORACLE");
		on = !(e && e[0] == '0');
	}
	return on;
}

/* An in-memory FILE; fuzz_mem_close() returns its bytes (owned). */
struct fuzz_mem {
	FILE *f;
	char *buf;
	size_t len;
};

__attribute__((unused))
static int fuzz_mem_open(struct fuzz_mem *m)
{
	m->buf = NULL;
	m->len = 0;
	m->f = open_memstream(&m->buf, &m->len);
	return m->f ? 0 : -1;
}

__attribute__((unused))
static void fuzz_mem_close(struct fuzz_mem *m)
{
	if (m->f)
		fclose(m->f);
	m->f = NULL;
}

/* The folded text of finished trie t (owned, *len bytes), or NULL when
 * the writer refuses the trie as it may (fold/write-folded.c rule 4: a
 * count too long or a trailing empty name, "refused, never changed");
 * any other failure breaks the oracle. */
__attribute__((unused))
static char *fuzz_write_folded(const struct fold_trie *t, size_t *len)
{
	struct fuzz_mem m;
	if (fuzz_mem_open(&m))
		abort();
	int rc = fold_write_folded(t, m.f);
	fuzz_mem_close(&m);
	if (rc == -ERANGE || rc == -EDOM) {
		free(m.buf);
		return NULL;
	}
	if (rc != 0)
		fuzz_fail("fold_write_folded failed: %d", rc);
	*len = m.len;
	return m.buf;
}

/* ---- the resource oracle (issue 28) ----------------------------------
 *
 * A reader's harness defines `static int fuzz_input(data, size)` and
 * FUZZ_READER(fuzz_input) makes it the entry point, measured: the peak of
 * live heap bytes while it runs (ASan's malloc and free hooks; memory
 * mapped directly, as big trie arrays are, is not seen) must stay under
 * FUZZ_HEAP_BASE + FUZZ_HEAP_PER_BYTE * size, and its wall time under
 * FUZZ_TIME_BASE_S + FUZZ_TIME_PER_BYTE_S * size.  The factors are
 * generous (a harness reads its input four or five times, into several
 * tries, instrumented) yet a deflate or gzip bomb (1000x), or a quadratic
 * table fed a hash-flood input from the corpus, breaks them.
 * UF_FUZZ_RESOURCES=1 prints both figures for each input.
 */
#include <sanitizer/allocator_interface.h>
#include <time.h>

#define FUZZ_HEAP_BASE (64ull << 20)
#define FUZZ_HEAP_PER_BYTE 512
#define FUZZ_TIME_BASE_S 2.0
#define FUZZ_TIME_PER_BYTE_S 20e-6

/* Heap bytes, atomically (reader threads).  Signed: a free of a block
 * malloc'd before the hooks were installed (a lazily made buffer of libc
 * or libFuzzer) takes live below zero, and an unsigned live wrapped there
 * read as a peak of 2^64 - a few bytes on the next malloc (the replay of
 * the embed-pack corpus failed so in 2 of 20 runs).  Only differences
 * within one input are used, and they stay exact. */
static int64_t fuzz_live, fuzz_peak;

__attribute__((unused))
static void fuzz_malloc_hook(const volatile void *p, size_t n)
{
	(void)p;
	int64_t live = __atomic_add_fetch(&fuzz_live, (int64_t)n, __ATOMIC_RELAXED);
	int64_t peak = __atomic_load_n(&fuzz_peak, __ATOMIC_RELAXED);
	while (live > peak &&
	       !__atomic_compare_exchange_n(&fuzz_peak, &peak, live, 1, __ATOMIC_RELAXED, __ATOMIC_RELAXED))
		;
}

__attribute__((unused))
static void fuzz_free_hook(const volatile void *p)
{
	if (p) /* the hook runs before the chunk is released: its size is known */
		__atomic_sub_fetch(&fuzz_live, (int64_t)__sanitizer_get_allocated_size((const void *)p),
				   __ATOMIC_RELAXED);
}

__attribute__((unused))
static double fuzz_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

__attribute__((unused))
static int fuzz_measured(int (*one)(const uint8_t *, size_t), const uint8_t *data, size_t size)
{
	static int hooked;
	if (!hooked++)
		__sanitizer_install_malloc_and_free_hooks(fuzz_malloc_hook, fuzz_free_hook);
	int64_t base = __atomic_load_n(&fuzz_live, __ATOMIC_RELAXED);
	__atomic_store_n(&fuzz_peak, base, __ATOMIC_RELAXED);
	double t0 = fuzz_now();
	int rc = one(data, size);
	double secs = fuzz_now() - t0;
	uint64_t heap = (uint64_t)(__atomic_load_n(&fuzz_peak, __ATOMIC_RELAXED) - base); /* >= 0 */
	if (getenv("UF_FUZZ_RESOURCES"))
		fprintf(stderr, "fuzz resources: %zu bytes: %.3f s, %llu bytes of heap\n", size, secs,
			(unsigned long long)heap);
	if (!fuzz_oracle())
		return rc;
	if (heap > FUZZ_HEAP_BASE + (uint64_t)FUZZ_HEAP_PER_BYTE * size)
		fuzz_fail("%zu input bytes took %llu bytes of heap (cap: %llu + %d a byte)", size,
			  (unsigned long long)heap, (unsigned long long)FUZZ_HEAP_BASE, FUZZ_HEAP_PER_BYTE);
	if (secs > FUZZ_TIME_BASE_S + FUZZ_TIME_PER_BYTE_S * (double)size)
		fuzz_fail("%zu input bytes took %.2f s (cap: %.1f s + %.0f us a byte)", size, secs,
			  FUZZ_TIME_BASE_S, FUZZ_TIME_PER_BYTE_S * 1e6);
	return rc;
}

#define FUZZ_READER(fn)                                                  \
	int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)      \
	{                                                                 \
		return fuzz_measured(fn, data, size);                     \
	}

#endif
