/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * tests/fuzz/fuzz-elf.c — ELF symbol tables through libelf
 * (symtab_open_elf_mem in symtab/elf.c), including the load-bias lookup
 * of program headers.
 *
 * Input: an ELF image (seeds: small real executables).  Oracles: a table
 * that opens passes symtab_check(); symtab_load_bias() on arbitrary
 * mapping values returns 0 or -ENOENT and nothing else.
 */
#include <errno.h>

#include "tests/fuzz/fuzz.h"

#include "symtab/symtab.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct uf_err err = { 0 };
	struct symtab *st = symtab_open_elf_mem(data, size, "fuzz", &err);
	if (!st)
		return 0;
	if (symtab_check(st) != 0)
		fuzz_fail("symtab_check failed");
	uint64_t bias, off = size > 16 ? (uint64_t)data[size - 1] << 12 : 0;
	int rc = symtab_load_bias(st, 0x555555554000ull, off, &bias);
	if (rc != 0 && rc != -ENOENT)
		fuzz_fail("symtab_load_bias returned %d", rc);
	symtab_free(st);
	return 0;
}
