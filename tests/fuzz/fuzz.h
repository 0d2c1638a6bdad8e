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

#endif
