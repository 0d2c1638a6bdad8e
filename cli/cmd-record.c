/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * cli/cmd-record.c — `uniprof-flame [record] -p PID | -- CMD ... | -d DOMAIN
 * | -c CFG`: sample a live Linux process or Xen domain, then write the SVG,
 * folded text and/or raw trace.  For a Xen domain (xen-if/xen.h) symbols
 * come from -x only and threads are vCPUs.
 *
 * One `struct record` holds all state.  The order is fixed so the target
 * is never left stopped and nothing sampled is lost: attach, sample until
 * -T / the target's end / SIGINT-SIGTERM-SIGHUP, re-read the target's
 * mappings, detach, and only then symbolize and write.  Main trade-off:
 * symbols of libraries the target loads and unloads between two mapping
 * reads (about once a second) are missed, in exchange for no /proc reads
 * while the target is stopped.
 *
 * Launch mode (--qemu -- qemu-system-ARCH ARGS): gdb-if/launch.c starts
 * QEMU paused with a private gdbstub and we attach before its first
 * instruction; the sampling ends when QEMU exits, at -T, or on a signal.
 * After a signal QEMU is ended (it was ours); after -T it keeps running
 * and we wait for it, as a shell would, once the outputs are written;
 * QEMU's exit status is then ours, as for -- PROGRAM.
 *
 * Invariants:
 *  1. Every path out after a successful attach goes through detach.
 *  2. Outputs are written only after detach, each atomically.
 *  3. Exit status: 0 written, 1 usage, 2 bad -x / output path, 3 target
 *     error or no sample at all.
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cli/cmd.h"
#include "cli/render-opts.h"
#include "fold/fold.h"
#include "gdb-if/gdb.h"
#include "ptrace-if/ptrace-if.h"
#include "xen-if/xen.h"
#include "sampler/sampler.h"
#include "symtab/symtab.h"
#include "cli/io-opts.h"
#include "cli/record-pprof.h"
#include "unwind/unwind.h"
#include "util/outfile.h"

struct record {
	/* options */
	pid_t pid;
	const char *exe;          /* -x */
	const char *out_svg;      /* -o */
	const char *out_folded;   /* --folded */
	const char *out_raw;      /* --raw */
	int addrs, per_thread, quiet;
	int inline_frames;        /* --inline: DWARF's inlined functions as frames */
	int lines;                /* --lines: frames split by source line */
	uint64_t lines_found;     /* frames --lines could name by their line */
	int folded_any;           /* the samples were folded into names */
	char **cmd;               /* after -- */
	const char *gdb;          /* --gdb ADDR: a guest behind a gdbstub */
	const char *domain;       /* -d: Xen domain name or id */
	const char *cfg;          /* -c: xl config, created paused */
	int destroy;              /* --destroy (with -c) */
	int xen;                  /* the target is a Xen domain */
	int qemu;                 /* --qemu: cmd is QEMU, started by us (launch mode) */
	struct gdb_launch launch;
	uint64_t hypercalls, maps_made;  /* xen-if counters, kept past detach */
	struct sampler_opts so;
	struct render_opts ro;
	struct cli_io_opts io;    /* --format: -o's format (svg, folded, pprof, speedscope) */
	/* state */
	struct uf_target target;
	int attached;
	struct symtab_procmap *maps;
	struct symtab *exe_tab;   /* -x alone, when /proc maps are unreadable */
	struct unwind_space *space; /* CFI tables of the target's code (--unwind) */
	struct sampler s;
	int progress_shown;
	uint64_t last_refresh;
	uint64_t last_space;      /* CLOCK_MONOTONIC ns of the last unwind refresh */
	char what[128];           /* "pid N" or the command, for messages */
	time_t started;           /* wall clock when sampling began (metadata) */
	fold_trie *fold_t;        /* the trie being filled (resolve() sets libraries) */
	struct lib_file {         /* library lookups per mapped file, opened on demand */
		char *path;
		struct symtab_libs *libs;
	} libf[64];
	int nlibf;
	char *libtab;             /* the per-library table for the summary (owned) */
	int argc;                 /* our command line, for the metadata */
	char **argv;
};

enum { OPT_MAXDEPTH = 1, OPT_FOLDED, OPT_RAW, OPT_ADDRS, OPT_PERTHREAD, OPT_QUIET, OPT_HELP, OPT_GDB,
       OPT_DESTROY, OPT_UNWIND, OPT_QEMU, OPT_FORMAT, OPT_INLINE, OPT_LINES };

static const struct option own_opts[] = {
	{ "pid", required_argument, 0, 'p' },
	{ "gdb", required_argument, 0, OPT_GDB },
	{ "qemu", no_argument, 0, OPT_QEMU },
	{ "domain", required_argument, 0, 'd' },
	{ "config", required_argument, 0, 'c' },
	{ "destroy", no_argument, 0, OPT_DESTROY },
	{ "per-vcpu", no_argument, 0, OPT_PERTHREAD },
	{ "exe", required_argument, 0, 'x' },
	{ "output", required_argument, 0, 'o' },
	{ "format", required_argument, 0, OPT_FORMAT },
	{ "frequency", required_argument, 0, 'F' },
	{ "time", required_argument, 0, 'T' },
	{ "max-depth", required_argument, 0, OPT_MAXDEPTH },
	{ "unwind", required_argument, 0, OPT_UNWIND },
	{ "folded", required_argument, 0, OPT_FOLDED },
	{ "raw", required_argument, 0, OPT_RAW },
	{ "addrs", no_argument, 0, OPT_ADDRS },
	{ "inline", no_argument, 0, OPT_INLINE },
	{ "lines", no_argument, 0, OPT_LINES },
	{ "per-thread", no_argument, 0, OPT_PERTHREAD },
	{ "quiet", no_argument, 0, 'q' },
	{ "help", no_argument, 0, 'h' },
	{ 0, 0, 0, 0 },
};

static volatile sig_atomic_t stop_flag;

