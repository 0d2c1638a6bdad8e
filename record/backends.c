/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * record/backends.c — the one table of the ways to name a target: which
 * backend, its option, what it needs, and how it is opened, let run and
 * finished.  --version (record_backends_built) and record's argument
 * checking read record_backends[]; record.c calls a row's ops and asks
 * the opened target's ops for its capabilities.  This file and the
 * backends' own directories are the only places that know which backend
 * is which.
 *
 * Trade-off: a row per way of naming a target, not per backend: ptrace
 * attaches (-p) or spawns (--), gdb attaches (--gdb) or launches QEMU
 * (--qemu), xen opens (-d) or creates (-c).  Rows of one backend share
 * its ops; what differs is opening and ending, which is what a row holds.
 *
 * Invariants:
 *  1. record_backends[i] and row_ops[i] describe the same row.
 *  2. An open that fails leaves nothing attached and nothing to free.
 *  3. A row whose target runs from its first instruction (--, --qemu,
 *     -c) opens it held and lets it go in `start`, once record.c has
 *     built the symbol and CFI tables.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "gdb-if/gdb.h"
#include "ptrace-if/ptrace-if.h"
#include "record/priv.h"
#include "xen-if/xen.h"

static int check_pid(const struct record_opts *o, struct uf_err *err);
static int check_qemu(const struct record_opts *o, struct uf_err *err);
static int open_pid(struct record *r, struct uf_err *err);
static int open_spawn(struct record *r, struct uf_err *err);
static int open_gdb(struct record *r, struct uf_err *err);
static int open_qemu(struct record *r, struct uf_err *err);
static int open_xen(struct record *r, struct uf_err *err);
static int start_spawn(struct record *r, struct uf_err *err);
static int start_xen(struct record *r, struct uf_err *err);
static int finish_spawn(struct record *r);
static int finish_qemu(struct record *r);

const struct record_backend record_backends[] = {
	{ "xen", "domain", 'd', "-d DOMAIN", RECORD_BK_IMAGE, xen_target_missing, NULL,
	  "profile a running Xen domain (name or id; in dom0, as root)" },
	{ "xen", "config", 'c', "-c CFG", RECORD_BK_IMAGE | RECORD_BK_DESTROY, xen_target_missing, NULL,
	  "create a Xen domain paused (xl create -p), profile it from\n"
	  "its first instruction until it shuts down" },
	{ "gdb", "gdb", 0, "--gdb ADDR", RECORD_BK_NEEDS_EXE | RECORD_BK_IMAGE, NULL, NULL,
	  "profile a QEMU/KVM or Firecracker guest through its gdbstub:\n"
	  "HOST:PORT, :PORT, [IPv6]:PORT, unix:PATH, or a path\n"
	  "containing '/' (QEMU -s, -gdb ...; Firecracker's socket)" },
	{ "gdb", "qemu", 0, "--qemu -- qemu-system-ARCH ARGS...",
	  RECORD_BK_NEEDS_EXE | RECORD_BK_IMAGE | RECORD_BK_TAKES_CMD | RECORD_BK_NO_ARG, NULL,
	  check_qemu,
	  "start QEMU paused with a private gdbstub, profile the guest\n"
	  "from its first instruction until QEMU exits; the exit\n"
	  "status is then QEMU's" },
	{ "ptrace", "pid", 'p', "-p PID", 0, NULL, check_pid,
	  "profile a running process (all its threads)" },
	{ "ptrace", NULL, 0, "-- PROGRAM ARGS...", RECORD_BK_TAKES_CMD, NULL, NULL,
	  "run PROGRAM and profile it until it exits; the exit\n"
	  "status is then PROGRAM's (128+N if killed by signal N)" },
	{ NULL, NULL, 0, NULL, 0, NULL, NULL, NULL },
};

static const struct record_backend_ops row_ops[] = {
	{ open_xen, start_xen, NULL, NULL, "interrupted; the domain keeps running" },
	{ open_xen, start_xen, NULL, NULL, "interrupted; the domain keeps running" },
	{ open_gdb, NULL, NULL, "connection closed (the guest or QEMU exited); wrote what was sampled",
	  "interrupted; detached, the target keeps running" },
	{ open_qemu, NULL, finish_qemu, NULL, "interrupted; ending QEMU" },
	{ open_pid, NULL, NULL, NULL, "interrupted; detached, the target keeps running" },
	{ open_spawn, start_spawn, finish_spawn, NULL, "interrupted; detached" },
};

/* The state of a spawned program or a launched QEMU. */
struct launched {
	struct gdb_launch launch;
};

const struct record_backend *record_backend_by_option(const char *long_name)
{
	for (const struct record_backend *b = record_backends; b->target; b++)
		if (long_name ? b->option && !strcmp(b->option, long_name) : !b->option)
			return b;
	return NULL;
}

const struct record_backend_ops *record_backend_ops_of(const struct record_backend *b)
{
	return &row_ops[b - record_backends];
}

