/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * gdb-if/conn.h — one connection to a gdbstub: socket, framing, acks,
 * deadlines (private to gdb-if/).
 *
 * Trade-off: requests are queued and written in one write() (pipelined)
 * in no-ack mode, and in ack mode when the stub is known not to wait for
 * our `+` before reading on (QEMU: `pipeline`); otherwise each request
 * waits for its `+`, which only costs other old stubs.  The `+` we owe for
 * a reply rides on our next write instead of costing a write of its own.
 *
 * Invariants:
 *  1. Every wait is a poll() bounded by the reply deadline.
 *  2. After a protocol error (bad checksum in no-ack mode, oversized or
 *     malformed reply, timeout) the connection is poisoned: the byte stream
 *     may be out of step, so later requests fail at once (except detach's
 *     best-effort `D`).
 *  3. A closed socket sets `gone`; calls then return UF_TARGET_GONE.
 */
#ifndef UF_GDB_CONN_H
#define UF_GDB_CONN_H

#include <stddef.h>
#include <stdint.h>

#include "util/err.h"

#define GDB_REPLY_MAX (64 * 1024)   /* decoded reply cap */
#define GDB_TX_MAX (16 * 1024)      /* queued request bytes */

struct gdb_conn {
	int fd;
	int noack;             /* QStartNoAckMode accepted */
	int pipeline;          /* stub takes requests before acking replies (QEMU) */
	size_t acks;           /* `+` owed for replies, sent with the next write */
	int gone;              /* peer closed (invariant 3) */
	int poisoned;          /* stream out of step (invariant 2) */
	char cause[160];       /* why it was poisoned, repeated by later calls */
	unsigned timeout_ms;
	char addr[200];        /* as the user gave it, for messages */
	uint8_t *rx;           /* raw bytes, rx[rxoff, rxlen) not yet scanned */
	size_t rxoff, rxlen, rxcap;
	char *reply;           /* last decoded reply, NUL-terminated */
	size_t replylen;
	char tx[GDB_TX_MAX];   /* framed requests not yet written */
	size_t txlen;
	uint64_t round_trips;
};

/* Connect (timeout applies); returns 0 or <0 with *err (UF_ETARGET). */
int gdb_conn_open(struct gdb_conn *c, const char *addr, unsigned timeout_ms,
		  struct uf_err *err);
void gdb_conn_close(struct gdb_conn *c);

/* Frame data and append it to the queue; 0 or <0 when it does not fit. */
int gdb_conn_queue(struct gdb_conn *c, const char *data, struct uf_err *err);
/* Append raw bytes (the 0x03 interrupt) to the queue. */
int gdb_conn_queue_raw(struct gdb_conn *c, const void *b, size_t n, struct uf_err *err);
/* Write the queue.  In ack mode without `pipeline` only one request may
 * be queued: it is resent on `-` until a `+` arrives.  0, UF_TARGET_GONE
 * or <0. */
int gdb_conn_flush(struct gdb_conn *c, struct uf_err *err);
/* Write raw bytes (the 0x03 interrupt, a `+`). */
int gdb_conn_raw(struct gdb_conn *c, const void *b, size_t n, struct uf_err *err);
/* Wait for the next packet; c->reply holds it.  0, UF_TARGET_GONE or <0. */
int gdb_conn_recv(struct gdb_conn *c, struct uf_err *err);
/* Mark the connection unusable (invariant 2) because of `why` (a stub
 * that breaks the protocol once is not trusted again). */
void gdb_conn_poison(struct gdb_conn *c, const char *why);
/* queue + flush + recv for one request. */
int gdb_conn_call(struct gdb_conn *c, const char *data, struct uf_err *err);

#endif
