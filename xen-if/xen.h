/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * xen-if/xen.h — a Xen domain as a sampling target (implements target.h).
 *
 * Run in dom0 as root.  `-d DOMAIN` attaches to a running domain by name
 * (looked up in xenstore, /local/domain/<id>/name) or by numeric id; `-c
 * CFG` creates the domain paused with `xl create -p`, attaches, and lets
 * it run at xen_target_start(), so the profile starts at its first
 * instruction.  The target's vCPUs are its threads (id = vCPU number).
 *
 * Main trade-off: the steady state is only pause, one register read per
 * online vCPU and unpause, issued as raw domctls from one persistent
 * hypercall buffer (libxenctrl would allocate and map a bounce buffer per
 * call); guest memory goes through foreign mappings that stay cached
 * across samples, and page tables are re-walked on every read from those
 * cached mappings, so a guest that remaps its memory is always seen as it
 * is now, at the cost of four memory loads per page (no hypercall).
 *
 * Invariants:
 *  1. We hold at most one pause reference of our own; detach() drops it,
 *     and the creation pause of a `-c` domain, whatever happened before.
 *  2. Every value read from the guest (registers, page-table entries,
 *     memory) is untrusted: walks are 4 levels at most, reads are capped
 *     (XEN_READ_MAX bytes per call), frames come only from present
 *     entries and are validated by Xen when mapped.
 *  3. After open, stop()/regs()/read()/resume() make no hypercall other
 *     than pause, getvcpucontext (or the HVM CPU record) and unpause (the
 *     first ones batched in one multicall; n_hypercalls counts operations),
 *     plus one foreign map per page not mapped yet (counted in n_maps)
 *     and the domain-state check of invariant 4.
 *  4. A domain that disappeared or shut down makes stop() return
 *     UF_TARGET_GONE: one getdomaininfo when a xenstore watch fires, and
 *     at most every XEN_GONE_CHECK_MS (0.5 s) otherwise.
 */
#ifndef UF_XEN_IF_XEN_H
#define UF_XEN_IF_XEN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "target/target.h"
#include "util/err.h"

/* Largest read() we serve in one call: bounds the time spent in a pause. */
#define XEN_READ_MAX (64 * 1024)

struct xen_target_opts {
	const char *domain;   /* -d: name or numeric id (borrowed) */
	const char *cfg;      /* -c: xl config file (borrowed); domain created paused */
	bool destroy;         /* --destroy: destroy a -c domain when we are done */
};

/* Open a Xen domain as target `t` (zeroed by the caller; filled here).
 * Exactly one of o->domain and o->cfg is set.  Returns 0, or <0 with *err
 * (class UF_ETARGET: not root, no privcmd, no such domain, 32-bit PV,
 * `xl create` failed; UF_EUSAGE for a malformed domain id).  On success
 * the caller must end with t->ops->detach(t). */
int xen_target_open(struct uf_target *t, const struct xen_target_opts *o, struct uf_err *err);

/* Let a `-c` domain start running (drops the creation pause); a no-op for
 * `-d`.  Call it once, just before sampling starts. */
int xen_target_start(struct uf_target *t, struct uf_err *err);

/* Domain id and name (borrowed, valid until detach), and a one-line
 * description such as "domain 'app' (id 3, PV 64-bit, 2 vCPUs)". */
uint32_t xen_target_domid(const struct uf_target *t);
const char *xen_target_name(const struct uf_target *t);
void xen_target_describe(const struct uf_target *t, char *buf, size_t len);

/* NULL when this binary was built with libxen-dev; for the stub, why not
 * ("built without libxen-dev", or the host it needs), for --version. */
const char *xen_target_missing(void);

#endif
