/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * cli/cmd-fold.c — `uniprof-flame fold [FILE...|-] [-o OUT.folded]`.
 *
 * Merges inputs (folded text, or SVGs written by uniprof-flame, read
 * back from their embedded data) and writes folded text sorted as
 * flamegraph.pl sorts it, one line per distinct stack.
 *
 * With --symbols ELF_OR_NM the inputs are uniprof raw stack traces
 * (fold/raw.h) instead, symbolized with that file (ELF through libelf,
 * or `nm -n` text like uniprof's `symbolize`): the PC as is, return
 * addresses as addr - 1.  --raw reads raw traces without a symbol file
 * (frames already symbolized, or addresses kept as names).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cmd.h"
#include "cli/inputs.h"
#include "cli/io-opts.h"
#include "cli/render-opts.h"
#include "fold/in/in.h"
#include "fold/out/out.h"
#include "symtab/symtab.h"
#include "util/outfile.h"
#include "util/vec.h"

struct raw_in {            /* options of the raw-trace path */
	const char *symbols;   /* --symbols FILE, or NULL */
	int addrs;             /* --addrs: unresolved as 0xADDR, not [unknown] */
	struct symtab *st;
	uint64_t looked_up, resolved;  /* addresses, and those with a name */
	uint64_t bias;         /* runtime - file address (a PIE's, guessed) */
	int guessed;           /* guess_pie_bias ran (inputs are files) */
	uint64_t *seen;        /* guess_pie_bias: addresses collected */
	size_t nseen, seen_cap;
	char buf[24];
};

static int read_raw_inputs(fold_trie *t, char **paths, int n, struct raw_in *ri, int reverse,
			   const struct fold_cut *cut, struct uf_err *err);
static int write_sequence(const fold_trie *t, const char *path, struct uf_err *err);

/* fold --diff A B: the union of both inputs' stacks with both counts. */
static int fold_diff(int n, char **paths, int normalize, const char *out,
		     const struct cli_io_opts *io)
{
	if (n != 2)
		return cli_usage("fold ", "'--diff': takes two inputs, A and B (got %d)", n);
	fold_trie *t;
	struct uf_err err = { 0 };
	int rc = cli_read_diff(paths[0], paths[1], normalize, 0, io, &t, &err);
	if (rc == 0)
		rc = cli_write_profile(t, NULL, io, CLI_OUT_FOLDED, out, &err);
	fold_trie_free(t);
	return rc ? cli_fail(&err) : 0;
}

static void usage(FILE *to)
{
	fputs("usage: uniprof-flame fold [options] [FILE...|-] [-o OUT.folded]\n\n"
	      "Merges folded stacks, `perf script` text or uniprof-flame SVGs (gzip or not) into\n"
	      "sorted, deduplicated folded text (or pprof, speedscope: see --format).\n\n"
	      "  -o, --output FILE   write here (default: stdout)\n"
	      "      --reverse       input stacks are leaf first\n"
	      "      --symbols FILE  inputs are uniprof raw traces; symbolize with FILE\n"
	      "                      (an ELF file or `nm -n` output)\n"
	      "      --raw           inputs are uniprof raw traces (no symbol file)\n"
	      "      --addrs         with --symbols: unresolved addresses as 0xADDR; with\n"
	      "                      `perf script` input: as stackcollapse-perf.pl --addrs\n"
	      "      --diff A B      write difffolded.pl's three-column differential\n"
	      "                      (\"stack COUNT_A COUNT_B\") of two inputs\n"
	      "      --normalize     with --diff: scale A to B's total (exact shares)\n"
	      "      --flamechart    keep input (time) order: one line per run of equal\n"
	      "                      stacks, as flamegraph.pl --flamechart reads them\n"
	      "      --by lib        one frame per library (frames of one library in a row\n"
	      "                      merged); needs libraries: an SVG from record\n"
	      "      --callers NAME  NAME's callers: NAME first, then its caller, ... (each\n"
	      "                      sample once, at NAME's outermost frame)\n"
	      "      --callees NAME  NAME and what it calls (each sample once)\n"
	      "  -h, --help          this help\n\n",
	      to);
	cli_io_help(to);
}

int cmd_fold(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "output", required_argument, 0, 'o' },
		{ "reverse", no_argument, 0, 'r' },
		{ "symbols", required_argument, 0, 's' },
		{ "raw", no_argument, 0, 'R' },
		{ "addrs", no_argument, 0, 'A' }, /* raw traces and perf script */
		{ "diff", no_argument, 0, 'D' },
		{ "normalize", no_argument, 0, 'N' },
		{ "flamechart", no_argument, 0, 'C' },
		{ "by", required_argument, 0, 'B' },
		{ "callers", required_argument, 0, 'L' },
		{ "callees", required_argument, 0, 'E' },
		{ "help", no_argument, 0, 'h' },
		{ 0, 0, 0, 0 },
	};
	const char *out = "-";
	int c, reverse = 0, raw = 0, diff = 0, normalize = 0, chart = 0, by_lib = 0, r;
	const char *callers = NULL, *callees = NULL;
	struct raw_in ri = { 0 };
	struct cli_io_opts io = { 0 };
	struct option *all = cli_io_options_merge(opts, CLI_IO_NO_ADDRS);
	if (!all)
		return cli_oom("fold");
	optind = 1;
	while ((c = cli_getopt(argc, argv, "o:h", all, "fold")) != -1) {
		if ((r = cli_io_opt(&io, c, optarg)) != 0) {
			if (r < 0) {
				free(all);
				return UF_EXIT_USAGE;
			}
			continue;
		}
		switch (c) {
		case 'o': out = optarg; break;
		case 'r': reverse = 1; break;
		case 's': ri.symbols = optarg; raw = 1; break;
		case 'R': raw = 1; break;
		case 'A': ri.addrs = io.perf.addrs = 1; break;
		case 'D': diff = 1; break;
		case 'N': normalize = 1; break;
		case 'C': chart = 1; break;
		case 'B':
			if (strcmp(optarg, "lib") != 0) {
				free(all);
				return cli_usage("fold ", "'--by': '%s' is not lib", optarg);
			}
			by_lib = 1;
			break;
		case 'L': callers = optarg; break;
		case 'E': callees = optarg; break;
		case 'h': free(all); usage(stdout); return 0;
		default: free(all); return UF_EXIT_USAGE; /* the message is out */
		}
	}
	free(all);
	if (normalize && !diff)
		return cli_usage("fold ", "'--normalize': only applies with --diff");
	/* --addrs: with --symbols, or stackcollapse-perf.pl's for perf input */
	if (ri.addrs && raw && !ri.symbols)
		return cli_usage("fold ", "'--addrs': only applies with --symbols or perf script input");
	if (chart && diff)
		return cli_usage("fold ", "'--flamechart': cannot be combined with --diff");
	if (by_lib && (chart || diff))
		return cli_usage("fold ", "'--by=lib': cannot be combined with --%s", chart ? "flamechart" : "diff");
	if (callers && callees)
		return cli_usage("fold ", "'--callers': cannot be combined with --callees (one half at a time)");
	if ((callers || callees) && (chart || diff))
		return cli_usage("fold ", "'--%s': cannot be combined with --%s", callers ? "callers" : "callees",
				 chart ? "flamechart" : "diff");
	if (diff)
		return fold_diff(argc - optind, argv + optind, normalize, out, &io);
	fold_trie *t = fold_trie_new();
	struct uf_err err = { 0 };
	if (!t)
		return cli_oom("fold");
	if (chart)
		fold_trie_keep_sequence(t);
	enum cli_out_format of = cli_out_format_of(&io, out, CLI_OUT_FOLDED);
	if (of == CLI_OUT_PPROF || of == CLI_OUT_SPEEDSCOPE)
		fold_trie_keep_when(t); /* per-sample times and states, where the input has them */
	int rc = raw ? read_raw_inputs(t, argv + optind, argc - optind, &ri, reverse, &io.cut, &err)
		     : cli_read_inputs(&t, argv + optind, argc - optind, reverse, &io, &err);
	symtab_free(ri.st);
	if (rc == 0)
		rc = cli_by_lib_apply(&t, by_lib, &err);
	if (rc == 0)
		rc = cli_sandwich_apply(&t, callers, callees, &err);
	if (rc == 0)
		rc = chart ? write_sequence(t, out, &err)
			   : cli_write_profile(t, NULL, &io, CLI_OUT_FOLDED, out, &err);
	fold_trie_free(t);
	return rc ? cli_fail(&err) : 0;
}

