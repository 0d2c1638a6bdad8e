/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * bench/fold-phases.c — times the fold/ phases that `render` and `fold` run
 * before any SVG is drawn, so the table's render figure can be split into
 * "reading the input" and "drawing it".
 *
 *   fold-phases FILE...
 *
 * Prints one line: seconds for read (fold_read_path of every FILE into one
 * trie), finish (totals and sibling order), write (sorted folded text to
 * /dev/null) and embed (the SVG's embedded trie block, unlimited budget, to
 * /dev/null), with node and name counts and the peak RSS after each phase.
 *
 * Trade-off: it links the release objects of fold/ and util/ straight from
 * build/rel/, so it measures exactly the code `make` built but breaks when
 * fold.h changes; bench/run.sh then skips it with a note.
 *
 * Invariants:
 *  1. Calls only fold.h's public functions, in the order the CLI does.
 *  2. Exit status 0 when every phase succeeded, 2 otherwise (message on
 *     stderr); bench/run.sh never fails on it.
 */
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "fold/fold.h"

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static double peak_mib(void)
{
	struct rusage ru;
	getrusage(RUSAGE_SELF, &ru);
	return ru.ru_maxrss / 1024.0;
}

static int read_all(fold_trie *t, int n, char **paths)
{
	struct fold_read_opts o = { 0, NULL };
	for (int i = 0; i < n; i++) {
		struct fold_read_stats st;
		struct uf_err err;
		memset(&st, 0, sizeof st);
		uf_err_clear(&err);
		if (fold_read_path(t, paths[i], &o, &st, &err) < 0) {
			fprintf(stderr, "fold-phases: %s: %s\n", err.what, err.why);
			return -1;
		}
	}
	return 0;
}

/* Runs the phases; fills sec[4] and mib[4]; returns 0 or -1. */
static int run(fold_trie *t, int n, char **paths, double *sec, double *mib)
{
	struct fold_embed_info info;
	FILE *null = fopen("/dev/null", "w");
	double t0 = now();
	int rc = null ? read_all(t, n, paths) : -1;
	sec[0] = now() - t0, mib[0] = peak_mib(), t0 = now();
	if (rc == 0 && fold_trie_finish(t) < 0)
		rc = -1;
	sec[1] = now() - t0, mib[1] = peak_mib(), t0 = now();
	if (rc == 0 && fold_write_folded(t, null) < 0)
		rc = -1;
	sec[2] = now() - t0, mib[2] = peak_mib(), t0 = now();
	if (rc == 0 && fold_embed_write(t, null, 0, &info) < 0)
		rc = -1;
	sec[3] = now() - t0, mib[3] = peak_mib();
	if (null)
		fclose(null);
	return rc;
}

int main(int argc, char **argv)
{
	double sec[4] = { 0 }, mib[4] = { 0 };
	if (argc < 2) {
		fprintf(stderr, "usage: fold-phases FILE...\n");
		return 2;
	}
	fold_trie *t = fold_trie_new();
	if (!t || run(t, argc - 1, argv + 1, sec, mib) < 0) {
		fprintf(stderr, "fold-phases: a phase failed\n");
		fold_trie_free(t);
		return 2;
	}
	printf("read %.3f s (%.0f MiB)  finish %.3f s (%.0f MiB)  write %.3f s  embed %.3f s"
	       "  | %u nodes, %u names, peak %.0f MiB\n",
	       sec[0], mib[0], sec[1], mib[1], sec[2], sec[3], t->nnodes, t->nnames, mib[3]);
	fold_trie_free(t);
	return 0;
}
