/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * tests/sec/swap-race.c — the attacker of issue 20 item 1, run as an
 * unprivileged user by tests/sec/t-outfile.sh: in a directory it can
 * write, it swaps NAME between a directory and a symlink to VICTIM with
 * renameat2(RENAME_EXCHANGE) as fast as it can, for SECONDS.
 *
 *     swap-race DIR NAME VICTIM SECONDS
 *
 * When a run of the victim program replaced NAME by a regular file, the
 * pair is repaired (the file removed, the missing directory or link made
 * again) so every run faces the race.  Prints the number of swaps done,
 * so the test can tell the race ran.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static const char *names[2];

/* Keeps one directory and one symlink to `victim` under names[0..1]. */
static void repair(int dir, const char *victim)
{
	struct stat sb;
	int have_dir = 0, have_link = 0, missing[2];
	for (int i = 0; i < 2; i++) {
		missing[i] = fstatat(dir, names[i], &sb, AT_SYMLINK_NOFOLLOW) != 0;
		if (!missing[i] && S_ISDIR(sb.st_mode))
			have_dir = 1;
		else if (!missing[i] && S_ISLNK(sb.st_mode))
			have_link = 1;
		else if (!missing[i] && unlinkat(dir, names[i], 0) == 0)
			missing[i] = 1;
	}
	for (int i = 0; i < 2; i++) {
		if (!missing[i])
			continue;
		if (!have_dir)
			have_dir = mkdirat(dir, names[i], 0777) == 0;
		else if (!have_link)
			have_link = symlinkat(victim, dir, names[i]) == 0;
	}
}

int main(int argc, char **argv)
{
	if (argc != 5) {
		fprintf(stderr, "usage: swap-race DIR NAME VICTIM SECONDS\n");
		return 1;
	}
	int dir = open(argv[1], O_RDONLY | O_DIRECTORY);
	names[0] = argv[2];
	names[1] = "swap-link";
	if (dir < 0) {
		perror("swap-race: open");
		return 1;
	}
	double secs = atof(argv[4]);
	struct timespec t0, now;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	unsigned long swaps = 0;
	do {
		repair(dir, argv[3]);
		for (int i = 0; i < 1000; i++)
			if (renameat2(dir, argv[2], dir, "swap-link", RENAME_EXCHANGE) == 0)
				swaps++;
		clock_gettime(CLOCK_MONOTONIC, &now);
	} while ((double)(now.tv_sec - t0.tv_sec) + (now.tv_nsec - t0.tv_nsec) / 1e9 < secs);
	printf("%lu\n", swaps);
	return 0;
}
