/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * tests/fuzz/fuzz-cfi-table.c — compiling unwind tables from an ELF
 * file's .eh_frame and .debug_frame (unwind/table.c, unwind/cfa.c).
 *
 * Input: an ELF image (seeds: small real programs for x86-64 and AArch64,
 * built with and without frame pointers), handed over as a file (a
 * memfd), as the profiler opens a guest's .dbg.  Oracles: a table that
 * builds passes unwind_table_check() (rows sorted, non-overlapping, gaps
 * explicit) and every lookup lands on a row inside [base, end).
 */
#include <sys/mman.h>
#include <unistd.h>

#include "tests/fuzz/fuzz.h"

#include "unwind/unwind.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* the input becomes the whole file: written over the last one, then
	 * cut to its size (truncating to 0 first freed and refaulted every
	 * page of the memfd on every input) */
	static int fd = -1;
	if (fd < 0 && (fd = memfd_create("fuzz-cfi", MFD_CLOEXEC)) < 0)
		abort();
	if (pwrite(fd, data, size, 0) != (ssize_t)size || ftruncate(fd, (off_t)size) ||
	    lseek(fd, 0, SEEK_SET) != 0)
		abort();
	struct uf_err err = { 0 };
	struct unwind_table *t = unwind_table_open_fd(fd, "fuzz", &err);
	if (!t)
		return 0;
	if (unwind_table_check(t) != 0)
		fuzz_fail("unwind_table_check failed");
	for (uint32_t i = 0; i < t->nrows && i < 256; i++) {
		uint64_t a = t->base + t->rows[i].start;
		const struct unwind_row *r = unwind_table_find(t, a);
		if (r && (r < t->rows || r >= t->rows + t->nrows || t->base + r->start > a))
			fuzz_fail("lookup of %#llx gave a row outside the table", (unsigned long long)a);
	}
	(void)unwind_table_find(t, t->base - 1);
	(void)unwind_table_find(t, t->end);
	unwind_table_free(t);
	return 0;
}
