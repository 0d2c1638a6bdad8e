/*
 * cli/cmd-fold.c — `uniprof-flame fold [FILE...|-] [-o OUT.folded]`.
 *
 * Merges inputs (folded text, or SVGs written by uniprof-flame, read
 * back from their embedded data) and writes folded text sorted as
 * flamegraph.pl sorts it, one line per distinct stack.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cmd.h"
#include "cli/inputs.h"
#include "cli/render-opts.h"

static void usage(FILE *to)
{
	fputs("usage: uniprof-flame fold [options] [FILE...|-] [-o OUT.folded]\n\n"
	      "Merges folded stacks or uniprof-flame SVGs into sorted, deduplicated folded text.\n\n"
	      "  -o, --output FILE   write here (default: stdout)\n"
	      "      --reverse       input stacks are leaf first\n"
	      "  -h, --help          this help\n",
	      to);
}

int cmd_fold(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "output", required_argument, 0, 'o' },
		{ "reverse", no_argument, 0, 'r' },
		{ "help", no_argument, 0, 'h' },
		{ 0, 0, 0, 0 },
	};
	const char *out = "-";
	int c, reverse = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, "o:h", opts, NULL)) != -1) {
		switch (c) {
		case 'o': out = optarg; break;
		case 'r': reverse = 1; break;
		case 'h': usage(stdout); return 0;
		default: return cli_usage("fold ", "bad option");
		}
	}
	fold_trie *t = fold_trie_new();
	struct uf_err err = { 0 };
	if (!t)
		return cli_usage("fold ", "out of memory");
	int rc = cli_read_inputs(t, argv + optind, argc - optind, reverse, &err);
	if (rc == 0)
		rc = cli_write_folded(t, out, &err);
	fold_trie_free(t);
	return rc ? cli_fail(&err) : 0;
}
