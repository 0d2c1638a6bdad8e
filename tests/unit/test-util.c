/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * tests/unit/test-util.c — the ground floor: the arena hands out disjoint,
 * aligned memory across block boundaries, and outputs reach what the user
 * named: descriptor aliases (/dev/fd/N, /proc/self/fd/N, as `-o >(cmd)`
 * gives), a FIFO whose reader is slow (every byte, no EAGAIN), and a
 * regular file replaced atomically; files others name (util/safe-open)
 * are opened only when regular, a FIFO or device never reaching open.
 * The id map (util/map) finds every id put, through growth and through
 * one long probe run; util/split2 runs both parts, the second on a thread
 * only when asked; util/thread starts a thread off its creator's CPU, then
 * gives it its creator's CPUs back; util/fmt.h's digit count and integers are printf's;
 * util/memfile keeps every byte written, in order, through growth.  Run
 * under ASan: an allocation that overran its block
 * is a failure here, not a silent corruption.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <sys/inotify.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <cmocka.h>

#include "util/base64.h"
#include "util/bigalloc.h"

#include "util/fmt.h"
#include "util/arena.h"
#include "util/hash.h"
#include "util/map.h"
#include "util/memfile.h"
#include "util/split2.h"
#include "util/thread.h"
#include "util/err.h"
#include "util/outfile.h"
#include "util/safe-open.h"

/* ---- arena ---- */

static void arena_disjoint_across_blocks(void **state)
{
	(void)state;
	struct uf_arena a;
	uf_arena_init(&a);
	enum { N = 4000 };
	unsigned char *p[N];
	size_t len[N];
	for (int i = 0; i < N; i++) {
		len[i] = 1 + (size_t)(i * 7919) % 1500;  /* ~3 MB: a dozen blocks */
		if (i == N / 2)
			len[i] = UF_ARENA_BLOCK + 100;  /* larger than a block */
		p[i] = uf_arena_alloc(&a, len[i]);
		assert_non_null(p[i]);
		assert_int_equal((uintptr_t)p[i] % 8, 0);
		memset(p[i], i & 0xff, len[i]);
	}
	for (int i = 0; i < N; i++)
		for (size_t k = 0; k < len[i]; k++)
			if (p[i][k] != (unsigned char)(i & 0xff))
				fail_msg("allocation %d overwritten at byte %zu", i, k);
	uf_arena_release(&a);
}

static void arena_strndup(void **state)
{
	(void)state;
	struct uf_arena a;
	uf_arena_init(&a);
	char *s = uf_arena_strndup(&a, "function_3;tail", 10);
	assert_string_equal(s, "function_3");
	uf_arena_release(&a);
}

/* ---- outputs ---- */

static char dir[] = "/tmp/uf-test-util.XXXXXX";

static int setup_dir(void **state)
{
	(void)state;
	return mkdtemp(dir) ? 0 : -1;
}

static int remove_dir(void **state)
{
	(void)state;
	char cmd[64];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	return system(cmd) == 0 ? 0 : -1;
}

static void read_all(const char *path, char *buf, size_t cap)
{
	FILE *f = fopen(path, "r");
	assert_non_null(f);
	size_t n = fread(buf, 1, cap - 1, f);
	buf[n] = 0;
	fclose(f);
}

/* -o /dev/fd/N and /proc/self/fd/N write to that descriptor (two digits,
 * one of them 9: parsed as a decimal number) and create nothing. */
static void outfile_fd_alias(void **state)
{
	(void)state;
	const char *fmt[] = { "/dev/fd/%d", "/proc/self/fd/%d" };
	for (int i = 0; i < 2; i++) {
		char target[128], alias[64], got[64];
		snprintf(target, sizeof target, "%s/alias-%d", dir, i);
		int fd = open(target, O_WRONLY | O_CREAT | O_TRUNC, 0600);
		assert_true(fd >= 0);
		assert_int_equal(dup2(fd, 19), 19);
		close(fd);
		snprintf(alias, sizeof alias, fmt[i], 19);
		struct uf_outfile o;
		struct uf_err err = { 0 };
		assert_int_equal(uf_outfile_open(&o, alias, &err), 0);
		fputs("through the descriptor\n", o.fp);
		assert_int_equal(uf_outfile_commit(&o, &err), 0);
		close(19);
		read_all(target, got, sizeof got);
		assert_string_equal(got, "through the descriptor\n");
	}
}

/* A regular file is replaced whole, and nothing else is left beside it. */
static void outfile_replaces_file(void **state)
{
	(void)state;
	char target[128], got[64];
	snprintf(target, sizeof target, "%s/out.svg", dir);
	FILE *f = fopen(target, "w");
	assert_non_null(f);
	fputs("old contents, longer than the new ones\n", f);
	fclose(f);
	struct uf_outfile o;
	struct uf_err err = { 0 };
	assert_int_equal(uf_outfile_open(&o, target, &err), 0);
	fputs("new\n", o.fp);
	read_all(target, got, sizeof got);
	assert_string_equal(got, "old contents, longer than the new ones\n");  /* until commit */
	assert_int_equal(uf_outfile_commit(&o, &err), 0);
	read_all(target, got, sizeof got);
	assert_string_equal(got, "new\n");
	char cmd[200];
	snprintf(cmd, sizeof cmd, "test $(ls -A '%s' | grep -c '^out.svg') -eq 1 && ! ls -A '%s' | grep -q tmp", dir, dir);
	assert_int_equal(system(cmd), 0);
}

/* A FIFO whose reader starts late and reads slowly gets every byte: the
 * FIFO is opened non-blocking (never to hang on a missing reader), then
 * written blocking. */
static void outfile_fifo_slow_reader(void **state)
{
	(void)state;
	char fifo[128], count[128];
	snprintf(fifo, sizeof fifo, "%s/fifo", dir);
	snprintf(count, sizeof count, "%s/count", dir);
	assert_int_equal(mkfifo(fifo, 0600), 0);
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		int fd = open(fifo, O_RDONLY);
		usleep(300 * 1000);  /* the writer fills the pipe meanwhile */
		char buf[4096];
		long total = 0;
		ssize_t n;
		while ((n = read(fd, buf, sizeof buf)) > 0) {
			total += n;
			usleep(100);
		}
		FILE *f = fopen(count, "w");
		fprintf(f, "%ld\n", total);
		fclose(f);
		_exit(0);
	}
	struct uf_outfile o;
	struct uf_err err = { 0 };
	assert_int_equal(uf_outfile_open(&o, fifo, &err), 0);
	static char block[1 << 16];
	memset(block, 'x', sizeof block);
	for (int i = 0; i < 16; i++)  /* 1 MiB: 16 times the pipe's buffer */
		assert_int_equal(fwrite(block, 1, sizeof block, o.fp), sizeof block);
	assert_int_equal(uf_outfile_commit(&o, &err), 0);
	int st;
	assert_int_equal(waitpid(pid, &st, 0), pid);
	char got[32];
	read_all(count, got, sizeof got);
	assert_string_equal(got, "1048576\n");
}

