/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * examples/xen-guest/guest.c — a minimal 64-bit Xen PV kernel that runs
 * the example workloads (examples/workloads) forever or for N rounds.
 *
 * Command line (xl `extra = "..."`), words separated by spaces:
 *   app-test-1 | app-test-2 | app-uklibs
 *                             workload of vCPU 0 (default app-test-1;
 *                             app-uklibs: examples/uklibs' libraries)
 *   smp                       also start vCPU 1, running app-test-2
 *   rounds=N                  after N rounds on vCPU 0, shut down (poweroff)
 *   upcall                    a 100 Hz periodic timer (VIRQ_TIMER) delivered
 *                             through the event-channel upcall
 *                             (hypervisor_callback in head.S -> do_upcall
 *                             -> timer_handler, which burns 10 units, ~10 %
 *                             of the time under TCG): the
 *                             samples taken inside it must continue into
 *                             the workload it interrupted
 *   phases                    issue 30's run-state truth instead of a
 *                             workload: the 100 Hz timer (as `upcall`,
 *                             its handler doing no work) paces cycles of
 *                             phase_a (computes 50 ticks), phase_wait
 *                             (one SCHEDOP_block for 50 ticks' time, 0.5 s
 *                             of Xen system time: the vCPU is blocked in
 *                             Xen) and phase_b (computes 50 ticks); with
 *                             rounds=N, after N cycles it prints "truth
 *                             PHASE tsc CYCLES running NS runnable NS
 *                             blocked NS offline NS" per phase (its own
 *                             time-stamp counter; Xen's runstate times of
 *                             its vCPU, VCPUOP_get_runstate_info)
 * The console is written only at start and end: a guest spinning on a full
 * console ring (dom0 busy) would distort the profile.
 * The true shares are examples/workloads/app-test-N.truth and
 * uklibs-xen.truth (by library).
 *
 * Trade-off: no traps, and event channels only with `upcall`: the guest
 * only computes and writes a few console lines, which is all a sampler
 * test needs, and keeps the image a few KiB.  Built with frame pointers
 * (-fno-omit-frame-pointer -mno-omit-leaf-frame-pointer).
 *
 * Invariants:
 *  1. The console ring is written only by vCPU 0.
 *  2. Each vCPU's call chain starts at its entry in head.S (rbp = 0).
 */
#include <stdint.h>
#define __XEN_INTERFACE_VERSION__ 0x00040d00
#include <xen/xen.h>
#include <xen/callback.h>
#include <xen/event_channel.h>
#include <xen/io/console.h>
#include <xen/sched.h>
#include <xen/vcpu.h>

#include "common.h"

extern char hypercall_page[];
extern char secondary_start[];
extern char hypervisor_callback[];

/* The page the shared info is mapped over (update_va_mapping), and the
 * timer's port; ticks counts the upcalls that ran the handler. */
static uint8_t shared_page[4096] __attribute__((aligned(4096)));
static shared_info_t *shinfo;
static uint32_t timer_port;
volatile unsigned long uf_ticks;
void do_upcall(void);

static start_info_t *si;
static struct xencons_interface *cons;
static uint32_t cons_port;
static vcpu_guest_context_t vctx;
static uint8_t stack1[65536] __attribute__((aligned(16)));

static long hypercall3(unsigned nr, unsigned long a1, unsigned long a2, unsigned long a3)
{
	long ret;
	register unsigned long rdi asm("rdi") = a1, rsi asm("rsi") = a2, rdx asm("rdx") = a3;
	asm volatile("call *%[entry]"
		     : "=a"(ret), "+r"(rdi), "+r"(rsi), "+r"(rdx)
		     : [entry] "r"(hypercall_page + nr * 32)
		     : "rcx", "r11", "memory");
	return ret;
}

