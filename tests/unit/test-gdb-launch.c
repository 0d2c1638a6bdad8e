/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * tests/unit/test-gdb-launch.c — launch mode's checks and failure paths
 * (gdb-if/launch.c): which commands are refused before anything starts,
 * and that a QEMU that cannot run leaves no process, socket or directory.
 * The real QEMU runs are in tests/gdb/t-launch.sh.  This binary is also
 * its own fake QEMU (fake_qemu): started as "ARGV0 -S -gdb CHARDEV MODE",
 * it binds the socket path of CHARDEV as MODE says and waits.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <cmocka.h>

#include "gdb-if/gdb.h"

static int check(char **argv, struct uf_err *err)
{
	memset(err, 0, sizeof *err);
	return gdb_launch_check(argv, err);
}

static void gdb_launch_accepts_system_emulators(void **state)
{
	struct uf_err err;
	char *a[] = { "qemu-system-x86_64", "-kernel", "k.elf", "-append", "-s", NULL };
	char *b[] = { "/usr/bin/qemu-system-aarch64", "-M", "virt", NULL };
	assert_int_equal(check(a, &err), 0);   /* -append's text is not an option */
	assert_int_equal(check(b, &err), 0);
}

static void gdb_launch_refuses_other_programs(void **state)
{
	struct uf_err err;
	char *user[] = { "qemu-x86_64", "/bin/true", NULL };
	char *kvm[] = { "kvm", NULL };
	char *none[] = { NULL };
	assert_true(check(user, &err) < 0);
	assert_int_equal(err.cls, UF_EUSAGE);
	assert_non_null(strstr(err.why, "'qemu-x86_64' is not a QEMU system emulator"));
	assert_true(check(kvm, &err) < 0);
	assert_true(check(none, &err) < 0);
	assert_int_equal(err.cls, UF_EUSAGE);
}

static void gdb_launch_refuses_own_gdbstub(void **state)
{
	const char *bad[] = { "-s", "--s", "-gdb", "--gdb", "-daemonize" };
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		struct uf_err err;
		char *argv[] = { "qemu-system-x86_64", "-m", "64", (char *)bad[i], "tcp::1", NULL };
		assert_true(check(argv, &err) < 0);
		assert_int_equal(err.cls, UF_EUSAGE);
		assert_non_null(strstr(err.why, bad[i]));
	}
}

static void gdb_launch_missing_binary_cleans_up(void **state)
{
	char dir[] = "/tmp/uf-launch-test.XXXXXX";
	assert_non_null(mkdtemp(dir));
	setenv("TMPDIR", dir, 1);
	struct gdb_launch l;
	struct uf_err err = { 0 };
	char *argv[] = { "qemu-system-uf-does-not-exist", NULL };
	assert_true(gdb_launch_start(&l, argv, 0, 2000, &err) < 0);
	assert_int_equal(err.cls, UF_ETARGET);
	assert_non_null(strstr(err.why, "cannot run it: no such file"));
	assert_true(l.exited);           /* reaped */
	assert_int_equal(rmdir(dir), 0);   /* empty: the private directory is gone */
	unsetenv("TMPDIR");
}

/* The fake QEMU: "abstract" binds "@PATH" (the abstract name another
 * user could take), "real" binds PATH itself; both listen, then wait. */
static int fake_qemu(const char *chardev, const char *mode)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	const char *path = chardev + 5;   /* "unix:PATH,server=on,wait=off" */
	size_t n = strcspn(path, ",");
	int abstract = !strcmp(mode, "abstract");
	if (strncmp(chardev, "unix:", 5) || n + 1 >= sizeof sa.sun_path)
		return 1;
	memcpy(sa.sun_path + abstract, path, n);
	int s = socket(AF_UNIX, SOCK_STREAM, 0);
	socklen_t len = (socklen_t)(offsetof(struct sockaddr_un, sun_path) + abstract + n);
	if (s < 0 || bind(s, (struct sockaddr *)&sa, len) || listen(s, 1))
		return 2;
	sleep(20);
	return 0;
}

/* Starts the fake QEMU in `mode`, waiting up to `ms` for its socket;
 * returns gdb_launch_start's result. */
static int launch_fake(const char *mode, int ms, struct gdb_launch *l, struct uf_err *err)
{
	char *argv[] = { "/proc/self/exe", (char *)mode, NULL };
	memset(err, 0, sizeof *err);
	return gdb_launch_start(l, argv, 0, ms, err);
}

/* Issue 28: an abstract socket named like ours ("@/tmp/.../gdb.sock",
 * which /proc/net/unix lists with the path after '@') is not our gdbstub:
 * the launch waits for the real one and times out, never connects early. */
static void gdb_launch_ignores_abstract_namesake(void **state)
{
	struct gdb_launch l;
	struct uf_err err;
	assert_int_equal(launch_fake("abstract", 700, &l, &err), -ETIMEDOUT);
	assert_int_equal(err.cls, UF_ETARGET);
	assert_non_null(strstr(err.why, "no gdbstub socket after 700 ms"));
	/* the real path is seen; the wait ends when the socket appears, so a
	 * generous limit costs nothing (this ASan binary starting again as
	 * the fake QEMU on a busy host must not read as a failure) */
	assert_int_equal(launch_fake("real", 10000, &l, &err), 0);
	assert_false(l.exited);
	gdb_launch_end(&l, 0, 100);
	gdb_launch_release(&l);
}

int main(int argc, char **argv)
{
	if (argc == 5 && !strcmp(argv[1], "-S") && !strcmp(argv[2], "-gdb"))
		return fake_qemu(argv[3], argv[4]);
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(gdb_launch_accepts_system_emulators),
		cmocka_unit_test(gdb_launch_refuses_other_programs),
		cmocka_unit_test(gdb_launch_refuses_own_gdbstub),
		cmocka_unit_test(gdb_launch_missing_binary_cleans_up),
		cmocka_unit_test(gdb_launch_ignores_abstract_namesake),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
