/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * gdb-if/conn.c — one connection to a gdbstub; see conn.h.
 *
 * States: (closed) --gdb_conn_open--> OPEN --peer closes--> GONE
 *                                      |  --protocol error--> POISONED
 *                                      +--gdb_conn_close--> (closed)
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "gdb-if/conn.h"
#include "gdb-if/packet.h"
#include "target/target.h"

#define RX_CAP (GDB_PKT_MAX_RAW + 4096)
#define RX_FIRST (16 * 1024)   /* rx starts here, doubles up to RX_CAP */
#define MAX_RESENDS 3

static int64_t now_ms(void);
static int connect_addr(struct gdb_conn *c, const char *addr, struct uf_err *err);
static int wait_fd(struct gdb_conn *c, int fd, short ev, int64_t deadline, struct uf_err *err);
static void consume(struct gdb_conn *c, size_t used);
static int fill(struct gdb_conn *c, int64_t deadline, struct uf_err *err);
static int write_all(struct gdb_conn *c, const void *b, size_t n, struct uf_err *err);
static int write_bytes(struct gdb_conn *c, const char *p, size_t n, struct uf_err *err);
static int fail(struct gdb_conn *c, struct uf_err *err, const char *fmt, const char *arg);

/* ---- public ---------------------------------------------------------- */

int gdb_conn_open(struct gdb_conn *c, const char *addr, unsigned timeout_ms,
		  struct uf_err *err)
{
	memset(c, 0, sizeof *c);
	c->fd = -1;
	c->timeout_ms = timeout_ms;
	snprintf(c->addr, sizeof c->addr, "gdb stub '%s'", addr);
	c->rxcap = RX_FIRST;
	c->rx = malloc(c->rxcap);
	c->reply = malloc(GDB_REPLY_MAX);
	if (!c->rx || !c->reply) {
		uf_err_set(err, UF_ETARGET, c->addr, "out of memory");
		gdb_conn_close(c);
		return -ENOMEM;
	}
	int rc = connect_addr(c, addr, err);
	if (rc < 0)
		gdb_conn_close(c);
	return rc;
}

void gdb_conn_close(struct gdb_conn *c)
{
	if (c->fd >= 0)
		close(c->fd);
	c->fd = -1;
	free(c->rx);
	free(c->reply);
	c->rx = NULL;
	c->reply = NULL;
}

int gdb_conn_queue(struct gdb_conn *c, const char *data, struct uf_err *err)
{
	size_t n = gdb_pkt_frame(c->tx + c->txlen, sizeof c->tx - c->txlen, data, strlen(data));
	if (n == 0) {
		uf_err_set(err, UF_ETARGET, c->addr, "request too long");
		return -EMSGSIZE;
	}
	c->txlen += n;
	return 0;
}

int gdb_conn_queue_raw(struct gdb_conn *c, const void *b, size_t n, struct uf_err *err)
{
	if (n > sizeof c->tx - c->txlen) {
		uf_err_set(err, UF_ETARGET, c->addr, "request too long");
		return -EMSGSIZE;
	}
	memcpy(c->tx + c->txlen, b, n);
	c->txlen += n;
	return 0;
}

/* In ack mode only one request may be queued: it is written, then resent
 * on `-` until a `+` arrives. */
int gdb_conn_flush(struct gdb_conn *c, struct uf_err *err)
{
	if (c->gone)
		return UF_TARGET_GONE;
	if (c->poisoned)
		return fail(c, err, "%s", c->cause);
	int64_t deadline = now_ms() + c->timeout_ms;
	for (int tries = 0;; tries++) {
		int rc = write_all(c, c->tx, c->txlen, err);
		if (rc != 0 || c->noack || c->pipeline)
			return c->txlen = 0, rc;
		for (;;) {
			size_t used = 0, outlen = 0;
			struct gdb_scan_state st = { 0 };
			enum gdb_scan s = gdb_pkt_scan(&st, c->rx + c->rxoff, c->rxlen - c->rxoff,
						       &used, c->reply, GDB_REPLY_MAX - 1, &outlen);
			consume(c, used);
			if (s == GDB_SCAN_ACK)
				return c->txlen = 0, 0;
			if (s == GDB_SCAN_PACKET) {
				/* Unsolicited: QEMU announces the stop it makes
				 * on connect before it acks our first request. */
				c->acks++;
				continue;
			}
			if (s == GDB_SCAN_NAK && tries < MAX_RESENDS)
				break;
			if (s != GDB_SCAN_MORE)
				return fail(c, err, "%s while waiting for an ack", gdb_scan_str(s));
			if ((rc = fill(c, deadline, err)) != 0)
				return rc;
		}
	}
}

