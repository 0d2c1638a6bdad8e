/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * cli/inputs.c — see cli/inputs.h.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/cmd.h"
#include "cli/inputs.h"
#include "cli/io-opts.h"
#include "fold/in/in.h"
#include "util/bigalloc.h"
#include "util/split2.h"

/* Folded files are read by fold/'s sorted path, which uses both cores
 * itself (fold/sorted.c). */
static int read_one(fold_trie *t, const char *path, const struct fold_read_opts *o,
		    struct fold_read_stats *st, struct uf_err *err)
{
	return fold_read_path(t, path, o, st, err);
}

/* Warnings for what reading skipped (stats summed over the inputs, or
 * one input's). */
void cli_warn_read_stats(const struct fold_read_stats *total)
{
	if (total->bad)
		cli_warn("skipped %llu invalid line%s (first at %s)", (unsigned long long)total->bad,
			 total->bad == 1 ? "" : "s", total->first_bad);
	if (total->truncated)
		cli_warn("%llu stack%s deeper than %d frames truncated",
			 (unsigned long long)total->truncated, total->truncated == 1 ? "" : "s",
			 FOLD_MAX_DEPTH);
}

int cli_cut_check(fold_trie *t, const char *what, struct uf_err *err)
{
	if (!fold_trie_has_cut(t) || fold_trie_kept(t) > 0)
		return 0;
	const char *why = t->cut.timed && !t->timed_seen ? "no sample has a time"
			  : t->cut.states && !fold_trie_has_states(t) ? "no sample has a run state"
			  : "all fall outside";
	uf_err_set(err, UF_EINPUT, what, "no samples left by --time/--state (%.15g left out: %s)",
		   t->cut_dropped, why);
	return -EINVAL;
}

/* --state on inputs that carry only their waits' pseudo-frames (folded
 * text, an SVG without times): *tp replaced by its cut by those frames. */
static int cut_by_state_frames(fold_trie **tp, const char *what, struct uf_err *err)
{
	fold_trie *v;
	int rc = fold_trie_finish(*tp); /* the rewrite walks a finished trie's paths */
	if (rc == 0)
		rc = fold_rewrite_state_frames(*tp, (*tp)->cut.states, &v);
	if (rc == -ENOENT)
		uf_err_set(err, UF_EINPUT, what, "--state: this input has no run states (no "
			   "[runnable]/[blocked]/[offline] frames, no 'states' metadata line)");
	else if (rc)
		uf_err_oom(err, "--state");
	if (rc)
		return rc == -ENOMEM ? -ENOMEM : -EINVAL;
	fold_trie_free(*tp);
	*tp = v;
	return 0;
}

/* After a cut of an SVG's timed samples its tree still holds the stacks
 * whose samples were all left out: *tp (and *t) without them, so `fold`
 * prints no "STACK 0" line.  A kept sequence (flame chart, exports) keeps
 * its trie: its order, times and states point into it. */
static int drop_empty(fold_trie **tp, fold_trie **t)
{
	fold_trie *v;
	if (!((*tp)->cut_dropped > 0) || (*tp)->keep_seq || (*tp)->total[0] <= 0)
		return 0;
	if (fold_rewrite_drop_empty(*tp, &v) != 0)
		return -ENOMEM;
	fold_trie_free(*tp);
	*tp = *t = v;
	return 0;
}

/* After input i is read: a cut (--time/--state) that checked none of its
 * samples had no per-sample data.  --time then has nothing to cut by;
 * --state falls back to the leaf pseudo-frames, which every input must then
 * use (by_frames counts them): mixing the two kinds would cut each by a
 * different truth. */
static int check_cut_kind(const fold_trie *t, const char *path, int i, uint64_t checked,
			  int *by_frames, struct uf_err *err)
{
	int per_sample = !fold_trie_has_cut(t) || t->samples_checked != checked;
	if (!per_sample && t->cut.timed) {
		uf_err_set(err, UF_EINPUT, path, "--time: this input has no sample times (folded "
			   "text carries none, nor an SVG of such input; use the raw trace, the perf "
			   "script or a recorded SVG)");
		return -1;
	}
	if (per_sample ? *by_frames > 0 : i > 0 && *by_frames == 0) {
		uf_err_set(err, UF_EINPUT, path, "--state: cannot cut inputs with per-sample "
			   "states and folded inputs together (cut each on its own)");
		return -1;
	}
	*by_frames += !per_sample;
	return 0;
}

/* The size of the file at path, 0 when it has none (a pipe) or is gone. */
static size_t disk_bytes(const char *path)
{
	struct stat sb;
	return stat(path, &sb) == 0 && S_ISREG(sb.st_mode) ? (size_t)sb.st_size : 0;
}

/* Big inputs (util/split2.h's 1 MiB of text, on their sizes on disk): malloc
 * keeps freed blocks for the next phase (util/bigalloc.h).  Small ones get
 * a heap of 3/4 of their size faulted in at once (uf_heap_prefault): a
 * page fault is what a small render mostly pays for its memory. */
static void keep_freed_if_big(char **paths, int n)
{
	size_t bytes = 0;
	for (int i = 0; i < n; i++)
		bytes += strcmp(paths[i], "-") ? disk_bytes(paths[i]) : 0;
	if (uf_split2_worth(bytes, UF_SPLIT2_MIN_BYTES))
		uf_alloc_keep_freed();
	else if (bytes)
		uf_heap_prefault(bytes / 4 * 3);
}