/* One folded line per run of equal stacks, in input (time) order: what
 * flamegraph.pl --flamechart draws from, so the order survives. */
static int write_lines(const fold_trie *t, FILE *fp, uint32_t *path)
{
	int rc = 0;
	for (size_t i = 0; i < t->seq_len && rc == 0;) {
		uint32_t node = t->seq_node[i], k = fold_trie_depth(t, node);
		double c = 0, b = 0;
		for (; i < t->seq_len && t->seq_node[i] == node; i++) {
			c += t->seq_count[i];
			b += t->seq_base ? t->seq_base[i] : 0;
		}
		for (uint32_t n = node, d = k; d > 0; n = t->parent[n])
			path[--d] = n;
		/* the folded writer's rules: names escaped, read back unchanged */
		rc = fold_write_stack_line(t, fp, path, k, t->base ? &b : NULL, c);
	}
	return rc ? rc : ferror(fp) ? -EIO : 0;
}

static int write_sequence(const fold_trie *t, const char *path, struct uf_err *err)
{
	struct uf_outfile out;
	uint32_t *stack = malloc(((size_t)t->maxdepth + 2) * sizeof *stack);
	int rc = stack ? uf_outfile_open(&out, path, err) : -ENOMEM;
	if (rc == 0 && (rc = write_lines(t, out.fp, stack)) != 0)
		uf_outfile_abort(&out);
	else if (rc == 0)
		rc = uf_outfile_commit(&out, err);
	if (rc && !err->cls)
		uf_err_set(err, UF_EINPUT, path, "%s", cli_folded_write_error(rc));
	free(stack);
	return rc;
}