/* uf_fmt_fixed is printf's %.*f, and never more than its 32 bytes: a
 * value whose fixed form is longer comes out in exponent form (fuzz-svg
 * found a 48-character change written as 48 bytes of a 32-byte buffer). */
static void fmt_fixed_bounded(void **state)
{
	(void)state;
	char buf[32];
	size_t n = uf_fmt_fixed(buf, 27.2727, 2);
	assert_int_equal(n, 5);
	assert_memory_equal(buf, "27.27", 5);
	n = uf_fmt_fixed(buf, 1e20, 2); /* past the integer path, still fits */
	assert_int_equal(n, strlen("100000000000000000000.00"));
	assert_memory_equal(buf, "100000000000000000000.00", n);
	volatile double huge = -4.6e45; /* opaque: a constant lets gcc see the fallback's cut */
	n = uf_fmt_fixed(buf, huge, 2);
	assert_true(n < sizeof buf);
	assert_int_equal(n, strlen("-4.60e+45"));
	assert_memory_equal(buf, "-4.60e+45", n);
}

/* uf_round_even is libm's nearbyint (the default rounding mode): ties
 * to even on both sides of 0, the sign of a zero result kept, values past
 * 2^52 and inf/NaN unchanged, and pseudo-random values of every scale,
 * with their neighbours one ulp away. */
static void round_even_matches_nearbyint(void **state)
{
	(void)state;
	static const double fixed[] = { 0.0, -0.0, 0.5, 1.5, 2.5, -0.5, -1.5, -2.5, 0.49999999999999994,
					0.5000000000000001, -0.4, 4503599627370495.5, 4503599627370496.0,
					9007199254740993.0, 1e300, -1e300, 5e-324, INFINITY, -INFINITY };
	for (size_t i = 0; i < sizeof fixed / sizeof fixed[0]; i++) {
		double want = nearbyint(fixed[i]), got = uf_round_even(fixed[i]);
		assert_true(got == want);
		assert_int_equal(!!signbit(got), !!signbit(want));
	}
	assert_true(isnan(uf_round_even(NAN)));
	uint64_t r = 88172645463325252ull;
	for (int i = 0; i < 200000; i++) {
		r ^= r << 13, r ^= r >> 7, r ^= r << 17;
		double v = ldexp((double)(r >> 11) / 0x1p53, (int)(r % 70) - 10) * ((r >> 3) & 1 ? -1 : 1);
		double vs[3] = { v, nextafter(v, INFINITY), nextafter(v, -INFINITY) };
		for (int k = 0; k < 3; k++) {
			double want = nearbyint(vs[k]), got = uf_round_even(vs[k]);
			assert_true(got == want);
			assert_int_equal(!!signbit(got), !!signbit(want));
		}
		double tie = floor(v) + 0.5; /* an exact tie of the same scale */
		assert_true(uf_round_even(tie) == nearbyint(tie));
	}
}

/* uf_dec_digits and uf_fmt_u64 against printf's %llu: around every power
 * of two and of ten, and pseudo-random values of every bit length. */
static void fmt_u64_matches_printf(void **state)
{
	(void)state;
	uint64_t vals[400], r = 7;
	size_t n = 0;
	for (int k = 0; k < 64; k++) {
		uint64_t p = (uint64_t)1 << k;
		vals[n++] = p - 1;
		vals[n++] = p;
		vals[n++] = p + 1;
	}
	for (uint64_t p = 1, k = 0; k < 20; k++, p *= 10) {
		vals[n++] = p - 1;
		vals[n++] = p;
		vals[n++] = p + 1;
	}
	vals[n++] = UINT64_MAX;
	while (n < sizeof vals / sizeof vals[0]) {
		r = r * 6364136223846793005ull + 1442695040888963407ull;
		vals[n++] = r >> (r % 64);
	}
	for (size_t i = 0; i < n; i++) {
		char want[32], got[32];
		int len = snprintf(want, sizeof want, "%llu", (unsigned long long)vals[i]);
		assert_int_equal(uf_dec_digits(vals[i]), len);
		assert_int_equal(uf_fmt_u64(got, vals[i]), len);
		assert_memory_equal(got, want, (size_t)len);
	}
}

/* uf_fmt_fixed is printf's %.*f and uf_fixed_value strtod of it, for 0-3
 * decimals: values of every magnitude, both signs, near and at ties
 * (x.5 in binary and in decimal), zeros, and past the integer path. */
static void fmt_fixed_matches_printf(void **state)
{
	(void)state;
	uint64_t r = 99;
	for (int i = 0; i < 200000; i++) {
		r = r * 6364136223846793005ull + 1442695040888963407ull;
		double v;
		switch (i % 5) {
		case 0: v = (double)(r >> 11) / (double)(1ull << 53) * pow(10, (double)(r % 19) - 3); break;
		case 1: v = ((double)(r >> 40) + 0.5) / pow(10, (double)(r % 4)); break; /* decimal ties */
		case 2: v = (double)(r >> 44) / 8.0; break;                              /* binary ties */
		case 3: v = (double)(r >> 40) / 1000.0 + ((double)(r % 7) - 3) * 1e-9; break;
		default: v = (double)(r >> 12); break; /* up to 2^52, past 9e15 / 10^d */
		}
		if (r & (1ull << 20))
			v = -v;
		for (int d = 0; d <= 3; d++) {
			char want[512], got[64];
			int len = snprintf(want, sizeof want, "%.*f", d, v);
			if (len >= 32)
				continue; /* the exponent form: fmt_fixed_bounded */
			assert_int_equal(uf_fmt_fixed(got, v, d), len);
			assert_memory_equal(got, want, (size_t)len);
			double x = uf_fixed_value(v, d), y = strtod(want, NULL);
			assert_memory_equal(&x, &y, sizeof x); /* the same double, sign of zero too */
		}
	}
	static const double edge[] = { 0.0, -0.0, 0.05, -0.05, 0.5, 1.5, 2.5, -2.5, 0.125, 1e15, 9e15, 1e300, -1e-300 };
	for (size_t i = 0; i < sizeof edge / sizeof edge[0]; i++)
		for (int d = 0; d <= 3; d++) {
			char want[512], got[64];
			int len = snprintf(want, sizeof want, "%.*f", d, edge[i]);
			if (len >= 32)
				continue;
			assert_int_equal(uf_fmt_fixed(got, edge[i], d), len);
			assert_memory_equal(got, want, (size_t)len);
			double x = uf_fixed_value(edge[i], d), y = strtod(want, NULL);
			assert_memory_equal(&x, &y, sizeof x);
		}
}