int cli_read_inputs(fold_trie **tp, char **paths, int n, int reverse, const struct cli_io_opts *io,
		    struct uf_err *err)
{
	fold_trie *t = *tp;
	int by_frames = 0;
	static char *stdin_only[] = { "-" };
	if (n == 0) {
		paths = stdin_only;
		n = 1;
	}
	struct fold_read_stats total = { 0 };
	keep_freed_if_big(paths, n);
	if (io)
		fold_trie_set_cut(t, &io->cut);
	for (int i = 0; i < n; i++) {
		uint64_t checked = t->samples_checked;
		struct fold_read_opts o = { .reverse = reverse, .label = paths[i],
					    .force_perf = io && io->force_perf, .perf = io ? &io->perf : NULL };
		struct fold_read_stats st = { 0 };
		int rc = read_one(t, paths[i], &o, &st, err);
		if (rc)
			return rc;
		if (check_cut_kind(t, paths[i], i, checked, &by_frames, err) < 0)
			return -EINVAL;
		if (st.perf_other && !(io && io->perf.event))
			cli_warn("%s: kept only '%s' samples (the first event, as stackcollapse-perf.pl "
				 "does); skipped %llu of other events (--event-filter EVENT picks one)",
				 paths[i], st.perf_event, (unsigned long long)st.perf_other);
		if (st.bad && !total.bad)
			memcpy(total.first_bad, st.first_bad, sizeof total.first_bad);
		total.bad += st.bad;
		total.truncated += st.truncated;
		if (st.embedded_pruned)
			cli_warn("%s: its embedded profile was pruned when written; counts of small "
				 "subtrees are folded into their parents", paths[i]);
		if (st.time_order && !t->keep_seq)
			cli_warn("%s: a flame chart: its time order is kept only with --flamechart",
				 paths[i]);
		if (st.approximate)
			cli_warn("%s: approximate: %s", paths[i], st.approx_why);
	}
	int empty = t->nnodes <= 1 && t->self[0] == 0 && t->seq_len == 0;
	if (empty && total.bad) { /* one line: the error says what the warning would */
		uf_err_set(err, UF_EINPUT, n == 1 ? paths[0] : "input",
			   "no valid stacks (%llu invalid line%s, the first at %s)",
			   (unsigned long long)total.bad, total.bad == 1 ? "" : "s", total.first_bad);
		return -EINVAL;
	}
	cli_warn_read_stats(&total);
	if (by_frames) {
		int rc = cut_by_state_frames(tp, n == 1 ? paths[0] : "input", err);
		if (rc)
			return rc;
		t = *tp;
	}
	if (cli_cut_check(t, n == 1 ? paths[0] : "input", err) < 0)
		return -EINVAL;
	if (fold_trie_state_meta(t) < 0 || fold_trie_finish(t) || drop_empty(tp, &t) < 0) {
		uf_err_oom(err, "input");
		return -ENOMEM;
	}
	if (t->nnodes <= 1 && t->self[0] == 0) {
		uf_err_set(err, UF_EINPUT, n == 1 ? paths[0] : "input", "no valid stacks");
		return -EINVAL;
	}
	return 0;
}

struct reader_job {
	const char *path;
	fold_trie *t;
	const struct cli_io_opts *io;
	struct uf_err err;
	int rc;
};

static void *read_job(void *arg)
{
	struct reader_job *j = arg;
	char *paths[] = { (char *)j->path };
	j->rc = cli_read_inputs(&j->t, paths, 1, 0, j->io, &j->err);
	return NULL;
}

int cli_read_diff(const char *before, const char *after, int normalize, int swap,
		  const struct cli_io_opts *io, fold_trie **out, struct uf_err *err)
{
	struct reader_job a = { .path = before, .t = fold_trie_new(), .io = io };
	struct reader_job b = { .path = after, .t = fold_trie_new(), .io = io };
	int rc = -ENOMEM;
	*out = NULL;
	if (!a.t || !b.t) {
		uf_err_oom(err, "diff");
		goto out;
	}
	char *both[] = { (char *)before, (char *)after };
	keep_freed_if_big(both, 2);
	/* two folded files: one sorted read into one differential trie */
	struct fold_read_stats st[2] = { { 0 }, { 0 } };
	rc = io && (io->force_perf || io->cut.states || io->cut.timed) ? 1 : fold_read_diff_paths(b.t, before, after, normalize, swap, st, err);
	if (rc != 1) {
		if (rc == 0) { /* a refused file's error already says it all */
			cli_warn_read_stats(&st[0]);
			cli_warn_read_stats(&st[1]);
		}
		if (rc == 0 && (rc = fold_trie_finish(b.t)) != 0)
			uf_err_oom(err, "diff");
		if (rc == 0) {
			*out = b.t;
			b.t = NULL;
		}
		goto out;
	}
	/* two named files, b on a second thread unless both are small
	 * (util/split2.h's rule, on their sizes on disk) */
	uf_split2(read_job, &a, &b, strcmp(before, "-") && strcmp(after, "-") &&
		  uf_split2_worth(disk_bytes(before) + disk_bytes(after), UF_SPLIT2_MIN_BYTES));
	if (a.rc || b.rc) {
		*err = a.rc ? a.err : b.err;
		rc = a.rc ? a.rc : b.rc;
		goto out;
	}
	fold_trie *drawn = swap ? a.t : b.t, *base = swap ? b.t : a.t;
	double scale = normalize ? drawn->total[0] / base->total[0] : 1;
	if ((rc = fold_trie_diff_into(drawn, base, scale)) != 0 || (rc = fold_trie_finish(drawn)) != 0) {
		uf_err_oom(err, "diff");
		goto out;
	}
	*out = drawn;
	if (swap)
		a.t = NULL;
	else
		b.t = NULL;
out:
	fold_trie_free(a.t);
	fold_trie_free(b.t);
	return rc;
}
