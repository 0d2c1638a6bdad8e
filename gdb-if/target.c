/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * gdb-if/target.c — the gdbstub target (target.h) over gdb-if/conn.c; see
 * gdb.h for what one sample costs and why.
 *
 * States (target.h) and the request behind each transition:
 *
 *     (new) --gdb_target_attach: qSupported, QStartNoAckMode, ?,
 *              qfThreadInfo, qXfer target.xml, c--> RUNNING
 *     RUNNING --gstop: 0x03, wait for T/S (QEMU: with g and the stack
 *              window in the same write, stop_prefetch)--> STOPPED
 *     RUNNING --gstop, fused (QEMU, one vCPU, the stack fitted last time):
 *              0x03, g, m, c in one write, stop_fused--> "STOPPED" (the
 *              replies describe one instant; gresume sends nothing)
 *     STOPPED --gresume: c (no reply)--> RUNNING
 *     any --gdetach: (RUNNING: 0x03, wait for T/S) D (reply awaited
 *              briefly)--> (closed)
 *
 * Invariants:
 *  1. The memory cache holds bytes of one stop and one thread only: it is
 *     emptied by stop, resume and a change of thread.
 *  2. `cur` mirrors the stub's Hg thread; QEMU resets it to the stopping
 *     vCPU on every stop, so a stop reply updates it (0 = unknown).
 *  3. In a pipelined batch the replies are always all read, even after one
 *     fails, so the byte stream stays in step.
 *  4. Run state (grunstate): a vCPU is blocked when the instruction just
 *     before its pc is a halt (x86 `hlt`, 0xf4; AArch64 `wfi`): QEMU
 *     leaves pc past it while the vCPU sleeps.  The answer per pc is
 *     kept in `halt_cache` for the whole run, on the assumption that
 *     guest code does not change under a pc (self-modifying or reloaded
 *     code may be misjudged).  x86 code is read backwards by one byte,
 *     so a longer instruction whose last byte is 0xf4 also reads as a
 *     halt: on x86 a vCPU is therefore called blocked only when it also
 *     sits at the pc and sp of its previous sample (a halted vCPU does not
 *     move; code that merely follows such a byte does, almost always).
 *     The first sample of each halt reads as running.  AArch64's fixed
 *     4-byte instructions have no such ambiguity.
 *     A fused sample cannot read code (the guest runs again): its state
 *     is unknown on a cache miss, and the next sample is a full one.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gdb-if/conn.h"
#include "gdb-if/gdb.h"
#include "gdb-if/packet.h"

#define CACHE_N 8          /* memory chunks kept per stop */
#define SPEC_BELOW 256     /* speculative window starts this far below the lowest sp */
#define SPEC_ABOVE 256     /* ... and ends this far above the highest word a walk asked for */
#define MAX_SKIPPED 64     /* console (`O`) packets tolerated before a stop reply */
#define MAX_REQ 8          /* requests in one batch */
#define PAGE 4096
#define HALT_CACHE 512     /* pcs whose halt-or-not answer is kept (invariant 4) */

struct gthread {
	uint32_t id;
	uint64_t last_sp;      /* sp at the previous sample, for speculation */
	int have_sp;
	/* The stack seen lately: [lo_sp, hi_need) holds every sample's sp and
	 * every word a walk asked for (see stack_range). */
	uint64_t lo_sp, hi_need;
	int missed;            /* its last walk needed memory beyond the window */
	/* pc and sp at the previous run-state query (invariant 4: x86's
	 * one-byte look-back is trusted only where the vCPU has not moved) */
	uint64_t rs_pc, rs_sp;
	int have_rs;
};

struct chunk {
	uint64_t addr;
	size_t len;            /* 0 = empty slot */
	uint8_t *data;         /* mmax bytes, inside gdb_target.cache_mem */
};

struct gdb_target {
	struct gdb_conn c;
	struct uf_target *t;
	size_t packet_size;    /* the stub's PacketSize */
	size_t mmax;           /* bytes per `m` that fit a reply packet */
	size_t nwin;           /* `m` requests per stack window */
	int stopped;
	uint32_t cur;          /* invariant 2 */
	uint32_t last_tid;     /* the vCPU that reported the previous stop */
	int exact;             /* gdb_opts.exact: never fuse */
	int fused;             /* this sample was fused: the guest runs already */
	int pre_valid;         /* pre_regs are pre_tid's registers at this stop */
	uint32_t pre_tid;
	struct uf_regs pre_regs;
	uint32_t pid;          /* multiprocess thread ids ("pP.T"), else 0 */
	struct gthread *th;
	size_t nth;
	uint32_t cache_tid;    /* invariant 1 */
	struct chunk cache[CACHE_N];
	size_t next_slot;
	uint8_t *cache_mem;
	int rs_valid;          /* rs_regs are rs_tid's registers at this stop */
	uint32_t rs_tid;
	struct uf_regs rs_regs;
	struct {
		uint64_t pc1;      /* pc + 1; 0 = empty slot */
		int halted;
	} halt_cache[HALT_CACHE];
};

