/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * cli/render-opts.c — parsing the shared render options, and writing
 * outputs atomically (see cli/render-opts.h).
 *
 * Option names and meanings are flamegraph.pl's, so a user can swap the
 * program name: `--minwidth 0.5%`, `--colors java`, `--cp`, and so on.
 * Values are checked here; a bad one is a usage error (exit 1).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cli/cmd.h"
#include "cli/render-opts.h"
#include "fold/out/out.h"
#include "util/outfile.h"

enum {
	O_TITLE = CLI_RENDER_OPT_BASE, O_SUBTITLE, O_WIDTH, O_HEIGHT, O_MINWIDTH, O_FONTTYPE,
	O_FONTSIZE, O_FONTWIDTH, O_COUNTNAME, O_NAMETYPE, O_COLORS, O_BGCOLORS, O_HASH, O_RANDOM,
	O_CP, O_REVERSE, O_INVERTED, O_FLAMECHART, O_NEGATE, O_FACTOR, O_TOTAL, O_NOTES,
	O_NAMEATTR, O_EMBED, O_NO_JS, O_EMBED_BUDGET, O_ENCODING, O_BY, O_CALLERS, O_CALLEES,
};

static const struct option render_options[] = {
	{ "title", required_argument, 0, O_TITLE },
	{ "subtitle", required_argument, 0, O_SUBTITLE },
	{ "width", required_argument, 0, O_WIDTH },
	{ "height", required_argument, 0, O_HEIGHT },
	{ "minwidth", required_argument, 0, O_MINWIDTH },
	{ "fonttype", required_argument, 0, O_FONTTYPE },
	{ "fontsize", required_argument, 0, O_FONTSIZE },
	{ "fontwidth", required_argument, 0, O_FONTWIDTH },
	{ "countname", required_argument, 0, O_COUNTNAME },
	{ "nametype", required_argument, 0, O_NAMETYPE },
	{ "colors", required_argument, 0, O_COLORS },
	{ "colours", required_argument, 0, O_COLORS },
	{ "bgcolors", required_argument, 0, O_BGCOLORS },
	{ "bgcolours", required_argument, 0, O_BGCOLORS },
	{ "hash", no_argument, 0, O_HASH },
	{ "random", no_argument, 0, O_RANDOM },
	{ "cp", optional_argument, 0, O_CP },
	{ "reverse", no_argument, 0, O_REVERSE },
	{ "inverted", no_argument, 0, O_INVERTED },
	{ "icicle", no_argument, 0, O_INVERTED },
	{ "flamechart", no_argument, 0, O_FLAMECHART },
	{ "negate", no_argument, 0, O_NEGATE },
	{ "factor", required_argument, 0, O_FACTOR },
	{ "total", required_argument, 0, O_TOTAL },
	{ "notes", required_argument, 0, O_NOTES },
	{ "nameattr", required_argument, 0, O_NAMEATTR },
	{ "embed", required_argument, 0, O_EMBED },
	{ "embed-budget", required_argument, 0, O_EMBED_BUDGET },
	{ "no-js", no_argument, 0, O_NO_JS },
	{ "encoding", required_argument, 0, O_ENCODING },
	{ "by", required_argument, 0, O_BY },
	{ "callers", required_argument, 0, O_CALLERS },
	{ "callees", required_argument, 0, O_CALLEES },
	{ 0, 0, 0, 0 },
};

struct option *cli_options_merge(const struct option *own)
{
	size_t a = 0, b = sizeof render_options / sizeof render_options[0];
	while (own[a].name)
		a++;
	struct option *all = malloc((a + b) * sizeof *all);
	if (!all)
		return NULL;
	memcpy(all, own, a * sizeof *all);
	memcpy(all + a, render_options, b * sizeof *all);
	return all;
}

/* A finite number in [lo, hi]; returns 0 or -1. */
static int number(const char *opt, const char *arg, double lo, double hi, double *v)
{
	char *end;
	errno = 0;
	double x = strtod(arg, &end);
	if (errno || end == arg || *end || !(x >= lo && x <= hi)) {
		cli_usage(NULL, "'--%s': '%s' is not a number in [%g, %g]", opt, arg, lo, hi);
		return -1;
	}
	*v = x;
	return 0;
}