static int parse(struct record *r, int argc, char **argv);
static int check_args(struct record *r, int argc, char **argv);
static int parse_num(const char *opt, const char *arg, double lo, double hi, double *out);
static int help(void);
static int start(struct record *r, struct uf_err *err);
static int start_gdb(struct record *r, struct uf_err *err);
static int start_qemu(struct record *r, struct uf_err *err);
static int qemu_finish(struct record *r);
static int open_maps(struct record *r, struct uf_err *err);
static int open_space(struct record *r, struct uf_err *err);
static int check_output(const char *path, struct uf_err *err);
static int start_xen(struct record *r, struct uf_err *err);
static void xen_finish(struct record *r);
static void summary_xen(const struct record *r);
static int maps_readable(pid_t pid);
static void finish_target(struct record *r);
static int write_outputs(struct record *r, struct uf_err *err);
static int write_raw(struct record *r, struct uf_err *err);
static void record_meta(const struct record *r, fold_trie *t);
static void frame_lib(struct record *r, uint64_t addr, int is_return, const char *name, size_t len);
static void libs_release(struct record *r);
static struct symtab_libs *libs_for(struct record *r, const char *path);
static size_t add_inlined(struct record *r, uint64_t addr, int is_return, char *buf, size_t len,
			  size_t size);
static struct symtab_libs *code_of(struct record *r, uint64_t addr, int is_return, uint64_t *pc);
static size_t locate(void *ctx, uint64_t addr, int is_return, char *buf, size_t size);
/* Cost of sampling a domain: hypercalls and new foreign mappings per
 * sample (steady state: pause, one register read per vCPU, unpause). */
static void summary_xen(const struct record *r)
{
	const struct sampler_stats *st = &r->s.stats;
	double n = st->samples ? (double)st->samples : 1.0;
	fprintf(stderr, "uniprof-flame: %s: %.2f hypercalls and %.3f foreign maps per sample\n",
		r->what, (double)r->hypercalls / n, (double)r->maps_made / n);
	if (st->interrupted)
		fprintf(stderr, "uniprof-flame: %s: interrupted; the domain keeps running\n", r->what);
}

static void on_signal(int sig);
static void signals(int install);
static void progress(void *ctx, const struct sampler_stats *st);
static void refresh_space(void *ctx);
static void summary(const struct record *r);
static int wait_program(const struct record *r);
static int spawn(struct record *r, struct uf_err *err);
static size_t resolve(void *ctx, uint64_t addr, int is_return, char *buf, size_t size);
static size_t thread_name(void *ctx, uint32_t tid, char *buf, size_t size);

/* speedscope output keeps samples in time order (its time-order view). */
static int time_ordered(const struct record *r)
{
	return r->out_svg && cli_out_format_of(&r->io, r->out_svg, CLI_OUT_SVG) == CLI_OUT_SPEEDSCOPE;
}

int cmd_record(int argc, char **argv)
{
	struct record r;
	struct uf_err err = { 0 };
	memset(&r, 0, sizeof r);
	int rc = parse(&r, argc, argv);
	if (rc != 0)
		return rc < 0 ? 0 : rc; /* rc < 0: --help */
	sampler_init(&r.s, r.ro.flamechart || r.out_raw || time_ordered(&r));
	signals(1);
	int status = 0;
	r.argc = argc;
	r.argv = argv;
	rc = start(&r, &err);
	if (rc == 0) {
		r.started = time(NULL);
		rc = sampler_run(&r.s, &r.target, &r.so, &err);
		finish_target(&r);
		if (r.progress_shown)
			fputs("\r\033[K", stderr);
		if (rc < 0) /* report, then still write what was sampled */
			status = cli_fail(&err);
		uf_err_clear(&err);
		if (r.s.stats.thread_samples == 0)
			uf_err_set(&err, UF_ETARGET, r.what, "no samples taken (the target ended first?)");
		else
			write_outputs(&r, &err);
	}
	if (r.attached && !r.quiet)
		summary(&r);
	/* --qemu: with our handlers installed, so a signal then ends QEMU */
	int prog = r.qemu && r.attached ? qemu_finish(&r) : -1;
	signals(0);
	if (r.attached && r.cmd && !r.qemu)
		prog = wait_program(&r);
	sampler_release(&r.s);
	libs_release(&r);
	unwind_space_free(r.space);
	symtab_procmap_free(r.maps);
	symtab_free(r.exe_tab);
	if (!r.gdb && !r.xen)   /* the gdb and xen targets free themselves on detach */
		ptrace_target_free(&r.target);
	if (err.cls)
		return cli_fail(&err);
	if (r.lines && r.lines_found == 0 && r.folded_any)
		cli_warn("--lines: no frame has a source line (no DWARF line table for its code: build "
			 "with -g, or give the unstripped image with -x); frames are functions");
	if (status || prog == -1)
		return status;
	/* -- PROGRAM, --qemu: its status, as perf record and time(1) return it */
	return WIFEXITED(prog) ? WEXITSTATUS(prog) : WIFSIGNALED(prog) ? 128 + WTERMSIG(prog) : 0;
}

/* Fills r from the command line; returns 0, -1 after --help, or an exit
 * status. */
static int parse(struct record *r, int argc, char **argv)
{
	struct option *opts = cli_options_merge(own_opts);
	if (!opts)
		return cli_usage("", "record: out of memory");
	sampler_opts_init(&r->so);
	render_opts_init(&r->ro);
	r->so.stop = &stop_flag;
	double v;
	int c, rc = 0;
	optind = 1;
	while (!rc && (c = cli_getopt(argc, argv, "+p:d:c:x:o:F:T:qh", opts, "record")) != -1) {
		switch (c) {
		case 'p': rc = parse_num("-p", optarg, 1, 4194304, &v); r->pid = (pid_t)v; break;
		case 'd': r->domain = optarg; break;
		case 'c': r->cfg = optarg; break;
		case OPT_DESTROY: r->destroy = 1; break;
		case 'x': r->exe = optarg; break;
		case OPT_GDB: r->gdb = optarg; break;
		case OPT_QEMU: r->qemu = 1; break;
		case 'o': r->out_svg = optarg; break;
		case 'F': rc = parse_num("-F", optarg, 0.001, 100000, &r->so.hz); break;
		case 'T': rc = parse_num("-T", optarg, 0.001, 1e7, &r->so.seconds); break;
		case OPT_MAXDEPTH:
			rc = parse_num("--max-depth", optarg, 1, SAMPLER_MAX_DEPTH, &v);
			r->so.max_depth = (unsigned)v;
			break;
		case OPT_UNWIND:
			if (unwind_mode_parse(optarg, &r->so.unwind) < 0)
				rc = cli_usage("record ", "--unwind: '%s' is not auto, cfi or fp", optarg);
			break;
		case OPT_FOLDED: r->out_folded = optarg; break;
		case OPT_RAW: r->out_raw = optarg; break;
		case OPT_ADDRS: r->addrs = 1; break;
		case OPT_INLINE: r->inline_frames = 1; break;
		case OPT_LINES: r->lines = 1; break;
		case OPT_PERTHREAD: r->per_thread = 1; break;
		case 'q': r->quiet = 1; break;
		case 'h': rc = -1; help(); break;
		case '?': rc = UF_EXIT_USAGE; break; /* the message is out */
		case OPT_FORMAT:
			if (cli_io_format(&r->io, optarg, 0) != 1)
				rc = UF_EXIT_USAGE;
			break;
		default:
			if (cli_render_opt(&r->ro, c, optarg) != 1)
				rc = UF_EXIT_USAGE;
		}
	}
	free(opts);
	return rc ? rc : check_args(r, argc, argv);
}

