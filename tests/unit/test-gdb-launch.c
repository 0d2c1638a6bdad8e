/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * tests/unit/test-gdb-launch.c — launch mode's checks and failure paths
 * (gdb-if/launch.c): which commands are refused before anything starts,
 * and that a QEMU that cannot run leaves no process, socket or directory.
 * The real QEMU runs are in tests/gdb/t-launch.sh.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(gdb_launch_accepts_system_emulators),
		cmocka_unit_test(gdb_launch_refuses_other_programs),
		cmocka_unit_test(gdb_launch_refuses_own_gdbstub),
		cmocka_unit_test(gdb_launch_missing_binary_cleans_up),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
