/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * util/split2.c — the implementation of uf_split2_run (design and the
 * small-input rule in util/split2.h): one thread at most, joined before
 * returning, so no part outlives its caller's data.
 */
#include <pthread.h>

#include "util/split2.h"

int uf_split2_run(uf_split2_fn fa, void *a, uf_split2_fn fb, void *b, int worth)
{
	pthread_t th;
	int threaded = worth && pthread_create(&th, NULL, fb, b) == 0;
	fa(a);
	if (threaded)
		pthread_join(th, NULL);
	else
		fb(b);
	return threaded;
}
