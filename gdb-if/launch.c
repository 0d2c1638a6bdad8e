/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * gdb-if/launch.c — launch mode: start QEMU ourselves, paused, with a
 * private gdbstub, so the profile starts at the guest's first instruction
 * (`uniprof-flame ... --qemu -- qemu-system-ARCH ARGS...`).
 *
 * QEMU is started as `ARGV0 -S -gdb unix:DIR/gdb.sock,server=on,wait=off
 * ARGS...`: -S keeps every vCPU stopped until our first `c`, and the
 * socket lives in a fresh 0700 directory, so no other user or process
 * can take the stub first and no port can clash.  QEMU stays in our
 * process group and keeps our terminal (its console is the user's), and
 * gets SIGTERM if we die (PR_SET_PDEATHSIG), so it is never left paused
 * without a debugger.  Trade-off: the socket is ready when /proc/net/unix
 * lists it as listening, not when a probe connects: QEMU's gdbstub takes a
 * connection as a debugger attaching (it stops the VM), so probing would
 * disturb it.
 *
 * States and the call behind each transition:
 *
 *     (none) --gdb_launch_start--> RUNNING (paused guest, socket listening)
 *     RUNNING --gdb_launch_poll/_wait (QEMU exits)--> EXITED
 *     RUNNING --gdb_launch_end: wait, SIGTERM, SIGKILL after grace--> EXITED
 *     any --gdb_launch_release (socket and directory removed)--> (none)
 *
 * Invariants:
 *  1. QEMU is reaped exactly once; l->exited and l->status say how it ended.
 *  2. Nothing here waits without a deadline, except gdb_launch_wait(block),
 *     which returns on a signal to us (EINTR) so the caller can react.
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "gdb-if/gdb.h"

#define POLL_NS 10000000L   /* 10 ms between looks at a starting QEMU */

static const char *base_name(const char *path);
static int listening(const char *path);
static void child(char *const *argv, int stdout_to_stderr, int errfd);
static int make_dir(struct gdb_launch *l, struct uf_err *err);
static int spawn(struct gdb_launch *l, char *const *argv, int stdout_to_stderr,
		 const char *what, struct uf_err *err);
static int wait_listening(struct gdb_launch *l, unsigned timeout_ms, const char *what,
			  struct uf_err *err);
static uint64_t now_ms(void);
static const char *errstr(int e);

/* ---- public ---------------------------------------------------------- */

int gdb_launch_check(char *const *argv, struct uf_err *err)
{
	if (!argv || !argv[0]) {
		uf_err_set(err, UF_EUSAGE, "'--qemu'", "no QEMU command after --");
		return -EINVAL;
	}
	if (strncmp(base_name(argv[0]), "qemu-system-", 12) != 0) {
		uf_err_set(err, UF_EUSAGE, "'--qemu'", "'%s' is not a QEMU system emulator "
			   "(qemu-system-ARCH)", argv[0]);
		return -EINVAL;
	}
	for (size_t i = 1; argv[i]; i++) {
		const char *a = argv[i][0] == '-' && argv[i][1] == '-' ? argv[i] + 1 : argv[i];
		if (!strcmp(a, "-append") && argv[i + 1]) {   /* free text: not options */
			i++;
			continue;
		}
		if (!strcmp(a, "-s") || !strcmp(a, "-gdb") || !strcmp(a, "-daemonize")) {
			uf_err_set(err, UF_EUSAGE, "'--qemu'", "QEMU arguments hold '%s': launch mode "
				   "starts QEMU with its own private gdbstub%s; drop it, or start QEMU "
				   "yourself and use --gdb", argv[i],
				   strcmp(a, "-daemonize") ? "" : " and needs QEMU as its child");
			return -EINVAL;
		}
	}
	return 0;
}

int gdb_launch_start(struct gdb_launch *l, char *const *argv, int stdout_to_stderr,
		     unsigned timeout_ms, struct uf_err *err)
{
	char what[160];
	memset(l, 0, sizeof *l);
	snprintf(what, sizeof what, "'%.150s'", argv[0]);
	if (make_dir(l, err) < 0)
		return -EINVAL;
	int rc = spawn(l, argv, stdout_to_stderr, what, err);
	if (rc == 0)
		rc = wait_listening(l, timeout_ms ? timeout_ms : 30000, what, err);
	if (rc < 0) {
		gdb_launch_end(l, 0, 2000);
		gdb_launch_release(l);
	}
	return rc;
}

int gdb_launch_poll(struct gdb_launch *l)
{
	return gdb_launch_wait(l, 0) == 1;
}

int gdb_launch_wait(struct gdb_launch *l, int block)
{
	if (l->exited || l->pid <= 0)
		return 1;
	int st;
	pid_t p = waitpid(l->pid, &st, block ? 0 : WNOHANG);
	if (p == l->pid) {
		l->exited = 1;   /* invariant 1 */
		l->status = st;
		return 1;
	}
	if (p < 0 && errno == ECHILD) {   /* reaped elsewhere: status unknown */
		l->exited = 1;
		l->status = 0;
		return 1;
	}
	return p < 0 ? -errno : 0;
}

void gdb_launch_end(struct gdb_launch *l, unsigned wait_ms, unsigned grace_ms)
{
	uint64_t deadline = now_ms() + wait_ms;
	for (int term = 0; l->pid > 0 && !gdb_launch_poll(l);) {
		if (now_ms() >= deadline && term)
			break;
		if (now_ms() >= deadline) {
			kill(l->pid, SIGTERM);
			deadline = now_ms() + grace_ms;
			term = 1;
		}
		struct timespec ts = { 0, POLL_NS };
		nanosleep(&ts, NULL);
	}
	if (l->pid > 0 && !l->exited) {
		kill(l->pid, SIGKILL);
		while (gdb_launch_wait(l, 1) == -EINTR)
			;
	}
}

void gdb_launch_release(struct gdb_launch *l)
{
	if (l->sock[0])
		unlink(l->sock);
	if (l->dir[0])
		rmdir(l->dir);
	l->sock[0] = l->dir[0] = 0;
}

/* ---- helpers --------------------------------------------------------- */

static const char *base_name(const char *path)
{
	const char *s = strrchr(path, '/');
	return s ? s + 1 : path;
}

/* Fork and exec `argv[0] -S -gdb CHARDEV argv[1..]`; an exec failure
 * comes back through a close-on-exec pipe (nothing read: exec worked). */
static int spawn(struct gdb_launch *l, char *const *argv, int stdout_to_stderr,
		 const char *what, struct uf_err *err)
{
	size_t argc = 0;
	int pfd[2], child_errno = 0;
	while (argv[argc])
		argc++;
	char **av = calloc(argc + 4, sizeof *av);
	if (!av || pipe2(pfd, O_CLOEXEC) < 0) {
		uf_err_set(err, UF_ETARGET, what, "%s", errstr(av ? errno : ENOMEM));
		free(av);
		return -ENOMEM;
	}
	av[0] = argv[0];
	av[1] = "-S";
	av[2] = "-gdb";
	av[3] = l->chardev;
	memcpy(av + 4, argv + 1, argc * sizeof *av);   /* with the final NULL */
	l->pid = fork();
	if (l->pid == 0)
		child(av, stdout_to_stderr, pfd[1]);
	int fork_errno = errno;
	free(av);
	close(pfd[1]);
	ssize_t got = l->pid > 0 ? read(pfd[0], &child_errno, sizeof child_errno) : -1;
	close(pfd[0]);
	if (l->pid > 0 && got <= 0)
		return 0;
	uf_err_set(err, UF_ETARGET, what, "cannot run it: %s",
		   errstr(l->pid < 0 ? fork_errno : child_errno));
	return -ECHILD;
}

/* Until the stub listens, QEMU exits, or the deadline passes. */
static int wait_listening(struct gdb_launch *l, unsigned timeout_ms, const char *what,
			  struct uf_err *err)
{
	uint64_t deadline = now_ms() + timeout_ms;
	while (!listening(l->sock)) {
		struct timespec ts = { 0, POLL_NS };
		if (gdb_launch_poll(l) && WIFEXITED(l->status)) {
			uf_err_set(err, UF_ETARGET, what, "exited with status %d before its gdbstub "
				   "was up", WEXITSTATUS(l->status));
			return -ECHILD;
		} else if (l->exited) {
			uf_err_set(err, UF_ETARGET, what, "killed by signal %d before its gdbstub was "
				   "up", WTERMSIG(l->status));
			return -ECHILD;
		} else if (now_ms() > deadline) {
			uf_err_set(err, UF_ETARGET, what, "no gdbstub socket after %u ms", timeout_ms);
			return -ETIMEDOUT;
		}
		nanosleep(&ts, NULL);
	}
	return 0;
}

/* A fresh 0700 directory for the socket; sun_path holds 108 bytes, so a
 * long $TMPDIR falls back to /tmp. */
static int make_dir(struct gdb_launch *l, struct uf_err *err)
{
	const char *tmp = getenv("TMPDIR");
	if (!tmp || !*tmp || strlen(tmp) > 60)
		tmp = "/tmp";
	snprintf(l->dir, sizeof l->dir, "%s/uniprof-flame.XXXXXX", tmp);
	if (!mkdtemp(l->dir)) {
		uf_err_set(err, UF_ETARGET, l->dir, "cannot create the gdbstub directory: %s",
			   errstr(errno));
		l->dir[0] = 0;
		return -errno;
	}
	snprintf(l->sock, sizeof l->sock, "%s/gdb.sock", l->dir);
	snprintf(l->addr, sizeof l->addr, "unix:%s", l->sock);
	snprintf(l->chardev, sizeof l->chardev, "unix:%s,server=on,wait=off", l->sock);
	return 0;
}

/* Is `path` our listening Unix socket?  The line of /proc/net/unix
 * whose Path column is exactly `path` (not an abstract "@path" another
 * user bound: any user can bind any abstract name, and a substring
 * match took it for ours) has __SO_ACCEPTCON set, and the file at
 * `path` is a socket of our user.  The directory is our 0700 mkdtemp,
 * so only QEMU, our child, can have made that file. */
static int listening(const char *path)
{
	struct stat sb;
	if (lstat(path, &sb) != 0 || !S_ISSOCK(sb.st_mode) || sb.st_uid != geteuid())
		return 0;
	FILE *f = fopen("/proc/net/unix", "re");
	char line[512];
	int found = 0;
	if (!f)
		return 1;   /* no procfs: the socket file is all we can see */
	while (!found && fgets(line, sizeof line, f)) {
		unsigned long flags;
		int at = -1;
		/* Num RefCount Protocol Flags Type St Inode Path */
		if (sscanf(line, "%*s %*s %*s %lx %*s %*s %*s %n", &flags, &at) != 1 || at < 0)
			continue;
		line[strcspn(line, "\n")] = 0;
		found = strcmp(line + at, path) == 0 && (flags & 0x10000);
	}
	fclose(f);
	return found;
}

/* In the child: QEMU ends with us; its stdout joins stderr when ours
 * carries an output; exec failures reach the parent through errfd. */
static void child(char *const *argv, int stdout_to_stderr, int errfd)
{
	prctl(PR_SET_PDEATHSIG, SIGTERM);
	if (stdout_to_stderr)
		dup2(2, 1);
	execvp(argv[0], argv);
	int e = errno;
	_exit(write(errfd, &e, sizeof e) == sizeof e ? 127 : 126);
}

static uint64_t now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

/* libc's message in our style: lowercase first letter. */
static const char *errstr(int e)
{
	static char buf[128];
	snprintf(buf, sizeof buf, "%s", UF_STRERROR(e));
	buf[0] = (char)tolower((unsigned char)buf[0]);
	return buf;
}
