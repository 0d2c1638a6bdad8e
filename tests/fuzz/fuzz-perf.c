/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * tests/fuzz/fuzz-perf.c — the `perf script` reader (fold/read-perf.c),
 * with every stackcollapse-perf.pl option it implements.
 *
 * Input: byte 0 picks the options (--pid, --tid, --kernel, --jit, --all,
 * --addrs, --reverse), the rest is `perf script` text (seeds: real perf
 * output of the examples).  Oracles: the trie passes fold_trie_check();
 * the file reader and the memory reader agree; the folded text written
 * from it reads back with no bad line and `fold | fold` keeps it as is.
 */
#include <sys/mman.h>
#include <unistd.h>

#include "tests/fuzz/fuzz.h"

#include "fold/fold.h"

static char *write_folded(fold_trie *t, size_t *len)
{
	return fold_trie_finish(t) == 0 ? fuzz_write_folded(t, len) : NULL;
}

/* Collapses the perf text (through a file when fd >= 0) to folded text. */
static char *collapse(const char *buf, size_t len, int fd, const struct fold_read_opts *o,
		      size_t *out_len)
{
	fold_trie *t = fold_trie_new();
	struct fold_read_stats st = { 0 };
	struct uf_err err = { 0 };
	char *out = NULL;
	if (!t)
		abort();
	int rc = fd >= 0 ? fold_read_perf_fd(t, fd, NULL, 0, o, &st, &err)
			 : fold_read_perf_mem(t, buf, len, o, &st, &err);
	if (rc == 0) {
		if (fold_trie_check(t) != 0)
			fuzz_fail("fold_trie_check failed after reading perf script text");
		out = write_folded(t, out_len);
	}
	fold_trie_free(t);
	return out;
}

static char *refold(const char *buf, size_t len, size_t *out_len, uint64_t *bad)
{
	fold_trie *t = fold_trie_new();
	struct fold_read_opts o = { .label = "fuzz" };
	struct fold_read_stats st = { 0 };
	struct uf_err err = { 0 };
	char *out = NULL;
	if (t && fold_read_folded_mem(t, buf, len, &o, &st, &err) == 0)
		out = write_folded(t, out_len);
	*bad = st.bad;
	fold_trie_free(t);
	return out;
}

static int fuzz_input(const uint8_t *data, size_t size)
{
	/* the input becomes the whole file: written over the last one, then
	 * cut to its size (truncating to 0 first freed and refaulted every
	 * page of the memfd on every input) */
	static int fd = -1;
	if (size < 1)
		return 0;
	uint8_t b = data[0];
	struct fold_perf_opts po = { .pid = b & 1, .tid = b & 2, .kernel = b & 4, .jit = b & 8,
				     .all = b & 16, .addrs = b & 32 };
	struct fold_read_opts o = { .label = "fuzz", .perf = &po, .reverse = b & 64 };
	const char *text = (const char *)data + 1;
	size_t len = size - 1, n1 = 0, n2 = 0, n3 = 0;
	uint64_t bad = 0;
	if (fd < 0 && (fd = memfd_create("fuzz-perf", MFD_CLOEXEC)) < 0)
		abort();
	if (pwrite(fd, text, len, 0) != (ssize_t)len || ftruncate(fd, (off_t)len) ||
	    lseek(fd, 0, SEEK_SET) != 0)
		abort();
	char *f1 = collapse(text, len, -1, &o, &n1);
	char *f3 = collapse(NULL, len, fd, &o, &n3);
	if (!f1 != !f3 || (f1 && (n1 != n3 || memcmp(f1, f3, n1))))
		fuzz_fail("the file and memory readers disagree");
	free(f3);
	if (!f1)
		return 0;
	char *f2 = refold(f1, n1, &n2, &bad);
	if (fuzz_oracle() && !f2)
		fuzz_fail("our own folded output does not fold again");
	if (fuzz_oracle() && f2 && bad)
		fuzz_fail("collapsed output has %llu line(s) fold rejects", (unsigned long long)bad);
	if (fuzz_oracle() && f2 && (n1 != n2 || memcmp(f1, f2, n1)))
		fuzz_fail("fold changed the collapsed output (%zu vs %zu bytes)", n1, n2);
	free(f1);
	free(f2);
	return 0;
}

FUZZ_READER(fuzz_input)
