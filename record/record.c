/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * record/record.c — one recording, from opening the target to the exit
 * status (see record/record.h).
 *
 * The order is fixed so the target is never left stopped and nothing
 * sampled is lost: check the outputs and -x, open the target through its
 * backend row (held at its first instruction where the row can), build
 * the symbol and CFI tables, let it run, sample until -T / the target's
 * end / SIGINT-SIGTERM-SIGHUP, re-read a process's mappings, detach, and
 * only then symbolise and write.
 *
 *     (opts) --open_target--> OPEN (held) --tables, row start--> SAMPLING
 *       SAMPLING --sampler_run ends--> finish_target: DETACHED
 *       DETACHED --write_outputs, summary, row finish--> (exit status)
 *
 * Main trade-offs:
 *  - A walk that meets code outside every known module (the dynamic
 *    loader or dlopen mapped a library since) re-reads the process's maps
 *    inside the pause and walks again, so the first sample in a new
 *    library is whole: one pause per new library grows by the time its
 *    CFI takes to read (milliseconds).  Code in no file ([vdso], JIT)
 *    costs one maps read per mapping, remembered (up to 32 of them).
 *  - Symbols of libraries loaded and unloaded between two mapping reads
 *    (about once a second) are missed, in exchange for no /proc reads for
 *    symbols while the target is stopped.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "record/priv.h"
#include "util/outfile.h"

volatile sig_atomic_t record_stop_flag;

static int open_target(struct record *r, struct uf_err *err);
static int open_space(struct record *r, struct uf_err *err);
static int check_output(const char *path, struct uf_err *err);
static int walk(void *ctx, struct uf_target *t, uint32_t id, const struct uf_regs *regs,
		uint64_t *pcs, size_t max, size_t *n, struct uf_err *err);
static int new_code(struct record *r, const uint64_t *pcs, size_t n);
static int known_nofile(const struct record *r, uint64_t pc);
static int mapping_at(pid_t pid, uint64_t pc, uint64_t *start, uint64_t *end);
static void finish_target(struct record *r);
static int write_outputs(struct record *r, struct uf_err *err);
static int write_raw(struct record *r, struct uf_err *err);
static void release(struct record *r);
static void signals(int install);

void record_opts_init(struct record_opts *o)
{
	memset(o, 0, sizeof *o);
	sampler_opts_init(&o->so);
	o->log = stderr;
}

int record_run(const struct record_opts *o)
{
	struct record *r = calloc(1, sizeof *r);
	struct uf_err err = { 0 };
	int status = 0, prog = -1;
	if (!r) {
		uf_err_set(&err, UF_EINPUT, "record", "out of memory");
		return o->sink.fail(&err);
	}
	r->o = o;
	r->bk = record_backend_ops_of(o->backend);
	r->so = o->so;
	record_stop_flag = 0;
	r->so.stop = &record_stop_flag;
	sampler_init(&r->s, o->sequence || o->out_raw);
	signals(1);
	if (open_target(r, &err) == 0) {
		r->started = time(NULL);
		int rc = sampler_run(&r->s, &r->target, &r->so, &err);
		finish_target(r);
		if (r->progress_shown)
			fputs("\r\033[K", o->log);
		if (rc < 0) /* report, then still write what was sampled (invariant 2) */
			status = o->sink.fail(&err);
		uf_err_clear(&err);
		if (r->s.stats.thread_samples == 0)
			uf_err_set(&err, UF_ETARGET, r->what, "no samples taken (the target ended first?)");
		else
			write_outputs(r, &err);
	}
	if (r->attached && !o->quiet)
		record_summary(r);
	/* with our handlers still installed, so a signal then ends a launched QEMU */
	if (r->attached && r->bk->finish)
		prog = r->bk->finish(r);
	signals(0);
	if (err.cls)
		status = o->sink.fail(&err);
	else if (o->lines && r->lines_found == 0 && r->folded_any)
		o->sink.warn("--lines: no frame has a source line (no DWARF line table for its code: "
			     "build with -g, or give the unstripped image with -x); frames are functions");
	release(r);
	if (status || prog == -1)
		return status;
	/* -- PROGRAM, --qemu: its status, as perf record and time(1) return it */
	return WIFEXITED(prog) ? WEXITSTATUS(prog) : WIFSIGNALED(prog) ? 128 + WTERMSIG(prog) : 0;
}

/* Validates the outputs and -x, builds the CFI tables of a guest image,
 * opens the target, reads a process's mappings while it is held, and
 * lets it run. */
static int open_target(struct record *r, struct uf_err *err)
{
	const struct record_opts *o = r->o;
	const char *outs[3] = { o->out, o->out_folded, o->out_raw };
	for (int i = 0; i < 3; i++)
		if (outs[i] && check_output(outs[i], err) < 0)
			return -EINVAL;
	if (o->exe && !(r->exe_tab = symtab_open_elf(o->exe, err)))
		return -EINVAL;
	if (open_space(r, err) < 0)
		return -ENOMEM;
	int rc = r->bk->open(r, err);
	if (rc < 0)
		return rc;
	r->attached = 1;
	r->caps = r->target.ops->caps;
	if (r->bk->start && (rc = r->bk->start(r, err)) < 0) {
		r->target.ops->detach(&r->target);
		return rc;
	}
	r->so.progress = record_progress;
	r->so.progress_ctx = r;
	r->so.walk = walk;
	r->so.walk_ctx = r;
	return 0;
}