/* One request of a batch and where its reply goes. */
struct req {
	char text[64];
	int kind;              /* REQ_OK, REQ_REGS, REQ_MEM */
	uint64_t addr;
	size_t len;
};
enum { REQ_OK = 1, REQ_REGS, REQ_MEM };

static const struct uf_target_ops gdb_ops;
static int handshake(struct gdb_target *g, struct uf_err *err);
static int batch(struct gdb_target *g, struct req *r, size_t n, struct uf_regs *regs,
		 struct uf_err *err);
static int handle(struct gdb_target *g, const struct req *q, struct uf_regs *regs,
		  struct uf_err *err);
static void cache_clear(struct gdb_target *g);
static int can_fuse(struct gdb_target *g);
static int stop_fused(struct gdb_target *g, struct uf_err *err);
static int poison(struct gdb_target *g, struct uf_err *err);
static void add_select(struct gdb_target *g, uint32_t id, struct req *r, size_t *n);
static void add_window(struct gdb_target *g, uint64_t lo, struct req *r, size_t *n);
static void add_stack(struct gdb_target *g, const struct gthread *th, struct req *r, size_t *n);
static int stack_range(const struct gdb_target *g, const struct gthread *th, uint64_t *lo,
		       size_t *len);
static void note_sp(struct gdb_target *g, struct gthread *th, uint64_t sp);
static int is_stack_read(const struct gdb_target *g, const struct gthread *th, uint64_t addr);
static size_t cache_copy(struct gdb_target *g, uint64_t addr, uint8_t *buf, size_t len);
static struct gthread *find_thread(struct gdb_target *g, uint32_t id);
static int read_to_page_end(struct gdb_target *g, uint32_t id, uint64_t addr,
			    struct uf_err *err);
static void destroy(struct gdb_target *g);
static int halted_at(struct gdb_target *g, struct gthread *th, uint64_t pc, struct uf_err *err);
static ssize_t gread(struct uf_target *t, uint32_t id, uint64_t addr, void *buf, size_t len,
		     struct uf_err *err);

/* ---- public ---------------------------------------------------------- */

int gdb_target_attach(struct uf_target *t, const char *addr, const struct gdb_opts *opts,
		      struct uf_err *err)
{
	struct gdb_target *g = calloc(1, sizeof *g);
	if (!g) {
		uf_err_set(err, UF_ETARGET, addr, "out of memory");
		return -ENOMEM;
	}
	unsigned tmo = opts && opts->timeout_ms ? opts->timeout_ms : GDB_DEFAULT_TIMEOUT_MS;
	size_t window = opts && opts->window ? opts->window : 4096;
	g->exact = opts && opts->exact;
	int rc = gdb_conn_open(&g->c, addr, tmo, err);
	if (rc < 0) {
		free(g);
		return rc;
	}
	memset(t, 0, sizeof *t);
	g->t = t;
	t->ops = &gdb_ops;
	t->priv = g;
	t->arch = UF_ARCH_X86_64;
	rc = handshake(g, err);
	if (rc == 0) {
		g->nwin = (window + g->mmax - 1) / g->mmax;
		g->nwin = g->nwin < 1 ? 1 : g->nwin > CACHE_N / 2 ? CACHE_N / 2 : g->nwin;
		g->cache_mem = malloc(CACHE_N * g->mmax);
		for (size_t i = 0; g->cache_mem && i < CACHE_N; i++)
			g->cache[i].data = g->cache_mem + i * g->mmax;
		if (!g->cache_mem)
			rc = -ENOMEM, uf_err_set(err, UF_ETARGET, g->c.addr, "out of memory");
	}
	if (rc == 0)
		rc = t->ops->resume(t, err);
	if (rc != 0) {
		if (rc == UF_TARGET_GONE)
			uf_err_set(err, UF_ETARGET, g->c.addr, "closed the connection during attach");
		t->ops->detach(t);
		memset(t, 0, sizeof *t);
		return rc < 0 ? rc : -ECONNRESET;
	}
	return 0;
}

/* ---- target ops ------------------------------------------------------ */

/* A stop reply: T/S stopped, W/X the guest is gone.  Updates cur. */
static int stop_reply(struct gdb_target *g, struct uf_err *err)
{
	const char *r = g->c.reply;
	if (r[0] == 'W' || r[0] == 'X')
		return UF_TARGET_GONE;
	if (r[0] != 'T' && r[0] != 'S') {
		uf_err_set(err, UF_ETARGET, g->c.addr, "unexpected stop reply '%.20s'", r);
		return poison(g, err);
	}
	g->cur = 0;
	const char *th = strstr(r, "thread:");
	if (th) {
		const char *p = th + 7, *end = r + g->c.replylen;
		uint64_t v;
		if (*p == 'p' && (p = strchr(p, '.')) != NULL)
			p++;
		if (p && gdb_hex_num(&p, end, &v) == 0 && v <= UINT32_MAX)
			g->cur = (uint32_t)v;
	}
	g->stopped = 1;
	return 0;
}

