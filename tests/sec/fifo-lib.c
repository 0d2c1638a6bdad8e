/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * tests/sec/fifo-lib.c — the hostile target of issue 20 item 2, for
 * tests/sec/t-target-files.sh: it maps an ELF file executable, deletes
 * it and puts a FIFO at its path, so /proc/PID/maps names a FIFO
 * ("DIR/lib.so (deleted)"), then spins for SECONDS.  A profiler that
 * strips " (deleted)" and open()s the path blocks for ever.
 *
 *     fifo-lib DIR SECONDS      prints "ready" once the trap is set
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static volatile unsigned long sink;

__attribute__((noinline)) static void spin(void)
{
	for (int i = 0; i < 100000; i++)
		sink += (unsigned long)i;
}

int main(int argc, char **argv)
{
	if (argc != 3)
		return 1;
	char lib[4096], buf[65536];
	snprintf(lib, sizeof lib, "%s/lib.so", argv[1]);
	int in = open("/proc/self/exe", O_RDONLY), out = open(lib, O_RDWR | O_CREAT | O_TRUNC, 0755);
	ssize_t n;
	while (in >= 0 && out >= 0 && (n = read(in, buf, sizeof buf)) > 0)
		if (write(out, buf, (size_t)n) != n)
			return 1;
	void *p = out < 0 ? MAP_FAILED : mmap(NULL, 4096, PROT_READ | PROT_EXEC, MAP_PRIVATE, out, 0);
	if (p == MAP_FAILED || unlink(lib) != 0 || mkfifo(lib, 0666) != 0) {
		perror("fifo-lib");
		return 1;
	}
	printf("ready\n");
	fflush(stdout);
	struct timespec t0, now;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	do {
		spin();
		clock_gettime(CLOCK_MONOTONIC, &now);
	} while (now.tv_sec - t0.tv_sec < atoi(argv[2]));
	return 0;
}