/* uf_tenths + uf_fmt_tenths print what printf("%.1f") prints, and the
 * difference of two values' tenths is printf's %.1f of the difference
 * of the values as printed (render/frames.c's widths); a tie, a
 * negative, huge or NaN value is left to uf_fmt_fixed. */
static void fmt_tenths_matches_printf(void **state)
{
	(void)state;
	uint64_t r = 7;
	for (int i = 0; i < 200000; i++) {
		r = r * 6364136223846793005ull + 1442695040888963407ull;
		double v = i % 3 == 0 ? (double)(r >> 40) / 20.0 /* ties */
			   : i % 3 == 1 ? (double)(r >> 11) / (double)(1ull << 53) * pow(10, (double)(r % 12))
					: 10.0 + (double)(r % 1000000) * (1180.0 / 1315.0) / 7.0;
		uint64_t t, t2;
		char want[64], got[64];
		if (!uf_tenths(v, &t)) {
			double frac = v * 10 - floor(v * 10);
			assert_true(fabs(frac - 0.5) < 1e-6 || v * 10 >= 9e15);
			continue;
		}
		int len = snprintf(want, sizeof want, "%.1f", v);
		assert_int_equal(uf_fmt_tenths(got, t), len);
		assert_memory_equal(got, want, (size_t)len);
		double w = v + (double)(r % 9973) * 0.37;
		if (!uf_tenths(w, &t2))
			continue;
		len = snprintf(want, sizeof want, "%.1f", uf_fixed_value(w, 1) - uf_fixed_value(v, 1));
		assert_int_equal(uf_fmt_tenths(got, t2 - t), len);
		assert_memory_equal(got, want, (size_t)len);
	}
	uint64_t t;
	assert_false(uf_tenths(-0.5, &t));
	assert_false(uf_tenths(NAN, &t));
	assert_false(uf_tenths(1e300, &t));
	assert_false(uf_tenths(0.25, &t)); /* 2.5 tenths: a tie */
	assert_true(uf_tenths(0.0, &t) && t == 0);
}

/* util/memfile: the bytes of many writes of every size, in order, with
 * ftell counting them, whether the reserve was too small (growth) or
 * more than enough; the buffer is the caller's and NUL-ended. */
static void memfile_keeps_every_byte(void **state)
{
	(void)state;
	size_t total = 3u << 20;
	char *want = malloc(total), *chunk = malloc(1u << 20);
	assert_non_null(want);
	assert_non_null(chunk);
	for (size_t reserve = 0; reserve <= (8u << 20); reserve += 8u << 20) {
		struct uf_memfile m;
		FILE *f = uf_memfile_open(&m, reserve);
		assert_non_null(f);
		size_t at = 0, step = 1;
		while (at < total) {
			size_t n = step < total - at ? step : total - at;
			for (size_t i = 0; i < n; i++)
				chunk[i] = want[at + i] = (char)('a' + (at + i) % 23);
			if (n == 1)
				assert_int_equal(fputc(chunk[0], f), chunk[0]);
			else
				assert_int_equal(fwrite(chunk, 1, n, f), n);
			at += n;
			assert_int_equal(ftell(f), (long)at);
			step = step * 3 + 1 < (1u << 20) ? step * 3 + 1 : 1;
		}
		assert_int_equal(fclose(f), 0);
		assert_int_equal(m.len, total);
		assert_memory_equal(m.buf, want, total);
		assert_int_equal(m.buf[total], 0);
		free(m.buf);
	}
	free(chunk);
	free(want);
}

/* RFC 4648's test vectors, line breaks, whitespace skipped as atob()
 * skips it, and every malformed text refused. */
static void base64_round_trip_and_refusals(void **state)
{
	(void)state;
	static const char *plain[] = { "", "f", "fo", "foo", "foob", "fooba", "foobar" };
	static const char *coded[] = { "", "Zg==", "Zm8=", "Zm9v", "Zm9vYg==", "Zm9vYmE=", "Zm9vYmFy" };
	char out[64];
	uint8_t back[64];
	for (size_t i = 0; i < 7; i++) {
		size_t n = strlen(plain[i]);
		assert_int_equal(uf_base64_encoded_len(n, 0), strlen(coded[i]));
		assert_int_equal(uf_base64_encode((const uint8_t *)plain[i], n, out, 0), strlen(coded[i]));
		assert_memory_equal(out, coded[i], strlen(coded[i]));
		assert_int_equal(uf_base64_decode(coded[i], strlen(coded[i]), back), (long long)n);
		assert_memory_equal(back, plain[i], n);
	}
	/* lines of 4: a newline between groups, none at the end */
	size_t n = uf_base64_encode((const uint8_t *)"foobar", 6, out, 4);
	assert_int_equal(n, uf_base64_encoded_len(6, 4));
	assert_memory_equal(out, "Zm9v\nYmFy", n);
	const char *spaced = " Zm9v\r\n\tYmFy\n";
	assert_int_equal(uf_base64_decode(spaced, strlen(spaced), back), 6);
	assert_memory_equal(back, "foobar", 6);
	static const char *bad[] = { "Zm9", "Zm9v!", "Z===", "Zg=a", "Zg==Zg==", "Zm9<", "Zg=", "=Zg=" };
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
		assert_int_equal(uf_base64_decode(bad[i], strlen(bad[i]), back), -1);
}

/* ---- safe-open (issue 28 item 1) ---------------------------------------- */

/* A temp directory holding a regular ELF-less file "reg", a FIFO "fifo",
 * and symlinks "to-fifo" -> fifo, "to-null" -> /dev/null, "escape" ->
 * /etc/passwd (absolute: outside the directory once it is a root). */
