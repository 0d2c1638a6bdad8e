/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * cli/io-opts.c — see cli/io-opts.h.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cmd.h"
#include "cli/io-opts.h"
#include "cli/render-opts.h"
#include "fold/out/out.h"
#include "util/outfile.h"

enum {
	O_FORMAT = CLI_IO_OPT_BASE, O_PID, O_TID, O_KERNEL, O_JIT, O_ALL, O_ADDRS, O_EVENT,
	O_TIME, O_STATE, O_ON_CPU,
};

static const struct option io_options[] = {
	{ "format", required_argument, 0, O_FORMAT },
	{ "pid", no_argument, 0, O_PID },
	{ "tid", no_argument, 0, O_TID },
	{ "kernel", no_argument, 0, O_KERNEL },
	{ "jit", no_argument, 0, O_JIT },
	{ "all", no_argument, 0, O_ALL },
	{ "event-filter", required_argument, 0, O_EVENT },
	{ "time", required_argument, 0, O_TIME },
	{ "state", required_argument, 0, O_STATE },
	{ "on-cpu", no_argument, 0, O_ON_CPU },
	{ "addrs", no_argument, 0, O_ADDRS }, /* last: commands may keep their own */
	{ 0, 0, 0, 0 },
};

struct option *cli_io_options_merge(const struct option *own, enum cli_io_which which)
{
	size_t a = 0, b = sizeof io_options / sizeof io_options[0] - 1;
	if (which == CLI_IO_NO_ADDRS)
		b--;
	while (own[a].name)
		a++;
	struct option *all = calloc(a + b + 1, sizeof *all);
	if (!all)
		return NULL;
	memcpy(all, own, a * sizeof *all);
	memcpy(all + a, io_options, b * sizeof *all);
	return all;
}

int cli_io_format(struct cli_io_opts *io, const char *arg, int inputs)
{
	static const struct { const char *name; int out; } formats[] = {
		{ "svg", CLI_OUT_SVG }, { "folded", CLI_OUT_FOLDED }, { "pprof", CLI_OUT_PPROF },
		{ "speedscope", CLI_OUT_SPEEDSCOPE },
	};
	if (inputs && strcmp(arg, "perf") == 0) {
		io->force_perf = 1;
		return 1;
	}
	for (size_t i = 0; i < sizeof formats / sizeof formats[0]; i++) {
		if (strcmp(arg, formats[i].name) == 0) {
			io->out = (enum cli_out_format)formats[i].out;
			return 1;
		}
	}
	fprintf(stderr, "uniprof-flame: '--format': unknown format '%s' (%ssvg, folded, pprof, "
			"speedscope)\n", arg, inputs ? "perf, " : "");
	return -1;
}

int cli_io_opt(struct cli_io_opts *io, int c, const char *arg)
{
	switch (c) {
	case O_FORMAT:
		return cli_io_format(io, arg, 1);
	case O_PID: io->perf.pid = 1; return 1;
	case O_TID: io->perf.tid = 1; return 1;
	case O_KERNEL: io->perf.kernel = 1; return 1;
	case O_JIT: io->perf.jit = 1; return 1;
	case O_ALL: io->perf.all = 1; return 1;
	case O_ADDRS: io->perf.addrs = 1; return 1;
	case O_EVENT: io->perf.event = arg; return 1;
	case O_TIME: return cli_cut_opt(&io->cut, "time", arg, "");
	case O_STATE: return cli_cut_opt(&io->cut, "state", arg, "");
	case O_ON_CPU: return cli_cut_opt(&io->cut, "on-cpu", arg, "");
	}
	return 0;
}

/* One bound of --time: seconds, a decimal number >= 0, into ns. */
static int parse_seconds(const char *s, size_t len, uint64_t *ns)
{
	char buf[64], *end;
	if (len == 0 || len >= sizeof buf || s[0] == '+' || s[0] == '-')
		return -1;
	memcpy(buf, s, len);
	buf[len] = 0;
	double v = strtod(buf, &end);
	if (end == buf || *end || !(v >= 0 && v <= 1e9))
		return -1;
	*ns = (uint64_t)(v * 1e9 + 0.5);
	return 0;
}