static void put(const char *s)
{
	if (!cons)
		return;
	XENCONS_RING_IDX prod = cons->out_prod;
	for (; *s; s++) {
		while (prod - cons->out_cons >= sizeof cons->out - 1)
			;
		if (*s == '\n')
			cons->out[MASK_XENCONS_IDX(prod++, cons->out)] = '\r';
		cons->out[MASK_XENCONS_IDX(prod++, cons->out)] = *s;
	}
	__atomic_thread_fence(__ATOMIC_RELEASE);
	cons->out_prod = prod;
	struct evtchn_send send = { .port = cons_port };
	hypercall3(__HYPERVISOR_event_channel_op, EVTCHNOP_send, (unsigned long)&send, 0);
}

/* The boot area is mapped 1:1 from virtual 0, so a boot-area page's
 * virtual address is its pfn << 12: find the console page's pfn. */
static void console_init(void)
{
	unsigned long *p2m = (unsigned long *)si->mfn_list;
	for (unsigned long pfn = 0; pfn < si->nr_pages; pfn++)
		if (p2m[pfn] == si->console.domU.mfn) {
			cons = (struct xencons_interface *)(pfn << 12);
			break;
		}
	cons_port = si->console.domU.evtchn;
}

/* vCPU 1: same page tables and flat segments as vCPU 0, own stack. */
static int start_vcpu1(void)
{
	unsigned long *p2m = (unsigned long *)si->mfn_list;
	vctx.user_regs.rip = (unsigned long)secondary_start;
	vctx.user_regs.rsp = (unsigned long)(stack1 + sizeof stack1);
	vctx.user_regs.cs = FLAT_KERNEL_CS;
	vctx.user_regs.ss = FLAT_KERNEL_SS;
	vctx.user_regs.ds = vctx.user_regs.es = FLAT_KERNEL_DS;
	vctx.user_regs.rflags = 0x1000;  /* IOPL 1, interrupts off */
	vctx.flags = VGCF_in_kernel;
	vctx.kernel_ss = FLAT_KERNEL_SS;
	vctx.kernel_sp = vctx.user_regs.rsp;
	vctx.ctrlreg[3] = xen_pfn_to_cr3(p2m[si->pt_base >> 12]);
	if (hypercall3(__HYPERVISOR_vcpu_op, VCPUOP_initialise, 1, (unsigned long)&vctx))
		return -1;
	return (int)hypercall3(__HYPERVISOR_vcpu_op, VCPUOP_up, 1, 0);
}

/* The timer's work: 10 units per tick, inside the upcall (at 1 unit
 * the upcall held 1 % of the samples: too few to judge). */
UF_NOINLINE void timer_handler(void);
static int quiet_timer;   /* phases: the handler only counts */

UF_NOINLINE void timer_handler(void)
{
	if (!quiet_timer)
		UF_BURN(10);
	uf_ticks++;
}

/* Called by hypervisor_callback (head.S) with events masked: every
 * pending port is cleared, the timer's runs its handler, events are
 * unmasked again before the entry code returns. */
void do_upcall(void)
{
	vcpu_info_t *v = &shinfo->vcpu_info[0];
	v->evtchn_upcall_pending = 0;
	unsigned long sel = __atomic_exchange_n(&v->evtchn_pending_sel, 0, __ATOMIC_SEQ_CST);
	while (sel) {
		unsigned w = (unsigned)__builtin_ctzl(sel);
		sel &= sel - 1;
		unsigned long pend = __atomic_exchange_n(&shinfo->evtchn_pending[w], 0, __ATOMIC_SEQ_CST);
		if (w == timer_port / 64 && (pend >> (timer_port % 64) & 1))
			timer_handler();
		UF_NOTAIL();
	}
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	v->evtchn_upcall_mask = 0;
}

/* Shared info mapped, the upcall registered (events masked on entry),
 * VIRQ_TIMER bound and unmasked, a 10 ms periodic timer: 0 or <0. */
