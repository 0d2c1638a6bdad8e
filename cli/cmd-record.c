/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * cli/cmd-record.c — `uniprof-flame [record] -p PID | -- CMD ... | --gdb
 * ADDR | --qemu -- QEMU ... | -d DOMAIN | -c CFG`: parse the options into
 * struct record_opts and make one call, record_run() (record/record.h),
 * whose return is the exit status.
 *
 * The target options come from record/'s backend table: each row with an
 * option becomes a getopt entry, and "name one target", "needs -x" and
 * "--destroy" are checked against the row's flags.  What is written and
 * how (--format, --by=lib, --inline's split) stays here, handed to
 * record/ as its sink, because render, fold and diff share it.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cmd.h"
#include "cli/io-opts.h"
#include "cli/render-opts.h"
#include "record/record.h"
#include "unwind/unwind.h"

_Static_assert(RECORD_INLINE_SEP == FOLD_INLINE_SEP, "record's and the view's inline separator");

/* The command's state: the options record/ reads, and the CLI's own. */
struct cmd {
	struct record_opts ro;
	struct render_opts render;
	struct cli_io_opts io;    /* --format: -o's format */
	const struct record_backend *named[2]; /* target rows named, at most two kept */
	int nnamed;
};

/* Our short options; the target rows add theirs (-p, -d, -c). */
#define RECORD_SHORTOPTS "+x:o:F:T:qh"

enum { OPT_MAXDEPTH = 1, OPT_FOLDED, OPT_RAW, OPT_ADDRS, OPT_PERTHREAD, OPT_DESTROY, OPT_UNWIND,
       OPT_FORMAT, OPT_INLINE, OPT_LINES, OPT_STATE, OPT_ONCPU, OPT_TARGET = 3000 };

static const struct option own_opts[] = {
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
	{ "state", required_argument, 0, OPT_STATE },
	{ "on-cpu", no_argument, 0, OPT_ONCPU },
	{ "quiet", no_argument, 0, 'q' },
	{ "help", no_argument, 0, 'h' },
	{ 0, 0, 0, 0 },
};

static int parse(struct cmd *c, int argc, char **argv);
static int parse_opt(struct cmd *c, int opt, const char *arg);
static int check_args(struct cmd *c, int argc, char **argv);
static int parse_num(const char *opt, const char *arg, double lo, double hi, double *out);
static struct option *target_options(char *shortopts, size_t size);
static int help(void);
static int sink_view(void *ctx, fold_trie **t, char **libtab, struct uf_err *err);
static int sink_write(void *ctx, const fold_trie *t, const char *path, int folded,
		      struct uf_err *err);
static void sink_warn(const char *msg);

int cmd_record(int argc, char **argv)
{
	struct cmd *c = calloc(1, sizeof *c);
	if (!c)
		return cli_oom("record");
	int rc = parse(c, argc, argv);
	if (rc == 0) {
		struct record_opts *o = &c->ro;
		o->argc = argc;
		o->argv = argv;
		o->version = "uniprof-flame " UF_VERSION;
		o->log = o->quiet ? NULL : stderr;
		o->sink = (struct record_sink){ sink_view, sink_write, cli_fail, sink_warn, c };
		c->io.period_ns = 1e9 / o->so.hz; /* pprof's and speedscope's time per sample */
		rc = record_run(o);
	}
	free(c);
	return rc < 0 ? 0 : rc; /* rc < 0: --help */
}

/* Fills c from the command line; returns 0, -1 after --help, or an exit
 * status. */
static int parse(struct cmd *c, int argc, char **argv)
{
	char shortopts[64];
	struct option *targets = target_options(shortopts, sizeof shortopts);
	struct option *opts = targets ? cli_options_merge(targets) : NULL;
	free(targets);
	if (!opts)
		return cli_oom("record");
	record_opts_init(&c->ro);
	render_opts_init(&c->render);
	int opt, rc = 0;
	optind = 1;
	while (!rc && (opt = cli_getopt(argc, argv, shortopts, opts, "record")) != -1)
		rc = parse_opt(c, opt, optarg);
	free(opts);
	return rc ? rc : check_args(c, argc, argv);
}

static int parse_opt(struct cmd *c, int opt, const char *arg)
{
	struct record_opts *o = &c->ro;
	double v;
	int rc = 0;
	for (const struct record_backend *b = record_backends; b->target; b++) {
		if (!b->option || opt != (b->short_opt ? b->short_opt : OPT_TARGET + (b - record_backends)))
			continue;
		if (c->nnamed < 2)
			c->named[c->nnamed] = b;
		c->nnamed++;
		o->target_arg = arg;
		return 0;
	}
	switch (opt) {
	case OPT_DESTROY: o->destroy = 1; break;
	case 'x': o->exe = arg; break;
	case 'o': o->out = arg; break;
	case 'F': rc = parse_num("-F", arg, 0.001, 100000, &o->so.hz); break;
	case 'T': rc = parse_num("-T", arg, 0.001, 1e7, &o->so.seconds); break;
	case OPT_MAXDEPTH:
		rc = parse_num("--max-depth", arg, 1, SAMPLER_MAX_DEPTH, &v);
		o->so.max_depth = (unsigned)v;
		break;
	case OPT_UNWIND:
		if (unwind_mode_parse(arg, &o->unwind) < 0)
			rc = cli_usage("record ", "--unwind: '%s' is not auto, cfi or fp", arg);
		break;
	case OPT_FOLDED: o->out_folded = arg; break;
	case OPT_RAW: o->out_raw = arg; break;
	case OPT_ADDRS: o->addrs = 1; break;
	case OPT_INLINE: o->inline_frames = 1; break;
	case OPT_LINES: o->lines = 1; break;
	case OPT_PERTHREAD: o->per_thread = 1; break;
	case OPT_STATE:
	case OPT_ONCPU:
		if (cli_cut_opt(&o->cut, opt == OPT_STATE ? "state" : "on-cpu", arg, "record ") != 1)
			rc = UF_EXIT_USAGE;
		break;
	case 'q': o->quiet = 1; break;
	case 'h': help(); return -1;
	case '?': return UF_EXIT_USAGE; /* the message is out */
	case OPT_FORMAT:
		if (cli_io_format(&c->io, arg, 0) != 1)
			rc = UF_EXIT_USAGE;
		break;
	default:
		if (cli_render_opt(&c->render, opt, arg) != 1)
			rc = UF_EXIT_USAGE;
	}
	return rc;
}

/* "record: name one target (-d DOMAIN, ... or -- PROGRAM ARGS...)", the
 * ways from record/backends.c's table. */
static int name_one_target(void)
{
	char ways[512];
	size_t n = 0;
	for (const struct record_backend *b = record_backends; b->target && n < sizeof ways; b++)
		n += (size_t)snprintf(ways + n, sizeof ways - n, "%s%s", b == record_backends ? "" :
				      b[1].target ? ", " : " or ", b->usage);
	return cli_usage("record ", "record: name one target (%s)", ways);
}

/* What getopt cannot check: one target (a row, or the command after --),
 * what its row needs, at least one output. */
static int check_args(struct cmd *c, int argc, char **argv)
{
	struct record_opts *o = &c->ro;
	int dashdash = optind > 1 && !strcmp(argv[optind - 1], "--");
	if (optind < argc && !dashdash)
		return cli_usage("record ", "'%s': unexpected argument (a program to run goes after --)",
				 argv[optind]);
	if (optind < argc)
		o->cmd = argv + optind;
	const struct record_backend *b = c->nnamed ? c->named[0] : NULL;
	if (b && !(b->flags & RECORD_BK_TAKES_CMD) && o->cmd)
		c->nnamed++;   /* a target and a command */
	if (!b && o->cmd)
		b = record_backend_by_option(NULL), c->nnamed = 1;
	if (c->nnamed != 1)
		return name_one_target();
	o->backend = b;
	struct uf_err e = { 0 };
	if (b->check && b->check(o, &e) < 0)
		return cli_usage("record ", "%s: %s", e.what, e.why);
	if ((b->flags & RECORD_BK_NEEDS_EXE) && !o->exe && !o->addrs)
		return cli_usage("record ", "'--%s': needs -x GUEST.dbg for symbols (or --addrs)",
				 b->option);
	enum cli_out_format f = o->out ? cli_out_format_of(&c->io, o->out, CLI_OUT_SVG) : CLI_OUT_AUTO;
	o->sequence = c->render.flamechart || f == CLI_OUT_SPEEDSCOPE;
	o->out_pprof = f == CLI_OUT_PPROF;
	o->by_lib = c->render.by_lib;
	if (o->inline_frames && o->sequence)
		return cli_usage("record ", "'--inline': cannot be combined with a time-ordered output");
	if (o->by_lib && o->sequence)
		return cli_usage("record ", "'--by=lib': cannot be combined with a time-ordered output");
	if ((c->render.callers || c->render.callees) && o->sequence)
		return cli_usage("record ", "'--%s': cannot be combined with a time-ordered output",
				 c->render.callers ? "callers" : "callees");
	/* an SVG's time view (issue 30) needs each sample's time: kept where
	 * nothing above refuses a time order (memory: one event per sample) */
	if (f == CLI_OUT_SVG && !o->inline_frames && !o->by_lib && !c->render.callers && !c->render.callees)
		o->sequence = 1;
	if (o->destroy && !(b->flags & RECORD_BK_DESTROY))
		return cli_usage("record ", "'--destroy': only applies to a domain created with -c");
	if (!o->out && !o->out_folded && !o->out_raw)
		return cli_usage("record ", "record: no output: give -o FILE.svg, --folded FILE or --raw FILE");
	return 0;
}

/* The target options of record/'s table, then our own (the caller merges
 * the render options); shortopts gets getopt's string. */
static struct option *target_options(char *shortopts, size_t size)
{
	size_t nrows = 0, nown = sizeof own_opts / sizeof own_opts[0], k = 0;
	while (record_backends[nrows].target)
		nrows++;
	struct option *all = calloc(nrows + nown, sizeof *all);
	if (!all)
		return NULL;
	size_t n = (size_t)snprintf(shortopts, size, "%s", RECORD_SHORTOPTS);
	for (size_t i = 0; i < nrows; i++) {
		const struct record_backend *b = &record_backends[i];
		if (!b->option)
			continue;
		int no_arg = (b->flags & RECORD_BK_NO_ARG) != 0;
		all[k++] = (struct option){ b->option, no_arg ? no_argument : required_argument, 0,
					    b->short_opt ? b->short_opt : OPT_TARGET + (int)i };
		if (b->short_opt && n + 3 < size)
			n += (size_t)snprintf(shortopts + n, size - n, "%c%s", b->short_opt,
					      no_arg ? "" : ":");
	}
	memcpy(all + k, own_opts, sizeof own_opts);
	return all;
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

/* ---- the sink: the CLI's view and writers ------------------------------- */

static int sink_view(void *ctx, fold_trie **t, char **libtab, struct uf_err *err)
{
	struct cmd *c = ctx;
	int rc = c->ro.inline_frames ? cli_split_inline(t, err) : 0;
	if (rc)
		return rc;
	if (libtab)
		*libtab = cli_lib_table(*t);
	rc = cli_by_lib_apply(t, c->ro.by_lib, err);
	return rc ? rc : cli_sandwich_apply(t, c->render.callers, c->render.callees, err);
}

static int sink_write(void *ctx, const fold_trie *t, const char *path, int folded,
		      struct uf_err *err)
{
	struct cmd *c = ctx;
	if (folded)
		return cli_write_folded(t, path, err);
	return cli_write_profile(t, &c->render, &c->io, CLI_OUT_SVG, path, err);
}

static void sink_warn(const char *msg)
{
	cli_warn("%s", msg);
}

/* The help of one row: "  -p, --pid PID        text", the text at
 * column 23 (on the next line when the option is longer), each of its
 * lines indented there. */
static void help_target(FILE *to, const struct record_backend *b)
{
	char opt[64];
	const char *arg = strchr(b->usage, ' ');
	if (!b->option)
		snprintf(opt, sizeof opt, "  %s", b->usage);
	else if (b->short_opt)
		snprintf(opt, sizeof opt, "  -%c, --%s%s", b->short_opt, b->option, arg ? arg : "");
	else
		snprintf(opt, sizeof opt, "      --%s%s", b->option, arg ? arg : "");
	fputs(opt, to);
	int col = (int)strlen(opt);
	for (const char *s = b->help; *s;) {
		size_t n = strcspn(s, "\n");
		if (col > 21)
			fputc('\n', to), col = 0;
		fprintf(to, "%*s%.*s\n", 23 - col, "", (int)n, s);
		col = 0;
		s += n + (s[n] == '\n');
	}
}

/* The options of the rows with `flag` ("-d, -c, --gdb"), into buf. */
static const char *options_with(unsigned flag, char *buf, size_t size)
{
	size_t n = 0;
	buf[0] = 0;
	for (const struct record_backend *b = record_backends; b->target && n < size; b++)
		if ((b->flags & flag) && b->option)
			n += (size_t)(b->short_opt ? snprintf(buf + n, size - n, "%s-%c", n ? ", " : "", b->short_opt)
						   : snprintf(buf + n, size - n, "%s--%s", n ? ", " : "", b->option));
	return buf;
}

void cli_record_synopsis(FILE *to, const char *first, const char *prog)
{
	for (const struct record_backend *b = record_backends; b->target; b++) {
		const char *exe = b->flags & RECORD_BK_NEEDS_EXE ? " -x GUEST.dbg"
				  : b->flags & RECORD_BK_IMAGE   ? " [-x GUEST.elf]" : "";
		fprintf(to, "%*s%s%s %s\n", (int)strlen(first), b == record_backends ? first : "", prog, exe,
			b->usage);
	}
}

static int help(void)
{
	cli_record_synopsis(stdout, "usage: ", "uniprof-flame [record] [options] -o OUT.svg");
	putchar('\n');
	for (const struct record_backend *b = record_backends; b->target; b++)
		help_target(stdout, b);
	char destroy[128], image[128];
	printf("      --destroy        with %s: destroy the domain at the end\n"
	       "      --per-vcpu       one tower per vCPU (root frame vcpu-N)\n"
	       "  -x, --exe ELF        symbols of the main program from ELF (default /proc/PID/exe;\n"
	       "                       with %s: the guest's image,\n"
	       "                       addresses as they are)\n",
	       options_with(RECORD_BK_DESTROY, destroy, sizeof destroy),
	       options_with(RECORD_BK_IMAGE, image, sizeof image));
	printf("  -o, --output FILE    flame graph SVG ('-' = stdout); .pb.gz: pprof, .speedscope.json:\n"
	       "                       speedscope (samples in time order), .folded: folded text\n"
	       "      --format FMT     -o's format whatever its name: svg, folded, pprof, speedscope\n"
	       "  -F, --frequency HZ   samples per second (default 99)\n"
	       "  -T, --time SECONDS   wall time (default: until the target ends or Ctrl-C)\n"
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
	       "      --state LIST     keep samples in these run states (running, runnable,\n"
	       "                       blocked, offline, unknown, waiting, on-cpu, all) in -o\n"
	       "                       and --folded (--raw keeps all); where the target tells\n"
	       "                       states, waiting samples end in a [blocked] frame\n"
	       "      --on-cpu         --state running: a CPU profile comparable to perf's\n"
	       "  -q, --quiet          no progress line, no summary\n\n");
	cli_render_help_for(stdout, "record");
	return 0;
}