static int minwidth(struct render_opts *o, const char *arg)
{
	char buf[64];
	size_t n = strlen(arg);
	o->minwidth_pct = n > 0 && arg[n - 1] == '%';
	if (n >= sizeof buf || n == 0) {
		cli_usage(NULL, "'--minwidth': '%s' is not a width (px, or N%%)", arg);
		return -1;
	}
	memcpy(buf, arg, n + 1);
	if (o->minwidth_pct)
		buf[n - 1] = 0;
	return number("minwidth", buf, 0, o->minwidth_pct ? 100 : 1e9, &o->minwidth);
}

static int bgcolors(struct render_opts *o, const char *arg)
{
	static const char *const names[] = { "yellow", "blue", "green", "grey", NULL };
	for (int i = 0; names[i]; i++)
		if (!strcmp(arg, names[i])) {
			o->bgcolors = arg;
			return 0;
		}
	if (strlen(arg) == 7 && arg[0] == '#' && strspn(arg + 1, "0123456789abcdefABCDEF") == 6) {
		o->bgcolors = arg;
		return 0;
	}
	cli_usage(NULL, "'--bgcolors': '%s' is not yellow, blue, green, grey or #rrggbb", arg);
	return -1;
}

/* flamegraph.pl writes the name into the XML declaration as given; the
 * bytes we write are UTF-8 whatever the label, so another label is kept
 * (scripts keep working) but said to be misleading. */
static int encoding(struct render_opts *o, const char *arg)
{
	size_t n = strlen(arg);
	if (n == 0 || n > 40 || strspn(arg, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
					   "0123456789._:-") != n) {
		cli_usage(NULL, "'--encoding': '%s' is not an encoding name", arg);
		return -1;
	}
	if (strcasecmp(arg, "utf-8") && strcasecmp(arg, "utf8"))
		cli_warn("--encoding %s: the SVG is written in UTF-8; names outside ASCII will "
			 "display wrongly under this label", arg);
	o->encoding = arg;
	return 0;
}

static int embed(struct render_opts *o, const char *arg)
{
	if (!strcmp(arg, "full"))
		o->embed = RENDER_EMBED_FULL;
	else if (!strcmp(arg, "none"))
		o->embed = RENDER_EMBED_NONE;
	else if (!strcmp(arg, "auto"))
		o->embed = RENDER_EMBED_AUTO;
	else {
		cli_usage(NULL, "'--embed': '%s' is not full, none or auto", arg);
		return -1;
	}
	return 0;
}

int cli_render_opt(struct render_opts *o, int c, const char *arg)
{
	double v;
	switch (c) {
	case O_TITLE: o->title = arg; return 1;
	case O_SUBTITLE: o->subtitle = arg; return 1;
	case O_WIDTH: return number("width", arg, 50, 1e6, &o->width) ? -1 : 1;
	case O_HEIGHT: return number("height", arg, 1, 1e4, &o->frameheight) ? -1 : 1;
	case O_MINWIDTH: return minwidth(o, arg) ? -1 : 1;
	case O_FONTTYPE: o->fonttype = arg; return 1;
	case O_FONTSIZE: return number("fontsize", arg, 1, 1000, &o->fontsize) ? -1 : 1;
	case O_FONTWIDTH: return number("fontwidth", arg, 0.01, 10, &o->fontwidth) ? -1 : 1;
	case O_COUNTNAME: o->countname = arg; return 1;
	case O_NAMETYPE: o->nametype = arg; return 1;
	case O_COLORS:
		if (!render_palette_known(arg)) {
			cli_usage(NULL, "'--colors': unknown palette '%s' (hot mem io wakeup chain java js "
					"perl python rust red green blue aqua yellow purple orange lib)", arg);
			return -1;
		}
		o->colors = arg;
		return 1;
	case O_BGCOLORS: return bgcolors(o, arg) ? -1 : 1;
	case O_HASH: o->hash = 1; return 1;
	case O_RANDOM: o->random = 1; return 1;
	case O_CP: o->palette_file = arg && *arg ? arg : "palette.map"; return 1;
	case O_REVERSE: o->reverse = 1; return 1;
	case O_INVERTED: o->inverted = 1; return 1;
	case O_FLAMECHART: o->flamechart = 1; return 1;
	case O_NEGATE: o->negate = 1; return 1;
	case O_FACTOR: return number("factor", arg, 1e-300, 1e300, &o->factor) ? -1 : 1;
	case O_TOTAL: return number("total", arg, 0, 1e300, &o->total) ? -1 : 1;
	case O_NOTES: o->notes = arg; return 1;
	case O_NAMEATTR: o->nameattr_file = arg; return 1;
	case O_EMBED: return embed(o, arg) ? -1 : 1;
	case O_EMBED_BUDGET:
		if (number("embed-budget", arg, 1024, 1e12, &v))
			return -1;
		o->embed_budget = (size_t)v;
		return 1;
	case O_NO_JS: o->no_script = 1; return 1;
	case O_ENCODING: return encoding(o, arg) ? -1 : 1;
	case O_BY:
		if (strcmp(arg, "lib") != 0) {
			cli_usage(NULL, "'--by': '%s' is not lib", arg);
			return -1;
		}
		o->by_lib = 1;
		return 1;
	case O_CALLERS: o->callers = arg; return 1;
	case O_CALLEES: o->callees = arg; return 1;
	}
	return 0;
}