int gdb_conn_raw(struct gdb_conn *c, const void *b, size_t n, struct uf_err *err)
{
	if (c->gone)
		return UF_TARGET_GONE;
	if (c->poisoned)
		return fail(c, err, "%s", c->cause);
	return write_all(c, b, n, err);
}

int gdb_conn_recv(struct gdb_conn *c, struct uf_err *err)
{
	if (c->gone)
		return UF_TARGET_GONE;
	if (c->poisoned)
		return fail(c, err, "%s", c->cause);
	int64_t deadline = now_ms() + c->timeout_ms;
	struct gdb_scan_state st = { 0 };
	int badsums = 0;
	for (;;) {
		size_t used = 0, outlen = 0;
		enum gdb_scan s = gdb_pkt_scan(&st, c->rx + c->rxoff, c->rxlen - c->rxoff, &used,
					       c->reply, GDB_REPLY_MAX - 1, &outlen);
		consume(c, used);
		if (s == GDB_SCAN_PACKET) {
			c->reply[outlen] = '\0';
			c->replylen = outlen;
			c->round_trips++;
			c->acks += !c->noack;
			return 0;
		}
		if (s == GDB_SCAN_BADSUM && !c->noack && badsums++ < MAX_RESENDS) {
			int rc = write_all(c, "-", 1, err);   /* after the owed `+`s */
			if (rc != 0)
				return rc;
			continue;
		}
		if (s != GDB_SCAN_MORE && s != GDB_SCAN_ACK && s != GDB_SCAN_NAK)
			return fail(c, err, "%s in reply", gdb_scan_str(s));
		if (s == GDB_SCAN_MORE) {
			int rc = fill(c, deadline, err);
			if (rc != 0)
				return rc;
		}
	}
}

void gdb_conn_poison(struct gdb_conn *c, const char *why)
{
	if (!c->poisoned)
		snprintf(c->cause, sizeof c->cause, "%s", why);
	c->poisoned = 1;
}

int gdb_conn_call(struct gdb_conn *c, const char *data, struct uf_err *err)
{
	int rc = gdb_conn_queue(c, data, err);
	if (rc == 0)
		rc = gdb_conn_flush(c, err);
	if (rc == 0)
		rc = gdb_conn_recv(c, err);
	return rc;
}

/* ---- helpers --------------------------------------------------------- */

static int64_t now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static int fail(struct gdb_conn *c, struct uf_err *err, const char *fmt, const char *arg)
{
	char why[sizeof c->cause];
	snprintf(why, sizeof why, fmt, arg);
	gdb_conn_poison(c, why);
	uf_err_set(err, UF_ETARGET, c->addr, "%s", why);
	return -EPROTO;
}

/* Wait until fd is ready for ev or the deadline passes. */
static int wait_fd(struct gdb_conn *c, int fd, short ev, int64_t deadline, struct uf_err *err)
{
	for (;;) {
		int64_t left = deadline - now_ms();
		if (left <= 0) {
			char why[64];
			snprintf(why, sizeof why, "no reply within %u ms", c->timeout_ms);
			gdb_conn_poison(c, why);
			uf_err_set(err, UF_ETARGET, c->addr, "%s", why);
			return -ETIMEDOUT;
		}
		struct pollfd p = { .fd = fd, .events = ev };
		int n = poll(&p, 1, (int)left);
		if (n > 0)
			return 0;
		if (n < 0 && errno != EINTR) {
			uf_err_set(err, UF_ETARGET, c->addr, "poll: %s", UF_STRERROR(errno));
			return -errno;
		}
	}
}

