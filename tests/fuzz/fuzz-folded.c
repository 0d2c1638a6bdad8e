/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * tests/fuzz/fuzz-folded.c — the folded-text reader (fold/read-folded.c)
 * and writer (fold/write-folded.c).
 *
 * Input: any bytes, read as flamegraph.pl folded text.  Oracles: the trie
 * passes fold_trie_check(); the sorted reader (what an empty trie gets),
 * the streaming reader (what a kept sequence gets) and the file reader
 * (pread() of a range, as the CLI reads files) agree; the folded text written
 * from the trie reads back with no bad line, and `fold | fold` is the
 * identity: writing the trie read from our own output gives the same
 * bytes again.
 */
#include <sys/mman.h>
#include <unistd.h>

#include "tests/fuzz/fuzz.h"

#include "fold/fold.h"

/* Folds buf (from memory, or through a file when fd >= 0; with the
 * streaming reader when `stream`) and writes it. */
static char *fold_text_as(const char *buf, size_t len, int fd, int stream, size_t *out_len,
			  uint64_t *bad)
{
	fold_trie *t = fold_trie_new();
	if (t && stream)
		fold_trie_keep_sequence(t);   /* the sorted reader declines such a trie */
	struct fold_read_opts o = { .label = "fuzz" };
	struct fold_read_stats st = { 0 };
	struct uf_err err = { 0 };
	char *out = NULL;
	int rc = !t ? -1
	     : fd >= 0 ? fold_read_folded_range(t, fd, 0, len, &o, &st, &err)
		       : fold_read_folded_mem(t, buf, len, &o, &st, &err);
	if (rc != 0) {
		fold_trie_free(t);
		return NULL;
	}
	if (fold_trie_check(t) != 0)
		fuzz_fail("fold_trie_check failed after reading");
	*bad = st.bad;
	if (fold_trie_finish(t) == 0)
		out = fuzz_write_folded(t, out_len);
	fold_trie_free(t);
	return out;
}

static char *fold_text(const char *buf, size_t len, int fd, size_t *out_len, uint64_t *bad)
{
	return fold_text_as(buf, len, fd, 0, out_len, bad);
}

static int fuzz_input(const uint8_t *data, size_t size)
{
	/* the input becomes the whole file: written over the last one, then
	 * cut to its size (truncating to 0 first freed and refaulted every
	 * page of the memfd on every input) */
	static int fd = -1;
	size_t n1 = 0, n2 = 0, n3 = 0;
	uint64_t bad1 = 0, bad2 = 0, bad3 = 0;
	if (fd < 0 && (fd = memfd_create("fuzz-folded", MFD_CLOEXEC)) < 0)
		abort();
	if (pwrite(fd, data, size, 0) != (ssize_t)size || ftruncate(fd, (off_t)size))
		abort();
	char *f1 = fold_text((const char *)data, size, -1, &n1, &bad1);
	char *f3 = fold_text(NULL, size, fd, &n3, &bad3);
	if (!f1 != !f3 || (f1 && (n1 != n3 || memcmp(f1, f3, n1) || bad1 != bad3)))
		fuzz_fail("the file and memory readers disagree");
	free(f3);
	f3 = fold_text_as((const char *)data, size, -1, 1, &n3, &bad3);
	if (!f1 != !f3 || (f1 && (n1 != n3 || memcmp(f1, f3, n1) || bad1 != bad3)))
		fuzz_fail("the sorted and streaming readers disagree");
	free(f3);
	if (!f1)
		return 0;
	char *f2 = fold_text(f1, n1, -1, &n2, &bad2);
	if (fuzz_oracle() && !f2)
		fuzz_fail("our own folded output does not fold again");
	if (fuzz_oracle() && f2 && bad2 != 0)
		fuzz_fail("fold output has %llu line(s) fold rejects", (unsigned long long)bad2);
	if (fuzz_oracle() && f2 && (n1 != n2 || memcmp(f1, f2, n1) != 0))
		fuzz_fail("fold | fold is not the identity (%zu vs %zu bytes)", n1, n2);
	free(f1);
	free(f2);
	return 0;
}

FUZZ_READER(fuzz_input)
