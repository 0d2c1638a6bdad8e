/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * cli/render-opts.h — the render options every drawing command shares
 * (render, record, diff), and the output helpers behind -o / --folded.
 *
 * Commands build their getopt_long table with cli_options_merge(own),
 * pass every option they do not know to cli_render_opt(), and write with
 * cli_write_svg() / cli_write_folded(), which replace files atomically.
 */
#ifndef UF_CLI_RENDER_OPTS_H
#define UF_CLI_RENDER_OPTS_H

#include <getopt.h>
#include <stdio.h>

#include "fold/model/model.h"
#include "render/render.h"
#include "util/err.h"

/* Option codes for render options start here (long options only). */
#define CLI_RENDER_OPT_BASE 1000

/* Returns a malloc'd table: `own` (terminated by a zero entry) followed by
 * every render option and a terminator; free() it.  NULL on OOM. */
struct option *cli_options_merge(const struct option *own);
/* Handles option code `c` with `arg`.  Returns 1 when handled, 0 when `c`
 * is not a render option, -1 on a bad value (message printed). */
int cli_render_opt(struct render_opts *o, int c, const char *arg);
/* Lists the render options for --help (as `render` reads them). */
void cli_render_help(FILE *to);
/* Same, for command `cmd` ("render", "diff", "record"). */
void cli_render_help_for(FILE *to, const char *cmd);

/* Renders the finished trie to `path` ("-" = stdout), atomically, and
 * prints the renderer's warnings (pruned embed, ignored --total). */
int cli_write_svg(const fold_trie *t, const struct render_opts *o, const char *path,
		  struct uf_err *err);
/* Writes sorted folded text to `path` ("-" = stdout), atomically. */
int cli_write_folded(const fold_trie *t, const char *path, struct uf_err *err);
/* What a negative errno from the folded writers (fold_write_folded and
 * fold's sequence writer) means to a user. */
const char *cli_folded_write_error(int rc);

/* ---- libraries (cli/by-lib.c) ---- */

/* With `by_lib`, replaces *t (finished, freed here) by its library-level
 * trie: each frame named after its library (frames without one keep
 * their name), consecutive frames of one library merged; finished, with
 * the metadata and each library as its own library.  Returns 0, or
 * -ENOMEM with *err (and *t untouched). */
int cli_by_lib_apply(fold_trie **t, int by_lib, struct uf_err *err);
/* With `callers` or `callees` (a function name; at most one of them),
 * replaces *t by fold_sandwich's half, finished, metadata kept.  Returns
 * 0, or -EINVAL (no such function, or the callers' cap) / -ENOMEM with
 * *err (*t untouched). */
int cli_sandwich_apply(fold_trie **t, const char *callers, const char *callees, struct uf_err *err);
/* The per-library table for record's summary, sorted by self share:
 * owned text ("uniprof-flame: ..." lines), NULL when no frame has a
 * library (or out of memory). */
char *cli_lib_table(const fold_trie *t);
/* Replaces *t (finished, freed here) by fold_rewrite_inline's view: names
 * holding FOLD_INLINE_SEP become one frame per part.  Returns 0, or
 * -ENOMEM with *err (*t untouched). */
int cli_split_inline(fold_trie **t, struct uf_err *err);

#endif