/* Scanned bytes leave rx by moving its start, not its bytes: a read may
 * bring many packets, and moving the rest after each one made every
 * reply cost the size of the read (the bytes move once, in fill). */
static void consume(struct gdb_conn *c, size_t used)
{
	c->rxoff += used;
	if (c->rxoff == c->rxlen)
		c->rxoff = c->rxlen = 0;
}

/* Read what is available into rx (at least one byte, by the deadline). */
static int fill(struct gdb_conn *c, int64_t deadline, struct uf_err *err)
{
	if (c->rxoff > 0) {
		memmove(c->rx, c->rx + c->rxoff, c->rxlen - c->rxoff);
		c->rxlen -= c->rxoff;
		c->rxoff = 0;
	}
	if (c->rxlen == c->rxcap && c->rxcap >= RX_CAP)
		return fail(c, err, "%s", "oversized reply");
	if (c->rxlen == c->rxcap) {   /* most replies fit 16 KiB: grow on demand */
		size_t cap = c->rxcap * 2 < RX_CAP ? c->rxcap * 2 : RX_CAP;
		uint8_t *rx = realloc(c->rx, cap);
		if (!rx)
			return fail(c, err, "%s", "out of memory");
		c->rx = rx;
		c->rxcap = cap;
	}
	int rc = wait_fd(c, c->fd, POLLIN, deadline, err);
	if (rc < 0)
		return rc;
	ssize_t n = read(c->fd, c->rx + c->rxlen, c->rxcap - c->rxlen);
	if (n == 0 || (n < 0 && (errno == ECONNRESET || errno == EPIPE))) {
		c->gone = 1;
		return UF_TARGET_GONE;
	}
	if (n < 0) {
		if (errno == EINTR || errno == EAGAIN)
			return 0;
		uf_err_set(err, UF_ETARGET, c->addr, "read: %s", UF_STRERROR(errno));
		return -errno;
	}
	c->rxlen += (size_t)n;
	return 0;
}

/* Owed acks first (one write when possible), then b; but after the
 * interrupt byte that starts b, never before it.  QEMU's stub stops a
 * running guest on the first byte it reads and drops that byte, and from
 * QEMU 8.1 it answers the stop only when that byte is 0x03: a `+` first
 * would stop the guest without a stop reply, and the 0x03 after it,
 * read by a stopped guest, is thrown away as garbage. */
static int write_all(struct gdb_conn *c, const void *b, size_t n, struct uf_err *err)
{
	char buf[GDB_TX_MAX + 64];
	const char *p = b;
	if (c->acks > 0) {
		size_t k = c->acks < 64 ? c->acks : 64, lead = n > 0 && p[0] == '\x03';
		if (n <= GDB_TX_MAX) {
			memcpy(buf, p, lead);
			memset(buf + lead, '+', k);
			memcpy(buf + lead + k, p + lead, n - lead);
			p = buf, n += k, c->acks = 0;
		} else {
			int rc = write_bytes(c, p, lead, err);
			memset(buf, '+', k);
			if (rc == 0)
				rc = write_bytes(c, buf, k, err);
			c->acks = 0;
			if (rc != 0)
				return rc;
			p += lead, n -= lead;
		}
	}
	return write_bytes(c, p, n, err);
}

static int write_bytes(struct gdb_conn *c, const char *p, size_t n, struct uf_err *err)
{
	int64_t deadline = now_ms() + c->timeout_ms;
	while (n > 0) {
		ssize_t w = send(c->fd, p, n, MSG_NOSIGNAL);
		if (w < 0 && (errno == EPIPE || errno == ECONNRESET)) {
			c->gone = 1;
			return UF_TARGET_GONE;
		}
		if (w < 0 && (errno == EAGAIN || errno == EINTR)) {
			int rc = wait_fd(c, c->fd, POLLOUT, deadline, err);
			if (rc < 0)
				return rc;
			continue;
		}
		if (w < 0) {
			uf_err_set(err, UF_ETARGET, c->addr, "write: %s", UF_STRERROR(errno));
			return -errno;
		}
		p += w;
		n -= (size_t)w;
	}
	return 0;
}