static void safe_open_tree(char *sdir)
{
	assert_non_null(mkdtemp(sdir));
	char p[256], q[256];
	snprintf(p, sizeof p, "%s/reg", sdir);
	FILE *f = fopen(p, "w");
	assert_non_null(f);
	fputs("data", f);
	fclose(f);
	snprintf(p, sizeof p, "%s/fifo", sdir);
	assert_int_equal(mkfifo(p, 0600), 0);
	snprintf(q, sizeof q, "%s/to-fifo", sdir);
	assert_int_equal(symlink(p, q), 0);
	snprintf(q, sizeof q, "%s/to-null", sdir);
	assert_int_equal(symlink("/dev/null", q), 0);
	snprintf(q, sizeof q, "%s/escape", sdir);
	assert_int_equal(symlink("/etc/passwd", q), 0);
}

static void safe_open_tree_remove(const char *sdir)
{
	const char *names[] = { "reg", "fifo", "to-fifo", "to-null", "escape" };
	char p[256];
	for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
		snprintf(p, sizeof p, "%s/%s", sdir, names[i]);
		unlink(p);
	}
	rmdir(sdir);
}

/* Opens of the FIFO seen by inotify since the watch was set: an O_PATH
 * lookup raises none, a real open(2) one. */
static int fifo_opens(int in)
{
	char buf[4096] __attribute__((aligned(__alignof__(struct inotify_event))));
	int n = 0;
	ssize_t got;
	while ((got = read(in, buf, sizeof buf)) > 0)
		for (ssize_t off = 0; off < got;) {
			const struct inotify_event *ev = (const void *)(buf + off);
			n += (ev->mask & IN_OPEN) != 0;
			off += (ssize_t)(sizeof *ev + ev->len);
		}
	return n;
}

static void safe_open_regular_only(void **state)
{
	(void)state;
	char sdir[] = "/tmp/uf-safe-open.XXXXXX", p[256];
	const char *why = NULL;
	safe_open_tree(sdir);
	int in = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
	snprintf(p, sizeof p, "%s/fifo", sdir);
	assert_true(in >= 0 && inotify_add_watch(in, p, IN_OPEN) >= 0);

	snprintf(p, sizeof p, "%s/reg", sdir);
	int fd = uf_safe_open(p, &why);
	char buf[8] = "";
	assert_true(fd >= 0);
	assert_int_equal(read(fd, buf, sizeof buf), 4);
	assert_true(fcntl(fd, F_GETFD) & FD_CLOEXEC);
	close(fd);

	snprintf(p, sizeof p, "%s/to-fifo", sdir);   /* a FIFO behind a link */
	assert_int_equal(uf_safe_open(p, &why), -1);
	assert_string_equal(why, "not a regular file");
	assert_int_equal(uf_safe_open_in_root(sdir, "/fifo", &why), -1);
	assert_int_equal(errno, EINVAL);
	assert_int_equal(uf_safe_open("/dev/null", &why), -1);   /* a device */
	assert_string_equal(why, "not a regular file");
	snprintf(p, sizeof p, "%s/to-null", sdir);
	assert_int_equal(uf_safe_open(p, &why), -1);
	assert_int_equal(uf_safe_open(sdir, &why), -1);
	assert_string_equal(why, "is a directory");
	assert_int_equal(uf_safe_open("/nonexistent/uf", &why), -1);
	assert_int_equal(errno, ENOENT);
	assert_int_equal(fifo_opens(in), 0);   /* looked at, never opened */
	close(in);
	safe_open_tree_remove(sdir);
}

static void safe_open_confined_to_root(void **state)
{
	(void)state;
	char sdir[] = "/tmp/uf-safe-open.XXXXXX";
	const char *why = NULL;
	safe_open_tree(sdir);
	int fd = uf_safe_open_in_root(sdir, "/reg", &why);   /* absolute: inside sdir */
	assert_true(fd >= 0);
	close(fd);
	fd = uf_safe_open_in_root(sdir, "../../../../reg", &why);   /* ".." stops at the root */
	assert_true(fd >= 0);
	close(fd);
	/* a link to /etc/passwd resolves to DIR/etc/passwd: absent */
	assert_int_equal(uf_safe_open_in_root(sdir, "/escape", &why), -1);
	assert_int_equal(errno, ENOENT);
	/* a process's mapping gone: the path inside its root (ours here) */
	char p[256];
	snprintf(p, sizeof p, "%s/to-fifo", sdir);
	assert_int_equal(uf_safe_open_mapped(getpid(), 0x1000, 0x2000, p, &why), -1);
	assert_string_equal(why, "not a regular file");
	snprintf(p, sizeof p, "%s/reg", sdir);
	fd = uf_safe_open_mapped(getpid(), 0x1000, 0x2000, p, &why);
	assert_true(fd >= 0);
	close(fd);
	safe_open_tree_remove(sdir);
}

/* uf_strerror_r / UF_STRERROR: libc's text with a lowercase first letter,
 * the rest unchanged, cut to the buffer and NUL-ended; two in one call
 * expression get two buffers (no hidden shared one). */
static void strerror_lowercase_own_buffer(void **state)
{
	(void)state;
	assert_string_equal(UF_STRERROR(ENOENT), "no such file or directory");
	assert_string_equal(UF_STRERROR(EACCES), "permission denied");
	char both[128];
	snprintf(both, sizeof both, "%s|%s", UF_STRERROR(ENOENT), UF_STRERROR(EPERM));
	assert_string_equal(both, "no such file or directory|operation not permitted");
	char small[5];
	assert_string_equal(uf_strerror_r(ENOENT, small, sizeof small), "no s");
	assert_string_equal(UF_ERRTEXT("Name or service not known"), "name or service not known");
	assert_string_equal(UF_ERRTEXT(NULL), "unknown error");
}

/* The encoder as it was first written, a byte loop with a test per
 * character: the oracle for the quad-at-a-time one. */