/* Address -> name through the --symbols table (fold_raw_resolve_fn). */
static const char *resolve(void *ctx, uint64_t addr, int is_return, size_t *len)
{
	struct raw_in *ri = ctx;
	const char *name = NULL;
	if (addr > ri->bias)
		name = is_return ? symtab_lookup_ret(ri->st, addr - ri->bias, NULL, len)
				 : symtab_lookup(ri->st, addr - ri->bias, NULL, len);
	ri->looked_up++;
	ri->resolved += name != NULL;
	if (name || !ri->addrs)
		return name;
	*len = (size_t)snprintf(ri->buf, sizeof ri->buf, "0x%" PRIx64, addr);
	return ri->buf;
}

/* A raw trace holds runtime addresses; a position-independent program's
 * are its file addresses plus a load bias the trace does not record, so
 * its frames cannot resolve: say so in one line rather than print a
 * profile of [unknown] frames (issue 27).  Also when under half of the
 * addresses resolve against any file: probably not the traced program. */
static void warn_unresolved(const struct raw_in *ri)
{
	if (!ri->st || ri->looked_up == 0 || ri->resolved * 2 >= ri->looked_up)
		return;
	/* counted per symbol search, which the reader caches: a share */
	unsigned pct = (unsigned)((ri->looked_up - ri->resolved) * 100 / ri->looked_up);
	if (symtab_is_pie(ri->st))
		cli_warn("%s: %u %% of the addresses unresolved: the program is position-independent "
			 "(PIE), a raw trace has no load address and %s; record with --folded "
			 "or -o, or build with -no-pie", ri->symbols, pct,
			 ri->guessed ? "none could be inferred" : "stdin cannot be read twice to infer it");
	else
		cli_warn("%s: %u %% of the addresses unresolved: is this the traced program?",
			 ri->symbols, pct);
}