/* What getopt cannot check: one target, at least one output. */
static int check_args(struct record *r, int argc, char **argv)
{
	int dashdash = optind > 1 && !strcmp(argv[optind - 1], "--");
	if (optind < argc && !dashdash)
		return cli_usage("record ", "'%s': unexpected argument (a program to run goes after --)",
				 argv[optind]);
	if (optind < argc)
		r->cmd = argv + optind;
	if (r->qemu && !r->cmd)
		return cli_usage("record ", "'--qemu': needs the QEMU command after --");
	if (!!r->pid + !!r->cmd + !!r->gdb + !!r->domain + !!r->cfg != 1)
		return cli_usage("record ", "record: name one target: -p PID, --gdb ADDR, -d DOMAIN, "
				 "-c CFG or -- COMMAND ARGS");
	if ((r->gdb || r->qemu) && !r->exe && !r->addrs)
		return cli_usage("record ", "'%s': needs -x GUEST.dbg for symbols (or --addrs)",
				 r->gdb ? "--gdb" : "--qemu");
	if (r->qemu) {
		struct uf_err e = { 0 };
		if (gdb_launch_check(r->cmd, &e) < 0)
			return cli_usage("record ", "%s: %s", e.what, e.why);
	}
	if (r->inline_frames && (r->ro.flamechart || time_ordered(r)))
		return cli_usage("record ", "'--inline': cannot be combined with a time-ordered output");
	if (r->ro.by_lib && (r->ro.flamechart || time_ordered(r)))
		return cli_usage("record ", "'--by=lib': cannot be combined with a time-ordered output");
	if (r->destroy && !r->cfg)
		return cli_usage("record ", "'--destroy': only applies to a domain created with -c");
	r->xen = r->domain || r->cfg;
	if (!r->out_svg && !r->out_folded && !r->out_raw)
		return cli_usage("record ", "record: no output: give -o FILE.svg, --folded FILE or --raw FILE");
	return 0;
}

static int parse_num(const char *opt, const char *arg, double lo, double hi, double *out)
{
	char *end;
	errno = 0;
	double v = strtod(arg, &end);
	if (errno || end == arg || *end || !(v >= lo && v <= hi))
		return cli_usage("record ", "'%s': '%s' is not a number from %g to %g", opt, arg, lo, hi);
	*out = v;
	return 0;
}

static int help(void)
{
	printf("usage: uniprof-flame [record] [options] -o OUT.svg -p PID\n"
	       "       uniprof-flame [record] [options] -o OUT.svg --gdb ADDR -x GUEST.dbg\n"
	       "       uniprof-flame [record] [options] -o OUT.svg -x GUEST.dbg --qemu -- qemu-system-ARCH ARGS...\n"
	       "       uniprof-flame [record] [options] -o OUT.svg -x GUEST.elf -d DOMAIN | -c CFG\n"
	       "       uniprof-flame [record] [options] -o OUT.svg -- PROGRAM ARGS...\n\n"
	       "  -p, --pid PID        profile a running process (all its threads)\n"
	       "      --gdb ADDR       profile a QEMU/KVM or Firecracker guest through its gdbstub:\n"
	       "                       HOST:PORT, :PORT, [IPv6]:PORT, unix:PATH, or a path\n"
	       "                       containing '/' (QEMU -s, -gdb ...; Firecracker's socket)\n"
	       "      --qemu -- qemu-system-ARCH ARGS...\n"
	       "                       start QEMU paused with a private gdbstub, profile the guest\n"
	       "                       from its first instruction until QEMU exits; the exit\n"
	       "                       status is then QEMU's\n"
	       "  -d, --domain DOMAIN  profile a running Xen domain (name or id; in dom0, as root)\n"
	       "  -c, --config CFG     create a Xen domain paused (xl create -p), profile it from\n"
	       "                       its first instruction until it shuts down\n"
	       "      --destroy        with -c: destroy the domain at the end\n"
	       "      --per-vcpu       one tower per vCPU (root frame vcpu-N)\n"
	       "  -x, --exe ELF        symbols of the main program from ELF (default /proc/PID/exe;\n"
	       "                       with --gdb, -d, -c: the guest's image, addresses as they are)\n"
	       "  -o, --output FILE    flame graph SVG ('-' = stdout); .pb.gz: pprof, .speedscope.json:\n"
	       "                       speedscope (samples in time order), .folded: folded text\n"
	       "      --format FMT     -o's format whatever its name: svg, folded, pprof, speedscope\n"
	       "  -F, --frequency HZ   samples per second (default 99)\n"
	       "  -T, --time SECONDS   wall time (default: until the target ends or Ctrl-C)\n"
	       "  -- PROGRAM ARGS      run PROGRAM and profile it until it exits; the exit\n"
	       "                       status is then PROGRAM's (128+N if killed by signal N)\n"
	       "      --max-depth N    frames per stack (default 512, at most 8192)\n"
	       "      --unwind MODE    auto (default): CFI (.eh_frame/.debug_frame) where the\n"
	       "                       code has it, else frame pointers; cfi: CFI only;\n"
	       "                       fp: frame pointers only\n"
	       "      --folded FILE    also write folded stacks (flamegraph.pl format)\n"
	       "      --raw FILE       also write uniprof's raw trace (addresses)\n"
	       "      --addrs          unresolved frames as module+0xOFFSET, not [unknown]\n"
	       "      --inline         expand each frame into the functions inlined at its\n"
	       "                       address (DWARF), marked NAME_[i]\n"
	       "      --lines          one frame per source line: 'FUNC FILE:LINE' (DWARF; the\n"
	       "                       sampled PC's line for the leaf, the call site for callers)\n"
	       "      --per-thread     one tower per thread (root frame comm-pid/tid)\n"
	       "  -q, --quiet          no progress line, no summary\n\n");
	cli_render_help_for(stdout, "record");
	return 0;
}

/* Validates -x, reads the mappings (before attaching to a running
 * process, so it is not traced while we parse ELF files; after exec for a
 * spawned one), attaches or spawns. */