static size_t base64_ref(const uint8_t *in, size_t n, char *out, size_t line)
{
	static const char A[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
	size_t o = 0, col = 0;
	for (size_t i = 0; i < n; i += 3) {
		uint32_t v = (uint32_t)in[i] << 16 | (i + 1 < n ? (uint32_t)in[i + 1] << 8 : 0) |
			     (i + 2 < n ? in[i + 2] : 0);
		char q[4] = { A[v >> 18], A[(v >> 12) & 63], i + 1 < n ? A[(v >> 6) & 63] : '=',
			      i + 2 < n ? A[v & 63] : '=' };
		for (int k = 0; k < 4; k++) {
			if (line && col == line) {
				out[o++] = '\n';
				col = 0;
			}
			out[o++] = q[k];
			col++;
		}
	}
	return o;
}

/* Every length 0..300 and line width 0..80 (76, the block's, among them;
 * widths that are not a multiple of 4 split quads): the same bytes as the
 * reference loop, and decoded back to the input. */
static void base64_encode_matches_reference(void **state)
{
	(void)state;
	uint8_t in[300], back[300];
	char got[1024], want[1024]; /* 400 characters, a newline after each at width 1 */
	for (size_t i = 0; i < sizeof in; i++)
		in[i] = (uint8_t)(i * 151 + 7);
	for (size_t line = 0; line <= 80; line++)
		for (size_t n = 0; n <= sizeof in; n++) {
			size_t a = uf_base64_encode(in, n, got, line), b = base64_ref(in, n, want, line);
			assert_int_equal(a, b);
			assert_int_equal(a, uf_base64_encoded_len(n, line));
			assert_memory_equal(got, want, a);
			assert_int_equal(uf_base64_decode(got, a, back), (long long)n);
			assert_memory_equal(back, in, n);
		}
	/* the embedded block's width (4096: whole lines of 6-byte groups,
	 * util/base64.c encode_lines) and others that are multiples of 8,
	 * over lengths around each line's end and several lines */
	enum { BIG = 20000 };
	uint8_t *bin = malloc(BIG), *bback = malloc(BIG);
	char *bgot = malloc(2 * BIG), *bwant = malloc(2 * BIG);
	assert_non_null(bin);
	assert_non_null(bback);
	assert_non_null(bgot);
	assert_non_null(bwant);
	for (size_t i = 0; i < BIG; i++)
		bin[i] = (uint8_t)(i * 2654435761u >> 13);
	static const size_t widths[] = { 0, 8, 24, 4096, 4104 };
	for (size_t w = 0; w < sizeof widths / sizeof widths[0]; w++)
		for (size_t n = 0; n <= BIG; n++) {
			if (n >= 64 && n % 3072 >= 8 && n % 3072 <= 3064 && n % 997 && n != BIG)
				continue;
			size_t a = uf_base64_encode(bin, n, bgot, widths[w]), b = base64_ref(bin, n, bwant, widths[w]);
			assert_int_equal(a, b);
			assert_int_equal(a, uf_base64_encoded_len(n, widths[w]));
			assert_memory_equal(bgot, bwant, a);
			assert_int_equal(uf_base64_decode(bgot, a, bback), (long long)n);
			assert_memory_equal(bback, bin, n);
		}
	free(bin);
	free(bback);
	free(bgot);
	free(bwant);
}

/* ---- map (util/map.h) ---- */

struct map_keys {
	const uint64_t *key;     /* the caller's keys, by id */
	uint64_t want;           /* the key looked up */
	int collide;             /* every key hashes alike: one long probe run */
};

static uint64_t map_hash_of(const struct map_keys *k, uint64_t key)
{
	return k->collide ? 7 : uf_hash_u64_keyed(key);
}

static int map_same(const void *ctx, uint32_t id)
{
	const struct map_keys *k = ctx;
	return k->key[id] == k->want;
}

static uint64_t map_rehash(const void *ctx, uint32_t id)
{
	const struct map_keys *k = ctx;
	return map_hash_of(k, k->key[id]);
}

/* Inserts n keys (find, grow at 5/8, put), then finds each at its id and
 * misses keys never put; n ids stored in a power-of-two table. */
static void map_fill_and_find(int n, int collide)
{
	uint64_t *key = malloc((size_t)n * sizeof *key);
	assert_non_null(key);
	struct map_keys k = { key, 0, collide };
	struct uf_map m;
	assert_int_equal(uf_map_init(&m, 1), 0);
	assert_int_equal(m.mask + 1, 16);
	for (int i = 0; i < n; i++) {
		key[i] = (uint64_t)i * 0x9e3779b97f4a7c15ull;
		k.want = key[i];
		uint32_t slot;
		assert_int_equal(uf_map_find(&m, map_hash_of(&k, key[i]), map_same, &k, &slot), UF_MAP_NONE);
		if (uf_map_over(&m, 1, 5, 8)) {
			assert_int_equal(uf_map_grow(&m, map_rehash, &k), 0);
			uf_map_insert(&m, map_hash_of(&k, key[i]), (uint32_t)i);
		} else {
			uf_map_put(&m, slot, (uint32_t)i);
		}
	}
	assert_int_equal(m.n, n);
	assert_int_equal((m.mask + 1) & m.mask, 0);
	assert_true((uint64_t)m.n * 8 <= ((uint64_t)m.mask + 1) * 5);
	for (int i = 0; i < n; i++) {
		k.want = key[i];
		assert_int_equal(uf_map_find(&m, map_hash_of(&k, key[i]), map_same, &k, NULL), i);
	}
	for (int i = 0; i < 100; i++) {
		k.want = (uint64_t)(n + i) * 0x9e3779b97f4a7c15ull;
		assert_int_equal(uf_map_find(&m, map_hash_of(&k, k.want), map_same, &k, NULL), UF_MAP_NONE);
	}
	uf_map_release(&m);
	assert_null(m.slot);
	free(key);
}

static void map_finds_each_id_and_misses_others(void **state)
{
	(void)state;
	map_fill_and_find(100000, 0);
	map_fill_and_find(600, 1); /* all in one run: probing alone keeps it right */
}

/* ---- split2 (util/split2.h) ---- */

struct split_part {
	const int *in;
	size_t lo, hi;
	long sum;
	pthread_t ran_on;
};

static void *split_sum(void *arg)
{
	struct split_part *p = arg;
	for (size_t i = p->lo; i < p->hi; i++)
		p->sum += p->in[i];
	p->ran_on = pthread_self();
	return NULL;
}

/* Both parts always run; the second on a thread of its own only when
 * the caller's size test says the work pays; a 646 KB input does not. */
static void split2_runs_both_parts(void **state)
{
	(void)state;
	static int in[1000];
	for (int i = 0; i < 1000; i++)
		in[i] = i;
	struct split_part a = { in, 0, 500, 0, 0 }, b = { in, 500, 1000, 0, 0 };
	assert_int_equal(uf_split2(split_sum, &a, &b, 0), 0);
	assert_int_equal(a.sum + b.sum, 999 * 1000 / 2);
	assert_true(pthread_equal(a.ran_on, pthread_self()) && pthread_equal(b.ran_on, pthread_self()));
	struct split_part c = { in, 0, 500, 0, 0 }, d = { in, 500, 1000, 0, 0 };
	assert_int_equal(uf_split2(split_sum, &c, &d, 1), 1);
	assert_int_equal(c.sum, 499 * 500 / 2);
	assert_int_equal(d.sum, 999 * 1000 / 2 - 499 * 500 / 2);
	assert_true(pthread_equal(c.ran_on, pthread_self()));
	assert_false(pthread_equal(d.ran_on, pthread_self()));
	assert_false(uf_split2_worth(646463, UF_SPLIT2_MIN_BYTES)); /* FlameGraph's perf capture */
	assert_true(uf_split2_worth(1u << 20, UF_SPLIT2_MIN_BYTES));
	assert_false(uf_split2_worth(UF_SPLIT2_MIN_ITEMS - 1, UF_SPLIT2_MIN_ITEMS));
}

/* ---- thread (util/thread.h) ---- */

struct thread_probe {
	cpu_set_t mask; /* the thread's own affinity, read inside it */
	int got;
};

static void *thread_probe(void *arg)
{
	struct thread_probe *p = arg;
	p->got = sched_getaffinity(0, sizeof p->mask, &p->mask) == 0;
	return p;
}

/* Starts a thread with the calling thread's affinity `home`; checks where
 * it started and that it runs with home as its own. */
static void thread_start_within(const cpu_set_t *home)
{
	struct uf_thread t;
	struct thread_probe p = { .got = 0 };
	assert_int_equal(uf_thread_start(&t, thread_probe, &p), 0);
	assert_ptr_equal(uf_thread_join(&t), &p);
	assert_true(p.got);
	assert_true(CPU_EQUAL(&p.mask, home)); /* its creator's CPUs, all of them */
	assert_true(t.first_cpu >= 0 && CPU_ISSET(t.first_cpu, home));
	if (CPU_COUNT(home) == 1) {
		assert_false(t.steered); /* nowhere else to go */
		assert_int_equal(t.from_cpu, -1);
	} else {
		assert_true(t.steered);
		assert_true(t.from_cpu >= 0 && CPU_ISSET(t.from_cpu, home));
		assert_int_not_equal(t.first_cpu, t.from_cpu); /* placed elsewhere */
	}
}

/* Invariant 1 of util/thread.h: with two CPUs or more the thread starts
 * on another than its creator's and then has the creator's set back;
 * with one, it starts plainly there. */
static void thread_starts_off_creator_cpu(void **state)
{
	(void)state;
	cpu_set_t all, one;
	assert_int_equal(sched_getaffinity(0, sizeof all, &all), 0);
	for (int i = 0; i < 20; i++)
		thread_start_within(&all);
	int cpu = sched_getcpu();
	assert_true(cpu >= 0);
	CPU_ZERO(&one);
	CPU_SET(cpu, &one);
	assert_int_equal(sched_setaffinity(0, sizeof one, &one), 0);
	thread_start_within(&one);
	assert_int_equal(sched_setaffinity(0, sizeof all, &all), 0);
}

/* What a part saw of the affinities: its own, and its attempts to start
 * a part and a plain thread of its own.  It returns once `go` is set. */
struct part_probe {
	cpu_set_t mask;
	int got, nested_part, nested_plain, go;
	cpu_set_t plain_mask; /* the plain thread's own affinity */
};

static void *part_probe(void *arg)
{
	struct part_probe *p = arg;
	p->got = sched_getaffinity(0, sizeof p->mask, &p->mask) == 0;
	struct uf_thread t;
	struct thread_probe q = { .got = 0 };
	p->nested_part = uf_thread_start_part(&t, thread_probe, &q);
	if (p->nested_part == 0)
		uf_thread_join(&t);
	struct thread_probe r = { .got = 0 };
	if ((p->nested_plain = uf_thread_start(&t, thread_probe, &r)) == 0) {
		uf_thread_join(&t);
		p->plain_mask = r.mask;
	}
	while (!__atomic_load_n(&p->go, __ATOMIC_ACQUIRE))
		sched_yield();
	return p;
}

static void assert_own_mask(const cpu_set_t *want)
{
	cpu_set_t m;
	assert_int_equal(sched_getaffinity(0, sizeof m, &m), 0);
	assert_true(CPU_EQUAL(&m, want));
}

/* Invariant 4 of util/thread.h: on two CPUs a part keeps to the one its
 * creator is not on, the creator keeps to its own until it has joined
 * every part and then has both back; while a part runs neither starts
 * another (EAGAIN), once it has returned the creator may start the next
 * before joining it; a thread the part starts plainly stays on the
 * part's CPU. */
static void thread_part_pairs_on_two_cpus(void **state)
{
	(void)state;
	cpu_set_t all, two;
	assert_int_equal(sched_getaffinity(0, sizeof all, &all), 0);
	if (CPU_COUNT(&all) < 2)
		skip();
	CPU_ZERO(&two);
	for (int c = 0, n = 0; c < CPU_SETSIZE && n < 2; c++)
		if (CPU_ISSET(c, &all)) {
			CPU_SET(c, &two);
			n++;
		}
	assert_int_equal(sched_setaffinity(0, sizeof two, &two), 0);
	for (int i = 0; i < 10; i++) {
		struct uf_thread t, u;
		struct part_probe p = { .got = 0 };
		struct thread_probe q = { .got = 0 };
		assert_int_equal(uf_thread_start_part(&t, part_probe, &p), 0);
		assert_true(t.paired && t.steered && t.pinned_creator);
		cpu_set_t here, other = two;
		CPU_ZERO(&here);
		CPU_SET(t.from_cpu, &here);
		CPU_CLR(t.from_cpu, &other);
		assert_own_mask(&here); /* the creator: its own CPU */
		assert_int_equal(uf_thread_start_part(&u, thread_probe, &q), EAGAIN);
		__atomic_store_n(&p.go, 1, __ATOMIC_RELEASE);
		/* once p has returned, its CPU takes the next part; p's return
		 * is waited for up to 10 s, not a count of yields (a vCPU the
		 * host leaves idle a while is not a failure) */
		int e = EAGAIN;
		struct timespec t0, tn;
		clock_gettime(CLOCK_MONOTONIC, &t0);
		do {
			if ((e = uf_thread_start_part(&u, thread_probe, &q)) == EAGAIN)
				sched_yield();
			clock_gettime(CLOCK_MONOTONIC, &tn);
		} while (e == EAGAIN && tn.tv_sec - t0.tv_sec < 10);
		assert_int_equal(e, 0);
		assert_true(u.paired && u.from_cpu == t.from_cpu);
		uf_thread_join(&u);
		assert_true(q.got && CPU_EQUAL(&q.mask, &other));
		assert_own_mask(&here); /* t is not joined yet */
		assert_ptr_equal(uf_thread_join(&t), &p);
		assert_own_mask(&two); /* both back after the last join */
		assert_true(p.got && CPU_EQUAL(&p.mask, &other)); /* the part: the other one */
		assert_int_not_equal(t.first_cpu, t.from_cpu);
		assert_int_equal(p.nested_part, EAGAIN);
		assert_int_equal(p.nested_plain, 0);
		assert_true(CPU_EQUAL(&p.plain_mask, &other)); /* stays on the part's CPU */
	}
	assert_int_equal(sched_setaffinity(0, sizeof all, &all), 0);
}

/* Keeps the calling thread to its first two CPUs; skips with fewer. */
static void keep_to_two_cpus(cpu_set_t *all, cpu_set_t *two)
{
	assert_int_equal(sched_getaffinity(0, sizeof *all, all), 0);
	if (CPU_COUNT(all) < 2)
		skip();
	CPU_ZERO(two);
	for (int c = 0, n = 0; c < CPU_SETSIZE && n < 2; c++)
		if (CPU_ISSET(c, all)) {
			CPU_SET(c, two);
			n++;
		}
	assert_int_equal(sched_setaffinity(0, sizeof *two, two), 0);
}

/* What a part saw of the thread it ran on. */
struct worker_probe {
	pid_t tid;
	sigset_t blocked;
	cpu_set_t mask;
	int go;
};

static void *worker_probe(void *arg)
{
	struct worker_probe *p = arg;
	p->tid = (pid_t)syscall(SYS_gettid);
	pthread_sigmask(SIG_BLOCK, NULL, &p->blocked);
	(void)sched_getaffinity(0, sizeof p->mask, &p->mask);
	while (!__atomic_load_n(&p->go, __ATOMIC_ACQUIRE))
		sched_yield();
	return p;
}

/* A plain thread that asks for a part while the worker is busy. */
static void *ask_for_part(void *arg)
{
	struct uf_thread *u = arg;
	static struct worker_probe q = { .go = 1 };
	if (uf_thread_start_part(u, worker_probe, &q) != 0)
		return NULL;
	return uf_thread_join(u);
}

/* util/thread.h invariant 5: on two CPUs every part after the first runs
 * on the same worker thread, on the CPU its creator is not on, with the
 * process's signals blocked but a fault's not; a part asked for while
 * the worker is busy (by another creator) gets a thread of its own; and
 * a child of fork() starts its parts afresh. */
static void thread_parts_share_one_worker(void **state)
{
	(void)state;
	cpu_set_t all, two;
	keep_to_two_cpus(&all, &two);
	pid_t first = 0;
	for (int i = 0; i < 5; i++) {
		struct uf_thread t;
		struct worker_probe p = { .go = 1 };
		assert_int_equal(uf_thread_start_part(&t, worker_probe, &p), 0);
		assert_ptr_equal(uf_thread_join(&t), &p);
		assert_true(t.pooled && t.paired && t.steered);
		cpu_set_t other = two;
		CPU_CLR(t.from_cpu, &other);
		assert_true(CPU_EQUAL(&p.mask, &other));
		assert_int_not_equal(p.tid, (pid_t)syscall(SYS_gettid));
		if (!first)
			first = p.tid;
		assert_int_equal(p.tid, first); /* the same thread each time */
		assert_true(sigismember(&p.blocked, SIGINT) && sigismember(&p.blocked, SIGTERM) &&
			    sigismember(&p.blocked, SIGCHLD));
		assert_false(sigismember(&p.blocked, SIGSEGV) || sigismember(&p.blocked, SIGBUS) ||
			     sigismember(&p.blocked, SIGABRT));
	}
	/* busy: this thread's part holds the worker; another creator's part
	 * starts a thread of its own */
	struct uf_thread t, u;
	struct worker_probe p = { .go = 0 };
	assert_int_equal(uf_thread_start_part(&t, worker_probe, &p), 0);
	assert_true(t.pooled);
	pthread_t other;
	assert_int_equal(pthread_create(&other, NULL, ask_for_part, &u), 0);
	void *got = NULL;
	assert_int_equal(pthread_join(other, &got), 0);
	assert_non_null(got);
	assert_false(u.pooled);
	__atomic_store_n(&p.go, 1, __ATOMIC_RELEASE);
	assert_ptr_equal(uf_thread_join(&t), &p);
	/* fork: the child has no worker; its parts still run, and return */
	pid_t child = fork();
	assert_true(child >= 0);
	if (child == 0) {
		alarm(10); /* a part that waits on a worker not copied would hang */
		struct worker_probe c = { .go = 1 };
		struct uf_thread ct;
		int ok = uf_thread_start_part(&ct, worker_probe, &c) == 0 && uf_thread_join(&ct) == &c &&
			 c.tid != first && c.tid != getpid();
		_exit(ok ? 0 : 1);
	}
	int st = 0;
	assert_int_equal(waitpid(child, &st, 0), child);
	assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	assert_int_equal(sched_setaffinity(0, sizeof all, &all), 0);
}

/* Invariant 4's other side: with one CPU, or three or more, a part
 * starts as uf_thread_start starts a thread and nothing is pinned. */
static void thread_part_is_plain_elsewhere(void **state)
{
	(void)state;
	cpu_set_t all, one;
	assert_int_equal(sched_getaffinity(0, sizeof all, &all), 0);
	int cpu = sched_getcpu();
	assert_true(cpu >= 0);
	CPU_ZERO(&one);
	CPU_SET(cpu, &one);
	assert_int_equal(sched_setaffinity(0, sizeof one, &one), 0);
	struct uf_thread t;
	struct thread_probe p = { .got = 0 };
	assert_int_equal(uf_thread_start_part(&t, thread_probe, &p), 0);
	uf_thread_join(&t);
	assert_false(t.paired || t.steered || t.pinned_creator);
	assert_true(p.got && CPU_EQUAL(&p.mask, &one));
	assert_int_equal(sched_setaffinity(0, sizeof all, &all), 0);
	if (CPU_COUNT(&all) >= 3) { /* not on this project's 2-CPU machines */
		assert_int_equal(uf_thread_start_part(&t, thread_probe, &p), 0);
		uf_thread_join(&t);
		assert_true(t.steered);
		assert_false(t.paired || t.pinned_creator);
		assert_true(CPU_EQUAL(&p.mask, &all));
	}
}

/* err.h invariant 3: out of memory gets UF_ENOMEM whatever class the
 * site passed (the words "out of memory" or libc's ENOMEM text at the
 * end of why); a cap an input exceeds stays the site's class; the first
 * error still wins. */
static void err_out_of_memory_class(void **state)
{
	(void)state;
	struct uf_err e = { 0 };
	uf_err_set(&e, UF_EINPUT, "x.folded", "out of memory");
	assert_int_equal(e.cls, UF_ENOMEM);
	uf_err_clear(&e);
	uf_err_set(&e, UF_ETARGET, "pid 1", "%s", "fold: out of memory");
	assert_int_equal(e.cls, UF_ENOMEM);
	uf_err_clear(&e);
	uf_err_set(&e, UF_EINPUT, "x.svg", "cannot map: %s", UF_STRERROR(ENOMEM));
	assert_int_equal(e.cls, UF_ENOMEM);
	uf_err_clear(&e);
	uf_err_set(&e, UF_EINPUT, "x.elf", "too many symbols");
	assert_int_equal(e.cls, UF_EINPUT);
	uf_err_clear(&e);
	uf_err_set(&e, UF_EINPUT, "x", "out of memory here? no: a name");
	assert_int_equal(e.cls, UF_EINPUT);
	uf_err_clear(&e);
	uf_err_oom(&e, "render");
	assert_int_equal(e.cls, UF_ENOMEM);
	assert_string_equal(e.what, "render");
	assert_string_equal(e.why, "out of memory");
	uf_err_set(&e, UF_EINPUT, "later", "bad");
	assert_int_equal(e.cls, UF_ENOMEM);
	assert_string_equal(e.what, "render");
}

/* VmFlags of the mapping holding address a in /proc/self/smaps; 1 when
 * found (flags copied), 0 otherwise. */
static int vm_flags_of(uintptr_t a, char *flags, size_t size)
{
	FILE *f = fopen("/proc/self/smaps", "r");
	char line[512];
	int in = 0, found = 0;
	if (!f)
		return 0;
	while (!found && fgets(line, sizeof line, f)) {
		unsigned long lo, hi;
		if (sscanf(line, "%lx-%lx ", &lo, &hi) == 2 && strchr(line, '-') < strchr(line, ' '))
			in = a >= lo && a < hi;
		else if (in && !strncmp(line, "VmFlags:", 8)) {
			size_t k = strlen(line + 8);
			k = k < size ? k : size - 1;
			memcpy(flags, line + 8, k);
			flags[k] = 0;
			found = 1;
		}
	}
	fclose(f);
	return found;
}

/* util/bigalloc.h: uf_thp_hint marks a big block's 2 MiB-aligned part
 * for huge pages (where the kernel has them) and leaves it usable; small
 * blocks and NULL are left alone; uf_calloc_written's memory is zero. */
static void bigalloc_thp_hint_and_written_zeros(void **state)
{
	(void)state;
	uf_thp_hint(NULL, 8u << 20);
	char small[64] = { 0 };
	uf_thp_hint(small, sizeof small);
	size_t n = 8u << 20;
	unsigned char *p = malloc(n);
	assert_non_null(p);
	uf_thp_hint(p, n);
	memset(p, 7, n);
	assert_int_equal(p[n - 1], 7);
	char mode[128] = "";
	FILE *f = fopen("/sys/kernel/mm/transparent_hugepage/enabled", "r");
	if (f) {
		if (!fgets(mode, sizeof mode, f))
			mode[0] = 0;
		fclose(f);
	}
	if (mode[0] && !strstr(mode, "[never]")) { /* the kernel has THP: the hint took */
		char flags[256];
		uintptr_t a = ((uintptr_t)p + (2u << 20) - 1) & ~(uintptr_t)((2u << 20) - 1);
		assert_true(vm_flags_of(a, flags, sizeof flags));
		assert_non_null(strstr(flags, " hg"));
	}
	free(p);
	unsigned char *z = uf_calloc_written(1u << 20);
	assert_non_null(z);
	for (size_t i = 0; i < (1u << 20); i += 4093)
		assert_int_equal(z[i], 0);
	assert_int_equal(z[(1u << 20) - 1], 0);
	free(z);
}

int main(void)
{
	signal(SIGPIPE, SIG_IGN);
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(arena_disjoint_across_blocks),
		cmocka_unit_test(arena_strndup),
		cmocka_unit_test(bigalloc_thp_hint_and_written_zeros),
		cmocka_unit_test(outfile_fd_alias),
		cmocka_unit_test(outfile_replaces_file),
		cmocka_unit_test(outfile_fifo_slow_reader),
		cmocka_unit_test(fmt_fixed_bounded),
		cmocka_unit_test(round_even_matches_nearbyint),
		cmocka_unit_test(fmt_u64_matches_printf),
		cmocka_unit_test(fmt_fixed_matches_printf),
		cmocka_unit_test(fmt_tenths_matches_printf),
		cmocka_unit_test(memfile_keeps_every_byte),
		cmocka_unit_test(base64_round_trip_and_refusals),
		cmocka_unit_test(base64_encode_matches_reference),
		cmocka_unit_test(safe_open_regular_only),
		cmocka_unit_test(safe_open_confined_to_root),
		cmocka_unit_test(strerror_lowercase_own_buffer),
		cmocka_unit_test(map_finds_each_id_and_misses_others),
		cmocka_unit_test(split2_runs_both_parts),
		cmocka_unit_test(thread_starts_off_creator_cpu),
		cmocka_unit_test(thread_part_pairs_on_two_cpus),
		cmocka_unit_test(thread_part_is_plain_elsewhere),
		cmocka_unit_test(thread_parts_share_one_worker),
		cmocka_unit_test(err_out_of_memory_class),
	};
	return cmocka_run_group_tests(tests, setup_dir, remove_dir);
}
