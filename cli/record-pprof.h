/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * cli/record-pprof.h — record's pprof output with addresses, mappings and
 * file:line (cli/record-pprof.c).
 */
#ifndef UF_CLI_RECORD_PPROF_H
#define UF_CLI_RECORD_PPROF_H

#include "fold/fold.h"
#include "sampler/sampler.h"
#include "symtab/symtab.h"
#include "util/err.h"
#include "util/vec.h"

struct cli_pprof_src {
	const struct sampler *s;
	const struct symtab_procmap *maps; /* a process's mappings, or NULL (guests) */
	const struct symtab *exe_tab;      /* the -x table, or NULL */
	const char *exe;                   /* -x path (DWARF lines), or NULL */
	sampler_resolve_fn resolve;        /* names, as for the SVG */
	void *resolve_ctx;
	sampler_thread_name_fn thread_name; /* per-thread root frames, or NULL */
	void *thread_ctx;
	double period_ns;                  /* 1e9 / HZ */
};

/* Writes the samples of src->s as gzip'd profile.proto to path ("-" =
 * stdout), atomically.  Returns 0 or a negative errno with *err. */
int cli_write_record_pprof(const struct cli_pprof_src *src, const char *path, struct uf_err *err);

#endif