static int start(struct record *r, struct uf_err *err)
{
	const char *outs[3] = { r->out_svg, r->out_folded, r->out_raw };
	for (int i = 0; i < 3; i++)
		if (outs[i] && check_output(outs[i], err) < 0)
			return -EINVAL;
	if (r->exe) {
		r->exe_tab = symtab_open_elf(r->exe, err);
		if (!r->exe_tab)
			return -EINVAL;
	}
	if (open_space(r, err) < 0)
		return -ENOMEM;
	if (r->qemu)
		return start_qemu(r, err);
	if (r->gdb)
		return start_gdb(r, err);
	if (r->xen)
		return start_xen(r, err);
	if (!r->cmd && open_maps(r, err) < 0)
		return -EINVAL;
	int rc = r->cmd ? spawn(r, err) : ptrace_target_attach(&r->target, r->pid, err);
	if (rc < 0)
		return rc;
	r->attached = 1;
	r->pid = ptrace_target_info(&r->target)->pid;
	if (r->cmd)
		snprintf(r->what, sizeof r->what, "'%s' (pid %d)", r->cmd[0], (int)r->pid);
	else
		snprintf(r->what, sizeof r->what, "pid %d", (int)r->pid);
	if (r->cmd && open_maps(r, err) < 0) {
		r->target.ops->detach(&r->target);
		return -EINVAL;
	}
	r->so.progress = progress;
	r->so.progress_ctx = r;
	r->so.refresh = refresh_space;
	return 0;
}

/* A walk met code outside every known mapping (the dynamic loader has
 * mapped libraries since): add them, at most every 50 ms. */