/* Wait for the stop reply, skipping console output (bounded). */
static int recv_stop(struct gdb_target *g, struct uf_err *err)
{
	for (int skipped = 0;; skipped++) {
		int rc = gdb_conn_recv(&g->c, err);
		if (rc != 0)
			return rc;
		const char *r = g->c.reply;
		if (r[0] == 'O' && r[1] && strspn(r + 1, "0123456789abcdefABCDEF") ==
		    g->c.replylen - 1 && skipped < MAX_SKIPPED)
			continue;
		return stop_reply(g, err);
	}
}

/* QEMU stops the VM synchronously on the byte that interrupts it and
 * parses what follows with the VM stopped, the Hg thread reset to the
 * stopping vCPU: 0x03, `g` and the speculative stack window go in one
 * write, and stop + registers + stack cost one round trip. */
static int stop_prefetch(struct gdb_target *g, struct uf_err *err)
{
	struct req r[MAX_REQ];
	size_t n = 0;
	struct gthread *th = find_thread(g, g->last_tid);
	r[n++] = (struct req){ .text = "g", .kind = REQ_REGS };
	if (th && th->have_sp)
		add_stack(g, th, r, &n);
	int rc = gdb_conn_queue_raw(&g->c, "\x03", 1, err);
	for (size_t i = 0; rc == 0 && i < n; i++)
		rc = gdb_conn_queue(&g->c, r[i].text, err);
	if (rc == 0)
		rc = gdb_conn_flush(&g->c, err);
	int first = rc == 0 ? recv_stop(g, err) : 0;
	if (rc != 0 || first == UF_TARGET_GONE)
		return rc != 0 ? rc : first;
	for (size_t i = 0; rc == 0 && i < n; i++) {   /* invariant 3 */
		rc = gdb_conn_recv(&g->c, err);
		if (rc == 0 && first == 0)
			first = handle(g, &r[i], &g->pre_regs, err);
	}
	if (rc == 0 && first == 0 && g->cur) {
		g->pre_valid = 1;
		g->pre_tid = g->cache_tid = g->last_tid = g->cur;
	} else {
		cache_clear(g);
	}
	return rc != 0 ? rc : first;
}

/* A one-vCPU guest whose stack fitted the window last time: 0x03, `g`,
 * the window and `c` go in one write, so QEMU stops, answers and resumes
 * the guest in one pass of its main loop; the guest's pause no longer
 * waits for this process to be scheduled.  Reads beyond the window are
 * then refused (the guest runs again): the walk ends there, and the next
 * sample is a full one. */
static int can_fuse(struct gdb_target *g)
{
	const struct gthread *th = &g->th[0];
	uint64_t lo;
	size_t len;
	return !g->exact && g->nth == 1 && th->have_sp && !th->missed &&
	       stack_range(g, th, &lo, &len);
}

static int stop_fused(struct gdb_target *g, struct uf_err *err)
{
	struct req r[MAX_REQ];
	size_t n = 0;
	struct gthread *th = &g->th[0];
	r[n++] = (struct req){ .text = "g", .kind = REQ_REGS };
	add_stack(g, th, r, &n);
	int rc = gdb_conn_queue_raw(&g->c, "\x03", 1, err);
	for (size_t i = 0; rc == 0 && i < n; i++)
		rc = gdb_conn_queue(&g->c, r[i].text, err);
	if (rc == 0)
		rc = gdb_conn_queue(&g->c, "c", err);
	if (rc == 0)
		rc = gdb_conn_flush(&g->c, err);
	int first = rc == 0 ? recv_stop(g, err) : 0;
	g->stopped = 0;   /* whatever happens next, `c` is on its way */
	if (rc != 0 || first == UF_TARGET_GONE)
		return rc != 0 ? rc : first;
	for (size_t i = 0; rc == 0 && i < n; i++) {   /* invariant 3 */
		rc = gdb_conn_recv(&g->c, err);
		if (rc == 0 && first == 0)
			first = handle(g, &r[i], &g->pre_regs, err);
	}
	if (rc != 0 || first != 0)
		return rc != 0 ? rc : first;
	g->fused = g->pre_valid = 1;
	g->pre_tid = g->cache_tid = g->last_tid = th->id;
	return 0;
}

static int gstop(struct uf_target *t, struct uf_err *err)
{
	struct gdb_target *g = t->priv;
	cache_clear(g);
	g->pre_valid = g->rs_valid = 0;
	t->n_hypercalls++;
	g->fused = 0;
	if (g->c.pipeline && can_fuse(g))
		return stop_fused(g, err);
	for (size_t i = 0; i < g->nth; i++)
		g->th[i].missed = 0;   /* a full walk now tells whether the window fits */
	if (g->c.pipeline)
		return stop_prefetch(g, err);
	int rc = gdb_conn_raw(&g->c, "\x03", 1, err);
	return rc == 0 ? recv_stop(g, err) : rc;
}