int cli_cut_opt(struct fold_cut *cut, const char *name, const char *arg, const char *cmd)
{
	if (!strcmp(name, "on-cpu") || !strcmp(name, "state")) {
		unsigned set = 0;
		const char *word = name[0] == 'o' ? "running" : arg;
		for (const char *p = word; *p;) {
			size_t n = strcspn(p, ",");
			char w[32];
			unsigned one = 0;
			if (n < sizeof w) {
				memcpy(w, p, n);
				w[n] = 0;
				one = uf_runstate_set_parse(w);
			}
			if (!one)
				return cli_usage(cmd, "'--state': '%.*s' is not a state (running, waiting, "
						 "runnable, blocked, offline, unknown, on-cpu, all)", (int)n, p), -1;
			set |= one;
			p += n + (p[n] == ',');
		}
		if (cut->states && cut->states != set)
			return cli_usage(cmd, "'--%s': --state and --on-cpu given twice, differently",
					 name), -1;
		cut->states = set;
		return 1;
	}
	const char *dash = strchr(arg, '-');
	uint64_t from = 0, to = UINT64_MAX;
	if (!dash || (dash == arg && !dash[1]) ||
	    (dash > arg && parse_seconds(arg, (size_t)(dash - arg), &from) < 0) ||
	    (dash[1] && parse_seconds(dash + 1, strlen(dash + 1), &to) < 0) || from >= to)
		return cli_usage(cmd, "'--time': '%s' is not FROM-TO in seconds from the first "
				 "sample (FROM < TO; either may be left out: 2.5-, -10)", arg), -1;
	cut->timed = 1;
	cut->from_ns = from;
	cut->to_ns = to;
	return 1;
}

void cli_cut_help(FILE *to)
{
	fputs("Time and run state (inputs with sample times and states: record, raw traces,\n"
	      "`perf script` with timestamps and sched:sched_switch events):\n"
	      "      --time FROM-TO  keep samples taken FROM <= t < TO seconds after the first\n"
	      "                      sample (decimals; 2.5- and -10 leave an end open)\n"
	      "      --state LIST    keep samples in these run states, comma-separated:\n"
	      "                      running, runnable, blocked, offline, unknown, waiting\n"
	      "                      (runnable + blocked), on-cpu, all.  Waiting samples end\n"
	      "                      in a [runnable]/[blocked]/[offline] frame\n"
	      "      --on-cpu        --state running: a CPU profile comparable to perf's\n",
	      to);
}

void cli_io_help(FILE *to)
{
	fputs("Formats:\n"
	      "      --format FMT    output svg, folded, pprof or speedscope (default: from -o's\n"
	      "                      extension .svg .folded .pb.gz .speedscope.json); `perf`\n"
	      "                      reads the inputs as `perf script` text (else recognised\n"
	      "                      by content).  Inputs may be gzip-compressed.\n"
	      "`perf script` input (stackcollapse-perf.pl's options):\n"
	      "      --pid           root frame comm-PID\n"
	      "      --tid           root frame comm-PID/TID\n"
	      "      --kernel        annotate kernel frames with _[k]\n"
	      "      --jit           annotate JIT frames (/tmp/perf-PID.map) with _[j]\n"
	      "      --all           --kernel and --jit\n"
	      "      --addrs         unknown symbols as [dso <addr>]\n"
	      "      --event-filter EVENT  keep samples of EVENT (default: the first event seen)\n",
	      to);
	cli_cut_help(to);
}

static int ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);
	return n >= m && strcmp(s + n - m, suffix) == 0;
}

enum cli_out_format cli_out_format_of(const struct cli_io_opts *io, const char *path,
				      enum cli_out_format dflt)
{
	if (io && io->out != CLI_OUT_AUTO)
		return io->out;
	if (ends_with(path, ".pb.gz") || ends_with(path, ".pprof"))
		return CLI_OUT_PPROF;
	if (ends_with(path, ".speedscope.json"))
		return CLI_OUT_SPEEDSCOPE;
	if (ends_with(path, ".svg"))
		return CLI_OUT_SVG;
	if (ends_with(path, ".folded"))
		return CLI_OUT_FOLDED;
	return dflt;
}

int cli_write_profile(const fold_trie *t, const struct render_opts *ro,
		      const struct cli_io_opts *io, enum cli_out_format dflt, const char *path,
		      struct uf_err *err)
{
	enum cli_out_format f = cli_out_format_of(io, path, dflt);
	if (f == CLI_OUT_SVG) {
		struct render_opts defaults; /* fold: flamegraph.pl's defaults */
		if (!ro)
			render_opts_init(&defaults);
		return cli_write_svg(t, ro ? ro : &defaults, path, err);
	}
	if (f == CLI_OUT_FOLDED)
		return cli_write_folded(t, path, err);
	struct fold_export_opts eo = {
		.count_name = ro && ro->countname ? ro->countname : "samples",
		.period_ns = io ? io->period_ns : 0,
		.name = strrchr(path, '/') ? strrchr(path, '/') + 1 : path,
	};
	struct uf_outfile out;
	int rc = uf_outfile_open(&out, path, err);
	if (rc)
		return rc;
	rc = f == CLI_OUT_PPROF ? fold_write_pprof(t, &eo, out.fp) : fold_write_speedscope(t, &eo, out.fp);
	if (rc) {
		uf_outfile_abort(&out);
		if (rc == -ENOMEM)
			uf_err_oom(err, path);
		else
			uf_err_set(err, UF_EINPUT, path, "write failed");
		return rc;
	}
	return uf_outfile_commit(&out, err);
}