static long upcall_init(void)
{
	long rc = hypercall3(__HYPERVISOR_update_va_mapping, (unsigned long)shared_page,
			     si->shared_info | 0x27 /* present rw user accessed */, UVMF_INVLPG);
	if (rc)
		return rc;
	shinfo = (shared_info_t *)shared_page;
	struct callback_register cb = { .type = CALLBACKTYPE_event, .flags = CALLBACKF_mask_events,
					.address = (unsigned long)hypervisor_callback };
	if ((rc = hypercall3(__HYPERVISOR_callback_op, CALLBACKOP_register, (unsigned long)&cb, 0)))
		return rc;
	struct evtchn_bind_virq bv = { .virq = VIRQ_TIMER, .vcpu = 0 };
	if ((rc = hypercall3(__HYPERVISOR_event_channel_op, EVTCHNOP_bind_virq, (unsigned long)&bv, 0)))
		return rc;
	timer_port = bv.port;
	struct vcpu_set_periodic_timer pt = { .period_ns = 10000000 };
	if ((rc = hypercall3(__HYPERVISOR_vcpu_op, VCPUOP_set_periodic_timer, 0, (unsigned long)&pt)))
		return rc;
	__atomic_and_fetch(&shinfo->evtchn_mask[timer_port / 64], ~(1ul << (timer_port % 64)),
			   __ATOMIC_SEQ_CST);
	shinfo->vcpu_info[0].evtchn_upcall_mask = 0;
	return 0;
}

/* ---- phases ------------------------------------------------------- */

static uint64_t phase_tsc[3];

static inline uint64_t rdtsc(void)
{
	uint32_t lo, hi;
	__asm__ volatile("rdtsc" : "=a"(lo), "=d"(hi));
	return (uint64_t)hi << 32 | lo;
}

/* The compute phases run for `ticks` of the 100 Hz timer: under TCG the
 * timer lags while the vCPU computes, so a phase lasts longer than its
 * ticks say; the truth is the TSC run_phases reads around each phase. */
UF_NOINLINE void phase_a(unsigned long ticks);
UF_NOINLINE void phase_a(unsigned long ticks)
{
	unsigned long until = uf_ticks + ticks;
	while (uf_ticks < until)
		UF_BURN(1);
	UF_NOTAIL();
}

UF_NOINLINE void phase_b(unsigned long ticks);
UF_NOINLINE void phase_b(unsigned long ticks)
{
	unsigned long until = uf_ticks + ticks;
	while (uf_ticks < until)
		UF_BURN(1);
	UF_NOTAIL();
}

/* Xen system time (ns) from vCPU 0's time info: system_time at
 * tsc_timestamp plus the TSC cycles since, scaled. */
static uint64_t xen_now_ns(void)
{
	volatile struct vcpu_time_info *ti = &shinfo->vcpu_info[0].time;
	uint32_t ver;
	uint64_t ns;
	do {
		ver = ti->version;
		__atomic_thread_fence(__ATOMIC_ACQUIRE);
		uint64_t d = rdtsc() - ti->tsc_timestamp;
		d = (int64_t)d < 0 ? 0 : d;   /* another pCPU's TSC behind: no extrapolation */
		d = ti->tsc_shift >= 0 ? d << ti->tsc_shift : d >> -ti->tsc_shift;
		ns = ti->system_time + (uint64_t)(((unsigned __int128)d * ti->tsc_to_system_mul) >> 32);
		__atomic_thread_fence(__ATOMIC_ACQUIRE);
	} while ((ver & 1) || ver != ti->version);
	return ns;
}

/* A wake-up this close to the end counts as the end: Xen may fire a timer
 * up to its slop (50 us by default) early, and another block for that
 * little would cost more running time than it waits. */
#define WAIT_SLOP_NS 1000000ull

/* Blocked in Xen for `ticks` timer periods (10 ms each) of Xen system
 * time, in one SCHEDOP_block: the single-shot timer (same VIRQ_TIMER,
 * counted by the handler) is armed at the phase's end, since Xen stops a
 * blocked vCPU's periodic timer.  One block per phase, not one per tick:
 * under TCG every wake-up costs the vCPU milliseconds of running and
 * runnable time inside phase_wait (with 10 ms blocks Xen counted it
 * blocked for 71.8 % of the wait), and those are not the blocked time
 * the test compares.  An
 * early wake-up (another event) blocks again for the rest.
 * SCHEDOP_block unmasks events and returns once one is pending. */