static int gresume(struct uf_target *t, struct uf_err *err)
{
	struct gdb_target *g = t->priv;
	cache_clear(g);
	g->pre_valid = g->rs_valid = 0;
	if (g->fused) {   /* resumed by stop_fused() already */
		g->fused = 0;
		return g->c.gone ? UF_TARGET_GONE : 0;
	}
	int rc = gdb_conn_queue(&g->c, "c", err);
	if (rc == 0)
		rc = gdb_conn_flush(&g->c, err);
	if (rc == 0)
		g->stopped = 0;
	return rc;
}

static int gthreads(struct uf_target *t, uint32_t *ids, size_t max, size_t *n,
		    struct uf_err *err)
{
	struct gdb_target *g = t->priv;
	size_t k = g->nth < max ? g->nth : max;
	for (size_t i = 0; i < k; i++)
		ids[i] = g->th[i].id;
	*n = k;
	return 0;
}

/* Hg (when needed), g, and the previous window speculatively: one round
 * trip in no-ack mode. */
static int gregs(struct uf_target *t, uint32_t id, struct uf_regs *regs, struct uf_err *err)
{
	struct gdb_target *g = t->priv;
	struct gthread *th = find_thread(g, id);
	struct req r[MAX_REQ];
	size_t n = 0;
	if (!th) {
		uf_err_set(err, UF_ETARGET, g->c.addr, "no thread %u", id);
		return -ESRCH;
	}
	if (g->rs_valid && id == g->rs_tid) {   /* read by grunstate at this stop */
		*regs = g->rs_regs;
		return 0;
	}
	if (g->pre_valid && id == g->pre_tid) {   /* fetched with the stop */
		*regs = g->pre_regs;
		note_sp(g, th, regs->sp);
		return 0;
	}
	if (g->cache_tid != id)
		cache_clear(g);
	g->cache_tid = id;
	add_select(g, id, r, &n);
	r[n++] = (struct req){ .text = "g", .kind = REQ_REGS };
	if ((g->c.noack || g->c.pipeline) && th->have_sp)
		add_stack(g, th, r, &n);
	memset(regs, 0, sizeof *regs);
	int rc = batch(g, r, n, regs, err);
	if (rc == 0)
		note_sp(g, th, regs->sp);
	return rc;
}

/* Invariant 4: blocked when stopped right after a halt, else running.
 * The registers it reads are kept for the gregs call that follows. */
static int grunstate(struct uf_target *t, uint32_t id, enum uf_runstate *state,
		     uint64_t *run_ns, struct uf_err *err)
{
	struct gdb_target *g = t->priv;
	struct gthread *th = find_thread(g, id);
	struct uf_regs r;
	*state = UF_RS_UNKNOWN;
	*run_ns = 0;   /* the gdbstub has no per-vCPU clock */
	if (!th)
		return 0;
	int rc = gregs(t, id, &r, err);
	if (rc != 0)
		return rc;
	g->rs_regs = r;
	g->rs_tid = id;
	g->rs_valid = 1;
	int h = halted_at(g, th, r.pc, err);
	if (h < 0 && h != -EAGAIN)
		return h;
	int still = th->have_rs && th->rs_pc == r.pc && th->rs_sp == r.sp;
	th->rs_pc = r.pc;
	th->rs_sp = r.sp;
	th->have_rs = 1;
	if (h == 1 && g->t->arch != UF_ARCH_AARCH64 && !still)
		h = 0;   /* invariant 4: x86 halts only where the vCPU has not moved */
	*state = h == 1 ? UF_RS_BLOCKED : h == 0 ? UF_RS_RUNNING : UF_RS_UNKNOWN;
	return 0;
}

static ssize_t gread(struct uf_target *t, uint32_t id, uint64_t addr, void *buf, size_t len,
		     struct uf_err *err)
{
	struct gdb_target *g = t->priv;
	uint8_t *out = buf;
	size_t done = 0;
	if (g->cache_tid != id)
		cache_clear(g);
	g->cache_tid = id;
	while (done < len) {
		size_t k = cache_copy(g, addr + done, out + done, len - done);
		if (k > 0) {
			done += k;
			continue;
		}
		if (done > 0)
			break;   /* gdb.h: the rest would cost another round trip */
		struct gthread *th = find_thread(g, id);
		if (th && is_stack_read(g, th, addr + done)) {
			th->missed = 1;   /* the stack outgrew the window: fetch it whole next time */
			if (addr + done + 8 > th->hi_need)
				th->hi_need = addr + done + 8;
		}
		if (g->fused)
			break;   /* the guest runs again: nothing consistent to read */
		struct req r[MAX_REQ];
		size_t n = 0;
		add_select(g, id, r, &n);
		add_window(g, (addr + done) & ~(uint64_t)15, r, &n);
		int rc = batch(g, r, n, NULL, err);
		if (rc == UF_TARGET_GONE)
			break;   /* nothing more to read; resume() reports it */
		if (rc != 0)
			return rc;
		if (cache_copy(g, addr + done, out + done, len - done) == 0 &&
		    (rc = read_to_page_end(g, id, addr + done, err)) != 0)
			return rc < 0 ? rc : (ssize_t)done;   /* gone: short */
		if (cache_copy(g, addr + done, out + done, len - done) == 0)
			break;   /* unreadable: a short read, not an error */
	}
	return (ssize_t)done;
}

