/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * record/report.c — what a recording tells while it runs and after: the
 * progress line and the once-a-second maps refresh (progress callback),
 * the metadata written into the outputs, and the summary on opts->log.
 *
 * Everything that differs between targets is asked of the target's ops
 * (UF_TARGET_CAP_*, exit_status) or read from its backend row (the
 * lines for a target gone or interrupted); nothing here knows which
 * backend it is.
 *
 * Trade-off: the maps are re-read about once a second while the target
 * runs (never inside a pause, for symbols); a library mapped and unmapped
 * between two reads has no symbols.
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "record/priv.h"

static void command_line(const struct record *r, char *buf, size_t size);
static void summary_states(const struct record *r, FILE *log);

/* Every 250 ms: re-read the mappings about once a second, and on a
 * terminal redraw the progress line. */
void record_progress(void *ctx, const struct sampler_stats *st)
{
	struct record *r = ctx;
	/* once a second; at once only when the maps could not be read yet (a
	 * burst of symbol reading early on would starve the sampler there) */
	int due = st->elapsed_ns - r->last_refresh >= 1000000000ull || (!r->last_refresh && !r->maps);
	if ((r->caps & UF_TARGET_CAP_PROCMAPS) && due) {
		struct uf_err e2 = { 0 };
		r->last_refresh = st->elapsed_ns ? st->elapsed_ns : 1;
		if (r->maps && record_maps_readable(r->target.pid)) {
			symtab_procmap_refresh(r->maps, r->target.pid, &e2);
			if (r->space)
				unwind_space_add_pid(r->space, r->target.pid);
		} else {
			record_open_maps(r, &e2);
		}
	}
	FILE *log = r->o->log;
	if (r->o->quiet || !log || !isatty(fileno(log)))
		return;
	double s = (double)st->elapsed_ns / 1e9;
	fprintf(log, "\r\033[K%.1f s  %" PRIu64 " samples  %.0f/s  %" PRIu64 " missed", s,
		st->samples, s > 0 ? (double)st->samples / s : 0.0, st->missed);
	r->progress_shown = 1;
}

/* How this profile was made, into t->meta (written into the SVG, and as
 * '#' lines into folded text), and the one-line summary the SVG shows
 * under its title. */
void record_meta(const struct record *r, fold_trie *t)
{
	const struct sampler_stats *st = &r->s.stats;
	char v[1100], when[64] = "";
	double secs = (double)st->elapsed_ns / 1e9, rate = secs > 0 ? (double)st->samples / secs : 0;
	const char *unw = r->o->unwind == UNWIND_FP ? "fp" : r->o->unwind == UNWIND_CFI ? "cfi" : "auto";
	struct tm tm;
	if (gmtime_r(&r->started, &tm))
		strftime(when, sizeof when, "%Y-%m-%dT%H:%M:%SZ", &tm);
	snprintf(v, sizeof v, "%s, %s, %.1f s, %" PRIu64 " samples at %.0f/%g Hz, %" PRIu64
		 " missed, unwind %s", r->short_name, when, secs, st->samples, rate, r->so.hz, st->missed, unw);
	fold_meta_add(t, "subtitle", v);
	fold_meta_add(t, "target", r->target_text);
	if (r->o->exe) {
		char bid[160] = "";
		if (r->exe_tab)
			symtab_build_id_hex(r->exe_tab, bid, sizeof bid);
		fold_meta_add(t, "exe", r->o->exe);
		fold_meta_add(t, "build-id", bid[0] ? bid : "none");
	}
	fold_meta_add(t, "start", when);
	snprintf(v, sizeof v, "%.3f s", secs);
	fold_meta_add(t, "duration", v);
	snprintf(v, sizeof v, "%g Hz", r->so.hz);
	fold_meta_add(t, "rate-requested", v);
	snprintf(v, sizeof v, "%.1f Hz", rate);
	fold_meta_add(t, "rate-achieved", v);
	snprintf(v, sizeof v, "%" PRIu64 " (%" PRIu64 " stacks)", st->samples, st->thread_samples);
	fold_meta_add(t, "samples", v);
	snprintf(v, sizeof v, "%" PRIu64, st->missed);
	fold_meta_add(t, "missed-deadlines", v);
	fold_meta_add(t, "unwind", unw);
	snprintf(v, sizeof v, "%u", st->max_threads);
	fold_meta_add(t, r->caps & UF_TARGET_CAP_VCPUS ? "vcpus" : "threads", v);
	fold_trie_state_meta(t);
	fold_meta_add(t, "version", r->o->version);
	command_line(r, v, sizeof v);
	fold_meta_add(t, "command", v);
}

