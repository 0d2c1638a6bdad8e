/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * util/outfile.c — temp file + rename, relative to one directory
 * descriptor; see util/outfile.h for the rules and why.
 *
 * Trade-off: a symlink at the destination is replaced, not written
 * through, even when it points somewhere harmless; users who want a
 * device write to it by its own path or through /dev/stdout.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>

#include "util/outfile.h"

enum { REPLACE = 1 };   /* open_in_place: not special any more, use the rename */

static int fd_alias(const char *path);
static int open_alias(struct uf_outfile *o, const char *path, int fd, struct uf_err *err);
static int split_path(struct uf_outfile *o, const char *path, struct uf_err *err);
static int open_in_place(struct uf_outfile *o, struct uf_err *err);
static int open_temp(struct uf_outfile *o, struct uf_err *err);
static int refuse(struct uf_outfile *o, const struct stat *sb, struct uf_err *err);
static int owned_or_null(const struct stat *sb);
static int refuse_foreign(struct uf_outfile *o, const struct stat *sb, struct uf_err *err);
static int fail(struct uf_outfile *o, const char *path, int e, const char *what,
		struct uf_err *err);

int uf_outfile_open(struct uf_outfile *o, const char *path, struct uf_err *err)
{
	memset(o, 0, sizeof *o);
	o->dirfd = -1;
	if (strcmp(path, "-") == 0) {
		o->fp = stdout;
		return 0;
	}
	int alias = fd_alias(path);
	if (alias >= 0)
		return open_alias(o, path, alias, err);
	int rc = split_path(o, path, err);
	if (rc)
		return rc;
	struct stat sb;
	if (fstatat(o->dirfd, o->base, &sb, AT_SYMLINK_NOFOLLOW) == 0) {
		if (S_ISFIFO(sb.st_mode) || S_ISCHR(sb.st_mode)) {
			if ((rc = open_in_place(o, err)) != REPLACE)
				return rc;
		} else if (!S_ISREG(sb.st_mode) && !S_ISLNK(sb.st_mode)) {
			return refuse(o, &sb, err);
		}
	}
	return open_temp(o, err);
}

int uf_outfile_commit(struct uf_outfile *o, struct uf_err *err)
{
	int bad = 0, e = 0;
	if (o->fp && (fflush(o->fp) != 0 || ferror(o->fp)))
		bad = 1, e = errno;
	if (o->fp && o->fp != stdout && fclose(o->fp) != 0 && !bad)
		bad = 1, e = errno;
	o->fp = NULL;
	if (!bad && o->tmp && renameat(o->dirfd, o->tmp, o->dirfd, o->base) != 0)
		bad = 1, e = errno;
	int rc = 0;
	if (bad) {
		uf_err_set(err, UF_EINPUT, o->path ? o->path : "stdout", "write failed: %s",
			   UF_STRERROR(e ? e : EIO));
		rc = -(e ? e : EIO);
	} else if (o->tmp) {
		free(o->tmp); /* renamed: nothing to remove */
		o->tmp = NULL;
	}
	uf_outfile_abort(o);
	return rc;
}

void uf_outfile_abort(struct uf_outfile *o)
{
	if (o->fp && o->fp != stdout)
		fclose(o->fp); /* a direct output cannot be restored */
	if (o->tmp)
		unlinkat(o->dirfd, o->tmp, 0);
	if (o->dirfd >= 0)
		close(o->dirfd);
	free(o->tmp);
	free(o->base);
	free(o->path);
	memset(o, 0, sizeof *o);
	o->dirfd = -1;
}

/* ---- static helpers ---------------------------------------------------- */

/* The descriptor a path names by convention (as shells treat them in
 * redirections), or -1. */
