/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * util/safe-open.h — opening, for reading, a file that someone else
 * named: a path in a profiled process's /proc/PID/maps, a -x file from a
 * bug report, a debug file found by build id.
 *
 * uniprof-flame runs as root, and a plain open(2) of such a path runs a
 * device driver's open (arming /dev/watchdog, rewinding a tape), waits
 * for ever on a FIFO without a writer or on a FUSE server the target
 * runs itself, and follows symlinks out of the target's root.  Every
 * function here therefore:
 *  1. resolves the path to an O_PATH descriptor first: that runs no
 *     driver code, waits for no FIFO peer and opens no file on FUSE;
 *  2. accepts it only when fstat(2) on that descriptor says regular file
 *     and, when we are root, fstatfs(2) says it is not on FUSE (a
 *     process could serve the file itself and never answer a read);
 *  3. only then reopens that very inode through /proc/self/fd/N with
 *     O_RDONLY|O_NONBLOCK|O_NOCTTY and checks it is the same inode.
 * The returned descriptor is close-on-exec and owned by the caller.
 *
 * Links: a target's path is resolved with openat2(RESOLVE_IN_ROOT |
 * RESOLVE_NO_MAGICLINKS) inside /proc/PID/root, so a symlink can neither
 * leave the target's root nor jump through /proc magic links; the file
 * finally reached is then vetted as above (a link to a device is a
 * device: refused).  A path a user typed (-x) resolves as the shell would,
 * links included (build-id debug paths are symlinks by design), and is
 * vetted the same way.
 */
#ifndef UF_UTIL_SAFE_OPEN_H
#define UF_UTIL_SAFE_OPEN_H

#include <stdint.h>
#include <sys/types.h>

/* Each returns a readable descriptor of a regular file, or -1 with errno
 * set and *why (static text, lowercase) saying why: libc's message for
 * errno when the path did not resolve (UF_STRERROR's text), else "is a directory", "not a regular file",
 * "on a FUSE filesystem (not read as root: it could block)" or "changed
 * while opened" (errno EISDIR, EINVAL, EPERM, ESTALE). */

/* `path` (borrowed) as the caller's process resolves it. */
int uf_safe_open(const char *path, const char **why);

/* `path` (borrowed) inside the directory `root` (borrowed; "" or NULL:
 * plain uf_safe_open), symlinks confined to it (RESOLVE_IN_ROOT). */
int uf_safe_open_in_root(const char *root, const char *path, const char **why);

/* The file that process `pid` maps at [start, end): through
 * /proc/PID/map_files/START-END (the very inode mapped, deleted or in
 * another mount namespace; needs CAP_SYS_ADMIN), else `path` as maps
 * names it (without " (deleted)"), resolved inside /proc/PID/root. */
int uf_safe_open_mapped(pid_t pid, uint64_t start, uint64_t end, const char *path,
			const char **why);

/* Vets an O_PATH descriptor (taken: always closed) and reopens its file
 * for reading, as in rules 2 and 3 above. */
int uf_safe_reopen(int path_fd, const char **why);

#endif
