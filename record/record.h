/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * record/record.h — a recording end to end: open a target through the
 * backend table, sample it, symbolise the samples, write the outputs and
 * the summary.  `uniprof-flame record` (cli/cmd-record.c) parses options
 * into struct record_opts and makes one call, record_run().
 *
 * Backends describe themselves in two places and nowhere else:
 *  - their ops (target/target.h): what the target can do (UF_TARGET_CAP_*:
 *    threads are vCPUs, /proc/PID/maps apply, backend counters), how its
 *    threads are named, how its memory is released;
 *  - one row each of record_backends[] (record/backends.c): the option
 *    that names the target, what it needs (-x, a command), how it is
 *    opened and finished.  --version and argument checking read the
 *    table; nothing outside the backends and their rows asks which
 *    backend a target is.
 * Adding a backend: its *-if/ directory (ops with caps), one row in
 * record/backends.c, its directory in the Makefile's MODULES, README.
 *
 * Main trade-off: record/ writes the SVG, folded and speedscope outputs
 * through the caller's sink (struct record_sink), because the format and
 * view choices (--format, --by=lib, --inline's split) are the CLI's and
 * shared with render/fold/diff; it writes the raw trace and the
 * address-keyed pprof itself, since both need the sampled addresses.
 *
 * Invariants:
 *  1. Every path out after a successful open goes through detach.
 *  2. Outputs are written only after detach, each atomically; a sampling
 *     error in the middle of a run still writes what was sampled.
 *  3. record_run's return is the exit status: 0 written, 1 usage, 2 bad
 *     -x / output path, 3 target error or no sample at all; a sampling
 *     error's status wins over the program's; else -- PROGRAM's (or
 *     QEMU's) own status.
 *  4. The only text record/ prints goes to opts->log (progress, summary);
 *     errors and warnings go through the sink.
 */
#ifndef UF_RECORD_RECORD_H
#define UF_RECORD_RECORD_H

#include <signal.h>
#include <stdio.h>

#include "fold/fold.h"
#include "sampler/sampler.h"
#include "unwind/unwind.h"
#include "util/err.h"

struct record_opts;

/* Flags of a backend row. */
#define RECORD_BK_NEEDS_EXE 1u  /* symbols only from -x (or --addrs) */
#define RECORD_BK_TAKES_CMD 2u  /* the target is the command after -- */
#define RECORD_BK_NO_ARG    4u  /* its option takes no value (--qemu) */
#define RECORD_BK_DESTROY   8u  /* --destroy applies */
#define RECORD_BK_IMAGE    16u  /* -x is the target's whole image: symbols
				 * and CFI at its addresses as they are */

/* One way to name a target on the command line (record/backends.c). */
struct record_backend {
	const char *target;   /* the backend, as --version lists it: "ptrace" */
	const char *option;   /* long option ("pid"); NULL: only the command after -- */
	int short_opt;        /* 'p', or 0 */
	const char *usage;    /* how the usage line names it: "-p PID" */
	unsigned flags;       /* RECORD_BK_* */
	int (*built)(void);   /* 0: compiled as a stub; NULL: always built */
	/* Usage check of the options for this row (NULL: none): 0, or <0 with
	 * *err (the CLI prints it as a usage error). */
	int (*check)(const struct record_opts *o, struct uf_err *err);
};

/* The table, terminated by a row with target NULL.  Rows of one backend
 * are adjacent. */
extern const struct record_backend record_backends[];

/* The row whose option is `long_name` (NULL: the -- COMMAND row);
 * NULL when none. */
const struct record_backend *record_backend_by_option(const char *long_name);
/* The backends for --version ("xen gdb ptrace"; the ones not built are
 * left out, and *missing, when non-NULL, names the first of them). */
void record_backends_built(char *buf, size_t size, const char **missing);

/* Byte put between a frame's name and the functions inlined at its
 * address (--inline); never in a symbol name.  The sink's view splits on
 * it. */
#define RECORD_INLINE_SEP '\x1f'

/* What the caller gives record/ to print and write with. */
struct record_sink {
	/* The finished trie into the user's view (--inline's split,
	 * --by=lib), replacing *t; *libtab, when the caller wants it, gets
	 * the per-library table for the summary (owned, may stay NULL).
	 * Returns 0 or <0 with *err. */
	int (*view)(void *ctx, fold_trie **t, char **libtab, struct uf_err *err);
	/* Writes t to path atomically: folded text (folded = 1, --folded),
	 * else in -o's format.  Returns 0 or <0 with *err. */
	int (*write)(void *ctx, const fold_trie *t, const char *path, int folded,
		     struct uf_err *err);
	/* Prints err; returns its exit status. */
	int (*fail)(const struct uf_err *err);
	/* Prints a warning (one line, no prefix). */
	void (*warn)(const char *msg);
	void *ctx;
};

struct record_opts {
	const struct record_backend *backend; /* the row that names the target */
	const char *target_arg;   /* its option's value (NULL for -- and --qemu) */
	char **cmd;               /* the command after --, or NULL */
	const char *exe;          /* -x */
	const char *out;          /* -o ("-" = stdout) */
	const char *out_folded;   /* --folded */
	const char *out_raw;      /* --raw */
	int out_pprof;            /* -o is pprof: written from the addresses */
	int sequence;             /* -o keeps time order (flame chart, speedscope) */
	int addrs, per_thread, quiet, destroy;
	int inline_frames;        /* --inline */
	int lines;                /* --lines */
	int by_lib;               /* --by=lib (the sink applies it) */
	struct fold_cut cut;      /* --state, --on-cpu (record's -T is the duration:
				     no --time cut here; fold/render cut a --raw trace) */
	struct sampler_opts so;   /* -F -T --max-depth; record_run sets .stop and .walk */
	enum unwind_mode unwind;  /* --unwind */
	int argc;                 /* our command line, for the metadata */
	char **argv;
	const char *version;      /* "uniprof-flame X.Y.Z" for the metadata */
	FILE *log;                /* progress and summary (stderr) */
	struct record_sink sink;
};

/* Defaults (sampler_opts_init, log = stderr). */
void record_opts_init(struct record_opts *o);

/* Records as `o` says (borrowed).  Installs SIGINT/SIGTERM/SIGHUP
 * handlers for the run (they end it; the defaults come back after).
 * Returns the exit status (invariant 3). */
int record_run(const struct record_opts *o);

#endif
