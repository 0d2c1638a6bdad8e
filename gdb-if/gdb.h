/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * gdb-if/gdb.h — QEMU/KVM (and any gdbstub) guests as a target (target.h).
 *
 * Samples a guest through the GDB remote serial protocol: QEMU's `-s` /
 * `-gdb tcp::PORT` / `-gdb unix:PATH,server=on`, Firecracker's gdb
 * socket.  Per sample: interrupt (0x03) and its stop reply, then `g` and
 * the stack window (`m`) pipelined in one round trip, then `c` with no
 * reply to wait for: two round trips per vCPU when no-ack mode is on.
 *
 * Trade-off: the stack window is requested speculatively with the
 * registers: from the lowest sp of the recent samples to the highest word
 * their walks needed (at least `window` bytes above the last sp; at most
 * one batch, ~14 KiB on QEMU), so a stack whose depth changes between
 * samples stays inside it; when the stack moved out of it, one more round
 * trip fetches the right one.  Unikernel stacks rarely
 * move far between samples, so this usually saves a round trip.  QEMU
 * reads the requests of one write in order with the VM stopped after the
 * interrupt byte, so stop + registers + window are one round trip; and
 * for a one-vCPU guest whose stack fitted the window at the previous
 * sample, the `c` goes in the same write ("fused"): QEMU resumes the guest
 * by itself, and the guest's pause no longer includes the time this
 * process takes to be scheduled and to walk.  The price: a stack that
 * grew beyond the window is cut at its edge in that one sample (the next
 * sample is a full one).  opts.exact turns fusing off.
 *
 * read() returns at most one round trip's worth: when the first bytes come
 * from what is already fetched and the rest is not, it returns the short
 * count rather than pay another round trip for bytes a frame-pointer walk
 * rarely uses (sampler/walk.c asks again at the frame it needs).  This is
 * looser than target.h's "short only at an unmapped page".
 *
 * Invariants:
 *  1. The guest is left running on detach (`D`), whatever state the
 *     protocol is in; detach is safe to call more than once.  QEMU stops
 *     a running guest on any byte it reads and drops that byte (from 8.1
 *     it answers only a 0x03), so nothing but 0x03 is ever the first
 *     byte written to a running guest: detach interrupts it before `D`,
 *     and owed acks follow the interrupt byte (conn.c write_all).
 *  2. Every read from the socket has a deadline (poll()); every reply is
 *     bounded (packet.h) and validated; a protocol error poisons the
 *     connection, later calls fail fast.
 *  3. A socket that closes (QEMU killed) is UF_TARGET_GONE, not an error.
 */
#ifndef UF_GDB_IF_GDB_H
#define UF_GDB_IF_GDB_H

#include <sys/types.h>

#include "target/target.h"

struct gdb_opts {
	unsigned timeout_ms;   /* per reply; 0 = GDB_DEFAULT_TIMEOUT_MS */
	size_t window;         /* stack bytes fetched per sample; 0 = 4096 */
	int exact;             /* never fuse stop and resume (see above) */
};

#define GDB_DEFAULT_TIMEOUT_MS 3000

/*
 * Connect to the stub at `addr` and attach: "HOST:PORT", ":PORT"
 * (localhost), "[V6ADDR]:PORT", "unix:PATH" or a path with a `/`.  The
 * guest runs again when this returns 0 (QEMU pauses it on connect).
 * opts may be NULL.  On failure fills *err (UF_ETARGET naming the address
 * tried, UF_EUSAGE for an address that does not parse) and returns <0;
 * *t is then untouched.  On success t->ops->detach() releases everything.
 */
int gdb_target_attach(struct uf_target *t, const char *addr, const struct gdb_opts *opts,
		      struct uf_err *err);

/*
 * Launch mode (launch.c): QEMU started by us, paused (-S), with a private
 * gdbstub socket; attach with gdb_target_attach(t, l->addr, ...).
 */
struct gdb_launch {
	pid_t pid;             /* QEMU; 0 when none */
	int exited;            /* reaped; status is its wait status */
	int status;
	char dir[96];          /* private 0700 directory of the socket */
	char sock[128];
	char addr[136];        /* "unix:SOCK", for gdb_target_attach */
	char chardev[160];     /* QEMU's -gdb argument */
};

/* Is argv (borrowed) a QEMU system emulator command that leaves the
 * gdbstub to us (no -gdb, -s, -daemonize)?  0, or <0 with *err (UF_EUSAGE). */
int gdb_launch_check(char *const *argv, struct uf_err *err);
/* Start `argv[0] -S -gdb unix:... argv[1..]` and wait (up to timeout_ms,
 * 0 = 30 s) until its gdbstub listens.  stdout_to_stderr: QEMU's stdout
 * goes to our stderr (our stdout carries an output).  On failure QEMU is
 * ended and reaped, *l released, *err filled (UF_ETARGET), <0 returned. */
int gdb_launch_start(struct gdb_launch *l, char *const *argv, int stdout_to_stderr,
		     unsigned timeout_ms, struct uf_err *err);
/* Has QEMU exited (reaped now or before)?  Never blocks. */
int gdb_launch_poll(struct gdb_launch *l);
/* Reap QEMU: 1 exited, 0 still running (block = 0), <0 errno (-EINTR: a
 * signal came first). */
int gdb_launch_wait(struct gdb_launch *l, int block);
/* End QEMU: let it exit by itself for wait_ms, then SIGTERM, then SIGKILL
 * after grace_ms more; reaped on return. */
void gdb_launch_end(struct gdb_launch *l, unsigned wait_ms, unsigned grace_ms);
/* Remove the socket and its directory; QEMU itself is not touched. */
void gdb_launch_release(struct gdb_launch *l);

#endif