UF_NOINLINE void phase_wait(unsigned long ticks);
UF_NOINLINE void phase_wait(unsigned long ticks)
{
	uint64_t end = xen_now_ns() + ticks * 10000000ull;
	while (xen_now_ns() + WAIT_SLOP_NS < end) {
		struct vcpu_set_singleshot_timer st = { .timeout_abs_ns = end };
		hypercall3(__HYPERVISOR_vcpu_op, VCPUOP_set_singleshot_timer, 0, (unsigned long)&st);
		hypercall3(__HYPERVISOR_sched_op, SCHEDOP_block, 0, 0);
	}
	UF_NOTAIL();
}

static void put_number(uint64_t v)
{
	char buf[24], *p = buf + sizeof buf - 1;
	*p = 0;
	do
		*--p = (char)('0' + v % 10);
	while ((v /= 10) && p > buf);
	put(p);
}

/* Xen's own account of vCPU 0's time (ns) in each RUNSTATE_* (running,
 * runnable, blocked, offline), up to now: the per-state truth beside the
 * TSC's wall time.  A vCPU the profiler pauses while it runs is offline
 * for that time (Xen charges a paused, unblocked vCPU to offline). */
static void runstate_times(uint64_t t[4])
{
	struct vcpu_runstate_info ri;
	hypercall3(__HYPERVISOR_vcpu_op, VCPUOP_get_runstate_info, 0, (unsigned long)&ri);
	for (int s = 0; s < 4; s++)
		t[s] = ri.time[s];
}

UF_NOINLINE void run_phases(unsigned long rounds);
UF_NOINLINE void run_phases(unsigned long rounds)
{
	static const char *const names[3] = { "phase_a", "phase_wait", "phase_b" };
	static const char *const states[4] = { " running ", " runnable ", " blocked ", " offline " };
	void (*const fn[3])(unsigned long) = { phase_a, phase_wait, phase_b };
	uint64_t in_state[3][4] = { { 0 } }, t0[4], t1[4];
	for (unsigned long r = 0; !rounds || r < rounds; r++)
		for (int i = 0; i < 3; i++) {
			runstate_times(t0);
			uint64_t c0 = rdtsc();
			fn[i](50);
			phase_tsc[i] += rdtsc() - c0;
			runstate_times(t1);
			for (int s = 0; s < 4; s++)
				in_state[i][s] += t1[s] - t0[s];
		}
	for (int i = 0; i < 3; i++) {
		put("truth ");
		put(names[i]);
		put(" tsc ");
		put_number(phase_tsc[i]);
		for (int s = 0; s < 4; s++) {
			put(states[s]);
			put_number(in_state[i][s]);
		}
		put("\n");
	}
}

void secondary_main(void);
void secondary_main(void)
{
	run(2, 0);
	UF_NOTAIL();   /* keep secondary_main on the stack (no tail jump) */
}

void guest_main(start_info_t *start_info);
void guest_main(start_info_t *start_info)
{
	si = start_info;
	uf_cmdline = (const char *)si->cmd_line;
	console_init();
	int app = app_arg();
	unsigned long rounds = num(arg("rounds="));
	put("uf-xen-guest: running ");
	put(app_name(app));
	if (arg("smp"))
		put(start_vcpu1() ? " (vCPU 1 failed to start)" : " (vCPU 1: app-test-2)");
	int phases = arg("phases") != 0;
	quiet_timer = phases;
	if (arg("upcall") || phases)
		put(upcall_init() ? " (upcall setup failed)" : " (timer upcall at 100 Hz)");
	put(phases ? " phases\n" : "\n");
	if (phases)
		run_phases(rounds);
	else
		run(app, rounds);
	put("uf-xen-guest: done, powering off\n");
	struct sched_shutdown sd = { .reason = SHUTDOWN_poweroff };
	hypercall3(__HYPERVISOR_sched_op, SCHEDOP_shutdown, (unsigned long)&sd, 0);
	for (;;)
		;
}