/* The CFI tables: a guest's from its -x image (addresses as they are),
 * a process's from its mappings (record_open_maps, refreshed with them).
 * Built before the target runs, and in progress() while it runs. */
static int open_space(struct record *r, struct uf_err *err)
{
	const struct record_opts *o = r->o;
	if (o->unwind == UNWIND_FP)
		return 0;
	r->space = unwind_space_new();
	if (!r->space || ((o->backend->flags & RECORD_BK_IMAGE) && o->exe &&
			  unwind_space_add_file(r->space, 0, UINT64_MAX, 0, o->exe) < 0)) {
		uf_err_set(err, UF_EINPUT, "unwind", "out of memory");
		return -ENOMEM;
	}
	return 0;
}

/* The sampler's walker (inside the pause).  A walk that met a PC outside
 * every module of a process's space, in a file mapping the space does not
 * hold yet, re-reads the maps now and walks again (trade-off 1); the
 * stats count the walk that is kept. */
static int walk(void *ctx, struct uf_target *t, uint32_t id, const struct uf_regs *regs,
		uint64_t *pcs, size_t max, size_t *n, struct uf_err *err)
{
	struct record *r = ctx;
	struct unwind_stats st = { 0 };
	enum unwind_mode mode = r->o->unwind;
	int rc = unwind_walk(t, id, regs, r->space, mode, pcs, max, n, &st, err);
	if (rc >= 0 && st.unmapped && r->space && (r->caps & UF_TARGET_CAP_PROCMAPS) &&
	    new_code(r, pcs, *n)) {
		memset(&st, 0, sizeof st);
		rc = unwind_walk(t, id, regs, r->space, mode, pcs, max, n, &st, err);
	}
	if (r->at_entry)
		r->entry_pc = regs->pc;
	r->at_entry = 0;
	if (rc == UNWIND_NOINFO && *n == 1 && regs->pc == r->entry_pc && r->entry_pc) {
		/* the entry point is the outermost frame by the ABI (the
		 * kernel starts it with no caller; ld.so's _start has no FDE) */
		st.ends[UNWIND_NOINFO]--;
		st.ends[UNWIND_COMPLETE]++;
		rc = UNWIND_COMPLETE;
	}
	for (int i = 0; i < UNWIND_NEND; i++)
		r->walk.ends[i] += st.ends[i];
	r->walk.reads += st.reads;
	r->walk.frames += st.frames;
	r->walk.steps_cfi += st.steps_cfi;
	r->walk.steps_fp += st.steps_fp;
	r->walk.unmapped += st.unmapped;
	return rc;
}

/* 1 when a PC of pcs[0..n) outside the space lay in a file mapping that
 * unwind_space_add_pid has now added.  A PC in code that is no file
 * ([vdso], JIT) or in a file the space cannot take has its mapping
 * remembered, so it costs one maps read, not one per sample. */
static int new_code(struct record *r, const uint64_t *pcs, size_t n)
{
	uint64_t bias;
	for (size_t i = 0; i < n; i++) {
		uint64_t pc = pcs[i] - (i > 0);
		if (unwind_space_find(r->space, pc, &bias) || bias != UINT64_MAX || known_nofile(r, pc))
			continue;
		uint64_t start, end;
		int file = mapping_at(r->target.pid, pc, &start, &end);
		if (file < 0)
			return 0;   /* maps unreadable, or no mapping: nothing to add */
		if (file) {
			unwind_space_add_pid(r->space, r->target.pid);
			if (unwind_space_find(r->space, pc, &bias) || bias != UINT64_MAX)
				return 1;
		}
		/* no file, or one the space cannot take (deleted, not regular) */
		r->nofile[r->nnofile % 32].start = start;
		r->nofile[r->nnofile % 32].end = end;
		r->nnofile++;
	}
	return 0;
}

static int known_nofile(const struct record *r, uint64_t pc)
{
	unsigned k = r->nnofile < 32 ? r->nnofile : 32;
	for (unsigned i = 0; i < k; i++)
		if (pc >= r->nofile[i].start && pc < r->nofile[i].end)
			return 1;
	return 0;
}

/* The mapping of `pc` in /proc/PID/maps: 1 a file ("/..." path), 0 other
 * ([vdso], anonymous), -1 none or unreadable. */
