/*
 * tests/symtab/fuzz-symtab.c — libFuzzer harness for the symtab/ readers
 * (ELF image, nm text) and fold/read-raw.c, aimed at their caps.
 *
 * The first input byte picks the reader; the rest is the file.  Every
 * table that opens goes through symtab_check() (sorted, non-empty,
 * disjoint, every symbol found at its first and last byte), so a bad
 * table is a crash, not only a bad read.  Built and run by tests/symtab/t-fuzz.sh (clang).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fold/fold.h"
#include "fold/raw.h"
#include "symtab/symtab.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check(struct symtab *st)
{
	if (st && symtab_check(st) != 0)
		abort();
	symtab_free(st);
}

static const char *resolve(void *ctx, uint64_t addr, int is_ret, size_t *len)
{
	*len = addr & 1 ? 3 : 0;
	return addr & 2 ? NULL : "fn;";
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 1)
		return 0;
	struct uf_err err = {0};
	const char *buf = (const char *)data + 1;
	size_t len = size - 1;
	switch (data[0] % 3) {
	case 0:
		check(symtab_open_elf_mem(buf, len, "fuzz", &err));
		break;
	case 1:
		check(symtab_open_nm_mem(buf, len, "fuzz", &err));
		break;
	default: {
		fold_trie *t = fold_trie_new();
		struct fold_read_opts o = {.label = "fuzz", .reverse = data[0] & 4};
		struct fold_read_stats st = {0};
		if (t && fold_raw_read_mem(t, buf, len, data[0] & 8 ? resolve : NULL, NULL, &o, &st,
					   NULL, &err) == 0 && fold_trie_check(t) != 0)
			abort();
		fold_trie_free(t);
	}
	}
	return 0;
}
