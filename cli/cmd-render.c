/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * cli/cmd-render.c — `uniprof-flame render [FILE...|-] [-o OUT.svg]`.
 *
 * Folded stacks (or SVGs written by uniprof-flame) in, one SVG out:
 * flamegraph.pl's job, with its option names.  Several inputs are
 * merged; the output replaces OUT atomically, so a failed run leaves an
 * existing OUT untouched.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cmd.h"
#include "cli/inputs.h"
#include "cli/io-opts.h"
#include "cli/render-opts.h"

static void usage(FILE *to)
{
	fputs("usage: uniprof-flame render [options] [FILE...|-] [-o OUT.svg]\n\n"
	      "Draws folded stacks (flamegraph.pl's format), `perf script` text or an SVG written by\n"
	      "uniprof-flame, gzip or not, as an interactive SVG flame graph.  Reads stdin when no\n"
	      "FILE is given.\n\n"
	      "  -o, --output FILE   write here (default: stdout; \"-\" is stdout)\n"
	      "  -h, --help          this help\n\n",
	      to);
	cli_io_help(to);
	fputc('\n', to);
	cli_render_help(to);
}

int cmd_render(int argc, char **argv)
{
	static const struct option own[] = {
		{ "output", required_argument, 0, 'o' },
		{ "help", no_argument, 0, 'h' },
		{ 0, 0, 0, 0 },
	};
	struct render_opts ro;
	render_opts_init(&ro);
	const char *out = "-";
	struct cli_io_opts io = { 0 };
	struct option *base = cli_options_merge(own);
	struct option *opts = base ? cli_io_options_merge(base, CLI_IO_ALL) : NULL;
	free(base);
	if (!opts)
		return cli_oom("render");
	int c, bad = 0, r;
	optind = 1;
	while (!bad && (c = cli_getopt(argc, argv, "o:h", opts, "render")) != -1) {
		if (c == 'o') {
			out = optarg;
		} else if (c == 'h') {
			free(opts);
			usage(stdout);
			return 0;
		} else if (c == '?' ||
			   ((r = cli_io_opt(&io, c, optarg)) == 0 ? cli_render_opt(&ro, c, optarg) : r) != 1) {
			bad = 1;
		}
	}
	free(opts);
	if (bad) /* the message is out */
		return UF_EXIT_USAGE;
	if (ro.by_lib && ro.flamechart)
		return cli_usage("render ", "'--by=lib': cannot be combined with --flamechart");
	if (ro.callers && ro.callees)
		return cli_usage("render ", "'--callers': cannot be combined with --callees (one half at a time)");
	if ((ro.callers || ro.callees) && ro.flamechart)
		return cli_usage("render ", "'--%s': cannot be combined with --flamechart",
				 ro.callers ? "callers" : "callees");
	fold_trie *t = fold_trie_new();
	struct uf_err err = { 0 };
	if (!t)
		return cli_oom("render");
	if (ro.flamechart)
		fold_trie_keep_sequence(t);
	enum cli_out_format of = cli_out_format_of(&io, out, CLI_OUT_SVG);
	if (of == CLI_OUT_PPROF || of == CLI_OUT_SPEEDSCOPE || (of == CLI_OUT_SVG && !ro.by_lib && !ro.callers && !ro.callees))
		fold_trie_keep_when(t); /* the SVG's time view (issue 30) too */ /* per-sample times and states, where the input has them */
	int rc = cli_read_inputs(&t, argv + optind, argc - optind, ro.reverse, &io, &err);
	if (rc == 0)
		rc = cli_by_lib_apply(&t, ro.by_lib, &err);
	if (rc == 0)
		rc = cli_sandwich_apply(&t, ro.callers, ro.callees, &err);
	if (rc == 0)
		rc = cli_write_profile(t, &ro, &io, CLI_OUT_SVG, out, &err);
	cli_trie_done(t);
	return rc ? cli_fail(&err) : 0;
}