/* Our command line as a shell would take it back (quoted where needed). */
static void command_line(const struct record *r, char *buf, size_t size)
{
	size_t n = (size_t)snprintf(buf, size, "uniprof-flame");
	for (int i = strcmp(r->o->argv[0], "record") ? 1 : 0; i < r->o->argc && n < size; i++) {
		const char *a = r->o->argv[i];
		int plain = *a != 0;
		for (const char *c = a; *c; c++)
			plain &= isalnum((unsigned char)*c) || strchr("-_./:=,+@%", *c) != NULL;
		n += (size_t)snprintf(buf + n, size - n, plain ? " %s" : " '%s'", a);
	}
}

/* What the threads were doing when sampled, where the target tells. */
static void summary_states(const struct record *r, FILE *log)
{
	const struct sampler_stats *st = &r->s.stats;
	uint64_t all = 0, known = 0;
	for (unsigned s = 0; s < UF_RS_COUNT; s++)
		all += st->state_samples[s], known += s != UF_RS_UNKNOWN ? st->state_samples[s] : 0;
	if (!known)
		return;
	fputs("uniprof-flame: run states:", log);
	for (unsigned s = 0, first = 1; s < UF_RS_COUNT; s++) {
		if (!st->state_samples[s])
			continue;
		fprintf(log, "%s %s %" PRIu64 " (%.1f%%)", first ? "" : ",",
			uf_runstate_name((enum uf_runstate)s), st->state_samples[s],
			100.0 * (double)st->state_samples[s] / (double)all);
		first = 0;
	}
	fputc('\n', log);
}

/* How the walks ended, and what found the callers. */
static void summary_walks(const struct record *r, FILE *log)
{
	const struct unwind_stats *w = &r->walk;
	uint64_t steps = w->steps_cfi + w->steps_fp + w->steps_leaf + w->steps_intr;
	fprintf(log,
		"uniprof-flame: walks (--unwind=%s): %" PRIu64 " complete, %" PRIu64 " at max depth, %"
		PRIu64 " ended early (%" PRIu64 " bad frame, %" PRIu64 " unreadable, %" PRIu64
		" no unwind info or frame pointer); callers %.1f%% by CFI, %.1f%% by the leaf rule, %"
		PRIu64 " through interrupt frames\n",
		r->o->unwind == UNWIND_FP ? "fp" : r->o->unwind == UNWIND_CFI ? "cfi" : "auto",
		w->ends[UNWIND_COMPLETE], w->ends[UNWIND_DEPTH],
		w->ends[UNWIND_BAD_FRAME] + w->ends[UNWIND_UNREADABLE] + w->ends[UNWIND_NOINFO],
		w->ends[UNWIND_BAD_FRAME], w->ends[UNWIND_UNREADABLE], w->ends[UNWIND_NOINFO],
		steps ? 100.0 * (double)w->steps_cfi / (double)steps : 0.0,
		steps ? 100.0 * (double)w->steps_leaf / (double)steps : 0.0, w->steps_intr);
}

/* Mapped files symtab could not read; the path is the target's text: no
 * control bytes reach the terminal. */
