/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * bench/symtab-bench.c — lookups per second over a symbol table, and the
 * time to load it.  Built and run by bench/symtab.sh; never fails a build.
 *
 * Trade-off: addresses come from a fixed-seed xorshift over the table's
 * span, so runs are repeatable and most lookups hit (like real samples),
 * while the access pattern is random (no cache help from sorted input).
 *
 *   symtab-bench FILE [LOOKUPS]     FILE: ELF or nm -n text
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "symtab/symtab.h"

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	if (argc < 2)
		return 1;
	uint64_t lookups = argc > 2 ? strtoull(argv[2], NULL, 10) : 20000000;
	struct uf_err err = {0};
	double t0 = now();
	struct symtab *st = symtab_open_auto(argv[1], &err);
	double t1 = now();
	if (!st) {
		printf("symtab-bench: %s: %s\n", err.what, err.why);
		return 0;
	}
	uint64_t lo, hi, x = 0x9e3779b97f4a7c15ull, hits = 0;
	symtab_symbol(st, 0, &lo, NULL);
	symtab_symbol(st, symtab_count(st) - 1, NULL, &hi);
	uint64_t span = hi - lo ? hi - lo : 1;
	double t2 = now();
	for (uint64_t i = 0; i < lookups; i++) {
		x ^= x << 13, x ^= x >> 7, x ^= x << 17;
		hits += symtab_lookup_ret(st, lo + 1 + x % span, NULL, NULL) != NULL;
	}
	double t3 = now();
	printf("symtab: %zu symbols, load %.1f ms, %.1f M lookups/s (%.0f ns each), hits %.1f%%\n",
	       symtab_count(st), (t1 - t0) * 1e3, lookups / (t3 - t2) / 1e6,
	       (t3 - t2) / lookups * 1e9, 100.0 * hits / lookups);
	symtab_free(st);
	return 0;
}
