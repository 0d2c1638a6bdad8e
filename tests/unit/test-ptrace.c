/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * tests/unit/test-ptrace.c — ptrace-if's thread table on a process that
 * creates and joins many short-lived threads (issue 20, "also noticed"):
 * exited threads leave the live table between samples, so per-sample
 * work follows the threads alive now, and their names stay available
 * for --per-thread output.
 */
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "ptrace-if/ptrace-if.h"

static uint64_t now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static void *short_life(void *arg)
{
	char name[16];
	snprintf(name, sizeof name, "w%ld", (long)(intptr_t)arg);
	prctl(PR_SET_NAME, name);
	usleep(3000);
	return NULL;
}

/* The child: thread after thread, each living ~3 ms, for `secs`. */
static void churn(double secs)
{
	uint64_t end = now_ns() + (uint64_t)(secs * 1e9);
	for (long i = 0; now_ns() < end; i++) {
		pthread_t th;
		if (pthread_create(&th, NULL, short_life, (void *)(intptr_t)i) == 0)
			pthread_join(th, NULL);
	}
	_exit(0);
}

static void ptrace_exited_threads_leave_the_table(void **state)
{
	int go[2];
	assert_int_equal(pipe(go), 0);
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		char c;
		close(go[1]);
		if (read(go[0], &c, 1) != 1)
			_exit(1);
		churn(3.0);
	}
	close(go[0]);
	struct uf_target t = { 0 };
	struct uf_err err = { 0 };
	if (ptrace_target_attach(&t, pid, &err) != 0) {
		kill(pid, SIGKILL);
		waitpid(pid, NULL, 0);
		skip(); /* no ptrace permission here */
	}
	assert_int_equal(write(go[1], "g", 1), 1);
	uint32_t ids[64], seen_tid = 0;
	char buf[64], want[64];
	size_t n, max_tracked = 0;
	uint64_t end = now_ns() + 1500000000ull;
	while (now_ns() < end) {
		assert_int_equal(t.ops->stop(&t, &err), 0);
		assert_int_equal(t.ops->threads(&t, ids, 64, &n, &err), 0);
		for (size_t i = 0; i < n && !seen_tid; i++) /* remember one worker */
			if (ids[i] != (uint32_t)pid)
				seen_tid = ids[i];
		assert_int_equal(t.ops->resume(&t, &err), 0);
		t.ops->idle(&t, now_ns() + 2000000, &err);
		const struct ptrace_info *pi = ptrace_target_info(&t);
		if (pi->tracked > max_tracked)
			max_tracked = pi->tracked;
	}
	const struct ptrace_info *pi = ptrace_target_info(&t);
	size_t exited = pi->exited_threads;
	t.ops->detach(&t);
	assert_true(exited >= 50);          /* the churn ran while sampled */
	assert_true(max_tracked <= 4);      /* main + the one worker alive, not hundreds */
	assert_int_not_equal(seen_tid, 0);
	/* it exited long ago: its name is still the comm it had, not "?" */
	ptrace_target_thread_name(&t, seen_tid, buf, sizeof buf);
	snprintf(want, sizeof want, "-%d/%u", (int)pid, seen_tid);
	assert_true(buf[0] != '?' && strlen(buf) > strlen(want));
	assert_string_equal(buf + strlen(buf) - strlen(want), want);
	ptrace_target_free(&t);
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(ptrace_exited_threads_leave_the_table),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