static void refresh_space(void *ctx)
{
	struct record *r = ctx;
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	uint64_t now = (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
	if (!r->space || now - r->last_space < 50000000ull)
		return;
	r->last_space = now;
	unwind_space_add_pid(r->space, r->pid);
}

/* Runs the program.  When a profile goes to stdout (`-o -`), the
 * program's own stdout goes to our stderr, so the file stays valid;
 * otherwise it has the terminal's stdout, as it would without us. */
static int spawn(struct record *r, struct uf_err *err)
{
	const char *outs[3] = { r->out_svg, r->out_folded, r->out_raw };
	int to_stdout = 0, saved = -1;
	for (int i = 0; i < 3; i++)
		to_stdout |= outs[i] && !strcmp(outs[i], "-");
	if (to_stdout) {
		fflush(stdout);
		saved = fcntl(1, F_DUPFD_CLOEXEC, 3);
		if (saved < 0 || dup2(2, 1) < 0) {
			uf_err_set(err, UF_ETARGET, r->cmd[0], "cannot redirect its stdout: %s",
				   strerror(errno));
			if (saved >= 0)
				close(saved);
			return -EIO;
		}
	}
	int rc = ptrace_target_spawn(&r->target, r->cmd, err);
	if (saved >= 0) {
		dup2(saved, 1);
		close(saved);
	}
	return rc;
}

/* An output whose directory is missing or not writable fails now, not
 * after a long recording (the file itself is written at the end). */
static int check_output(const char *path, struct uf_err *err)
{
	if (!strcmp(path, "-"))
		return 0;
	char dir[4096];
	snprintf(dir, sizeof dir, "%s", path);
	char *slash = strrchr(dir, '/');
	if (slash)
		*(slash == dir ? slash + 1 : slash) = 0;
	if (access(slash ? dir : ".", W_OK) == 0)
		return 0;
	uf_err_set(err, UF_EINPUT, path, "cannot write here: %s", strerror(errno));
	return -errno;
}

/* A guest behind a gdbstub: symbols come from -x alone. */
static int start_gdb(struct record *r, struct uf_err *err)
{
	int rc = gdb_target_attach(&r->target, r->gdb, NULL, err);
	if (rc < 0)
		return rc;
	r->attached = 1;
	snprintf(r->what, sizeof r->what, "gdb stub '%s'", r->gdb);
	r->so.progress = progress;
	r->so.progress_ctx = r;
	return 0;
}

/* Launch mode: QEMU paused with a private stub, attached before its first
 * instruction (attach resumes it); then the gdb target as for --gdb. */
static int start_qemu(struct record *r, struct uf_err *err)
{
	int to_stderr = 0;
	const char *outs[3] = { r->out_svg, r->out_folded, r->out_raw };
	for (int i = 0; i < 3; i++)
		to_stderr |= outs[i] && !strcmp(outs[i], "-");
	int rc = gdb_launch_start(&r->launch, r->cmd, to_stderr, 0, err);
	if (rc < 0)
		return rc;
	snprintf(r->what, sizeof r->what, "'%.80s' (pid %d)", r->cmd[0], (int)r->launch.pid);
	rc = gdb_target_attach(&r->target, r->launch.addr, NULL, err);
	if (rc < 0) {
		gdb_launch_end(&r->launch, 0, 5000);
		gdb_launch_release(&r->launch);
		return rc;
	}
	r->gdb = r->launch.addr;
	r->attached = 1;
	r->so.progress = progress;
	r->so.progress_ctx = r;
	return 0;
}

/* After the outputs: a signal ends QEMU; after -T (or a sampling error)
 * it runs on and we wait for it; then its exit status is reported.
 * Returns QEMU's wait status (-1: unknown). */
static int qemu_finish(struct record *r)
{
	struct gdb_launch *l = &r->launch;
	gdb_launch_release(l);   /* nobody else may attach to it */
	if (!gdb_launch_poll(l) && !stop_flag && !r->s.stats.target_gone) {
		if (!r->quiet)
			fprintf(stderr, "uniprof-flame: outputs written; %s keeps running, waiting for "
				"it to exit (Ctrl-C ends it)\n", r->what);
		while (gdb_launch_wait(l, 1) == -EINTR && !stop_flag)
			;
	}
	/* signalled: QEMU got Ctrl-C too when it came from the terminal */
	gdb_launch_end(l, stop_flag ? 1000 : 10000, 5000);
	if (!l->exited)
		return -1;
	if (!r->quiet && WIFEXITED(l->status))
		fprintf(stderr, "uniprof-flame: %s exited with status %d\n", r->what,
			WEXITSTATUS(l->status));
	else if (!r->quiet && WIFSIGNALED(l->status))
		fprintf(stderr, "uniprof-flame: %s was killed by signal %d\n", r->what,
			WTERMSIG(l->status));
	return l->status;
}

/* A Xen domain: symbols from -x only (the guest image is not a file in
 * dom0); a -c domain starts running only once we are attached. */
static int start_xen(struct record *r, struct uf_err *err)
{
	struct xen_target_opts o = { .domain = r->domain, .cfg = r->cfg, .destroy = r->destroy };
	int rc = xen_target_open(&r->target, &o, err);
	if (rc < 0)
		return rc;
	r->attached = 1;
	snprintf(r->what, sizeof r->what, "domain '%.80s' (id %u)", xen_target_name(&r->target),
		 xen_target_domid(&r->target));
	if (!r->exe && !r->quiet)
		cli_warn("no -x GUEST.elf: frames will be addresses or [unknown]");
	rc = xen_target_start(&r->target, err);
	if (rc < 0) {
		r->target.ops->detach(&r->target);
		return rc;
	}
	r->so.progress = progress;
	r->so.progress_ctx = r;
	return 0;
}

/* The CFI tables: a guest's from its -x image (addresses as they are),
 * a process's from its mappings (open_maps, refreshed with them).  Built
 * here and in progress(), while the target runs, never inside a pause. */
static int open_space(struct record *r, struct uf_err *err)
{
	if (r->so.unwind == UNWIND_FP)
		return 0;
	r->space = unwind_space_new();
	if (!r->space || ((r->gdb || r->qemu || r->xen) && r->exe &&
			  unwind_space_add_file(r->space, 0, UINT64_MAX, 0, r->exe) < 0)) {
		uf_err_set(err, UF_EINPUT, "unwind", "out of memory");
		return -ENOMEM;
	}
	r->so.space = r->space;
	return 0;
}

/* Symbols for every mapped file.  Only a bad -x is an error here; a
 * process whose maps cannot be read yet is retried during sampling. */
static int open_maps(struct record *r, struct uf_err *err)
{
	struct uf_err e2 = { 0 };
	if (!maps_readable(r->pid))
		return 0;
	if (r->space)
		unwind_space_add_pid(r->space, r->pid);
	if (r->maps)
		return 0;
	r->maps = symtab_procmap_open(r->pid, r->exe, &e2);
	if (!r->maps && e2.cls == UF_EINPUT) {
		*err = e2;
		return -EINVAL;
	}
	return 0;
}

/* After sampling: catch late mappings while the process still exists
 * (one that ended is held at its exit by ptrace-if until detach, so its
 * maps and files are still there), then let it go. */
static void finish_target(struct record *r)
{
	struct uf_err e2 = { 0 };
	if (r->xen) {
		xen_finish(r);
		return;
	}
	const struct ptrace_info *pi = r->gdb ? NULL : ptrace_target_info(&r->target);
	if (r->gdb)
		;   /* a guest: no process maps */
	else if (r->maps && maps_readable(r->pid))
		symtab_procmap_refresh(r->maps, r->pid, &e2);
	else if (!pi->exited)
		open_maps(r, &e2);
	r->target.ops->detach(&r->target);
}

/* Keeps the backend's counters for the summary, then detaches (which
 * unpauses, and destroys a -c domain with --destroy). */
static void xen_finish(struct record *r)
{
	r->hypercalls = r->target.n_hypercalls;
	r->maps_made = r->target.n_maps;
	r->target.ops->detach(&r->target);
}

/* A process that has exited (a zombie) has empty maps; symtab cannot use
 * them, so they are not worth opening. */
static int maps_readable(pid_t pid)
{
	char path[64], c;
	snprintf(path, sizeof path, "/proc/%d/maps", (int)pid);
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	ssize_t n = read(fd, &c, 1);
	close(fd);
	return n == 1;
}

static int write_outputs(struct record *r, struct uf_err *err)
{
	fold_trie *t = fold_trie_new();
	struct sampler_fold_opts fo = {
		.resolve = resolve, .resolve_ctx = r, .sequence = r->ro.flamechart || time_ordered(r),
		.locate = locate, .locate_ctx = r,
		.thread_name = r->per_thread ? thread_name : NULL, .thread_ctx = r,
	};
	int rc = t ? 0 : -ENOMEM;
	if (!t)
		uf_err_set(err, UF_EINPUT, "fold", "out of memory");
	r->fold_t = t;
	if (!rc)
		rc = sampler_fold(&r->s, t, &fo, err);
	r->fold_t = NULL;
	r->folded_any = !rc;
	if (!rc && fold_trie_finish(t) < 0) {
		uf_err_set(err, UF_EINPUT, "fold", "out of memory");
		rc = -ENOMEM;
	}
	if (!rc && r->inline_frames)
		rc = cli_split_inline(&t, err);
	if (!rc) {
		if (!r->quiet)
			r->libtab = cli_lib_table(t);
		rc = cli_by_lib_apply(&t, r->ro.by_lib, err);
	}
	if (!rc && r->out_raw)
		rc = write_raw(r, err);
	/* --folded stays plain flamegraph.pl text: the metadata comes after */
	if (!rc && r->out_folded)
		rc = cli_write_folded(t, r->out_folded, err);
	if (!rc)
		record_meta(r, t);
	r->io.period_ns = 1e9 / r->so.hz; /* pprof's cpu/nanoseconds per sample */
	if (!rc && r->out_svg && cli_out_format_of(&r->io, r->out_svg, CLI_OUT_SVG) == CLI_OUT_PPROF) {
		/* from the addresses: mappings, build ids, file:line */
		struct cli_pprof_src ps = {
			.s = &r->s, .maps = r->maps, .exe_tab = r->exe_tab, .exe = r->exe,
			.resolve = resolve, .resolve_ctx = r,
			.thread_name = r->per_thread ? thread_name : NULL, .thread_ctx = r,
			.period_ns = r->io.period_ns,
		};
		rc = cli_write_record_pprof(&ps, r->out_svg, err);
	} else if (!rc && r->out_svg) {
		rc = cli_write_profile(t, &r->ro, &r->io, CLI_OUT_SVG, r->out_svg, err);
	}
	fold_trie_free(t);
	return rc;
}

/* Our command line as a shell would take it back (quoted where needed). */
static void command_line(const struct record *r, char *buf, size_t size)
{
	size_t n = (size_t)snprintf(buf, size, "uniprof-flame");
	for (int i = strcmp(r->argv[0], "record") ? 1 : 0; i < r->argc && n < size; i++) {
		const char *a = r->argv[i];
		int plain = *a != 0;
		for (const char *c = a; *c; c++)
			plain &= isalnum((unsigned char)*c) || strchr("-_./:=,+@%", *c) != NULL;
		n += (size_t)snprintf(buf + n, size - n, plain ? " %s" : " '%s'", a);
	}
}

/* What the target was, for the metadata. */
static void target_text(const struct record *r, char *buf, size_t size)
{
	if (r->xen)
		snprintf(buf, size, "xen %s", r->what);
	else if (r->qemu)
		snprintf(buf, size, "qemu %s, gdbstub %s", r->what, r->gdb);
	else if (r->gdb)
		snprintf(buf, size, "gdbstub %s", r->gdb);
	else
		snprintf(buf, size, "process %s", r->what);
}

/* How this profile was made, into t->meta (written into the SVG, and as
 * '#' lines into folded text), and the one-line summary the SVG shows
 * under its title. */
static void record_meta(const struct record *r, fold_trie *t)
{
	const struct sampler_stats *st = &r->s.stats;
	char v[1100], tgt[300], when[64] = "";
	double secs = (double)st->elapsed_ns / 1e9, rate = secs > 0 ? (double)st->samples / secs : 0;
	const char *unw = r->so.unwind == UNWIND_FP ? "fp" : r->so.unwind == UNWIND_CFI ? "cfi" : "auto";
	struct tm tm;
	if (gmtime_r(&r->started, &tm))
		strftime(when, sizeof when, "%Y-%m-%dT%H:%M:%SZ", &tm);
	target_text(r, tgt, sizeof tgt);
	char shortname[200];
	if (r->cmd && !r->qemu) { /* the program's own name, not its path */
		const char *b = strrchr(r->cmd[0], '/');
		snprintf(shortname, sizeof shortname, "%.120s (pid %d)", b ? b + 1 : r->cmd[0], (int)r->pid);
	} else {  /* QEMU's own command and pid, not the private stub's path */
		snprintf(shortname, sizeof shortname, "%.199s", r->qemu ? r->what : tgt);
	}
	snprintf(v, sizeof v, "%s, %s, %.1f s, %" PRIu64 " samples at %.0f/%g Hz, %" PRIu64
		 " missed, unwind %s", shortname, when, secs, st->samples, rate, r->so.hz, st->missed, unw);
	fold_meta_add(t, "subtitle", v);
	fold_meta_add(t, "target", tgt);
	if (r->exe) {
		char bid[160] = "";
		if (r->exe_tab)
			symtab_build_id_hex(r->exe_tab, bid, sizeof bid);
		fold_meta_add(t, "exe", r->exe);
		fold_meta_add(t, "build-id", bid[0] ? bid : "none");
	}
	fold_meta_add(t, "start", when);
	snprintf(v, sizeof v, "%.3f s", secs);
	fold_meta_add(t, "duration", v);
	snprintf(v, sizeof v, "%g Hz", r->so.hz);
	fold_meta_add(t, "rate-requested", v);
	snprintf(v, sizeof v, "%.1f Hz", rate);
	fold_meta_add(t, "rate-achieved", v);
	snprintf(v, sizeof v, "%" PRIu64 " (%" PRIu64 " stacks)", st->samples, st->thread_samples);
	fold_meta_add(t, "samples", v);
	snprintf(v, sizeof v, "%" PRIu64, st->missed);
	fold_meta_add(t, "missed-deadlines", v);
	fold_meta_add(t, "unwind", unw);
	snprintf(v, sizeof v, "%u", st->max_threads);
	fold_meta_add(t, r->gdb || r->xen ? "vcpus" : "threads", v);
	fold_meta_add(t, "version", "uniprof-flame " UF_VERSION);
	command_line(r, v, sizeof v);
	fold_meta_add(t, "command", v);
}

static int write_raw(struct record *r, struct uf_err *err)
{
	struct uf_outfile o;
	int rc = uf_outfile_open(&o, r->out_raw, err);
	if (rc < 0)
		return rc;
	rc = sampler_write_raw(&r->s, o.fp, r->what, err);
	if (rc < 0) {
		uf_outfile_abort(&o);
		return rc;
	}
	return uf_outfile_commit(&o, err);
}

static size_t resolve(void *ctx, uint64_t addr, int is_return, char *buf, size_t size)
{
	struct record *r = ctx;
	const char *name = NULL;
	size_t len = 0;
	if (r->maps) {
		int flags = (is_return ? SYMTAB_RET : 0) | (r->addrs ? SYMTAB_ADDRS : 0);
		name = symtab_procmap_lookup(r->maps, addr, flags, buf, size, &len);
	} else if (r->exe_tab) {
		name = is_return ? symtab_lookup_ret(r->exe_tab, addr, NULL, &len)
				 : symtab_lookup(r->exe_tab, addr, NULL, &len);
	}
	if (!name && r->addrs) {
		int n = snprintf(buf, size, "0x%" PRIx64, addr);
		return n < 0 ? 0 : (size_t)n < size ? (size_t)n : size - 1;
	}
	if (!name)
		return 0;
	len = len < size ? len : size - 1;
	if (name != buf)
		memmove(buf, name, len);
	if (r->fold_t && (r->inline_frames || r->lines))
		len = add_inlined(r, addr, is_return, buf, len, size);
	if (r->fold_t)
		frame_lib(r, addr, is_return, buf, len);
	return len;
}

/* The DWARF of a frame's code: the mapped file's (the -x image for the
 * main program and for guests), with *pc its file address (the return
 * address - 1 for callers, less the mapping's bias).  NULL: none. */
static struct symtab_libs *code_of(struct record *r, uint64_t addr, int is_return, uint64_t *pc)
{
	struct symtab_mapping m;
	*pc = is_return && addr ? addr - 1 : addr;
	if (r->maps && symtab_procmap_mapping(r->maps, *pc, &m) == 0 && m.path) {
		*pc = m.has_bias ? *pc - m.bias : *pc;
		return libs_for(r, m.is_main && r->exe ? r->exe : m.path);
	}
	return !r->maps && r->exe ? libs_for(r, r->exe) : NULL;
}

/* " FILE:LINE" (the file's base name) for --lines, when DWARF knows it. */
static int line_suffix(const struct symtab_srcpos *p, char *buf, size_t size)
{
	if (!p->file)
		return 0;
	const char *b = strrchr(p->file, '/');
	int k = snprintf(buf, size, " %s:%d", b ? b + 1 : p->file, p->line);
	return k < 0 || (size_t)k >= size ? 0 : k;
}

/* --inline: appends CLI_INLINE_SEP NAME_[i] for each function DWARF says
 * is inlined at the address, outermost first (cli_split_inline makes
 * them frames once the trie is folded); --lines: " FILE:LINE" after each
 * level's name (before _[i]), each level's own position (symtab.h). */
static size_t add_inlined(struct record *r, uint64_t addr, int is_return, char *buf, size_t len,
			  size_t size)
{
	uint64_t pc;
	struct symtab_libs *l = code_of(r, addr, is_return, &pc);
	struct symtab_srcpos pos[SYMTAB_MAX_INLINE + 1];
	const char *names[SYMTAB_MAX_INLINE];
	int n = l ? symtab_libs_frames(l, pc, pos, names, SYMTAB_MAX_INLINE + 1) : 0;
	char sfx[300] = "";
	if (!r->inline_frames && n > 1)
		n = 1; /* the function's own line: pos[0] */
	if (r->lines && n > 0 && pos[0].file) {
		r->lines_found++;
		int k = line_suffix(&pos[0], sfx, sizeof sfx);
		if ((size_t)k < size - len) {
			memcpy(buf + len, sfx, (size_t)k);
			len += (size_t)k;
		}
	}
	for (int i = 0; i + 1 < n; i++) {
		if (!r->lines || !line_suffix(&pos[i + 1], sfx, sizeof sfx))
			sfx[0] = 0;
		int k = snprintf(buf + len, size - len, "%c%s%s_[i]", CLI_INLINE_SEP, names[i], sfx);
		if (k < 0 || (size_t)k >= size - len)
			break; /* what fits: the outer ones */
		len += (size_t)k;
	}
	return len;
}

/* The source position of a frame for its tooltip ("FILE:LINE", the path
 * as DWARF names it): with --inline one per level, joined by
 * CLI_INLINE_SEP as the name's parts are (cli_split_inline gives each
 * part its own); else the outermost level's, the line in the function
 * the frame names (for inlined code, the call site of the outermost
 * inlined function, as pprof -noinlines gives it).  0: unknown. */
static size_t locate(void *ctx, uint64_t addr, int is_return, char *buf, size_t size)
{
	struct record *r = ctx;
	uint64_t pc;
	struct symtab_libs *l = code_of(r, addr, is_return, &pc);
	struct symtab_srcpos pos[SYMTAB_MAX_INLINE + 1];
	int n = l ? symtab_libs_frames(l, pc, pos, NULL, SYMTAB_MAX_INLINE + 1) : 0;
	size_t len = 0;
	if (!r->inline_frames && n > 1)
		n = 1;
	int any = 0;
	for (int i = 0; i < n; i++) {
		if (i && len + 1 < size)
			buf[len++] = CLI_INLINE_SEP;
		int k = pos[i].file ? snprintf(buf + len, size - len, "%s:%d", pos[i].file, pos[i].line) : 0;
		if (k < 0 || (size_t)k >= size - len)
			return 0;
		len += (size_t)k;
		any |= pos[i].file != NULL;
	}
	return any ? len : 0;
}

/* The library handle of a mapped file (opened once; NULL past the cache). */
static struct symtab_libs *libs_for(struct record *r, const char *path)
{
	for (int i = 0; i < r->nlibf; i++)
		if (!strcmp(r->libf[i].path, path))
			return r->libf[i].libs;
	if (r->nlibf == (int)(sizeof r->libf / sizeof r->libf[0]))
		return NULL;
	struct uf_err e2 = { 0 };
	struct lib_file *f = &r->libf[r->nlibf];
	if (!(f->path = strdup(path)))
		return NULL;
	f->libs = symtab_libs_open(path, &e2);
	r->nlibf++;
	return f->libs;
}

/* Records the library of a resolved frame in the trie being filled: from
 * the code's DWARF (or STT_FILE) by symtab's rules; for a process, else
 * the mapped file's name (libc.so.6).  No library is not an error. */
static void frame_lib(struct record *r, uint64_t addr, int is_return, const char *name, size_t len)
{
	char lib[SYMTAB_LIB_MAX];
	size_t ln = 0;
	int strong = 1;  /* may replace the library another function of this name set */
	uint64_t pc = is_return && addr ? addr - 1 : addr;
	struct symtab_mapping m;
	if (r->maps && symtab_procmap_mapping(r->maps, pc, &m) == 0 && m.path) {
		strong = m.is_main; /* ld.so's _start must not take the program's */
		const char *path = m.is_main && r->exe ? r->exe : m.path;
		struct symtab_libs *l = libs_for(r, path);
		if (l)
			ln = symtab_libs_lookup(l, m.has_bias ? pc - m.bias : pc, lib, sizeof lib);
		if (!ln) {
			const char *b = strrchr(m.path, '/');
			ln = symtab_lib_of_source("", b ? b + 1 : m.path, lib, sizeof lib);
		}
	} else if (!r->maps && r->exe) {
		struct symtab_libs *l = libs_for(r, r->exe);
		ln = l ? symtab_libs_lookup(l, pc, lib, sizeof lib) : 0;
	}
	/* A library is per name: two functions of one name (static ones in
	 * two files, _start in ld.so and the program) share the first one
	 * set, or the main program's. */
	uint32_t nm = ln ? fold_trie_intern(r->fold_t, name, len) : FOLD_NONE;
	if (nm != FOLD_NONE && (strong || fold_trie_lib(r->fold_t, nm) == FOLD_NONE))
		fold_trie_set_lib(r->fold_t, nm, lib, ln);
}

static void libs_release(struct record *r)
{
	for (int i = 0; i < r->nlibf; i++) {
		free(r->libf[i].path);
		symtab_libs_free(r->libf[i].libs);
	}
	r->nlibf = 0;
	free(r->libtab);
	r->libtab = NULL;
}

static size_t thread_name(void *ctx, uint32_t tid, char *buf, size_t size)
{
	struct record *r = ctx;
	if (r->gdb || r->xen) {
		int n = snprintf(buf, size, "vcpu-%u", tid);
		return n < 0 ? 0 : (size_t)n < size ? (size_t)n : size - 1;
	}
	return ptrace_target_thread_name(&r->target, tid, buf, size);
}

static void on_signal(int sig)
{
	(void)sig;
	stop_flag = 1;
}

/* SIGINT, SIGTERM and SIGHUP end the run (no SA_RESTART, so sleeps and
 * waits return at once); uninstall restores the defaults. */
static void signals(int install)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = install ? on_signal : SIG_DFL;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
}

