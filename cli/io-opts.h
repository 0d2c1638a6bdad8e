/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * cli/io-opts.h — the input and output format options shared by record,
 * fold, render and diff: `--format`, stackcollapse-perf.pl's options for
 * `perf script` input, and writing a finished trie in the format the
 * user chose (SVG, folded, pprof, speedscope).
 *
 * `--format` takes one name: `perf` forces the input to be read as
 * `perf script` text (it is recognised by content without it); `svg`,
 * `folded`, `pprof` and `speedscope` choose the output.  Without it the
 * output format follows -o's extension (.svg, .folded, .pb.gz or .pprof,
 * .speedscope.json), else the command's own default.
 */
#ifndef UF_CLI_IO_OPTS_H
#define UF_CLI_IO_OPTS_H

#include <getopt.h>
#include <stdio.h>

#include "fold/in/in.h"
#include "render/render.h"
#include "util/err.h"

/* Option codes of these options start here (long options only). */
#define CLI_IO_OPT_BASE 2000

enum cli_out_format { CLI_OUT_AUTO = 0, CLI_OUT_SVG, CLI_OUT_FOLDED, CLI_OUT_PPROF, CLI_OUT_SPEEDSCOPE };

struct cli_io_opts {
	int force_perf;               /* --format perf: inputs are `perf script` text */
	struct fold_perf_opts perf;
	enum cli_out_format out;      /* --format's output choice */
	/* from record only (0 elsewhere): the period behind one sample, for
	 * pprof's cpu/nanoseconds */
	double period_ns;
	struct fold_cut cut;          /* --time, --state, --on-cpu */
};

/* Which of the shared options a command takes: all, or all but --addrs
 * (fold has its own).  record takes only --format, in its own table
 * (-p/--pid is its target there), through cli_io_format(). */
enum cli_io_which { CLI_IO_ALL, CLI_IO_NO_ADDRS };
/* The shared table (zero-terminated): `own` options first, then these.
 * Returns a malloc'd table, NULL on OOM. */
struct option *cli_io_options_merge(const struct option *own, enum cli_io_which which);
/* --format NAME: 1, or -1 (printed) for an unknown name or, without
 * `inputs`, for `perf`. */
int cli_io_format(struct cli_io_opts *io, const char *arg, int inputs);
/* Handles code `c`: 1 handled, 0 not ours, -1 bad value (printed). */
int cli_io_opt(struct cli_io_opts *io, int c, const char *arg);
/* --time FROM-TO, --state LIST, --on-cpu into *cut (record calls it
 * from its own table): 1 handled, -1 bad value (printed).  `cmd` names
 * the command in messages ("fold "). */
int cli_cut_opt(struct fold_cut *cut, const char *name, const char *arg, const char *cmd);
/* For --help: the cut options. */
void cli_cut_help(FILE *to);
/* For --help: the input options, and the output format line. */
void cli_io_help(FILE *to);

/* The output format of `path` under io (extension, else `dflt`). */
enum cli_out_format cli_out_format_of(const struct cli_io_opts *io, const char *path,
				      enum cli_out_format dflt);
/* Writes the finished trie to path ("-" = stdout) atomically in the
 * chosen format; SVG options from `ro` (may be NULL for non-SVG). */
int cli_write_profile(const fold_trie *t, const struct render_opts *ro,
		      const struct cli_io_opts *io, enum cli_out_format dflt, const char *path,
		      struct uf_err *err);

#endif
