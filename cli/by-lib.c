/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * cli/by-lib.c — the views every command can ask of a trie, as options:
 * `--by=lib` and `--inline` (fold_rewrite_by_lib, fold_rewrite_inline),
 * `--callers/--callees NAME` (fold_sandwich), and record's per-library
 * table (fold_lib_shares).  The rewrites are the model's
 * (fold/model/rewrite.c, sandwich.c); here only which one, the swap of
 * the caller's trie and the messages.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/render-opts.h"

/* *tp replaced by rewrite's view of it (the model's, fold/model/rewrite.c);
 * on failure *tp is kept and *err names the option. */
static int replace_by(fold_trie **tp, int (*rewrite)(const fold_trie *, fold_trie **),
		      const char *opt, struct uf_err *err)
{
	fold_trie *v;
	if (rewrite(*tp, &v) != 0) {
		uf_err_oom(err, opt);
		return -ENOMEM;
	}
	fold_trie_free(*tp);
	*tp = v;
	return 0;
}

int cli_by_lib_apply(fold_trie **tp, int by_lib, struct uf_err *err)
{
	return by_lib ? replace_by(tp, fold_rewrite_by_lib, "--by=lib", err) : 0;
}

int cli_split_inline(fold_trie **tp, struct uf_err *err)
{
	return replace_by(tp, fold_rewrite_inline, "--inline", err);
}

char *cli_lib_table(const fold_trie *t)
{
	if (!t->lib_of || t->total[0] <= 0)
		return NULL;
	struct fold_lib_share *rows;
	uint32_t nrows;
	char *text = NULL;
	size_t tlen = 0;
	if (fold_lib_shares(t, &rows, &nrows) != 0)
		return NULL;
	FILE *f = open_memstream(&text, &tlen);
	if (!f)
		goto out;
	fprintf(f, "uniprof-flame: %-24s %7s %7s\n", "library", "self", "total");
	for (uint32_t k = 0; k < nrows && k < 20; k++) {
		size_t len;
		const char *s = fold_trie_name(t, rows[k].lib, &len);
		fprintf(f, "uniprof-flame:   %-22.*s %6.1f%% %6.1f%%\n", (int)(len < 60 ? len : 60), s,
			100 * rows[k].self / t->total[0], 100 * rows[k].total / t->total[0]);
	}
	if (nrows > 20)
		fprintf(f, "uniprof-flame:   (%u more libraries)\n", nrows - 20);
	fclose(f);
out:
	free(rows);
	return text;
}

int cli_sandwich_apply(fold_trie **tp, const char *callers, const char *callees, struct uf_err *err)
{
	const char *name = callers ? callers : callees;
	const char *opt = callers ? "--callers" : "--callees";
	if (!name)
		return 0;
	if (callers && callees) {
		uf_err_set(err, UF_EUSAGE, "--callers", "cannot be combined with --callees (one half at a time)");
		return -EINVAL;
	}
	fold_trie *v = NULL;
	int rc = fold_sandwich(*tp, name, strlen(name), callers ? FOLD_CALLERS : FOLD_CALLEES, &v);
	if (rc == 0 && (rc = fold_trie_finish(v)) != 0)
		fold_trie_free(v);
	if (rc == -ENOENT)
		uf_err_set(err, UF_EINPUT, opt, "no frame is named '%s' (names as the tooltips show them)", name);
	else if (rc == -E2BIG)
		uf_err_set(err, UF_EINPUT, opt, "the callers of '%s' would take more than 16 x the profile's frames",
			   name);
	else if (rc)
		uf_err_oom(err, opt);
	if (rc)
		return rc == -ENOMEM ? -ENOMEM : -EINVAL;
	fold_trie_free(*tp);
	*tp = v;
	return 0;
}