/* The window failed as a whole (QEMU fails an `m` that touches any
 * unmapped byte): retry up to the end of addr's page only. */
static int read_to_page_end(struct gdb_target *g, uint32_t id, uint64_t addr,
			    struct uf_err *err)
{
	struct req r[MAX_REQ];
	size_t n = 0, len = PAGE - (size_t)(addr % PAGE);
	len = len < g->mmax ? len : g->mmax;
	add_select(g, id, r, &n);
	r[n] = (struct req){ .kind = REQ_MEM, .addr = addr, .len = len };
	snprintf(r[n].text, sizeof r[n].text, "m%llx,%zx", (unsigned long long)addr, len);
	return batch(g, r, n + 1, NULL, err);
}

static void gdetach(struct uf_target *t)
{
	struct gdb_target *g = t ? t->priv : NULL;
	if (!g)
		return;
	if (g->c.fd >= 0 && !g->c.gone) {
		/* Best effort even on a poisoned stream: `D` resumes the guest. */
		struct uf_err ignore = { 0 };
		g->c.poisoned = 0;
		g->c.txlen = 0;
		g->c.timeout_ms = g->c.timeout_ms < 500 ? g->c.timeout_ms : 500;
		/* QEMU's stub stops a running guest on whatever byte it reads
		 * and drops that byte: a `D` sent while the guest runs (after a
		 * resume or a fused sample, which is how sampling ends) would be
		 * lost, and the guest left paused for good (a launched QEMU then
		 * never exits).  So stop it first (0x03, owed acks after it:
		 * conn.c write_all), then `D`, which QEMU and gdbserver answer by
		 * resuming the guest. */
		if (!g->stopped) {
			if (gdb_conn_raw(&g->c, "\x03", 1, &ignore) == 0)
				(void)recv_stop(g, &ignore);
		}
		if (gdb_conn_call(&g->c, "D", &ignore) != 0 && g->stopped)
			gdb_conn_raw(&g->c, "$c#63", 5, &ignore);
	}
	destroy(g);
	t->priv = NULL;
}

static const struct uf_target_ops gdb_ops = {
	.name = "gdb",
	.caps = UF_TARGET_CAP_VCPUS | UF_TARGET_CAP_RUNSTATE,
	.stop = gstop,
	.resume = gresume,
	.threads = gthreads,
	.regs = gregs,
	.read = gread,
	.detach = gdetach,
	.runstate = grunstate,
};

/* ---- helpers: attach ------------------------------------------------- */

/* qSupported: PacketSize and the features we use. */
static int supported(struct gdb_target *g, int *noack, int *xml, struct uf_err *err)
{
	int rc = gdb_conn_call(&g->c, "qSupported", err);
	if (rc != 0)
		return rc;
	const char *r = g->c.reply, *ps = strstr(r, "PacketSize=");
	uint64_t v = 400;   /* the protocol's default when none is stated */
	if (ps) {
		ps += 11;
		if (gdb_hex_num(&ps, r + g->c.replylen, &v) < 0)
			v = 400;
	}
	v = v < 64 ? 64 : v > GDB_PKT_MAX_RAW ? GDB_PKT_MAX_RAW : v;
	g->packet_size = v;
	g->mmax = ((v - 4) / 2) & ~(size_t)15;
	if (g->mmax > GDB_REPLY_MAX / 2)
		g->mmax = GDB_REPLY_MAX / 2;
	*noack = strstr(r, "QStartNoAckMode+") != NULL;
	*xml = strstr(r, "qXfer:features:read+") != NULL;
	return 0;
}

/* Parse one qfThreadInfo/qsThreadInfo reply body ("m1,2,3"). */
static int thread_list(struct gdb_target *g, struct uf_err *err)
{
	const char *p = g->c.reply + 1, *end = g->c.reply + g->c.replylen;
	while (p < end) {
		uint64_t pid = 0, v;
		if (*p == 'p' && (++p, gdb_hex_num(&p, end, &pid) < 0 || *p++ != '.'))
			break;
		if (gdb_hex_num(&p, end, &v) < 0 || v == 0 || v > UINT32_MAX)
			break;
		if (g->nth >= UF_TARGET_MAX_THREADS) {
			uf_err_set(err, UF_ETARGET, g->c.addr, "more than %d threads",
				   UF_TARGET_MAX_THREADS);
			return -E2BIG;
		}
		g->pid = (uint32_t)pid;
		g->th[g->nth++] = (struct gthread){ .id = (uint32_t)v };
		if (p < end && *p++ != ',')
			break;
	}
	if (p < end) {
		uf_err_set(err, UF_ETARGET, g->c.addr, "malformed thread list '%.40s'", g->c.reply);
		return -EPROTO;
	}
	return 0;
}

