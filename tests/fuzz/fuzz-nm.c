/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * tests/fuzz/fuzz-nm.c — `nm -n` / `nm -S` symbol files
 * (symtab_open_nm_mem in symtab/symtab.c).
 *
 * Input: nm text.  Oracles: a table that opens passes symtab_check()
 * (sorted, non-empty, disjoint, every symbol found at its first and last
 * byte, names capped), and lookups just outside each symbol stay
 * consistent with symtab_symbol().
 */
#include "tests/fuzz/fuzz.h"

#include "symtab/symtab.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct uf_err err = { 0 };
	struct symtab *st = symtab_open_nm_mem((const char *)data, size, "fuzz", &err);
	if (!st)
		return 0;
	if (symtab_check(st) != 0)
		fuzz_fail("symtab_check failed");
	size_t n = symtab_count(st);
	for (size_t i = 0; i < n && i < 64; i++) {
		uint64_t start, end, off;
		size_t len;
		const char *name = symtab_symbol(st, i, &start, &end);
		if (symtab_lookup(st, start, &off, &len) != name || off != 0 || len != strlen(name))
			fuzz_fail("symbol %zu not found at its start", i);
		if (symtab_lookup_ret(st, end, &off, NULL) != name || off != end - start)
			fuzz_fail("return address at the end of symbol %zu misses it", i);
	}
	symtab_free(st);
	return 0;
}
