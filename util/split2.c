/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * util/split2.c — the implementation of uf_split2_run (design and the
 * small-input rule in util/split2.h): one thread at most, joined before
 * returning, so no part outlives its caller's data.
 */
#include "util/split2.h"
#include "util/thread.h"

int uf_split2_run(uf_split2_fn fa, void *a, uf_split2_fn fb, void *b, int worth)
{
	struct uf_thread th;
	int threaded = worth && uf_thread_start_part(&th, fb, b) == 0;
	fa(a);
	if (threaded)
		uf_thread_join(&th);
	else
		fb(b);
	return threaded;
}
