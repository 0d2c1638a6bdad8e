/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * symtab/vdso.c — the symbols of a process's vDSO, read from the
 * process's memory.
 *
 * The kernel maps a small ELF image, [vdso], into every process; glibc
 * answers clock_gettime, gettimeofday, time and getcpu there without a
 * system call, so a clock-heavy program spends much of its time in it.
 * /proc/PID/maps names no file for it, so its symbols cannot come from
 * disk: the image is copied from the target with one pread of
 * /proc/PID/mem over the [vdso] range (the tracer may read a stopped
 * tracee's memory) and parsed in memory by libelf (elf_memory, through
 * symtab_open_elf_mem).  Its .dynsym names the functions as perf does
 * (x86-64: __vdso_clock_gettime, with the weak alias clock_gettime at
 * the same address losing by the alias rule in symtab.h).
 *
 * Trade-off: one read of a few pages when the map set first sees the
 * mapping (the vDSO never changes while a process lives, and the map
 * set keys files by path, so a refresh does not read it again).
 *
 * Invariants:
 *  1. At most VDSO_MAX bytes are read, whatever the maps say.
 *  2. Any failure (process gone, memory unreadable, not ELF) yields NULL
 *     and a reason; the frames then resolve as [unknown], as before.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "symtab/internal.h"

#define VDSO_MAX (1u << 20)   /* bytes: the vDSO is 2 pages on x86-64, 1-4 elsewhere */

int symtab_is_vdso(const char *path, size_t len)
{
	return len == 6 && memcmp(path, "[vdso]", 6) == 0;
}

void *symtab_vdso_read(pid_t pid, uint64_t start, uint64_t end, size_t *len)
{
	char path[64];
	if (end <= start || end - start > VDSO_MAX) {
		errno = EFBIG;
		return NULL;
	}
	size_t n = (size_t)(end - start);
	char *buf = malloc(n);
	snprintf(path, sizeof path, "/proc/%d/mem", (int)pid);
	int fd = buf ? open(path, O_RDONLY | O_CLOEXEC) : -1;
	ssize_t got = fd >= 0 ? pread(fd, buf, n, (off_t)start) : -1;
	int e = errno;
	if (fd >= 0)
		close(fd);
	if (got != (ssize_t)n) {
		free(buf);
		errno = got < 0 ? e : EIO;
		return NULL;
	}
	*len = n;
	return buf;
}

struct symtab *symtab_vdso_open(pid_t pid, uint64_t start, uint64_t end, struct uf_err *err)
{
	size_t n = 0;
	void *img = symtab_vdso_read(pid, start, end, &n);
	if (!img) {
		symtab_err_errno(err, "[vdso]", errno);
		return NULL;
	}
	struct symtab *st = symtab_open_elf_mem(img, n, "[vdso]", err);
	free(img);
	return st;
}