/* The vCPUs.  A stub without qfThreadInfo gets one pseudo-thread 0
 * ("any thread"), for which no Hg is ever sent. */
static int threads_query(struct gdb_target *g, struct uf_err *err)
{
	/* not calloc: an entry is written whole when its thread is found and
	 * none past nth is read; zeroing 96 KiB per attach was most of the
	 * fuzz-gdb-target harness's time */
	g->th = malloc(UF_TARGET_MAX_THREADS * sizeof *g->th);
	if (!g->th) {
		uf_err_set(err, UF_ETARGET, g->c.addr, "out of memory");
		return -ENOMEM;
	}
	const char *q = "qfThreadInfo";
	for (int i = 0; i <= UF_TARGET_MAX_THREADS; i++, q = "qsThreadInfo") {
		int rc = gdb_conn_call(&g->c, q, err);
		if (rc != 0)
			return rc;
		if (g->c.reply[0] != 'm')
			break;   /* "l" ends the list; "" means unsupported */
		if ((rc = thread_list(g, err)) < 0)
			return rc;
	}
	if (g->nth == 0)
		g->th[g->nth++] = (struct gthread){ .id = 0 };
	return 0;
}

/* The architecture, from the first chunk of target.xml. */
static int arch_query(struct gdb_target *g, struct uf_err *err)
{
	char q[64];
	snprintf(q, sizeof q, "qXfer:features:read:target.xml:0,%zx", g->packet_size - 16);
	int rc = gdb_conn_call(&g->c, q, err);
	if (rc == 0 && strstr(g->c.reply, "aarch64"))
		g->t->arch = UF_ARCH_AARCH64;
	return rc;
}

static int handshake(struct gdb_target *g, struct uf_err *err)
{
	int noack = 0, xml = 0;
	int rc = supported(g, &noack, &xml, err);
	if (rc == 0 && noack) {
		rc = gdb_conn_call(&g->c, "QStartNoAckMode", err);
		g->c.noack = rc == 0 && !strcmp(g->c.reply, "OK");
	}
	/* QEMU answers its own query and reads on without waiting for our
	 * acks, so requests can be pipelined even in ack mode (QEMU 7.2 has
	 * no no-ack mode). */
	if (rc == 0 && !g->c.noack && (rc = gdb_conn_call(&g->c, "qqemu.sstepbits", err)) == 0)
		g->c.pipeline = strncmp(g->c.reply, "ENABLE=", 7) == 0;
	if (rc == 0)
		rc = gdb_conn_call(&g->c, "?", err);
	if (rc == 0 && g->c.reply[0] != 'T' && g->c.reply[0] != 'S') {
		uf_err_set(err, UF_ETARGET, g->c.addr, "guest is not stopped on attach ('%.20s')",
			   g->c.reply);
		rc = g->c.reply[0] == 'W' || g->c.reply[0] == 'X' ? UF_TARGET_GONE : -EPROTO;
	}
	if (rc == 0)
		rc = stop_reply(g, err);
	if (rc == 0)
		rc = threads_query(g, err);
	if (rc == 0 && xml)
		rc = arch_query(g, err);
	return rc;
}

static void destroy(struct gdb_target *g)
{
	gdb_conn_close(&g->c);
	free(g->th);
	free(g->cache_mem);
	free(g);
}

/* ---- helpers: requests ----------------------------------------------- */

static void add_select(struct gdb_target *g, uint32_t id, struct req *r, size_t *n)
{
	if (id == 0 || id == g->cur)
		return;
	struct req *q = &r[(*n)++];
	*q = (struct req){ .kind = REQ_OK };
	if (g->pid)
		snprintf(q->text, sizeof q->text, "Hgp%x.%x", g->pid, id);
	else
		snprintf(q->text, sizeof q->text, "Hg%x", id);
	g->cur = id;   /* on failure the batch fails and cur is reset */
}

/* `m` requests for one window at lo, pipelined (ack mode: just one). */
static void add_window(struct gdb_target *g, uint64_t lo, struct req *r, size_t *n)
{
	size_t k = g->c.noack || g->c.pipeline ? g->nwin : 1;
	for (size_t i = 0; i < k && *n < MAX_REQ; i++) {
		uint64_t a = lo + i * g->mmax;
		if (a < lo)
			break;   /* wrapped past the top of the address space */
		struct req *q = &r[(*n)++];
		*q = (struct req){ .kind = REQ_MEM, .addr = a, .len = g->mmax };
		snprintf(q->text, sizeof q->text, "m%llx,%zx", (unsigned long long)a, g->mmax);
	}
}

