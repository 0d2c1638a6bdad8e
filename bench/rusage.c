/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * bench/rusage.c — runs one command and reports its wall time and peak RSS.
 *
 *   rusage REPORT CMD [ARG...]
 *
 * Writes one line "WALL_SECONDS PEAK_RSS_KIB STATUS CPU_SECONDS" to the file
 * REPORT, where STATUS is the command's exit status, or 128 + signal number,
 * and CPU_SECONDS is user + system time.  The command's own stdout and
 * stderr pass through untouched.  CPU time is reported beside wall time
 * because a busy shared machine inflates wall time far more than CPU time.
 *
 * Why not /usr/bin/time: it is not installed everywhere (package `time`) and
 * prints wall time in 10 ms steps, too coarse for a 4 ms target.  Trade-off:
 * the clock also covers starting the command, which a renderer's own timer
 * would not see.  It is started with posix_spawn (glibc: a vfork-like clone
 * that shares this process's memory until the exec), as hyperfine's Rust
 * std::process::Command starts one, not with fork(): in a Firecracker VM,
 * fork() + exec of the same command cost 0.7-0.9 ms more per run than
 * posix_spawn (session 23, 41 interleaved runs, best: our render of
 * FlameGraph's capture 5.46 -> 4.54 ms, inferno-flamegraph's 10.84 ->
 * 10.12), a cost of the harness that both tools of a side-by-side row
 * paid and that made their ratio look smaller than it is.
 *
 * Invariants:
 *  1. Wall time comes from CLOCK_MONOTONIC, taken just before posix_spawnp()
 *     and just after wait4() returns.
 *  2. Peak RSS is wait4()'s ru_maxrss for that one child (KiB on Linux).
 *  3. Exit status 0 means REPORT was written, whatever the command did (a
 *     command that cannot be started is status 127, as a shell reports
 *     it); 1 means this program itself failed (usage, wait, REPORT).
 */
#include <errno.h>
#include <spawn.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

struct result {
	double wall, cpu;	/* seconds */
	long rss_kib;
	int status;
};

static double tv_sec(struct timeval tv)
{
	return (double)tv.tv_sec + tv.tv_usec / 1e6;
}

/* Runs argv and fills *res; returns -1 when it could not run it. */
static int measure(char **argv, struct result *res)
{
	struct rusage ru;
	int ws;
	pid_t pid;
	double t0 = now();
	int e = posix_spawnp(&pid, argv[0], NULL, NULL, argv, environ);
	if (e) { /* as a shell reports a command it cannot run */
		fprintf(stderr, "rusage: %s: %s\n", argv[0], strerror(e));
		*res = (struct result){ .wall = now() - t0, .status = 127 };
		return 0;
	}
	while (wait4(pid, &ws, 0, &ru) < 0)
		if (errno != EINTR)
			return -1;
	res->wall = now() - t0;
	res->cpu = tv_sec(ru.ru_utime) + tv_sec(ru.ru_stime);
	res->rss_kib = ru.ru_maxrss;
	res->status = WIFEXITED(ws) ? WEXITSTATUS(ws) : 128 + WTERMSIG(ws);
	return 0;
}

int main(int argc, char **argv)
{
	struct result res;
	if (argc < 3) {
		fprintf(stderr, "usage: rusage REPORT CMD [ARG...]\n");
		return 1;
	}
	if (measure(argv + 2, &res) < 0) {
		fprintf(stderr, "rusage: %s: %s\n", argv[2], strerror(errno));
		return 1;
	}
	FILE *f = fopen(argv[1], "w");
	if (!f || fprintf(f, "%.6f %ld %d %.6f\n", res.wall, res.rss_kib, res.status, res.cpu) < 0 ||
	    fclose(f) != 0) {
		fprintf(stderr, "rusage: %s: %s\n", argv[1], strerror(errno));
		return 1;
	}
	return 0;
}
