/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * gdb-if/packet.h — the GDB remote serial protocol packet codec (private
 * to gdb-if/; the unit tests include it).
 *
 * Pure functions over byte buffers, no I/O, so every hostile reply can be
 * fed to them in a unit test.  A packet on the wire is `$DATA#CS` with CS
 * the modulo-256 sum of DATA in two hex digits; replies may use escapes
 * (`}` then byte ^ 0x20) and run-length encoding (`X*N`: X repeated
 * N - 29 more times).  Trade-off: the decoder expands into a caller buffer
 * of fixed capacity instead of growing one, so a lying stub costs an error,
 * never memory.
 *
 * Invariants:
 *  1. gdb_pkt_scan() never reads past n bytes and never writes more than
 *     cap bytes into out; every outcome is one of enum gdb_scan.
 *  2. Garbage between packets is skipped but counted against
 *     GDB_PKT_MAX_GARBAGE, so a stub streaming noise ends in an error.
 *  3. The checksum is verified over the raw (escaped, encoded) bytes, as
 *     the protocol defines it, before anything is decoded.
 */
#ifndef UF_GDB_PACKET_H
#define UF_GDB_PACKET_H

#include <stddef.h>
#include <stdint.h>

/* Bytes of noise tolerated between packets before giving up. */
#define GDB_PKT_MAX_GARBAGE 4096
/* Largest raw packet (between `$` and `#`) we accept from any stub. */
#define GDB_PKT_MAX_RAW (256 * 1024)

enum gdb_scan {
	GDB_SCAN_MORE = 0,     /* incomplete: read more bytes and call again */
	GDB_SCAN_PACKET,       /* a packet: *consumed bytes used, out[0..*outlen) */
	GDB_SCAN_ACK,          /* a `+` */
	GDB_SCAN_NAK,          /* a `-`: resend the last packet */
	GDB_SCAN_BADSUM,       /* a complete packet with a wrong checksum */
	GDB_SCAN_TOOBIG,       /* raw packet or its expansion exceeds the caps */
	GDB_SCAN_MALFORMED,    /* bad escape/RLE, bad checksum digits, noise */
};

struct gdb_scan_state {
	size_t garbage;        /* noise bytes skipped so far (invariant 2) */
};

/*
 * Look for one event at the start of buf[0..n).  Skips noise (counted in
 * *st).  *consumed always says how many bytes of buf were used (on
 * GDB_SCAN_MORE: the noise before an incomplete packet); drop them before
 * calling again.  A packet's data,
 * unescaped and run-length expanded, goes to out (at most cap bytes).
 */
enum gdb_scan gdb_pkt_scan(struct gdb_scan_state *st, const uint8_t *buf, size_t n,
			   size_t *consumed, char *out, size_t cap, size_t *outlen);

/* Frame data[0..len) as `$data#cs` into out (escaping `$#}*`).  Returns
 * the framed length, or 0 when it does not fit in cap. */
size_t gdb_pkt_frame(char *out, size_t cap, const char *data, size_t len);

/* Decode 2*n hex digits into n bytes; returns 0 or -1 on a bad digit. */
int gdb_hex_decode(const char *hex, uint8_t *bytes, size_t n);

/* Value of a little-endian register of `size` bytes at hex offset `off`
 * in a `g` reply of hexlen chars; returns 0, or -1 when out of range or
 * not hex (QEMU sends `xx` for unavailable registers). */
int gdb_reg_le(const char *hex, size_t hexlen, size_t off, size_t size, uint64_t *val);

/* Parse a hex number (1..16 digits) at *s, stopping at end or a non-hex
 * byte, and advance *s; returns 0, or -1 when there is no digit or too many. */
int gdb_hex_num(const char **s, const char *end, uint64_t *val);

/* Name for an outcome, for error messages ("bad checksum", ...). */
const char *gdb_scan_str(enum gdb_scan s);

#endif
