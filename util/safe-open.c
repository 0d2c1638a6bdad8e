/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * util/safe-open.c — opening files that a target or an input names,
 * without letting the name choose a device, a FIFO, a FUSE file or a
 * path outside the target's root; see util/safe-open.h for the rules.
 *
 * Trade-off: every open costs three system calls more than open(2) (an
 * O_PATH open, fstat, fstatfs, the reopen and a second fstat), paid once
 * per file of a profile — never per sample.  Kernels before 5.6 have no
 * openat2: there the path inside a target's root is resolved by openat
 * relative to /proc/PID/root, whose absolute symlinks then resolve in
 * our root; the O_PATH + fstat vetting still refuses anything but a
 * regular file, so the worst case is reading the wrong regular file.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <pthread.h>
#include <linux/magic.h>
#include <linux/openat2.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "util/err.h"
#include "util/safe-open.h"

static int path_fd_in(int dirfd, const char *path);
static int fail(int e, const char *text, const char **why);

int uf_safe_open(const char *path, const char **why)
{
	int pfd = open(path, O_PATH | O_CLOEXEC);
	if (pfd < 0)
		return fail(errno, NULL, why);
	return uf_safe_reopen(pfd, why);
}

int uf_safe_open_in_root(const char *root, const char *path, const char **why)
{
	if (!root || !*root)
		return uf_safe_open(path, why);
	int dirfd = open(root, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (dirfd < 0)
		return fail(errno, NULL, why);
	int pfd = path_fd_in(dirfd, path);
	int e = errno;
	close(dirfd);
	if (pfd < 0)
		return fail(e, NULL, why);
	return uf_safe_reopen(pfd, why);
}

int uf_safe_open_mapped(pid_t pid, uint64_t start, uint64_t end, const char *path,
			const char **why)
{
	char buf[96];
	snprintf(buf, sizeof buf, "/proc/%d/map_files/%" PRIx64 "-%" PRIx64, (int)pid, start, end);
	/* a magic link to the mapped inode itself: following it is the point */
	int pfd = open(buf, O_PATH | O_CLOEXEC);
	if (pfd >= 0)
		return uf_safe_reopen(pfd, why);
	/* gone since maps was read, or we lack CAP_SYS_ADMIN: the path, but
	 * as the target sees it and never outside its root */
	snprintf(buf, sizeof buf, "/proc/%d/root", (int)pid);
	return uf_safe_open_in_root(buf, path, why);
}

int uf_safe_reopen(int pfd, const char **why)
{
	struct stat sb, sb2;
	struct statfs sf;
	char self[64];
	int fd = -1;
	if (fstat(pfd, &sb) != 0) {
		fd = fail(errno, NULL, why);
	} else if (!S_ISREG(sb.st_mode)) {
		fd = S_ISDIR(sb.st_mode) ? fail(EISDIR, "is a directory", why)
					 : fail(EINVAL, "not a regular file", why);
	} else if (geteuid() == 0 && fstatfs(pfd, &sf) == 0 && sf.f_type == FUSE_SUPER_MAGIC) {
		fd = fail(EPERM, "on a FUSE filesystem (not read as root: it could block)", why);
	} else {
		snprintf(self, sizeof self, "/proc/self/fd/%d", pfd);
		fd = open(self, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
		if (fd < 0) {
			fd = fail(errno, NULL, why);
		} else if (fstat(fd, &sb2) != 0 || sb2.st_ino != sb.st_ino || sb2.st_dev != sb.st_dev) {
			close(fd);
			fd = fail(ESTALE, "changed while opened", why);
		}
	}
	int e = errno;
	close(pfd);
	errno = e;
	return fd;
}

/* ---- static helpers ---------------------------------------------------- */

/* An O_PATH descriptor of `path` resolved inside `dirfd` as its root. */
static int path_fd_in(int dirfd, const char *path)
{
	struct open_how how = { .flags = O_PATH | O_CLOEXEC,
				.resolve = RESOLVE_IN_ROOT | RESOLVE_NO_MAGICLINKS };
	int pfd = (int)syscall(SYS_openat2, dirfd, path, &how, sizeof how);
	if (pfd < 0 && errno == ENOSYS) /* before Linux 5.6: see the header comment */
		pfd = openat(dirfd, path[0] == '/' ? path + 1 : path, O_PATH | O_CLOEXEC);
	return pfd;
}

/* libc's messages lowercase (UF_STRERROR's text), one per errno below
 * ERRNO_TEXTS, built once and read-only after: a *why is kept by callers
 * (procmap.c reports it later), so it must outlive the next call. */
#define ERRNO_TEXTS 134
static char errno_text[ERRNO_TEXTS][UF_STRERROR_MAX];
static pthread_once_t errno_text_once = PTHREAD_ONCE_INIT;

static void errno_texts_init(void)
{
	for (int e = 0; e < ERRNO_TEXTS; e++)
		uf_strerror_r(e, errno_text[e], sizeof errno_text[e]);
}

/* -1 with errno = e and *why = text (libc's message for e, lowercase,
 * when NULL; static, as the header promises). */
static int fail(int e, const char *text, const char **why)
{
	if (why && !text) {
		pthread_once(&errno_text_once, errno_texts_init);
		text = e >= 0 && e < ERRNO_TEXTS ? errno_text[e] : "unknown error";
	}
	if (why)
		*why = text;
	errno = e;
	return -1;
}
