/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * xen-if/xen.c — the Xen target: open, the target ops, the steady-state
 * domctls.  See xen.h for the design and its invariants.
 *
 * States (target.h) and the calls behind them:
 *
 *   xen_target_open --> ATTACHED (a -c domain still holds xl's pause)
 *       xen_target_start: drops xl's pause --> RUNNING
 *       op_stop: domctl pause      RUNNING --> STOPPED (epoch++)
 *       op_resume: domctl unpause  STOPPED --> RUNNING
 *       op_detach: from any state: unpause what we hold, destroy if
 *                  asked (--destroy on a -c domain), unmap, close.
 *
 * Trade-off: pause, unpause and the register reads bypass libxenctrl and
 * issue XEN_DOMCTL_* through libxencall with one buffer allocated at open.
 * libxenctrl's wrappers would bounce every context through a freshly
 * mmapped two-page buffer, which costs more than the domctl itself under a
 * PV dom0.  The pause and the register reads of up to XEN_MC_VCPUS vCPUs
 * go to Xen as one multicall (one trip through privcmd instead of 1 + n);
 * if the hypervisor refuses the multicall, each is issued alone from then
 * on.  The domctl interface version is the one of the headers we were
 * built with, exactly as libxenctrl does it.
 *
 * Hypercall buffer layout: multicall entries at 0, domctl slots from
 * HB_DC_OFF, register buffers from HB_CTX_OFF (slot 0 serves single calls).
 *
 * Run state (issue 30): once paused, no vCPU runs, so the state is read
 * before the pause: XEN_DOMCTL_getvcpuinfo of each online vCPU are the
 * first entries of the same multicall (Xen runs them in order, the pause
 * right after), or separate domctls just before it without the
 * multicall.  running -> running; online, not running, not blocked ->
 * runnable (waiting for a pCPU: steal time); blocked -> blocked (an
 * idle vCPU, SCHEDOP_block); not online -> offline.  Cost: one more
 * operation per vCPU per sample, inside the trip the pause makes anyway
 * (counted in n_hypercalls).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "xen-if/xen-priv.h"

#define X86_CR0_PG (1ULL << 31)
#define X86_CR4_PAE (1ULL << 5)
#define X86_CR4_LA57 (1ULL << 12)
#define X86_EFER_LMA (1ULL << 10)

#define XEN_MC_VCPUS 8
#define HB_DC_OFF 2048
#define HB_DC_SIZE 256
#define HB_CTX_OFF 8192
#define HB_CTX_SIZE 5248
#define HB_SIZE (HB_CTX_OFF + XEN_MC_VCPUS * HB_CTX_SIZE)
_Static_assert(sizeof(struct xen_domctl) <= HB_DC_SIZE, "domctl slot");
_Static_assert(sizeof(vcpu_guest_context_x86_64_t) <= HB_CTX_SIZE, "context slot");
_Static_assert(sizeof(struct hvm_hw_cpu) <= HB_CTX_SIZE, "HVM record slot");
_Static_assert((2 * XEN_MC_VCPUS + 1) * sizeof(multicall_entry_t) <= HB_DC_OFF, "multicall entries");
_Static_assert(HB_DC_OFF + (2 * XEN_MC_VCPUS + 1) * HB_DC_SIZE <= HB_CTX_OFF, "domctl slots");

static const struct uf_target_ops xen_ops;

static void quiet_vmessage(struct xentoollog_logger *l, xentoollog_level level, int errnoval,
			   const char *context, const char *format, va_list al);
static void quiet_progress(struct xentoollog_logger *l, const char *context, const char *doing,
			   int percent, unsigned long done, unsigned long total);
static void quiet_destroy(struct xentoollog_logger *l);
static void op_detach(struct uf_target *t);
static int open_handles(struct xen_state *s, struct uf_err *err);
static int check_guest(struct xen_state *s, struct uf_err *err);
static struct xen_domctl *dc_slot(struct xen_state *s, unsigned i);
static void *ctx_slot(struct xen_state *s, unsigned j);
static struct xen_domctl *dc_init(struct xen_state *s, unsigned i, uint32_t cmd);
static int domctl(struct xen_state *s, uint32_t cmd);
static int domctl_call(struct xen_state *s, struct xen_domctl *dc);
static int stop_batched(struct xen_state *s);
static int read_vcpu(struct xen_state *s, uint32_t id, struct uf_err *err);
static struct xen_domctl *regs_args(struct xen_state *s, unsigned i, uint32_t id, void *ctx);
static void regs_parse(struct xen_state *s, struct xen_vcpu *v, const void *ctx);
static void release(struct xen_state *s);
static struct xen_domctl *info_args(struct xen_state *s, unsigned i, uint32_t id);
static void info_parse(struct xen_state *s, struct xen_vcpu *v, const struct xen_domctl *dc);
static void info_each(struct xen_state *s);
static int op_runstate(struct uf_target *t, uint32_t id, enum uf_runstate *state,
		       uint64_t *run_ns, struct uf_err *err);

/* libxenctrl and friends log to stderr by default; modules never print. */
static struct xentoollog_logger quiet = { quiet_vmessage, quiet_progress, quiet_destroy };

int xen_target_open(struct uf_target *t, const struct xen_target_opts *o, struct uf_err *err)
{
	struct xen_state *s = calloc(1, sizeof *s);
	int rc;

	if (!s || xen_mem_init(s)) {
		free(s);
		uf_err_set(err, UF_ETARGET, "xen", "out of memory");
		return -ENOMEM;
	}
	s->t = t;
	s->destroy = o->destroy;
	*t = (struct uf_target){ .ops = &xen_ops, .priv = s, .arch = UF_ARCH_X86_64 };
	rc = open_handles(s, err);
	if (!rc)
		rc = o->cfg ? xen_domain_create(s, o->cfg, err) : xen_domain_lookup(s, o->domain, err);
	if (!rc)
		rc = check_guest(s, err);
	if (!rc)
		rc = xen_domain_vcpus(s, err);
	if (rc) {
		op_detach(t);  /* a domain we created is let run, or destroyed */
		return rc;
	}
	xen_domain_watch(s);  /* optional: without it, a vanished domain fails pause */
	return 0;
}

int xen_target_start(struct uf_target *t, struct uf_err *err)
{
	struct xen_state *s = t->priv;
	if (!s->creation_pause)
		return 0;
	t->n_hypercalls++;
	if (domctl(s, XEN_DOMCTL_unpausedomain)) {
		uf_err_set(err, UF_ETARGET, s->name, "cannot unpause the new domain: %s", UF_STRERROR(errno));
		return -errno;
	}
	s->creation_pause = false;
	return 0;
}

uint32_t xen_target_domid(const struct uf_target *t)
{
	return ((const struct xen_state *)t->priv)->domid;
}

const char *xen_target_name(const struct uf_target *t)
{
	return ((const struct xen_state *)t->priv)->name;
}

int xen_target_built(void)
{
	return 1;
}

void xen_target_describe(const struct uf_target *t, char *buf, size_t len)
{
	const struct xen_state *s = t->priv;
	unsigned n = 0;
	for (uint32_t i = 0; i < s->nvcpu_slots; i++)
		n += s->vcpu[i].online;
	snprintf(buf, len, "domain '%s' (id %u, %s, %u vCPU%s)", s->name, s->domid,
		 s->hvm ? "HVM/PVH" : "PV 64-bit", n, n == 1 ? "" : "s");
}

static int open_handles(struct xen_state *s, struct uf_err *err)
{
	if (access("/dev/xen/privcmd", F_OK) && access("/proc/xen/privcmd", F_OK)) {
		uf_err_set(err, UF_ETARGET, "xen", "no privcmd device (not in a Xen dom0, or the "
			   "xen-privcmd module and xenfs are not loaded)");
		return -ENODEV;
	}
	s->xch = xc_interface_open(&quiet, &quiet, 0);
	if (s->xch)
		s->xcall = xencall_open(&quiet, 0);
	if (s->xcall)
		s->fmem = xenforeignmemory_open(&quiet, 0);
	if (!s->fmem) {
		int e = errno;
		uf_err_set(err, UF_ETARGET, "xen", "cannot open privcmd: %s%s", UF_STRERROR(e),
			   e == EACCES || e == EPERM ? " (run as root)" : "");
		return -e;
	}
	s->hbuf_size = HB_SIZE;
	s->hbuf = xencall_alloc_buffer(s->xcall, s->hbuf_size);
	if (!s->hbuf) {
		uf_err_set(err, UF_ETARGET, "xen", "cannot allocate a hypercall buffer");
		return -ENOMEM;
	}
	s->xsh = xs_open(0);
	return 0;
}

/* Refuse what we cannot walk: 32-bit PV guests. */
static int check_guest(struct xen_state *s, struct uf_err *err)
{
	unsigned int width = 8;
	if (!s->hvm && xc_domain_get_guest_width(s->xch, s->domid, &width) == 0 && width != 8) {
		uf_err_set(err, UF_ETARGET, s->name, "32-bit PV guests are not supported "
			   "(only 64-bit PV, PVH and HVM)");
		return -ENOTSUP;
	}
	return 0;
}

static int op_stop(struct uf_target *t, struct uf_err *err)
{
	struct xen_state *s = t->priv;
	if (s->gone || xen_domain_check_gone(s)) {
		s->gone = true;
		return UF_TARGET_GONE;
	}
	s->epoch++;
	xen_mem_new_window(s);
	int rc = s->mc_off ? 1 : stop_batched(s);
	if (rc > 0) {  /* no multicall: the states, then the pause alone */
		info_each(s);
		t->n_hypercalls++;
		rc = domctl(s, XEN_DOMCTL_pausedomain);
	}
	if (rc) {
		if (errno == ESRCH || errno == EINVAL) {
			s->gone = true;
			return UF_TARGET_GONE;
		}
		uf_err_set(err, UF_ETARGET, s->name, "cannot pause: %s", UF_STRERROR(errno));
		return -errno;
	}
	s->paused = true;
	return 0;
}

static int op_resume(struct uf_target *t, struct uf_err *err)
{
	struct xen_state *s = t->priv;
	if (!s->paused)
		return 0;
	t->n_hypercalls++;
	if (domctl(s, XEN_DOMCTL_unpausedomain)) {
		if (errno == ESRCH || errno == EINVAL) {
			s->paused = false;
			s->gone = true;
			return UF_TARGET_GONE;
		}
		uf_err_set(err, UF_ETARGET, s->name, "cannot unpause: %s", UF_STRERROR(errno));
		return -errno;
	}
	s->paused = false;
	return 0;
}

static int op_threads(struct uf_target *t, uint32_t *ids, size_t max, size_t *n,
		      struct uf_err *err)
{
	struct xen_state *s = t->priv;
	if (s->vcpus_dirty && xen_domain_vcpus(s, err))
		return -ESRCH;
	*n = 0;
	for (uint32_t i = 0; i < s->nvcpu_slots && *n < max; i++)
		if (s->vcpu[i].online)
			ids[(*n)++] = i;
	return 0;
}

static int op_regs(struct uf_target *t, uint32_t id, struct uf_regs *r, struct uf_err *err)
{
	struct xen_state *s = t->priv;
	int rc = read_vcpu(s, id, err);
	if (rc == 0)
		*r = s->vcpu[id].regs;
	return rc;
}

static ssize_t op_read(struct uf_target *t, uint32_t id, uint64_t addr, void *buf, size_t len,
		       struct uf_err *err)
{
	struct xen_state *s = t->priv;
	if (id >= s->nvcpu_slots) {
		uf_err_set(err, UF_ETARGET, s->name, "no vCPU %u", id);
		return -EINVAL;
	}
	if (s->vcpu[id].epoch != s->epoch) {
		int rc = read_vcpu(s, id, err);
		if (rc)
			return rc < 0 ? rc : -ESRCH;
	}
	return xen_mem_read(s, &s->vcpu[id], addr, buf, len);
}

/* Pause and read the registers of every online vCPU in one multicall.
 * Returns 0 (paused; registers of this window filled where Xen gave
 * them), 1 when not batched (too many vCPUs, or the hypervisor refused
 * the multicall: never again), or -1 with errno when the pause failed. */
static int stop_batched(struct xen_state *s)
{
	multicall_entry_t *mc = s->hbuf;
	uint32_t ids[XEN_MC_VCPUS];
	unsigned n = 0;
	for (uint32_t i = 0; i < s->nvcpu_slots; i++) {
		if (!s->vcpu[i].online)
			continue;
		if (n == XEN_MC_VCPUS)
			return 1;
		ids[n++] = i;
	}
	/* entries: the n states (before the pause), the pause, the n registers */
	memset(mc, 0, (2 * n + 1) * sizeof *mc);
	for (unsigned j = 0; j < n; j++) {
		mc[j].op = __HYPERVISOR_domctl;
		mc[j].args[0] = (uintptr_t)info_args(s, n + 1 + j, ids[j]);
	}
	multicall_entry_t *pause = &mc[n];
	pause->op = __HYPERVISOR_domctl;
	pause->args[0] = (uintptr_t)dc_init(s, 0, XEN_DOMCTL_pausedomain);
	for (unsigned j = 0; j < n; j++) {
		pause[j + 1].op = __HYPERVISOR_domctl;
		pause[j + 1].args[0] = (uintptr_t)regs_args(s, j + 1, ids[j], ctx_slot(s, j));
	}
	if (xencall2(s->xcall, __HYPERVISOR_multicall, (uintptr_t)mc, 2 * n + 1) < 0) {
		s->mc_off = true;
		return 1;
	}
	s->t->n_hypercalls += 1 + 2 * n;  /* operations; one trip through privcmd */
	if ((long)pause->result < 0) {
		errno = (int)-(long)pause->result;
		return -1;
	}
	for (unsigned j = 0; j < n; j++) {
		if ((long)mc[j].result == 0)
			info_parse(s, &s->vcpu[ids[j]], dc_slot(s, n + 1 + j));
		if ((long)pause[j + 1].result != 0)
			continue;  /* read_vcpu() will ask again, alone, and report */
		regs_parse(s, &s->vcpu[ids[j]], ctx_slot(s, j));
		s->vcpu[ids[j]].epoch = s->epoch;
	}
	return 0;
}

/* Registers and paging state of vCPU `id` for this stop window. */
static int read_vcpu(struct xen_state *s, uint32_t id, struct uf_err *err)
{
	if (id >= s->nvcpu_slots || !s->vcpu[id].online) {
		uf_err_set(err, UF_ETARGET, s->name, "vCPU %u is not online", id);
		return -EINVAL;
	}
	struct xen_vcpu *v = &s->vcpu[id];
	if (v->epoch == s->epoch && s->paused)
		return 0;
	int rc = domctl_call(s, regs_args(s, 0, id, ctx_slot(s, 0)));
	s->t->n_hypercalls++;
	if (rc) {
		int e = errno;
		if (e == ESRCH)
			return UF_TARGET_GONE;
		if (e == ENODATA || e == EINVAL)
			s->vcpus_dirty = true;  /* went offline: re-list next time */
		uf_err_set(err, UF_ETARGET, s->name, "cannot read vCPU %u registers: %s", id, UF_STRERROR(e));
		return -e;
	}
	regs_parse(s, v, ctx_slot(s, 0));
	v->epoch = s->epoch;
	return 0;
}

/* Domctl slot i asking for vCPU id's registers into ctx: the vCPU
 * context for PV, the HVM CPU record (with CR0/CR3/CR4/EFER) otherwise. */
static struct xen_domctl *regs_args(struct xen_state *s, unsigned i, uint32_t id, void *ctx)
{
	struct xen_domctl *dc;
	if (!s->hvm) {
		dc = dc_init(s, i, XEN_DOMCTL_getvcpucontext);
		dc->u.vcpucontext.vcpu = id;
		set_xen_guest_handle_raw(dc->u.vcpucontext.ctxt, (vcpu_guest_context_t *)ctx);
		return dc;
	}
	dc = dc_init(s, i, XEN_DOMCTL_gethvmcontext_partial);
	dc->u.hvmcontext_partial.type = HVM_SAVE_CODE(CPU);
	dc->u.hvmcontext_partial.instance = id;
	dc->u.hvmcontext_partial.bufsz = sizeof(struct hvm_hw_cpu);
	set_xen_guest_handle_raw(dc->u.hvmcontext_partial.buffer, (uint8_t *)ctx);
	return dc;
}

static void regs_parse(struct xen_state *s, struct xen_vcpu *v, const void *ctx)
{
	if (!s->hvm) {
		const vcpu_guest_context_x86_64_t *c = ctx;
		v->regs = (struct uf_regs){ .pc = c->user_regs.rip, .sp = c->user_regs.rsp,
					    .fp = c->user_regs.rbp, .arch = UF_ARCH_X86_64 };
		/* A 64-bit PV kernel's page table is ctrlreg[3]; in user mode the
		 * vCPU runs on the user table in ctrlreg[1]. */
		uint64_t cr3 = (c->flags & VGCF_in_kernel) ? c->ctrlreg[3] : c->ctrlreg[1];
		v->root = cr3 >> 12;
		v->paging = XEN_PG_4LEVEL;
		return;
	}
	const struct hvm_hw_cpu *c = ctx;
	v->regs = (struct uf_regs){ .pc = c->rip, .sp = c->rsp, .fp = c->rbp, .arch = UF_ARCH_X86_64 };
	v->root = (c->cr3 & 0x000ffffffffff000ULL) >> 12;
	if (!(c->cr0 & X86_CR0_PG))
		v->paging = XEN_PG_NONE;
	else if ((c->msr_efer & X86_EFER_LMA) && (c->cr4 & X86_CR4_PAE) && !(c->cr4 & X86_CR4_LA57))
		v->paging = XEN_PG_4LEVEL;
	else
		v->paging = XEN_PG_UNSUPPORTED;  /* 32-bit or 5-level paging */
}

/* XEN_DOMCTL_getvcpuinfo of vCPU `id` in domctl slot i. */
static struct xen_domctl *info_args(struct xen_state *s, unsigned i, uint32_t id)
{
	struct xen_domctl *dc = dc_init(s, i, XEN_DOMCTL_getvcpuinfo);
	dc->u.getvcpuinfo.vcpu = id;
	return dc;
}

static void info_parse(struct xen_state *s, struct xen_vcpu *v, const struct xen_domctl *dc)
{
	const struct xen_domctl_getvcpuinfo *i = &dc->u.getvcpuinfo;
	v->rs = !i->online ? UF_RS_OFFLINE : i->running ? UF_RS_RUNNING
		: i->blocked ? UF_RS_BLOCKED : UF_RS_RUNNABLE;
	v->cpu_ns = i->cpu_time;
	v->rs_epoch = s->epoch;
}

/* Without the multicall: each online vCPU's state, one domctl each, just
 * before the pause. */
static void info_each(struct xen_state *s)
{
	for (uint32_t id = 0; id < s->nvcpu_slots; id++) {
		if (!s->vcpu[id].online)
			continue;
		s->t->n_hypercalls++;
		struct xen_domctl *dc = info_args(s, 0, id);
		if (domctl_call(s, dc) == 0)
			info_parse(s, &s->vcpu[id], dc);
	}
}

/* The state read before this window's pause; unknown when that read
 * failed or the vCPU came online since. */
static int op_runstate(struct uf_target *t, uint32_t id, enum uf_runstate *state,
		       uint64_t *run_ns, struct uf_err *err)
{
	struct xen_state *s = t->priv;
	(void)err;
	int known = id < s->nvcpu_slots && s->vcpu[id].rs_epoch == s->epoch;
	*state = known ? s->vcpu[id].rs : UF_RS_UNKNOWN;
	*run_ns = known ? s->vcpu[id].cpu_ns : 0;
	return 0;
}

static struct xen_domctl *dc_slot(struct xen_state *s, unsigned i)
{
	return (struct xen_domctl *)((char *)s->hbuf + HB_DC_OFF + i * HB_DC_SIZE);
}

static void *ctx_slot(struct xen_state *s, unsigned j)
{
	return (char *)s->hbuf + HB_CTX_OFF + j * HB_CTX_SIZE;
}

static struct xen_domctl *dc_init(struct xen_state *s, unsigned i, uint32_t cmd)
{
	struct xen_domctl *dc = dc_slot(s, i);
	memset(dc, 0, sizeof *dc);
	dc->cmd = cmd;
	dc->interface_version = XEN_DOMCTL_INTERFACE_VERSION;
	dc->domain = (domid_t)s->domid;
	return dc;
}

/* One argument-less domctl (pause, unpause); 0, or -1 with errno. */
static int domctl(struct xen_state *s, uint32_t cmd)
{
	return domctl_call(s, dc_init(s, 0, cmd));
}

static int domctl_call(struct xen_state *s, struct xen_domctl *dc)
{
	return xencall1(s->xcall, __HYPERVISOR_domctl, (uint64_t)(uintptr_t)dc) < 0 ? -1 : 0;
}

static void op_detach(struct uf_target *t)
{
	struct xen_state *s = t->priv;
	if (!s)
		return;
	if (s->paused && !s->gone)
		domctl(s, XEN_DOMCTL_unpausedomain);
	s->paused = false;
	if (s->creation_pause && !s->gone)
		domctl(s, XEN_DOMCTL_unpausedomain);
	s->creation_pause = false;
	if (s->created && s->destroy)
		xen_domain_destroy(s);
	release(s);
	t->priv = NULL;
}

static void release(struct xen_state *s)
{
	xen_mem_release(s);
	if (s->xsh)
		xs_close(s->xsh);
	if (s->hbuf)
		xencall_free_buffer(s->xcall, s->hbuf);
	if (s->fmem)
		xenforeignmemory_close(s->fmem);
	if (s->xcall)
		xencall_close(s->xcall);
	if (s->xch)
		xc_interface_close(s->xch);
	free(s->vcpu);
	free(s);
}

static void quiet_vmessage(struct xentoollog_logger *l, xentoollog_level level, int errnoval,
			   const char *context, const char *format, va_list al)
{
}

static void quiet_progress(struct xentoollog_logger *l, const char *context, const char *doing,
			   int percent, unsigned long done, unsigned long total)
{
}

static void quiet_destroy(struct xentoollog_logger *l)
{
}

static const struct uf_target_ops xen_ops = {
	.name = "xen",
	.caps = UF_TARGET_CAP_VCPUS | UF_TARGET_CAP_COST | UF_TARGET_CAP_RUNSTATE,
	.stop = op_stop,
	.resume = op_resume,
	.threads = op_threads,
	.regs = op_regs,
	.read = op_read,
	.detach = op_detach,
	.runstate = op_runstate,
};