/* Every 250 ms: re-read the mappings about once a second, and on a
 * terminal redraw the progress line. */
static void progress(void *ctx, const struct sampler_stats *st)
{
	struct record *r = ctx;
	if (!r->gdb && (st->elapsed_ns - r->last_refresh >= 1000000000ull || !r->last_refresh)) {
		struct uf_err e2 = { 0 };
		r->last_refresh = st->elapsed_ns ? st->elapsed_ns : 1;
		if (r->maps && maps_readable(r->pid)) {
			symtab_procmap_refresh(r->maps, r->pid, &e2);
			if (r->space)
				unwind_space_add_pid(r->space, r->pid);
		} else {
			open_maps(r, &e2);
		}
	}
	if (r->quiet || !isatty(2))
		return;
	double s = (double)st->elapsed_ns / 1e9;
	fprintf(stderr, "\r\033[K%.1f s  %" PRIu64 " samples  %.0f/s  %" PRIu64 " missed", s,
		st->samples, s > 0 ? (double)st->samples / s : 0.0, st->missed);
	r->progress_shown = 1;
}

/* Spawn mode: the program's wait status, or -1 when unknown.  When -T
 * ended the recording while it still runs, it is our child in our
 * terminal's process group: wait for it like a shell would (Ctrl-C now
 * reaches it with the default action) instead of leaving it behind.
 * After a signal to us we do not wait: the user asked us to end. */