/* Non-blocking connect bounded by the timeout; 0 or -errno. */
static int connect_fd(struct gdb_conn *c, int fd, const struct sockaddr *sa, socklen_t len,
		      struct uf_err *err)
{
	if (connect(fd, sa, len) == 0)
		return 0;
	if (errno != EINPROGRESS)
		return -errno;
	struct uf_err tmp = { 0 };
	if (wait_fd(c, fd, POLLOUT, now_ms() + c->timeout_ms, &tmp) < 0)
		return -ETIMEDOUT;
	int soerr = 0;
	socklen_t sl = sizeof soerr;
	if (getsockopt(fd, SOL_SOCKET, SO_ERROR, &soerr, &sl) < 0)
		return -errno;
	return -soerr;
}

static int connect_unix(struct gdb_conn *c, const char *path, struct uf_err *err)
{
	struct sockaddr_un su = { .sun_family = AF_UNIX };
	if (strlen(path) >= sizeof su.sun_path) {
		uf_err_set(err, UF_EUSAGE, c->addr, "socket path too long");
		return -ENAMETOOLONG;
	}
	strcpy(su.sun_path, path);
	int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (fd < 0) {
		uf_err_set(err, UF_ETARGET, c->addr, "socket: %s", UF_STRERROR(errno));
		return -errno;
	}
	int rc = connect_fd(c, fd, (struct sockaddr *)&su, sizeof su, err);
	if (rc < 0) {
		close(fd);
		uf_err_set(err, UF_ETARGET, c->addr, "cannot connect: %s", UF_STRERROR(-rc));
		return rc;
	}
	c->fd = fd;
	return 0;
}

/* Try each address getaddrinfo gives; the first that connects wins. */
static int connect_tcp(struct gdb_conn *c, const char *host, const char *port,
		       struct uf_err *err)
{
	struct addrinfo hints = { .ai_family = AF_UNSPEC, .ai_socktype = SOCK_STREAM }, *res;
	int gai = getaddrinfo(host, port, &hints, &res);
	if (gai != 0) {
		uf_err_set(err, UF_ETARGET, c->addr, "cannot resolve: %s", UF_ERRTEXT(gai_strerror(gai)));
		return -EHOSTUNREACH;
	}
	int rc = -ECONNREFUSED;
	for (struct addrinfo *a = res; a; a = a->ai_next) {
		int fd = socket(a->ai_family, a->ai_socktype | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
		if (fd < 0)
			continue;
		rc = connect_fd(c, fd, a->ai_addr, a->ai_addrlen, err);
		if (rc == 0) {
			int one = 1;   /* small request/reply packets: no Nagle delay */
			setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
			c->fd = fd;
			break;
		}
		close(fd);
	}
	freeaddrinfo(res);
	if (rc < 0)
		uf_err_set(err, UF_ETARGET, c->addr, "cannot connect: %s", UF_STRERROR(-rc));
	return rc;
}

static int connect_addr(struct gdb_conn *c, const char *addr, struct uf_err *err)
{
	if (!strncmp(addr, "unix:", 5))
		return connect_unix(c, addr + 5, err);
	if (!strncmp(addr, "tcp:", 4))
		addr += 4;
	const char *colon = strrchr(addr, ':');
	if (!colon && strchr(addr, '/'))
		return connect_unix(c, addr, err);
	if (!colon || !colon[1] || strspn(colon + 1, "0123456789") != strlen(colon + 1)) {
		uf_err_set(err, UF_EUSAGE, c->addr, "expected HOST:PORT or unix:PATH");
		return -EINVAL;
	}
	char host[256];
	size_t hl = (size_t)(colon - addr);
	if (hl >= sizeof host) {
		uf_err_set(err, UF_EUSAGE, c->addr, "host name too long");
		return -EINVAL;
	}
	memcpy(host, addr, hl);
	host[hl] = '\0';
	if (hl >= 2 && host[0] == '[' && host[hl - 1] == ']') {
		memmove(host, host + 1, hl - 2);
		host[hl - 2] = '\0';
	}
	return connect_tcp(c, host[0] ? host : "localhost", colon + 1, err);
}