/* First pass of a PIE's traces: collects their addresses (at most 1M). */
static const char *collect_addr(void *ctx, uint64_t addr, int is_return, size_t *len)
{
	struct raw_in *ri = ctx;
	(void)is_return;
	(void)len;
	if (ri->nseen < (1u << 20) &&
	    uf_vec_grow(&ri->seen, &ri->seen_cap, ri->nseen + 1, sizeof *ri->seen) == 0)
		ri->seen[ri->nseen++] = addr;
	return NULL;
}

/* A raw trace has runtime addresses and no maps: for a position-
 * independent program, read the files once to collect them and let
 * symtab_guess_bias find the load address (stdin cannot be read twice:
 * then the warning below says why frames are unknown). */
static void guess_pie_bias(struct raw_in *ri, char **paths, int n)
{
	for (int i = 0; i < n; i++)
		if (strcmp(paths[i], "-") == 0)
			return;
	ri->guessed = 1;
	for (int i = 0; i < n; i++) {
		fold_trie *scratch = fold_trie_new();
		struct fold_read_opts o = { .label = paths[i] };
		struct fold_read_stats st = { 0 };
		struct fold_raw_counts cnt = { 0 };
		struct uf_err e2 = { 0 };
		if (scratch)
			fold_raw_read_path(scratch, paths[i], collect_addr, ri, &o, &st, &cnt, &e2);
		fold_trie_free(scratch);
	}
	/* bias 0: the trace has file addresses already (symbolized by hand) */
	if (symtab_guess_bias(ri->st, ri->seen, ri->nseen, &ri->bias) == 0 && ri->bias)
		cli_warn("%s: position-independent (PIE); load address 0x%llx inferred from the trace",
			 ri->symbols, (unsigned long long)ri->bias);
	free(ri->seen);
	ri->seen = NULL;
}

static void warn_raw(const struct fold_read_stats *st, const struct fold_raw_counts *cnt)
{
	cli_warn_read_stats(st);
	if (cnt->broken)
		cli_warn("%llu stack%s cut short (walk stopped, or input ended mid-stack)",
			 (unsigned long long)cnt->broken, cnt->broken == 1 ? "" : "s");
}

/* Reads uniprof raw traces (stdin when n == 0) into t and finishes it. */
static int read_raw_inputs(fold_trie *t, char **paths, int n, struct raw_in *ri, int reverse,
			   const struct fold_cut *cut, struct uf_err *err)
{
	static char *stdin_only[] = { "-" };
	if (ri->symbols && !(ri->st = symtab_open_auto(ri->symbols, err)))
		return -EINVAL;
	if (n == 0)
		paths = stdin_only, n = 1;
	if (ri->st && symtab_is_pie(ri->st))
		guess_pie_bias(ri, paths, n);
	struct fold_read_stats total = { 0 };
	struct fold_raw_counts cnt = { 0 };
	fold_trie_set_cut(t, cut);
	for (int i = 0; i < n; i++) {
		struct fold_read_opts o = { .reverse = reverse, .label = paths[i] };
		struct fold_read_stats st = { 0 }; /* per file: line numbers */
		int rc = fold_raw_read_path(t, paths[i], ri->st ? resolve : NULL, ri, &o, &st, &cnt, err);
		if (rc)
			return rc;
		if (st.bad && !total.bad)
			memcpy(total.first_bad, st.first_bad, sizeof total.first_bad);
		total.bad += st.bad;
		total.truncated += st.truncated;
	}
	warn_raw(&total, &cnt);
	warn_unresolved(ri);
	if (cli_cut_check(t, n == 1 ? paths[0] : "input", err) < 0)
		return -EINVAL;
	if (fold_trie_state_meta(t) < 0 || fold_trie_finish(t)) {
		uf_err_oom(err, "input");
		return -ENOMEM;
	}
	if (cnt.stacks == 0) {
		uf_err_set(err, UF_EINPUT, n == 1 ? paths[0] : "input", "no valid stacks");
		return -EINVAL;
	}
	return 0;
}