static int wait_program(const struct record *r)
{
	const struct ptrace_info *pi = ptrace_target_info(&r->target);
	int st;
	if (!pi)
		return -1;
	if (pi->exited)
		return pi->status;
	pid_t w = waitpid(r->pid, &st, WNOHANG);
	if (w == r->pid)
		return st;
	if (w != 0 || r->s.stats.interrupted)
		return -1;
	if (!r->quiet)
		fprintf(stderr, "uniprof-flame: outputs written; waiting for %s to exit\n", r->what);
	while ((w = waitpid(r->pid, &st, 0)) < 0 && errno == EINTR)
		;
	if (w != r->pid)
		return -1;
	if (!r->quiet && WIFEXITED(st))
		fprintf(stderr, "uniprof-flame: %s exited with status %d\n", r->what, WEXITSTATUS(st));
	else if (!r->quiet && WIFSIGNALED(st))
		fprintf(stderr, "uniprof-flame: %s was killed by signal %d\n", r->what, WTERMSIG(st));
	return st;
}

/* How the walks ended, and what found the callers. */
static void summary_walks(const struct record *r)
{
	const struct unwind_stats *w = &r->s.stats.walk;
	uint64_t steps = w->steps_cfi + w->steps_fp + w->steps_leaf + w->steps_intr;
	fprintf(stderr,
		"uniprof-flame: walks (--unwind=%s): %" PRIu64 " complete, %" PRIu64 " at max depth, %"
		PRIu64 " ended early (%" PRIu64 " bad frame, %" PRIu64 " unreadable, %" PRIu64
		" no unwind info or frame pointer); callers %.1f%% by CFI, %.1f%% by the leaf rule, %" PRIu64 " through interrupt frames\n",
		r->so.unwind == UNWIND_FP ? "fp" : r->so.unwind == UNWIND_CFI ? "cfi" : "auto",
		w->ends[UNWIND_COMPLETE], w->ends[UNWIND_DEPTH],
		w->ends[UNWIND_BAD_FRAME] + w->ends[UNWIND_UNREADABLE] + w->ends[UNWIND_NOINFO],
		w->ends[UNWIND_BAD_FRAME], w->ends[UNWIND_UNREADABLE], w->ends[UNWIND_NOINFO],
		steps ? 100.0 * (double)w->steps_cfi / (double)steps : 0.0,
		steps ? 100.0 * (double)w->steps_leaf / (double)steps : 0.0, w->steps_intr);
}