static void summary_unreadable(const struct record *r, FILE *log)
{
	const char *upath = NULL, *uwhy = NULL;
	size_t unread = r->maps ? symtab_procmap_unreadable(r->maps, &upath, &uwhy) : 0;
	if (!unread)
		return;
	fprintf(log, "uniprof-flame: symbols: %zu mapped file%s could not be read, their "
		"frames are unknown (first: ", unread, unread == 1 ? "" : "s");
	for (const unsigned char *c = (const unsigned char *)upath; *c; c++)
		fprintf(log, *c < 0x20 || *c == 0x7f || *c == '\\' ? "\\x%02x" : "%c", *c);
	fprintf(log, ": %c%s)\n", tolower((unsigned char)uwhy[0]), uwhy + 1);
}

/* How the run ended: the process's exit, the target gone, a signal. */
static void summary_end(const struct record *r, FILE *log)
{
	const struct sampler_stats *st = &r->s.stats;
	int ws;
	if (r->target.ops->exit_status && r->target.ops->exit_status(&r->target, &ws)) {
		if (WIFEXITED(ws))
			fprintf(log, "uniprof-flame: %s exited with status %d\n", r->what,
				WEXITSTATUS(ws));
		else if (WIFSIGNALED(ws))
			fprintf(log, "uniprof-flame: %s was killed by signal %d\n", r->what,
				WTERMSIG(ws));
	} else if (st->target_gone && r->bk->gone) {
		fprintf(log, "uniprof-flame: %s: %s\n", r->what, r->bk->gone);
	} else if (st->interrupted && r->bk->interrupted) {
		fprintf(log, "uniprof-flame: %s: %s\n", r->what, r->bk->interrupted);
	}
}

void record_summary(const struct record *r)
{
	const struct sampler_stats *st = &r->s.stats;
	FILE *log = r->o->log;
	if (!log)
		return;
	fprintf(log,
		"uniprof-flame: %s: %" PRIu64 " samples (%" PRIu64 " stacks, up to %u threads) in "
		"%.2f s, %" PRIu64 " missed deadlines\n",
		r->what, st->samples, st->thread_samples, st->max_threads,
		(double)st->elapsed_ns / 1e9, st->missed);
	fprintf(log,
		"uniprof-flame: stopped per sample: median %.1f us, p99 %.1f us, max %.1f us "
		"(all threads frozen: median %.1f us, p99 %.1f us)\n",
		(double)sampler_hist_quantile(&st->stop, 0.5) / 1e3,
		(double)sampler_hist_quantile(&st->stop, 0.99) / 1e3, (double)st->stop.max_ns / 1e3,
		(double)sampler_hist_quantile(&st->frozen, 0.5) / 1e3,
		(double)sampler_hist_quantile(&st->frozen, 0.99) / 1e3);
	summary_walks(r, log);
	summary_states(r, log);
	if (r->libtab)
		fputs(r->libtab, log);
	if (r->caps & UF_TARGET_CAP_COST) {
		/* hypercalls and new foreign mappings per sample (steady state:
		 * pause, one register read per vCPU, unpause) */
		double n = st->samples ? (double)st->samples : 1.0;
		fprintf(log, "uniprof-flame: %s: %.2f hypercalls and %.3f foreign maps per sample\n",
			r->what, (double)r->hypercalls / n, (double)r->maps_made / n);
	}
	summary_unreadable(r, log);
	summary_end(r, log);
}

/* Symbols for every mapped file.  Only a bad -x is an error here; a
 * process whose maps cannot be read yet is retried during sampling. */
int record_open_maps(struct record *r, struct uf_err *err)
{
	struct uf_err e2 = { 0 };
	if (!record_maps_readable(r->target.pid))
		return 0;
	if (r->space)
		unwind_space_add_pid(r->space, r->target.pid);
	if (r->maps)
		return 0;
	r->maps = symtab_procmap_open(r->target.pid, r->o->exe, &e2);
	if (!r->maps && e2.cls == UF_EINPUT) {
		*err = e2;
		return -EINVAL;
	}
	return 0;
}

/* A process that has exited (a zombie) has empty maps; symtab cannot use
 * them, so they are not worth opening. */
int record_maps_readable(pid_t pid)
{
	char path[64], c;
	snprintf(path, sizeof path, "/proc/%d/maps", (int)pid);
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	ssize_t n = read(fd, &c, 1);
	close(fd);
	return n == 1;
}