/* The stack window of the next sample: [lowest sp seen - SPEC_BELOW,
 * highest word needed + SPEC_ABOVE), at least the configured window above
 * the last sp.  Why not just around the last sp: a stack whose depth
 * changes between samples by more than the window (a recursive parser)
 * left the deeper frames, or the outer ones, outside it, and a fused
 * sample cannot read more (the guest runs again): 24 % of the walks of
 * examples/ukguest ended "unreadable" that way.  The range learns both
 * ends from the samples and the walks (note_sp, gread).  1 when it fits
 * in one batch (MAX_REQ - 1 `m` requests beside the `g`), which fusing
 * requires; else *len is what is fetched (from the low end). */
static int stack_range(const struct gdb_target *g, const struct gthread *th, uint64_t *lo,
		       size_t *len)
{
	uint64_t low = th->lo_sp < th->last_sp ? th->lo_sp : th->last_sp, high = th->hi_need;
	size_t window = g->nwin * g->mmax, most = (MAX_REQ - 1) * g->mmax;
	low = (low > SPEC_BELOW ? low - SPEC_BELOW : 0) & ~(uint64_t)15;
	high = high < UINT64_MAX - SPEC_ABOVE ? high + SPEC_ABOVE : UINT64_MAX;
	if (th->last_sp < UINT64_MAX - window && high < th->last_sp + window)
		high = th->last_sp + window;
	*lo = low;
	*len = high - low > most ? most : (size_t)(high - low);
	return high - low <= most;
}

/* `m` requests for the thread's stack window (stack_range). */
static void add_stack(struct gdb_target *g, const struct gthread *th, struct req *r, size_t *n)
{
	uint64_t lo;
	size_t len;
	stack_range(g, th, &lo, &len);
	size_t save = g->nwin, k = (len + g->mmax - 1) / g->mmax;
	g->nwin = k < 1 ? 1 : k;
	add_window(g, lo, r, n);
	g->nwin = save;
}

/* A new sample's sp widens the range; a range that no longer fits one
 * batch (another stack: a thread switch in the guest, an interrupt
 * stack) starts again from this sp. */
static void note_sp(struct gdb_target *g, struct gthread *th, uint64_t sp)
{
	uint64_t most = (MAX_REQ - 1) * g->mmax;
	if (!th->have_sp || sp + 8 < sp) {
		th->lo_sp = sp;
		th->hi_need = sp + 8 < sp ? sp : sp + 8;
	} else {
		th->lo_sp = sp < th->lo_sp ? sp : th->lo_sp;
		th->hi_need = sp + 8 > th->hi_need ? sp + 8 : th->hi_need;
		if (th->hi_need - th->lo_sp > most) {
			th->lo_sp = sp;
			th->hi_need = sp + 8;
		}
	}
	th->last_sp = sp;
	th->have_sp = 1;
}

/* Could this read be part of the stack walk (within one batch's reach
 * above this sample's sp)?  Code reads (unwind/walk.c's leaf check) are
 * not, and neither grow the range nor cost the next sample its fusing. */
static int is_stack_read(const struct gdb_target *g, const struct gthread *th, uint64_t addr)
{
	return th->have_sp && addr >= th->last_sp &&
	       addr - th->last_sp < (uint64_t)(MAX_REQ - 1) * g->mmax;
}

/* Registers from a `g` reply, at the arch's offsets (hex chars). */
static int parse_regs(struct gdb_target *g, struct uf_regs *regs, struct uf_err *err)
{
	const char *h = g->c.reply;
	size_t n = g->c.replylen;
	int bad;
	regs->arch = g->t->arch;
	if (regs->arch == UF_ARCH_AARCH64)   /* x0..x30, sp, pc: fp = x29, lr = x30 */
		bad = gdb_reg_le(h, n, 29 * 16, 8, &regs->fp) | gdb_reg_le(h, n, 30 * 16, 8, &regs->lr) |
		      gdb_reg_le(h, n, 31 * 16, 8, &regs->sp) | gdb_reg_le(h, n, 32 * 16, 8, &regs->pc);
	else   /* rax rbx rcx rdx rsi rdi rbp rsp r8..r15 rip */
		bad = gdb_reg_le(h, n, 6 * 16, 8, &regs->fp) | gdb_reg_le(h, n, 7 * 16, 8, &regs->sp) |
		      gdb_reg_le(h, n, 16 * 16, 8, &regs->pc);
	if (bad) {
		uf_err_set(err, UF_ETARGET, g->c.addr, "malformed register reply '%.20s'", h);
		return poison(g, err);
	}
	return 0;
}

