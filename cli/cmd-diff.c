/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * cli/cmd-diff.c — `uniprof-flame diff BEFORE AFTER [-o OUT.svg]`.
 *
 * A differential flame graph: AFTER's widths, each frame coloured by how
 * much it changed (by default the change of its total; --delta=self is
 * flamegraph.pl's colouring by self samples).  BEFORE and AFTER may be
 * folded text, uniprof-flame SVGs (exact) or other flame graph SVGs
 * (approximate, said on stderr).  The BEFORE widths travel in the same
 * file as a second layer (the "Show before" button), so frames that
 * disappeared are not lost.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cmd.h"
#include "cli/inputs.h"
#include "cli/io-opts.h"
#include "cli/render-opts.h"

enum { O_DELTA = 1, O_NORMALIZE, O_MIN_DELTA, O_PALETTE };

/* Totals that differ by more than a tenth, not normalized: every common
 * frame looks grown or shrunk by the sample count alone (issue 31); the
 * SVG's legend says the same. */
static void warn_totals(const fold_trie *t, int swapped)
{
	double b = 0, a = 0;
	for (uint32_t i = 0; i < t->nnodes; i++) {
		b += t->base[i];
		a += t->self[i];
	}
	if (swapped) {
		double x = a; a = b; b = x;
	}
	if (a > 0 && b > 0 && (a > b * 1.1 || a < b * 0.9))
		cli_warn("BEFORE has %.0f samples, AFTER %.0f (x%.2f): colours show the change in counts; "
			 "--normalize compares shares of each total", b, a, a / b);
}

static void usage(FILE *to)
{
	fputs("usage: uniprof-flame diff [options] BEFORE AFTER [-o OUT.svg]\n\n"
	      "Draws AFTER's flame graph coloured by the change from BEFORE: red grew, blue shrank,\n"
	      "purple new, green gone.  Inputs: folded text, `perf script` text, or SVGs (ours exactly,\n"
	      "others approximately), gzip or not.\n\n"
	      "  -o, --output FILE     write here (default: stdout)\n"
	      "      --delta=total|self  colour by the change of a frame's total (default) or of its\n"
	      "                        self samples (flamegraph.pl's differential colours)\n"
	      "      --normalize       compare shares of the total instead of counts\n"
	      "      --min-delta PCT   changes smaller than PCT % of the total are grey\n"
	      "      --palette red-blue|cb  colour scale (cb: colour-blind-safe orange/blue)\n"
	      "      --negate          draw BEFORE's widths instead (colours keep their meaning)\n"
	      "  -h, --help            this help\n\n",
	      to);
	cli_io_help(to);
	fputc('\n', to);
	cli_render_help_for(to, "diff");
}

static int diff_opt(struct render_opts *ro, int *normalize, int c, const char *arg)
{
	char *end;
	switch (c) {
	case O_DELTA:
		if (!strcmp(arg, "self"))
			ro->delta = RENDER_DELTA_SELF;
		else if (!strcmp(arg, "total"))
			ro->delta = RENDER_DELTA_TOTAL;
		else
			return cli_usage("diff ", "'--delta': '%s' is not total or self", arg), -1;
		return 1;
	case O_NORMALIZE: *normalize = 1; return 1;
	case O_MIN_DELTA:
		ro->min_delta = strtod(arg, &end);
		if (end == arg || *end || !(ro->min_delta >= 0 && ro->min_delta <= 100))
			return cli_usage("diff ", "'--min-delta': '%s' is not a percentage", arg), -1;
		return 1;
	case O_PALETTE:
		if (strcmp(arg, "red-blue") && strcmp(arg, "cb"))
			return cli_usage("diff ", "'--palette': '%s' is not red-blue or cb", arg), -1;
		ro->diff_palette = arg;
		return 1;
	}
	return cli_render_opt(ro, c, arg);
}

int cmd_diff(int argc, char **argv)
{
	static const struct option own[] = {
		{ "output", required_argument, 0, 'o' }, { "help", no_argument, 0, 'h' },
		{ "delta", required_argument, 0, O_DELTA }, { "normalize", no_argument, 0, O_NORMALIZE },
		{ "min-delta", required_argument, 0, O_MIN_DELTA },
		{ "palette", required_argument, 0, O_PALETTE }, { 0, 0, 0, 0 },
	};
	struct render_opts ro;
	render_opts_init(&ro);
	ro.delta = RENDER_DELTA_TOTAL;
	ro.title = "Differential Flame Graph";
	ro.before_layer = 1;
	const char *out = "-";
	int c, bad = 0, normalize = 0, r;
	struct cli_io_opts io = { 0 };
	struct option *base = cli_options_merge(own);
	struct option *opts = base ? cli_io_options_merge(base, CLI_IO_ALL) : NULL;
	free(base);
	if (!opts)
		return cli_oom("diff");
	optind = 1;
	while (!bad && (c = cli_getopt(argc, argv, "o:h", opts, "diff")) != -1) {
		if (c == 'o')
			out = optarg;
		else if (c == 'h') {
			free(opts);
			usage(stdout);
			return 0;
		} else if (c == '?' ||
			   ((r = cli_io_opt(&io, c, optarg)) == 0 ? diff_opt(&ro, &normalize, c, optarg) : r) != 1)
			bad = 1;
	}
	free(opts);
	if (bad)
		return UF_EXIT_USAGE;
	if (argc - optind != 2)
		return cli_usage("diff ", "diff: takes two inputs, BEFORE and AFTER (got %d)",
				 argc - optind);
	if (ro.flamechart)
		return cli_usage("diff ", "'--flamechart': cannot be combined with diff");
	ro.swapped = ro.negate;
	fold_trie *t;
	struct uf_err err = { 0 };
	int rc = cli_read_diff(argv[optind], argv[optind + 1], normalize, ro.negate, &io, &t, &err);
	if (rc == 0 && !normalize)
		warn_totals(t, ro.negate);
	if (rc == 0) /* libraries as the drawn (AFTER) input knows them */
		rc = cli_by_lib_apply(&t, ro.by_lib, &err);
	if (rc == 0)
		rc = cli_sandwich_apply(&t, ro.callers, ro.callees, &err);
	if (rc == 0)
		rc = cli_write_profile(t, &ro, &io, CLI_OUT_SVG, out, &err);
	cli_trie_done(t);
	return rc ? cli_fail(&err) : 0;
}
