/*
 * gdb-if/gdb.h — QEMU/KVM (and any gdbstub) guests as a target (target.h).
 *
 * Samples a guest through the GDB remote serial protocol: QEMU's `-s` /
 * `-gdb tcp::PORT` / `-gdb unix:PATH,server=on`, Firecracker's gdb
 * socket.  Per sample: interrupt (0x03) and its stop reply, then `g` and
 * the stack window (`m`) pipelined in one round trip, then `c` with no
 * reply to wait for: two round trips per vCPU when no-ack mode is on.
 *
 * Trade-off: the stack window of the previous sample is requested
 * speculatively with the registers; when the stack pointer moved out of
 * it, one more round trip fetches the right one.  Unikernel stacks rarely
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
 *     protocol is in; detach is safe to call more than once.
 *  2. Every read from the socket has a deadline (poll()); every reply is
 *     bounded (packet.h) and validated; a protocol error poisons the
 *     connection, later calls fail fast.
 *  3. A socket that closes (QEMU killed) is UF_TARGET_GONE, not an error.
 */
#ifndef UF_GDB_IF_GDB_H
#define UF_GDB_IF_GDB_H

#include "sampler/target.h"

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

#endif