void cli_render_help(FILE *to)
{
	cli_render_help_for(to, "render");
}

/* The shared block, with the lines whose meaning differs per command
 * (diff's default title and --negate, record's --flamechart). */
void cli_render_help_for(FILE *to, const char *cmd)
{
	int diff = !strcmp(cmd, "diff");
	fprintf(to, "render options (flamegraph.pl's names and meanings; each long option may\n"
		    "also be written with one dash, as flamegraph.pl allows: -title X, -width=800):\n"
		    "  --title TEXT        title (default %s)\n", diff ? "\"Differential Flame Graph\""
		    : "\"Flame Graph\", \"Icicle Graph\", \"Flame Chart\"");
	fputs("  --subtitle TEXT     second title line\n"
	      "  --width PX          image width (1200)\n"
	      "  --height PX         frame height (16)\n"
	      "  --minwidth PX|N%    hide frames narrower than this (0.1); pruned children\n"
	      "                      show as one grey box per parent\n"
	      "  --fonttype FONT     font family (Verdana)\n"
	      "  --fontsize PX       font size (12)\n"
	      "  --fontwidth F       average glyph width / font size (0.59)\n"
	      "  --countname NAME    what the counts are (samples)\n"
	      "  --nametype TEXT     hover prefix (Function:)\n"
	      "  --colors, --colours PALETTE  hot mem io wakeup chain java js perl python rust\n"
	      "                      red green blue aqua yellow purple orange (hot); lib:\n"
	      "                      a hue per library, with a legend\n"
	      "  --bgcolors, --bgcolours C  yellow blue green grey or #rrggbb (default by palette)\n"
	      "  --hash              colour by name hash (flamegraph.pl --hash)\n"
	      "  --random            random colours (not reproducible)\n"
	      "  --cp[=FILE]         consistent palette: read and update FILE (palette.map)\n"
	      "  --reverse           input stacks are leaf first\n"
	      "  --inverted, --icicle  icicle graph (root at the top)\n",
	      to);
	if (diff)
		fputs("  --flamechart        (refused by diff)\n"
		      "  --negate            draw BEFORE's widths (colours keep their meaning)\n", to);
	else
		fputs("  --flamechart        x axis is input (time) order, stacks not merged\n"
		      "  --negate            swap the colours of a differential input\n", to);
	fputs("  --factor F          multiply counts in tooltips\n"
	      "  --total N           width of 100% in counts (ignored if below the real total)\n"
	      "  --notes TEXT        note embedded as a comment\n"
	      "  --nameattr FILE     per-function <g> attributes: NAME<TAB>attr=value...\n"
	      "                      (event handlers and javascript: values are refused)\n"
	      "  --encoding NAME     encoding label of the XML declaration (the file is UTF-8)\n"
	      "  --embed=auto|full|none  embedded profile data (auto: pruned past --embed-budget)\n"
	      "  --embed-budget BYTES    size budget of the packed data for --embed=auto (786432)\n"
	      "  --no-js             leave the script out (a plain image)\n"
	      "  --by lib            one frame per library (frames of one library in a row\n"
	      "                      merged); libraries come from record or its SVGs\n"
	      "  --callers NAME      only NAME's callers: NAME at the root, each call path\n"
	      "                      above it read upwards (pprof -peek's upper half)\n"
	      "  --callees NAME      only what NAME calls: NAME at the root (pprof -focus,\n"
	      "                      cut at NAME); a sample counts once however NAME recurses\n",
	      to);
}