static int fd_alias(const char *path)
{
	if (!strcmp(path, "/dev/stdout"))
		return 1;
	if (!strcmp(path, "/dev/stderr"))
		return 2;
	const char *num = !strncmp(path, "/dev/fd/", 8)	       ? path + 8
			  : !strncmp(path, "/proc/self/fd/", 14) ? path + 14
								   : NULL;
	if (!num || *num < '0' || *num > '9')
		return -1;
	char *end;
	errno = 0;
	long n = strtol(num, &end, 10);
	return *end || errno || n > INT_MAX ? -1 : (int)n;
}

static int open_alias(struct uf_outfile *o, const char *path, int fd, struct uf_err *err)
{
	struct stat sb;
	if ((o->path = strdup(path)) == NULL)
		return fail(o, path, ENOMEM, "cannot open output", err);
	int dup_fd = fcntl(fd, F_DUPFD_CLOEXEC, 3);
	if (dup_fd < 0)
		return fail(o, path, errno, "cannot open output", err);
	if (fstat(dup_fd, &sb) != 0 || !(S_ISREG(sb.st_mode) || S_ISFIFO(sb.st_mode) ||
					 S_ISCHR(sb.st_mode) || S_ISSOCK(sb.st_mode))) {
		close(dup_fd);
		return refuse(o, &sb, err);
	}
	o->fp = fdopen(dup_fd, "w");
	if (!o->fp) {
		int e = errno;
		close(dup_fd);
		return fail(o, path, e, "cannot open output", err);
	}
	o->direct = 1;
	return 0;
}

/* Fills o->path, o->base and o->dirfd (the directory, opened once). */
static int split_path(struct uf_outfile *o, const char *path, struct uf_err *err)
{
	o->path = strdup(path);
	const char *slash = strrchr(path, '/');
	o->base = strdup(slash ? slash + 1 : path);
	char *dir = slash ? strndup(path, slash == path ? 1 : (size_t)(slash - path)) : strdup(".");
	if (!o->path || !o->base || !dir) {
		free(dir);
		return fail(o, path, ENOMEM, "cannot create output", err);
	}
	if (!*o->base || !strcmp(o->base, ".") || !strcmp(o->base, "..")) {
		free(dir);
		return fail(o, path, EISDIR, "cannot create output", err);
	}
	o->dirfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	int e = errno;
	free(dir);
	return o->dirfd < 0 ? fail(o, path, e, "cannot create output", err) : 0;
}

/* The destination was a FIFO or character device.  It is looked at
 * through an O_PATH descriptor first (no driver open, no FIFO wait, no
 * link followed), written in place only when the invoking user owns it
 * (or it is /dev/null), then reopened through /proc/self/fd, so the
 * object checked is the object written.  Another user's FIFO is refused
 * before anything could block on it: root writing into a FIFO planted at
 * its -o path in /tmp would hand the output to that user (issue 28).
 * Returns 0, REPLACE when it is a regular file or symlink by now, or <0. */
static int open_in_place(struct uf_outfile *o, struct uf_err *err)
{
	int pfd = openat(o->dirfd, o->base, O_PATH | O_NOFOLLOW | O_CLOEXEC);
	if (pfd < 0)
		return errno == ENOENT ? REPLACE : fail(o, o->path, errno, "cannot open output", err);
	struct stat sb;
	if (fstat(pfd, &sb) != 0 || S_ISREG(sb.st_mode) || S_ISLNK(sb.st_mode)) {
		close(pfd);
		return REPLACE;
	}
	if (!S_ISFIFO(sb.st_mode) && !S_ISCHR(sb.st_mode)) {
		close(pfd);
		return refuse(o, &sb, err);
	}
	if (!owned_or_null(&sb)) {
		close(pfd);
		return refuse_foreign(o, &sb, err);
	}
	char self[64];
	snprintf(self, sizeof self, "/proc/self/fd/%d", pfd);
	/* our own FIFO without a reader: wait for one, as a shell does */
	int fd = open(self, O_WRONLY | O_NOCTTY | O_CLOEXEC);
	int e = errno;
	close(pfd);
	if (fd < 0)
		return fail(o, o->path, e, "cannot open output", err);
	if ((o->fp = fdopen(fd, "w")) == NULL) {
		e = errno;
		close(fd);
		return fail(o, o->path, e, "cannot open output", err);
	}
	o->direct = 1;
	close(o->dirfd);
	o->dirfd = -1;
	return 0;
}