static int mapping_at(pid_t pid, uint64_t pc, uint64_t *start, uint64_t *end)
{
	char path[64], line[4096 + 128];
	snprintf(path, sizeof path, "/proc/%d/maps", (int)pid);
	FILE *f = fopen(path, "re");
	int found = -1;
	if (!f)
		return -1;
	while (found < 0 && fgets(line, sizeof line, f)) {
		unsigned long long a, b;
		int off = 0;
		if (sscanf(line, "%llx-%llx %*s %*s %*s %*s %n", &a, &b, &off) < 2 || pc < a || pc >= b)
			continue;
		*start = a;
		*end = b;
		found = off > 0 && line[off] == '/';
	}
	fclose(f);
	return found;
}

/* After sampling: catch late mappings while the process still exists
 * (one that ended is held at its exit by ptrace-if until detach, so its
 * maps and files are still there), keep the backend's counters, then
 * let it go. */
static void finish_target(struct record *r)
{
	struct uf_err e2 = { 0 };
	int st;
	if (!(r->caps & UF_TARGET_CAP_PROCMAPS))
		;   /* a guest: no process maps */
	else if (r->maps && record_maps_readable(r->target.pid))
		symtab_procmap_refresh(r->maps, r->target.pid, &e2);
	else if (!(r->target.ops->exit_status && r->target.ops->exit_status(&r->target, &st)))
		record_open_maps(r, &e2);
	r->hypercalls = r->target.n_hypercalls;
	r->maps_made = r->target.n_maps;
	r->target.ops->detach(&r->target);
}

/* An output whose directory is missing or not writable fails now, not
 * after a long recording (the file itself is written at the end). */
static int check_output(const char *path, struct uf_err *err)
{
	if (!strcmp(path, "-"))
		return 0;
	char dir[4096];
	snprintf(dir, sizeof dir, "%s", path);
	char *slash = strrchr(dir, '/');
	if (slash)
		*(slash == dir ? slash + 1 : slash) = 0;
	if (access(slash ? dir : ".", W_OK) == 0)
		return 0;
	uf_err_set(err, UF_EINPUT, path, "cannot write here: %s", strerror(errno));
	return -errno;
}

/* Folds the samples into names, then writes --raw, --folded (plain
 * flamegraph.pl text: the metadata comes after) and -o. */
static int write_outputs(struct record *r, struct uf_err *err)
{
	const struct record_opts *o = r->o;
	fold_trie *t = fold_trie_new();
	struct sampler_fold_opts fo = {
		.resolve = record_resolve, .resolve_ctx = r, .sequence = o->sequence,
		.locate = record_locate, .locate_ctx = r,
		.thread_name = o->per_thread ? record_thread_name : NULL, .thread_ctx = r,
	};
	int rc = t ? 0 : -ENOMEM;
	if (!t)
		uf_err_set(err, UF_EINPUT, "fold", "out of memory");
	r->fold_t = t;
	if (t)
		fold_trie_set_cut(t, &o->cut);
	if (!rc)
		rc = sampler_fold(&r->s, t, &fo, err);
	if (!rc && fold_trie_has_cut(t) && !(fold_trie_kept(t) > 0)) {
		uf_err_set(err, UF_EINPUT, "--state", "no sample in these states (%.15g left out%s)",
			   t->cut_dropped, fold_trie_has_states(t) ? ""
				: ": this target does not tell run states");
		rc = -EINVAL;
	}
	r->fold_t = NULL;
	r->folded_any = !rc;
	if (!rc && fold_trie_finish(t) < 0) {
		uf_err_set(err, UF_EINPUT, "fold", "out of memory");
		rc = -ENOMEM;
	}
	if (!rc)
		rc = o->sink.view(o->sink.ctx, &t, o->quiet ? NULL : &r->libtab, err);
	if (!rc && o->out_raw)
		rc = write_raw(r, err);
	if (!rc && o->out_folded)
		rc = o->sink.write(o->sink.ctx, t, o->out_folded, 1, err);
	if (!rc)
		record_meta(r, t);
	if (!rc && o->out && o->out_pprof)
		rc = record_write_pprof(r, o->out, err);
	else if (!rc && o->out)
		rc = o->sink.write(o->sink.ctx, t, o->out, 0, err);
	fold_trie_free(t);
	return rc;
}

static int write_raw(struct record *r, struct uf_err *err)
{
	struct uf_outfile out;
	int rc = uf_outfile_open(&out, r->o->out_raw, err);
	if (rc < 0)
		return rc;
	rc = sampler_write_raw(&r->s, out.fp, r->what, err);
	if (rc < 0) {
		uf_outfile_abort(&out);
		return rc;
	}
	return uf_outfile_commit(&out, err);
}

static void release(struct record *r)
{
	sampler_release(&r->s);
	record_symbols_release(r);
	unwind_space_free(r->space);
	symtab_procmap_free(r->maps);
	symtab_free(r->exe_tab);
	if (r->attached && r->target.ops->release)
		r->target.ops->release(&r->target);
	free(r);
}

static void on_signal(int sig)
{
	(void)sig;
	record_stop_flag = 1;
}

/* SIGINT, SIGTERM and SIGHUP end the run (no SA_RESTART, so sleeps and
 * waits return at once); uninstall restores the defaults. */
static void signals(int install)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = install ? on_signal : SIG_DFL;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
}