void record_backends_built(char *buf, size_t size, char *missing_buf, size_t missing_size,
			   const char **missing)
{
	size_t n = 0;
	buf[0] = 0;
	if (missing)
		*missing = NULL;
	for (const struct record_backend *b = record_backends; b->target; b++) {
		if (b > record_backends && !strcmp(b[-1].target, b->target))
			continue; /* rows of one backend are adjacent */
		const char *why = b->missing ? b->missing() : NULL;
		if (why) {
			if (missing && !*missing) {
				snprintf(missing_buf, missing_size, "no %s: %s", b->target, why);
				*missing = missing_buf;
			}
			continue;
		}
		int k = snprintf(buf + n, size - n, "%s%s", n ? " " : "", b->target);
		if (k < 0 || (size_t)k >= size - n)
			return;
		n += (size_t)k;
	}
}

/* ---- checks ------------------------------------------------------------- */

static int check_pid(const struct record_opts *o, struct uf_err *err)
{
	char *end;
	errno = 0;
	long v = strtol(o->target_arg, &end, 10);
	if (errno || end == o->target_arg || *end || v < 1 || v > 4194304) {
		uf_err_set(err, UF_EUSAGE, "'-p'", "'%s' is not a number from %g to %g", o->target_arg,
			   1.0, 4194304.0);
		return -EINVAL;
	}
	return 0;
}

static int check_qemu(const struct record_opts *o, struct uf_err *err)
{
	if (!o->cmd) {
		uf_err_set(err, UF_EUSAGE, "'--qemu'", "needs the QEMU command after --");
		return -EINVAL;
	}
	return gdb_launch_check(o->cmd, err);
}

/* ---- ptrace: -p PID, -- COMMAND ----------------------------------------- */

static void process_texts(struct record *r)
{
	snprintf(r->target_text, sizeof r->target_text, "process %s", r->what);
	snprintf(r->short_name, sizeof r->short_name, "%.199s", r->target_text);
}

/* The maps are read before attaching, so the process is not traced while
 * we parse its ELF files. */
static int open_pid(struct record *r, struct uf_err *err)
{
	pid_t pid = (pid_t)atol(r->o->target_arg);
	r->target.pid = pid;
	if (record_open_maps(r, err) < 0)
		return -EINVAL;
	int rc = ptrace_target_attach(&r->target, pid, err);
	if (rc < 0)
		return rc;
	snprintf(r->what, sizeof r->what, "pid %d", (int)pid);
	process_texts(r);
	return 0;
}

/* Runs the program, held at its first instruction (ptrace_target_spawn).
 * When a profile goes to stdout (`-o -`), the program's own stdout goes
 * to our stderr, so the file stays valid; otherwise it has the
 * terminal's stdout, as it would without us. */
static int open_spawn(struct record *r, struct uf_err *err)
{
	const struct record_opts *o = r->o;
	const char *outs[3] = { o->out, o->out_folded, o->out_raw };
	int to_stdout = 0, saved = -1;
	for (int i = 0; i < 3; i++)
		to_stdout |= outs[i] && !strcmp(outs[i], "-");
	if (to_stdout) {
		fflush(stdout);
		saved = fcntl(1, F_DUPFD_CLOEXEC, 3);
		if (saved < 0 || dup2(2, 1) < 0) {
			uf_err_set(err, UF_ETARGET, o->cmd[0], "cannot redirect its stdout: %s",
				   UF_STRERROR(errno));
			if (saved >= 0)
				close(saved);
			return -EIO;
		}
	}
	int rc = ptrace_target_spawn(&r->target, o->cmd, err);
	if (saved >= 0) {
		dup2(saved, 1);
		close(saved);
	}
	if (rc < 0)
		return rc;
	snprintf(r->what, sizeof r->what, "'%s' (pid %d)", o->cmd[0], (int)r->target.pid);
	process_texts(r);
	const char *b = strrchr(o->cmd[0], '/');   /* the program's name, not its path */
	snprintf(r->short_name, sizeof r->short_name, "%.120s (pid %d)", b ? b + 1 : o->cmd[0],
		 (int)r->target.pid);
	return 0;
}

/* The program is held at its first instruction: read its maps now (the
 * executable, the dynamic loader, the vDSO), before it runs. */
static int start_spawn(struct record *r, struct uf_err *err)
{
	r->at_entry = 1;
	return record_open_maps(r, err);
}

/* The program's wait status, or -1 when unknown.  When -T ended the
 * recording while it still runs, it is our child in our terminal's
 * process group: wait for it like a shell would (Ctrl-C now reaches it
 * with the default action) instead of leaving it behind.  After a signal
 * to us we do not wait: the user asked us to end. */
static int finish_spawn(struct record *r)
{
	pid_t pid = r->target.pid;
	int st;
	if (r->target.ops->exit_status && r->target.ops->exit_status(&r->target, &st))
		return st;
	pid_t w = waitpid(pid, &st, WNOHANG);
	if (w == pid)
		return st;
	if (w != 0 || r->s.stats.interrupted)
		return -1;
	FILE *log = r->o->log;
	if (log)
		fprintf(log, "uniprof-flame: outputs written; waiting for %s to exit\n", r->what);
	while ((w = waitpid(pid, &st, 0)) < 0 && errno == EINTR)
		;
	if (w != pid)
		return -1;
	if (log && WIFEXITED(st))
		fprintf(log, "uniprof-flame: %s exited with status %d\n", r->what, WEXITSTATUS(st));
	else if (log && WIFSIGNALED(st))
		fprintf(log, "uniprof-flame: %s was killed by signal %d\n", r->what, WTERMSIG(st));
	return st;
}