/* May we write into this FIFO or device?  Only when the invoking user
 * owns it, or it is /dev/null (root's, harmless, writable by all). */
static int owned_or_null(const struct stat *sb)
{
	if (sb->st_uid == geteuid())
		return 1;
	return S_ISCHR(sb->st_mode) && major(sb->st_rdev) == 1 && minor(sb->st_rdev) == 3;
}

static int refuse_foreign(struct uf_outfile *o, const struct stat *sb, struct uf_err *err)
{
	uf_err_set(err, UF_EINPUT, o->path, "cannot write output: is a %s owned by another user "
		   "(uid %u); refusing to write into it", S_ISFIFO(sb->st_mode) ? "FIFO" : "device",
		   (unsigned)sb->st_uid);
	uf_outfile_abort(o);
	return -EPERM;
}

/* mkstemp() relative to dirfd: "BASE.tmpXXXXXX", created O_EXCL (never
 * through a link), mode 0666 & ~umask like any new file. */
static int open_temp(struct uf_outfile *o, struct uf_err *err)
{
	static const char az[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
	size_t blen = strlen(o->base), n = (blen > 200 ? 7 : blen) + 11;
	if ((o->tmp = malloc(n)) == NULL)
		return fail(o, o->path, ENOMEM, "cannot create output", err);
	mode_t mask = umask(0);
	umask(mask);
	int fd = -1, e = EEXIST;
	for (int attempt = 0; fd < 0 && e == EEXIST && attempt < 100; attempt++) {
		unsigned char r[6];
		if (getrandom(r, sizeof r, GRND_NONBLOCK) != (ssize_t)sizeof r)
			for (size_t i = 0; i < sizeof r; i++)
				r[i] = (unsigned char)(clock() + getpid() * 31 + attempt * 7 + (int)i * 13);
		int len = snprintf(o->tmp, n, "%s.tmp", blen > 200 ? ".uf-out" : o->base);
		for (size_t i = 0; i < sizeof r; i++)
			o->tmp[len++] = az[r[i] % (sizeof az - 1)];
		o->tmp[len] = 0;
		fd = openat(o->dirfd, o->tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
			    0666 & ~mask);
		e = fd < 0 ? errno : 0;
	}
	if (fd < 0) {
		free(o->tmp);
		o->tmp = NULL;
		return fail(o, o->path, e, "cannot create output", err);
	}
	if ((o->fp = fdopen(fd, "w")) == NULL) {
		e = errno;
		close(fd);
		return fail(o, o->path, e, "cannot open output", err);
	}
	setvbuf(o->fp, NULL, _IOFBF, 64 << 10);
	return 0;
}

static int refuse(struct uf_outfile *o, const struct stat *sb, struct uf_err *err)
{
	const char *why = S_ISDIR(sb->st_mode)	 ? "is a directory"
			  : S_ISBLK(sb->st_mode) ? "is a block device; refusing to write onto it"
			  : S_ISSOCK(sb->st_mode) ? "is a socket"
						  : "is not a regular file, FIFO or character device";
	uf_err_set(err, UF_EINPUT, o->path ? o->path : "output", "cannot write output: %s", why);
	uf_outfile_abort(o);
	return -EINVAL;
}

static int fail(struct uf_outfile *o, const char *path, int e, const char *what,
		struct uf_err *err)
{
	uf_err_set(err, UF_EINPUT, path, "%s: %s", what, UF_STRERROR(e));
	uf_outfile_abort(o);
	return -e;
}
