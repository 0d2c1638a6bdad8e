/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * tests/sec/map-dev.c — the hostile target of issue 28 item 1 and its
 * witness, for tests/sec/t-target-files.sh.
 *
 *     map-dev target DIR DEVICE SECONDS   (run as an unprivileged user)
 *
 * copies its own ELF to DIR/lib.so, keeps it open, deletes it and puts a
 * symlink to DEVICE at DIR/lib.so; then, for SECONDS, maps the deleted
 * file executable at an address that changes every time, runs a while
 * in that copy of its own code (needs a PIE whose text sits at equal
 * file offset and vaddr, as gcc and ld lay it out) and unmaps it.  /proc/PID/maps then keeps naming new mappings of
 * "DIR/lib.so (deleted)" that are often gone by the time a profiler
 * looks at /proc/PID/map_files: a profiler that falls back to open(2) of
 * the path opens DEVICE as root.  Prints "ready" once the trap is set.
 *
 *     map-dev watch DEVICE SECONDS
 *
 * counts the opens of DEVICE (inotify IN_OPEN on its node: real opens
 * only, an O_PATH lookup runs no open and raises no event) for SECONDS
 * and prints the count.  Prints "watching" first, on stderr.
 */
#include <fcntl.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/inotify.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

extern const char __executable_start[];   /* our load address (ld) */

/* Runs in the mapped copy of this file, so samples land in the mapping
 * (which makes the profiler re-read maps): registers and stack only. */
__attribute__((noinline)) static unsigned long spin(unsigned long n)
{
	unsigned long x = 1;
	for (unsigned long i = 0; i < n; i++) {
		x = x * 6364136223846793005ul + i;
		__asm__ volatile("" : "+r"(x));
	}
	return x;
}

static double now_s(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + t.tv_nsec / 1e9;
}

static int copy_self(const char *lib)
{
	char buf[65536];
	ssize_t n;
	int in = open("/proc/self/exe", O_RDONLY), out = open(lib, O_RDWR | O_CREAT | O_TRUNC, 0755);
	while (in >= 0 && out >= 0 && (n = read(in, buf, sizeof buf)) > 0)
		if (write(out, buf, (size_t)n) != n)
			return -1;
	if (in >= 0)
		close(in);
	return out;
}

static int target(const char *dir, const char *device, int seconds)
{
	char lib[4096];
	snprintf(lib, sizeof lib, "%s/lib.so", dir);
	int fd = copy_self(lib);
	if (fd < 0 || unlink(lib) != 0 || symlink(device, lib) != 0) {
		perror("map-dev");
		return 1;
	}
	off_t size = lseek(fd, 0, SEEK_END);
	size_t slot = 1u << 16, span = slot * 1024u;
	char *region = mmap(NULL, span, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (size <= 0 || (size_t)size > slot || region == MAP_FAILED || munmap(region, span) != 0) {
		fprintf(stderr, "map-dev: cannot copy or place %s\n", lib);
		return 1;
	}
	/* spin's place in the copy: for a PIE, file offset = vaddr in text */
	size_t at_spin = (size_t)((const char *)(uintptr_t)spin - __executable_start);
	printf("ready\n");
	fflush(stdout);
	unsigned long sum = 0;
	double end = now_s() + seconds;
	for (unsigned k = 0; now_s() < end; k++) {
		char *at = region + slot * (k % 1024u);
		char *p = mmap(at, (size_t)size, PROT_READ | PROT_EXEC,
			       MAP_PRIVATE | MAP_FIXED_NOREPLACE, fd, 0);
		if (p != MAP_FAILED) {
			unsigned long (*copy)(unsigned long) =
				(unsigned long (*)(unsigned long))(uintptr_t)(p + at_spin);
			sum += copy(100000);
			munmap(p, (size_t)size);
		}
		sum += spin(20000);
	}
	return sum == 42;   /* keep the work */
}

static int watch(const char *device, int seconds)
{
	int in = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
	if (in < 0 || inotify_add_watch(in, device, IN_OPEN) < 0) {
		perror("map-dev watch");
		return 1;
	}
	fprintf(stderr, "watching\n");
	unsigned long opens = 0;
	double end = now_s() + seconds;
	char buf[4096] __attribute__((aligned(__alignof__(struct inotify_event))));
	while (now_s() < end) {
		struct pollfd pfd = { in, POLLIN, 0 };
		if (poll(&pfd, 1, 100) <= 0)
			continue;
		ssize_t n = read(in, buf, sizeof buf);
		for (ssize_t off = 0; off < n;) {
			const struct inotify_event *ev = (const void *)(buf + off);
			opens += (ev->mask & IN_OPEN) != 0;
			off += (ssize_t)(sizeof *ev + ev->len);
		}
	}
	printf("%lu\n", opens);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 5 && !strcmp(argv[1], "target"))
		return target(argv[2], argv[3], atoi(argv[4]));
	if (argc == 4 && !strcmp(argv[1], "watch"))
		return watch(argv[2], atoi(argv[3]));
	fprintf(stderr, "usage: map-dev target DIR DEVICE SECONDS | watch DEVICE SECONDS\n");
	return 2;
}