/* ---- gdb: --gdb ADDR, --qemu -- QEMU ------------------------------------ */

static int open_gdb(struct record *r, struct uf_err *err)
{
	int rc = gdb_target_attach(&r->target, r->o->target_arg, NULL, err);
	if (rc < 0)
		return rc;
	snprintf(r->what, sizeof r->what, "gdb stub '%s'", r->o->target_arg);
	snprintf(r->target_text, sizeof r->target_text, "gdbstub %s", r->o->target_arg);
	snprintf(r->short_name, sizeof r->short_name, "%.199s", r->target_text);
	return 0;
}

/* QEMU paused with a private stub, attached before its first instruction
 * (attach resumes it: the CFI of -x was read before open). */
static int open_qemu(struct record *r, struct uf_err *err)
{
	const struct record_opts *o = r->o;
	struct launched *l = calloc(1, sizeof *l);
	if (!l) {
		uf_err_set(err, UF_ETARGET, o->cmd[0], "out of memory");
		return -ENOMEM;
	}
	int to_stderr = 0;
	const char *outs[3] = { o->out, o->out_folded, o->out_raw };
	for (int i = 0; i < 3; i++)
		to_stderr |= outs[i] && !strcmp(outs[i], "-");
	int rc = gdb_launch_start(&l->launch, o->cmd, to_stderr, 0, err);
	if (rc < 0) {
		free(l);
		return rc;
	}
	snprintf(r->what, sizeof r->what, "'%.80s' (pid %d)", o->cmd[0], (int)l->launch.pid);
	rc = gdb_target_attach(&r->target, l->launch.addr, NULL, err);
	if (rc < 0) {
		gdb_launch_end(&l->launch, 0, 5000);
		gdb_launch_release(&l->launch);
		free(l);
		return rc;
	}
	r->backend_state = l;
	snprintf(r->target_text, sizeof r->target_text, "qemu %s, gdbstub %s", r->what,
		 l->launch.addr);
	snprintf(r->short_name, sizeof r->short_name, "%.199s", r->what);
	return 0;
}

/* After the outputs: a signal ends QEMU; after -T (or a sampling error)
 * it runs on and we wait for it; then its exit status is reported.
 * Returns QEMU's wait status (-1: unknown). */
static int finish_qemu(struct record *r)
{
	struct launched *lc = r->backend_state;
	struct gdb_launch *l = &lc->launch;
	FILE *log = r->o->log;
	gdb_launch_release(l);   /* nobody else may attach to it */
	if (!gdb_launch_poll(l) && !record_stop_flag && !r->s.stats.target_gone) {
		if (log)
			fprintf(log, "uniprof-flame: outputs written; %s keeps running, waiting for "
				"it to exit (Ctrl-C ends it)\n", r->what);
		while (gdb_launch_wait(l, 1) == -EINTR && !record_stop_flag)
			;
	}
	/* signalled: QEMU got Ctrl-C too when it came from the terminal */
	gdb_launch_end(l, record_stop_flag ? 1000 : 10000, 5000);
	int st = l->exited ? l->status : -1;
	if (log && l->exited && WIFEXITED(st))
		fprintf(log, "uniprof-flame: %s exited with status %d\n", r->what, WEXITSTATUS(st));
	else if (log && l->exited && WIFSIGNALED(st))
		fprintf(log, "uniprof-flame: %s was killed by signal %d\n", r->what, WTERMSIG(st));
	free(lc);
	r->backend_state = NULL;
	return st;
}

/* ---- xen: -d DOMAIN, -c CFG --------------------------------------------- */

/* Symbols from -x only (the guest image is not a file in dom0). */
static int open_xen(struct record *r, struct uf_err *err)
{
	const struct record_opts *o = r->o;
	struct xen_target_opts xo = { .destroy = o->destroy };
	if (o->backend->flags & RECORD_BK_DESTROY)
		xo.cfg = o->target_arg;
	else
		xo.domain = o->target_arg;
	int rc = xen_target_open(&r->target, &xo, err);
	if (rc < 0)
		return rc;
	snprintf(r->what, sizeof r->what, "domain '%.80s' (id %u)", xen_target_name(&r->target),
		 xen_target_domid(&r->target));
	snprintf(r->target_text, sizeof r->target_text, "xen %s", r->what);
	snprintf(r->short_name, sizeof r->short_name, "%.199s", r->target_text);
	if (!o->exe && !o->quiet)
		o->sink.warn("no -x GUEST.elf: frames will be addresses or [unknown]");
	return 0;
}

/* A -c domain starts running only now, once the tables exist. */
static int start_xen(struct record *r, struct uf_err *err)
{
	return xen_target_start(&r->target, err);
}
