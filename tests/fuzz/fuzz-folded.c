/*
 * tests/fuzz/fuzz-folded.c — the folded-text reader (fold/read-folded.c)
 * and writer (fold/write-folded.c).
 *
 * Input: any bytes, read as flamegraph.pl folded text.  Oracles: the trie
 * passes fold_trie_check(); the folded text written from it reads back
 * with no bad line, and `fold | fold` is the identity: writing the trie
 * read from our own output gives the same bytes again.
 */
#include "tests/fuzz/fuzz.h"

#include "fold/fold.h"

static char *fold_text(const char *buf, size_t len, size_t *out_len, uint64_t *bad)
{
	fold_trie *t = fold_trie_new();
	struct fold_read_opts o = { .label = "fuzz" };
	struct fold_read_stats st = { 0 };
	struct uf_err err = { 0 };
	struct fuzz_mem m = { 0 };
	if (!t || fold_read_folded_mem(t, buf, len, &o, &st, &err) != 0) {
		fold_trie_free(t);
		return NULL;
	}
	if (fold_trie_check(t) != 0)
		fuzz_fail("fold_trie_check failed after reading");
	*bad = st.bad;
	if (fold_trie_finish(t) == 0 && fuzz_mem_open(&m) == 0) {
		if (fold_write_folded(t, m.f) != 0)
			fuzz_fail("fold_write_folded failed");
		fuzz_mem_close(&m);
	}
	fold_trie_free(t);
	*out_len = m.len;
	return m.buf;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	size_t n1 = 0, n2 = 0;
	uint64_t bad1 = 0, bad2 = 0;
	char *f1 = fold_text((const char *)data, size, &n1, &bad1);
	if (!f1)
		return 0;
	char *f2 = fold_text(f1, n1, &n2, &bad2);
	if (fuzz_oracle() && f2 && bad2 != 0)
		fuzz_fail("fold output has %llu line(s) fold rejects", (unsigned long long)bad2);
	if (fuzz_oracle() && f2 && (n1 != n2 || memcmp(f1, f2, n1) != 0))
		fuzz_fail("fold | fold is not the identity (%zu vs %zu bytes)", n1, n2);
	free(f1);
	free(f2);
	return 0;
}
