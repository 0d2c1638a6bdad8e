/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * record/priv.h — the state of one recording, shared by the files of
 * record/ (record.c: the run; backends.c: the table; symbols.c: names,
 * libraries and source positions; report.c: progress, metadata and the
 * summary; pprof.c: the address-keyed pprof).  Not for other modules.
 */
#ifndef UF_RECORD_PRIV_H
#define UF_RECORD_PRIV_H

#include <stdint.h>
#include <time.h>

#include "record/record.h"
#include "symtab/symtab.h"
#include "unwind/unwind.h"

struct record;

/* How a row opens and ends its target (record/backends.c). */
struct record_backend_ops {
	/* Opens (attaches, spawns, launches) r->target; fills r->what and
	 * r->target_text.  0, or <0 with *err (nothing left to detach). */
	int (*open)(struct record *r, struct uf_err *err);
	/* Called with the target stopped (or not yet running) once the
	 * tables exist, to let it run (NULL: open left it running). */
	int (*start)(struct record *r, struct uf_err *err);
	/* After the outputs and the summary: the program's wait status to
	 * exit with, or -1 (NULL: none). */
	int (*finish)(struct record *r);
	/* Summary line when the target went away by itself (NULL: none), and
	 * after a signal ended the run. */
	const char *gone;
	const char *interrupted;
};

/* Set by our SIGINT/SIGTERM/SIGHUP handler during record_run. */
extern volatile sig_atomic_t record_stop_flag;

/* The ops of row `b` (a row and its ops share an index). */
const struct record_backend_ops *record_backend_ops_of(const struct record_backend *b);

struct record {
	const struct record_opts *o;
	const struct record_backend_ops *bk;
	struct sampler_opts so;       /* o->so plus our walker and callbacks */
	struct uf_target target;
	int attached;
	unsigned caps;                /* target.ops->caps once opened */
	void *backend_state;          /* a row's own state (launch, spawn) */
	struct symtab_procmap *maps;  /* a process's mappings (CAP_PROCMAPS) */
	struct symtab *exe_tab;       /* -x */
	struct unwind_space *space;   /* CFI tables (--unwind) */
	struct unwind_stats walk;     /* how the walks ended */
	int at_entry;                 /* held at its exec: the next walk is at
				       * the program's entry point */
	uint64_t entry_pc;            /* that entry point (0: none) */
	struct {                      /* code mappings that are no file ([vdso],
				       * JIT): no refresh adds them */
		uint64_t start, end;
	} nofile[32];
	unsigned nnofile;             /* entries used (a ring past 32) */
	struct sampler s;
	int progress_shown;
	uint64_t last_refresh;        /* elapsed ns of the last maps refresh */
	uint64_t hypercalls, maps_made; /* backend counters, kept past detach */
	char what[128];               /* "pid N", "'cmd' (pid N)": for messages */
	char target_text[300];        /* the metadata's target */
	char short_name[200];         /* the subtitle's target */
	time_t started;
	/* symbols.c */
	fold_trie *fold_t;            /* the trie being filled (frame libraries) */
	struct lib_file {             /* DWARF per mapped file, opened on demand */
		char *path;
		struct symtab_libs *libs;
	} libf[64];
	int nlibf;
	uint64_t lines_found;         /* frames --lines could name by their line */
	int folded_any;
	char *libtab;                 /* the per-library table (owned) */
};

/* record/symbols.c: the sampler's resolver, locator and thread namer. */
size_t record_resolve(void *ctx, uint64_t addr, int is_return, char *buf, size_t size);
size_t record_locate(void *ctx, uint64_t addr, int is_return, char *buf, size_t size);
size_t record_thread_name(void *ctx, uint32_t tid, char *buf, size_t size);
void record_symbols_release(struct record *r);

/* record/report.c */
void record_progress(void *ctx, const struct sampler_stats *st);
void record_meta(const struct record *r, fold_trie *t);
void record_summary(const struct record *r);
/* A process's maps, once readable: symbols and CFI.  Only a bad -x is an
 * error (<0 with *err). */
int record_open_maps(struct record *r, struct uf_err *err);
int record_maps_readable(pid_t pid);

/* record/pprof.c: -o as pprof from the sampled addresses. */
int record_write_pprof(struct record *r, const char *path, struct uf_err *err);

#endif
