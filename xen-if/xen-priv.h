/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * xen-if/xen-priv.h — state shared by the xen-if files (private).
 *
 * xen.c owns the target ops and the steady-state domctls; mem.c the
 * foreign-mapping cache and the page-table walk; domain.c name lookup,
 * `xl create -p` and the domain-gone watch.
 *
 * Invariants:
 *  1. `vcpu[i]` is valid for i < nvcpu_slots (max_vcpu_id + 1, capped at
 *     UF_TARGET_MAX_THREADS); its paging state belongs to the stop
 *     window `epoch` it was read in and is re-read in a later window.
 *  2. The frame cache holds at most XEN_FRAME_CACHE live mappings; when
 *     full it is emptied (all unmapped) rather than grown.
 */
#ifndef UF_XEN_IF_XEN_PRIV_H
#define UF_XEN_IF_XEN_PRIV_H

#define __XEN_TOOLS__ 1
#include <xenctrl.h>
#include <xencall.h>
#include <xenforeignmemory.h>
#include <xenstore.h>

#include "xen-if/xen.h"

#define XEN_FRAME_CACHE 4096     /* live foreign mappings, 16 MiB of guest */
#define XEN_FRAME_SLOTS (2 * XEN_FRAME_CACHE)
#define XEN_TLB_SLOTS 64         /* per stop window: va page -> host page */
#define XEN_GONE_CHECK_MS 500    /* domain state re-checked at least this often */
#define XEN_WATCH_POLL_MS 10     /* the xenstore watch fd polled at most this often */

enum xen_paging { XEN_PG_NONE, XEN_PG_4LEVEL, XEN_PG_UNSUPPORTED };

struct xen_vcpu {
	bool online;
	uint64_t epoch;          /* stop window the fields below belong to */
	uint64_t root;           /* frame of the top-level page table */
	enum xen_paging paging;
	struct uf_regs regs;
	uint64_t rs_epoch;       /* stop window rs / cpu_ns were read for */
	enum uf_runstate rs;     /* from XEN_DOMCTL_getvcpuinfo before the pause */
	uint64_t cpu_ns;         /* its cumulative on-CPU time */
};

struct xen_frame_slot {
	uint64_t frame;          /* guest frame (HVM) or machine frame (PV) */
	void *page;              /* NULL = failed in window `epoch` */
	uint64_t epoch;
	bool used;
};

struct xen_tlb_slot {
	uint64_t tag;            /* va page | 1; 0 = empty */
	uint64_t space;          /* address space: the page-table root, or
				  * XEN_SPACE_PHYS for paging off (a stale cr3
				  * of a paging-off vCPU must not match) */
	const uint8_t *page;
};

#define XEN_SPACE_PHYS UINT64_MAX  /* never a root: frames fit in 40 bits */

struct xen_state {
	struct uf_target *t;
	xc_interface *xch;
	xencall_handle *xcall;
	xenforeignmemory_handle *fmem;
	struct xs_handle *xsh;   /* may be NULL: then gone = pause fails */
	void *hbuf;              /* persistent hypercall buffer (domctl + context) */
	size_t hbuf_size;

	uint32_t domid;
	char name[128];
	bool hvm;
	bool created;            /* by us, through xl create -p */
	bool destroy;            /* --destroy */
	bool creation_pause;     /* xl's pause, not yet dropped */
	bool paused;             /* our own pause reference is held */
	bool gone;
	bool vcpus_dirty;        /* re-read the online vCPU list */
	bool mc_off;             /* the hypervisor refused our multicall */
	int64_t last_check_ms;   /* last getdomaininfo of the gone check */
	int64_t last_poll_ms;    /* last poll of the watch fd */

	uint64_t epoch;          /* bumped by every stop() */
	uint32_t nvcpu_slots;
	struct xen_vcpu *vcpu;

	struct xen_frame_slot *frames;  /* nslots, open addressing (mem.c) */
	uint32_t nslots;         /* a power of 2, at most XEN_FRAME_SLOTS */
	uint32_t nframes;
	struct xen_tlb_slot tlb[XEN_TLB_SLOTS];
};

/* domain.c */
int xen_domain_lookup(struct xen_state *s, const char *domain, struct uf_err *err);
int xen_domain_create(struct xen_state *s, const char *cfg, struct uf_err *err);
void xen_domain_destroy(struct xen_state *s);
int xen_domain_watch(struct xen_state *s);
/* 1 if the domain shut down or vanished since the last check, else 0. */
int xen_domain_check_gone(struct xen_state *s);
int xen_domain_vcpus(struct xen_state *s, struct uf_err *err);

/* mem.c */
int xen_mem_init(struct xen_state *s);
void xen_mem_release(struct xen_state *s);
void xen_mem_new_window(struct xen_state *s);
ssize_t xen_mem_read(struct xen_state *s, const struct xen_vcpu *v, uint64_t addr, void *buf,
		     size_t len);

#endif