/* A memory reply: hex bytes into a cache slot; `E..` leaves it empty. */
static int parse_mem(struct gdb_target *g, const struct req *q, struct uf_err *err)
{
	const char *h = g->c.reply;
	size_t n = g->c.replylen;
	if (n >= 1 && h[0] == 'E')
		return 0;
	if (n % 2 || n / 2 > q->len || n == 0) {
		uf_err_set(err, UF_ETARGET, g->c.addr, "memory reply of %zu chars for %zu bytes", n,
			   q->len);
		return poison(g, err);
	}
	struct chunk *c = &g->cache[g->next_slot++ % CACHE_N];
	if (gdb_hex_decode(h, c->data, n / 2) < 0) {
		c->len = 0;
		uf_err_set(err, UF_ETARGET, g->c.addr, "malformed memory reply");
		return poison(g, err);
	}
	c->addr = q->addr;
	c->len = n / 2;
	return 0;
}

static int handle(struct gdb_target *g, const struct req *q, struct uf_regs *regs,
		  struct uf_err *err)
{
	if (q->kind == REQ_MEM)
		return parse_mem(g, q, err);
	if (q->kind == REQ_REGS)
		return parse_regs(g, regs, err);
	if (strcmp(g->c.reply, "OK") != 0) {
		g->cur = 0;
		uf_err_set(err, UF_ETARGET, g->c.addr, "'%s' refused ('%.20s')", q->text, g->c.reply);
		return -EPROTO;
	}
	return 0;
}

/* Send r[0..n) and handle each reply in order (invariant 3). */
static int batch(struct gdb_target *g, struct req *r, size_t n, struct uf_regs *regs,
		 struct uf_err *err)
{
	int rc = 0, first = 0, pipe = g->c.noack || g->c.pipeline;
	g->t->n_hypercalls++;
	for (size_t i = 0; pipe && i < n && rc == 0; i++)
		rc = gdb_conn_queue(&g->c, r[i].text, err);
	if (pipe && rc == 0)
		rc = gdb_conn_flush(&g->c, err);
	for (size_t i = 0; i < n && rc >= 0 && rc != UF_TARGET_GONE; i++) {
		rc = pipe ? gdb_conn_recv(&g->c, err) : gdb_conn_call(&g->c, r[i].text, err);
		if (rc == 0 && first == 0)
			first = handle(g, &r[i], regs, err);
		else if (rc == 0 && !pipe)
			break;
	}
	if (rc != 0)
		g->cur = 0;
	return rc != 0 ? rc : first;
}

/* A reply that breaks the protocol: the stub is not trusted again. */
static int poison(struct gdb_target *g, struct uf_err *err)
{
	gdb_conn_poison(&g->c, err && err->cls ? err->why : "protocol error");
	return -EPROTO;
}

/* ---- helpers: cache -------------------------------------------------- */

static void cache_clear(struct gdb_target *g)
{
	for (size_t i = 0; i < CACHE_N; i++)
		g->cache[i].len = 0;
}

/* Copy from the chunk holding addr (the newest first); bytes copied. */
static size_t cache_copy(struct gdb_target *g, uint64_t addr, uint8_t *buf, size_t len)
{
	for (size_t k = 0; k < CACHE_N; k++) {
		struct chunk *c = &g->cache[(g->next_slot + CACHE_N - 1 - k) % CACHE_N];
		if (c->len == 0 || addr < c->addr || addr - c->addr >= c->len)
			continue;
		size_t off = (size_t)(addr - c->addr), m = c->len - off;
		m = m < len ? m : len;
		memcpy(buf, c->data + off, m);
		return m;
	}
	return 0;
}

/* 1 when the instruction before pc is a halt, 0 when not, -EAGAIN when
 * the code cannot be read now (a fused sample), <0 with *err on a broken
 * connection.  Answers are cached per pc (invariant 4). */
static int halted_at(struct gdb_target *g, struct gthread *th, uint64_t pc, struct uf_err *err)
{
	const int arm = g->t->arch == UF_ARCH_AARCH64;
	size_t slot = (size_t)((pc ^ (pc >> 9)) % HALT_CACHE), len = arm ? 4 : 1;
	if (g->halt_cache[slot].pc1 == pc + 1)
		return g->halt_cache[slot].halted;
	uint8_t b[4] = { 0 };
	if (pc < len)
		return 0;
	if (g->fused) {
		th->missed = 1;   /* the next sample is a full one and can read it */
		return -EAGAIN;
	}
	ssize_t n = gread(g->t, th->id, pc - len, b, len, err);
	if (n < 0)
		return (int)n;
	if ((size_t)n < len)
		return -EAGAIN;   /* unreadable: unknown, asked again next time */
	uint32_t word = (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 |
			(uint32_t)b[3] << 24;
	int halted = arm ? word == 0xd503207fu /* wfi */ : b[0] == 0xf4 /* hlt */;
	g->halt_cache[slot].pc1 = pc + 1;
	g->halt_cache[slot].halted = halted;
	return halted;
}

static struct gthread *find_thread(struct gdb_target *g, uint32_t id)
{
	for (size_t i = 0; i < g->nth; i++)
		if (g->th[i].id == id)
			return &g->th[i];
	return NULL;
}
