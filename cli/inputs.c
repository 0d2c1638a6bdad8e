/*
 * cli/inputs.c — see cli/inputs.h.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/cmd.h"
#include "cli/inputs.h"
#include "cli/io-opts.h"

/* Big folded files are parsed in two halves on two threads, each into
 * its own trie, then merged: the parse dominates render time and the
 * machines we run on have two cores.  Flame charts (which need input
 * order), SVGs and streams take the single-threaded path. */
#define SPLIT_MIN_BYTES (32u << 20)

struct half_job {
	fold_trie *t;
	int fd;
	uint64_t off, len;
	struct fold_read_opts o;
	struct fold_read_stats st;
	struct uf_err err;
	int rc;
};

static void *read_half(void *arg)
{
	struct half_job *j = arg;
	j->rc = fold_read_folded_range(j->t, j->fd, j->off, j->len, &j->o, &j->st, &j->err);
	return NULL;
}

/* Whether fold_detect_format (the readers' own detector) calls the
 * regular file fd of `size` bytes folded text: only then may it be cut. */
static int is_folded(int fd, uint64_t size)
{
	size_t have = 0, want = 4096;
	char *buf = malloc(FOLD_DETECT_MAX); /* diff runs two of these at once */
	enum fold_format f = FOLD_FMT_UNKNOWN;
	while (buf) {
		ssize_t got = pread(fd, buf + have, want - have, (off_t)have);
		if (got <= 0)
			break;
		have += (size_t)got;
		f = fold_detect_format(buf, have, have >= size);
		if (f != FOLD_FMT_MORE)
			break;
		want = have * 2 < FOLD_DETECT_MAX ? have * 2 : FOLD_DETECT_MAX;
	}
	free(buf);
	return f == FOLD_FMT_FOLDED;
}

/* Where to cut fd's bytes: just after a newline near the middle; 0 when
 * the file should not be split. */
static uint64_t split_point(int fd, uint64_t size)
{
	char buf[65536];
	if (size < SPLIT_MIN_BYTES || !is_folded(fd, size))
		return 0;
	ssize_t got = pread(fd, buf, sizeof buf, (off_t)(size / 2));
	char *nl = got > 0 ? memchr(buf, '\n', (size_t)got) : NULL;
	return nl ? size / 2 + (uint64_t)(nl - buf) + 1 : 0;
}

/* Reads a big regular file in two halves; returns 1 when it did not
 * apply (the caller reads the file as usual). */
static int read_split(fold_trie *t, const char *path, const struct fold_read_opts *o,
		      struct fold_read_stats *st, struct uf_err *err)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	struct stat sb;
	if (fd < 0 || fstat(fd, &sb) != 0 || !S_ISREG(sb.st_mode)) {
		if (fd >= 0)
			close(fd);
		return 1;
	}
	uint64_t cut = split_point(fd, (uint64_t)sb.st_size);
	pthread_t th;
	struct half_job a = { t, fd, 0, cut, *o, { 0 }, { 0 }, 0 };
	struct half_job b = { fold_trie_new(), fd, cut, (uint64_t)sb.st_size - cut, *o, { 0 }, { 0 }, 0 };
	/* about one new call path per 128 input bytes in big profiles */
	if (cut && b.t && (fold_trie_reserve(a.t, (uint32_t)((uint64_t)sb.st_size / 128)) ||
			   fold_trie_reserve(b.t, (uint32_t)(b.len / 128)))) {
		fold_trie_free(b.t);
		close(fd);
		return 1;
	}
	if (!cut || !b.t || pthread_create(&th, NULL, read_half, &b) != 0) {
		fold_trie_free(b.t);
		close(fd);
		return 1;
	}
	read_half(&a);
	pthread_join(th, NULL);
	close(fd);
	int rc = a.rc ? a.rc : b.rc;
	if (rc)
		*err = a.rc ? a.err : b.err;
	else if ((rc = fold_trie_merge(t, b.t)) != 0)
		uf_err_set(err, UF_EINPUT, path, "out of memory");
	*st = a.st;
	st->lines += b.st.lines;
	st->bad += b.st.bad;
	st->truncated += b.st.truncated;
	if (!a.st.bad && b.st.bad)
		snprintf(st->first_bad, sizeof st->first_bad, "%s:%llu", path,
			 (unsigned long long)(a.st.lines + b.st.first_bad_line));
	fold_trie_free(b.t);
	return rc;
}

static int read_one(fold_trie *t, const char *path, const struct fold_read_opts *o,
		    struct fold_read_stats *st, struct uf_err *err)
{
	if (strcmp(path, "-") != 0 && !t->keep_seq && !o->force_perf) {
		int rc = read_split(t, path, o, st, err);
		if (rc != 1)
			return rc;
	}
	return fold_read_path(t, path, o, st, err);
}

int cli_read_inputs(fold_trie *t, char **paths, int n, int reverse, struct uf_err *err)
{
	static char *stdin_only[] = { "-" };
	if (n == 0) {
		paths = stdin_only;
		n = 1;
	}
	struct fold_read_stats total = { 0 };
	for (int i = 0; i < n; i++) {
		const struct cli_io_opts *io = cli_inputs_config();
		struct fold_read_opts o = { .reverse = reverse, .label = paths[i],
					    .force_perf = io && io->force_perf, .perf = io ? &io->perf : NULL };
		struct fold_read_stats st = { 0 };
		int rc = read_one(t, paths[i], &o, &st, err);
		if (rc)
			return rc;
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
	if (total.bad)
		cli_warn("skipped %llu invalid line%s (first at %s)", (unsigned long long)total.bad,
			 total.bad == 1 ? "" : "s", total.first_bad);
	if (total.truncated)
		cli_warn("%llu stack%s deeper than %d frames truncated",
			 (unsigned long long)total.truncated, total.truncated == 1 ? "" : "s",
			 FOLD_MAX_DEPTH);
	if (fold_trie_finish(t)) {
		uf_err_set(err, UF_EINPUT, "input", "out of memory");
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
	struct uf_err err;
	int rc;
};

static void *read_job(void *arg)
{
	struct reader_job *j = arg;
	char *paths[] = { (char *)j->path };
	j->rc = cli_read_inputs(j->t, paths, 1, 0, &j->err);
	return NULL;
}

int cli_read_diff(const char *before, const char *after, int normalize, int swap,
		  fold_trie **out, struct uf_err *err)
{
	struct reader_job a = { .path = before, .t = fold_trie_new() };
	struct reader_job b = { .path = after, .t = fold_trie_new() };
	int rc = -ENOMEM;
	*out = NULL;
	if (!a.t || !b.t) {
		uf_err_set(err, UF_EINPUT, "diff", "out of memory");
		goto out;
	}
	pthread_t th;
	int threaded = strcmp(before, "-") && strcmp(after, "-") &&
		       pthread_create(&th, NULL, read_job, &a) == 0;
	if (!threaded)
		read_job(&a);
	read_job(&b);
	if (threaded)
		pthread_join(th, NULL);
	if (a.rc || b.rc) {
		*err = a.rc ? a.err : b.err;
		rc = a.rc ? a.rc : b.rc;
		goto out;
	}
	fold_trie *drawn = swap ? a.t : b.t, *base = swap ? b.t : a.t;
	double scale = normalize ? drawn->total[0] / base->total[0] : 1;
	if ((rc = fold_trie_diff_into(drawn, base, scale)) != 0 || (rc = fold_trie_finish(drawn)) != 0) {
		uf_err_set(err, UF_EINPUT, "diff", "out of memory");
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