static void summary(const struct record *r)
{
	const struct sampler_stats *st = &r->s.stats;
	fprintf(stderr,
		"uniprof-flame: %s: %" PRIu64 " samples (%" PRIu64 " stacks, up to %u threads) in "
		"%.2f s, %" PRIu64 " missed deadlines\n",
		r->what, st->samples, st->thread_samples, st->max_threads,
		(double)st->elapsed_ns / 1e9, st->missed);
	fprintf(stderr,
		"uniprof-flame: stopped per sample: median %.1f us, p99 %.1f us, max %.1f us "
		"(all threads frozen: median %.1f us, p99 %.1f us)\n",
		(double)sampler_hist_quantile(&st->stop, 0.5) / 1e3,
		(double)sampler_hist_quantile(&st->stop, 0.99) / 1e3, (double)st->stop.max_ns / 1e3,
		(double)sampler_hist_quantile(&st->frozen, 0.5) / 1e3,
		(double)sampler_hist_quantile(&st->frozen, 0.99) / 1e3);
	summary_walks(r);
	if (r->libtab)
		fputs(r->libtab, stderr);
	if (r->xen) {
		summary_xen(r);
		return;
	}
	const struct ptrace_info *pi = r->gdb ? NULL : ptrace_target_info(&r->target);
	const char *upath = NULL, *uwhy = NULL;
	size_t unread = r->maps ? symtab_procmap_unreadable(r->maps, &upath, &uwhy) : 0;
	if (unread) {
		/* the path is the target's text: no control bytes reach the terminal */
		fprintf(stderr, "uniprof-flame: symbols: %zu mapped file%s could not be read, their "
			"frames are unknown (first: ", unread, unread == 1 ? "" : "s");
		for (const unsigned char *c = (const unsigned char *)upath; *c; c++)
			fprintf(stderr, *c < 0x20 || *c == 0x7f || *c == '\\' ? "\\x%02x" : "%c", *c);
		fprintf(stderr, ": %c%s)\n", tolower((unsigned char)uwhy[0]), uwhy + 1);
	}
	if (r->gdb && st->target_gone && !r->qemu)
		fprintf(stderr, "uniprof-flame: %s: connection closed (the guest or QEMU exited); "
			"wrote what was sampled\n", r->what);
	if (pi && pi->exited && WIFEXITED(pi->status))
		fprintf(stderr, "uniprof-flame: %s exited with status %d\n", r->what,
			WEXITSTATUS(pi->status));
	else if (pi && pi->exited && WIFSIGNALED(pi->status))
		fprintf(stderr, "uniprof-flame: %s was killed by signal %d\n", r->what,
			WTERMSIG(pi->status));
	else if (st->interrupted && r->qemu)
		fprintf(stderr, "uniprof-flame: %s: interrupted; ending QEMU\n", r->what);
	else if (st->interrupted)
		fprintf(stderr, "uniprof-flame: %s: interrupted; detached%s\n", r->what,
			r->cmd ? "" : ", the target keeps running");
}