int cli_write_svg(const fold_trie *t, const struct render_opts *o, const char *path,
		  struct uf_err *err)
{
	struct uf_outfile out;
	struct render_report rep;
	struct render_opts o2 = *o;
	char sub[1024];
	size_t sl;
	const char *ms = fold_meta_get(t, "subtitle", &sl);
	if (!o->subtitle && ms) { /* a recorded profile says how it was made */
		snprintf(sub, sizeof sub, "%.*s", (int)sl, ms);
		o2.subtitle = sub;
	}
	o = &o2;
	int rc = uf_outfile_open(&out, path, err);
	if (rc)
		return rc;
	rc = render_svg(t, o, out.fp, &rep, err);
	if (rc == -EIO) {
		/* a write error: commit sees the stream's error and names the
		 * file and errno (render says only "output"); nothing is renamed */
		uf_err_clear(err);
		rc = uf_outfile_commit(&out, err);
		return rc ? rc : -EIO;
	}
	if (rc) {
		uf_outfile_abort(&out);
		return rc;
	}
	if ((rc = uf_outfile_commit(&out, err)) != 0)
		return rc;
	if (rep.total_ignored)
		cli_warn("--total %g is below the real total; ignored", o->total);
	if (rep.attrs_refused)
		cli_warn("--nameattr: refused attribute '%s' (event handlers, javascript: values and "
			 "bad names are left out; %zu refused in all)", rep.attr_refused, rep.attrs_refused);
	if (rep.embed_pruned)
		cli_warn("embedded profile data pruned to %u of %u call paths to keep the SVG small "
			 "(use --embed=full to keep all)", rep.embed.nodes_written, rep.embed.nodes_total);
	return 0;
}

/* The trie's metadata as '#' lines before the stacks: `# key: "value"`.
 * The closing quote makes every such line fail flamegraph.pl's
 * `STACK COUNT` pattern, so no folded reader takes one for a stack (ours
 * skips '#' lines it cannot parse without counting them bad). */
static void write_meta_comments(const fold_trie *t, FILE *fp)
{
	for (const char *p = t->meta; *p;) {
		const char *nl = strchr(p, '\n');
		size_t n = nl ? (size_t)(nl - p) : strlen(p);
		const char *colon = memchr(p, ':', n);
		if (colon && colon + 2 <= p + n)
			fprintf(fp, "# %.*s: \"%.*s\"\n", (int)(colon - p), p, (int)(p + n - colon - 2),
				colon + 2);
		p += nl ? n + 1 : n;
	}
}

const char *cli_folded_write_error(int rc)
{
	return rc == -ENOMEM  ? "out of memory"
	     : rc == -EDOM    ? "a stack ends in a frame with an empty name, which folded text "
				"cannot carry"
	     : rc == -ERANGE  ? "a count does not fit in the 63 characters folded text allows"
			      : "write failed";
}

int cli_write_folded(const fold_trie *t, const char *path, struct uf_err *err)
{
	struct uf_outfile out;
	int rc = uf_outfile_open(&out, path, err);
	if (rc)
		return rc;
	write_meta_comments(t, out.fp);
	rc = fold_write_folded(t, out.fp);
	if (rc) {
		uf_outfile_abort(&out);
		uf_err_set(err, UF_EINPUT, path, "%s", cli_folded_write_error(rc));
		return rc;
	}
	return uf_outfile_commit(&out, err);
}
