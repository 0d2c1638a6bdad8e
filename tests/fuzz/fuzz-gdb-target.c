/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * tests/fuzz/fuzz-gdb-target.c — the QEMU/gdbstub target's reply handling
 * (gdb-if/target.c over gdb-if/conn.c), end to end over a real socket: a
 * hostile stub answers attach, stops, register and memory requests with
 * whatever the input holds, and the frame-pointer walker walks the memory
 * it claims.
 *
 * A stub thread (started once) accepts each connection on a Unix socket,
 * writes the input after byte 0 as everything the stub will ever say and
 * closes its sending side; so no request ever waits for its deadline (the
 * end of the input is a closed socket).  The stub never reads: what the
 * target sends stays queued in the socket (a few KiB per input, far below
 * its buffer) until the harness closes the stub's end after the target
 * hung up, so the target's writes never wake the stub thread (a thread
 * switch per request made this harness 3x slower).  For that the target's
 * socket gets a send buffer far above what any input can make it send
 * (__wrap_connect below; the harness links with -Wl,--wrap=connect): with
 * the default 208 KiB, a stream of short replies and NAKs (a 25-byte
 * request resent for each `-`) filled it, the target's write waited out
 * its deadline, and the harness fell from 8,000 to 1,300 execs a second.
 * Byte 0: bits 0-1 the number of sampling rounds (1-4), bit 2
 * `exact` (no fused stop/resume), bits 3-5 the stack window (1-8 x 512).
 * Seeds are real sessions (qSupported, no-ack mode, thread list, stop
 * replies, `g` and `m` replies).  Oracles: no crash, leak or undefined
 * behaviour on any stream; attach, stop, regs, read and detach return in
 * bounded time; walks keep walk-oracle.h's bounds.
 */
#include <errno.h>
#include <pthread.h>
#include <semaphore.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "tests/fuzz/walk-oracle.h"

#include "gdb-if/gdb.h"

static char sock_path[108];
static int listen_fd = -1;
static const uint8_t *stream;
static size_t stream_len;
static int stub_fd = -1;
static sem_t go, done;

static void *stub(void *arg)
{
	for (;;) {
		int fd = accept(listen_fd, NULL, NULL);
		if (fd < 0)
			continue;
		sem_wait(&go);
		for (size_t off = 0; off < stream_len;) {
			ssize_t w = send(fd, stream + off, stream_len - off, MSG_NOSIGNAL);
			if (w <= 0)
				break;
			off += (size_t)w;
		}
		shutdown(fd, SHUT_WR);
		stub_fd = fd;   /* closed by the harness once the target hung up */
		sem_post(&done);
	}
	return NULL;
}

int __real_connect(int fd, const struct sockaddr *sa, socklen_t len);
int __wrap_connect(int fd, const struct sockaddr *sa, socklen_t len);

/* Every connect() in the library (the target's, only): 32 MiB of send
 * buffer, forced past wmem_max as root, else as much as wmem_max allows. */
int __wrap_connect(int fd, const struct sockaddr *sa, socklen_t len)
{
	int big = 32 << 20;
	if (setsockopt(fd, SOL_SOCKET, SO_SNDBUFFORCE, &big, sizeof big) != 0)
		setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &big, sizeof big);
	return __real_connect(fd, sa, len);
}

static void start_stub(void)
{
	struct sockaddr_un su = { .sun_family = AF_UNIX };
	snprintf(sock_path, sizeof sock_path, "/tmp/uf-fuzz-gdb-%d.sock", (int)getpid());
	unlink(sock_path);
	strcpy(su.sun_path, sock_path);
	listen_fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (listen_fd < 0 || bind(listen_fd, (struct sockaddr *)&su, sizeof su) != 0 ||
	    listen(listen_fd, 4) != 0)
		fuzz_fail("cannot listen on %s: %s", sock_path, strerror(errno));
	sem_init(&go, 0, 0);
	sem_init(&done, 0, 0);
	pthread_t th;
	if (pthread_create(&th, NULL, stub, NULL) != 0)
		fuzz_fail("cannot start the stub thread");
	pthread_detach(th);
}

static void unlink_sock(void)
{
	unlink(sock_path);
}

/* Stop, walk every thread, resume: what one sampling round does. */
static int round_trip(struct uf_target *t, size_t max)
{
	struct uf_err err = { 0 };
	int rc = t->ops->stop(t, &err);
	if (rc != 0)
		return rc;
	uint32_t ids[8];
	size_t n = 0;
	rc = t->ops->threads(t, ids, 8, &n, &err);
	for (size_t i = 0; rc == 0 && i < n; i++) {
		struct uf_regs regs;
		if (t->ops->regs(t, ids[i], &regs, &err) != 0)
			break;
		uint64_t pcs[SAMPLER_MAX_DEPTH], t0 = walk_cpu_ns(), reads = 0;
		size_t k = 0;
		int end = walk_fp(t, ids[i], &regs, pcs, max, &k, &reads, &err);
		walk_check(end, k, max, reads, SIZE_MAX, walk_cpu_ns() - t0);
	}
	struct uf_err e2 = { 0 };
	int rr = t->ops->resume(t, &e2);
	return rc != 0 ? rc : rr;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 1 || size > 256 * 1024)
		return 0;
	if (listen_fd < 0) {
		start_stub();
		atexit(unlink_sock);
	}
	stream = data + 1;
	stream_len = size - 1;
	struct gdb_opts o = { .timeout_ms = 2000, .exact = data[0] & 4,
			      .window = 512u * (1 + ((data[0] >> 3) & 7)) };
	struct uf_target t;
	struct uf_err err = { 0 };
	sem_post(&go);
	if (gdb_target_attach(&t, sock_path, &o, &err) == 0) {
		for (int r = 0; r <= (data[0] & 3); r++)
			if (round_trip(&t, 64) != 0)
				break;
		t.ops->detach(&t);
	}
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	ts.tv_sec += 60;
	if (sem_timedwait(&done, &ts) != 0)
		fuzz_fail("the stub was not reached within 60 s");
	close(stub_fd);
	stub_fd = -1;
	return 0;
}
